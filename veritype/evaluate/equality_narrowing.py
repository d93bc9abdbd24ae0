"""Narrowing by equality and identity: what `x == v`, `x is v` (and `!=`,
`is not`) say of `x` from the types of `x` and `v` (None, literals and enum
members, bool, sentinels and singletons, class objects, plain classes), as
narrowing's `_compare` asks it, both ways at once and memoized by type
(`equal_pair`).

mypy narrows `x == y` by identity only against literals; for any other `y`
it still removes the None of an optional `x` when `y`'s type cannot be None
and overlaps the rest of `x` (`a: float | None`, `g: float`: `a == g` makes
`a` a `float`; `a == s` with `s: str` leaves it alone, the values never being
equal anyway). Only the positive branch narrows that way: `x != y` says
nothing (`away_none`).

`x == 3` with `x: int | str` rules the `str` out the same way (mypy: the
items whose class cannot equal an `int`), unless some class involved has
an `__eq__` of its own, which may say anything (`cannot_equal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import (
    AnyType, CallableType, Instance, LiteralType, NeverType, NoneType, TupleType, Type, TypeType, TypeVarType,
    make_union, union_items,
)
from veritype.types.subtype import is_subtype
from veritype.evaluate.strict_equality import has_own_eq, may_be_equal

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def away_none(ev: "Evaluator", t: Type, other: Type) -> Type | None:
    """`t` without None when `t == other` holds, or None when that says nothing."""
    items = union_items(t)
    rest = [i for i in items if not isinstance(i, NoneType)]
    if len(rest) == len(items) or not rest:
        return None
    others = union_items(other)
    # Every item of the other side a plain value type that cannot be None
    # (an `object`, Any or type variable may be None).
    if not all(isinstance(o, (Instance, LiteralType, TupleType)) for o in others):
        return None
    if any(isinstance(o, Instance) and o.info.fullname == "builtins.object" for o in others):
        return None
    if any(has_own_eq(o) for o in others):
        return None  # its `__eq__` may hold for None too (mypy leaves `x == e` alone)
    if not any(_overlaps(ev, i, o) for i in rest for o in others):
        return None
    return make_union(rest)


def cannot_equal(ev: "Evaluator", whole: Type, item: Type, lit: LiteralType) -> bool:
    """Whether `item`, one member of `whole`, is ruled out by `whole == lit`: a
    plain class that cannot equal the literal, where no member has its own `__eq__`."""
    if not isinstance(item, Instance) or lit.is_enum:
        return False
    if any(has_own_eq(i) for i in union_items(whole)):
        return False
    return not _overlaps(ev, item, lit)


def _overlaps(ev: "Evaluator", a: Type, b: Type) -> bool:
    return is_subtype(ev, a, b) or is_subtype(ev, b, a) or may_be_equal(a, b)


def to_other(ev: "Evaluator", t: Type, other: Type) -> Type | None:
    """`t` narrowed by `t == other` for a non-literal `other` (mypy 2.4): an item
    `other` is a subclass of becomes `other` (a generic class with its type
    arguments as Any: `[] == []` whatever the items), an item that is a
    subclass of `other` stays, and a plain class that cannot equal `other` is
    ruled out. pytest's `assert args[0] == ("m", repr(...))` makes `args[0]`,
    a `tuple[str, object]`, a `tuple[str, str]`. None when nothing changes."""
    if isinstance(other, TypeType) and isinstance(other.item, Instance):
        return _to_class_object(ev, t, other)
    if not isinstance(other, (Instance, TupleType)) or has_own_eq(other):
        return None
    items = union_items(t)
    if any(has_own_eq(i) for i in items):
        return None
    out: list[Type] = []
    for item in items:
        if not isinstance(item, (Instance, TupleType, LiteralType, NoneType)):
            return None  # Any, a type variable...: nothing is sure
        if is_subtype(ev, item, other):
            out.append(item)
        elif _nominal_subtype(ev, other, item):
            out.append(_erased(ev, other))
        elif isinstance(item, NoneType) or (isinstance(item, Instance) and isinstance(other, Instance) and not may_be_equal(item, other)):
            continue
        else:
            out.append(item)
    narrowed = make_union(out) if out else None
    return None if narrowed is None or narrowed == t else narrowed


def _to_class_object(ev: "Evaluator", t: Type, other: TypeType) -> Type | None:
    """`t == B` with `B` a class: as `t is B` (mypy 2.4.1 narrows `t: type[A]`
    to B's class object) unless a metaclass defines its own `__eq__`. Only the
    items that are `B` or wider narrow; anything else is left as it is."""
    if has_own_eq(other) or any(has_own_eq(i) for i in union_items(t) if isinstance(i, TypeType)):
        return None
    out = narrowed_items(ev, t, other, keep_unrelated=True)
    narrowed = make_union(out) if out is not None else None
    return None if narrowed is None or narrowed == t else narrowed


def narrowed_items(ev: "Evaluator", t: Type, other: Type, keep_unrelated: bool) -> list[Type] | None:
    """The items of `t` once it is known to be (identical or equal to) a value
    of `other`: an item wider than `other` becomes `other`, a narrower one
    stays, an unrelated one stays only if `keep_unrelated`. None when an item
    is Any (nothing is sure)."""
    out: list[Type] = []
    for item in union_items(t):
        if isinstance(item, AnyType):
            return None
        if is_subtype(ev, other, item):
            out.append(other)
        elif is_subtype(ev, item, other):
            out.append(item)
        elif keep_unrelated:
            out.append(item)
    return out


def _nominal_subtype(ev: "Evaluator", sub: Type, sup: Type) -> bool:
    """`sub` a subtype of `sup` by its classes, not by a numeric promotion (an
    `int` that equals a `float` leaves the `float` as it is)."""
    if not is_subtype(ev, sub, sup):
        return False
    if isinstance(sub, Instance) and isinstance(sup, Instance) and not sup.info.is_protocol:
        return sup.info in sub.info.mro
    return True


def _erased(ev: "Evaluator", t: Type) -> Type:
    if isinstance(t, Instance) and t.args:
        return Instance(t.info, tuple(AnyType("special") for _ in t.args))
    if isinstance(t, TupleType) and any(isinstance(i, LiteralType) for i in t.items):
        # The items of a tuple display are inferred values, not declared
        # literals (mypy's `Literal['m']?`): they narrow as their class.
        return ev.tuple_of([i.fallback if isinstance(i, LiteralType) else i for i in t.items])
    return t


def surely_distinct(ev: "Evaluator", a: Type, b: Type) -> bool:
    """Whether no object is both an `a` and a `b`, as mypy's meet sees it: two
    plain classes (not protocols, not `object`, no Any base) neither of which
    is a subclass of the other, or None and a plain class."""
    from veritype.evaluate.strict_equality import is_plain_class

    if isinstance(a, NoneType) or isinstance(b, NoneType):
        other = b if isinstance(a, NoneType) else a
        return isinstance(other, Instance) and is_plain_class(other) and other.info.fullname != "builtins.object"
    if not (isinstance(a, Instance) and isinstance(b, Instance)):
        return False
    if not (is_plain_class(a) and is_plain_class(b)) or "builtins.object" in (a.info.fullname, b.info.fullname):
        return False
    return a.info not in b.info.mro and b.info not in a.info.mro


# What an operand of type `t` is when it equals (`==`, or `is` with `identity`)
# a value of type `other`, and when not (`equal_pair`), by the ids of `t` and
# `other`, each entry holding both (so that no id is reused while it is kept):
# the same operand types are compared again and again (7.8k of the 15.3k
# questions on the bench corpus were asked before, most `x is None` of one
# variable). The answers are pure functions of the two types; the memo is
# bounded, and emptied after each module's check (narrowing.forget_narrowings),
# so it keeps no module's types alive past it.
_EQUAL_PAIRS: dict[tuple[int, int, bool], tuple[Type, Type, Type | None, Type | None]] = {}
MEMO_MAX = 4096


def forget_equal_pairs() -> None:
    """Empty the memo of equality answers (`_EQUAL_PAIRS`)."""
    _EQUAL_PAIRS.clear()


def equal_pair(ev: "Evaluator", t: Type, other: Type, identity: bool) -> tuple[Type | None, Type | None]:
    """What an operand of type `t` is when it equals a value of type `other`
    and when not (None: as it was). Not by identity, an operand that narrows
    to nothing as such may still lose None (`away_none`) or take the other's
    type (`to_other`)."""
    key = (id(t), id(other), identity)
    hit = _EQUAL_PAIRS.get(key)
    if hit is not None:
        return hit[2], hit[3]
    equal = _narrow_equal(ev, t, other, True, identity)
    if equal is None and not identity:
        equal = away_none(ev, t, other)
        if equal is None:
            equal = to_other(ev, t, other)
    unequal = _narrow_equal(ev, t, other, False, identity)
    if len(_EQUAL_PAIRS) >= MEMO_MAX:
        _EQUAL_PAIRS.clear()
    _EQUAL_PAIRS[key] = (t, other, equal, unequal)
    return equal, unequal


def _narrow_equal(ev: "Evaluator", t: Type, other: Type, positive: bool, identity: bool) -> Type | None:
    # (None first: most questions here are `is None`. The forms below it want an
    # instance for `other`, or make it a literal.)
    if isinstance(other, NoneType):
        if positive:
            kept = [i for i in union_items(t) if isinstance(i, (NoneType, AnyType)) or _may_be_none(ev, i)]
            if isinstance(t, AnyType):
                return None
            return make_union([i if not _is_object(i) else other for i in kept]) if kept else NeverType()
        return make_union([i for i in union_items(t) if not isinstance(i, NoneType)])
    if identity and isinstance(other, Instance) and (getattr(other.info, "is_sentinel", False) or other.info.fullname in ("builtins.ellipsis", "types.EllipsisType")):
        # `...` is the only value of its class too (mypy's singleton types):
        # `v is not infer` with `infer = ...` rules `EllipsisType` out (hypothesis).
        return _narrow_sentinel(ev, t, other, positive)
    if identity and isinstance(other, Instance):
        # An enum with one member has one value: `x is SENTINEL` with
        # `SENTINEL: Final[_Default] = _Default.token` compares with that member (mypy).
        members = _expand_finite(ev, other)
        if members is not None and len(members) == 1:
            other = members[0]
    if isinstance(other, LiteralType):
        items = union_items(t)
        if positive:
            kept = []
            for i in items:
                if isinstance(i, LiteralType):
                    if i == other:
                        kept.append(i)
                elif isinstance(i, Instance) and is_subtype(ev, other, i):
                    # `A.x == 0` keeps an `int` (mypy narrows to the literal only in a
                    # literal context: bool, an enum, or `is`), so `assert A.x == 2`,
                    # a call that changes it, then `assert A.x == 3` is no Never; a
                    # name too (`ncalls == 0`, a nested function's `nonlocal ncalls
                    # += 1`, then `ncalls == 1`). A variable declared a union of
                    # literals (`kind() or ""`) narrows through its literal items.
                    kept.append(other if (i.info.fullname in ("builtins.bool",) or i.info.is_enum_class() or identity) else i)
                elif isinstance(i, AnyType):
                    return None
                elif identity and other.is_enum and isinstance(i, Instance) and not i.info.is_protocol:
                    # `x is E.A`: x is that very member, so a class it is not an
                    # instance of (the `str` of `str | E`) is ruled out.
                    continue
                elif not identity and cannot_equal(ev, t, i, other):
                    continue
                elif not isinstance(i, NoneType):
                    kept.append(i)
            return make_union(kept)
        remaining: list[Type] = []
        for i in items:
            if isinstance(i, LiteralType) and i == other:
                continue
            expanded = _expand_finite(ev, i)
            if expanded is not None and other in expanded:
                remaining.extend(e for e in expanded if e != other)
            else:
                remaining.append(i)
        return make_union(remaining)
    if identity and not positive and isinstance(other, TypeType) and isinstance(other.item, Instance) and other.item.info.is_final:
        # `x is not Sentinel` with `@final class Sentinel`: `type[Sentinel]` has that
        # one class object for its only value, so it is ruled out (as mypy).
        items = union_items(t)
        kept_items = [i for i in items if not (isinstance(i, TypeType) and isinstance(i.item, Instance) and i.item.info is other.item.info)]
        return make_union(kept_items) if len(kept_items) < len(items) else None
    if identity and positive and isinstance(other, (Instance, TupleType, CallableType, TypeType)) and not isinstance(t, AnyType):
        # `assert value is err` (value: `BaseException | None`, err: BaseException):
        # mypy narrows to the other operand's type where it is narrower, and drops
        # the items it cannot be. When no item may be it, the test cannot hold:
        # Never, as mypy (`assert f.buffer is f`, a BinaryIO and a TextIO), but
        # only between plain classes; anything unsure is left alone.
        same = narrowed_items(ev, t, other, keep_unrelated=False)
        if same is None:
            return None
        if same:
            return make_union(same)
        return NeverType() if all(surely_distinct(ev, i, other) for i in union_items(t)) else None
    return None


def _narrow_sentinel(ev: "Evaluator", t: Type, sentinel: Instance, positive: bool) -> Type | None:
    """Typing spec, "Sentinels": "Type checkers must support narrowing union types
    involving sentinels using the is and is not operators" - the sentinel is the
    only value of its type."""
    if isinstance(t, AnyType):
        return None
    items = union_items(t)
    if positive:
        if any(isinstance(i, AnyType) for i in items):
            return None
        return sentinel if any(is_subtype(ev, sentinel, i) for i in items) else NeverType()
    return make_union([i for i in items if not (isinstance(i, Instance) and i.info is sentinel.info)])


def _is_object(t: Type) -> bool:
    return isinstance(t, Instance) and t.info.fullname == "builtins.object"


def _may_be_none(ev: "Evaluator", t: Type) -> bool:
    return _is_object(t) or isinstance(t, TypeVarType) and t.upper_bound is None


def _expand_finite(ev: "Evaluator", t: Type) -> list[Type] | None:
    """bool -> [True, False]; an enum -> its members; else None."""
    if isinstance(t, Instance):
        if t.info.fullname == "builtins.bool":
            return [ev.literal(True), ev.literal(False)]
        # Spec, "Enums": exhaustion by members "does not apply to classes that
        # derive from enum.Flag" - flags combine, so other values remain.
        if t.info.is_enum_class() and not t.info.has_base("enum.Flag"):
            members = ev.enum_members(t.info)
            if members:
                return [LiteralType(m, Instance(t.info, ()), is_enum=True) for m in members]
    return None
