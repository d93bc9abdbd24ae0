"""`from m import X` where the scope already binds X as a variable.

mypy's first binding of a name decides its type; an import that rebinds a
variable is checked like an assignment to it: `Incompatible import of "X"
(imported name has type "T", local name has type "L")`  [assignment], on
the import statement's first line (mypy 2.4.1; urllib3's `SSLContext =
None`, then `from ssl import SSLContext` in a `try`). A variable first
assigned None and nothing else but imports has mypy's partial None type,
which every import contradicts: its type prints as "object" there.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import AnyType, NoneType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_import_over_variable(checker: "ModuleChecker", stmt: ast.ImportFrom, source: str, alias: ast.alias) -> None:
    local = alias.asname or alias.name
    sym = checker.scope.table.get(local)
    if sym is None or sym.kind != S.VAR or not sym.decls or sym.decls[0] is stmt or stmt not in sym.decls:
        return
    if _line(sym.decls[0]) >= stmt.lineno:
        return  # bound first by this or a later statement (a loop body): not mypy's order
    ev = checker.ev
    probe = S.Symbol(local, S.FROM_IMPORT, [stmt], import_module=source, import_name=alias.name)
    imported = ev.ref_value_type(ev.resolve_symbol(probe, checker.scope))
    if isinstance(imported, AnyType):
        return
    declared = ev.symbol_type(sym, checker.scope)
    if isinstance(declared, AnyType):
        return
    partial_none = isinstance(declared, NoneType) and sym.annotation is None and sym.type_comment is None
    if not partial_none and is_subtype(ev, imported, declared):
        return
    got, want = format_pair(imported, declared)
    if partial_none:
        want = "object"
    checker.error(stmt, f'Incompatible import of "{local}" (imported name has type "{got}", local name has type "{want}")', "assignment")


def _line(node: ast.AST) -> int:
    return getattr(node, "lineno", 0)
