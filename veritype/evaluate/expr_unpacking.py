"""Unpacking in expressions: a value's items spread over `n` targets (`a, *b = t`), a
comprehension's targets bound, the exception instances an `except` clause names.
ExprEvaluator's methods (`self` named `ex`), as in expr_displays and expr_access.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expr_access import as_tuple
from veritype.types.join import join_all, widen_literals
from veritype.types.model import (
    ANY_ERROR, AnyType, Instance, NeverType, TupleType, Type, TypeType, UnionType, UnpackType,
    make_union, union_items,
)
from veritype.evaluate.str_unpack import check_str_unpack

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def _holds_unpack(t: TupleType) -> bool:
    # (A loop, not `any()` over a generator: asked for each tuple unpacked.)
    for i in t.items:
        if isinstance(i, UnpackType):
            return True
    return False


def unpack(ex: "ExprEvaluator", t: Type, n: int, node: ast.AST | None) -> list[Type]:
    t = as_tuple(t)
    if isinstance(t, UnionType):
        # Each member unpacks on its own; position by position, the union.
        per_item = [ex.unpack(item, n, node) for item in t.items]
        return [make_union([p[i] for p in per_item]) for i in range(n)]
    if isinstance(t, TupleType) and _holds_unpack(t):
        from veritype.types.tuples import unpack_variadic

        target = node if isinstance(node, (ast.Tuple, ast.List)) else None
        star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), None) if target is not None else None
        got = unpack_variadic(t, n, star)
        return got if got is not None else [AnyType("special")] * n
    if isinstance(t, TupleType):
        if len(t.items) == n:
            return list(t.items)
        target = node if isinstance(node, (ast.Tuple, ast.List)) else None
        if target is not None and any(isinstance(e, ast.Starred) for e in target.elts):
            star = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred))
            after = n - star - 1
            if len(t.items) >= n - 1:
                middle = list(t.items[star: len(t.items) - after])
                return list(t.items[:star]) + [widen_literals(join_all(ex.ev, middle)) if middle else NeverType()] + list(t.items[len(t.items) - after:])
        ex.error(node, f"Too many values to unpack ({n} expected, {len(t.items)} provided)" if len(t.items) > n else f"Need more than {len(t.items)} value{'s' if len(t.items) != 1 else ''} to unpack ({n} expected)", "misc")
        return [ANY_ERROR] * n
    item = ex.iterate(t, node, unpacking=True)
    return [item] * n

def assign_types(ex: "ExprEvaluator", target: ast.expr, t: Type, layer: dict[str, Type], at: ast.AST | None = None) -> None:
    """Bind a comprehension's `target` to `t` in `layer`; `at`: the
    comprehension, where unpacking a str is reported (str_unpack)."""
    if isinstance(target, ast.Name):
        layer[target.id] = t
    elif isinstance(target, (ast.Tuple, ast.List)):
        check_str_unpack(ex, t, at)
        items = ex.unpack(t, len(target.elts), target)
        for sub, item in zip(target.elts, items):
            if isinstance(sub, ast.Starred):
                ex.assign_types(sub.value, ex.ev.builtin("list", item), layer, at)
            else:
                ex.assign_types(sub, item, layer, at)

def exception_instance(ex: "ExprEvaluator", t: Type) -> Type:
    results = []
    for item in union_items(t):
        if isinstance(item, TypeType):
            results.append(item.item)
        elif isinstance(item, TupleType):
            from veritype.types.tuples import value_items

            results.append(ex.exception_instance(make_union(value_items(item))))
        elif isinstance(item, Instance) and item.info.fullname == "builtins.tuple" and item.args:
            results.append(ex.exception_instance(item.args[0]))
        else:
            results.append(AnyType("special"))
    return make_union(results)
