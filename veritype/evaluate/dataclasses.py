"""Dataclasses and dataclass-like classes (PEP 557, PEP 681 `dataclass_transform`).

The spec ("Dataclasses"): a class made by `@dataclass`, or by a decorator,
base class or metaclass marked `@dataclass_transform()`, gets an `__init__`
whose parameters are its fields "in the order they are defined", base-class
fields first. We collect the fields of each dataclass along the MRO (a field
redefined in a subclass keeps its first position), honour `field(...)`
options, `kw_only`, the `KW_ONLY` sentinel and `InitVar`, and leave out
`ClassVar`s. `frozen` is recorded for the attribute-assignment rule;
`order=True` adds the four comparison methods.

Anything we do not understand (a decorator argument that is not a literal,
a field call we cannot read) makes the constructor `Any` rather than wrong.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.semantic.conditions import evaluate_condition
from veritype.types.model import (
    KW_ONLY, POS_ONLY, POS_OR_KW, AnyType, CallableType, Instance, NoneType, Param, Type,
)
from veritype.types.substitute import substitute, tv_key

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

DATACLASS = ("dataclasses.dataclass",)
TRANSFORM = ("typing.dataclass_transform", "typing_extensions.dataclass_transform")
FIELD = ("dataclasses.field",)


@dataclass
class Field:
    """One field of a dataclass (or a dataclass_transform class), as `__init__` takes it."""
    name: str
    type: Type
    has_default: bool
    kw_only: bool
    init: bool = True
    alias: str | None = None
    is_initvar: bool = False
    node: ast.AnnAssign | None = None  # the declaring statement, for own fields only
    # What the field's converter accepts (spec, "Converters"): the `__init__`
    # parameter's type and what assigning the attribute takes; None: no converter.
    converter_input: Type | None = None


@dataclass
class DataclassInfo:
    """A dataclass's fields and the options its decorator or base gave it."""
    fields: list[Field] = field(default_factory=list)  # own and inherited, in __init__ order
    frozen: bool = False
    order: bool = False
    init: bool = True
    slots: bool = False
    match_args: bool = True
    stdlib: bool = False
    # attrs (`@attrs.define`, `@attr.s`, ...): a private attribute `_x` is the
    # `__init__` parameter `x`, as at run time and in mypy's attrs plugin.
    attrs: bool = False
    # attrs' `auto_attribs`: True, False (`@attr.s`: only `x = attr.ib()` are
    # fields), None (`@define`: False if any `x = attr.ib()` has no annotation).
    attrs_auto: bool | None = None
    unknown: bool = False  # something we could not read: constructor stays Any
    field_specifiers: tuple[str, ...] = FIELD


@dataclass
class _Spec:
    """Where the dataclass behaviour comes from and its defaults."""

    options: dict[str, object]
    field_specifiers: tuple[str, ...]
    kw_only_default: bool = False
    frozen_default: bool = False
    order_default: bool = False
    stdlib: bool = False  # `@dataclasses.dataclass` itself, not a dataclass_transform
    attrs: bool = False  # a decorator of the attrs package
    attrs_auto: bool | None = None


def _literal_kwargs(keywords: list[ast.keyword]) -> dict[str, object] | None:
    out: dict[str, object] = {}
    for kw in keywords:
        if kw.arg is None:
            return None
        if isinstance(kw.value, ast.Constant):
            out[kw.arg] = kw.value.value
        else:
            out[kw.arg] = kw.value  # an expression (field_specifiers, or unknown)
    return out


def _transform_spec(ev: "Evaluator", decorators: list[ast.expr], scope: "Scope") -> _Spec | None:
    """The `@dataclass_transform(...)` among `decorators`, read as a spec."""
    for d in decorators:
        target = d.func if isinstance(d, ast.Call) else d
        if not isinstance(target, (ast.Name, ast.Attribute)):
            continue
        ref = ev.resolve_expr(target, scope)
        if ref is None or ref.fullname.rpartition(".")[2] != "dataclass_transform":
            continue
        kwargs = _literal_kwargs(d.keywords) if isinstance(d, ast.Call) else {}
        if kwargs is None:
            kwargs = {}
        specs: list[str] = []
        fs = kwargs.get("field_specifiers")
        if isinstance(fs, ast.Tuple):
            for e in fs.elts:
                r = ev.resolve_expr(e, scope) if isinstance(e, (ast.Name, ast.Attribute)) else None
                if r is not None and r.fullname:
                    specs.append(r.fullname)
        return _Spec(
            {}, tuple(specs),
            kw_only_default=kwargs.get("kw_only_default") is True,
            frozen_default=kwargs.get("frozen_default") is True,
            order_default=kwargs.get("order_default") is True,
        )
    return None


def _function_transform(ev: "Evaluator", dec: ast.expr, scope: "Scope") -> _Spec | None:
    target = dec.func if isinstance(dec, ast.Call) else dec
    if not isinstance(target, (ast.Name, ast.Attribute)):
        return None
    ref = _through_alias(ev, ev.resolve_expr(target, scope))
    if ref is None or ref.sym is None or ref.scope is None:
        return None
    if ref.kind == "class" and ref.info is not None and ref.info.node is not None:
        # A class used as a decorator (rare); its own decorators say.
        return _transform_spec(ev, ref.info.node.decorator_list, ref.info.defining_scope or ref.scope)
    if ref.sym.kind != S.FUNC:
        return None
    for decl in ref.sym.decls:
        if isinstance(decl, (ast.FunctionDef, ast.AsyncFunctionDef)):
            spec = _transform_spec(ev, decl.decorator_list, ref.scope)
            if spec is not None:
                return spec
    return None


def dataclass_spec(ev: "Evaluator", info: "ClassInfo") -> _Spec | None:
    """How `info` is a dataclass (its decorator, a transform base or metaclass), or None."""
    node = info.node
    scope = info.defining_scope
    if node is None or scope is None:
        return None
    for dec, name in zip(node.decorator_list, info.decorators):
        if name in DATACLASS:
            kwargs = _literal_kwargs(dec.keywords) if isinstance(dec, ast.Call) else {}
            if kwargs is None:
                return _Spec({"?": True}, FIELD, stdlib=True)
            return _Spec(kwargs, FIELD, stdlib=True)
        spec = _function_transform(ev, dec, scope)
        if spec is not None:
            spec.attrs = name.startswith(("attr.", "attrs."))
            kwargs = _literal_kwargs(dec.keywords) if isinstance(dec, ast.Call) else {}
            spec.options = kwargs if kwargs is not None else {"?": True}
            if spec.attrs:
                auto = spec.options.get("auto_attribs")
                classic = name.rpartition(".")[2] in ("s", "attrs", "attributes")
                spec.attrs_auto = auto if isinstance(auto, bool) else (False if classic else None)
            return spec
    for cls in info.mro[1:]:
        spec = _class_transform(ev, cls)
        if spec is not None:
            return replace(spec, options=_class_kwargs(node))
    meta = ev.metaclass_instance(info)
    if meta is not None:
        for cls in meta.info.mro:
            spec = _class_transform(ev, cls)
            if spec is not None:
                return replace(spec, options=_class_kwargs(node))
    return None


def _class_kwargs(node: ast.ClassDef) -> dict[str, object]:
    return _literal_kwargs([k for k in node.keywords if k.arg != "metaclass"]) or {}


def _class_transform(ev: "Evaluator", cls: "ClassInfo") -> _Spec | None:
    """The `@dataclass_transform(...)` decorating `cls` (a transform base class or
    metaclass), kept on the class: every class processed (each whose synthesized
    members are read, most of them no dataclass) asks it of each class of its
    MRO and of its metaclass's. Callers copy it before setting options."""
    kept = cls.__dict__.get("_dataclass_transform", False)
    if kept is not False:
        return kept  # type: ignore[no-any-return]
    spec = None
    if cls.node is not None and cls.defining_scope is not None and cls.node.decorator_list:
        spec = _transform_spec(ev, cls.node.decorator_list, cls.defining_scope)
    cls._dataclass_transform = spec  # type: ignore[attr-defined]
    return spec


def _flag(spec: _Spec, name: str, default: bool) -> bool | None:
    v = spec.options.get(name, default)
    if isinstance(v, bool):
        return v
    return None  # not a literal: unknown


def process(ev: "Evaluator", info: "ClassInfo") -> DataclassInfo | None:
    """Make `info` a dataclass if it is one: record fields, synthesize members."""
    spec = dataclass_spec(ev, info)
    if spec is None:
        return None
    dc = DataclassInfo(field_specifiers=spec.field_specifiers)
    info.dataclass_info = dc
    frozen = _flag(spec, "frozen", spec.frozen_default)
    order = _flag(spec, "order", spec.order_default)
    init = _flag(spec, "init", True)
    kw_only = _flag(spec, "kw_only", spec.kw_only_default)
    dc.slots = _flag(spec, "slots", False) is True
    dc.stdlib = spec.stdlib
    dc.attrs = spec.attrs
    dc.attrs_auto = spec.attrs_auto
    dc.match_args = _flag(spec, "match_args", True) is not False
    if "?" in spec.options or frozen is None or order is None or init is None or kw_only is None:
        dc.unknown = True
    if any(c.has_any_base for c in info.mro):
        dc.unknown = True  # an unknown base may add fields or its own __init__
    dc.frozen = bool(frozen)
    dc.order = bool(order)
    dc.init = init is not False
    # Fields of dataclass bases, first base-most.
    by_name: dict[str, Field] = {}
    for cls in reversed(info.mro[1:]):
        base_dc = _dataclass_of(cls)
        if base_dc is None:
            continue
        if base_dc.unknown:
            dc.unknown = True
        mapped = _mapping_to(info, cls)
        for f in base_dc.fields:
            t = substitute(f.type, mapped) if mapped else f.type
            conv = substitute(f.converter_input, mapped) if mapped and f.converter_input is not None else f.converter_input
            by_name[f.name] = Field(f.name, t, f.has_default, f.kw_only, f.init, f.alias, f.is_initvar, None, conv)
    for f in _own_fields(ev, info, bool(kw_only), dc):
        by_name[f.name] = f
    dc.fields = list(by_name.values())
    self_inst = info.self_instance()
    if dc.init and "__init__" not in info.symbols and not dc.unknown:
        params = [Param("self", self_inst, POS_OR_KW)]
        fs = [f for f in dc.fields if f.init]
        for f in [f for f in fs if not f.kw_only] + [f for f in fs if f.kw_only]:
            t = f.converter_input if f.converter_input is not None else f.type
            params.append(Param(f.alias or f.name, t, KW_ONLY if f.kw_only else POS_OR_KW, f.has_default))
        info._synthesized["__init__"] = CallableType(tuple(params), NoneType(), name=info.name)
    if dc.match_args and "__match_args__" not in info.symbols and not dc.unknown:
        # The runtime sets `__match_args__` to the positional `__init__` fields' names.
        positional = [f.name for f in dc.fields if f.init and not f.kw_only]
        info._synthesized["__match_args__"] = ev.tuple_of([ev.literal(n) for n in positional])
    if dc.order:
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            if op not in info.symbols:
                info._synthesized[op] = CallableType(
                    (Param("self", self_inst, POS_OR_KW), Param("other", self_inst, POS_OR_KW)), ev.builtin("bool"), name=op,
                )
    if dc.stdlib and not dc.unknown and "__hash__" not in info.symbols:
        # Runtime rule (dataclasses docs, "__hash__"): with eq=True and
        # neither frozen=True nor unsafe_hash=True, the class's __hash__ is
        # set to None, so its instances are not Hashable.
        if _flag(spec, "eq", True) is True and frozen is False and _flag(spec, "unsafe_hash", False) is False:
            info._synthesized["__hash__"] = NoneType()
    if dc.slots and "__slots__" not in info.symbols:
        info._synthesized["__slots__"] = ev.instance("builtins.tuple", (ev.builtin("str"),))
    fields_dict = ev.instance("builtins.dict", (ev.builtin("str"), ev.instance("dataclasses.Field", (AnyType("explicit"),))))
    info._synthesized.setdefault("__dataclass_fields__", fields_dict)
    if dc.attrs and "__attrs_attrs__" not in info.symbols:
        # The attribute attrs sets on the class, and the member of its
        # `AttrsInstance` protocol that `attrs.fields(cls)` takes (mypy's attrs
        # plugin adds it too): a tuple of `attrs.Attribute`s.
        attribute = ev.instance("attr.Attribute", (AnyType("explicit"),))
        info._synthesized["__attrs_attrs__"] = ev.instance("builtins.tuple", (attribute if isinstance(attribute, Instance) else AnyType("special"),))
    return dc


def _dataclass_of(cls: "ClassInfo") -> DataclassInfo | None:
    cls.synthesized  # processes the class if it was not yet
    dc = cls.dataclass_info
    return dc if isinstance(dc, DataclassInfo) else None


def _mapping_to(info: "ClassInfo", base: "ClassInfo") -> dict:  # type: ignore[type-arg]
    if not base.type_vars:
        return {}
    from veritype.types.subtype import map_instance_to_supertype

    mapped = map_instance_to_supertype(info.self_instance(), base)
    if mapped is None:
        return {tv_key(tv): AnyType("special") for tv in base.type_vars}
    return {tv_key(tv): a for tv, a in zip(base.type_vars, mapped.args)}


def _own_fields(ev: "Evaluator", info: "ClassInfo", kw_only_default: bool, dc: DataclassInfo) -> list[Field]:
    from veritype.evaluate.declarations import qualifiers

    node = info.node
    assert node is not None
    scope = info.scope
    out: list[Field] = []
    kw_only = kw_only_default
    options = ev.program.options
    unannotated_calls = False
    for stmt in _live_statements(node.body, options.python_version, options.platform, dc):
        if dc.attrs and dc.attrs_auto is not True and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and isinstance(stmt.value, ast.Call) and _is_field_call(ev, stmt.value, scope, dc.field_specifiers):
            # attrs' `x = attr.ib()`: a field without a type (Any, as mypy's attrs plugin).
            unannotated_calls = True
            f = Field(stmt.targets[0].id, AnyType("special"), True, kw_only)
            _read_field_call(stmt.value, f, dc)
            if f.alias is None and f.name.startswith("_"):
                f.alias = f.name.lstrip("_")
            out.append(f)
            continue
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        name = stmt.target.id
        sym = info.symbols.get(name)
        if sym is None:
            continue
        ann_ref = ev.resolve_expr(stmt.annotation, scope) if isinstance(stmt.annotation, (ast.Name, ast.Attribute)) else None
        if ann_ref is not None and ann_ref.fullname == "dataclasses.KW_ONLY":
            kw_only = True
            continue
        declared = ev.declared_type(sym, scope)
        if "ClassVar" in qualifiers(ev, sym, scope):
            continue
        t: Type = declared if declared is not None else AnyType("special")
        if isinstance(t, Instance) and t.info.defines_below_object("__set__"):
            # Spec, "Descriptor-typed fields": the `__init__` parameter takes
            # what the descriptor's `__set__` accepts.
            from veritype.evaluate.members import descriptor_set_type

            t = descriptor_set_type(ev, t) or AnyType("special")
        ann = stmt.annotation.value if isinstance(stmt.annotation, ast.Subscript) else None
        ann_base = ev.resolve_expr(ann, scope) if isinstance(ann, (ast.Name, ast.Attribute)) else None
        is_initvar = ann_base is not None and ann_base.fullname == "dataclasses.InitVar"
        f = Field(name, t, stmt.value is not None, kw_only, is_initvar=is_initvar, node=stmt)
        if isinstance(stmt.value, ast.Call) and _is_field_call(ev, stmt.value, scope, dc.field_specifiers):
            _specifier_defaults(ev, stmt.value, scope, f)
            _read_field_call(stmt.value, f, dc)
            if dc.attrs:
                # attrs (mypy's attrs plugin): the converter's input is the `__init__`
                # parameter; assignment keeps the declared type.
                f.type = _converter_input(ev, stmt.value, scope) or f.type
            elif not dc.stdlib:
                from veritype.evaluate.converters import converter_input, converter_keyword

                conv = converter_keyword(stmt.value)
                if conv is not None:
                    f.converter_input = converter_input(ev, scope, conv)
        if dc.attrs and f.alias is None and name.startswith("_"):
            f.alias = name.lstrip("_")
        out.append(f)
    if dc.attrs and (dc.attrs_auto is False or (dc.attrs_auto is None and unannotated_calls)):
        # Without auto_attribs only the `attr.ib()`/`field()` members are fields.
        out = [f for f in out if f.node is None or _is_field_value(ev, f.node.value, scope, dc)]
    return out


def _converter_input(ev: "Evaluator", call: ast.Call, scope: "Scope") -> Type | None:
    """attrs' `field(converter=f)`: `__init__` takes what `f` takes, its first
    parameter's type (attrs docs, "Converters"; mypy's attrs plugin). Any where
    the converter is not a plain function we can read."""
    conv = next((kw.value for kw in call.keywords if kw.arg == "converter"), None)
    if conv is None:
        return None
    from veritype.evaluate.expressions import ExprEvaluator

    t = ExprEvaluator(ev, scope).infer(conv)
    if isinstance(t, CallableType) and t.params and t.params[0].kind in (POS_ONLY, POS_OR_KW):
        return t.params[0].type
    return AnyType("special")


def _is_field_value(ev: "Evaluator", value: ast.expr | None, scope: "Scope", dc: DataclassInfo) -> bool:
    return isinstance(value, ast.Call) and _is_field_call(ev, value, scope, dc.field_specifiers)


def _live_statements(body: list[ast.stmt], version: tuple[int, int], platform: str, dc: DataclassInfo) -> Iterator[ast.stmt]:
    """The class body's statements, entering the branch a static condition
    (`sys.version_info`, `sys.platform`, `TYPE_CHECKING`) selects: the spec's
    dataclass chapter says fields "may be conditional, via checks of the same
    statically-known conditions". Under any other `if` the field set is
    unknown, and the dataclass is marked so (its constructor becomes Any)."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            taken = evaluate_condition(stmt.test, version, platform)
            if taken is None:
                dc.unknown = True
                continue
            yield from _live_statements(stmt.body if taken else stmt.orelse, version, platform, dc)
        else:
            yield stmt


def _is_field_call(ev: "Evaluator", call: ast.Call, scope: "Scope", specifiers: tuple[str, ...]) -> bool:
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return False
    ref = _through_alias(ev, ev.resolve_expr(call.func, scope))
    return ref is not None and ref.fullname in (specifiers + FIELD)


def _through_alias(ev: "Evaluator", ref):  # type: ignore[no-untyped-def]
    """A module-level alias of a function (attrs' `ib = attr = attrib`,
    `s = attributes = attrs`) refers to the function itself."""
    for _ in range(3):
        if ref is None or ref.sym is None or ref.sym.kind != S.VAR or ref.scope is None or ref.scope.kind != "module":
            return ref
        node = ref.sym.node
        value = node.value if isinstance(node, ast.Assign) else None
        if not isinstance(value, (ast.Name, ast.Attribute)) or ref.sym.annotation is not None:
            return ref
        ref = ev.resolve_expr(value, ref.scope)
    return ref


def _specifier_defaults(ev: "Evaluator", call: ast.Call, scope: "Scope", f: Field) -> None:
    """Spec, "dataclass_transform": a field specifier's own parameter
    defaults for `init` and `kw_only` apply when a call leaves them out
    (`def field2(*, init: bool = False)`). Only a single, plain definition
    is read; overloaded specifiers keep the usual defaults."""
    ref = ev.resolve_expr(call.func, scope) if isinstance(call.func, (ast.Name, ast.Attribute)) else None
    if ref is None or ref.sym is None or ref.fullname in FIELD:
        return
    defs = [d for d in ref.sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    overloads = [d for d in defs if any(_is_overload_decorator(dec) for dec in d.decorator_list)]
    if overloads:
        # The first overload the call's keywords fit by name (the spec's
        # example picks `init: Literal[False] = False` by a required keyword).
        given = {kw.arg for kw in call.keywords}
        if None in given or call.args:
            return
        fitting = [d for d in overloads if _keywords_fit(d.args, given)]
        if not fitting:
            return
        defs = fitting[:1]
    if len(defs) != 1:
        return
    args = defs[0].args
    named = list(zip(args.args[len(args.args) - len(args.defaults):], args.defaults))
    named += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    for arg, default in named:
        if isinstance(default, ast.Constant) and isinstance(default.value, bool):
            if arg.arg == "init":
                f.init = default.value
            elif arg.arg == "kw_only":
                f.kw_only = default.value


def _is_overload_decorator(dec: ast.expr) -> bool:
    return (isinstance(dec, ast.Name) and dec.id == "overload") or (isinstance(dec, ast.Attribute) and dec.attr == "overload")


def _keywords_fit(args: ast.arguments, given: set[str | None]) -> bool:
    """Whether a call passing exactly the keywords `given` fits these parameters by name."""
    positional = args.posonlyargs + args.args
    with_default = {a.arg for a in positional[len(positional) - len(args.defaults):]}
    with_default |= {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None}
    names = {a.arg for a in args.args + args.kwonlyargs}
    required = names - with_default
    return required <= given and (given <= names or args.kwarg is not None)


def _read_field_call(call: ast.Call, f: Field, dc: DataclassInfo) -> None:
    f.has_default = False
    for kw in call.keywords:
        if kw.arg is None:
            dc.unknown = True
        elif kw.arg in ("default", "default_factory", "factory"):
            f.has_default = True
        elif kw.arg in ("init", "kw_only"):
            if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool)):
                dc.unknown = True
            elif kw.arg == "init":
                f.init = kw.value.value
            else:
                f.kw_only = kw.value.value
        elif kw.arg == "alias":
            if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                f.alias = kw.value.value
            else:
                dc.unknown = True
    if call.args:
        # attrs' `attr.ib(default)` and similar: a positional default.
        f.has_default = True


def converter_input_of(info: "ClassInfo", name: str) -> Type | None:
    """What assigning field `name` of dataclass `info` takes through its converter."""
    dc = _dataclass_of(info)
    if dc is None:
        return None
    f = next((f for f in dc.fields if f.name == name), None)
    return f.converter_input if f is not None else None


def frozen_field_owner(info: "ClassInfo", name: str) -> "ClassInfo | None":
    """The frozen dataclass declaring field `name` of `info`, if assigning it is an error."""
    dc = _dataclass_of(info)
    if dc is None or not dc.frozen or dc.unknown:
        return None
    if not any(f.name == name and not f.is_initvar for f in dc.fields):
        return None
    for cls in info.mro:
        sym = cls.symbols.get(name)
        if sym is not None:
            return cls
    return info
