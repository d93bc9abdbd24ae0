"""An import that binds a name its scope bound first.

mypy's first binding of a name decides its type; a later import of the name
is checked like an assignment to it (checked against mypy 2.4.1):

- over a variable, a function, a class or another import of a non-module:
  `Incompatible import of "X" (imported name has type "T", local name has
  type "L")`  [assignment] unless T is a subtype of L (urllib3's
  `SSLContext = None`, then `from ssl import SSLContext` in a `try`; two
  `from` imports of one function with one signature pass). A module is
  printed `Module`, unquoted; a variable first assigned None and nothing
  else but imports has mypy's partial None type, which every import
  contradicts: its type prints as "object" there.
- over a module (`import a as X`, `from pkg import sub as X`): anything but
  the same module is `Name "X" already defined (by an import)`  [no-redef]
  (`try: import simplejson as json / except ImportError: import json`).

Both are on the import statement's first line. Names whose either side is
Any (a missing or untyped module) are left to `redefinitions`, as are
imports a static condition rules out (the checker does not visit them).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.redefinitions import bound_before
from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import AnyType, CallableType, Instance, ModuleType, NoneType, Overloaded, Type, TypeType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

# The classes whose instances a module is (a protocol it may implement is
# left to the subtype check).
_MODULE_CLASSES = frozenset({"builtins.object", "types.ModuleType"})
# The first bindings an import is checked against (a parameter, a PEP 695
# alias or type parameter are not).
_CHECKED_KINDS = frozenset({S.VAR, S.FUNC, S.CLASS, S.FROM_IMPORT, S.MODULE_REF})


def check_from_import_over_binding(checker: "ModuleChecker", stmt: ast.ImportFrom, source: str, alias: ast.alias) -> None:
    """`from source import name as local` in `stmt` (source found)."""
    local = alias.asname or alias.name
    sym = _earlier(checker, stmt, local)
    if sym is None:
        return
    ev = checker.ev
    probe = S.Symbol(local, S.FROM_IMPORT, [stmt], import_module=source, import_name=alias.name)
    _check(checker, stmt, sym, local, ev.ref_value_type(ev.resolve_symbol(probe, checker.scope)))


def check_module_import_over_binding(checker: "ModuleChecker", stmt: ast.Import, alias: ast.alias) -> None:
    """`import a.b as local` (binds module a.b) or `import a.b` (binds a), module found."""
    if alias.asname:
        local, module = alias.asname, alias.name
    else:
        local = module = alias.name.partition(".")[0]
    sym = _earlier(checker, stmt, local)
    if sym is None:
        return
    mod = checker.program.get_module(module)
    if mod is None:
        return
    _check(checker, stmt, sym, local, ModuleType(mod.name, mod))


def _earlier(checker: "ModuleChecker", stmt: ast.stmt, local: str) -> S.Symbol | None:
    """The scope's symbol for `local` when a statement before `stmt` bound it first."""
    sym = bound_before(checker, stmt, local)
    return sym if sym is not None and sym.kind in _CHECKED_KINDS else None


def _check(checker: "ModuleChecker", stmt: ast.stmt, sym: S.Symbol, local: str, imported: Type) -> None:
    if isinstance(imported, AnyType):
        return
    declared = checker.ev.symbol_type(sym, checker.scope)
    if isinstance(declared, AnyType):
        return
    if isinstance(declared, ModuleType):
        if not (isinstance(imported, ModuleType) and imported.name == declared.name):
            checker.error(stmt, f'Name "{local}" already defined (by an import)', "no-redef")
        return
    partial_none = sym.kind == S.VAR and isinstance(declared, NoneType) and sym.annotation is None and sym.type_comment is None
    if not partial_none:
        if isinstance(imported, ModuleType):
            if not _module_contradicts(declared):
                return
        elif is_subtype(checker.ev, imported, declared):
            return
    got, want = format_pair(imported, declared)
    if got == want and type(imported) is TypeType and type(declared) is TypeType:
        # Two classes of one name: mypy names both in full (`type[lib.C]`).
        item, other = imported.item, declared.item
        if type(item) is Instance and type(other) is Instance:
            got, want = f"type[{item.info.fullname}]", f"type[{other.info.fullname}]"
    if partial_none:
        want = "object"
    shown = "Module" if isinstance(imported, ModuleType) else f'"{got}"'
    checker.error(stmt, f'Incompatible import of "{local}" (imported name has type {shown}, local name has type "{want}")', "assignment")


def _module_contradicts(declared: Type) -> bool:
    """Whether a module surely cannot be bound to a name of type `declared` (the
    subtype check takes a module for anything but a class's instance): a
    class's instance other than object, ModuleType or a protocol, a class
    object, a function. Anything else (a union...) is left unreported."""
    kind = type(declared)
    if kind is Instance:
        info = declared.info  # type: ignore[attr-defined]
        return not info.is_protocol and info.fullname not in _MODULE_CLASSES
    return kind is TypeType or kind is CallableType or kind is Overloaded
