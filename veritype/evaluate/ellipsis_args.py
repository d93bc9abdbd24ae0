"""`...` or a bracketed list where a type argument of a generic class is expected.

`...` is a type argument only in `tuple[X, ...]`, for a ParamSpec parameter
and as `Callable`'s parameter list (spec, "Callable", "Tuples", "ParamSpec");
a list of types only for a ParamSpec parameter and as `Callable`'s parameter
list. mypy 2.4.1 reports either anywhere else among a generic class's
arguments, at the argument: `Unexpected "..."` [misc] (`List[...]`,
`Dict[str, ...]`, `list[list[...]]`), `Bracketed expression "[...]" is not
valid as a type` [valid-type] with the note `Did you mean "List[...]"?`
(`List[[int]]`; the note follows a bracketed annotation too). The argument
is then Any, as it was.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.type_context import TypeContext
    from veritype.evaluate.type_expr import TypeExprEvaluator


BRACKETED = 'Bracketed expression "[...]" is not valid as a type'
BRACKETED_NOTE = 'Did you mean "List[...]"?'


def report_ellipsis_args(te: "TypeExprEvaluator", args: list[ast.expr], ctx: "TypeContext") -> None:
    """Report each `...` and list of `args`, the arguments of a class with neither a
    ParamSpec nor a TypeVarTuple parameter."""
    for a in args:
        if type(a) is ast.Constant and a.value is Ellipsis:
            te._error(ctx, a, 'Unexpected "..."', "misc")
        elif type(a) is ast.List:
            te._error(ctx, a, BRACKETED, note=BRACKETED_NOTE)
