"""Dropping union items that another item already covers (mypy's make_simplified_union).

mypy simplifies the union it makes where branches meet (the binder joining
the branches of an `if`, a conditional expression's two types): an item that
is a proper subtype of another item goes. veritype models the sure cases:

* an instance (or literal, or class object) whose class derives from another
  item's class with exactly its type arguments: `TextIO | CaptureIO` is
  `TextIO` (CaptureIO derives from TextIOWrapper, a TextIO);
* a class object `type[C]` of a class, beside a bare `type`;
* an instance of a class whose type parameters are all covariant, with Any
  for each argument, covers every subclass instance (Any is the top of a
  proper subtype check on the right): `tuple[Any, ...] | tuple[str]` is
  `tuple[Any, ...]` (mypy 2.4.1). An invariant `list[Any]` does not cover
  `list[int]`: both stay, as in mypy.

Anything else (protocols matched structurally, callables, type variables)
stays in the union, which is never less precise than mypy's.
"""

from __future__ import annotations

from veritype.types.model import AnyType, Instance, LiteralType, TupleType, Type, TypeType, UnionType, make_union
from veritype.types.subtype import map_instance_to_supertype


def drop_covered_items(t: Type) -> Type:
    """`t` without the union items another item covers (see the module docstring)."""
    if not isinstance(t, UnionType):
        return t
    items = t.items
    # Only an instance, or a class object (of another class object), covers
    # anything (see `_covered`): the pairs are those with one of them on the
    # right, and a union with none (`None | Literal[...]`), or with one class
    # object alone, is its own answer. (Whether some item covers another does
    # not depend on the order the pairs are tried in.)
    covering = [o for o in items if type(o) is Instance or type(o) is TypeType]
    if not covering or (len(covering) == 1 and type(covering[0]) is TypeType):
        return t
    kept: list[Type] = []
    # (Loops, not any() over a generator per item: this runs for every union a
    # branch merge makes, over every ordered pair of its items.)
    for i in items:
        for o in covering:
            if o is not i and _covered(i, o):
                break
        else:
            kept.append(i)
    return make_union(kept) if len(kept) < len(items) else t


def _nominal(t: Type) -> Instance | None:
    if isinstance(t, LiteralType):
        return t.fallback
    if isinstance(t, TupleType):
        return t.fallback
    return t if isinstance(t, Instance) else None


def _covered(item: Type, other: Type) -> bool:
    # (Exact class tests: the model's classes have no subclasses. This runs for
    # every ordered pair of items of every union a branch merge makes.)
    if type(item) is TypeType and type(other) is TypeType:
        item, other = item.item, other.item  # type: ignore[attr-defined]
        if type(item) is not Instance:
            return False
    if type(other) is not Instance:
        return False  # (tested before equality: most pairs end here, `X | None`'s None)
    if type(item) is Instance:
        # Only an instance can equal one (type values of two classes never do).
        if item == other:
            return False
        i: Instance | None = item  # type: ignore[assignment]
    else:
        i = _nominal(item)
        if i is None and type(item) is TypeType and type(item.item) is Instance and other.info.fullname == "builtins.type":  # type: ignore[attr-defined]
            return True  # a class object is a `type` (mypy: `type[DataclassInstance] | type` is `type`)
    if i is None or other.info not in i.info.mro:
        return False
    if isinstance(item, TupleType) and not _all_any_covariant(other):
        return False  # a fixed tuple's own items are not in its fallback's arguments
    mapped = map_instance_to_supertype(i, other.info)
    return mapped == other or _all_any_covariant(other)


def _all_any_covariant(t: Instance) -> bool:
    tvs = t.info.type_vars
    return bool(t.args) and len(tvs) == len(t.args) and all(isinstance(a, AnyType) for a in t.args) \
        and all(v.kind == "typevar" and v.variance == "covariant" for v in tvs)
