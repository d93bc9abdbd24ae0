"""What `x == y` says about an optional `x` when `y` cannot be None.

mypy narrows `x == y` by identity only against literals; for any other `y`
it still removes the None of an optional `x` when `y`'s type cannot be None
and overlaps the rest of `x` (`a: float | None`, `g: float`: `a == g` makes
`a` a `float`; `a == s` with `s: str` leaves it alone, the values never being
equal anyway). Only the positive branch narrows: `x != y` says nothing.

`x == 3` with `x: int | str` rules the `str` out the same way (mypy: the
items whose class cannot equal an `int`), unless some class involved has
an `__eq__` of its own, which may say anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, LiteralType, NoneType, TupleType, Type, TypeType, make_union, union_items
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
