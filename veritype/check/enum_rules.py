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
    _no_subclassing(checker, node, info)
    _declared_value(checker, node, info, members)


def _no_subclassing(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    # Spec, "Enum Definition": "An Enum class with one or more defined members
    # cannot be subclassed." (It is implicitly final.)
    for base in info.bases:
        if base.info.is_enum_class() and base.info.node is not None and checker.ev.enum_members(base.info):
            checker.error(node, f'Cannot extend enum with existing members: "{base.info.name}"', "misc")


def _declared_value(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo", members: set[str]) -> None:
    # Spec, "Member Values": "If an enum class provides an explicit type annotation
    # for _value_, type checkers should enforce this declared type when values are
    # assigned to _value_" - which plain `NAME = value` members do (no `__new__` or
    # `__init__` rewriting them).
    declared = None
    for cls in info.mro:
        if cls.fullname.startswith("enum."):
            break
        if any(n in cls.symbols for n in ("__new__", "__init__")):
            return
        sym = cls.symbols.get("_value_")
        if declared is None and sym is not None and sym.annotation is not None:
            declared = checker.ev.declared_type(sym, cls.scope)
    if declared is None:
        return
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.types.format import format_type
    from veritype.types.join import widen_literals
    from veritype.types.subtype import is_subtype

    for stmt in node.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        if stmt.targets[0].id not in members or not isinstance(stmt.value, ast.Constant):
            continue
        t = ExprEvaluator(checker.ev, info.scope).infer(stmt.value)
        if not is_subtype(checker.ev, t, declared):
            checker.error(stmt.value, f'Incompatible types in assignment (expression has type "{format_type(widen_literals(t))}", variable has type "{format_type(declared)}")', "assignment")
