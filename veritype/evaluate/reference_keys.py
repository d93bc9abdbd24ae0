"""Keys of narrowable references: the flow layer stores a narrowed type under `x`, `x.a.b`,
`x[0]` or `x["k"]`.
"""

from __future__ import annotations

import ast


def expr_key(node: ast.expr) -> str | None:
    """A stable key for a narrowable reference: `x`, `x.a.b`, `x[0]`, `x["k"]`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = expr_key(node.value)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Subscript):
        base = expr_key(node.value)
        idx = node.slice
        if base and isinstance(idx, ast.Constant) and isinstance(idx.value, (int, str)) and not isinstance(idx.value, bool):
            return f"{base}[{idx.value!r}]"
        if base and isinstance(idx, ast.UnaryOp) and isinstance(idx.op, ast.USub) and isinstance(idx.operand, ast.Constant) and isinstance(idx.operand.value, int):
            return f"{base}[{-idx.operand.value!r}]"
    return None
