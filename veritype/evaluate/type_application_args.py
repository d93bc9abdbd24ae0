"""The type arguments of a generic class subscripted in a value, checked as types.

`list[int]` written as a value is a type application (evaluate/
type_applications): mypy 2.4.1 analyzes each argument of a subscripted
generic class, typing alias of one (`List`, `Dict`) or type alias as a type
expression and reports what is none at its place: `print(List[1])` is
`Invalid type: try using Literal[1] instead?`, `Dict[str, n]` for a variable
`n` is `Variable "n" is not valid as a type`, `list[...]` is `Unexpected
"..."`. A generic class given the wrong number of them is `Type application
has too many types (1 expected)` / `too few types (2 expected)` [misc].
Allowed as there: `tuple[X, ...]`'s `...`, a parameter list or `...` for a
class with a ParamSpec parameter, `*Ts` for one with a TypeVarTuple.
`typing.Tuple[...]` is a special form to mypy there, not analyzed, nor are
`Union`, `Optional`, `Callable` and the other special forms.
"""

from __future__ import annotations

import ast
import weakref
from typing import TYPE_CHECKING

from veritype.evaluate.special import CLASS_ALIASES

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.expressions import ExprEvaluator


# The values of type aliases in function bodies, checked as types where they are
# assigned (check/local_aliases), in mypy's words for an alias: not again here.
ALIAS_VALUES: "weakref.WeakSet[ast.expr]" = weakref.WeakSet()


def check_application_args(ex: "ExprEvaluator", node: ast.Subscript) -> None:
    """`node`, a value subscript whose arguments have the shapes of types."""
    if not ex.reporting or ex.scope is None or node in ALIAS_VALUES:
        return
    base = node.value
    if type(base) is not ast.Name and type(base) is not ast.Attribute:
        return
    ev = ex.ev
    scope = ex.scope
    ref = ev.resolve_expr(base, scope)
    if ref is None:
        return
    info: "ClassInfo | None" = None
    if ref.kind == "class":
        info = ref.info
        if info is None or not (info.type_vars or info.fullname == "builtins.tuple"):
            return
    elif ref.kind == "special":
        name = ref.fullname.rpartition(".")[2]
        if name not in CLASS_ALIASES or name == "Text":
            return
        info = ev.named_class(CLASS_ALIASES[name])
        if info is None:
            return
    else:
        # (Imported here: declarations imports the expression evaluator, which imports
        # this module. Asked only of a subscripted name that is no class.)
        from veritype.evaluate.declarations import alias_info

        if ref.sym is None or ref.scope is None or alias_info(ev, ref.sym, ref.scope) is None:
            return
    args = list(node.slice.elts) if type(node.slice) is ast.Tuple else [node.slice]
    kinds = {tv.kind for tv in info.type_vars} if info is not None else set()
    if info is not None and info.fullname == "builtins.tuple":
        kinds = {"typevartuple"}
        if len(args) == 2 and type(args[1]) is ast.Constant and args[1].value is Ellipsis:
            args = args[:1]
    report = _reporter(ex)
    for a in args:
        if "paramspec" in kinds and (type(a) is ast.List or (type(a) is ast.Constant and a.value is Ellipsis)):
            continue
        if type(a) is ast.Starred:
            continue
        if type(a) is ast.UnaryOp and type(a.op) is ast.USub and type(a.operand) is ast.Constant and type(a.operand.value) is int:
            # (mypy's words for a negative number, at the number)
            ex.error(a.operand, f"Invalid type: try using Literal[-{a.operand.value}] instead?", "valid-type")
            continue
        ev.type_exprs.evaluate(a, scope, report=report)
    if info is None or kinds & {"paramspec", "typevartuple"} or any(tv.default is not None for tv in info.type_vars):
        return
    expected = len(info.type_vars)
    if len(args) > expected:
        ex.error(node, f"Type application has too many types ({expected} expected)", "misc")
    elif len(args) < expected:
        ex.error(node, f"Type application has too few types ({expected} expected)", "misc")


def _reporter(ex: "ExprEvaluator"):  # type: ignore[no-untyped-def]
    def report(node: ast.AST, msg: str, code: str) -> None:
        if msg.startswith("Invalid location for ParamSpec"):
            # Each argument is read here as a type of its own, but a ParamSpec is a
            # valid argument for a ParamSpec parameter (`ClassA[T, P1]`: spec,
            # "ParamSpec"), which the class's or alias's own reading checks.
            return
        ex.type_report(node, msg, code)

    return report
