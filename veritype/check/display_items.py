"""Item-level errors for a display assigned to a declared type, as the check
stage reports them (the rule itself is evaluate.display_items)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.display_items import report_display_items as _report_items

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def report_display_items(checker: "ModuleChecker", value: ast.expr, declared: object) -> bool:
    """Report the bad items of `value` against `declared`; True when one was reported."""
    return _report_items(checker.ev, lambda e, t: checker.exprs().infer(e, t), checker.error, value, declared)
