"""A TypedDict indexed with a key that is not a string literal: literal-required.

Typing spec, "Typed dictionaries": "a TypedDict type ... type checkers should
... require a string literal (or an expression with a suitable literal type)
as the key" for item access. mypy reports any other key in `td[key]`,
`td[key] = v` and `td[key] += v` as `TypedDict key must be a string literal;
expected one of ("a", "b")` [literal-required] on the key, the expected keys
being the TypedDict's own in declaration order (for a union of TypedDicts,
each member reports its own). The value read is then Any.

A key typed `Any` is reported by mypy too; veritype reports it only for an
unannotated parameter (a written `Any`): an Any of its own making (a
construct it does not model) stays silent. A TypedDict with PEP 728 extra
items takes any str key and is left alone.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, LiteralType, NeverType, Type, TypedDictType, union_items

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def literal_keys_message(td: TypedDictType) -> str:
    # mypy names the first five keys, then "...".
    names = [f'"{name}"' for name, _ in td.items]
    keys = ", ".join(names[:5] + (["..."] if len(names) > 5 else []))
    return f"TypedDict key must be a string literal; expected one of ({keys})"


def is_non_literal_key(td: TypedDictType, key_t: Type) -> bool:
    """Whether `key_t` certainly is not a (union of) string literal(s) mypy accepts as a key of `td`."""
    if td.extra is not None and not isinstance(td.extra, NeverType):
        return False
    items = union_items(key_t)
    if not items:
        return False
    for item in items:
        if isinstance(item, AnyType):
            if item.reason in ("explicit", "unannotated") and len(items) == 1:
                continue  # judged by the caller (see key_is_written_any)
            return False
    return not all(isinstance(i, LiteralType) and isinstance(i.value, str) for i in items)


def check_key(ex: "ExprEvaluator", td: TypedDictType, key_t: Type, key_node: ast.expr) -> bool:
    """Report a non-literal key of `td` (True when reported: the read is Any)."""
    if not ex.reporting or not is_non_literal_key(td, key_t):
        return False
    if isinstance(key_t, AnyType) and not key_is_written_any(ex, key_node):
        return False
    ex.error(key_node, literal_keys_message(td), "literal-required")
    return True


def key_is_written_any(ex: "ExprEvaluator", key_node: ast.expr) -> bool:
    """The key is a name of a parameter annotated `Any` or not annotated at all,
    whose Any is the user's, not one veritype fell back to."""
    if not isinstance(key_node, ast.Name) or ex.scope is None:
        return False
    hit = ex.ev.lookup(key_node.id, ex.scope)
    if hit is None:
        return False
    sym = hit[0]
    decls = getattr(sym, "decls", None) or []
    if not decls or not all(isinstance(d, ast.arg) for d in decls):
        return False
    for d in decls:
        if d.annotation is None:
            continue
        ann = d.annotation
        if not ((isinstance(ann, ast.Name) and ann.id == "Any") or (isinstance(ann, ast.Attribute) and ann.attr == "Any")):
            return False
    return True
