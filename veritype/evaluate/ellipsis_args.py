"""`...` where a type argument of a generic class is expected: `Unexpected "..."`.

`...` is a type argument only in `tuple[X, ...]`, for a ParamSpec parameter
and as `Callable`'s parameter list (spec, "Callable", "Tuples", "ParamSpec").
mypy 2.4.1 reports it anywhere else among a generic class's arguments
(`List[...]`, `Dict[str, ...]`, `list[list[...]]`) at the `...`: `Unexpected
"..."` [misc]. The argument is then Any, as it was.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.type_context import TypeContext
    from veritype.evaluate.type_expr import TypeExprEvaluator


def report_ellipsis_args(te: "TypeExprEvaluator", args: list[ast.expr], ctx: "TypeContext") -> None:
    """Report each `...` of `args`, the arguments of a class with neither a
    ParamSpec nor a TypeVarTuple parameter."""
    for a in args:
        if type(a) is ast.Constant and a.value is Ellipsis:
            te._error(ctx, a, 'Unexpected "..."', "misc")
