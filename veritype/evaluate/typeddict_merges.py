"""Merging into a TypedDict: `td.update({...})`, `td | {...}`, `td |= {...}`.

typeshed types these with the TypedDict itself (`update(self, m: Self)`),
which a display naming only some keys does not satisfy. mypy (and the
spec's "Read-only items": update "with another TypedDict that declares that
key" is an error only for read-only items) takes a partial view: every key
optional. A display naming a read-only key mutates it: mypy reports
`ReadOnly TypedDict key "k" TypedDict is mutated` [typeddict-readonly-mutated]
on the display, for `update` and `|=` (not for `|`, which builds a new
dict). The display's values are checked against the items' types.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import NeverType, Type, TypedDictType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def partial_view(td: TypedDictType, readonly_never: bool) -> TypedDictType:
    """`td` with every key optional and read-only; its read-only items typed Never
    when `readonly_never` (the parameter of `update` for a TypedDict argument)."""
    items = tuple((k, NeverType() if readonly_never and k in td.readonly else t) for k, t in td.items)
    return TypedDictType(items, frozenset(), frozenset(k for k, _ in items), td.fallback)


def merge_display(ex: "ExprEvaluator", td: TypedDictType, display: ast.Dict, mutates: bool) -> bool:
    """Check `display` merged into `td` (True: handled, the caller's result stands);
    False for a display of keys not all string literals, left to the general path."""
    if td.extra is not None or not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in display.keys):
        return False
    ex.infer(display, partial_view(td, readonly_never=False))
    if mutates and ex.reporting:
        for k in display.keys:
            key = k.value if isinstance(k, ast.Constant) else None
            if isinstance(key, str) and key in td.readonly:
                ex.error(display, f'ReadOnly TypedDict key "{key}" TypedDict is mutated', "typeddict-readonly-mutated")
    return True


def update_call(ex: "ExprEvaluator", node: ast.Call) -> Type | None:
    """`td.update({...})` with a display: None when it is not that call."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "update" and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Dict)):
        return None
    from veritype.evaluate.expressions import ExprEvaluator

    silent = ExprEvaluator(ex.ev, ex.scope, ex.flow, None)
    silent.overlay = ex.overlay
    receiver = silent.infer(func.value)
    if not isinstance(receiver, TypedDictType):
        return None
    ex.infer(func.value)
    if not merge_display(ex, receiver, node.args[0], mutates=True):
        return None
    from veritype.types.model import NONE

    return NONE
