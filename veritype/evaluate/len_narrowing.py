"""Narrowing by length: `len(x) == 2` and `len(x) >= 2` on a union of tuples (the
typing spec's "Tuples" lets length checks narrow; mypy and pyright do), with the
`len` call recognised as the builtin's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.reference_keys import expr_key
from veritype.types.model import Instance, TupleType, Type, UnpackType, make_union, union_items
from veritype.types.tuples import align, is_variadic

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.expressions import ExprEvaluator


def is_len_call(exprs: "ExprEvaluator", node: ast.Call) -> bool:
    if len(node.args) != 1 or node.keywords or not isinstance(node.func, ast.Name) or node.func.id != "len":
        return False
    ref = exprs.ev.resolve_expr(node.func, exprs.scope) if exprs.scope is not None else None
    return ref is not None and ref.fullname == "builtins.len"


FLIPPED: dict[type, type] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}


def compare_len(exprs: "ExprEvaluator", silent: "ExprEvaluator", op: ast.cmpop, left: ast.expr, right: ast.expr, positive: bool) -> dict[str, Type]:
    """`len(x) >= 2` (or `2 <= len(x)`): the fixed-length tuples of a union whose
    length passes the test (mypy); other items, variadic tuples too, stay."""
    kind: type = type(op)
    if isinstance(right, ast.Call) and not isinstance(left, ast.Call):
        left, right, kind = right, left, FLIPPED[kind]
    if not (isinstance(left, ast.Call) and is_len_call(exprs, left)):
        return {}
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return {}
    key = expr_key(left.args[0])
    if key is None:
        return {}
    n = right.value
    t = silent.infer(left.args[0])
    items = union_items(t)
    if not any(isinstance(i, TupleType) for i in items):
        return {}

    def passes(length: int) -> bool:
        return {ast.Lt: length < n, ast.LtE: length <= n, ast.Gt: length > n, ast.GtE: length >= n}[kind]

    kept = [i for i in items if not isinstance(i, TupleType) or is_variadic(i) or passes(len(i.items)) == positive]
    return {key: make_union(kept)}


def narrow_len(ev: "Evaluator", t: Type, n: int, positive: bool) -> Type | None:
    items = union_items(t)
    if not any(isinstance(i, TupleType) or (isinstance(i, Instance) and i.info.fullname == "builtins.tuple") for i in items):
        return None
    out: list[Type] = []
    for i in items:
        if is_variadic(i):
            # `tuple[int, *tuple[str, ...], int]` with `len(t) == 3` is `tuple[int, str, int]`
            # (spec, "Tuples": length checks may narrow); a TypeVarTuple part stays as is.
            assert isinstance(i, TupleType)
            fixed = align(i, n)
            if not positive:
                out.append(i)
            elif fixed is not None:
                out.append(ev.tuple_of(fixed))
            elif any(isinstance(x, UnpackType) and not isinstance(x.item, Instance) for x in i.items):
                out.append(i)
        elif isinstance(i, TupleType):
            if (len(i.items) == n) == positive:
                out.append(i)
        elif isinstance(i, Instance) and i.info.fullname == "builtins.tuple" and i.args:
            out.append(ev.tuple_of([i.args[0]] * n) if positive else i)
        else:
            out.append(i)
    return make_union(out)
