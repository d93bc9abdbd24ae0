"""Shapes of function bodies read from the syntax tree alone."""

from __future__ import annotations

import ast


def is_trivial_body(body: list[ast.stmt]) -> bool:
    """A placeholder body (`...`, `pass`, `raise NotImplementedError`, after an
    optional docstring). The spec gives such bodies meaning: protocol members
    and abstract methods with one are not implementations (calling one through
    `super()` is mypy's `[safe-super]`)."""
    for i, s in enumerate(body):
        if isinstance(s, ast.Pass):
            continue
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and (s.value.value is Ellipsis or (i == 0 and isinstance(s.value.value, str))):
            continue
        if isinstance(s, ast.Raise):
            exc = s.exc.func if isinstance(s.exc, ast.Call) else s.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True
