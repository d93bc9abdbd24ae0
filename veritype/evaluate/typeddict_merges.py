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
    items = td.item_map()
    names = [k.value for k in display.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if any(n not in items for n in names):
        if not mutates:
            return False  # `td | {"other": 1}`: dict's `__or__`, as in mypy
        _unknown_keys(ex, display, names, items)
    else:
        ex.infer(display, partial_view(td, readonly_never=False))
    if mutates and ex.reporting:
        for k in display.keys:
            key = k.value if isinstance(k, ast.Constant) else None
            if isinstance(key, str) and key in td.readonly:
                ex.error(display, f'ReadOnly TypedDict key "{key}" TypedDict is mutated', "typeddict-readonly-mutated")
    return True


def _unknown_keys(ex: "ExprEvaluator", display: ast.Dict, names: list[str], items: dict[str, Type]) -> None:
    """A merged display with keys the TypedDict does not have: mypy's messages on
    the display, then each known key's value against its item."""
    found = list(dict.fromkeys(names))
    known = [n for n in found if n in items]
    if not known:
        unknown = [n for n in found if n not in items]
        what = f'key "{unknown[0]}"' if len(unknown) == 1 else "keys (" + ", ".join(f'"{n}"' for n in unknown) + ")"
        ex.error(display, f"Unexpected TypedDict {what}", "misc")
    else:
        expected = f'key "{known[0]}"' if len(known) == 1 else "keys (" + ", ".join(f'"{n}"' for n in known) + ")"
        ex.error(display, f"Expected TypedDict {expected} but found keys (" + ", ".join(f'"{n}"' for n in found) + ")", "typeddict-item")
    from veritype.types.format import format_pair
    from veritype.types.subtype import is_subtype

    for name, value in zip(names, display.values):
        item = items.get(name)
        t = ex.infer(value, item)
        if item is not None and ex.reporting and not is_subtype(ex.ev, t, item):
            got, exp = format_pair(t, item)
            ex.error(value, f'Incompatible types (expression has type "{got}", TypedDict item "{name}" has type "{exp}")', "typeddict-item")


def update_call(ex: "ExprEvaluator", node: ast.Call) -> Type | None:
    """`td.update({...})` with a display: None when it is not that call."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "update" and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Dict)):
        return None
    silent = ex.silent()
    receiver = silent.infer(func.value)
    if not isinstance(receiver, TypedDictType):
        return None
    ex.infer(func.value)
    if not merge_display(ex, receiver, node.args[0], mutates=True):
        return None
    from veritype.types.model import NONE

    return NONE
