"""The item type of a list, set or dict display: mypy's join of the items.

The spec leaves a display's inferred type to the checker. mypy infers
`[1, "a"]` as `list[object]`: it solves the display's item type from the items
as lower bounds by *joining* them (solve.solve_one, join.join_types), not by
making a union. So that code clean under mypy (and its `# type: ignore[...]`
comments) behaves the same, veritype joins display items the same way:

* the items are taken unions first, then None, then the rest, in order
  (mypy sorts them so, "because joins are non-associative");
* Any absorbs everything; with a union or None the result is the union of
  both, without the items that are subtypes of others (`[x, None]` is
  `list[int | None]`, `[1, "a", None]` stays `object`);
* one a subtype of the other: the wider;
* different literal types join their classes (`Literal["a"]` and
  `Literal["b"]`: `str`), enum members keep their union;
* fixed-length tuples of one length join item by item, of different lengths
  make `tuple[X | Y, ...]`; a tuple with an instance joins its fallback;
* instances of one class join their type arguments: covariant ones are
  joined, invariant ones must be equal (or Any), else the join is `object`
  (`[[1], ["a"]]` is `list[object]`);
* instances of different classes: the best common base, each mapped to it
  with its arguments joined; a base that is not a protocol beats a protocol,
  then the one with the longer MRO (`["a", b"b"]` is
  `list[Sequence[object]]`); nothing in common but object: `object`;
* class objects join as mypy joins their constructors: the wider where one
  constructor is a subtype of the other, the common base (other than object)
  where they have the same shape (is_similar_callables), else `type`.

Other kinds (callables, TypedDicts, type variables) are not modelled here
and keep a union, which is never less precise than mypy's join.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import (
    NEVER, AnyType, Instance, LiteralType, NoneType, TupleType, Type, TypeType, UnionType, flatten_union, make_union,
)
from veritype.types.join import trivial_join
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

_SKIPPED_BASES = ("builtins.object", "typing.Generic", "typing.Protocol")


def join_display_items(ev: "Evaluator", items: list[Type]) -> Type:
    # Unions first, then None, then the others, each in their order (a stable
    # sort by kind, without a key call per item: a display may hold hundreds).
    unions = [t for t in items if type(t) is UnionType]
    nones = [t for t in items if type(t) is NoneType]
    ordered = unions + nones + [t for t in items if type(t) is not UnionType and type(t) is not NoneType] if unions or nones else items
    if not ordered:
        return NEVER
    # The join of Never and the first item is that item (`trivial_join`), and of
    # an item with itself that item: neither asks `join_items`.
    result: Type = ordered[0]
    for item in ordered[1:]:
        if item is not result:
            result = join_items(ev, result, item)
    return result


def join_items(ev: "Evaluator", s: Type, t: Type) -> Type:
    trivial = trivial_join(s, t)
    if trivial is not None:
        return trivial
    if isinstance(s, (UnionType, NoneType)) or isinstance(t, (UnionType, NoneType)):
        return _simplified_union(ev, [s, t])
    if _is_class_object(s) and _is_class_object(t):
        return _join_class_objects(ev, s, t)
    # An empty display's item type stands for mypy's Never: `list[Never]` is
    # no supertype of `list[str]` (invariant), so `[([], a), ([x], b)]` joins
    # the lists' items, not to the empty one's `list[Any]` (h11's tests).
    if is_subtype(ev, _empty_as_never(s), _empty_as_never(t)):
        return t
    if is_subtype(ev, _empty_as_never(t), _empty_as_never(s)):
        return s
    if isinstance(s, LiteralType) or isinstance(t, LiteralType):
        # mypy's join of literal types: enum members keep their union, other
        # literals join their classes (`Literal["v4"]` and `Literal["v6"]`: str).
        if isinstance(s, LiteralType) and isinstance(t, LiteralType) and s.is_enum and t.is_enum:
            return _simplified_union(ev, [s, t])
        return join_items(ev, s.fallback if isinstance(s, LiteralType) else s, t.fallback if isinstance(t, LiteralType) else t)
    if isinstance(s, TupleType) and isinstance(t, TupleType):
        if len(s.items) == len(t.items):
            return ev.tuple_of([join_items(ev, a, b) for a, b in zip(s.items, t.items)])
        return ev.builtin("tuple", _simplified_union(ev, list(s.items) + list(t.items)))
    if isinstance(s, TupleType) and isinstance(t, Instance):
        return join_items(ev, s.fallback, t)
    if isinstance(t, TupleType) and isinstance(s, Instance):
        return join_items(ev, s, t.fallback)
    if isinstance(s, Instance) and isinstance(t, Instance):
        return _join_instances(ev, s, t)
    return make_union([s, t])


def _empty_as_never(t: Type) -> Type:
    """`t` with an empty display's item types (Any, reason "empty") as Never."""
    if isinstance(t, AnyType):
        return NEVER if t.reason == "empty" else t
    if isinstance(t, Instance) and t.args:
        return Instance(t.info, tuple(_empty_as_never(a) for a in t.args))
    if isinstance(t, TupleType):
        return TupleType(tuple(_empty_as_never(i) for i in t.items), t.fallback)
    return t


def _is_class_object(t: Type) -> bool:
    """A class named in a display: `A`, or a generic class `G` unparameterized
    (`type[G[Any]]`, its implicit Any arguments), or plain `type`."""
    if isinstance(t, TypeType) and isinstance(t.item, Instance):
        return all(isinstance(a, AnyType) for a in t.item.args)
    return isinstance(t, Instance) and t.info.fullname == "builtins.type"


def _join_class_objects(ev: "Evaluator", s: Type, t: Type) -> Type:
    """`{ast.Add: ..., ast.Sub: ...}` has `type[operator]` keys; unrelated classes
    (or plain `type`, which is `type[Any]`) join to plain `type`, as mypy joins
    class objects, not to one of them."""
    if isinstance(s, TypeType) and isinstance(t, TypeType) and isinstance(s.item, Instance) and isinstance(t.item, Instance):
        # mypy joins class objects as their constructors: the wider where one
        # constructor is a subtype of the other, a callable returning their
        # common base where the two have the same shape, else their fallback,
        # `type` (urllib3's HTTP and HTTPS pool classes).
        from veritype.types.subtype import is_subtype

        a, b = ev.constructor_type(s), ev.constructor_type(t)
        if a is not None and b is not None:
            if is_subtype(ev, a, b):
                return t
            if is_subtype(ev, b, a):
                return s
            if not _similar_constructors(a, b):
                return ev.builtin("type")
        if s.item.info in t.item.info.mro:
            return s
        if t.item.info in s.item.info.mro:
            return t
        base = _common_base([s.item.info, t.item.info])
        if base is not None:
            return TypeType(Instance(base))
    return ev.builtin("type")


def _similar_constructors(a: Type, b: Type) -> bool:
    """mypy's is_similar_callables on the two constructors: as many parameters,
    as many required positional ones, and `*args` in both or neither."""
    from veritype.types.model import POS_ONLY, POS_OR_KW, VAR_POS, CallableType

    if not isinstance(a, CallableType) or not isinstance(b, CallableType):
        return False
    if a.is_ellipsis or b.is_ellipsis:
        return a.is_ellipsis and b.is_ellipsis

    def shape(c: CallableType) -> tuple[int, int, bool]:
        required = sum(1 for p in c.params if p.kind in (POS_ONLY, POS_OR_KW) and not p.has_default)
        return len(c.params), required, any(p.kind == VAR_POS for p in c.params)

    return shape(a) == shape(b)


def simplified_union(ev: "Evaluator", items: list[Type]) -> Type:
    return _simplified_union(ev, items)


def _simplified_union(ev: "Evaluator", items: list[Type]) -> Type:
    """A union without the items that are subtypes of another (mypy's make_simplified_union)."""

    flat = [i for i in dict.fromkeys(flatten_union(items))]
    if len(flat) == 2:
        # The commonest pair by far (3.5k of the 4.6k calls on the bench corpus,
        # `s and t` on two strs: `Literal[""] | str`): a literal with its own
        # fallback class. The literal is a subtype of the class and the class
        # is none of the literal (but for a one-member enum, left to the pass
        # below): the class alone, whichever comes first.
        a, b = flat
        if type(a) is LiteralType and type(b) is Instance:
            if not a.is_enum and a.fallback == b:
                return b
        elif type(b) is LiteralType and type(a) is Instance:
            if not b.is_enum and b.fallback == a:
                return a
    kept: list[Type] = []
    for i, item in enumerate(flat):
        if type(item) is AnyType:
            kept.append(item)
            continue
        # (A loop, not any() over a generator: the same questions in the same order.)
        for j, other in enumerate(flat):
            if j != i and type(other) is not AnyType and is_subtype(ev, item, other) and not (is_subtype(ev, other, item) and j > i):
                break
        else:
            kept.append(item)
    return make_union(kept)


def _join_instances(ev: "Evaluator", s: Instance, t: Instance) -> Type:
    from veritype.types.subtype import map_instance_to_supertype

    if s.info is t.info:
        return _join_same_class(ev, s, t)
    best: Type | None = None
    t_mro = set(t.info.mro)
    for base in s.info.mro:
        if base not in t_mro or base.fullname in _SKIPPED_BASES:
            continue
        ms, mt = map_instance_to_supertype(s, base), map_instance_to_supertype(t, base)
        if ms is None or mt is None:
            continue
        res = _join_same_class(ev, ms, mt)
        if best is None or _is_better(res, best):
            best = res
    return best if best is not None else ev.builtin("object")


def _join_same_class(ev: "Evaluator", s: Instance, t: Instance) -> Type:
    if s.args == t.args or len(s.args) != len(t.args):
        return s
    args: list[Type] = []
    for i, (tv, a, b) in enumerate(zip(s.info.type_vars, s.args, t.args)):
        variance = tv.variance if tv.variance != "infer" else ev.class_variance(s.info, i)
        if a == b:
            args.append(a)
        elif isinstance(a, AnyType) and a.reason == "empty":
            args.append(b)  # Never joins to the other (mypy: `[[], [""]]` is `list[list[str]]`)
        elif isinstance(b, AnyType) and b.reason == "empty":
            args.append(a)
        elif isinstance(a, AnyType) or isinstance(b, AnyType):
            args.append(AnyType("special"))
        elif tv.kind == "typevar" and variance == "covariant":
            args.append(join_items(ev, a, b))
        else:
            return ev.builtin("object")
    return Instance(s.info, tuple(args))


def _is_better(t: Type, s: Type) -> bool:
    """mypy's join.is_better: a class over a protocol, then the longer MRO."""
    if not isinstance(t, Instance):
        return False
    if not isinstance(s, Instance):
        return True
    if t.info.is_protocol != s.info.is_protocol and "builtins.object" not in (t.info.fullname, s.info.fullname):
        return not t.info.is_protocol
    return len(t.info.mro) > len(s.info.mro)


def _common_base(infos: "list[ClassInfo]") -> "ClassInfo | None":
    """The first class of the first MRO that every class derives from, unless `object` or generic."""
    mros = [info.mro for info in infos]
    for cand in mros[0]:
        if cand.fullname in _SKIPPED_BASES:
            continue
        if all(cand in m for m in mros[1:]):
            return None if cand.type_vars else cand
    return None
