"""An annotation of a name its scope already binds: mypy's `[no-redef]`.

mypy 2.4.1 reports `x: T` or `x: T = v` where the scope (module, class body,
function) bound `x` before, in any way: an assignment (`x = 1` then
`x: int = 2`, in the same block or another branch), a `for`/`with` target, a
walrus, a parameter, an import, an earlier annotation (`x: int` then
`x: int = 1`), a type comment. The message names the first binding's line, or
says `(by an import)` for a module and `(possibly by an import)` for another
imported name. The common case is the fallback of an optional import:

    try:
        from json import dumps
    except ImportError:
        dumps: Any = None  # type: ignore[no-redef]

The first binding keeps the name's type (the binder does not take the
annotation: semantic/binder.py), and mypy does not check the value against
either type; the value's own expression is still checked. An attribute
declared in a method (`self.x = 1`) is no binding of the class body.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.redefinitions import definition_line
from veritype.semantic import symbols as S
from veritype.types.model import ModuleType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.semantic.symbols import Symbol


def redefined_symbol(stmt: ast.AnnAssign) -> "Symbol | None":
    """The symbol `stmt` annotates again, if it is a redefinition."""
    return getattr(stmt, "_vt_redefines", None)


def check_final_again(mc: "ModuleChecker", stmt: ast.AnnAssign) -> None:
    """`x = 1` then `x: Final = 2` (or `Final[int]`): mypy 2.4.1's `Cannot
    redefine an existing name as final` [misc] (see semantic/binder.py for
    which of the two keeps the annotation)."""
    if getattr(stmt, "_vt_final_again", False):
        mc.error(stmt, "Cannot redefine an existing name as final", "misc")


def check_annotated_redefinition(mc: "ModuleChecker", stmt: ast.AnnAssign, first: "Symbol") -> None:
    name = first.name
    mc.error(stmt, f'Name "{name}" already defined{_where(mc, first)}', "no-redef")
    if stmt.value is not None:
        mc.infer(stmt.value)


def _where(mc: "ModuleChecker", first: "Symbol") -> str:
    if first.kind == S.MODULE_REF:
        return " (by an import)"
    if first.kind == S.FROM_IMPORT:
        imports_module = isinstance(mc.ev.symbol_type(first, mc.scope), ModuleType)
        return " (by an import)" if imports_module else " (possibly by an import)"
    return f" on line {definition_line(first.node) if first.node is not None else 0}"
