"""no-any-return where the declared return type is a variable used as a type.

`def h(...) -> cl:` with `cl` a variable (cattrs defines hooks so in a loop
over classes) is a `[valid-type]` error ("Variable "cl" is not valid as a
type"); mypy 2.4.1 then keeps the name as an unbound type, which Any is not a
proper subtype of, so under `warn_return_any` returning Any there is still
`Returning Any from function declared to return cl?` (mypy spells an unbound
name with a `?`, unquoted). veritype types the annotation as an error Any
(`ANY_UNBOUND_NAME`, types.model); this rule gives the report for the bare
name only (a variable inside a generic, `list[c]`, mypy shows as
`"list[c?]"`: not reported here, which misses an error rather than making one).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def unbound_return_any(checker: "ModuleChecker", stmt: ast.Return, func: ast.AST | None) -> None:
    """Report `stmt`, returning Any from `func` whose return annotation is a bare variable name."""
    returns = getattr(func, "returns", None)
    if type(returns) is ast.Name:
        checker.error(stmt, f"Returning Any from function declared to return {returns.id}?", "no-any-return")
