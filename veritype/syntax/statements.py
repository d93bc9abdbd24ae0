"""Walks over a tree's statements only, never its expressions.

Statements (and the except handlers and match cases that hold them) sit only
in the statement lists of other statements, so a rule that looks for a kind
of statement (`global`, `del`, `self.x = ...`) need not visit the far more
numerous expression nodes that `ast.walk` visits.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

_STRUCTURAL = (ast.stmt, ast.excepthandler, ast.match_case)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def walk_statements(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk(node)` with only the statements (and the handlers and match
    cases that hold them): the same nodes of those kinds in the same
    breadth-first order, without visiting the expressions.
    """
    todo = deque([node])
    while todo:
        n = todo.popleft()
        for name in n._fields:
            value = getattr(n, name, None)
            if type(value) is list:
                todo.extend(item for item in value if isinstance(item, _STRUCTURAL))
        yield n


def scope_statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The statements of one scope's body, at any depth, with the nested
    function and class definitions but not their bodies (their own scopes)."""
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        for name in n._fields:
            value = getattr(n, name, None)
            if type(value) is list:
                stack.extend(item for item in value if isinstance(item, _STRUCTURAL))
