"""Shapes of function bodies read from the syntax tree alone."""

from __future__ import annotations

import ast


def is_trivial_body(body: list[ast.stmt]) -> bool:
    """A placeholder body (`...`, `pass`, `raise NotImplementedError`, after an
    optional docstring). The spec gives such bodies meaning: protocol members
    and abstract methods with one are not implementations (calling one through
    `super()` is mypy's `[safe-super]`)."""
    # One test of each statement's class (a parse's nodes are never of a
    # subclass): asked of every def by the interface digest and the release.
    for i, s in enumerate(body):
        kind = type(s)
        if kind is _Pass:
            continue
        if kind is _Expr:
            value = s.value  # type: ignore[attr-defined]
            if type(value) is _Constant and (value.value is Ellipsis or (i == 0 and isinstance(value.value, str))):
                continue
            return False
        if kind is _Raise:
            exc = s.exc.func if type(s.exc) is _Call else s.exc  # type: ignore[attr-defined]
            if type(exc) is _Name and exc.id == "NotImplementedError":
                continue
        return False
    return True


_Pass, _Expr, _Constant, _Raise, _Call, _Name = ast.Pass, ast.Expr, ast.Constant, ast.Raise, ast.Call, ast.Name
