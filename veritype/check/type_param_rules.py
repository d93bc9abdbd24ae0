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
