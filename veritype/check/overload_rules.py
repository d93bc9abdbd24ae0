"""Rules for `@overload` definitions (spec, "Overloads": "Invalid overload definitions").

- "at least two @overload-decorated definitions" must be present;
- in a source file (not a stub, not a Protocol or abstract method) the
  overloads must be followed by an implementation without @overload.
- "If one overload signature is decorated with @staticmethod or
  @classmethod, all overload signatures must be similarly decorated" (and
  the implementation too);
- "If a @final or @override decorator is supplied for a function with
  overloads, the decorator should be applied only to the overload
  implementation if it is present" (else only to the first overload).
Checked once per overloaded name, at its first definition. The overloads
against each other and against the implementation: overload_consistency.py.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import CLASSMETHOD, STATIC, decorator_names, is_overload, method_kind

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
    impl = implementations[0] if implementations else None
    kind = _kinds_agree(checker, overloads, impl)
    _check_final_override(checker, overloads, impl)
    # Only a run of overloads (no other definition in between) is compared.
    run = defs[defs.index(overloads[0]):defs.index(overloads[-1]) + 1]
    if kind is not None and len(overloads) > 1 and run == overloads:
        from veritype.check.overload_consistency import check_overload_signatures

        check_overload_signatures(checker, overloads, impl, kind)
    if implementations or checker.info.is_stub:
        return
    cls = scope.cls if scope.kind == "class" else None
    if cls is not None and cls.is_protocol:
        return
    if any("abc.abstractmethod" in decorator_names(ev, d, scope) for d in overloads):
        return
    # No exemption under `if TYPE_CHECKING:`: mypy reports there too (unlike
    # empty-body), even when an `else:` branch defines the function.
    checker.error(_at(overloads[0]), "An overloaded function outside a stub file must have an implementation", "no-overload-impl")


def _kinds_agree(checker: "ModuleChecker", overloads: list[FuncDef], impl: FuncDef | None) -> str | None:
    """The method kind shared by all definitions, or None (reported) if they differ."""
    ev, scope = checker.ev, checker.scope
    defs = overloads + ([impl] if impl is not None else [])
    if scope.kind != "class":
        return "function"
    names = [decorator_names(ev, d, scope) for d in defs]
    for label, group in (("classmethod", CLASSMETHOD), ("staticmethod", STATIC)):
        marks = {any(n in group for n in ns) for ns in names}
        if len(marks) > 1:
            checker.error(_at(overloads[0]), f'Overload does not consistently use the "@{label}" decorator on all function signatures.', "misc")
            return None
    kinds = {method_kind(ev, d, scope) for d in defs}
    return kinds.pop() if len(kinds) == 1 else None


_FINAL = ("typing.final", "typing_extensions.final")
_OVERRIDE = ("typing.override", "typing_extensions.override")


def _check_final_override(checker: "ModuleChecker", overloads: list[FuncDef], impl: FuncDef | None) -> None:
    ev, scope = checker.ev, checker.scope
    for label, group in (("final", _FINAL), ("override", _OVERRIDE)):
        marked = [d for d in overloads if any(n in group for n in decorator_names(ev, d, scope))]
        if not marked:
            continue
        if impl is not None:
            checker.error(_where(checker, marked[0], label, group), f"@{label} should be applied only to overload implementation", "misc")
        elif checker.info.is_stub:
            later = [d for d in marked if d is not overloads[0]]
            if later:
                checker.error(_where(checker, later[0], label, group), f"In a stub file @{label} must be applied only to the first overload", "misc")


def _where(checker: "ModuleChecker", node: FuncDef, label: str, group: tuple[str, ...]) -> ast.AST:
    """mypy reports a misplaced @final where the definition starts; it has no
    @override rule, so that one goes on the decorator itself."""
    if label == "final":
        return _at(node)
    for dec, name in zip(node.decorator_list, decorator_names(checker.ev, node, checker.scope)):
        if name in group:
            return dec
    return _at(node)


def _at(node: FuncDef) -> ast.AST:
    """Report at the first decorator, where the definition starts (as mypy does)."""
    return node.decorator_list[0] if node.decorator_list else node
