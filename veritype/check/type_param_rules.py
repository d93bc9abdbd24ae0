"""Rules for a generic class's type parameter list (PEP 696 defaults, scoping of type variables).

Spec, "Defaults for type parameters": "a type parameter with no default cannot
follow one with a default value"; "A TypeVar that immediately follows a
TypeVarTuple is not allowed to have a default"; a default referring to
another type parameter: "T1 must be used before T2 in the parameter list of
the generic", and "Using a type parameter from an outer scope as a default is
not supported". Messages and codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import TypeVarType
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_type_param_list(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    params = info.type_vars
    defaulted = None
    seen: set[str] = set()
    for i, p in enumerate(params):
        if p.default is not None:
            defaulted = defaulted or p
            if p.kind == "typevar" and i > 0 and params[i - 1].kind == "typevartuple":
                checker.error(node, "A type variable with default cannot follow TypeVarTuple", "type-var")
            refs = {tv.fullname for tv in type_vars_in(p.default).values() if tv.kind != "self"}
            if refs - seen:
                checker.error(node, f'Type parameter "{p.name}" has a default type that refers to one or more type variables that are out of scope', "misc")
        elif defaulted is not None and p.kind != "typevartuple":
            checker.error(node, f'"{p.name}" cannot appear after "{defaulted.name}" in type parameter list because it has no default type', "misc")
        seen.add(p.fullname)


def check_pep695_params(checker: "ModuleChecker", node: ast.AST) -> None:
    """Spec, "Type parameter scopes" and PEP 695: a bound is a type expression and a
    constraint list a literal tuple of two or more, neither generic ("the bound
    ... cannot be a generic type"); evaluated where the statement stands (names of
    the same list are not visible there). The traditional TypeVar's messages."""
    params = getattr(node, "type_params", None) or []
    outer = checker.scope
    for p in params:
        # PEP 695: a type parameter may not reuse the name of one of an enclosing scope.
        if outer.lookup_type_param(p.name) is not None:
            checker.error(node, f'"{p.name}" already defined as a type parameter', "misc")
    if params and isinstance(node, ast.ClassDef):
        # PEP 695: with a type parameter list, `Generic[...]` / `Protocol[...]` bases
        # are not allowed (a runtime error); mypy's messages.
        for base in node.bases:
            if isinstance(base, ast.Subscript) and isinstance(base.value, (ast.Name, ast.Attribute)):
                ref = checker.ev.resolve_expr(base.value, checker.scope)
                if ref is not None and ref.kind == "special" and ref.fullname.rpartition(".")[2] == "Generic":
                    checker.error(base, "Generic[...] base class is redundant", "misc")
                elif ref is not None and ref.kind == "special" and ref.fullname.rpartition(".")[2] == "Protocol":
                    checker.error(base, 'No arguments expected for "Protocol" base class', "misc")
    for p in params:
        bound = getattr(p, "bound", None)
        if bound is None:
            continue
        exprs = bound.elts if isinstance(bound, ast.Tuple) else [bound]
        if isinstance(bound, ast.Tuple) and len(bound.elts) < 2:
            checker.error(bound, "Type variable must have at least two constrained types", "misc")
            continue
        for e in exprs:
            t = checker.ev.type_exprs.evaluate(e, checker.scope, report=checker.type_report())
            if any(tv.kind != "self" for tv in type_vars_in(t).values()):
                msg = "TypeVar constraint type cannot be parametrized by type variables" if isinstance(bound, ast.Tuple) else 'TypeVar "bound" must be a type without type variables'
                checker.error(e, msg, "misc")


def check_undeclared_type_vars(checker: "ModuleChecker", node: ast.AST, found: list[TypeVarType], own_scope: str) -> None:
    """Spec, "Generics" (PEP 695 compatibility): with a type parameter list, a
    traditional TypeVar may not be used as a parameter of the same definition
    (bound here, not by an enclosing scope): mypy's 'All type parameters should be declared'."""
    if not getattr(node, "type_params", None):
        return
    declared = {p.name for p in node.type_params}  # type: ignore[attr-defined]
    for tv in found:
        if tv.kind != "self" and tv.scope == own_scope and tv.name not in declared and tv.fullname != f"{own_scope}.{tv.name}":
            checker.error(node, f'All type parameters should be declared ("{tv.name}" not declared)', "valid-type")
            return
