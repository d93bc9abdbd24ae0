"""Assignability: may a value of type `left` be used where `right` is expected?

The typing spec's "assignable to" relation: subtyping between fully static
types, with Any consistent with everything (gradual typing). Nominal for
classes (with variance), structural for protocols, parameter-wise for
callables (in `callable_subtype`). Where a construct is not modelled, the answer is "yes" so that
no false error follows (DESIGN.md principle 4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import TypeFormType, make_union
from veritype.types.model import (
    VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType,
    ModuleType, NeverType, NoneType, Overloaded, Param, SpecialForm, TupleType, Type, TypedDictType, TypeType,
    TypeVarType, UninhabitedUnbound, UnionType, UnpackType,
)
from veritype.types.alias_ref import AliasRef
from veritype.types.kept_answers import KEPT_KINDS, final_now as _final_now, keyed as _keyed, plain as _plain
from veritype.types.substitute import tv_key
from veritype.types.type_var_defaults import default_after
from veritype.types.supertypes import map_instance_to_supertype
from veritype.types import callable_subtype
from veritype.types.tuples import is_variadic, item_types

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

# Numeric promotion (typing spec, "Special cases for float and complex").
_PROMOTIONS = {
    "builtins.int": ("builtins.float", "builtins.complex"),
    "builtins.float": ("builtins.complex",),
    "builtins.bool": ("builtins.float", "builtins.complex"),
}
# Only with --no-strict-bytes: mypy 2.x's default (strict bytes) has no
# bytearray/memoryview -> bytes promotion (PEP 688: use Buffer for any of them).
_BYTES_PROMOTIONS = {
    "builtins.bytearray": ("builtins.bytes",),
    "builtins.memoryview": ("builtins.bytes",),
}


# Special forms that are never a class object or a callable (see evaluate.special_values).
_NOT_CLASSES = frozenset({
    "Annotated", "Union", "Optional", "Literal", "Callable", "ClassVar", "Final", "Required", "NotRequired",
    "ReadOnly", "Concatenate", "TypeGuard", "TypeIs", "Unpack", "Never", "NoReturn", "Self", "LiteralString",
    "TypeAlias", "Type",
})


# What every class object is an instance of (`_type_left` says so first).
_CLASS_OBJECT_CLASSES = ("builtins.type", "builtins.object")

# The kinds of type the first tests of `_check` are about; a pair with none of
# them goes straight to the structural tests.
_SPECIAL = frozenset({AnyType, AliasRef, NeverType, UninhabitedUnbound, TypeFormType, SpecialForm, ModuleType})


class SubtypeChecker:
    def __init__(self, ev: "Evaluator") -> None:
        self.ev = ev
        self._assuming: set[tuple[Type, Type]] = set()
        # Answers for pairs of types that depend on (see `kept_answers`)
        # nothing but the two types: the same few pairs are asked again and
        # again (every argument of every call, every assignment).
        self._cache: dict[tuple[Type, Type], bool] = {}
        # Answers of protocol checks begun with nothing assumed and no lazy
        # evaluation in progress (see `_protocol`): a few hundred pairs are
        # asked thousands of times (`Iterable[str]` of every list argument).
        self._protocols: dict[tuple[Type, Type], bool] = {}
        self.protocol_constraints: dict[tuple[object, ...], tuple[object, ...]] = {}  # solve._infer_protocol's, kept alike
        # supertypes.map_instance_to_supertype's answers, and the classes whose MRO is final.
        self.supertypes: dict[tuple[ClassInfo, tuple[Type, ...], ClassInfo], Instance | None] = {}
        self.settled: set[ClassInfo] = set()
        # The types `kept_answers.final` said yes to (final for good: see
        # `kept_answers.final_now`). Each pair not kept yet asks it of both
        # types, which are mostly the same few thousand (`str`, `int | None`):
        # 13.5k of the 19k questions on the bench corpus were repeats, each a
        # walk of the type and its classes.
        self._finals: set[Type] = set()

    def check(self, left: Type, right: Type) -> bool:
        """The entry point; `_check` is the recursion (which this caches)."""
        if left is right:
            return True
        tl = type(left)
        tr = type(right)
        if tr is Instance:
            # The answers that need no cache (each lookup hashes both types): a
            # plain instance against an equal one, a literal against its own
            # fallback class, anything against `object` (40% of the 197k
            # questions on the bench corpus). Each is what `_check` answers.
            rinfo = right.info  # type: ignore[attr-defined]
            if tl is Instance:
                if left.info is rinfo and left.args == right.args:  # type: ignore[attr-defined]
                    return True  # left == right
            elif tl is LiteralType:
                fallback = left.fallback  # type: ignore[attr-defined]
                if fallback.info is rinfo and fallback.args == right.args:  # type: ignore[attr-defined]
                    return True  # `_check(left.fallback, right)` with equal types
            if rinfo.fullname == "builtins.object":
                return True  # every type is an object (each branch of `_check` says so)
        elif tr is UnionType:
            # A union holding the left type itself (`str`, `None`, a literal's class
            # against `str | None`: 10% of the questions past the tests above), or
            # equal to a left union: `_check` answers yes at that item (or at once),
            # as it does at an Any item; here without hashing the pair for the cache.
            if tl is Instance or tl is NoneType or tl is LiteralType or tl is TypeType:
                fits = left.fallback if tl is LiteralType else left  # type: ignore[attr-defined]
                for item in right.items:  # type: ignore[attr-defined]
                    if item is left or item is fits:
                        return True
                    ti = type(item)
                    if ti is tl:
                        if tl is NoneType or item == left:
                            return True
                    elif ti is Instance:
                        if tl is LiteralType:
                            if item.info is fits.info and item.args == fits.args:  # type: ignore[attr-defined, union-attr]
                                return True
                        elif tl is TypeType and item.info.fullname in _CLASS_OBJECT_CLASSES:  # type: ignore[attr-defined]
                            return True  # (`isinstance`'s `type | UnionType | tuple[...]`: see `_type_left`)
                    elif ti is AnyType:
                        return True
            elif tl is UnionType and left == right:
                return True
        if tl is AnyType or tr is AnyType:
            return True  # (`_check`'s first answer for a pair with Any, after equality)
        if self._assuming or tl not in KEPT_KINDS or tr not in KEPT_KINDS:
            # (A pair with a callable, a TypedDict... is never kept (see
            # `kept_answers`): not looked up either, which would hash both.)
            return self._check(left, right)
        key = (left, right)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # only kept kinds of pairs are stored, and a type equal to one is one too
        # Plain pairs are kept; so is a pair with protocols (`list[str]` against
        # `Iterable[str]`: 7,700 questions for 620 pairs on the bench corpus, each
        # a walk up the MRO; `slice[int, None, None]` against the slice of
        # `__getitem__`) or `type[C]`s (isinstance's class tuples) when final, as
        # `_protocol` keeps its answers: asked with nothing assumed (see above) and
        # no lazy evaluation in progress (see `kept_answers`).
        if self.ev.lazy_depth == 0:
            finals = self._finals
            keep = (right in finals or _final_now(right, finals)) and (left in finals or _final_now(left, finals))
        else:
            keep = _plain(right) and _plain(left)
        if keep:
            hit = self._check(left, right)
            self._cache[key] = hit
            return hit
        return self._check(left, right)

    def _recursive_alias(self, left: Type, right: Type) -> bool:
        """A recursive alias reference on either side: compare its value, assuming
        the pair holds while doing so (coinductively), so that `Json` against
        `Json2` or a nested value against `Json` ends instead of recursing."""
        key = (left, right)
        if key in self._assuming or len(self._assuming) > 200:
            return True
        l2 = left.expand() if isinstance(left, AliasRef) else left
        r2 = right.expand() if isinstance(right, AliasRef) else right
        if l2 is None or r2 is None:
            return True  # still being evaluated: unknown
        self._assuming.add(key)
        try:
            return self._check(l2, r2)
        finally:
            self._assuming.discard(key)

    def _check(self, left: Type, right: Type) -> bool:
        if left is right:
            return True
        # Exact class tests throughout (the model's classes, and AliasRef, have
        # no subclasses): each `isinstance` of the chain below was a call, about
        # five per question (319k on the bench corpus).
        tl = type(left)
        tr = type(right)
        if tl is tr:
            # Only values of the same class compare equal (dataclass equality), so
            # the comparison is made for those only: for two kinds of type `==`
            # would call both sides' `__eq__` to learn nothing.
            if left == right:
                return True
            if tl is Instance:
                # The most common pair (every class-typed argument), which no
                # test below but the last one concerns.
                return self._instance_left(left, right)  # type: ignore[arg-type]
        if tl in _SPECIAL or tr in _SPECIAL:
            # The tests that concern only these kinds, skipped together for the
            # common pairs (classes, unions, None, literals, tuples, callables).
            if tr is AnyType or tl is AnyType:
                return True
            if tl is AliasRef or tr is AliasRef:
                return self._recursive_alias(left, right)
            if tl is NeverType:
                return True
            if tl is UninhabitedUnbound or tr is UninhabitedUnbound:
                return True
            if tr is NeverType:
                # Nothing but Never (and Any) is assignable to Never: assert_never(x).
                return False
            if tr is TypeFormType or tl is TypeFormType:
                return self._type_form(left, right)
            if tl is SpecialForm and (tr is TypeType or tr is CallableType) and left.name in _NOT_CLASSES:  # type: ignore[attr-defined]
                # "Annotated is not type compatible with type or type[T]" (spec); nor is
                # any special form object (mypy: "<typing special form>").
                return False
            if tl is SpecialForm and left.name in _NOT_CLASSES:  # type: ignore[attr-defined]
                # A special form object is a `typing._SpecialForm` (typeshed; mypy):
                # not a `type` nor None, but an `object` and Hashable.
                if tr is Instance:
                    form = self.ev.instance("typing._SpecialForm")
                    return not isinstance(form, Instance) or self._instance_left(form, right)  # type: ignore[arg-type]
                if tr is NoneType or tr is LiteralType or tr is TupleType:
                    return False
            if (tl is SpecialForm or tl is ModuleType) and tr is not Instance and tr is not UnionType:
                return True
        if tl is UnionType:
            for item in left.items:  # type: ignore[attr-defined]
                if not self._check(item, right):
                    return False
            return True
        if tr is UnionType:
            for item in right.items:  # type: ignore[attr-defined]
                if self._check(left, item):
                    return True
            return self._to_union_whole(left, right)  # type: ignore[arg-type]
        if tl is TypeVarType:
            if tr is TypeVarType and tv_key(left) == tv_key(right):  # type: ignore[arg-type]
                return True
            if left.kind in ("paramspec", "typevartuple"):  # type: ignore[attr-defined]
                return True
            if left.values:  # type: ignore[attr-defined]
                return all(self._check(v, right) for v in left.values)  # type: ignore[attr-defined]
            bound = left.upper_bound if left.upper_bound is not None else self.ev.builtin("object")  # type: ignore[attr-defined]
            return self._check(bound, right)
        if tr is TypeVarType:
            # A type variable is only assignable from itself (or Never / Any, or
            # an instance of a class deriving from Any, as mypy).
            if right.kind in ("paramspec", "typevartuple"):  # type: ignore[attr-defined]
                return True
            self_bound = right.upper_bound  # type: ignore[attr-defined]
            if right.kind == "self" and type(self_bound) is Instance and self_bound.info.is_final:  # type: ignore[attr-defined]
                # `Self` in a @final class can only be that class (mypy accepts
                # `return C()` in `def f(self) -> Self` there).
                return self._check(left, self_bound)
            return tl is Instance and any(c.has_any_base for c in left.info.mro)  # type: ignore[attr-defined]
        if tr is NoneType:
            # `types.NoneType` (what `type(None)` and `None.__class__` give) is None's class.
            return tl is NoneType or (tl is Instance and left.info.fullname in ("types.NoneType", "_typeshed.NoneType"))  # type: ignore[attr-defined]
        if tl is NoneType:
            if tr is Instance:
                if right.info.fullname in ("builtins.object", "types.NoneType", "_typeshed.NoneType"):  # type: ignore[attr-defined]
                    return True
                if right.info.is_protocol:  # type: ignore[attr-defined]
                    none_t = self.ev.instance("types.NoneType")
                    if isinstance(none_t, Instance):
                        return self._protocol(none_t, right)  # type: ignore[arg-type]
                    return True
            return False
        if tl is LiteralType:
            if tr is LiteralType:
                return left.value == right.value and type(left.value) is type(right.value) and left.fallback.info is right.fallback.info  # type: ignore[attr-defined]
            return self._check(left.fallback, right)  # type: ignore[attr-defined]
        if tr is LiteralType:
            if tl is Instance and right.is_enum and right.fallback.info is left.info and left.info.is_enum_class():  # type: ignore[attr-defined]
                # A one-member enum is its one literal (spec, "Enums": an enum
                # type is the union of its members' literal types).
                return list(self.ev.enum_members(left.info)) == [right.value]  # type: ignore[attr-defined]
            return False
        if tl is TupleType:
            return self._tuple_left(left, right)  # type: ignore[arg-type]
        if tl is TypedDictType:
            if tr is TypedDictType:
                return self._typeddict(left, right)  # type: ignore[arg-type]
            return self._typeddict_as_mapping(left, right) or self._check(left.fallback, right)  # type: ignore[arg-type, attr-defined]
        if tr is TypedDictType:
            return False
        if tl is CallableType or tl is Overloaded:
            return self._callable_left(left, right)  # type: ignore[arg-type]
        if tl is TypeType:
            return self._type_left(left, right)  # type: ignore[arg-type]
        if tl is Instance:
            return self._instance_left(left, right)  # type: ignore[arg-type]
        if tl is ModuleType and tr is Instance and right.info.is_protocol:  # type: ignore[attr-defined]
            # Spec, "Protocols": "Modules as implementations of protocols".
            return self._protocol(left, right)  # type: ignore[arg-type]
        return True

    def _to_union_whole(self, left: Type, right: UnionType) -> bool:
        """`left` against a union none of whose items it fits alone: a constrained
        or union-bound type variable, bool, or an enum may still fit the whole."""
        tl = type(left)
        if tl is TypeVarType and left.values:  # type: ignore[attr-defined]
            return all(self._check(v, right) for v in left.values)  # type: ignore[attr-defined]
        if tl is TypeVarType and left.kind in ("typevar", "self") and left.upper_bound is not None:  # type: ignore[attr-defined]
            # A bound that is itself a union (`bound=int | str`) is checked as a whole.
            return self._check(left.upper_bound, right)  # type: ignore[attr-defined]
        if tl is Instance and left.info.fullname == "builtins.bool":  # type: ignore[attr-defined]
            # bool is assignable to Literal[True] | Literal[False]
            vals = {i.value for i in right.items if isinstance(i, LiteralType) and i.fallback.info.fullname == "builtins.bool"}
            if vals == {True, False}:
                return True
        if tl is Instance and left.info.is_enum_class():  # type: ignore[attr-defined]
            members = {i.value for i in right.items if isinstance(i, LiteralType) and i.is_enum and i.fallback.info is left.info}  # type: ignore[attr-defined]
            if members and members == set(self.ev.enum_members(left.info)):  # type: ignore[attr-defined]
                return True
        return False

    # -- instances ------------------------------------------------------------

    def _instance_left(self, left: Instance, right: Type) -> bool:
        if not isinstance(right, (Instance, NoneType)) and _derives_from_any(left.info):
            # A class deriving from Any (an unknown base; `unittest.mock.Mock`,
            # typeshed's `NotImplementedType`) may be anything: mypy's
            # fallback_to_any makes it assignable to every type but None.
            return True
        if isinstance(right, Instance):
            if right.info.fullname == "builtins.object":
                return True
            if right.info not in left.info.mro and _derives_from_any(left.info):
                # A class with Any among its ancestors (not only its own bases:
                # `Mock` derives from `NonCallableMock(Base, Any)`) may be any class.
                return True
            if right.info.is_protocol and right.info not in left.info.mro:
                return self._protocol(left, right)
            mapped = map_instance_to_supertype(left, right.info)
            if mapped is None:
                promo = _PROMOTIONS.get(left.info.fullname)
                if promo is None and not self.ev.program.options.strict_bytes:
                    promo = _BYTES_PROMOTIONS.get(left.info.fullname)
                if promo and right.info.fullname in promo:
                    return True
                return False
            return self._args_ok(mapped, right)
        if isinstance(right, CallableType):
            # Every item of an overloaded `__call__` counts: the object fits the
            # callable when one of them does (as an overloaded function would).
            if left.info.get("__call__") is None:
                # No `__call__` anywhere in the MRO: not callable (mypy looks `__call__` up
                # as an operator, so a `__getattr__` does not make an instance callable).
                return False
            call = self.ev.instance_call_signature(left, whole=True)
            return call is None or self._check(call, right)
        if isinstance(right, TupleType):
            if left.info.fullname == "builtins.tuple" and left.args and isinstance(left.args[0], AnyType):
                return True
            # A NamedTuple (or other fixed-tuple subclass) instance is the tuple of its fields.
            for cls in left.info.mro:
                if cls.tuple_type is not None:
                    if left.info.type_vars:
                        return True  # generic: items would need mapping; stay lenient
                    return self._tuple_left(TupleType(cls.tuple_type.items, left), right)
            return False
        if isinstance(right, TypeType):
            if left.info.fullname == "builtins.type":
                return True
            return False
        return True

    def _args_ok(self, left: Instance, right: Instance) -> bool:
        params = right.info.type_vars
        if len(left.args) != len(right.args):
            return True
        for i, (tv, la, ra) in enumerate(zip(params, left.args, right.args)):
            # Inferred variance (PEP 695, infer_variance=True) is asked of the class;
            # "bivariant" is its answer where it cannot tell: either direction passes.
            variance = tv.variance if tv.variance != "infer" else self.ev.class_variance(right.info, i)
            if tv.kind == "typevartuple":
                if not self.packed_args_ok(la, ra, "infer" if variance == "bivariant" else variance):
                    return False
                continue
            if tv.kind == "paramspec":
                if not self._paramspec_args_ok(la, ra, variance):
                    return False
                continue
            if variance == "covariant":
                ok = self._check(la, ra)
            elif variance == "contravariant":
                ok = self._check(ra, la)
            elif variance in ("infer", "bivariant"):
                ok = self._check(la, ra) or self._check(ra, la)
            else:
                ok = self._equivalent(la, ra)
            if not ok:
                return False
        return True

    def packed_args_ok(self, la: Type, ra: Type, variance: str) -> bool:
        """The arguments at a TypeVarTuple's position, each packed as one tuple type
        (`Array[int, str]` holds `tuple[int, str]`), compared with the variance of the
        TypeVarTuple: invariant for `Generic[*Ts]` (the spec gives no variance for
        TypeVarTuples), inferred for PEP 695 classes. An Any argument (a bare
        `Array`) agrees with every shape."""
        if isinstance(la, AnyType) or isinstance(ra, AnyType):
            return True
        if variance == "covariant":
            return self._check(la, ra)
        if variance == "contravariant":
            return self._check(ra, la)
        if variance == "infer":
            return self._check(la, ra) or self._check(ra, la)
        return self._equivalent(la, ra)

    def _paramspec_args_ok(self, la: Type, ra: Type, variance: str) -> bool:
        """Parameter lists at a ParamSpec's position. A list is "below" another when
        a callable taking the other may stand for one taking it: `C[[object]]` is
        assignable to `C[[int]]` for a contravariant ParamSpec (conformance suite,
        generics_paramspec_variance). An Any or `...` list agrees with every list."""
        lc, rc = _params_callable(la), _params_callable(ra)
        if lc is None or rc is None:
            return True
        if variance == "covariant":
            return self._check(rc, lc)
        if variance == "contravariant":
            return self._check(lc, rc)
        if variance in ("infer", "bivariant"):
            return self._check(lc, rc) or self._check(rc, lc)
        return self._equivalent(lc, rc)

    def _equivalent(self, a: Type, b: Type) -> bool:
        return self._check(a, b) and self._check(b, a)

    def _protocol(self, left: Type, right: Instance) -> bool:
        key = (left, right)
        # (An empty set is not searched: a lookup hashes both types, and most
        # protocol checks begin with nothing assumed.)
        if self._assuming and key in self._assuming:
            return True
        # Kept when final: begun with no assumption (an answer found under one may
        # hold only because of it) and while no lazy evaluation is in progress (one
        # that is may have left a placeholder member type, see Evaluator.lazy_depth),
        # for settled classes whose every field takes part in equality (`_keyed`).
        final = not self._assuming and self.ev.lazy_depth == 0 and _keyed(left) and _keyed(right)
        if final:
            hit = self._protocols.get(key)
            if hit is not None:
                return hit
        self._assuming.add(key)
        try:
            result = self.ev.satisfies_protocol(left, right, self)
        finally:
            self._assuming.discard(key)
        if final:
            self._protocols[key] = result
        return result

    # -- tuples ---------------------------------------------------------------

    def _tuple_left(self, left: TupleType, right: Type) -> bool:
        if isinstance(right, TupleType):
            if is_variadic(left) or is_variadic(right):
                return self._variadic_tuples(left, right)
            if len(left.items) != len(right.items):
                return False
            for a, b in zip(left.items, right.items):  # (a loop, not `all()` over a generator)
                if not self._check(a, b):
                    return False
            return right.fallback.info.fullname == "builtins.tuple" or self._check(left.fallback, right.fallback)
        if is_variadic(left):
            left = TupleType(tuple(item_types(left)), left.fallback)
        if isinstance(right, Instance):
            if right.info.fullname == "builtins.tuple":
                item = right.args[0] if right.args else AnyType("implicit")
                for i in left.items:  # (a loop, not `all()` over a generator)
                    if not self._check(i, item):
                        return False
                return left.fallback.info.fullname == "builtins.tuple" or self._check(left.fallback, right)
            if right.info.is_protocol and right.info not in left.fallback.info.mro:
                return self._protocol(left, right)
            if left.fallback.info.fullname == "builtins.tuple" and left.items:
                # The fallback widens literals; as a Sequence the items keep their types.
                return self._check(Instance(left.fallback.info, (make_union(list(left.items)),)), right)
            return self._check(left.fallback, right)
        return self._check(left.fallback, right)

    def _variadic_tuples(self, left: TupleType, right: TupleType) -> bool:
        """Tuples with an unpacked part (spec, "Tuples", "Type compatibility rules"):
        the fixed prefix and suffix match item by item, and what lies between must
        fit the other side's unbounded part. `tuple[int, *tuple[int, ...]]` is
        assignable to `tuple[int, ...]` (handled by the caller) but not the reverse;
        an unpacked `tuple[Any, ...]` matches items of any length (gradual)."""
        from veritype.types.tuples import align, is_unbounded_tuple, unpack_index

        rk, lk = unpack_index(right), unpack_index(left)
        if rk is None:
            assert lk is not None
            lu = left.items[lk]
            assert isinstance(lu, UnpackType)
            if not (is_unbounded_tuple(lu.item) and isinstance(lu.item.args[0], AnyType)):  # type: ignore[attr-defined]
                return False  # a variadic left may be longer or shorter than right's fixed length
            lp, ls = left.items[:lk], left.items[lk + 1:]
            n = len(right.items)
            if len(lp) + len(ls) > n:
                return False
            return all(self._check(a, b) for a, b in zip(lp, right.items)) and all(
                self._check(a, b) for a, b in zip(ls, right.items[n - len(ls):]))
        if lk is None:
            expected = align(right, len(left.items))
            if expected is None:
                # Right's unpacked part is a TypeVarTuple: only Any items may stand for it.
                rp, rs = right.items[:rk], right.items[rk + 1:]
                n = len(left.items)
                if n < len(rp) + len(rs) or not all(isinstance(i, AnyType) for i in left.items[len(rp):n - len(rs)]):
                    return False
                return all(self._check(a, b) for a, b in zip(left.items, rp)) and all(
                    self._check(a, b) for a, b in zip(left.items[n - len(rs):], rs))
            return all(self._check(a, b) for a, b in zip(left.items, expected))
        ru, lu = right.items[rk], left.items[lk]
        assert isinstance(ru, UnpackType) and isinstance(lu, UnpackType)
        rp, rs = right.items[:rk], right.items[rk + 1:]
        lp, ls = left.items[:lk], left.items[lk + 1:]
        if len(lp) < len(rp) or len(ls) < len(rs):
            # Left's unbounded part would have to stand for right's fixed items: only
            # an unpacked tuple[Any, ...] may (gradual); then compare what is fixed on both.
            if not (is_unbounded_tuple(lu.item) and isinstance(lu.item.args[0], AnyType)):  # type: ignore[attr-defined]
                return False
            return all(self._check(a, b) for a, b in zip(lp, rp)) and all(
                self._check(a, b) for a, b in zip(reversed(ls), reversed(rs)))
        if not all(self._check(a, b) for a, b in zip(lp, rp)):
            return False
        if rs and not all(self._check(a, b) for a, b in zip(ls[len(ls) - len(rs):], rs)):
            return False
        middle = list(lp[len(rp):]) + [lu] + list(ls[:len(ls) - len(rs)])
        for m in middle:
            if not self._fits_unpacked(m, ru):
                return False
        return True

    def _fits_unpacked(self, item: Type, part: UnpackType) -> bool:
        """One item (or an unpacked part) of a tuple where `part` is expected."""
        from veritype.types.tuples import is_unbounded_tuple

        target = part.item
        if isinstance(item, UnpackType):
            if item.item == target:
                return True
            if is_unbounded_tuple(item.item):
                elem = item.item.args[0]  # type: ignore[attr-defined]
                if isinstance(elem, AnyType):
                    return True
                return is_unbounded_tuple(target) and self._check(elem, target.args[0])  # type: ignore[attr-defined]
            if isinstance(item.item, TypeVarType) and is_unbounded_tuple(target):
                return self._check(self.ev.builtin("object"), target.args[0])  # type: ignore[attr-defined]
            return False
        if is_unbounded_tuple(target):
            return self._check(item, target.args[0])  # type: ignore[attr-defined]
        return False  # a fixed item is no element of an unknown TypeVarTuple

    # -- TypedDict --------------------------------------------------------------

    def _typeddict(self, left: TypedDictType, right: TypedDictType) -> bool:
        lm = left.item_map()
        for key, rt in right.items:
            if key not in lm:
                # PEP 728: the left's extra items stand for the key (a non-required,
                # possibly read-only item of the extra type).
                if left.extra is None or key in right.required:
                    return False
                if not self.item_fits(left.extra, left.extra_readonly, False, rt, key in right.readonly, False):
                    return False
                continue
            lt = lm[key]
            if key in right.readonly:
                if not self._check(lt, rt):
                    return False
            elif not self._equivalent(lt, rt) or key in left.readonly:
                # Spec, "Assignability" of TypedDicts: "if B[k] is not read-only,
                # A[k] must not be read-only" either.
                return False
            if (key in right.required) != (key in left.required):
                if key in right.required or key not in right.readonly:
                    return False
        if right.extra is None:
            return True  # open: any other key, as ReadOnly[object]
        rm = right.item_map()
        # Typing spec (PEP 728): the right's extra items are a pseudo-item every
        # other key of the left must fit, and so must the left's own extra items
        # (an open left has ReadOnly[object] ones).
        for key, lt in left.items:
            if key not in rm and not self.item_fits(lt, key in left.readonly, key in left.required, right.extra, right.extra_readonly, False):
                return False
        left_extra = left.extra if left.extra is not None else self.ev.builtin("object")
        left_extra_ro = left.extra_readonly if left.extra is not None else True
        if isinstance(left_extra, NeverType):
            return True
        return self.item_fits(left_extra, left_extra_ro, False, right.extra, right.extra_readonly, False)

    def _typeddict_as_mapping(self, left: TypedDictType, right: Type) -> bool:
        """A TypedDict is a `Mapping[str, object]`; with PEP 728's extra items it is
        "assignable to a type of the form Mapping[str, VT] when all value types of
        the items in the TypedDict are assignable to VT", and to `dict[str, VT]` when
        every item is non-required, not read-only and consistent with VT."""
        str_t = self.ev.builtin("str")
        if left.extra is None:
            return self._check(self.ev.instance("typing.Mapping", (str_t, self.ev.builtin("object"))), right)
        values = [t for _, t in left.items] + ([left.extra] if not isinstance(left.extra, NeverType) else [])
        if (isinstance(right, Instance) and right.info.fullname == "builtins.dict" and len(right.args) == 2
                and not isinstance(left.extra, NeverType) and not left.extra_readonly and self._check(str_t, right.args[0])):
            vt = right.args[1]
            return (not left.required and not left.readonly
                    and all(self._equivalent(t, vt) for t in values))
        return self._check(self.ev.instance("typing.Mapping", (str_t, make_union(values) if values else NeverType())), right)

    def item_fits(self, lt: Type, l_ro: bool, l_req: bool, rt: Type, r_ro: bool, r_req: bool) -> bool:
        """Whether an item (type, read-only, required) may stand for another."""
        if r_ro:
            return self._check(lt, rt) and (l_req or not r_req)
        return not l_ro and l_req == r_req and self._equivalent(lt, rt)

    # -- callables --------------------------------------------------------------

    _callable_left = callable_subtype.callable_left
    callable_ok = callable_subtype.callable_ok
    _guards_ok = callable_subtype.guards_ok
    _keywords_ok = callable_subtype.keywords_ok
    _gradual_prefix_ok = callable_subtype.gradual_prefix_ok
    _params_ok = callable_subtype.params_ok
    # -- type[C] ------------------------------------------------------------------

    def _type_form(self, left: Type, right: Type) -> bool:
        """Spec, "TypeForm": "TypeForm is covariant in its single type parameter",
        "type[T] is a subtype of TypeForm[T]", and a TypeForm is an object."""
        if isinstance(right, UnionType):
            return any(self._check(left, item) for item in right.items)
        if isinstance(left, UnionType):
            return all(self._check(item, right) for item in left.items)
        if isinstance(right, TypeFormType):
            if isinstance(left, (TypeFormType, TypeType)):
                return self._check(left.item, right.item)
            return False
        return isinstance(right, Instance) and right.info.fullname == "builtins.object"

    def _type_left(self, left: TypeType, right: Type) -> bool:
        if isinstance(right, TypeType):
            # `type[A]` against `type[B]` is A against B: a question the cache of
            # `check` may hold, where the pair of `type[...]`s may not be cached.
            return self.check(_bare_with_defaults(left.item), right.item)
        if isinstance(right, Instance) and right.info.fullname == "types.GenericAlias":
            # `list[int]` used as a value is a GenericAlias at run time: a class
            # object with explicit type arguments (not the bare class `list`).
            item = left.item
            return isinstance(item, Instance) and bool(item.args) and not all(isinstance(a, AnyType) and a.reason == "bare" for a in item.args)
        if isinstance(right, Instance):
            if right.info.fullname in _CLASS_OBJECT_CLASSES:
                return True
            if isinstance(left.item, Instance):
                if right.info.is_protocol and self._protocol(left, right):
                    return True
                if right.info.is_protocol and "__call__" in self.ev.protocol_members(right.info):
                    # A class object's `__call__` is its constructor (checked just above),
                    # not the metaclass's `type.__call__(*args: Any)`, which would match
                    # every callback protocol.
                    return False
                meta = self.ev.metaclass_instance(left.item.info)
                return meta is not None and self._check(meta, right)
            if isinstance(left.item, AnyType):
                # `type[Any]` is some class object: an instance of `type` (or of a metaclass).
                return right.info.is_protocol or any(c.fullname == "builtins.type" for c in right.info.mro)
            return False
        if isinstance(right, CallableType):
            ctor = self.ev.constructor_type(left)
            return ctor is None or self._check(ctor, right)
        return False


def _derives_from_any(info: "ClassInfo") -> bool:
    """Whether a class has Any (an unknown base) among its ancestors."""
    for c in info.mro:
        if c.has_any_base:
            return True
    return False


def _params_callable(t: Type) -> CallableType | None:
    """A ParamSpec argument (a parameter list held as a callable, or a ParamSpec)
    as a callable returning None; None for Any."""
    if isinstance(t, CallableType):
        return t if isinstance(t.ret, NoneType) else t.with_ret(NoneType())
    if isinstance(t, TypeVarType) and t.kind == "paramspec":
        return CallableType((Param("args", t, VAR_POS), Param("kwargs", t, VAR_KW)), NoneType())
    return None


def is_subtype(ev: "Evaluator", left: Type, right: Type) -> bool:
    """Assignability of `left` to `right` (the name mypy users know it by)."""
    # (The evaluator's checker read directly where it exists: one call less on
    # every question; the engine drops it when classes are forgotten.)
    if left is right:
        return True  # (a fifth of the questions; `check` would answer so)
    sc = ev._subtype_checker
    if sc is None:
        sc = ev.subtype_checker()
    try:
        return sc.check(left, right)
    except RecursionError:
        from veritype.diagnostics import bounds

        bounds.hit("recursion limit in a subtype check (taken as assignable)")
        return True


def is_same_type(ev: "Evaluator", a: Type, b: Type) -> bool:
    return is_subtype(ev, a, b) and is_subtype(ev, b, a)


def _bare_with_defaults(item: Type) -> Type:
    """The class named bare as a value (`Bar`, arguments Any marked "bare") with
    its defaulted type parameters filled in: the spec ("Defaults for type
    parameters") says of generic classes that "non-overridden defaults should be
    substituted", so `Bar` is `type[Bar[str]]` when its parameter defaults to
    str. Parameters without a default stay Any; so does every parameter when
    the class has no defaults at all (mypy's bare class object)."""
    if not isinstance(item, Instance) or not item.args or len(item.args) != len(item.info.type_vars):
        return item
    tvs = item.info.type_vars
    if not any(tv.default is not None for tv in tvs):
        return item
    if not all(isinstance(a, AnyType) and a.reason == "bare" for a in item.args):
        return item
    out: list[Type] = []
    for tv, arg in zip(tvs, item.args):
        if tv.default is None or tv.kind != "typevar":
            out.append(arg)
            continue
        out.append(default_after(tv, tvs, out))  # (a default may name earlier parameters)
    return Instance(item.info, tuple(out))
