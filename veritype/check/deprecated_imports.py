"""`from m import name` of a deprecated class or function (typing spec,
`@deprecated`: a usage includes "`from` imports"). Off unless the
`deprecated` code is enabled; mypy's message."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate import deprecation
from veritype.semantic import symbols as S

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.program import ModuleInfo


def check_deprecated_import(checker: "ModuleChecker", stmt: ast.ImportFrom, mod: "ModuleInfo", sym: S.Symbol) -> None:
    ev = checker.ev
    if not deprecation.enabled(ev) or sym.kind not in (S.FUNC, S.CLASS):
        return
    t = ev.symbol_type(sym, ev.module_scope_of_symbol(mod, sym))
    msg = deprecation.reference_message(t)
    if msg is not None:
        checker.error(stmt, msg, "deprecated")
