"""Which unreachable statements `--warn-unreachable` reports.

mypy reports the first statement of an unreachable block unless it is a
"no-op for reachability" (mypy's docs, `--warn-unreachable`: a block holding
just `pass`, `...`, `raise` or `assert False` is left alone, being written on
purpose). mypy counts a call whose type is `NoReturn` among them too: the
`fail("...")` that ends a branch a type checker already knows is impossible
(`if not isinstance(x, str): fail(...)`), or `pytest.fail(...)` after a
`raise`, and `return NotImplemented`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.types.model import NeverType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def is_noop_for_reachability(checker: "ModuleChecker", stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Pass, ast.Raise, ast.Assert)):
        return True
    if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == "NotImplemented":
        return True  # `if not isinstance(other, C): return NotImplemented` in a dunder
    if not isinstance(stmt, ast.Expr):
        return False
    if isinstance(stmt.value, ast.Constant):
        return True
    if not isinstance(stmt.value, ast.Call):
        return False
    f = stmt.value.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name in ("assert_never", "reveal_type"):
        return True
    # The call's type, silently (no diagnostics from an unreachable statement).
    silent = ExprEvaluator(checker.ev, checker.scope, checker.flow, None)
    return isinstance(silent.infer(stmt.value), NeverType)
