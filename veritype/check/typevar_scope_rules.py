"""Rules for type variables used outside any scope that binds them.

Spec, "Generics" ("Scoping rules for type variables"): "A type variable used
in a generic function could be inferred to represent different types in the
same code block"; "Unbound type variables should not appear in the bodies of
generic functions, or in the class bodies apart from method definitions",
and a type variable at module level (outside an alias) is bound by nothing.
A variable annotation naming a type variable that no enclosing function or
class binds is reported (mypy's message and code).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Type
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_unbound_in_annotation(checker: "ModuleChecker", node: ast.expr, declared: Type) -> None:
    if checker.info.is_stub:
        return
    for tv in type_vars_in(declared).values():
        if tv.kind in ("typevar", "paramspec", "typevartuple") and tv.scope == "":
            checker.error(node, f'Type variable "{tv.fullname}" is unbound', "valid-type")
            return
