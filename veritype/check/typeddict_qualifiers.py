"""Where the TypedDict item qualifiers `Required`, `NotRequired` and `ReadOnly`
may be written, and how they nest.

Typing spec, "TypedDict", "Required and NotRequired": they "are valid only
within a TypedDict" ("It is an error to use Required[] or NotRequired[] in any
location that is not an item of a TypedDict"), and "Nesting is not allowed"
(`Required[NotRequired[int]]`, `Required[Required[int]]`); `ReadOnly` "can only
be used in a TypedDict definition" too ("Read-only items"). Annotations of
parameters and other places that take no qualifier are refused while the type
expression is evaluated; this module sees variable declarations. Messages and
codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_ITEM_QUALIFIERS = ("Required", "NotRequired", "ReadOnly")


def check_item_qualifiers(checker: "ModuleChecker", stmt: ast.AnnAssign, qualifiers: set[str]) -> None:
    used = [q for q in _ITEM_QUALIFIERS if q in qualifiers]
    if not used:
        return
    info = checker.scope.enclosing_class() if checker.scope.kind == "class" else None
    if info is None or not info.is_typeddict or not isinstance(stmt.target, ast.Name):
        checker.error(stmt.annotation, f"{used[0]}[] can be only used in a TypedDict definition", "valid-type")
        return
    _nesting(checker, stmt.annotation, seen=False)


def _nesting(checker: "ModuleChecker", node: ast.expr, seen: bool) -> None:
    if not isinstance(node, ast.Subscript):
        return
    name = _special_name(checker, node.value)
    args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if name in ("Required", "NotRequired"):
        if seen:
            checker.error(node, f'"{name}[]" type cannot be nested', "valid-type")
            return
        seen = True
    elif name not in ("ReadOnly", "Annotated"):
        return
    if args:
        _nesting(checker, args[0], seen)


def _special_name(checker: "ModuleChecker", head: ast.expr) -> str | None:
    if not isinstance(head, (ast.Name, ast.Attribute)):
        return None
    ref = checker.ev.resolve_expr(head, checker.scope)
    if ref is None or ref.kind != "special":
        return None
    return ref.fullname.rsplit(".", 1)[-1]
