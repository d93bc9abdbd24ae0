"""Joins and meets, for inferring one type from several (list displays, branches).

The join of two types is the wider when one is assignable to the other, and
their union otherwise (like pyright, and mypy's newer inference for
conditional expressions). Literal types of one class join to that class in
containers, since a list display's elements are not literal in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, LiteralType, NeverType, Type, TupleType, UnionType, make_union, NEVER

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def join(ev: "Evaluator", a: Type, b: Type) -> Type:
    from veritype.types.subtype import is_subtype

    if isinstance(a, NeverType):
        return b
    if isinstance(b, NeverType):
        return a
    if isinstance(a, AnyType):
        return a
    if isinstance(b, AnyType):
        return b
    if a == b:
        return a
    if is_subtype(ev, a, b) and not isinstance(b, UnionType) or (isinstance(b, UnionType) and is_subtype(ev, a, b)):
        return b
    if is_subtype(ev, b, a):
        return a
    return make_union([a, b])


def join_all(ev: "Evaluator", items: list[Type]) -> Type:
    result: Type = NEVER
    for item in items:
        result = join(ev, result, item)
    return result


def widen_literals(t: Type) -> Type:
    if isinstance(t, LiteralType):
        return t.fallback
    if isinstance(t, UnionType):
        return make_union([widen_literals(i) for i in t.items])
    if isinstance(t, TupleType):
        return t
    return t


def meet(ev: "Evaluator", a: Type, b: Type) -> Type:
    """The narrower of two types (for narrowing), or Never when disjoint."""
    from veritype.types.subtype import is_subtype

    if isinstance(a, AnyType):
        return b
    if isinstance(b, AnyType):
        return a
    if is_subtype(ev, a, b):
        return a
    if is_subtype(ev, b, a):
        return b
    if isinstance(a, UnionType):
        return make_union([meet(ev, i, b) for i in a.items])
    if isinstance(b, UnionType):
        return make_union([meet(ev, a, i) for i in b.items])
    return NEVER
