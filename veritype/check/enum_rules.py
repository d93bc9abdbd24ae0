"""Rules for the body of an enum class (typing spec, "Enums")."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_enum_body(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if not info.is_enum_class() or any(c.has_any_base for c in info.mro):
        return
    members = set(checker.ev.enum_members(info))
    for stmt in node.body:
        # Spec, "Defining Members": "Members defined within an enum class should
        # not include explicit type annotations. Type checkers should infer a
        # final type for the member based on its assigned value."
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and isinstance(stmt.target, ast.Name) and stmt.target.id in members:
            checker.error(stmt, "Enum members must be left unannotated", "misc")
