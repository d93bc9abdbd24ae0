"""The lines mypy skips as statically unreachable, for `unused-ignore`.

mypy decides some branches before checking (its semantic reachability): the
body of an `if` whose test is statically false (a `sys.platform` or
`sys.version_info` comparison, `TYPE_CHECKING`, the `always_true` /
`always_false` names), the branches after one that is statically true, and
the rest of a block after an `assert` that statically fails (`assert
sys.platform == "win32"`). It never checks those lines, and never reports an
`# type: ignore` there as unused: the ignore is for another platform or
version. The typing spec ("Version and platform checking") asks checkers to
skip such branches too.

The truth values follow mypy's `infer_condition_value`: a literal `True` or
`False` is not static (mypy checks `if False:` as unreachable by flow, and
does report an unused ignore there); `a or b` is `b` when `a` is false, else
`a` (unknown stays unknown), `a and b` likewise.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

Static = Callable[[ast.expr], "bool | None"]


def skipped_lines(tree: ast.Module, static: Static) -> set[int]:
    """The lines of `tree` in statically skipped branches, per `static` (the
    binder's evaluation of a condition)."""
    out: set[int] = set()
    _block(tree.body, _mypy_value(static), out)
    return out


def _mypy_value(static: Static) -> Static:
    def value(node: ast.expr) -> bool | None:
        if isinstance(node, ast.Constant):
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = value(node.operand)
            return None if inner is None else not inner
        if isinstance(node, ast.BoolOp):
            result = value(node.values[0])
            for right in node.values[1:]:
                # `a and b` is `b` when `a` is true; `a or b` is `b` when `a` is false.
                if result is (isinstance(node.op, ast.And)):
                    result = value(right)
                else:
                    break
            return result
        return static(node)

    return value


def _span(stmts: list[ast.stmt], out: set[int]) -> None:
    if stmts:
        out.update(range(stmts[0].lineno, (stmts[-1].end_lineno or stmts[-1].lineno) + 1))


def _block(body: list[ast.stmt], value: Static, out: set[int]) -> None:
    for i, stmt in enumerate(body):
        if isinstance(stmt, ast.Assert) and value(stmt.test) is False:
            _span(body[i + 1:], out)
            return
        if isinstance(stmt, ast.If):
            _if(stmt, value, out)
            continue
        for field in ("body", "orelse", "finalbody"):
            nested = getattr(stmt, field, None)
            if isinstance(nested, list) and nested and isinstance(nested[0], ast.stmt):
                _block(nested, value, out)
        for handler in getattr(stmt, "handlers", ()) or ():
            _block(handler.body, value, out)
        for case in getattr(stmt, "cases", ()) or ():
            _block(case.body, value, out)


def _if(stmt: ast.If, value: Static, out: set[int]) -> None:
    result = value(stmt.test)
    if result is False:
        _span(stmt.body, out)
        _block(stmt.orelse, value, out)
    elif result is True:
        _block(stmt.body, value, out)
        _span(stmt.orelse, out)
    else:
        _block(stmt.body, value, out)
        _block(stmt.orelse, value, out)
