"""Where and how an operator's unsupported operand types are reported, and the
note after them when an operand is a union.

mypy 2.4.1 reports `Unsupported operand types for + ("str" and "int")` at the
right operand when the left operand's type has the operator method (it is
the method's argument that does not fit: `(s +` and `n)` on two lines is
reported on the second) and at the whole operation otherwise (`None + 1`),
or when the right operand is a union (its items are tried one by one); an
augmented assignment's right operand is its value. A comparison whose left
operand has no method at all is reported as the reflected one that failed:
`object() < 1` is `Unsupported operand types for > ("int" and "object")`.
When some pair of a union's items failed, one note follows the operation's
last error: `Left operand is of type "int | str"`, `Right operand is of type
"int | None"`, or `Both left and right operands are unions`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import Type, union_items

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_REFLECTED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}

# [errors reported so far, where the last one was]: read before and after one
# operation's pairs are tried (a change: union_note), in this one-threaded checker.
reported: list = [0, None]


def right_operand(node: ast.AST, right: Type) -> ast.expr | None:
    """The right operand of a binary operation or an augmented assignment (or
    `node` itself, a comparison's), where an error may be reported: not when
    its type `right` is a union, whose items mypy tries one by one, each
    reported at the whole operation."""
    if len(union_items(right)) >= 2:
        return None
    if type(node) is ast.BinOp:
        return node.right  # type: ignore[attr-defined]
    if type(node) is ast.AugAssign:
        return node.value  # type: ignore[attr-defined]
    return node if isinstance(node, ast.expr) else None


def report_operand_error(ex: "ExprEvaluator", node: ast.AST, right_node: ast.expr | None, left: Type, right: Type,
                         dunder: str, rdunder: str, sym: str, compare: bool = False) -> ast.AST:
    """Report that no method takes `left` `sym` `right`; return the node it is reported at."""
    ev = ex.ev
    has_method = ev.bound_member(left, dunder) is not None
    if compare and not has_method and ev.bound_member(right, rdunder) is not None:
        message = f'Unsupported operand types for {_REFLECTED[sym]} ("{format_type(widen_literals(right))}" and "{format_type(widen_literals(left))}")'
    else:
        message = ex.operand_message(left, right, dunder, rdunder, sym)
    at = right_node if has_method and right_node is not None else node
    ex.error(at, message, "operator")
    reported[0] += 1
    reported[1] = at
    return at


def union_note(ex: "ExprEvaluator", left: Type, right: Type) -> None:
    """mypy's note after an operation's operand errors, when an operand is a union."""
    at = reported[1]
    left_union = len(union_items(left)) >= 2
    right_union = len(union_items(right)) >= 2
    if left_union and right_union:
        ex.note(at, "Both left and right operands are unions")
    elif left_union:
        ex.note(at, f'Left operand is of type "{format_type(left)}"')
    elif right_union:
        ex.note(at, f'Right operand is of type "{format_type(right)}"')
