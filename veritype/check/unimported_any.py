"""`--disallow-any-unimported`: mypy's "... becomes "T" due to an unfollowed import" [no-any-unimported].

mypy's docs ("--disallow-any-unimported"): "This flag disallows usage of types
that come from unfollowed imports (such types become aliases for Any)." mypy
reports, on the `def` line, the return type then each parameter whose
annotation holds such an Any (`Return type becomes ...`, `Argument 2 to "f"
becomes ...`, counting `self` as it is annotated or not), on an annotated
assignment `Type of variable becomes ...`, on a `cast` `Target type of
cast becomes ...`, on a class `Base type becomes ...` (`Base type X becomes
"Any"` for a base that is the Any itself); the type is shown with the Any in
place.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import AnyType, Type, holds_any
from veritype.syntax.walk import child_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

CODE = "no-any-unimported"


def check_statement(checker: "ModuleChecker", stmt: ast.stmt) -> None:
    if not checker.options.disallow_any_unimported:
        return
    done = checker.unimported_any_done
    if id(stmt) in done:
        return  # a body walked twice (lookahead, attribute inference)
    done[id(stmt)] = None
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        _function(checker, stmt)
    elif isinstance(stmt, ast.ClassDef):
        for base in stmt.bases:
            t = _evaluate(checker, base)
            if isinstance(t, AnyType):
                # mypy names a base that is the Any itself by its source text.
                checker.error(stmt, f'Base type {ast.unparse(base)} becomes "Any" due to an unfollowed import', CODE)
            elif t is not None:
                checker.error(stmt, f'Base type becomes "{format_type(t)}" due to an unfollowed import', CODE)
    elif isinstance(stmt, ast.AnnAssign):
        t = _evaluate(checker, stmt.annotation)
        if t is not None:
            checker.error(stmt, f'Type of variable becomes "{format_type(t)}" due to an unfollowed import', CODE)
    for call in _casts(checker, stmt):
        t = _evaluate(checker, call.args[0])
        if t is not None:
            checker.error(call, f'Target type of cast becomes "{format_type(t)}" due to an unfollowed import', CODE)


def _casts(checker: "ModuleChecker", stmt: ast.stmt) -> list[ast.Call]:
    """The `cast(T, x)` calls in the statement's own expressions (not in the
    statements nested in it, which are walked themselves)."""
    out: list[ast.Call] = []
    todo: list[ast.AST] = [c for c in child_nodes(stmt) if not isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case))]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Call) and len(n.args) == 2 and isinstance(n.func, (ast.Name, ast.Attribute)):
            ref = checker.ev.resolve_expr(n.func, checker.scope)
            if ref is not None and ref.fullname in ("typing.cast", "typing_extensions.cast"):
                out.append(n)
        todo.extend(child_nodes(n))
    return out


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
