"""`class K(list)`, `class K(L)` after `L = list`: a generic base class without
type arguments, under --disallow-any-generics (mypy 2.4.1: `Missing type
arguments for generic type "list"` [type-arg] at the base; see
evaluate.bare_generic_aliases for the rule and the names mypy gives)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.bare_generic_aliases import bare_generic_name

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_bare_generic_bases(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    if not checker.options.disallow_any_generics or checker.info.is_stub:
        return
    for base in node.bases:
        name = bare_generic_name(checker.ev, base, checker.scope)
        if name is not None:
            checker.error(base, f'Missing type arguments for generic type "{name}"', "type-arg")
