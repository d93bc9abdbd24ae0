"""What `isinstance()`/`issubclass()` cannot take as classes: parameterized generics,
`Literal`, an alias of `Any`.

Run-time class checks need real classes. mypy 2.4.1 reports, at the call, for
each item of the second argument (tuples, lists and `*` unpacked flattened):
- a generic class, a typing alias of one (`List`) or a type alias subscripted
  (`list[int]`, `Dict[str, int]`, `tuple[int, ...]`), or the name of a type
  alias with type arguments whose target is no union (`A = list[int]`;
  `A = list`, `A = int` and `A = Optional[int]` are fine): `Parameterized
  generics cannot be used with class or instance checks` [misc] (Python
  raises `TypeError: Subscripted generics cannot be used with class and
  instance checks`);
- `Literal[...]` or an alias of one: `Cannot use isinstance() with Literal type`;
- an alias of `Any`: `Cannot use isinstance() with Any type`.
`typing.Tuple[int]`, `Union[...]`, `Optional[...]` and `Callable[...]` are
special forms there, not type applications: their argument type is wrong
instead ([arg-type], reported by the call). NewType, TypedDict and protocol
items are special_calls' (_newtype_in_class_check).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.special import CLASS_ALIASES
from veritype.types.model import AnyType, LiteralType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

PARAMETERIZED = "Parameterized generics cannot be used with class or instance checks"


def check_class_info_item(exprs: "ExprEvaluator", call: ast.Call, item: ast.expr, short: str) -> None:
    """Report `item` (one of the classes `call` checks against) if it is one of the above."""
    kind = type(item)
    if kind is ast.Tuple or kind is ast.List:
        for elt in item.elts:  # type: ignore[attr-defined]
            check_class_info_item(exprs, call, elt, short)
        return
    if kind is ast.Starred:
        check_class_info_item(exprs, call, item.value, short)  # type: ignore[attr-defined]
        return
    if kind is ast.Subscript:
        _subscript(exprs, call, item, short)  # type: ignore[arg-type]
    elif kind is ast.Name:
        _alias_name(exprs, call, item, short)  # type: ignore[arg-type]


def _subscript(exprs: "ExprEvaluator", call: ast.Call, item: ast.Subscript, short: str) -> None:
    base = item.value
    if type(base) is not ast.Name and type(base) is not ast.Attribute:
        return
    ev = exprs.ev
    ref = ev.resolve_expr(base, exprs.scope)  # type: ignore[arg-type]
    if ref is None:
        return
    if ref.kind == "special":
        name = ref.fullname.rpartition(".")[2]
        if name == "Literal":
            exprs.error(call, f"Cannot use {short}() with Literal type", "misc")
        elif name in CLASS_ALIASES and name != "Type":  # (`Type[int]`: a special form to mypy, [arg-type])
            exprs.error(call, PARAMETERIZED, "misc")
        return
    if ref.kind == "class":
        if ref.info is not None and (ref.info.type_vars or ref.info.fullname == "builtins.tuple"):
            exprs.error(call, PARAMETERIZED, "misc")
        return
    if ref.sym is not None and ref.scope is not None and _alias_info(ev, ref.sym, ref.scope) is not None:
        exprs.error(call, PARAMETERIZED, "misc")


def _alias_name(exprs: "ExprEvaluator", call: ast.Call, item: ast.Name, short: str) -> None:
    ev = exprs.ev
    ref = ev.resolve_expr(item, exprs.scope)  # type: ignore[arg-type]
    if ref is None or ref.kind != "symbol" or ref.sym is None or ref.scope is None:
        return
    found = _alias_info(ev, ref.sym, ref.scope)
    if found is None:
        return
    target = found[0]
    if type(target) is LiteralType or (type(target) is UnionType and all(type(i) is LiteralType for i in target.items)):
        exprs.error(call, f"Cannot use {short}() with Literal type", "misc")
    elif type(target) is AnyType and target.reason == "explicit":
        exprs.error(call, f"Cannot use {short}() with Any type", "misc")
    elif type(target) is not UnionType and _with_arguments(ref.sym.node):
        exprs.error(call, PARAMETERIZED, "misc")


def _with_arguments(node: object) -> bool:
    """Whether the alias's value is written with type arguments (`list[int]`), not
    as a bare class (`list`, `int`: mypy's "no_args" alias). Not a `type` statement's
    alias, a `TypeAliasType` object at run time."""
    return (type(node) is ast.Assign or type(node) is ast.AnnAssign) and type(node.value) is ast.Subscript


def _alias_info(ev, sym, scope):  # type: ignore[no-untyped-def]
    # (Imported here: declarations imports the expression evaluator, which imports
    # this module through special_calls. Asked only of an item that is no plain class.)
    from veritype.evaluate.declarations import alias_info

    return alias_info(ev, sym, scope)
