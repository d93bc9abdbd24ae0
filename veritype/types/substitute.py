"""Substitution of type variables, and queries over the type variables a type mentions."""

from __future__ import annotations

from collections.abc import Mapping

from veritype.types.model import (
    CallableType, Instance, LiteralType, Overloaded, Param, TupleType, Type, TypedDictType,
    TypeType, TypeVarType, UnionType, make_union,
)

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
    return t


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
    return out
