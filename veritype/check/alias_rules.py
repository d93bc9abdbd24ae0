"""Rules checked where a type alias is defined.

Spec, "Type aliases": the value of an alias (implicit, `TypeAlias`, the PEP
695 `type` statement, or `TypeAliasType(...)`) must be a valid type
expression; an alias must not be defined by itself ("circular"
definitions: `type A = A`, `type A = B; type B = A`, `A = Union["A", int]`);
the `type` statement's value may use only its own type parameters, not
traditional TypeVars; `TypeAliasType` needs its variable's name, a tuple
literal of `type_params` that lists every type variable of the value.
Messages follow mypy's where it has one.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate import declarations as D
from veritype.semantic.symbols import Symbol
from veritype.types.substitute import type_vars_in
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def report_circular(checker: "ModuleChecker", sym: Symbol, node: ast.AST) -> bool:
    """Report a circular alias at `node`; True when it was one."""
    if not D.alias_is_circular(checker.ev, sym, checker.scope):
        return False
    checker.error(node, f'Type alias "{sym.name}" has a circular definition (it refers to itself, not inside a type argument)', "misc")
    return True


def check_type_statement(checker: "ModuleChecker", stmt: ast.AST) -> None:
    """`type A[T] = value` (PEP 695)."""
    sym = checker.scope.table.get(stmt.name.id)  # type: ignore[attr-defined]
    if sym is None:
        return
    if sym.node is not stmt:
        first = sym.node
        if isinstance(first, ast.stmt) and type(first).__name__ == "TypeAlias" and stmt in sym.decls:
            # A `type` statement binds its name once (mypy: no-redef); the first counts.
            checker.error(stmt, f'Name "{sym.name}" already defined on line {first.lineno}', "no-redef")
        return
    ev = checker.ev
    if D.alias_info(ev, sym, checker.scope) is None or report_circular(checker, sym, stmt):
        return
    inner = D.alias_value_scope(ev, sym, checker.scope)
    value = stmt.value  # type: ignore[attr-defined]
    target = ev.type_exprs.evaluate(value, inner, report=checker.type_report(), alias_value=True)
    # Spec ("Generics", PEP 695): a `type` statement "that uses traditional
    # type variables" (not its own parameters) is an error.
    old = [tv.name for tv in type_vars_in(target).values() if tv.scope == ""]
    for name in dict.fromkeys(old):
        checker.error(value, f'All type parameters should be declared ("{name}" not declared)', "valid-type")


def check_alias_type_call(checker: "ModuleChecker", sym: Symbol, call: ast.Call) -> None:
    """`A = TypeAliasType("A", value, type_params=(T,))`."""
    from veritype.evaluate.alias_calls import call_parts, declared_params

    ev = checker.ev
    parts = call_parts(call)
    if isinstance(parts.name, ast.Constant) and isinstance(parts.name.value, str) and parts.name.value != sym.name:
        checker.error(parts.name, f'String argument 1 "{parts.name.value}" to TypeAliasType(...) does not match variable name "{sym.name}"', "valid-type")
    if parts.type_params is not None and declared_params(ev, checker.scope, parts.type_params) is None:
        checker.error(parts.type_params, "Tuple literal expected as the type_params argument to TypeAliasType", "misc")
    if parts.value is None:
        return
    for node in _outside_strings(parts.value):
        if isinstance(node, ast.Name) and node.id == sym.name:
            # The value is evaluated by the call, before the name is bound.
            checker.error(node, f'Cannot resolve name "{sym.name}" (possible cyclic definition)', "misc")
            return
    if report_circular(checker, sym, call):
        return
    from veritype.evaluate.type_expr import TypeContext

    listed = declared_params(ev, checker.scope, parts.type_params) or []
    ctx = TypeContext(checker.scope, report=checker.type_report(), alias_value=True)
    for tv in listed:
        ctx.bound[tv.fullname] = tv
    target = ev.type_exprs.eval(parts.value, ctx)
    names = {tv.fullname for tv in listed}
    stray = [tv.name for tv in type_vars_in(target).values() if tv.scope == "" and tv.fullname not in names]
    if parts.type_params is None or declared_params(ev, checker.scope, parts.type_params) is not None:
        for name in dict.fromkeys(stray):
            checker.error(parts.value, f'Type variable "{name}" is not included in type_params', "valid-type")


def _outside_strings(node: ast.expr) -> list[ast.expr]:
    """The sub-expressions of `node` that are evaluated at runtime (not inside a
    string forward reference)."""
    return [n for n in walk_nodes(node) if isinstance(n, ast.expr)]
