"""Which unreachable statements `--warn-unreachable` reports.

mypy 2.4.1 reports the first statement of an unreachable block that is not
a "no-op for reachability": a `raise`, an `assert False` (or `assert 0`),
`return NotImplemented`, or a call whose type is `NoReturn` (the
`fail("...")` that ends a branch a type checker already knows is
impossible, `pytest.fail(...)` after a `raise`, `assert_never(x)`). Those
are passed over and the next statement is considered. A `pass`, a `...` or
a docstring is reported as any statement (checked against mypy 2.4.1:
`if x is None: pass` for `x: int` is "Statement is unreachable").
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.types.model import NeverType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def is_noop_for_reachability(checker: "ModuleChecker", stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Raise):
        return True
    if isinstance(stmt, ast.Assert):
        t = stmt.test
        return isinstance(t, ast.Constant) and (t.value is False or (type(t.value) is int and t.value == 0))
    if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == "NotImplemented":
        return True  # `if not isinstance(other, C): return NotImplemented` in a dunder
    if not isinstance(stmt, ast.Expr):
        return False
    if not isinstance(stmt.value, ast.Call):
        return False
    f = stmt.value.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name in ("assert_never", "reveal_type"):
        return True
    # The call's type, silently (no diagnostics from an unreachable statement).
    silent = ExprEvaluator(checker.ev, checker.scope, checker.flow, None)
    return isinstance(silent.infer(stmt.value), NeverType)
