"""Walks over a tree's statements only, never its expressions.

Statements (and the except handlers and match cases that hold them) sit only
in the statement lists of other statements, so a rule that looks for a kind
of statement (`global`, `del`, `self.x = ...`) need not visit the far more
numerous expression nodes that `ast.walk` visits.

Those lists are the fields `body`, `orelse`, `finalbody`, `handlers` and
`cases` of statements, handlers, match cases and modules (elsewhere `body`
and `orelse` name expressions: `Lambda`, `IfExp`); which of them a node
class has is looked up once per class, so no other field is read.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_BLOCK_NAMES = ("body", "orelse", "finalbody", "handlers", "cases")
_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case, ast.Module, ast.Interactive)
# Node class -> its fields holding statements (handlers, cases), in `_fields` order.
_BLOCKS: dict[type, tuple[str, ...]] = {}
#: `block_fields`'s memo, for a loop that looks a class up in it inline
#: (`BLOCK_FIELDS[kind] if kind in BLOCK_FIELDS else block_fields(kind)`).
BLOCK_FIELDS = _BLOCKS
#: The statement classes that hold no block of statements (most statements:
#: assignments, expressions, imports, ...): a walk for blocks skips them by class.
SIMPLE_STATEMENTS = frozenset(kind for kind in ast.stmt.__subclasses__()
                              if not set(_BLOCK_NAMES) & set(kind._fields))


def block_fields(kind: type) -> tuple[str, ...]:
    """The fields of a node class holding statements (or the handlers and
    match cases holding them), in `_fields` order; () for the others."""
    fields = _BLOCKS.get(kind)
    return fields if fields is not None else _blocks(kind)


def _blocks(kind: type) -> tuple[str, ...]:
    fields = _BLOCKS.get(kind)
    if fields is None:
        fields = tuple(f for f in kind._fields if f in _BLOCK_NAMES) if issubclass(kind, _HOLDERS) else ()
        _BLOCKS[kind] = fields
    return fields


def walk_statements(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk(node)` with only the statements (and the handlers and match
    cases that hold them): the same nodes of those kinds in the same
    breadth-first order, without visiting the expressions.
    """
    todo = deque([node])
    blocks = _BLOCKS
    while todo:
        n = todo.popleft()
        kind = type(n)
        fields = blocks[kind] if kind in blocks else _blocks(kind)
        for name in fields:
            value = getattr(n, name, None)
            if value:
                todo.extend(value)
        yield n


def scope_statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The statements of one scope's body, at any depth, with the nested
    function and class definitions but not their bodies (their own scopes)."""
    stack: list[ast.AST] = list(body)
    blocks = _BLOCKS
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        kind = type(n)
        fields = blocks[kind] if kind in blocks else _blocks(kind)
        for name in fields:
            value = getattr(n, name, None)
            if value:
                stack.extend(value)


def assigned_targets(stmt: ast.AST) -> list[ast.expr]:
    """The targets a statement assigns to: `=`, annotated and augmented
    assignments, `for` and `with ... as` (not a walrus's, a comprehension's,
    nor `del`'s)."""
    if isinstance(stmt, ast.Assign):
        return stmt.targets
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        return [stmt.target]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    return []
