"""Small questions about the shape of the syntax tree, shared by the walks."""

from __future__ import annotations

import ast


def elif_branch(node: ast.If) -> ast.If | None:
    """The `elif` of an `if` (an `If` alone in its `orelse`), or None.

    Walks step along an elif chain with this in a loop rather than recursing
    through `orelse`, so that a chain of any length costs no stack (issue #19:
    a 500-branch chain raised RecursionError in the binder).
    """
    if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
        return node.orelse[0]
    return None


def attribute_chain(node: ast.expr) -> list[str] | None:
    """The names of a dotted reference, outermost first (`a.b.c` -> `["a", "b",
    "c"]`; a plain name is one), or None when it does not start at a name
    (`f().x`)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def is_unannotated_def(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A def with no annotation at all (nor a type comment): what mypy leaves
    unchecked without `check_untyped_defs`."""
    if fn.returns is not None or fn.type_comment is not None:
        return False  # (most defs: no list of the parameters made)
    a = fn.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []), *([a.kwarg] if a.kwarg else [])]
    return all(p.annotation is None for p in params)


def empty_display_kind(value: ast.expr) -> str | None:
    """'list' / 'dict' / 'set' for `[]`, `{}`, `set()`, else None."""
    # (Asked of every assigned value: exact node classes, ast nodes are never subclassed.)
    cls = type(value)
    if cls is ast.Call:
        func = value.func  # type: ignore[attr-defined]
        if type(func) is ast.Name and func.id in ("set", "list", "dict") and not value.args and not value.keywords:  # type: ignore[attr-defined]
            return func.id
        return None
    if cls is ast.List:
        return None if value.elts else "list"  # type: ignore[attr-defined]
    if cls is ast.Dict:
        return None if value.keys else "dict"  # type: ignore[attr-defined]
    return None
