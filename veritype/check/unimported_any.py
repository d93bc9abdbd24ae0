"""`--disallow-any-unimported`: mypy's "... becomes "T" due to an unfollowed import" [no-any-unimported].

mypy's docs ("--disallow-any-unimported"): "This flag disallows usage of types
that come from unfollowed imports (such types become aliases for Any)." mypy
reports, on the `def` line, the return type then each parameter whose
annotation holds such an Any (`Return type becomes ...`, `Argument 2 to "f"
becomes ...`, counting `self` as it is annotated or not), on an annotated
assignment `Type of variable becomes ...`, and on a `cast` `Target type of
cast becomes ...`; the type is shown with the Any in place.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import Type, holds_any

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

CODE = "no-any-unimported"


def check_statement(checker: "ModuleChecker", stmt: ast.stmt) -> None:
    if not checker.options.disallow_any_unimported:
        return
    done: set[int] = checker.__dict__.setdefault("_unimported_done", set())
    if id(stmt) in done:
        return  # a body walked twice (lookahead, attribute inference)
    done.add(id(stmt))
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _function(checker, stmt)
    elif isinstance(stmt, ast.AnnAssign):
        t = _evaluate(checker, stmt.annotation)
        if t is not None:
            checker.error(stmt, f'Type of variable becomes "{format_type(t)}" due to an unfollowed import', CODE)


def _evaluate(checker: "ModuleChecker", node: ast.expr) -> Type | None:
    """The type `node` spells, when it holds an Any from an unfollowed import."""
    try:
        t = checker.ev.type_exprs.evaluate(node, checker.scope)
    except RecursionError:
        return None
    return t if holds_any(t, "unimported") else None


def _function(checker: "ModuleChecker", fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    if fn.returns is not None:
        ret = _evaluate(checker, fn.returns)
        if ret is not None:
            checker.error(fn, f'Return type becomes "{format_type(ret)}" due to an unfollowed import', CODE)
    a = fn.args
    params = [*a.posonlyargs, *a.args, *(p for p in (a.vararg,) if p is not None), *a.kwonlyargs, *(p for p in (a.kwarg,) if p is not None)]
    for idx, p in enumerate(params):
        if p.annotation is None:
            continue
        t = _evaluate(checker, p.annotation)
        if t is not None:
            checker.error(fn, f'Argument {idx + 1} to "{fn.name}" becomes "{format_type(t)}" due to an unfollowed import', CODE)
