"""An awaitable value left unused as a statement: unused-awaitable (off by default).

mypy's error-code documentation: with `--enable-error-code unused-awaitable`,
"mypy generates an error if you don't use a returned value that defines
`__await__`" (a `Task` from `asyncio.create_task(...)`, a `Future`), with
the note `Are you missing an await?`. A coroutine is `unused-coroutine`
(on by default); a union or Any is not reported, as in mypy.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.diagnostics.enabled import code_enabled
from veritype.types.format import format_type
from veritype.types.model import Instance

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_unused_awaitable(checker: "ModuleChecker", stmt: ast.Expr, t: Instance) -> None:
    if not code_enabled(checker.options, "unused-awaitable"):
        return
    if checker.ev.bound_member(t, "__await__") is None:
        return
    checker.error(stmt, f'Value of type "{format_type(t)}" must be used', "unused-awaitable")
    checker.note(stmt, "Are you missing an await?")
