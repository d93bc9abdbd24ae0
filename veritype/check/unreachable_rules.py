"""Which unreachable statements `--warn-unreachable` reports.

mypy 2.4.1 reports the first statement of an unreachable block that is not
a "no-op for reachability": a `raise`, an `assert False` (or `assert 0`),
`return NotImplemented`, or a call whose type is `NoReturn` (the
`fail("...")` that ends a branch a type checker already knows is
impossible, `pytest.fail(...)` after a `raise`, `assert_never(x)`). Those
are passed over and the next statement is considered. A `pass`, a `...` or
a docstring is reported as any statement (checked against mypy 2.4.1:
`if x is None: pass` for `x: int` is "Statement is unreachable").

After an `assert` that fails by the target platform or Python version
(`assert sys.platform == "win32"`), mypy's semantic analysis drops the rest
of the block and nothing is reported. `True`, `False` and numbers are no
such condition to it (mypy docs, "Unreachable code": it reports what its
type checking finds unreachable, and `assert False` is a test it narrows):
the statement after `assert False` or `assert 0` is reported (mypy 2.4.1).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.semantic.conditions import evaluate_condition
from veritype.types.model import NeverType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def is_noop_for_reachability(checker: "ModuleChecker", stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Raise):
        return True
    if isinstance(stmt, ast.Assert):
        return is_false_literal(stmt.test)
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


def static_assert_skip(checker: "ModuleChecker", prev: ast.stmt | None) -> bool:
    """Whether the statements after `prev`, found unreachable, follow an
    `assert` that is false by the platform, the version or `always_false`
    (mypy skips them silently), constants not counted (see the docstring)."""
    if not isinstance(prev, ast.Assert):
        return False
    binder = checker.program.binder_for(checker.info)
    return evaluate_condition(prev.test, binder.version, binder.platform, binder.always, constants=False) is False


def is_false_literal(test: ast.expr) -> bool:
    """`False` or `0`: the constants mypy 2.4.1 takes as always false in a test
    (`assert ""`, `assert b""`, `assert 0.0` leave the rest reachable to it)."""
    return type(test) is ast.Constant and (test.value is False or (type(test.value) is int and test.value == 0))  # type: ignore[attr-defined]
