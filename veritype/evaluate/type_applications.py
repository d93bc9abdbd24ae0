"""A generic class or a type alias subscripted, in a value, with something no type is.

`list[int]` written as a value is a type application: its arguments are types
(the typing spec, "Generics": "Type[...]" of a generic class used at run time
is a `GenericAlias`; PEP 585). mypy 2.4.1 reads the arguments of every such
subscript of a generic class, a typing alias of one (`List`) or a type alias
as type expressions, and where one is no type expression at all (a call, a
comparison, a slice, a lambda...: `tuple[tuple(xs)]`, `list[len(xs)]`) it
reports `Type expected within [...]` [misc] at the subscript. An assignment
that makes a type alias of such a value (`A = list[len(xs)]` anywhere; in a
function or class body too, where a subscripted value is an alias as at module
scope) is also `Invalid type alias: expression is not a valid type`
[valid-type] there (cattrs's `hetero_tuple_type = tuple[tuple(cl.__annotations__.values())]`).

What "no type expression at all" is follows the shapes a type may have in
source: names and dotted names, subscripts of them, `X | Y`, string and
number literals, `-1`, `...`, `None`, a list (Callable's parameters), a dict
of string keys (inline TypedDict), `*Ts`; anything else is none.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.special import CLASS_ALIASES
from veritype.evaluate.type_application_args import check_application_args

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.evaluate.scopes import Scope

TYPE_EXPECTED = "Type expected within [...]"
INVALID_ALIAS = "Invalid type alias: expression is not a valid type"

_NUMBERS = (int, float, complex)


def _type_shaped(node: ast.AST, in_list: bool = False) -> bool:
    """Whether `node` has the shape of a type expression (see the module doc)."""
    t = type(node)
    if t is ast.Name:
        return True
    if t is ast.Attribute:
        return _dotted(node)
    if t is ast.Subscript:
        return type(node.value) in (ast.Name, ast.Attribute) and _type_shaped(node.value) and arguments_shaped(node)  # type: ignore[attr-defined, arg-type]
    if t is ast.Constant:
        return True  # a string (parsed later), bytes, a number, None, True, `...`
    if t is ast.BinOp:
        return type(node.op) is ast.BitOr and _type_shaped(node.left) and _type_shaped(node.right)  # type: ignore[attr-defined]
    if t is ast.List:
        return all(_type_shaped(e, in_list=True) for e in node.elts)  # type: ignore[attr-defined]
    if t is ast.UnaryOp:
        operand = node.operand  # type: ignore[attr-defined]
        return (type(node.op) in (ast.USub, ast.UAdd) and type(operand) is ast.Constant  # type: ignore[attr-defined]
                and isinstance(operand.value, int))
    if t is ast.Starred:
        return _type_shaped(node.value)  # type: ignore[attr-defined]
    if t is ast.Dict:
        keys = node.keys  # type: ignore[attr-defined]
        return bool(keys) and all(k is None or (type(k) is ast.Constant and isinstance(k.value, str)) for k in keys) and all(
            _type_shaped(v) for v in node.values)  # type: ignore[attr-defined]
    if t is ast.Call:
        return in_list  # `Callable[[Arg(int, "x")], None]` (mypy_extensions' argument constructors)
    return False


def _dotted(node: ast.AST) -> bool:
    while type(node) is ast.Attribute:
        node = node.value  # type: ignore[attr-defined]
    return type(node) is ast.Name


def arguments_shaped(node: ast.Subscript) -> bool:
    index = node.slice
    items = index.elts if type(index) is ast.Tuple else [index]  # type: ignore[attr-defined]
    return all(_type_shaped(i) for i in items)


def _applies_types(ev: object, base: ast.expr, scope: "Scope") -> bool:
    """Whether `base` names a generic class, a typing alias of a class, or a type
    alias: what mypy reads a subscript of as a type application."""
    if type(base) is not ast.Name and type(base) is not ast.Attribute:
        return False
    ref = ev.resolve_expr(base, scope)  # type: ignore[attr-defined]
    if ref is None:
        return False
    if ref.kind == "class":
        return ref.info is not None and (bool(ref.info.type_vars) or ref.info.fullname == "builtins.tuple")
    if ref.kind == "special":
        return ref.fullname.rpartition(".")[2] in CLASS_ALIASES or ref.fullname.rpartition(".")[2] == "Tuple"
    if ref.sym is not None and ref.scope is not None:
        from veritype.evaluate.declarations import alias_info

        return alias_info(ev, ref.sym, ref.scope) is not None  # type: ignore[arg-type]
    return False


def check_type_application(ex: "ExprEvaluator", node: ast.Subscript) -> None:
    """`list[len(xs)]` as a value: 'Type expected within [...]' at the subscript;
    `List[1]`: its arguments checked as types (type_application_args)."""
    if ex.scope is None:
        return
    if arguments_shaped(node):
        check_application_args(ex, node)
        return
    if not _applies_types(ex.ev, node.value, ex.scope):
        return
    ex.error(node, TYPE_EXPECTED, "misc")


def report_invalid_alias(checker: "ModuleChecker", stmt: ast.Assign) -> bool:
    """`A = list[len(xs)]`, an assignment that makes a type alias (`stmt`, a
    module's or class's, checked as one): mypy's two errors at the value, and
    True; False where the value is a type expression to evaluate."""
    value = stmt.value
    if type(value) is not ast.Subscript or arguments_shaped(value):
        return False
    checker.error(value, TYPE_EXPECTED, "misc")
    checker.error(value, INVALID_ALIAS, "valid-type")
    return True
