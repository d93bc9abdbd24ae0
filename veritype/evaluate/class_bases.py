"""A class's bases and type parameters, and which of its members are abstract.

Type parameters follow the spec ("Generics", "Defining generic classes"):
PEP 695 parameters if written; else the variables of `Generic[...]` or
`Protocol[...]`; else every free type variable of the bases, in order.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.type_expr import TypeContext
from veritype.types.model import Instance, TupleType, TypeVarType, TypedDictType, AnyType
from veritype.types.substitute import type_vars_in
from veritype.evaluate.declarations import qualifiers
from veritype.evaluate.functional_classes import base_class_from_call
from veritype.evaluate.functions import decorator_names
from veritype.evaluate.scopes import Scope
from veritype.semantic import symbols as S

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope
    from veritype.semantic.symbols import Symbol


KNOWN_CLASS_DECORATORS = frozenset({
    "typing.final", "typing_extensions.final", "typing.runtime_checkable", "typing_extensions.runtime_checkable",
    "typing.type_check_only", "typing_extensions.type_check_only", "functools.total_ordering", "enum.unique",
    "typing_extensions.deprecated", "warnings.deprecated", "typing.no_type_check", "abc.abstractmethod",
    "typing_extensions.disjoint_base", "typing.disjoint_base", "enum.verify", "enum.global_enum",
    "typing.dataclass_transform", "typing_extensions.dataclass_transform",
})


def type_param_scope(scope: Scope, owner: str, params: dict[str, TypeVarType]) -> Scope:
    """The scope a class statement's bases and keywords are read in: inside
    `scope`, one holding the class's PEP 695 type parameters `params`
    (`ev.pep695_params`; `class C[T](Base[T])`), if it has any; else `scope`
    itself. `owner`: the class's fullname."""
    if not params:
        return scope
    inner = Scope("function", scope.table, scope.module, scope, owner)
    inner.type_params.update(params)
    return inner


def evaluate_bases(ev: "Evaluator", info: "ClassInfo") -> tuple[tuple[Instance, ...], tuple[TypeVarType, ...]]:
    node = info.node
    if node is None:
        return (), ()
    scope = info.defining_scope
    assert scope is not None
    pep695 = ev.pep695_params(node, info.fullname, scope)
    type_scope = type_param_scope(scope, info.fullname, pep695)
    ctx = TypeContext(type_scope, bind_to=info.fullname)
    bases: list[Instance] = []
    explicit: list[TypeVarType] | None = None
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if isinstance(base, ast.Call):
            # `class Url(NamedTuple("Url", [...]))`: the class the call makes (mypy reads it too).
            made = base_class_from_call(ev, base, scope)
            if made is not None and made.is_namedtuple:
                bases.append(Instance(made, ()))
                continue
        ref = ev.resolve_expr(target, scope) if isinstance(target, (ast.Name, ast.Attribute)) else None
        if ref is None or ref.kind == "missing":
            info.has_any_base = True
            continue
        if ref.kind == "special":
            name = ref.fullname.rpartition(".")[2]
            if name in ("Generic", "Protocol"):
                if name == "Protocol":
                    info.is_protocol = True
                if isinstance(base, ast.Subscript):
                    args = base.slice.elts if isinstance(base.slice, ast.Tuple) else [base.slice]
                    explicit = []
                    import dataclasses

                    gen_ctx = dataclasses.replace(ctx, unpacking=True)  # `Generic[*Ts]` names Ts bare
                    for a in args:
                        t = ev.type_exprs.eval(a.value if isinstance(a, ast.Starred) else a, gen_ctx)
                        if isinstance(t, TypeVarType):
                            explicit.append(t)
                        elif isinstance(a, ast.Subscript):
                            # Unpack[Ts]
                            for tv in type_vars_in(ev.type_exprs.eval(a.slice, gen_ctx)).values():  # type: ignore[arg-type]
                                explicit.append(tv)
                continue
            if name == "TypedDict":
                info.is_typeddict = True
                td = ev.named_class("typing._TypedDict")
                if td is not None:
                    bases.append(Instance(td, ()))
                continue
            if name == "NamedTuple":
                info.is_namedtuple = True
                nt = ev.named_class("typing.NamedTuple")
                if nt is not None:
                    bases.append(Instance(nt, ()))
                continue
            if name == "Any":
                info.has_any_base = True
                continue
        if isinstance(base, ast.Name):
            hit = ev.lookup(base.id, scope)
            if hit is not None and declared_variable(ev, *hit):
                # `class Dummy(cls_param)`: a variable is no type (valid-type, misc
                # in check.class_base_rules); mypy then reads the base as Any.
                info.has_any_base = True
                continue
        t = ev.type_exprs.eval(base, ctx)
        if isinstance(t, TupleType):
            info.tuple_type = t
            t = t.fallback
        if isinstance(t, TypedDictType):
            info.is_typeddict = True
            t = t.fallback
        if isinstance(t, Instance):
            if t.info is info:
                continue
            if t.info.is_typeddict:
                info.is_typeddict = True
            if t.info.is_protocol and not info.is_protocol:
                pass
            bases.append(t)
        else:
            info.has_any_base = True
    for kw in node.keywords:
        if kw.arg == "metaclass":
            info.metaclass_expr = kw.value
    if not bases and info.fullname != "builtins.object":
        obj = ev.named_class("builtins.object")
        if obj is not None and obj is not info:
            bases.append(Instance(obj, ()))
    if pep695:
        tvs = tuple(pep695.values())
    elif explicit is not None:
        tvs = tuple(explicit)
    else:
        tvs = tuple(ctx.bound.values())

    info.decorators = decorator_names(ev, node, scope)
    # A class decorator we do not model may add members or change the constructor
    # (dataclass-like libraries): its missing members and its constructor become Any.
    # (One loop, not three `any()` over generators: asked for every class.)
    unknown = False
    for n in info.decorators:
        if n not in KNOWN_CLASS_DECORATORS:
            unknown = True
        if n.endswith(".final"):
            info.is_final = True
        if n.endswith(".runtime_checkable"):
            info.is_runtime_checkable = True
    info.unknown_decorator = unknown
    return tuple(bases), tvs


def declared_variable(ev: "Evaluator", sym: "Symbol", scope: "Scope") -> bool:
    """A parameter or a variable with an annotation (not `TypeAlias`), whose declared
    type is not Any: mypy's Var, never a type alias."""

    if sym.kind not in (S.PARAM, S.VAR) or sym.is_instance_attr:
        return False
    if sym.kind == S.VAR and (sym.annotation is None or len(sym.decls) != 1):
        return False
    if sym.kind == S.PARAM and not (isinstance(sym.node, ast.arg) and sym.node.annotation is not None):
        return False
    if sym.kind == S.VAR:
        if qualifiers(ev, sym, scope) & {"TypeAlias", "Final"}:
            return False
    try:
        t = ev.declared_type(sym, scope) if sym.kind == S.VAR else ev.symbol_type(sym, scope)
    except RecursionError:
        return False
    return t is not None and not isinstance(t, AnyType)


def abstract_members(ev: "Evaluator", info: "ClassInfo") -> list[str]:
    """Names that are abstract in `info` (first definition along the MRO is abstract)."""
    cached = info.abstract_names
    if cached is not None:
        return cached
    info.abstract_names = []  # (a cycle through the MRO reads none)
    result: list[str] = []
    mro = info.mro
    for i, cls in enumerate(mro):
        if cls.node is None:
            continue
        for name in _candidates(cls):
            # Only a name's first definition along the MRO counts. (A loop, not
            # `any()` over a generator, made and closed for each name: ~4k a run.)
            earlier = False
            for before in mro[:i]:
                if before.node is not None and name in before.symbols:
                    earlier = True
                    break
            if earlier:
                continue
            sym = cls.symbols[name]
            node = sym.node
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = decorator_names(ev, node, cls.scope)
                if "abc.abstractmethod" in names or "abc.abstractproperty" in names:
                    result.append(name)
                elif _implicitly_abstract_method(cls, sym):
                    result.append(name)
            elif _implicitly_abstract_variable(cls, sym):
                result.append(name)
    info.abstract_names = result
    return result


def _candidates(cls: "ClassInfo") -> tuple[str, ...]:
    """The names of `cls`'s own body abstract_members may find abstract, in their
    order there: every name but an instance attribute's of a source protocol (see
    _implicitly_abstract_method/_variable), else those of methods whose first
    definition has decorators (the only way it finds `abc.abstractmethod`), a few.
    Kept on the class once final (no lazy evaluation in progress: a class whose
    bases are being evaluated has no protocol flag yet), as every subclass asks
    again (most of them to learn that there are none); its symbols never change."""
    known = cls.abstract_candidates
    if known is not None:
        return known
    names: tuple[str, ...] = ()
    if cls.node is not None:
        protocol = _protocol_source(cls)
        names = tuple(name for name, sym in cls.symbols.items() if not sym.is_instance_attr and (
            protocol or (isinstance(sym.node, (ast.FunctionDef, ast.AsyncFunctionDef)) and sym.node.decorator_list)))
    if not cls.ev.lazy_depth:
        cls.abstract_candidates = names
    return names


def _protocol_source(cls: "ClassInfo") -> bool:
    # In a stub every body is `...`: typeshed's protocols are not made abstract
    # by it (mypy reads only source protocols this way).
    return cls.is_protocol and cls.node is not None and not cls.module.is_stub


def _implicitly_abstract_method(cls: "ClassInfo", sym: "Symbol") -> bool:
    """Spec ("Protocols", "Explicitly declaring implementation"): a class that
    subclasses a protocol explicitly and does not implement a protocol method
    with no body is abstract; mypy takes every method of a source protocol whose
    body is a placeholder (`...`, `pass`, a docstring, `raise
    NotImplementedError`), overloads and decorated ones included."""
    if not _protocol_source(cls):
        return False
    from veritype.syntax.bodies import is_trivial_body

    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return bool(defs) and all(is_trivial_body(d.body) for d in defs)


def _implicitly_abstract_variable(cls: "ClassInfo", sym: "Symbol") -> bool:
    """Spec (same section): a protocol attribute declared without a value, and
    assigned nowhere in the protocol (`self.x = ...` in its methods gives it
    one), must be given one by an explicit subclass."""
    if not _protocol_source(cls):
        return False
    node = sym.node
    return (
        isinstance(node, ast.AnnAssign) and node.value is None and isinstance(node.target, ast.Name)
        and all(d is node for d in sym.decls) and sym.name not in _assigned_through_self(cls)
    )


def _assigned_through_self(cls: "ClassInfo") -> frozenset[str]:
    """Names a class's own methods assign as `self.name = ...` (or annotate)."""
    known = getattr(cls, "_self_assigned", None)
    if known is not None:
        return known  # type: ignore[no-any-return]
    names: set[str] = set()
    assert cls.node is not None
    for stmt in cls.node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = [*stmt.args.posonlyargs, *stmt.args.args]
        if not args:
            continue
        me = args[0].arg
        for sub in ast.walk(stmt):
            targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target] if isinstance(sub, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me:
                    names.add(t.attr)
    result = frozenset(names)
    cls._self_assigned = result  # type: ignore[attr-defined]
    return result
