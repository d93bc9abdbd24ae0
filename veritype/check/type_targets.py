"""Assigning to a name or attribute that is a class: mypy's "Cannot assign to a type" [misc].

mypy keeps a name bound by `class C` (or imported as a class) a type for good:
`C = Other`, `module.C = Other`, `Outer.Inner = Other` are reported as
"Cannot assign to a type" [misc], and a value that is not a `type[C]` is also
`Incompatible types in assignment (expression has type ..., variable has type
"type[C]")` [assignment] (both on the assignment's line). The monkey-patching
of a class in another module (`urllib3.connection.HTTPConnection =
EmscriptenHTTPConnection`) is the usual case.

Only a name whose first binding is the class is a type here: `X = None`
before `class X` or `from m import X` is another rule (a redefinition).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import AnyType, Instance, ModuleType, Type, TypeType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.scopes import Scope

MESSAGE = "Cannot assign to a type"


def check_type_target(checker: "ModuleChecker", target: ast.Name | ast.Attribute, t: Type, value: ast.expr | None) -> bool:
    """Report an assignment to a class; True when reported (nothing else to check)."""
    info = _target_class(checker, target)
    if info is None:
        return False
    checker.error(target, MESSAGE, "misc")
    if isinstance(t, AnyType) or info.type_vars:
        return True
    declared = TypeType(info.self_instance())
    if not is_subtype(checker.ev, t, declared):
        got, exp = format_pair(t, declared)
        checker.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
    return True


def _target_class(checker: "ModuleChecker", target: ast.Name | ast.Attribute) -> "ClassInfo | None":
    ev = checker.ev
    if isinstance(target, ast.Name):
        hit = checker._local_symbol(target.id)
        if hit is None:
            return None
        sym, scope = hit
        return _class_of(checker, sym, scope, target)
    base = checker.exprs().infer(target.value) if isinstance(target.value, (ast.Name, ast.Attribute)) else None
    if isinstance(base, ModuleType):
        mod = ev.program.get_module(base.name)
        if mod is None:
            return None
        sym = mod.symbols.get(target.attr)
        if sym is None:
            return None
        return _class_of(checker, sym, ev.module_scope(mod), target)
    if isinstance(base, TypeType) and isinstance(base.item, Instance):
        found = base.item.info.get(target.attr)
        if found is None:
            return None
        return _class_of(checker, found[0], found[1].scope, target)
    return None


def _class_of(checker: "ModuleChecker", sym: S.Symbol, scope: "Scope", target: ast.expr) -> "ClassInfo | None":
    """The class `sym` names when its first binding is a class statement, or an
    import of a class; None otherwise."""
    ev = checker.ev
    if sym.kind == S.CLASS:
        first = sym.decls[0] if sym.decls else None
        if not isinstance(first, ast.ClassDef) or any(isinstance(d, ast.AnnAssign) for d in sym.decls):
            return None
        if isinstance(target, ast.Name) and any(_inside(target, d) for d in sym.decls if isinstance(d, ast.ClassDef)):
            return None  # (line numbers compare within one module: a Name's own)
        ref = ev.resolve_symbol(sym, scope)
    elif sym.kind == S.FROM_IMPORT and len(sym.decls) >= 1 and isinstance(sym.decls[0], ast.ImportFrom):
        ref = ev.resolve_symbol(sym, scope)
    else:
        return None
    if ref is None or ref.kind != "class" or ref.info is None:
        return None
    info = ref.info
    if any(c.has_any_base or c.unknown_decorator for c in info.mro):
        return None
    return info


def _inside(node: ast.expr, cls: ast.ClassDef) -> bool:
    end = getattr(cls, "end_lineno", None)
    return end is not None and cls.lineno <= node.lineno <= end
