"""Rules for a class statement's base list and keywords (mypy's [misc] messages).

- a base that is no class (a function, a plain value): `Invalid base class`;
- `Generic[...]` / `Protocol[...]` (typing spec, "Generics"): at most one of
  them, type variables only, each once, and naming every type variable the
  other bases use ("If Generic[...] appears ... it must list all type
  variables");
- a protocol's bases must all be protocols (spec, "Protocols": "a protocol
  class ... cannot subclass a non-protocol class");
- keyword arguments in the class statement go to `__init_subclass__` of the
  nearest base that defines one (checked as a call).

Anything unclear (Any bases, custom metaclasses) is left alone.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.returns_value import allow_none_value
from veritype.semantic import symbols as S
from veritype.syntax.shapes import attribute_chain
from veritype.types.model import AnyType, Instance, LiteralType, NoneType, TypeVarType, CallableType, NeverType
from veritype.types.substitute import type_vars_in
from veritype.check.variance_rules import check_variance_use
from veritype.check.bare_generic_bases import check_bare_generic_bases
from veritype.evaluate.class_bases import declared_variable
from veritype.evaluate.declarations import type_alias_type_call
from veritype.evaluate.protocol_membership import PROTOCOL_SKIP
from veritype.evaluate.type_expr import TypeContext

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.scopes import Scope
    from veritype.semantic.symbols import Symbol

_GENERIC_NAMES = ("typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "typing_extensions.Generic")


def check_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    _invalid_bases(checker, node)
    check_bare_generic_bases(checker, node)
    _variadic_parameters(checker, node)
    _generic_bases(checker, node, info)
    _protocol_bases(checker, node, info)
    _protocol_variance(checker, node, info)

    check_variance_use(checker, node, info)


def _protocol_variance(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    """Typing spec ("Generic protocols"): "de facto covariant protocols cannot be
    declared as invariant". For each type variable, compare the protocol with
    `object` and with `Never` in its place, structurally: if the `Never` one is
    assignable to the `object` one the variable is used covariantly; the other
    way round, contravariantly; else invariantly (mypy's test). Only protocols
    made of plain methods and variables are checked (no generic methods,
    overloads or property setters, where our answer could be too lenient)."""

    if not info.is_protocol or info.has_any_base or getattr(node, "type_params", None):
        return
    tvs = info.type_vars
    if not tvs or any(tv.kind != "typevar" or tv.variance not in ("invariant", "covariant", "contravariant") for tv in tvs):
        return
    ev = checker.ev
    for cls in info.mro:
        if not cls.is_protocol or cls.fullname in ("typing.Protocol", "typing.Generic", "builtins.object"):
            continue
        if cls.node is None or cls.has_any_base:
            return
        for name, sym in cls.symbols.items():
            if name in PROTOCOL_SKIP:
                continue
            if sym.kind == S.FUNC:
                defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
                if len(defs) != 1 or any(not isinstance(dec, ast.Name) or dec.id not in ("abstractmethod",) for dec in defs[0].decorator_list):
                    return  # overloads, properties, class/static methods: not judged
                t = ev.symbol_type(sym, cls.scope)
                if not isinstance(t, CallableType) or t.type_vars or t.is_untyped:
                    return
            elif sym.kind != S.VAR or sym.annotation is None:
                return
    obj = ev.builtin("object")
    sc = ev.subtype_checker()
    for i, tv in enumerate(tvs):
        up = Instance(info, tuple(obj if j == i else AnyType("special") for j in range(len(tvs))))
        down = Instance(info, tuple(NeverType() if j == i else AnyType("special") for j in range(len(tvs))))
        try:
            is_co = ev.satisfies_protocol(down, up, sc)
            is_contra = ev.satisfies_protocol(up, down, sc)
        except RecursionError:
            return
        expected = "covariant" if is_co else "contravariant" if is_contra else "invariant"
        if expected != tv.variance:
            checker.error(node, f'{tv.variance.capitalize()} type variable "{tv.name}" used in protocol where {expected} one is expected', "misc")


def _invalid_bases(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    for base in node.bases:
        if isinstance(base, ast.Attribute):
            _attribute_of_variable(checker, base)
            continue
        if not isinstance(base, ast.Name):
            continue
        hit = checker.ev.lookup(base.id, checker.scope)
        if hit is None:
            continue
        sym, scope = hit
        if _is_alias_object(checker, sym, scope):
            # A `type` statement or TypeAliasType(...) makes a TypeAliasType object,
            # which is no class (spec, "Type aliases"); mypy's message.
            checker.error(base, 'Type alias defined using "type" statement not valid as base class', "misc")
            continue
        if _declared_variable(checker, sym, scope):
            # A parameter or annotated variable holding a class (`cls: type[Base]`) is a
            # value, not a type: mypy reports both errors.
            name = base.id if scope.kind == "function" else f"{scope.fullname}.{base.id}"
            checker.error(base, f'Variable "{name}" is not valid as a type', "valid-type")
            checker.error(base, f'Invalid base class "{base.id}"', "misc")
            continue
        bad = sym.kind == S.FUNC
        if sym.kind == S.VAR and sym.annotation is None and not sym.is_instance_attr:
            t = checker.ev.symbol_type(sym, scope)
            bad = isinstance(t, (LiteralType, NoneType)) or (
                isinstance(t, Instance) and t.info.fullname in ("builtins.int", "builtins.str", "builtins.float", "builtins.bytes", "builtins.list", "builtins.dict")
            )
        if bad:
            checker.error(base, f'Invalid base class "{base.id}"', "misc")


def _attribute_of_variable(checker: "ModuleChecker", base: ast.Attribute) -> None:
    """`class C(self.Schema)`: mypy resolves a base class as a static name, and a
    dotted name through a variable (a parameter, a local or module variable not
    declared Any) does not resolve: `Name "self.Schema" is not defined`
    [name-defined] (semanal.lookup_qualified, "Lookup through invalid node")."""
    chain = attribute_chain(base)
    if chain is None:
        return
    hit = checker.ev.lookup(chain[0], checker.scope)
    if hit is None:
        return
    sym, scope = hit
    if sym.kind not in (S.PARAM, S.VAR) or sym.is_instance_attr:
        return
    if sym.kind == S.VAR and sym.annotation is None and not (isinstance(sym.node, ast.Assign) and scope.kind == "function"):
        return  # a module or class variable may be a class alias or a module: left alone
    if sym.annotation is not None or (isinstance(sym.node, ast.arg) and sym.node.annotation is not None):
        t = checker.ev.declared_type(sym, scope) if sym.kind == S.VAR else checker.ev.symbol_type(sym, scope)
        if isinstance(t, AnyType) and t.reason == "explicit":
            return  # through a variable declared Any: mypy allows it
    checker.error(base, f'Name "{".".join(chain)}" is not defined', "name-defined")


def _declared_variable(checker: "ModuleChecker", sym: "Symbol", scope: "Scope") -> bool:
    return declared_variable(checker.ev, sym, scope)


def _is_alias_object(checker: "ModuleChecker", sym: "Symbol", scope: "Scope") -> bool:
    if sym.kind == S.TYPE_ALIAS:
        return True
    return sym.kind == S.VAR and len(sym.decls) == 1 and type_alias_type_call(checker.ev, sym, scope) is not None


def _special_name(checker: "ModuleChecker", expr: ast.expr) -> str | None:
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    ref = checker.ev.resolve_expr(expr, checker.scope)
    if ref is None or ref.fullname not in _GENERIC_NAMES:
        return None
    return ref.fullname.rpartition(".")[2]


def _variadic_parameters(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    """Spec, "TypeVarTuple": "Only a single type variable tuple may appear in a type
    parameter list", and a TypeVarTuple listed in `Generic[...]` must be unpacked
    ("Type Variable Tuples Must Always be Unpacked")."""

    params = getattr(node, "type_params", None) or []
    if sum(1 for p in params if type(p).__name__ == "TypeVarTuple") > 1:
        checker.error(node, "Can only use one type var tuple in a class def", "misc")
        return
    ev = checker.ev
    for b in node.bases:
        if not (isinstance(b, ast.Subscript) and _special_name(checker, b.value)):
            continue
        args = b.slice.elts if isinstance(b.slice, ast.Tuple) else [b.slice]
        count = 0
        for a in args:
            unpack_ref = ev.resolve_expr(a.value, checker.scope) if isinstance(a, ast.Subscript) and isinstance(a.value, (ast.Name, ast.Attribute)) else None
            if isinstance(a, ast.Starred) or (unpack_ref is not None and unpack_ref.fullname.endswith(".Unpack")):
                count += 1
                continue
            t = ev.type_exprs.eval(a, TypeContext(checker.scope, unpacking=True))
            if isinstance(t, TypeVarType) and t.kind == "typevartuple":
                checker.error(a, f'TypeVarTuple "{t.name}" is only valid with an unpack', "valid-type")
        if count > 1:
            checker.error(node, "Can only use one type var tuple in a class def", "misc")


def _generic_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    ev = checker.ev
    listed: list[ast.Subscript] = [b for b in node.bases if isinstance(b, ast.Subscript) and _special_name(checker, b.value)]
    if len(listed) > 1:
        checker.error(node, "Only single Generic[...] or Protocol[...] can be in bases", "misc")
        return
    if not listed:
        return
    sub = listed[0]
    name = _special_name(checker, sub.value)
    args = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
    ctx = TypeContext(checker.scope)
    seen: list[object] = []
    for a in args:
        if isinstance(a, (ast.Starred, ast.Subscript)):
            return  # *Ts / Unpack[Ts]: not checked here
        t = ev.type_exprs.eval(a, ctx)
        if not isinstance(t, TypeVarType):
            if not isinstance(t, AnyType):
                checker.error(a, f"Free type variable expected in {name}[...]", "misc")
            return
        if t.name in seen:
            checker.error(node, "Duplicate type variables in Generic[...] or Protocol[...]", "misc")
            return
        seen.append(t.name)
    # Every type variable the other bases use must be listed.
    for base in node.bases:
        if base is sub or not isinstance(base, ast.Subscript):
            continue
        t = ev.type_exprs.eval(base, ctx)
        names = {tv.name for tv in type_vars_in(t).values()}
        if names - set(seen):
            checker.error(node, "If Generic[...] or Protocol[...] is present it should list all type variables", "misc")
            return


def _protocol_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    bases = info.bases  # evaluating the bases sets is_protocol
    if not info.is_protocol or info.has_any_base:
        return
    for base in bases:
        b = base.info
        if b.fullname in ("builtins.object", "typing.Generic") or b.is_protocol or b.has_any_base:
            continue
        checker.error(node, "All bases of a protocol must be protocols", "misc")
        return


def class_keywords_call(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> ast.Call | None:
    """`Base.__init_subclass__(**keywords)` standing for the class statement's keywords,
    when the nearest `__init_subclass__` is a user-visible one we can check; else None."""
    kws = [k for k in node.keywords if k.arg != "metaclass"]
    if info.has_any_base or len(kws) != len(node.keywords):
        return None
    # (Loops, not `any()`/`next()` over generators: asked for every class.)
    for k in kws:
        if k.arg is None:
            return None
    for c in info.mro:
        if c.metaclass_expr is not None or c.has_any_base:
            return None  # a metaclass may take the keywords itself
    definer = None
    for c in info.mro[1:]:
        if "__init_subclass__" in c.symbols:
            definer = c
            break
    if definer is None or definer.fullname == "builtins.object" or definer.node is None:
        return None
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.types.model import TypeType

    silent = ExprEvaluator(checker.ev, checker.scope, checker.flow, None)
    for base_expr in node.bases:
        t = silent.infer(base_expr)
        if isinstance(t, TypeType) and isinstance(t.item, Instance) and definer in t.item.info.mro:
            break
    else:
        return None
    func = ast.copy_location(ast.Attribute(value=base_expr, attr="__init_subclass__", ctx=ast.Load()), node)
    call = ast.copy_location(ast.Call(func=func, args=[], keywords=kws), node)
    allow_none_value(call)  # the class statement does not use the call's value
    return call
