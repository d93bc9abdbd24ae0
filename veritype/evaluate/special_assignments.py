"""Assignments with special meaning: TypeVar/ParamSpec declarations, type aliases.

These are checked as type expressions (with their errors reported) instead of
as ordinary values.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.declarations import alias_info, typevar_declaration

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def special_assignment(checker: "ModuleChecker", stmt: ast.Assign) -> bool:
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
        return False
    name = stmt.targets[0].id
    sym = checker.scope.table.get(name)
    if sym is None or sym.node is not stmt:
        return False
    ev = checker.ev
    tv = typevar_declaration(ev, sym, checker.scope)
    if tv is not None:
        call = stmt.value
        assert isinstance(call, ast.Call)
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str) and call.args[0].value != name:
            kind = tv.kind
            label = {"typevar": "TypeVar", "paramspec": "ParamSpec", "typevartuple": "TypeVarTuple"}[kind]
            checker.error(stmt, f'String argument 1 "{call.args[0].value}" to {label}(...) does not match variable name "{name}"', "misc")
        for arg in call.args[1:]:
            ev.type_exprs.evaluate(arg, checker.scope, report=checker.type_report())
        for kw in call.keywords:
            if kw.arg == "bound":
                ev.type_exprs.evaluate(kw.value, checker.scope, report=checker.type_report())
            elif kw.arg == "default":
                ev.type_exprs.evaluate_default(kw.value, checker.scope, tv.kind, report=checker.type_report())
        return True
    from veritype.evaluate.newtype import newtype_call, newtype_problems

    call = newtype_call(ev, stmt, checker.scope)
    if call is not None:
        for node, msg in newtype_problems(ev, call, name, checker.scope):
            checker.error(node, msg, "valid-newtype")
        return True
    from veritype.evaluate.functional_classes import functional_class

    made = functional_class(ev, sym, checker.scope)
    if made is not None:
        # `P = NamedTuple("P", [...])`: the name is the class, not the call's value.
        assert isinstance(stmt.value, ast.Call)
        first = stmt.value.args[0]
        if made.functional_enum_members is not None and isinstance(first, ast.Constant) and first.value != name:
            # The spec leaves the check optional; mypy makes it, and its users expect it.
            base = made.bases[0].info.fullname if made.bases else "enum.Enum"
            checker.error(first, f'String argument 1 "{first.value}" to {base}(...) does not match variable name "{name}"', "misc")
        for arg in stmt.value.args[1:]:
            checker.infer(arg) if not isinstance(arg, (ast.List, ast.Tuple, ast.Dict)) else None
        return True
    if checker.scope.kind != "function" and alias_info(ev, sym, checker.scope) is not None:
        ev.type_exprs.evaluate(stmt.value, checker.scope, report=checker.type_report())
        return True
    return False


def special_annassign(checker: "ModuleChecker", stmt: ast.AnnAssign) -> bool:
    return False
