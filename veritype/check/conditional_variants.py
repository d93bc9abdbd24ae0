"""Conditional function variants: a `def` in a block that redefines a function.

mypy 2.4.1 accepts a function defined again inside a block (an `if`, `try`,
`for`, `with` ...) as a conditional variant of the first definition in the
scope, a `def` or an imported function (`try: from json import dumps` /
`except ImportError: def dumps(...)`), but only with the same signature:
otherwise `All conditional function variants must have identical signatures`
[misc] at the variant's `def`, with the two signatures as notes. Parameter
names, kinds and whether each has a default count; default values do not.

check/redefinitions.py marks each variant with the first definition
(`_vt_variant_of`) as it walks the scope's blocks; the comparison runs when the
variant is checked. Left alone (silent): decorated definitions, generic ones,
and a first definition that is no plain function. Types are the same when
each is a subtype of the other and they are spelled alike up to the order of
a union's items (so `type` is not `type[int]`, nor `Any` an `int`, as in mypy).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import function_type
from veritype.types.format import format_def, format_type
from veritype.types.model import CallableType, Type, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.evaluator import Evaluator

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_conditional_variant(mc: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    first = getattr(node, "_vt_variant_of", None)
    if first is None or node.decorator_list:
        return
    original: Type | None
    if isinstance(first, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if first.decorator_list:
            return
        original = function_type(mc.ev, first, mc.scope)
    else:  # an import bound the name first
        hit = mc.ev.lookup(node.name, mc.scope)
        original = mc.ev.symbol_type(*hit) if hit is not None else None
    if not isinstance(original, CallableType) or original.type_vars or sig.type_vars:
        return
    if _same_signature(mc.ev, original, sig):
        return
    mc.error(node, "All conditional function variants must have identical signatures", "misc")
    mc.note(node, "Original:")
    mc.note(node, "    " + format_def(original))
    mc.note(node, "Redefinition:")
    mc.note(node, "    " + format_def(sig))


def _same_signature(ev: "Evaluator", a: CallableType, b: CallableType) -> bool:
    if len(a.params) != len(b.params) or a.is_ellipsis != b.is_ellipsis:
        return False
    for p, q in zip(a.params, b.params):
        if p.kind != q.kind or p.name != q.name or p.has_default != q.has_default:
            return False
        if not _same_type(ev, p.type, q.type):
            return False
    return _same_type(ev, a.ret, b.ret)


def _same_type(ev: "Evaluator", a: Type, b: Type) -> bool:
    """Each a subtype of the other, and spelled alike up to the order of a
    union's items: `type` and `type[int]` are each other's subtypes (through
    Any) but not the same, as mypy compares them."""
    if not (is_subtype(ev, a, b) and is_subtype(ev, b, a)):
        return False
    return _spelling(a) == _spelling(b)


def _spelling(t: Type) -> frozenset[str]:
    return frozenset(format_type(i) for i in union_items(t))
