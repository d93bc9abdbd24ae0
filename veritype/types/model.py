"""Type values: immutable, hashable, compared by value.

Class identity is carried by `ClassInfo` (owned by `evaluate.classes`); types
only hold a reference to it and compare it by identity, so two `Instance`s of
the same class with equal arguments are equal.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, Union, dataclass_transform

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.types.param_shape import ParamShape


class Type:
    """Base of every type value."""

    __slots__ = ()


class _HashCached(Type):
    """Base of the compound types, which keep their hash once computed.

    A union, an instance with arguments or a callable is hashed again and again
    (memo keys, union deduplication, solver and subtype caches), and each
    dataclass hash rehashes every part: 2M hash calls on the bench corpus.
    Pure: a type never changes after creation. The slot is not a dataclass
    field, so it is neither compared, nor pickled (string hashes differ
    between processes), nor copied by `dataclasses.replace`.
    """

    __slots__ = ("_hash",)


_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value_type(cls: type[_T]) -> type[_T]:
    """`@dataclass(frozen=True, slots=True)` for a type value, with faster methods.

    The dataclass makes the fields (for `dataclasses.replace` and `fields`),
    the slots, `__repr__` and `__match_args__`. `__init__`, `__eq__`,
    `__hash__` and the pickling pair `__getstate__`/`__setstate__` are made
    by `_fast_methods`, all in one compile, and the frozen `__setattr__` and
    `__delattr__` are two plain functions shared by every type value. The
    dataclass would compile each of those methods on its own, at every start
    of veritype, and `_fast_methods` replaced three of them anyway (the
    import of this module: 90M instructions that way, 45M this way). (Assigning an
    attribute that is not a field now raises FrozenInstanceError too; the
    dataclass-made `__setattr__` raised a TypeError there, from `super()`
    over the class it had before the slots were added.) A compound type
    keeps its hash once computed (`_HashCached`).
    """
    made = _fast_methods(dataclass(init=False, eq=False, slots=True)(cls))
    made.__setattr__ = _frozen_setattr
    made.__delattr__ = _frozen_delattr
    if issubclass(made, _HashCached):
        _cache_hash(made)
    return made


def _frozen_setattr(self, name, value):  # type: ignore[no-untyped-def]
    """A type value never changes (the message is the frozen dataclass's)."""
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):  # type: ignore[no-untyped-def]
    """A type value never changes (the message is the frozen dataclass's)."""
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _cache_hash(cls):  # type: ignore[no-untyped-def]
    """Wrap the field-made `__hash__` of `cls` to keep its answer.

    `_fast_methods` starts the slot as None, so the first hash of a value costs a
    test, not a raised and caught AttributeError (0.6 us each, 56k first hashes
    on the bench corpus)."""
    field_hash = cls.__hash__
    set_hash = _HashCached._hash.__set__  # type: ignore[attr-defined]

    def __hash__(self):  # type: ignore[no-untyped-def]
        h = self._hash
        if h is None:
            h = field_hash(self)
            set_hash(self, h)
        return h

    cls.__hash__ = __hash__
    return cls


def _fast_methods(cls):  # type: ignore[no-untyped-def]
    """Give the slotted dataclass `cls` of a type value a fast `__init__`, `__eq__`,
    `__hash__`, `__getstate__` and `__setstate__`.

    The dataclass-made `__init__` sets each field through `object.__setattr__`
    (to get past the frozen `__setattr__`): 235k values are made on the bench
    corpus, 0.30 us for a 3-field one. This one sets the slots through their
    descriptors, bound once here (0.20 us): the same fields in the same order
    with the same defaults, so `dataclasses.replace`, `__match_args__` and
    keyword calls are as the dataclass's, and assigning a field later still
    raises FrozenInstanceError. The slots that are not fields (the cached hash, a
    callable's `_shape`) start as None, both when made and when unpickled or
    copied (pickle and copy restore the fields through `__setstate__`, not
    `__init__`).

    The dataclass-made `__eq__` builds a tuple of the compared fields on each
    side (277k comparisons, 194k of them equal values that are distinct
    objects: dictionary keys); this one compares field by field, with the
    identity shortcut tuple comparison has, so the answer is the same
    (0.27 -> 0.19 us for an instance, 0.48 -> 0.26 us for a literal).

    `__hash__` is the dataclass's: the hash of the tuple of the hashed fields
    (`hash=`, else `compare=`). Where no field is hashed (None, Never, every
    Any) that tuple is empty each time (26k times on the bench corpus), so its
    hash is returned as a constant.

    `__getstate__` is the frozen slotted dataclass's: the list of the fields'
    values, which `__setstate__` reads back.
    """
    fields = dataclasses.fields(cls)
    extra = [name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())]
    ns = {}
    params = []
    body = []
    for f in fields:
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"_fast_methods does not make {cls.__name__}.{f.name}'s kind of field")
        ns[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    for name in extra:
        owner = next(base for base in cls.__mro__ if name in base.__dict__.get("__slots__", ()))
        ns[f"_set_{name}"] = owner.__dict__[name].__set__
        body.append(f"    _set_{name}(self, None)")
    state = [f"_set_{f.name}(self, state[{i}])" for i, f in enumerate(fields)] + [f"_set_{name}(self, None)" for name in extra]
    values = "".join(f"self.{f.name}, " for f in fields)
    same = [f"(self.{f.name} is other.{f.name} or self.{f.name} == other.{f.name})" for f in fields if f.compare]
    hashed = "".join(f"self.{f.name}," for f in fields if (f.compare if f.hash is None else f.hash))
    ns["_empty_hash"] = hash(())
    source = (
        f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n"
        f"def __getstate__(self):\n    return [{values}]\n"
        "def __setstate__(self, state):\n" + "".join(f"    {line}\n" for line in state or ["pass"])
        + "def __eq__(self, other):\n"
        "    if other.__class__ is not self.__class__:\n"
        "        return NotImplemented\n"
        f"    return {' and '.join(same) or 'True'}\n"
        "def __hash__(self):\n"
        f"    return {f'hash(({hashed}))' if hashed else '_empty_hash'}\n"
    )
    # Compiled under a name of its own: exec'd as "<string>", every class's
    # methods shared one (file, line, name) label, which cProfile's stats keep
    # once (the last code object written wins), so profiles lost their calls.
    exec(compile(source, f"<fast methods of {cls.__module__}.{cls.__qualname__}>", "exec"), ns)  # noqa: S102 (our own source, from the field names)
    for name in ("__init__", "__getstate__", "__setstate__", "__eq__", "__hash__"):
        fn = ns[name]
        fn.__qualname__ = f"{cls.__qualname__}.{name}"  # type: ignore[attr-defined]
        fn.__module__ = cls.__module__  # type: ignore[attr-defined]
        setattr(cls, name, fn)
    return cls


@value_type
class AnyType(Type):
    """`Any`: compatible both ways with every type; the reason it arose is kept for messages and flags."""

    # Why it is Any: "explicit" (written Any), "unannotated", "error" (after a
    # reported error), "special" (a construct we do not model yet), "implicit",
    # "unimported" (a name from a module that could not be followed),
    # "specialized" (a `*args: T`/`**kwargs: T` whose T was specialized to Any).
    # Not part of equality: every Any is the same type.
    reason: str = field(default="explicit", compare=False)
    # An "error" Any made where the failure itself is reported (an attribute no
    # class has): mypy's no-any-return counts it wherever it flows.
    reported: bool = field(default=False, compare=False)


@value_type
class NoneType(Type):
    """The type of `None`."""


@value_type
class NeverType(Type):
    """`Never` / `NoReturn`: the type with no values."""

    # "NoReturn" and "Never" are the same type; the spelling is kept for messages.
    spelling: str = field(default="Never", compare=False)


@value_type
class Instance(_HashCached):
    """An instance of a class, with its type arguments: `int`, `list[str]`."""

    info: "ClassInfo"
    args: tuple[Type, ...] = ()
    # Set on the instance type of a literal's value after widening is not wanted
    # (e.g. the fallback of `Literal[1]` stays plain `int`).

    def __repr__(self) -> str:
        return f"Instance({self.info.fullname}, {self.args!r})"


@value_type
class LiteralType(_HashCached):
    """A literal type, `Literal[1]`, `Literal["a"]`, `Literal[Color.RED]`, over its fallback class."""

    value: object  # int | str | bytes | bool | EnumMember name (str) for enums
    fallback: Instance
    is_enum: bool = False
    # Written in a type expression (`s: Literal["a"]`), not inferred from a literal
    # expression (`"a"`). The solver keeps declared literals and widens inferred
    # ones, as mypy does: `ident(s)` is `Literal['a']`, `ident("a")` is `str`.
    declared: bool = field(default=False, compare=False)


@value_type
class TupleType(_HashCached):
    """A fixed-length tuple `tuple[int, str]`; `tuple[int, ...]` is an Instance."""

    items: tuple[Type, ...]
    # tuple[join of items] or a NamedTuple class instance. Not hashed (it is
    # compared): the join repeats the items, so hashing both doubled the work
    # at each level of nesting, 2**28 for a 28-deep tuple (issue #19).
    fallback: Instance = field(hash=False)


@value_type
class UnpackType(Type):
    """An unpacked variadic part (PEP 646): `*Ts`, `*tuple[int, ...]`.

    Appears only in `TupleType.items` (at most one per tuple: `tuple[int, *Ts]`)
    and as the type of a `*args` parameter (`*args: *Ts`, where the item may
    also be a fixed or variadic TupleType: `*args: *tuple[int, *Ts, str]`).
    A fixed `*tuple[int, str]` inside a tuple is spliced, never kept.
    The item is a TypeVarType of kind "typevartuple", an unbounded tuple
    `Instance(builtins.tuple, (X,))`, or (for `*args` only) a TupleType.
    """

    item: Type


@value_type
class UnionType(_HashCached):
    """A union of types, `int | str` (made by `make_union`: flattened, without duplicates)."""

    items: tuple[Type, ...]


POS_ONLY = 0
POS_OR_KW = 1
VAR_POS = 2
KW_ONLY = 3
VAR_KW = 4


@value_type
class Param:
    """One parameter of a callable: its name, type, kind and whether it has a default."""

    name: str | None
    type: Type
    kind: int = POS_OR_KW
    has_default: bool = False

    @property
    def positional(self) -> bool:
        return self.kind in (POS_ONLY, POS_OR_KW)


@value_type
class TypeVarType(_HashCached):
    """A type variable (or ParamSpec, TypeVarTuple, the Self type) and what binds it."""

    name: str
    fullname: str
    # The function or class that binds it ("" while unbound, e.g. in an alias).
    scope: str = ""
    upper_bound: Type | None = None
    values: tuple[Type, ...] = ()
    variance: str = "invariant"  # "covariant" | "contravariant" | "infer"
    default: Type | None = None
    kind: str = "typevar"  # "typevar" | "paramspec" | "typevartuple" | "self"
    # Set on the type of a value narrowed by isinstance(): still the same type
    # variable, with `upper_bound` met with the class (mypy's representation of
    # the intersection). A union drops it beside the unnarrowed variable.
    narrowed: bool = False


class _CallableBase(_HashCached):
    """A callable also keeps its parameters sorted by kind (types.param_shape)."""

    __slots__ = ("_shape",)
    # Declared for the checker (the slot holds it; no class attribute is made).
    _shape: "ParamShape | None"


@value_type
class CallableType(_CallableBase):
    """A callable's signature: its parameters, return type and type variables."""

    params: tuple[Param, ...]
    ret: Type
    type_vars: tuple[TypeVarType, ...] = ()
    name: str | None = field(default=None, compare=False)
    # Where the function is defined, for "defined here" notes and overrides.
    definition: object = field(default=None, compare=False, hash=False, repr=False)
    # Accepts any arguments (`Callable[..., R]`, an unannotated `*args, **kwargs`).
    is_ellipsis: bool = False
    # True for the type of a class object used as a constructor.
    is_type_obj: bool = field(default=False, compare=False)
    # A TypeGuard/TypeIs function narrows its first argument to this type.
    type_guard: Type | None = None
    type_is: Type | None = None
    # A function whose body is not annotated at all: its signature is all Any.
    is_untyped: bool = field(default=False, compare=False)
    is_async: bool = field(default=False, compare=False)
    # Its keyword parameters came from `**kwargs: Unpack[TD]` (the TypedDict's
    # items are in `params`): a callable without **kwargs is not assignable to it.
    kwargs_unpacked: bool = False
    # The class a method is defined in, for messages: mypy names a method
    # `"m" of "C"` (`Too many arguments for "append" of "list"`).
    owner: str | None = field(default=None, compare=False)

    # (Made field by field rather than by `dataclasses.replace`, which reads the
    # class's fields and calls `__init__` by keyword: ~15 us a call.)
    def with_params(self, params: tuple[Param, ...]) -> "CallableType":
        return CallableType(
            params, self.ret, self.type_vars, self.name, self.definition, self.is_ellipsis, self.is_type_obj,
            self.type_guard, self.type_is, self.is_untyped, self.is_async, self.kwargs_unpacked, self.owner,
        )

    def with_ret(self, ret: Type) -> "CallableType":
        return CallableType(
            self.params, ret, self.type_vars, self.name, self.definition, self.is_ellipsis, self.is_type_obj,
            self.type_guard, self.type_is, self.is_untyped, self.is_async, self.kwargs_unpacked, self.owner,
        )


@value_type
class Overloaded(_HashCached):
    """An overloaded function: its signatures, in order."""

    items: tuple[CallableType, ...]
    name: str | None = field(default=None, compare=False)


@value_type
class TypeType(_HashCached):
    """`type[C]`: the class object C (or a subclass)."""

    item: Type  # Instance, TypeVarType, AnyType, UnionType of those


@value_type
class TypeFormType(Type):
    """`TypeForm[T]` (PEP 747): a type form object for T or a type assignable to it."""

    item: Type


@value_type
class ModuleType(Type):
    """A module object, `import os` as a value."""

    name: str
    info: object = field(compare=False, hash=False, repr=False, default=None)


@value_type
class TypedDictType(Type):
    """A TypedDict: its items, which are required and which read-only, and its class."""

    items: tuple[tuple[str, Type], ...]
    required: frozenset[str]
    readonly: frozenset[str]
    fallback: Instance
    # PEP 728: the type of the items it does not name. None: not closed (any
    # other key may be there, as `ReadOnly[object]`); Never: `closed=True`.
    extra: "Type | None" = None
    extra_readonly: bool = False

    def item_map(self) -> dict[str, Type]:
        return dict(self.items)


@value_type
class SpecialForm(Type):
    """A typing special form used as a value (`Union`, `Optional`, `Literal`...).

    Only type expressions give it meaning; as a value its type is opaque.
    """

    name: str


@value_type
class UninhabitedUnbound(Type):
    """Placeholder for a partial type being inferred (`x = []` before use)."""

    base: Instance


ProperType = Union[
    AnyType, NoneType, NeverType, Instance, LiteralType, TupleType, UnionType,
    TypeVarType, CallableType, Overloaded, TypeType, ModuleType, TypedDictType, UnpackType,
]

ANY = AnyType("implicit")
ANY_EXPLICIT = AnyType("explicit")
ANY_UNANNOTATED = AnyType("unannotated")
ANY_ERROR = AnyType("error")
ANY_REPORTED = AnyType("error", reported=True)
# A variable used as a type (`-> cl`, reported "Variable ... is not valid as a type"):
# mypy keeps the name unbound (`cl?`), so returning Any there is still no-any-return.
ANY_UNBOUND_NAME = AnyType("error")
ANY_SPECIAL = AnyType("special")
NONE = NoneType()
NEVER = NeverType()


def flatten_union(items: "tuple[Type, ...] | list[Type]") -> list[Type]:
    out: list[Type] = []
    for item in items:
        if type(item) is UnionType:
            out.extend(flatten_union(item.items))  # type: ignore[attr-defined]
        else:
            out.append(item)
    return out


# The item classes `make_union`'s rules look at (besides a literal beside an
# instance): a union is flattened, Never dropped, a reported Any kept over
# another, a narrowed type variable dropped beside its whole variable.
_SIMPLIFIED = frozenset({UnionType, NeverType, AnyType, TypeVarType})


def make_union(items: "tuple[Type, ...] | list[Type]") -> Type:
    """The simplified union of `items`: flattened, deduplicated, Never dropped.

    Any absorbs nothing here (int | Any stays both, as the spec allows) but
    duplicates go, and a single item is returned as itself.
    """
    # Half of the 161k calls on the bench corpus are one item (49k plain
    # instances, 13k literals) or the same object twice (37k, branches that
    # did not change a type): those are their own union, with nothing to
    # flatten, drop or merge. Neither a union (which may need flattening) nor
    # Never (which becomes `NEVER`) takes this path.
    n = len(items)
    if n == 1 or (n == 2 and items[0] is items[1]):
        only = items[0]
        cls = type(only)
        if cls is not UnionType and cls is not NeverType:
            return only
    if n == 2:
        first = items[0]
        second = items[1]
        t1 = type(first)
        t2 = type(second)
        if t1 not in _SIMPLIFIED and t2 not in _SIMPLIFIED and not (
                (t1 is LiteralType and t2 is Instance) or (t1 is Instance and t2 is LiteralType)):
            # Two items none of the rules below looks at (17.6k of the 20k calls
            # past the test above on the bench corpus: `X | None`, two classes):
            # the pass below would hash both to find them equal or not. Items of
            # two classes are never equal (`__eq__` compares one class only);
            # equal ones are the first (the pass keeps the first of equal keys).
            if t1 is t2 and first == second:
                return first
            return UnionType((first, second))
        if t1 is UnionType:
            if second is first or (t2 is UnionType and second == first):
                # A union joined with itself or an equal one (4.3k calls on the bench
                # corpus, branches that narrowed a variable alike: check.flow.merge):
                # the pass below keeps the first union's items, its own objects, in
                # its order, and a union is made here only, simplified, so no rule
                # below changes it. Except a reported Any (see below), which the
                # second may hold where the first holds an equal unreported one.
                for item in first.items:  # type: ignore[attr-defined]
                    if type(item) is AnyType:
                        break
                else:
                    return first
    # One pass, with exact class tests (no type here is ever subclassed):
    # flatten, drop Never, deduplicate, and note which simplifications below
    # can apply at all (158k calls on the bench corpus, most with no type
    # variable and no literal).
    seen: dict[Type, None] = {}
    has_typevar = has_literal = has_instance = False
    reported: AnyType | None = None
    for item in items:
        if type(item) is UnionType:
            items = flatten_union(items)  # (a new list only when there is a union to flatten)
            break
    for item in items:
        cls = type(item)
        if cls is NeverType:
            continue
        if cls is TypeVarType:
            has_typevar = True
        elif cls is LiteralType:
            has_literal = True
        elif cls is Instance:
            has_instance = True
        elif cls is AnyType and item.reported:  # type: ignore[attr-defined]
            reported = item  # type: ignore[assignment]
        seen[item] = None
    if len(seen) > 1 and reported is None and not has_typevar and not (has_literal and has_instance):
        return UnionType(tuple(seen))  # (none of the simplifications below applies)
    result = list(seen)
    if reported is not None:
        # Every Any is equal (`reason` and `reported` are not compared): the one
        # kept is the first, so a reported Any merged after another error Any
        # would be lost (mypy's no-any-return counts it wherever it flows:
        # AnyType.reported). An Any of another reason stays as it is.
        result = [reported if type(t) is AnyType and t.reason == "error" else t for t in result]  # type: ignore[attr-defined]
    if has_typevar:
        # A narrowed type variable is part of the variable itself (branches merging).
        whole = {(t.fullname, t.scope) for t in result if type(t) is TypeVarType and not t.narrowed}  # type: ignore[attr-defined]
        if whole:
            result = [t for t in result if not (type(t) is TypeVarType and t.narrowed and (t.fullname, t.scope) in whole)]  # type: ignore[attr-defined]
    if has_literal and has_instance:
        # A literal is dropped when its plain fallback is also present.
        plain = {t for t in result if type(t) is Instance}
        result = [t for t in result if not (type(t) is LiteralType and t.fallback in plain)]  # type: ignore[attr-defined]
    if not result:
        return NEVER
    if len(result) == 1:
        return result[0]
    return UnionType(tuple(result))


def holds_any(t: Type, reason: str | None = None, depth: int = 0) -> bool:
    """Whether `t` holds Any anywhere (of `reason` only, when given): in type
    arguments, tuple and union items, `type[...]` and callable parts. Nesting
    beyond eight levels is not searched."""
    return holds_kind(t, AnyType, reason, depth)


def holds_kind(t: Type, kind: type, reason: str | None = None, depth: int = 0) -> bool:
    """Whether `t` holds a `kind` (an AnyType of `reason`, when given) anywhere
    `holds_any` looks."""
    if depth > 8:
        return False
    # (Exact class tests and loops, not isinstance and any() over generators: no
    # type class is subclassed, and this is asked of most inferred types.)
    tp = type(t)
    if tp is kind:
        return reason is None or getattr(t, "reason", None) == reason
    if tp is Instance:
        for a in t.args:  # type: ignore[attr-defined]
            if holds_kind(a, kind, reason, depth + 1):
                return True
        return False
    if tp is UnionType or tp is TupleType:
        for i in t.items:  # type: ignore[attr-defined]
            if holds_kind(i, kind, reason, depth + 1):
                return True
        return False
    if tp is TypeType:
        return holds_kind(t.item, kind, reason, depth + 1)  # type: ignore[attr-defined]
    if tp is CallableType:
        if holds_kind(t.ret, kind, reason, depth + 1):  # type: ignore[attr-defined]
            return True
        for p in t.params:  # type: ignore[attr-defined]
            if holds_kind(p.type, kind, reason, depth + 1):
                return True
    return False


def union_items(t: Type) -> list[Type]:
    # (An exact class test: no type class is subclassed, and this is asked 106k
    # times on the bench corpus.)
    return list(t.items) if type(t) is UnionType else [t]  # type: ignore[attr-defined]


def callable_owner(t: "CallableType | Overloaded") -> str | None:
    """The class a callable is a method of (`CallableType.owner`; an overload's first item's)."""
    return t.owner if isinstance(t, CallableType) else t.items[0].owner if t.items else None


def is_any_class_object(t: Type) -> bool:
    """`type` with no argument or `type[Any]` (the same type: spec, "type[]"): a
    class object of any class."""
    if isinstance(t, Instance):
        return t.info.fullname == "builtins.type" and all(isinstance(x, AnyType) for x in t.args)
    return isinstance(t, TypeType) and isinstance(t.item, AnyType)


def is_optional(t: Type) -> bool:
    return isinstance(t, UnionType) and any(isinstance(i, NoneType) for i in t.items)


def remove_none(t: Type) -> Type:
    if isinstance(t, UnionType):
        return make_union([i for i in t.items if not isinstance(i, NoneType)])
    return t
