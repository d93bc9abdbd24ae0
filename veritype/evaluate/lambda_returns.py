"""A lambda whose body does not fit the return type its context expects.

mypy checks a lambda's body against the return type of the callable type it
is inferred in (an argument's parameter, a declared variable): where the
lambda as a whole is rejected (`[arg-type]`, `[assignment]`), a body of the
wrong type is also `Incompatible return value type (got "X", expected "Y")`
[return-value] on the body's line (mypy 2.4.1; trio's `coroutine_or_error(
lambda: Deferred())  # type: ignore[arg-type, ..., return-value]`). A None
return context takes any body (a callback whose result is ignored).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.types.format import format_pair
from veritype.types.model import AnyType, CallableType, NoneType, Type, TypeVarType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def report_lambda_return(ev: "Evaluator", node: ast.expr | None, actual: Type, expected: Type, report: Callable[[ast.AST, str, str], None]) -> None:
    if not isinstance(node, ast.Lambda) or not isinstance(actual, CallableType) or not isinstance(expected, CallableType):
        return
    want = expected.ret
    if want is None or isinstance(want, (NoneType, AnyType, TypeVarType)) or actual.ret is None:
        return
    if len([p for p in actual.params if not p.has_default]) > len(expected.params):
        return  # mypy says `Cannot infer type of lambda` there instead
    if is_subtype(ev, actual.ret, want):
        return
    got, exp = format_pair(actual.ret, want)
    report(node.body, f'Incompatible return value type (got "{got}", expected "{exp}")', "return-value")
