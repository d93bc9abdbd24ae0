"""mypy's words and place for a `Literal[...]` parameter that is no literal.

mypy 2.4.1 reports the first invalid parameter at the `Literal[...]`
subscript itself: what reads as a type but is no literal (a variable, a
class, a union, a list, a tuple, `...`: `Literal[v]`, `Literal["a", int]`) as
`Parameter 2 of Literal[...] is invalid`, numbered from 1 (`Any`: `cannot be of
type "Any"`); anything else
(`Literal[1 + 2]`, `Literal[3.5]`, a call) as `Invalid type: Literal[...]
cannot contain arbitrary expressions` [valid-type].
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

# What reads as a type (mypy's expr_to_unanalyzed_type): a name, dotted name,
# subscript, list, tuple, dict (an inline TypedDict), `*x`, `X | Y`.
_TYPE_SHAPED = (ast.Name, ast.Attribute, ast.Subscript, ast.List, ast.Tuple, ast.Dict, ast.Starred)


def invalid_parameter_message(ev: "Evaluator", scope: "Scope", arg: ast.expr, index: int) -> str:
    """The message for `arg`, the `index`-th (from 1) parameter of a Literal."""
    if type(arg) is ast.Name or type(arg) is ast.Attribute:
        ref = ev.resolve_expr(arg, scope)
        if ref is not None and ref.kind == "special" and ref.fullname.rpartition(".")[2] == "Any":
            return f'Parameter {index} of Literal[...] cannot be of type "Any"'
    if (isinstance(arg, _TYPE_SHAPED) or (type(arg) is ast.Constant and arg.value is Ellipsis)
            or (type(arg) is ast.BinOp and type(arg.op) is ast.BitOr)):
        return f"Parameter {index} of Literal[...] is invalid"
    return "Invalid type: Literal[...] cannot contain arbitrary expressions"
