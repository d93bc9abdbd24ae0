"""Tuples with an unpacked part (PEP 646, typing spec "Tuples" and "TypeVarTuple").

`tuple[int, *tuple[str, ...], int]` and `tuple[int, *Ts]` are TupleTypes whose
items hold one `UnpackType`. These helpers normalize such item lists (a fixed
`*tuple[A, B]` is spliced; `tuple[*tuple[X, ...]]` is just `tuple[X, ...]`),
give the per-position view other code needs (`item_types`, `homogeneous`),
and line a variadic tuple up with a given length (`align`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import (
    VAR_POS, POS_ONLY, AnyType, CallableType, Instance, Param, TupleType, Type, TypeVarType, UnpackType, make_union,
)

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo


def unpack_index(t: TupleType) -> int | None:
    for i, item in enumerate(t.items):
        if isinstance(item, UnpackType):
            return i
    return None


def unpacked_star(c: CallableType) -> bool:
    """Whether `c` takes `*args: *Ts` (or `*args: *tuple[...]`)."""
    # (A loop, not `any()` over a generator: asked of both sides of most callable
    # pairs, and by constraint inference for each callable template.)
    for p in c.params:
        if p.kind == VAR_POS and isinstance(p.type, UnpackType):
            return True
    return False


def is_variadic(t: Type) -> bool:
    """A TupleType with an unpacked part."""
    # (Exact class tests and a loop: asked of every tuple a subtype check meets.)
    if type(t) is not TupleType:
        return False
    for i in t.items:  # type: ignore[attr-defined]
        if type(i) is UnpackType:
            return True
    return False


def is_unbounded_tuple(t: Type) -> bool:
    return isinstance(t, Instance) and t.info.fullname == "builtins.tuple" and len(t.args) == 1


def tuple_info(t: Type) -> "ClassInfo | None":
    """The ClassInfo of builtins.tuple, found through a tuple type's fallback."""
    if isinstance(t, TupleType):
        t = t.fallback
    if isinstance(t, Instance):
        for c in t.info.mro:
            if c.fullname == "builtins.tuple":
                return c
    return None


def _object(info: "ClassInfo") -> Type:
    obj = info.mro[-1] if info.mro else None
    return Instance(obj, ()) if obj is not None and obj.fullname == "builtins.object" else AnyType("special")


def unpacked_item(u: UnpackType, info: "ClassInfo | None") -> Type:
    """The type of each element an unpacked part stands for: X of `*tuple[X, ...]`,
    object for `*Ts` (its elements are unconstrained)."""
    item = u.item
    if is_unbounded_tuple(item):
        return item.args[0]  # type: ignore[attr-defined]
    if isinstance(item, TupleType):
        return make_union(item_types(item))
    if isinstance(item, TypeVarType) and info is not None:
        return _object(info)
    return AnyType("special")


def item_types(t: TupleType) -> list[Type]:
    """Each item's type, an unpacked part standing for its element type."""
    if not any(isinstance(i, UnpackType) for i in t.items):
        return list(t.items)
    info = tuple_info(t)
    return [unpacked_item(i, info) if isinstance(i, UnpackType) else i for i in t.items]


def homogeneous(t: TupleType) -> Instance:
    """`tuple[int, *tuple[str, ...]]` seen as `tuple[int | str, ...]` (for code that
    needs no positions: iteration, membership, an unknown index)."""
    info = tuple_info(t)
    assert info is not None
    items = item_types(t)
    return Instance(info, (make_union(items) if items else AnyType("special"),))


def splice(items: "list[Type] | tuple[Type, ...]") -> list[Type] | None:
    """Items with each `*tuple[A, B]` spliced in and each `*tuple[A, *tuple[B, ...]]`
    flattened; None when more than one unbounded part remains (spec, "Tuples":
    "Only one unbounded tuple can be used within another tuple")."""
    out: list[Type] = []
    for item in items:
        if isinstance(item, UnpackType) and isinstance(item.item, TupleType) and item.item.fallback.info.fullname == "builtins.tuple":
            out.extend(item.item.items)
        else:
            out.append(item)
    if sum(1 for i in out if isinstance(i, UnpackType)) > 1:
        return None
    return out


def make_tuple(items: "list[Type] | tuple[Type, ...]", info: "ClassInfo") -> Type:
    """The tuple type of `items` (which may hold unpacked parts), normalized: fixed
    parts spliced, `tuple[*tuple[X, ...]]` made `tuple[X, ...]`. More than one
    unbounded part (which no valid type has) gives `tuple[<all items>, ...]`."""
    flat = splice(items)
    if flat is None:
        u = [unpacked_item(i, info) if isinstance(i, UnpackType) else i for i in items]
        return Instance(info, (make_union(u) if u else AnyType("special"),))
    if len(flat) == 1 and isinstance(flat[0], UnpackType) and is_unbounded_tuple(flat[0].item):
        return flat[0].item
    u = [unpacked_item(i, info) if isinstance(i, UnpackType) else i for i in flat]
    return TupleType(tuple(flat), Instance(info, (make_union(u) if u else AnyType("special"),)))


def align(t: TupleType, n: int) -> list[Type] | None:
    """The expected type at each of `n` positions matched against `t` (a variadic
    part takes what the prefix and suffix leave), or None when `n` items cannot
    match `t` (too few, a fixed length that differs, or an unpacked TypeVarTuple
    whose elements are unknown)."""
    k = unpack_index(t)
    if k is None:
        return list(t.items) if len(t.items) == n else None
    prefix, suffix = t.items[:k], t.items[k + 1:]
    if n < len(prefix) + len(suffix):
        return None
    u = t.items[k]
    assert isinstance(u, UnpackType)
    if not is_unbounded_tuple(u.item):
        return None
    middle = [u.item.args[0]] * (n - len(prefix) - len(suffix))  # type: ignore[attr-defined]
    return list(prefix) + middle + list(suffix)


def expand_star_params(c: CallableType) -> CallableType:
    """A signature whose `*args: *tuple[...]` is spelled out as the parameters it
    means: `*args: *tuple[int, str]` is two positional-only parameters,
    `*args: *tuple[int, *tuple[str, ...]]` is `int, *args: str`. What cannot be
    spelled so (`*Ts`, a suffix after an unbounded part) stays an UnpackType."""
    idx = next((i for i, p in enumerate(c.params) if p.kind == VAR_POS and isinstance(p.type, UnpackType)), None)
    if idx is None:
        return c
    p = c.params[idx]
    assert isinstance(p.type, UnpackType)
    item = p.type.item
    new: list[Param]
    if is_unbounded_tuple(item):
        new = [Param(p.name, item.args[0], VAR_POS)]  # type: ignore[attr-defined]
    elif isinstance(item, TupleType):
        k = unpack_index(item)
        if k is None:
            new = [Param(None, i, POS_ONLY) for i in item.items]
        else:
            prefix = [Param(None, i, POS_ONLY) for i in item.items[:k]]
            rest = item.items[k:]
            u = rest[0]
            assert isinstance(u, UnpackType)
            if len(rest) == 1:
                new = prefix + [Param(p.name, u.item.args[0] if is_unbounded_tuple(u.item) else u, VAR_POS)]  # type: ignore[attr-defined]
            else:
                info = tuple_info(item)
                tail = make_tuple(rest, info) if info is not None else AnyType("special")
                new = prefix + [Param(p.name, UnpackType(tail) if isinstance(tail, TupleType) else AnyType("special"), VAR_POS)]
    else:
        return c
    return c.with_params(c.params[:idx] + tuple(new) + c.params[idx + 1:])


def star_tuple(u: UnpackType, info: "ClassInfo") -> Type:
    """The tuple a `*args: *X` parameter collects (`tuple[*Ts]`, or X itself)."""
    if isinstance(u.item, TupleType):
        return u.item
    return make_tuple([u], info)


# -- values of a variadic tuple (indexing, iteration, unpacking) ----------------------
#
# An unpacked TypeVarTuple's elements are unknown here, so they read as Any
# (principle 4: silence where unsure); an unbounded `*tuple[X, ...]` reads as X.


def _value_of(u: UnpackType) -> Type:
    if is_unbounded_tuple(u.item):
        return u.item.args[0]  # type: ignore[attr-defined]
    return AnyType("special")


def value_items(t: TupleType) -> list[Type]:
    """The types an iteration over `t` may give, in order."""
    return [_value_of(i) if isinstance(i, UnpackType) else i for i in t.items]


def index_variadic(t: TupleType, idx: int) -> Type:
    """`t[idx]` for a constant index: exact within the fixed prefix (or, counted
    from the end, the suffix); else any item the index may reach."""
    k = unpack_index(t)
    assert k is not None
    u = t.items[k]
    assert isinstance(u, UnpackType)
    prefix, suffix = t.items[:k], t.items[k + 1:]
    if idx >= 0:
        if idx < k:
            return prefix[idx]
        return make_union([_value_of(u), *suffix[:idx - k + 1]])
    j = -idx - 1
    if j < len(suffix):
        return suffix[len(suffix) - 1 - j]
    reach = j - len(suffix) + 1
    return make_union([_value_of(u), *prefix[max(0, len(prefix) - reach):]])


def slice_variadic(t: TupleType, lo: int | None, hi: int | None, step: int | None) -> Type | None:
    """`t[lo:hi]` when it cuts only into the fixed parts (`tup[1:]` of
    `tuple[T, *Ts]` is `tuple[*Ts]`); None otherwise."""
    k = unpack_index(t)
    info = tuple_info(t)
    if k is None or info is None or step not in (None, 1):
        return None
    s = len(t.items) - k - 1
    lo_ok = lo is None or 0 <= lo <= k
    hi_ok = hi is None or -s <= hi < 0
    if not (lo_ok and hi_ok):
        return None
    return make_tuple(t.items[lo:hi], info)


def unpack_variadic(t: TupleType, n: int, star: int | None) -> list[Type] | None:
    """The types of `n` targets unpacking `t` (`star`: the index of a `*rest`
    target, which gets the element type of what it collects); None when it is
    not known to fit (the caller stays silent)."""
    k = unpack_index(t)
    assert k is not None
    prefix, suffix = list(t.items[:k]), list(t.items[k + 1:])
    u = t.items[k]
    assert isinstance(u, UnpackType)
    if star is None:
        fixed = align(t, n)
        return fixed
    after = n - star - 1
    if star > len(prefix) or after > len(suffix):
        return None
    middle = value_items(TupleType(t.items[star:len(t.items) - after], t.fallback))
    return prefix[:star] + [make_union(middle) if middle else AnyType("special")] + suffix[len(suffix) - after:]
