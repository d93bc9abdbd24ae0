"""Narrowed types that a nested function body may keep from its enclosing function.

A nested function may run later than its definition, so in general the
narrowing of an enclosing variable at the `def` says nothing about its value
when the body runs. But if the enclosing function never rebinds the variable
after the `def` (no assignment later in the body, no `nonlocal` rebinding
it), the value the body sees is the one it had at the `def`, so the narrowing
holds. mypy keeps narrowing on the same rule, which is textual: a binding
earlier in a loop around the `def` (which runs again) does not count;
without it, the common

    if cb is None:
        return
    def wrapper(): return cb()

is a false positive.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Type
from veritype.syntax.statements import walk_statements

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def carried_narrowings(ev: "Evaluator", outer: dict[str, Type], nested: "Scope") -> dict[str, Type]:
    """The narrowed bare names of `outer` (the flow at the nested `def`) that hold in `nested`."""
    node = nested.function
    if nested.kind != "function" or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) or nested.parent is None:
        return {}
    out: dict[str, Type] = {}
    for key, t in outer.items():
        if "." in key or "[" in key or key in nested.table:
            continue
        hit = ev.lookup(key, nested.parent)
        if hit is None:
            continue
        sym, defining = hit
        if defining.kind != "function" or not _fixed_after(sym.decls, defining.function, key, node):
            continue
        out[key] = t
    return out


def _fixed_after(decls: list[ast.AST], func: object, name: str, target: ast.AST) -> bool:
    """Whether no binding of `name` in `func` can run after `target` (a nested def) is defined."""
    start = getattr(target, "lineno", None)
    if start is None or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return False
    lines: list[int] = []
    for d in decls:
        line = getattr(d, "lineno", None)
        end = getattr(d, "end_lineno", line)
        if isinstance(d, (ast.With, ast.AsyncWith)) and d.items:
            # `with f() as x:` binds x on entry: its items end the binding, not
            # the block, which may hold the def (trio's test_socket).
            end = max(i.end_lineno or i.lineno for i in (item.optional_vars or item.context_expr for item in d.items))
        elif isinstance(d, (ast.For, ast.AsyncFor)):
            end = d.target.end_lineno or d.target.lineno  # `for x in xs:` binds at its target
        if line is None or end is None or end >= start:
            return False  # bound at or after the def (or a `for` whose body holds the def)
        lines.append(line)
    nonlocals, _loops = _walk_facts(func)
    if name in nonlocals:
        return False  # some nested function may rebind it
    # A binding earlier in a loop that holds the def runs again after it, but
    # mypy keeps the narrowing there all the same (its rule is textual: no
    # binding after the def), and so do we, to report nothing mypy does not.
    return True


def _walk_facts(func: ast.AST) -> tuple[frozenset[str], list[tuple[int, int]]]:
    """The names under `nonlocal` anywhere in `func`, and the line spans of its loops.

    Walked once per function and kept on the node: a function with many
    narrowed names at many nested defs would otherwise be walked for each.
    """
    facts = getattr(func, "_vt_closure_facts", None)
    if facts is None:
        names: set[str] = set()
        loops: list[tuple[int, int]] = []
        # Both are statements: the expressions need no visit (same order).
        for n in walk_statements(func):
            if isinstance(n, ast.Nonlocal):
                names.update(n.names)
            elif isinstance(n, _LOOPS):
                loops.append((n.lineno, n.end_lineno or n.lineno))
        facts = (frozenset(names), loops)
        func._vt_closure_facts = facts  # type: ignore[attr-defined]
    return facts
