"""mypy's optional `truthy-iterable`: an `Iterable` tested for truth.

An object that is only known to be an `Iterable` may define neither
`__bool__` nor `__len__` (a generator), and is then always true, empty or
not. With the code enabled, mypy 2.4.1 reports a value of type exactly
`Iterable[T]` in a boolean context (the places evaluate.truthy_function
lists): `"items" has type "Iterable[int]" which can always be true in boolean
context. Consider using "Collection[int]" instead.`. The subject is named as
mypy names it: a local by its name, another variable by its full name, an
attribute as `Member "x"`, a call by its callee (`"mod.f" returns`, `"meth"
returns` for a method, `Call returns` otherwise), anything else as
`Expression`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import Instance

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def check_truthy_iterable(ex: "ExprEvaluator", node: ast.expr, t: Instance) -> None:
    from veritype.diagnostics.enabled import code_enabled

    if ex.scope is None or not code_enabled(ex.ev.program.options.for_module(ex.scope.module.name), "truthy-iterable"):
        return
    if isinstance(node, ast.NamedExpr):
        node = node.target
    subject = _subject(ex, node)
    typ = format_type(t)
    collection = format_type(t).replace("Iterable[", "Collection[", 1)
    verb = "returns" if isinstance(node, ast.Call) else "has type"
    ex.error(node, f'{subject} {verb} "{typ}" which can always be true in boolean context. Consider using "{collection}" instead.', "truthy-iterable")


def _subject(ex: "ExprEvaluator", node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f'Member "{node.attr}"'
    if isinstance(node, ast.Name):
        return f'"{_fullname(ex, node)}"'
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            ref = ex.ev.resolve_expr(node.func, ex.scope) if ex.scope is not None else None
            if ref is not None and ref.kind == "module":
                return f'"{ref.fullname}"'
            return f'"{node.func.attr}"'
        if isinstance(node.func, ast.Name):
            return f'"{_fullname(ex, node.func)}"'
        return "Call"
    return "Expression"


def _fullname(ex: "ExprEvaluator", node: ast.Name) -> str:
    """A function's local (or parameter) by its name, a module or class member in full."""
    ref = ex.ev.resolve_expr(node, ex.scope) if ex.scope is not None else None
    if ref is None or not ref.fullname or (ref.scope is not None and ref.scope.kind == "function"):
        return node.id
    return ref.fullname
