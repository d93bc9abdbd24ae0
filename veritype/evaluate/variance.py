"""Variance of a class's type parameters: declared, or inferred from its body.

Typing spec, "Variance Inference": for a type parameter whose variance is
inferred (PEP 695 `class A[T]`, `TypeVar("T", infer_variance=True)`),
"create two specialized versions of the class ... `upper` and `lower`
specializations ... In the `upper` specialized class, specialize the target
type parameter with an `object` instance ... In the `lower` specialized
class, specialize the target type parameter with itself ... Determine
whether `lower` can be assigned to `upper` using normal assignability
rules. If so, the target type parameter is covariant. If not, determine
whether `upper` can be assigned to `lower`. If so, the target type parameter
is contravariant. If neither ... the target type parameter is invariant."

Assignability of the two specializations is judged member by member (the
class's own methods and attributes) and through its bases (which bring the
inherited members with their own, declared or inferred, variance). The
other type parameters stay themselves: a type variable is assignable only
to itself, like the spec's "dummy type instance".

ParamSpecs and TypeVarTuples are inferred the same way (the conformance
suite expects it): `upper` is the parameter list that accepts any call
(`*args: object, **kwargs: object`), resp. `tuple[object, ...]`; `lower` is
a concrete value below it (no parameters, resp. the empty tuple), since
signatures still holding a ParamSpec are not compared precisely.

Answers: "covariant", "contravariant", "invariant", or "bivariant" where we
cannot tell (an Any base, a member whose types did not decide): callers
then accept either direction (DESIGN.md principle 4). A class whose
inference needs its own variance (a method returning `A[T]`) meets the
parameter as covariant while the inference runs; an answer that relied on
that is kept only if it also holds when assumed (else "bivariant"), and an
inference asked while the class's bases are still evaluated is "bivariant"
and not cached.

The answer is cached on the ClassInfo (`_inferred_variance`, by index).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import (
    POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, AnyType, CallableType, Instance, NoneType, Overloaded, Param, TupleType,
    Type, TypeVarType,
)
from veritype.types.substitute import substitute, tv_key, type_vars_in

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

_RUNNING = "running:"
# Members that say nothing about how an instance is used: construction, class
# machinery, and what the checker makes up itself.
_SKIP = frozenset({
    "__init__", "__new__", "__init_subclass__", "__class_getitem__", "__post_init__", "__slots__",
    "__match_args__", "__annotations__", "__dict__", "__module__", "__doc__", "__weakref__", "__qualname__",
    "__orig_bases__", "__parameters__", "__type_params__", "__hash__", "__dataclass_fields__",
})


def class_variance(ev: "Evaluator", info: "ClassInfo", index: int) -> str:
    """The variance of `info`'s type parameter number `index`, as used when two
    instances of the class are compared."""
    tvs = info.type_vars
    if index >= len(tvs):
        return "bivariant"
    tv = tvs[index]
    if tv.variance != "infer":
        return tv.variance
    if info._resolving:
        return "bivariant"  # asked while the class's own bases are evaluated: not final yet
    cache: dict[int, str] | None = getattr(info, "_inferred_variance", None)
    if cache is None:
        cache = {}
        info._inferred_variance = cache  # type: ignore[attr-defined]
    hit = cache.get(index)
    if hit is not None:
        if hit.startswith(_RUNNING):
            _self_uses(info).add(index)
            return hit[len(_RUNNING):]
        return hit
    # Answers found meanwhile may have used a running placeholder variance: like
    # any lazy evaluation, it makes them not final for the caches (Evaluator.lazy_depth).
    with ev.lazy_evaluation:
        result = _settle(ev, info, index, cache)
    cache[index] = result
    return result


def _settle(ev: "Evaluator", info: "ClassInfo", index: int, cache: dict[int, str]) -> str:
    """Infer, meeting the parameter as covariant where the class uses itself. An
    answer that used that assumption is kept only if it holds when assumed in its
    turn (`def f(self, x: "C[T]")` alone fits any variance: we cannot tell)."""
    # The bases' answers first, deepest first: a long chain of generic classes is
    # then settled one class at a time instead of in one deep recursion.
    for base in reversed(info.mro[1:]):
        if base.node is not None and any(tv.variance == "infer" for tv in base.type_vars):
            for i in range(len(base.type_vars)):
                class_variance(ev, base, i)
    assumption = "covariant"
    for _ in range(2):
        cache[index] = _RUNNING + assumption
        _self_uses(info).discard(index)
        try:
            result = _infer(ev, info, index)
        except RecursionError:
            return "bivariant"
        if index not in _self_uses(info) or result in (assumption, "invariant", "bivariant"):
            return result
        assumption = result
    return "bivariant"


def _self_uses(info: "ClassInfo") -> set[int]:
    """Parameters whose running inference was asked for (by the class using itself)."""
    uses: set[int] | None = getattr(info, "_variance_self_use", None)
    if uses is None:
        uses = set()
        info._variance_self_use = uses  # type: ignore[attr-defined]
    return uses


def _infer(ev: "Evaluator", info: "ClassInfo", index: int) -> str:
    if info.node is None or info.is_typeddict or any(c.has_any_base or c.unknown_decorator for c in info.mro):
        return "bivariant"
    tv = info.type_vars[index]
    bounds = _probe_values(ev, tv)
    if bounds is None:
        return "bivariant"
    lower_value, upper_value = bounds
    # The other ParamSpecs become a concrete parameter list (the spec's "dummy"):
    # a signature still holding a ParamSpec is not compared precisely.
    others = {tv_key(o): CallableType((), NoneType()) for o in info.type_vars if o.kind == "paramspec" and o != tv}
    lower_map = {**others, tv_key(tv): lower_value} if lower_value is not None else others
    upper_map = {**others, tv_key(tv): upper_value}
    pairs = _member_pairs(ev, info)
    if pairs is None:
        return "bivariant"
    from veritype.types.subtype import SubtypeChecker

    # A checker of our own: answers found while a class's variance is still
    # being inferred must not be cached for later questions.
    sc = SubtypeChecker(ev)
    co = contra = True
    used = False
    key = tv_key(tv)
    for t, settable in pairs:
        if key not in type_vars_in(t):
            continue
        used = True
        low, up = substitute(t, lower_map), substitute(t, upper_map)
        down_ok, up_ok = sc.check(low, up), sc.check(up, low)
        if settable:
            # A settable attribute is read and written: both directions are needed.
            down_ok = up_ok = down_ok and up_ok
        co = co and down_ok
        contra = contra and up_ok
        if not co and not contra:
            return "invariant"
    if co and contra:
        # Unused, the spec's step 4 says covariant ("lower can be assigned to
        # upper"); used but undecided by our comparisons: we cannot tell.
        return "bivariant" if used else "covariant"
    return "covariant" if co else "contravariant"


def _probe_values(ev: "Evaluator", tv: TypeVarType) -> tuple[Type | None, Type] | None:
    """(lower, upper) values for `tv`; lower None means the parameter itself."""
    obj = ev.builtin("object")
    if tv.kind == "typevar":
        return None, obj
    if tv.kind == "paramspec":
        top = CallableType((Param("args", obj, VAR_POS), Param("kwargs", obj, VAR_KW)), NoneType())
        return CallableType((), NoneType()), top
    if tv.kind == "typevartuple":
        tup = ev.builtin("tuple", obj)
        empty = TupleType((), ev.builtin("tuple", AnyType("special")))
        return empty, tup
    return None


def _member_pairs(ev: "Evaluator", info: "ClassInfo") -> list[tuple[Type, bool]] | None:
    """The types through which an instance of `info` is used, each with whether
    it is settable (a mutable attribute): the bases, and the class's own
    members as seen on an instance (methods without their `self`). None when
    the class holds something we cannot judge."""
    from veritype.evaluate.dataclasses import frozen_field_owner
    from veritype.evaluate.declarations import qualifiers
    from veritype.evaluate.functions import function_type, method_kind, decorator_names

    out: list[tuple[Type, bool]] = []
    for base in info.bases:
        if base.info.fullname in ("builtins.object", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol"):
            continue
        out.append((base, False))
    scope = info.scope
    for name, sym in info.symbols.items():
        if name in _SKIP or (name.startswith("__") and not name.endswith("__")):
            continue  # a mangled private name is not reachable from outside the class
        if sym.kind == S.FUNC:
            defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if not defs:
                continue
            kind = method_kind(ev, defs[0], scope)
            if kind == "property":
                getter = function_type(ev, defs[0], scope)
                out.append((getter.ret, False))
                for d in defs[1:]:
                    if any(n.endswith(".setter") for n in decorator_names(ev, d, scope)):
                        setter = function_type(ev, d, scope)
                        if len(setter.params) >= 2:
                            out.append((CallableType((Param(None, setter.params[1].type, POS_ONLY),), NoneType()), False))
                continue
            t = ev.symbol_type(sym, scope)
            if kind != "static":
                t = _drop_self(t)
            out.append((t, False))
        elif sym.kind == S.VAR:
            t = ev.symbol_type(sym, scope)
            quals = qualifiers(ev, sym, scope)
            settable = not (
                quals & {"Final", "ClassVar", "ReadOnly"}
                or info.is_namedtuple
                or frozen_field_owner(info, name) is not None
                # An underscore name is the class's own business (mypy and pyright
                # treat such attributes as read-only for variance).
                or name.startswith("_")
            )
            out.append((t, settable))
    return out


def _drop_self(t: Type) -> Type:
    if isinstance(t, CallableType):
        if t.params and t.params[0].kind in (POS_ONLY, POS_OR_KW):
            return t.with_params(t.params[1:])
        return t  # `def m(*args)`: self is part of *args; nothing to drop
    if isinstance(t, Overloaded):
        return Overloaded(tuple(_drop_self(i) for i in t.items), t.name)  # type: ignore[misc]
    return t


# -- where a type variable occurs, and with which variance -------------------------

CO, CONTRA, INV = 1, -1, 0


def occurrences(ev: "Evaluator", t: Type, polarity: int = CO, depth: int = 0) -> list[tuple[TypeVarType, int]]:
    """Each type variable in `t` with the variance of its position (CO, CONTRA or
    INV), composing the variances of the classes around it (`Contra[Co[T]]` puts
    T in a contravariant position). Positions under a class parameter whose
    variance is unknown ("bivariant") constrain nothing and are left out."""
    out: list[tuple[TypeVarType, int]] = []
    _walk(ev, t, polarity, out, depth)
    return out


def _walk(ev: "Evaluator", t: Type, pol: int, out: list[tuple[TypeVarType, int]], depth: int) -> None:
    from veritype.types.model import TypeType, UnionType, UnpackType

    if depth > 40:
        return
    if isinstance(t, TypeVarType):
        out.append((t, pol))
    elif isinstance(t, Instance):
        tvs = t.info.type_vars
        if len(tvs) != len(t.args):
            return
        for i, (tv, arg) in enumerate(zip(tvs, t.args)):
            v = class_variance(ev, t.info, i)
            if v == "bivariant":
                continue
            inner = pol * (1 if v == "covariant" else -1 if v == "contravariant" else 0)
            if tv.kind == "paramspec" and isinstance(arg, CallableType):
                # A parameter list: its items vary with the list (see subtype's
                # _paramspec_args_ok), a ParamSpec in it is the list itself.
                for p in arg.params:
                    _walk(ev, p.type, inner, out, depth + 1)
            else:
                _walk(ev, arg, inner, out, depth + 1)
    elif isinstance(t, CallableType):
        for p in t.params:
            _walk(ev, p.type, -pol, out, depth + 1)
        _walk(ev, t.ret, pol, out, depth + 1)
    elif isinstance(t, Overloaded):
        for item in t.items:
            _walk(ev, item, pol, out, depth + 1)
    elif isinstance(t, (UnionType, TupleType)):
        for member in t.items:
            _walk(ev, member, pol, out, depth + 1)
    elif isinstance(t, (TypeType, UnpackType)):
        _walk(ev, t.item, pol, out, depth + 1)
