"""Rules for `@overload` definitions (spec, "Overloads": "Invalid overload definitions").

- "at least two @overload-decorated definitions" must be present;
- in a source file (not a stub, not a Protocol or abstract method) the
  overloads must be followed by an implementation without @overload.
Checked once per overloaded name, at its first definition. The consistency
of the implementation with each overload is not checked yet.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import decorator_names, is_overload

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_overload_definition(checker: "ModuleChecker", node: FuncDef) -> None:
    ev = checker.ev
    scope = checker.scope
    sym = scope.table.get(node.name)
    if sym is None or not sym.decls or sym.decls[0] is not node:
        return
    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    overloads = [d for d in defs if is_overload(ev, d, scope)]
    if not overloads:
        return
    if len(overloads) == 1:
        checker.error(_at(overloads[0]), "Single overload definition, multiple required", "misc")
    implementations = [d for d in defs if d not in overloads and d.lineno > overloads[-1].lineno]
    if implementations or checker.info.is_stub:
        return
    cls = scope.cls if scope.kind == "class" else None
    if cls is not None and cls.is_protocol:
        return
    if any("abc.abstractmethod" in decorator_names(ev, d, scope) for d in overloads):
        return
    if checker.type_checking_depth:
        return
    checker.error(_at(overloads[0]), "An overloaded function outside a stub file must have an implementation", "no-overload-impl")


def _at(node: FuncDef) -> ast.AST:
    """Report at the first decorator, where the definition starts (as mypy does)."""
    return node.decorator_list[0] if node.decorator_list else node
