"""mypy's optional `redundant-expr`: a condition whose outcome is always the same.

With the code enabled, mypy 2.4.1 reports, in an expression (not an `if` or
`while` statement, whose dead branch is `--warn-unreachable`'s business):

- `Left operand of "and" is always true` / `Left operand of "or" is always
  false`, at that operand (every operand but the last);
- `If condition is always true` / `... false` for the test of a conditional
  expression, `If condition in comprehension is always true` / `... false`
  for a comprehension's `if`.

mypy decides it from the types (`Literal[True]`, a non-zero int literal, a
function or class object, a non-empty fixed-length tuple are always true;
None and the empty literals always false) and from its narrowing (`x is not
None` on an `int` can never be false). Its types and narrowing (of `is None`,
literal `==` and isinstance tests) are followed here where
veritype's agree with them: a class without `__bool__`/`__len__` is not
"always true" for mypy, nor is a string literal it inferred (only a declared
`Literal["x"]`), and a plain reference's truth is judged by its type alone.
An operand that is a `TYPE_CHECKING`, version or platform test is left
alone (mypy: constant on purpose).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import (
    CallableType, LiteralType, NeverType, NoneType, Overloaded, TupleType, Type, TypeType, UnpackType, union_items,
)
from veritype.diagnostics.enabled import code_enabled

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def enabled(ex: "ExprEvaluator", code: str = "redundant-expr") -> bool:
    """Whether `code` (this module's, or `unreachable` for check_right_operand) is on
    where `ex` infers."""
    return ex.scope is not None and code_enabled(ex.ev.program.options.for_module(ex.scope.module.name), code)


def check_operand(ex: "ExprEvaluator", node: ast.BoolOp, index: int, t: Type) -> None:
    """Operand `index` (not the last) of an `and`/`or`, of type `t`."""
    value = node.values[index]
    if not enabled(ex) or _static(ex, value):
        return
    if isinstance(node.op, ast.And):
        if always(ex, value, t, True):
            ex.error(value, 'Left operand of "and" is always true', "redundant-expr")
    elif always(ex, value, t, False):
        ex.error(value, 'Left operand of "or" is always false', "redundant-expr")


def check_right_operand(ex: "ExprEvaluator", node: ast.BoolOp, index: int, t: Type) -> bool:
    """`--warn-unreachable`: mypy's `Right operand of "or" is never evaluated`
    [unreachable] where operand `index` (of type `t`) always decides an
    `or` (always true) or an `and` (always false); reported at the next
    operand (mypy nests `a or b or c` as `a or (b or c)`). True when reported,
    so that the caller reports it once per expression."""

    value = node.values[index]
    if not ex.reporting or not enabled(ex, "unreachable"):
        return False
    is_or = isinstance(node.op, ast.Or)
    if _static(ex, value) or not always(ex, value, t, is_or):
        return False
    ex.error(node.values[index + 1], f'Right operand of "{"or" if is_or else "and"}" is never evaluated', "unreachable")
    return True


def check_condition(ex: "ExprEvaluator", test: ast.expr, t: Type, where: str) -> None:
    """The test of a conditional expression (`where` "") or of a comprehension (" in comprehension")."""
    if not enabled(ex):
        return
    for outcome in (True, False):
        if always(ex, test, t, outcome):
            ex.error(test, f"If condition{where} is always {'true' if outcome else 'false'}", "redundant-expr")
            return


def always(ex: "ExprEvaluator", node: ast.expr, t: Type, outcome: bool) -> bool:
    """Whether `node` (of type `t`) always tests `outcome` in mypy's judgement."""
    items = union_items(t)
    if items and not isinstance(t, NeverType) and all(_item_always(i, outcome) for i in items):
        # A `type[C]` value may be false for mypy (a metaclass may say so); a class
        # named directly is a constructor, which is always true.
        return not any(isinstance(i, TypeType) for i in items) or _names_class(ex, node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = node.operand
        if isinstance(operand, (ast.Name, ast.Attribute)):
            return always(ex, operand, ex.infer(operand), not outcome)
        return _narrowing_test(operand) and always(ex, operand, NeverType(), not outcome)
    if _narrowing_test(node):
        # Narrowing: the other outcome leaves some reference nothing (`x is not None` on an int).
        other = ex.narrow_for(node, not outcome)
        return any(isinstance(v, NeverType) for v in other.values())
    return False


def _item_always(t: Type, outcome: bool) -> bool:
    if isinstance(t, LiteralType):
        if t.is_enum:
            return False
        if isinstance(t.value, (str, bytes)) and not t.declared:
            return False  # mypy's inferred string literal may be false, for all it says
        return bool(t.value) is outcome
    if outcome:
        if isinstance(t, (CallableType, Overloaded, TypeType)):
            return True
        return (isinstance(t, TupleType) and bool(t.items) and t.fallback.info.fullname == "builtins.tuple"
                and not any(isinstance(i, UnpackType) for i in t.items))
    if isinstance(t, TupleType):
        return not t.items and t.fallback.info.fullname == "builtins.tuple"
    return isinstance(t, NoneType)


def _names_class(ex: "ExprEvaluator", node: ast.expr) -> bool:
    if ex.scope is None or not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    ref = ex.ev.resolve_expr(node, ex.scope)
    return ref is not None and ref.kind == "class"


def _narrowing_test(node: ast.expr) -> bool:
    """A test whose narrowing mypy and veritype agree on: `x is None`, `x is not
    None`, `==`/`!=` against a literal value or an enum member, and
    `isinstance`/`issubclass`. (veritype narrows `x is sentinel` on an unrelated
    class to nothing, where mypy keeps `x`.)"""
    if isinstance(node, ast.Compare):
        if len(node.ops) != 1:
            return False
        sides = (node.left, node.comparators[0])
        if isinstance(node.ops[0], (ast.Is, ast.IsNot)):
            return any(isinstance(n, ast.Constant) and n.value is None for n in sides)
        # `phase == "stop"` on a `Literal["stop"]`, `c == Color.BLUE` on an enum literal.
        return isinstance(node.ops[0], (ast.Eq, ast.NotEq)) and any(
            isinstance(n, ast.Constant) and n.value is not None or isinstance(n, ast.Attribute) for n in sides)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "issubclass")


def _static(ex: "ExprEvaluator", node: ast.expr) -> bool:
    """mypy's `right_always`: a left operand that is a version, platform or
    TYPE_CHECKING test is constant on purpose and not reported."""
    from veritype.semantic.conditions import evaluate_condition

    if any(isinstance(n, ast.Constant) for n in ast.walk(node)) and not isinstance(node, ast.Compare):
        return False  # `True and x`: a literal, no such test (mypy reports it)
    opts = ex.ev.program.options
    always = (frozenset(opts.always_true), frozenset(opts.always_false)) if opts.always_true or opts.always_false else None
    return evaluate_condition(node, opts.python_version, opts.platform, always) is not None
