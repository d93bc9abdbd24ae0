"""Method overrides: Liskov compatibility, `@final` methods, `@override` (PEP 698).

The typing spec ("Class and instance variables"/"Method overrides"): an
override must be assignable to the overridden method — parameters
contravariant, return covariant. We compare both methods bound to the
subclass's instance, with the base method's type parameters mapped to the
subclass's view of the base. Where we cannot decide (overloads, unknown
decorators, generic methods we cannot explain, properties, class and static
methods), we stay silent. Messages are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import TRANSPARENT, decorator_names, is_overload, method_kind
from veritype.evaluate.members import bind_self
from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import POS_ONLY, POS_OR_KW, AnyType, CallableType, NoneType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

_SKIP = frozenset({"__init__", "__new__", "__init_subclass__", "__post_init__", "__class_getitem__"})
_OVERRIDE = ("typing.override", "typing_extensions.override")
_FINAL = ("typing.final", "typing_extensions.final")


def check_overrides(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    seen: set[str] = set()
    for stmt in node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name in seen:
            continue
        seen.add(stmt.name)
        try:
            _check_one(checker, stmt, info)
        except RecursionError:
            pass


def _base_method(info: "ClassInfo", name: str):  # type: ignore[no-untyped-def]
    for cls in info.mro[1:]:
        sym = cls.symbols.get(name)
        if sym is not None:
            return sym, cls
    return None


def _check_one(checker: "ModuleChecker", fn: ast.FunctionDef | ast.AsyncFunctionDef, info: "ClassInfo") -> None:
    ev = checker.ev
    name = fn.name
    scope = info.scope
    sym = info.symbols.get(name)
    if sym is None or sym.kind != S.FUNC:
        return
    # With overloads, the decorators that matter are on any of the definitions.
    names = [n for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in decorator_names(ev, d, scope)]
    hit = _base_method(info, name)
    lenient = any(c.has_any_base for c in info.mro)
    at: ast.AST = fn
    if fn.decorator_list and is_overload(ev, fn, scope):
        at = fn.decorator_list[0]  # an overloaded definition starts at its first decorator (mypy's line)
    if hit is None:
        if any(n in _OVERRIDE for n in names) and not lenient:
            checker.error(at, f'Method "{name}" is marked as an override, but no base method was found with this name', "misc")
        return
    base_sym, base_cls = hit
    if base_cls.fullname == "builtins.object" and name in ("__eq__", "__ne__", "__hash__", "__repr__", "__str__"):
        pass
    base_defs = [d for d in base_sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    base_names = [n for d in base_defs for n in decorator_names(ev, d, base_cls.scope)]
    if any(n in _FINAL for n in base_names):
        checker.error(at, f'Cannot override final attribute "{name}" (previously declared in base class "{base_cls.name}")', "misc")
        return
    if base_sym.kind == S.FUNC and name not in _SKIP and not any(n in _OVERRIDE for n in names) and not (name.startswith("__") and name.endswith("__") and base_cls.fullname == "builtins.object"):
        checker.error(at, f'Method "{name}" is not using @override but is overriding a method in class "{base_cls.fullname}"', "explicit-override")
    if name in ("__init__", "__new__") and any(n in _OVERRIDE for n in names) and not lenient:
        _check_explicit_constructor_override(checker, fn, info, sym, base_sym, base_cls)
        return
    if name in _SKIP or (name.startswith("__") and not name.endswith("__")):
        return
    # Every base in the MRO that defines the method, nearest first (mypy checks each:
    # an intermediate `def f(self, x: Any)` does not hide `A.f(self, x: int)`); the
    # first incompatible one is reported.
    for other in info.mro[1:]:
        other_sym = other.symbols.get(name)
        if other_sym is None:
            continue
        if other_sym.kind != S.FUNC:
            return  # an attribute in between: not modelled here
        other_defs = [d for d in other_sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not other_defs:
            continue
        other_names = [n for d in other_defs for n in decorator_names(ev, d, other.scope)]
        mark = len(checker.diags)
        _check_signature(checker, fn, info, sym, names, other_sym, other, other_defs, other_names)
        if len(checker.diags) > mark:
            return


def _plain(names: list[str]) -> bool:
    return all(n in TRANSPARENT for n in names)


def _check_signature(checker, fn, info, sym, names, base_sym, base_cls, base_defs, base_names) -> None:  # type: ignore[no-untyped-def]
    ev = checker.ev
    name = fn.name
    if not _plain(names) or not _plain(base_names):
        return
    if any(is_overload(ev, d, info.scope) for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))):
        return
    if any(is_overload(ev, d, base_cls.scope) for d in base_defs):
        return
    if method_kind(ev, fn, info.scope) != "instance" or method_kind(ev, base_defs[0], base_cls.scope) != "instance":
        return
    sub_t = ev.symbol_type(sym, info.scope)
    base_t = ev.symbol_type(base_sym, base_cls.scope)
    if not isinstance(sub_t, CallableType) or not isinstance(base_t, CallableType):
        return
    if sub_t.is_untyped or base_t.is_untyped:
        return
    receiver = info.self_instance()
    base_t = ev.members._map_to(receiver, base_cls, base_t, receiver)
    sub_b = bind_self(ev, sub_t, receiver)
    base_b = bind_self(ev, base_t, receiver)
    if not isinstance(sub_b, CallableType) or not isinstance(base_b, CallableType):
        return
    if ev.subtype_checker().callable_ok(sub_b, base_b):
        return
    if ev.subtype_checker().callable_ok(_base_pos_names(sub_b, base_b), base_b):
        # Only positional parameter names differ (`encode(self, data)` over
        # `encode(self, input)`): mypy accepts such overrides, and so do we.
        return
    if sub_b.type_vars or base_b.type_vars:
        return  # generic methods we could not match: silent
    # mypy names a base of another module by its full name ("typing.Container").
    sup = base_cls.name if base_cls.module is checker.info else base_cls.fullname
    if not is_subtype(ev, sub_b.ret, base_b.ret):
        s, b = format_pair(sub_b.ret, base_b.ret)
        checker.error(fn, f'Return type "{s}" of "{name}" incompatible with return type "{b}" in supertype "{sup}"', "override")
        return
    sub_pos = [p for p in sub_b.params if p.kind in (POS_ONLY, POS_OR_KW)]
    base_pos = [p for p in base_b.params if p.kind in (POS_ONLY, POS_OR_KW)]
    for i, (sp, bp) in enumerate(zip(sub_pos, base_pos)):
        if isinstance(sp.type, AnyType) or isinstance(bp.type, AnyType):
            continue
        if not is_subtype(ev, bp.type, sp.type):
            _, b = format_pair(sp.type, bp.type)
            checker.error(fn, f'Argument {i + 1} of "{name}" is incompatible with supertype "{sup}"; supertype defines the argument type as "{b}"', "override")
            return
    checker.error(fn, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")


def _base_pos_names(sub: CallableType, base: CallableType) -> CallableType:
    """`sub` with its leading positional parameters renamed as `base` names them."""
    import dataclasses

    base_pos = [p for p in base.params if p.kind in (POS_ONLY, POS_OR_KW)]
    params = list(sub.params)
    for i, p in enumerate(params[: len(base_pos)]):
        if p.kind not in (POS_ONLY, POS_OR_KW):
            break
        if p.name != base_pos[i].name:
            params[i] = dataclasses.replace(p, name=base_pos[i].name)
    return dataclasses.replace(sub, params=tuple(params))


def _check_explicit_constructor_override(checker, fn, info, sym, base_sym, base_cls) -> None:  # type: ignore[no-untyped-def]
    """`@override` on `__init__` / `__new__` (PEP 698: the decorator says the method
    overrides the base's, so it is checked as an override; spec, "Method
    overrides" applies to constructors named this way). Constructors are otherwise
    exempt from the Liskov rule (mypy). The receiver and the return are not compared."""
    import dataclasses

    ev = checker.ev
    if is_overload(ev, fn, info.scope) or any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_overload(ev, d, base_cls.scope) for d in base_sym.decls):
        return
    sub_t = ev.symbol_type(sym, info.scope)
    base_t = ev.symbol_type(base_sym, base_cls.scope)
    if not isinstance(sub_t, CallableType) or not isinstance(base_t, CallableType) or sub_t.is_untyped or base_t.is_untyped:
        return
    if not sub_t.params or not base_t.params or any(v.kind != "self" for v in (*sub_t.type_vars, *base_t.type_vars)):
        return
    receiver = info.self_instance()
    base_t = ev.members._map_to(receiver, base_cls, base_t, receiver)
    if not isinstance(base_t, CallableType):
        return
    # `Self` appears only in the receiver and the return, both left out.
    sub_b = dataclasses.replace(sub_t, params=sub_t.params[1:], ret=NoneType(), type_vars=())
    base_b = dataclasses.replace(base_t, params=base_t.params[1:], ret=NoneType(), type_vars=())
    if ev.subtype_checker().callable_ok(sub_b, base_b) or ev.subtype_checker().callable_ok(_base_pos_names(sub_b, base_b), base_b):
        return
    sup = base_cls.name if base_cls.module is checker.info else base_cls.fullname
    checker.error(fn, f'Signature of "{fn.name}" incompatible with supertype "{sup}"', "override")
