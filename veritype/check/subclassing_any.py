"""`disallow_subclassing_any` (mypy's `--disallow-subclassing-any`, part of --strict).

mypy: "Disallow subclassing values of type 'Any' when defining classes";
its error is `Class cannot subclass "Base" (has type "Any")  [misc]`, at the
base expression. Reported here for the two sources of such a base veritype is
sure of: a name imported from (or an attribute of) a module that cannot be
found (whether or not the import's own error is ignored, as in mypy), and a
written `Any`. A base veritype merely does not understand is never reported.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_subclassing_any(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    if not checker.options.disallow_subclassing_any:
        return
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if _is_any_base(checker, target):
            name = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else "?"
            checker.error(base, f'Class cannot subclass "{name}" (has type "Any")', "misc")


def _root_name(node: ast.expr) -> ast.Name | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node if isinstance(node, ast.Name) else None


def _is_any_base(checker: "ModuleChecker", target: ast.expr) -> bool:
    ev = checker.ev
    ref = ev.resolve_expr(target, checker.scope) if isinstance(target, (ast.Name, ast.Attribute)) else None
    if ref is None:
        return False
    if ref.kind == "special":
        return ref.fullname == "typing.Any"
    if ref.kind != "missing":
        return False
    # Missing: only when the import it comes through names a module that is not there.
    root = _root_name(target)
    hit = ev.lookup(root.id, checker.scope) if root is not None else None
    if hit is None:
        return False
    sym = hit[0]
    if sym.kind not in (S.MODULE_REF, S.FROM_IMPORT) or not sym.import_module:
        return False
    return checker.program.get_module(sym.import_module) is None
