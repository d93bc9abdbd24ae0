"""Substitution of type variables, and queries over the type variables a type mentions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from veritype.types.model import TypeFormType
from veritype.types.model import (
    VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, NeverType, NoneType, Overloaded, Param, TupleType, Type,
    TypedDictType, TypeType, TypeVarType, UnionType, UnpackType, make_union,
)

from veritype.types.alias_ref import AliasRef

TVKey = tuple[str, str]


def tv_key(tv: TypeVarType) -> TVKey:
    return (tv.fullname, tv.scope)


def substitute(t: Type, mapping: Mapping[TVKey, Type]) -> Type:
    if not mapping:
        return t
    return _sub(t, mapping)


def erase_to_any(t: Type, keys: "Iterable[TVKey]") -> Type:
    """`t` with the type variables `keys` made Any: what fits whatever they are
    solved to (a context for an argument before solving, or the test of whether
    a type could fit at all)."""
    return substitute(t, {k: AnyType("special") for k in keys})


def _sub(t: Type, m: Mapping[TVKey, Type]) -> Type:
    # (The commonest kinds tested by exact class first: the model's classes have
    # no subclasses, and this runs for every argument of every generic call.)
    tp = type(t)
    if tp is TypeVarType:
        return m.get((t.fullname, t.scope), t)  # type: ignore[attr-defined]  # tv_key(t)
    if tp is Instance:
        args = t.args  # type: ignore[attr-defined]
        if not args:
            return t
        # (An argument that is a type variable or a class without arguments is
        # answered here, as `_sub` would: 28k of the 64k calls on the bench corpus.)
        new_args = []
        changed = False
        for a in args:
            ta = type(a)
            if ta is TypeVarType:
                new = m.get((a.fullname, a.scope), a)  # type: ignore[attr-defined]
            elif ta is Instance and not a.args:  # type: ignore[attr-defined]
                new = a
            else:
                new = _sub(a, m)
            if new is not a:
                changed = True
            new_args.append(new)
        if changed:
            return Instance(t.info, tuple(new_args))  # type: ignore[attr-defined]
        # Nothing substituted (no argument mentions a mapped variable): the
        # type itself, equal to a rebuilt one, keeps its cached hash and lets
        # `is` answer later comparisons.
        return t
    if tp is UnionType:
        items: list[Type] = [_sub(i, m) for i in t.items]  # type: ignore[attr-defined]
        for new, old in zip(items, t.items):  # type: ignore[attr-defined]
            if new is not old:
                return make_union(items)
        return t  # (make_union only builds simplified unions: it would give `t` again)
    if tp is NoneType or tp is AnyType or tp is LiteralType or tp is NeverType:
        return t  # (leaves, which the chain below would test against every kind)
    if isinstance(t, TupleType):
        items = []
        spliced = False
        for item in t.items:
            if isinstance(item, UnpackType):
                new = _sub_unpack(item, m, t)
                spliced = spliced or new != item
                items.append(new)
            else:
                items.append(_sub(item, m))
        if spliced:
            from veritype.types.tuples import make_tuple, tuple_info

            info = tuple_info(t)
            if info is not None and t.fallback.info is info:
                return make_tuple(items, info)
        fb = _sub(t.fallback, m)
        return TupleType(tuple(items), fb if isinstance(fb, Instance) else t.fallback)
    if isinstance(t, UnpackType):
        return _sub_unpack(t, m, None)
    if tp is CallableType:
        return _sub_callable(t, m)  # type: ignore[arg-type]
    if isinstance(t, Overloaded):
        return Overloaded(tuple(_sub(i, m) for i in t.items), t.name)  # type: ignore[misc]
    if isinstance(t, TypeType):
        inner = _sub(t.item, m)
        return t if inner is t.item else TypeType(inner)
    if isinstance(t, TypeFormType):
        return TypeFormType(_sub(t.item, m))
    if isinstance(t, TypedDictType):
        extra = _sub(t.extra, m) if t.extra is not None else None
        return TypedDictType(tuple((k, _sub(v, m)) for k, v in t.items), t.required, t.readonly, t.fallback, extra, t.extra_readonly)
    if isinstance(t, LiteralType):
        return t
    if isinstance(t, AliasRef) and t.args:
        return AliasRef(t.name, t.fullname, tuple(_sub(a, m) for a in t.args), t.expander)
    return t


# Kinds of type that mention no type variable: `_sub` gives them back as they
# are, and `type_vars_in` does not recurse into them.
_NO_VARS = frozenset((AnyType, NoneType, NeverType, LiteralType))


def _sub_callable(t: CallableType, m: Mapping[TVKey, Type]) -> Type:
    # One pass over the parameters notes what the rules below need (this runs
    # for every method of a generic class bound to its receiver).
    params_list: list[Param] = []
    same = True  # every parameter kept as it is
    unpacked_any = expand = has_var_kw = False
    for p in t.params:
        kind = p.kind
        if kind != VAR_POS and kind != VAR_KW:
            # _sub_param, written out for the commonest parameters (their rule for
            # `*args`/`**kwargs` aside), without a call for a type `_sub` gives back
            # as it is (a class without arguments, None, Any): most parameters.
            pt = p.type
            tpt = type(pt)
            if (tpt is Instance and not pt.args) or tpt in _NO_VARS:  # type: ignore[attr-defined]
                params_list.append(p)
                continue
            new = _sub(pt, m)
            if new is pt:
                params_list.append(p)
                continue
            params_list.append(Param(p.name, new, kind, p.has_default))
            same = False
            continue
        q = _sub_param(p, m)
        if q is not p:
            same = False
        if kind == VAR_POS:
            if type(p.type) is UnpackType and type(q.type) is AnyType:
                unpacked_any = True
            if type(q.type) is UnpackType and type(q.type.item) is TupleType:  # type: ignore[attr-defined]
                expand = True
        else:
            has_var_kw = True
        params_list.append(q)
    params = tuple(params_list)
    if unpacked_any and not has_var_kw:
        # `*args: *Ts` with Ts unknown (Any): any positional arguments, which the
        # gradual `*args: Any, **kwargs: Any` tail expresses (spec, "Meaning of ...").
        params = params + (Param(None, AnyType("special"), VAR_KW),)
        same = False
    tvs = t.type_vars
    if tvs:
        kept = tuple(tv for tv in tvs if (tv.fullname, tv.scope) not in m)  # (tv_key)
        if len(kept) != len(tvs):
            tvs, same = kept, False
    spec = paramspec_tail(t) if has_var_kw else None
    if spec is not None and tv_key(spec) in m:
        return _sub_paramspec(t, params[:-2], m[tv_key(spec)], tvs, m)
    guard = _sub(t.type_guard, m) if t.type_guard is not None else None
    is_ = _sub(t.type_is, m) if t.type_is is not None else None
    ret = _sub(t.ret, m)
    if same and not expand and ret is t.ret and guard is t.type_guard and is_ is t.type_is:
        # Nothing substituted (the mapping names none of its variables): the
        # callable itself, equal to a rebuilt one in every field, keeping its
        # cached hash and parameter shape (as `Instance` above).
        return t
    out = CallableType(
        params, ret, tvs, t.name, t.definition, t.is_ellipsis, t.is_type_obj,
        guard, is_, t.is_untyped, t.is_async, t.kwargs_unpacked, t.owner,
    )
    if expand:
        from veritype.types.tuples import expand_star_params

        # `*args: *Ts` with Ts = tuple[int, str] is `(int, str)` (shown and compared so).
        return expand_star_params(out)
    return out


def _sub_unpack(u: UnpackType, m: Mapping[TVKey, Type], around: TupleType | None) -> Type:
    """`*Ts` with Ts bound to a tuple (TupleType, `tuple[X, ...]`, or Any for an
    unknown one): the unpacked value, which the surrounding tuple splices."""
    inner = u.item
    if isinstance(inner, TypeVarType):
        value = m.get(tv_key(inner))
        if value is None or value == inner:
            return u
        if isinstance(value, TupleType) or (isinstance(value, Instance) and value.info.fullname == "builtins.tuple"):
            return UnpackType(value)
        if isinstance(value, UnpackType):
            return value
        from veritype.types.tuples import tuple_info

        info = tuple_info(around) if around is not None else None
        if info is not None:
            return UnpackType(Instance(info, (AnyType("special") if not isinstance(value, AnyType) else value,)))
        return AnyType("special")
    new = _sub(inner, m)
    return UnpackType(new) if isinstance(new, (TupleType, Instance, TypeVarType)) else AnyType("special")


def _sub_param(p: Param, m: Mapping[TVKey, Type]) -> Param:
    """`p` after substitution: itself when its type is unchanged."""
    new = _sub_param_type(p, m)
    return p if new is p.type else Param(p.name, new, p.kind, p.has_default)


def _sub_param_type(p: Param, m: Mapping[TVKey, Type]) -> Type:
    """A parameter's type after substitution. `*args: T, **kwargs: T` with T
    specialized to Any is not the gradual `...` form: the spec reads that form
    off "the input signature in a function definition" ("Meaning of ... in
    Callable"), and `Proto[Any]`'s definition has T there. Such an Any is marked
    `specialized` so that the callable rules do not read it as `...`."""
    new = _sub_star(p.type, m) if p.kind == VAR_POS else _sub(p.type, m)
    if (p.kind in (VAR_POS, VAR_KW) and isinstance(new, AnyType) and isinstance(p.type, TypeVarType)
            and p.type.kind == "typevar"):
        return AnyType("specialized")
    return new


def _sub_star(t: Type, m: Mapping[TVKey, Type]) -> Type:
    """The type of a `*args` parameter after substitution: `*args: *Ts` with Ts
    bound to `tuple[int, ...]` is `*args: int`; to Any, `*args: Any`."""
    if not isinstance(t, UnpackType):
        return _sub(t, m)
    new = _sub_unpack(t, m, t.item if isinstance(t.item, TupleType) else None)
    if isinstance(new, UnpackType):
        inner = new.item
        if isinstance(inner, Instance) and inner.info.fullname == "builtins.tuple" and len(inner.args) == 1:
            return inner.args[0]
        return new
    return new


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
        guard, is_, t.is_untyped, t.is_async, t.kwargs_unpacked, t.owner,
    )


def type_vars_in(t: Type, out: dict[TVKey, TypeVarType] | None = None) -> dict[TVKey, TypeVarType]:
    """Type variables mentioned in `t`, in order of first appearance."""
    if out is None:
        out = {}
    # (Exact classes, as in `_sub`: the model's classes have no subclasses.)
    tp = type(t)
    parts: "tuple[Type, ...] | list[Type]"
    if tp is TypeVarType:
        tv: TypeVarType = t  # type: ignore[assignment]  # (narrowed by the exact class test)
        out.setdefault((tv.fullname, tv.scope), tv)  # tv_key(tv)
        return out
    if tp is Instance or tp is AliasRef:
        parts = t.args  # type: ignore[attr-defined]
    elif tp is UnionType or tp is TupleType or tp is Overloaded:
        parts = t.items  # type: ignore[attr-defined]
    elif tp is CallableType:
        parts = []
        for p in t.params:  # type: ignore[attr-defined]
            parts.append(p.type)
        parts.append(t.ret)  # type: ignore[attr-defined]
    elif tp is UnpackType or tp is TypeType or tp is TypeFormType:
        parts = (t.item,)  # type: ignore[attr-defined]
    elif tp is TypedDictType:
        parts = [v for _, v in t.items]  # type: ignore[attr-defined]
    else:
        return out
    # The parts, without a call for one that holds no type variable (the
    # commonest being an instance without arguments) or is one itself.
    for a in parts:
        ta = type(a)
        if ta is TypeVarType:
            tv = a  # type: ignore[assignment]
            out.setdefault((tv.fullname, tv.scope), tv)
        elif ta is Instance:
            if a.args:  # type: ignore[union-attr]
                type_vars_in(a, out)
        elif ta not in _NO_VARS:
            type_vars_in(a, out)
    return out
