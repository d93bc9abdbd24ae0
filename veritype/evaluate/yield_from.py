"""`yield from x` where x is not iterable: an awaitable in a generator-based
coroutine, or mypy's error.

PEP 380 delegates to `iter(x)`; a generator decorated with `types.coroutine`
(or the old `asyncio.coroutine`) may also delegate to an awaitable, whose
`__await__` it drives (PEP 492, "types.coroutine()"). mypy 2.4.1 accepts
that there, and elsewhere reports `"yield from" can't be applied to "T"`
[misc] for any operand without `__iter__` (trio's test_util: `yield from
asyncio.sleep(1)` under `@asyncio.coroutine`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import ANY_ERROR, AnyType, Instance, Type, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_COROUTINE_DECORATORS = ("types.coroutine", "asyncio.coroutine", "asyncio.coroutines.coroutine")


def not_iterable_yield_from(exprs: "ExprEvaluator", node: ast.YieldFrom, t: Type) -> Type | None:
    """The value of `yield from x` when x has no `__iter__` (reported or
    awaited), or None when x is iterable (or not judged here)."""
    if isinstance(t, (AnyType, UnionType)) or exprs.ev.bound_member(t, "__iter__") is not None:
        return None
    if isinstance(t, Instance) and exprs.ev.bound_member(t, "__getitem__") is not None:
        return None  # the old sequence protocol: `iterate` judges it
    if _in_generator_coroutine(exprs):
        from veritype.types.subtype import is_subtype

        awaitable = exprs.ev.instance("typing.Awaitable")
        if isinstance(awaitable, Instance) and is_subtype(exprs.ev, t, awaitable):
            return AnyType("special")  # mypy: the delegation's value is Any
    exprs.error(node, f'"yield from" can\'t be applied to "{format_type(widen_literals(t))}"', "misc")
    return ANY_ERROR


def _in_generator_coroutine(exprs: "ExprEvaluator") -> bool:
    scope = exprs.scope
    fn = scope.function if scope is not None else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or scope is None or scope.parent is None:
        return False
    from veritype.evaluate.functions import decorator_names

    return any(n in _COROUTINE_DECORATORS for n in decorator_names(exprs.ev, fn, scope.parent))
