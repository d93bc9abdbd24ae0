"""Inference of `await`, `yield` and `yield from`, and what a generator or an
awaitable gives back (its return type, the `__await__` protocol); functions of
ExprEvaluator (`ex`), its methods by assignment.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.returns_value import check_awaited_value
from veritype.evaluate.yield_from import not_iterable_yield_from
from veritype.types.format import format_pair, format_type
from veritype.types.join import widen_literals
from veritype.types.model import ANY_ERROR, AnyType, Instance, NoneType, Type, make_union, union_items
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def infer_await(ex: "ExprEvaluator", node: ast.Await, expected: Type | None) -> Type:
    # What the await is expected to give, the awaitable is expected to
    # wrap (mypy: `Awaitable[T]` as its context), so a generic coroutine
    # call is solved from it first (evaluate/context_first.py).
    awaitable = ex.ev.named_class("typing.Awaitable") if expected is not None and not isinstance(expected, AnyType) else None
    t = ex.infer(node.value, Instance(awaitable, (expected,)) if awaitable is not None else None)  # type: ignore[arg-type]
    result = awaited(ex, t, node)
    if ex.reporting:
        check_awaited_value(ex, node, result)
    return result


def awaited(ex: "ExprEvaluator", t: Type, node: ast.AST | None) -> Type:
    results: list[Type] = []
    for item in union_items(t):
        if isinstance(item, AnyType):
            results.append(item)
            continue
        method = ex.ev.bound_member(item, "__await__")
        if method is None:
            ex.error(node, f'Incompatible types in "await" (actual type "{format_type(widen_literals(item))}", expected type "Awaitable[Any]")', "misc")
            results.append(ANY_ERROR)
            continue
        gen = ex._call_known(method, [], node if node is not None else ast.Pass())
        results.append(generator_return(ex, gen))
    return make_union(results)


def generator_return(ex: "ExprEvaluator", gen: Type) -> Type:
    if isinstance(gen, Instance):
        info = ex.ev.named_class("typing.Generator")
        if info is not None and info in gen.info.mro:
            mapped = map_instance_to_supertype(gen, info)
            if mapped is not None and len(mapped.args) == 3:
                return mapped.args[2]
    return AnyType("special")


def infer_yield(ex: "ExprEvaluator", node: ast.Yield, expected: Type | None) -> Type:
    declared = ex.yield_types
    if node.value is not None:
        t = ex.infer(node.value, declared[0] if declared else None)
        if declared is not None and not is_subtype(ex.ev, t, declared[0]):
            got, exp = format_pair(t, declared[0])
            ex.error(node, f'Incompatible types in "yield" (actual type "{got}", expected type "{exp}")', "misc")
    elif declared is not None and not is_subtype(ex.ev, NoneType(), declared[0]):
        ex.error(node, "Yield value expected", "misc")
    # The value of a yield expression is what the caller sends.
    return declared[1] if declared is not None else AnyType("special")


def infer_yield_from(ex: "ExprEvaluator", node: ast.YieldFrom, expected: Type | None) -> Type:
    t = ex.infer(node.value)
    from veritype.evaluate.yield_from import not_iterable_yield_from

    judged = not_iterable_yield_from(ex, node, t)
    if judged is not None:
        return judged
    declared = ex.yield_types
    if declared is not None and not isinstance(t, AnyType):
        item = ex.iterate(t, node.value)
        if not is_subtype(ex.ev, item, declared[0]):
            got, exp = format_pair(item, declared[0])
            ex.error(node, f'Incompatible types in "yield from" (actual type "{got}", expected type "{exp}")', "misc")
        check_send_type(ex, node, t, declared[1])
    result = generator_return(ex, t) if isinstance(t, Instance) else AnyType("special")
    if ex.reporting:
        check_awaited_value(ex, node, result)
    return result


def check_send_type(ex: "ExprEvaluator", node: ast.YieldFrom, delegate: Type, send: Type) -> None:
    """`yield from g` forwards what is sent to this generator on to `g`: the
    declared send type must be assignable to `g`'s (spec, "Generators"). A send
    type of None (also `Iterator[X]`) is left alone: such a generator is only
    advanced with next(), and every generator takes None on its first step; so is
    a delegate whose send type is None (`Generator[X, None, None]` is the usual
    spelling of an iterator, which ignores what it is sent)."""
    if isinstance(send, (NoneType, AnyType)) or not isinstance(delegate, Instance):
        return
    info = ex.ev.named_class("typing.Generator")
    if info is None or info not in delegate.info.mro:
        return
    mapped = map_instance_to_supertype(delegate, info)
    if mapped is None or len(mapped.args) != 3 or isinstance(mapped.args[1], NoneType) or is_subtype(ex.ev, send, mapped.args[1]):
        return
    got, exp = format_pair(send, mapped.args[1])
    ex.error(node, f'Incompatible send type in "yield from" (this generator is sent "{got}", the delegate expects "{exp}")', "misc")
