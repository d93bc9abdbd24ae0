"""Rules for class-syntax named tuples (typing spec, "Named Tuples")."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_namedtuple(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if info.is_namedtuple:
        _own_fields(checker, node, info)
        return
    # A subclass: "any fields added by the subclass are not considered part of the
    # named tuple type. Type checkers should enforce that these newly-added fields
    # do not conflict with the named tuple fields in the base class."
    base = next((c for c in info.mro[1:] if c.is_namedtuple and c.node is not None), None)
    if base is None:
        return
    from veritype.evaluate.special_classes import namedtuple_fields

    names = {n for n, _, _ in namedtuple_fields(checker.ev, base)}
    for stmt in node.body:
        target = _target(stmt)
        if target is not None and target.id in names:
            checker.error(target, f'Cannot overwrite NamedTuple attribute "{target.id}"', "misc")


def _own_fields(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if len(node.bases) > 1 and not any(isinstance(b, ast.Subscript) for b in node.bases[1:]):
        # "NamedTuple does not support multiple inheritance" (Generic[T] is allowed).
        checker.error(node, "NamedTuple should be a single base", "misc")
    from veritype.evaluate.special_classes import namedtuple_fields

    seen_default = False
    fields = {n: has_default for n, _, has_default in namedtuple_fields(checker.ev, info)}
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)) or stmt.target.id not in fields:
            continue
        name = stmt.target.id
        if name.startswith("_"):
            # "Field names may not start with an underscore."
            checker.error(stmt, f"NamedTuple field name cannot start with an underscore: {name}", "misc")
        if fields[name]:
            seen_default = True
        elif seen_default:
            # "fields with default values must come after fields without default values"
            checker.error(stmt, "Non-default NamedTuple fields cannot follow default fields", "misc")


def _target(stmt: ast.stmt) -> ast.Name | None:
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return stmt.target
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0]
    return None
