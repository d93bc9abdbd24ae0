"""Keys of narrowable references: the flow layer stores a narrowed type under `x`, `x.a.b`,
`x[0]` or `x["k"]`.
"""

from __future__ import annotations

import ast


def expr_key(node: ast.expr) -> str | None:
    """A stable key for a narrowable reference: `x`, `x.a.b`, `x[0]`, `x["k"]`."""
    # Dispatch by exact node class: ast nodes are never subclassed, and this runs
    # for every name, attribute and subscript inferred (400k times on the bench).
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        # The base of most attributes read is a name (`self.x`, `obj.m`): its key
        # is read here, not asked of this function again.
        base = node.value.id if type(node.value) is ast.Name else expr_key(node.value)
        return f"{base}.{node.attr}" if base else None
    if type(node) is ast.Subscript:
        base = node.value.id if type(node.value) is ast.Name else expr_key(node.value)
        if not base:
            return None
        idx = node.slice
        if type(idx) is ast.Constant:
            value = idx.value
            if type(value) is int or type(value) is str:  # not bool
                return f"{base}[{value!r}]"
        elif type(idx) is ast.UnaryOp and type(idx.op) is ast.USub and type(idx.operand) is ast.Constant and isinstance(idx.operand.value, int):
            return f"{base}[{-idx.operand.value!r}]"
    return None
