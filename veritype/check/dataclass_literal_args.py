"""`@dataclass(frozen=FLAG)`: the flags must be written True or False (literal-required).

mypy decides a dataclass's shape (frozen, ordered, slotted...) from its
decorator's arguments while analysing the class, so it requires `True` or
`False` written out for `init`, `eq`, `order`, `frozen`, `match_args`,
`kw_only` and `slots`: `"frozen" argument must be a True or False literal`
[literal-required] on the value (a Final name does not do). veritype checks
the stdlib decorator (`dataclasses.dataclass`), where mypy's rule is plain.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_LITERAL_FLAGS = ("init", "eq", "order", "frozen", "match_args", "kw_only", "slots")


def check_dataclass_flags(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    for dec in node.decorator_list:
        if not (isinstance(dec, ast.Call) and isinstance(dec.func, (ast.Name, ast.Attribute))):
            continue
        ref = checker.ev.resolve_expr(dec.func, checker.scope)
        if ref is None or ref.fullname != "dataclasses.dataclass":
            continue
        for kw in dec.keywords:
            if kw.arg in _LITERAL_FLAGS and not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool)):
                checker.error(kw.value, f'"{kw.arg}" argument must be a True or False literal', "literal-required")
