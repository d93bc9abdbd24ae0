"""TypedDict classes as `TypedDictType` values (spec, "Typed dictionaries").

The items of a TypedDict class are the annotated names of its body and of its
TypedDict bases ("a TypedDict type can inherit from one or more TypedDict
types ... the TypedDict type has the union of all the items"). Each is
required when its class is total (the default, `total=False` to change),
unless marked `Required[]`/`NotRequired[]`; `ReadOnly[]` marks read-only items.

A TypedDict that refers to itself while its items are computed sees itself as
Any there: silent rather than wrong.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, NeverType, Type, TypedDictType
from veritype.types.substitute import substitute, tv_key

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

_IN_PROGRESS = object()


def typeddict_type(ev: "Evaluator", inst: Instance) -> Type:
    """The TypedDict type that the class instance `inst` stands for."""
    info = inst.info
    cached = getattr(info, "_typeddict", None)
    if cached is _IN_PROGRESS:
        return AnyType("special")
    if cached is None:
        info._typeddict = _IN_PROGRESS  # type: ignore[attr-defined]
        try:
            cached = _compute(ev, info)
        except RecursionError:
            cached = AnyType("special")
        info._typeddict = cached  # type: ignore[attr-defined]
    if not isinstance(cached, TypedDictType):
        return cached  # type: ignore[return-value]
    if info.type_vars and inst.args:
        mapping = {tv_key(tv): a for tv, a in zip(info.type_vars, inst.args)}
        items = tuple((k, substitute(v, mapping)) for k, v in cached.items)
        extra = substitute(cached.extra, mapping) if cached.extra is not None else None
        return TypedDictType(items, cached.required, cached.readonly, inst, extra, cached.extra_readonly)
    return TypedDictType(cached.items, cached.required, cached.readonly, inst, cached.extra, cached.extra_readonly)


def _compute(ev: "Evaluator", info: "ClassInfo") -> Type:
    from veritype.evaluate.declarations import qualifiers

    items: dict[str, Type] = {}
    required: set[str] = set()
    readonly: set[str] = set()
    extra: tuple[Type | None, bool] = (None, False)
    for cls in reversed(info.mro):
        if not cls.is_typeddict:
            continue
        if cls.node is None:
            continue
        mapping: dict = {}  # type: ignore[type-arg]
        if cls is not info and cls.type_vars:
            from veritype.types.subtype import map_instance_to_supertype

            mapped = map_instance_to_supertype(info.self_instance(), cls)
            if mapped is not None:
                mapping = {tv_key(tv): a for tv, a in zip(cls.type_vars, mapped.args)}
        total = True
        for kw in cls.node.keywords:
            if kw.arg == "total":
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
                    total = kw.value.value
                else:
                    return AnyType("special")
        own_extra = class_extra_items(ev, cls)
        if own_extra is not None:
            extra = own_extra
        scope = cls.scope
        from veritype.evaluate.special_classes import static_body

        for stmt in static_body(cls.node.body):
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            name = stmt.target.id
            sym = cls.symbols.get(name)
            if sym is None or stmt not in sym.decls:
                continue  # spec, "TypedDict": items may be under static `if` conditions
            t = ev.declared_type(sym, scope)
            if t is None:
                t = AnyType("special")
            if mapping:
                t = substitute(t, mapping)
            q = qualifiers(ev, sym, scope)
            items[name] = t
            is_required = total
            if "Required" in q:
                is_required = True
            elif "NotRequired" in q:
                is_required = False
            if is_required:
                required.add(name)
            else:
                required.discard(name)
            if "ReadOnly" in q:
                readonly.add(name)
            else:
                readonly.discard(name)
    return TypedDictType(tuple(items.items()), frozenset(required), frozenset(readonly), info.self_instance(), *extra)


def class_extra_items(ev: "Evaluator", cls: "ClassInfo") -> "tuple[Type | None, bool] | None":
    """PEP 728's keywords of one TypedDict class: (extra type, read-only) where
    `closed=` or `extra_items=` is given, None where neither is (the class then
    inherits its base's, as the spec says). `closed=True` is `extra_items=Never`;
    `closed=False` is the open default. A value veritype cannot read is left
    open (silent)."""
    if cls.node is None:
        return None
    out: "tuple[Type | None, bool] | None" = None
    for kw in cls.node.keywords:
        if kw.arg == "closed":
            if isinstance(kw.value, ast.Constant) and kw.value.value is True:
                out = (NeverType(), False)
            elif out is None:
                out = (None, False)
        elif kw.arg == "extra_items":
            return extra_items_type(ev, kw.value, cls.scope)
    return out


def extra_items_type(ev: "Evaluator", node: ast.expr, scope: "Scope") -> "tuple[Type | None, bool]":
    """The type written for `extra_items=` (a type expression; `ReadOnly[]` allowed)."""
    from veritype.evaluate.type_expr import TypeContext

    ctx = TypeContext(scope, allow_qualifiers=True)
    t = ev.type_exprs.eval(node, ctx)
    return t, "ReadOnly" in ctx.qualifiers
