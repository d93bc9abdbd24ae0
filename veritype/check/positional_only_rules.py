"""The historical positional-only parameters (typing spec, "Historical and
deprecated features", "Positional-only parameters").

"all parameters with names that begin but don't end with __ are assumed to be
positional-only", and "Consistent with PEP 570 syntax, positional-only
parameters cannot appear after parameters that accept keyword arguments. Type
checkers should enforce this requirement". A method's first parameter (`self`,
`cls`) is bound, never passed by keyword, so it does not count; a `def` that
uses PEP 570's `/` is outside the convention altogether. mypy has no such
rule; the message is veritype's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_historical_positional(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    args = node.args
    if args.posonlyargs:
        return
    params = list(args.args)
    if checker.scope.kind == "class" and params and not _is_staticmethod(node):
        params = params[1:]
    keyword_ok: ast.arg | None = None
    for a in params:
        if a.arg.startswith("__") and not a.arg.endswith("__"):
            if keyword_ok is not None:
                checker.error(a, f'Positional-only parameter "{a.arg}" cannot follow parameter "{keyword_ok.arg}", which accepts a keyword argument', "misc")
                return
        elif keyword_ok is None:
            keyword_ok = a


def _is_staticmethod(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for d in node.decorator_list:  # (a loop, not `any()` over a generator: asked for every def)
        if isinstance(d, ast.Name) and d.id == "staticmethod":
            return True
    return False
