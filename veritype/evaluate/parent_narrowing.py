"""Narrowing a union through one of its members: `x[0] is None`, `x.attr is None`.

mypy refines the parent of a narrowed member access: when `x` is a union and a
test narrows `x[2]` (or `x.kind`) to a type that some items of `x` cannot have
there, those items are ruled out of `x` too. pytest's `FixtureDef.cached_result`,
a union of two tuples told apart by their third item, relies on it:
`if self.cached_result[2] is not None: ... else: return self.cached_result[0]`.

Only surely disjoint items are dropped (None against a class, two unrelated
plain classes, literals that differ); anything unsure (Any, type variables,
protocols, `object`) is kept.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Protocol

from veritype.evaluate.reference_keys import expr_key
from veritype.evaluate.strict_equality import may_be_equal
from veritype.types.model import (
    CallableType, Instance, LiteralType, NeverType, NoneType, TupleType, Type, TypeType, UnpackType, make_union, union_items,
)
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


class _Infers(Protocol):
    def infer(self, node: ast.expr, expected: Type | None = None) -> Type: ...


def refine_parents(ev: "Evaluator", silent: _Infers, nodes: list[ast.expr], pos: dict[str, Type], neg: dict[str, Type]) -> None:
    """Add to `pos` and to `neg` (what a test says each way) the parents of the
    member accesses among `nodes` each narrowed. Both ways are refined at once:
    they read the same keys and parent types (5.8k questions on the bench corpus)."""
    if not pos and not neg:
        return  # nothing narrowed (25k questions on the bench corpus, most of them so)
    for node in nodes:
        if isinstance(node, ast.NamedExpr):
            node = node.target
        if not isinstance(node, (ast.Subscript, ast.Attribute)):
            continue
        key = expr_key(node)
        if key is None:
            continue
        base_key: str | None = None
        inferred: Type | None = None  # the parent's type where neither way narrowed it
        for out in (pos, neg):
            narrowed = out.get(key)
            if narrowed is None or isinstance(narrowed, NeverType):
                continue
            if base_key is None:
                base_key = expr_key(node.value)
                if base_key is None:
                    break
            if base_key in out:
                parent = out[base_key]
            else:
                if inferred is None:
                    inferred = silent.infer(node.value)
                parent = inferred
            items = union_items(parent)
            if len(items) < 2:
                continue
            members = [_member(ev, item, node) for item in items]
            if any(m is None for m in members):
                continue
            kept = [item for item, m in zip(items, members) if m is not None and _may_overlap(ev, narrowed, m)]
            if kept and len(kept) < len(items):
                out[base_key] = make_union(kept)


def _member(ev: "Evaluator", item: Type, node: ast.Subscript | ast.Attribute) -> Type | None:
    """The type of `item[i]` or `item.attr`, or None when not surely known."""
    if isinstance(node, ast.Subscript):
        idx = _index(node.slice)
        if idx is None or not isinstance(item, TupleType) or any(isinstance(i, UnpackType) for i in item.items):
            return None
        if not -len(item.items) <= idx < len(item.items):
            return None
        return item.items[idx]
    if not isinstance(item, Instance):
        return None
    return ev.members.get(item, node.attr)


def _index(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _may_overlap(ev: "Evaluator", narrowed: Type, member: Type) -> bool:
    return any(_pair(ev, a, b) for a in union_items(narrowed) for b in union_items(member))


_VALUES = (Instance, LiteralType, TupleType, CallableType, TypeType)


def _pair(ev: "Evaluator", a: Type, b: Type) -> bool:
    if isinstance(a, NoneType) or isinstance(b, NoneType):
        other = b if isinstance(a, NoneType) else a
        if isinstance(other, NoneType):
            return True
        # A class instance, literal, tuple, callable or class object is never None,
        # except an `object`, which may be anything.
        return not isinstance(other, _VALUES) or isinstance(other, Instance) and other.info.fullname == "builtins.object"
    if not isinstance(a, (Instance, LiteralType)) or not isinstance(b, (Instance, LiteralType)):
        return True
    if is_subtype(ev, a, b) or is_subtype(ev, b, a):
        return True
    return may_be_equal(a, b)
