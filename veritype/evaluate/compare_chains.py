"""Chained comparisons as narrowing tests: `a is b is None`, `x == y == 0`.

Python evaluates `a op1 b op2 c` as `a op1 b and b op2 c`. mypy narrows a chain
as that conjunction, and treats a run of `is` (or of `==`) operators as one
group whose operands are all equal: in `type(a) is type(b) is Data` both `a`
and `b` become `Data`, in `min_value == min_arg == 0` both lose their None.
This module owns only the rewriting (syntax to syntax); `narrowing` narrows
the result as it narrows any `and`.
"""

from __future__ import annotations

import ast

# Operators whose runs are treated as transitive (each operand equals every other).
_TRANSITIVE = (ast.Is, ast.Eq)


def chain_as_conjunction(test: ast.Compare) -> ast.expr:
    """`test` (two or more operators) as an `and` of one-operator comparisons:
    adjacent pairs, plus every pair inside a run of `is` or of `==`."""
    operands = [test.left, *test.comparators]
    parts: list[ast.expr] = []
    i = 0
    while i < len(test.ops):
        op = test.ops[i]
        j = i
        if isinstance(op, _TRANSITIVE):
            while j + 1 < len(test.ops) and type(test.ops[j + 1]) is type(op):
                j += 1
        group = operands[i:j + 2]
        if len(group) == 2:
            parts.append(_compare(test, group[0], op, group[1]))
        else:
            for a in range(len(group)):
                for b in range(a + 1, len(group)):
                    parts.append(_compare(test, group[a], op, group[b]))
        i = j + 1
    return ast.copy_location(ast.BoolOp(op=ast.And(), values=parts), test)


def _compare(test: ast.Compare, left: ast.expr, op: ast.cmpop, right: ast.expr) -> ast.expr:
    return ast.copy_location(ast.Compare(left=left, ops=[op], comparators=[right]), test)
