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
