"""Substitution of type variables, and queries over the type variables a type mentions."""

from __future__ import annotations

from collections.abc import Mapping

from veritype.types.model import (
    VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, Overloaded, Param, TupleType, Type, TypedDictType,
    TypeType, TypeVarType, UnionType, make_union,
)

from veritype.types.alias_ref import AliasRef

TVKey = tuple[str, str]


def tv_key(tv: TypeVarType) -> TVKey:
    return (tv.fullname, tv.scope)


def substitute(t: Type, mapping: Mapping[TVKey, Type]) -> Type:
    if not mapping:
        return t
    return _sub(t, mapping)


def _sub(t: Type, m: Mapping[TVKey, Type]) -> Type:
    if isinstance(t, TypeVarType):
        return m.get(tv_key(t), t)
    if isinstance(t, Instance):
        if not t.args:
            return t
        return Instance(t.info, tuple(_sub(a, m) for a in t.args))
    if isinstance(t, UnionType):
        return make_union([_sub(i, m) for i in t.items])
    if isinstance(t, TupleType):
        items: list[Type] = []
        for item in t.items:
            items.append(_sub(item, m))
        fb = _sub(t.fallback, m)
        return TupleType(tuple(items), fb if isinstance(fb, Instance) else t.fallback)
    if isinstance(t, CallableType):
        params = tuple(Param(p.name, _sub(p.type, m), p.kind, p.has_default) for p in t.params)
        tvs = tuple(tv for tv in t.type_vars if tv_key(tv) not in m)
        spec = paramspec_tail(t)
        if spec is not None and tv_key(spec) in m:
            return _sub_paramspec(t, params[:-2], m[tv_key(spec)], tvs, m)
        guard = _sub(t.type_guard, m) if t.type_guard is not None else None
        is_ = _sub(t.type_is, m) if t.type_is is not None else None
        return CallableType(
            params, _sub(t.ret, m), tvs, t.name, t.definition, t.is_ellipsis, t.is_type_obj,
            guard, is_, t.is_untyped, t.is_async,
        )
    if isinstance(t, Overloaded):
        return Overloaded(tuple(_sub(i, m) for i in t.items), t.name)  # type: ignore[misc]
    if isinstance(t, TypeType):
        inner = _sub(t.item, m)
        return TypeType(inner)
    if isinstance(t, TypedDictType):
        return TypedDictType(tuple((k, _sub(v, m)) for k, v in t.items), t.required, t.readonly, t.fallback)
    if isinstance(t, LiteralType):
        return t
    if isinstance(t, AliasRef) and t.args:
        return AliasRef(t.name, t.fullname, tuple(_sub(a, m) for a in t.args), t.expander)
    return t


def paramspec_tail(t: CallableType) -> TypeVarType | None:
    """The ParamSpec P when `t` ends in `*args: P.args, **kwargs: P.kwargs` (how
    `Callable[P, R]` and `Callable[Concatenate[X, P], R]` are represented)."""
    if len(t.params) < 2:
        return None
    a, k = t.params[-2], t.params[-1]
    if a.kind != VAR_POS or k.kind != VAR_KW:
        return None
    if isinstance(a.type, TypeVarType) and a.type.kind == "paramspec" and a.type == k.type:
        return a.type
    return None


def _sub_paramspec(t: CallableType, prefix: tuple[Param, ...], value: Type, tvs: tuple[TypeVarType, ...], m: Mapping[TVKey, Type]) -> Type:
    """Replace the ParamSpec tail of `t` by `value`: a parameter list (a callable whose
    parameters are the list), another ParamSpec, or anything else (then: any arguments)."""
    guard = _sub(t.type_guard, m) if t.type_guard is not None else None
    is_ = _sub(t.type_is, m) if t.type_is is not None else None
    ret = _sub(t.ret, m)
    ellipsis = False
    if isinstance(value, TypeVarType) and value.kind == "paramspec":
        tail: tuple[Param, ...] = (Param(t.params[-2].name, value, VAR_POS), Param(t.params[-1].name, value, VAR_KW))
    elif isinstance(value, CallableType) and not value.is_ellipsis:
        tail = value.params
        tvs = tvs + tuple(v for v in value.type_vars if v not in tvs)
    elif not prefix:
        tail, ellipsis = (), True
    else:
        tail = (Param(None, AnyType("special"), VAR_POS), Param(None, AnyType("special"), VAR_KW))
    return CallableType(
        prefix + tail, ret, tvs, t.name, t.definition, ellipsis, t.is_type_obj,
        guard, is_, t.is_untyped, t.is_async,
    )


def type_vars_in(t: Type, out: dict[TVKey, TypeVarType] | None = None) -> dict[TVKey, TypeVarType]:
    """Type variables mentioned in `t`, in order of first appearance."""
    if out is None:
        out = {}
    if isinstance(t, TypeVarType):
        out.setdefault(tv_key(t), t)
    elif isinstance(t, Instance):
        for a in t.args:
            type_vars_in(a, out)
    elif isinstance(t, (UnionType, TupleType)):
        for i in t.items:
            type_vars_in(i, out)
    elif isinstance(t, CallableType):
        for p in t.params:
            type_vars_in(p.type, out)
        type_vars_in(t.ret, out)
    elif isinstance(t, Overloaded):
        for c in t.items:
            type_vars_in(c, out)
    elif isinstance(t, TypeType):
        type_vars_in(t.item, out)
    elif isinstance(t, TypedDictType):
        for _, v in t.items:
            type_vars_in(v, out)
    elif isinstance(t, AliasRef):
        for a in t.args:
            type_vars_in(a, out)
    return out
