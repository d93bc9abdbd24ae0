"""`get`, `pop` and `setdefault` on a TypedDict, and the keys `del` may name.

typeshed declares these methods on `_TypedDict` with a `Never` key (`pop(k:
_Never)`) or as `Mapping[str, object].get`, so the plain call machinery would
reject every key or type every value as `object`. The spec's TypedDict
chapter says the value type of a key is known when the key is a string
literal, or an expression of a literal type; this module gives the methods
their per-key meaning, as mypy's default plugin does:

- a key that is a string literal, or has a literal type (a union of them
  too): the value type of that key (the union over the keys), a `TypedDict
  "T" has no key "k"` error for an unknown key  [typeddict-item], and for
  `pop`, `Key "k" of TypedDict "T" cannot be deleted` for a required key
  [misc];
- `pop` and `setdefault` with any other key (`str`, `Any`): mypy reports
  `Expected TypedDict key to be string literal`  [misc] and types the call
  Any; `get` with such a key keeps typeshed's `Mapping.get` meaning.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_pair, format_type
from veritype.types.model import ANY_ERROR, AnyType, LiteralType, NeverType, NoneType, Type, TypedDictType, make_union, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

NOT_LITERAL_KEY = "Expected TypedDict key to be string literal"


def literal_keys(key_type: Type) -> list[str] | None:
    """The string keys a key expression's type names, or None when it is not
    a string literal type or a union of them."""
    keys = union_items(key_type)
    names = [k.value for k in keys if isinstance(k, LiteralType) and isinstance(k.value, str)]
    return names if names and len(names) == len(keys) else None


def typeddict_key_method(exprs: "ExprEvaluator", node: ast.Call) -> Type | None:
    """The type of `td.get/pop/setdefault(key[, default])`, or None when the
    call is not one (or keeps typeshed's meaning)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("get", "pop", "setdefault") and node.args):
        return None
    if node.keywords or len(node.args) > 2:
        return None
    for a in node.args:  # (a loop, not `any()` over a generator: asked for each `.get(...)` call)
        if isinstance(a, ast.Starred):
            return None
    silent = exprs.silent()
    receiver = silent.infer(func.value)
    if not isinstance(receiver, TypedDictType):
        return None
    key_node = node.args[0]
    method = func.attr
    if isinstance(key_node, ast.Constant) and isinstance(key_node.value, str):
        keys: list[str] | None = [key_node.value]
    else:
        keys = literal_keys(silent.infer(key_node))
    items = receiver.item_map()
    extra = receiver.extra if receiver.extra is not None and not isinstance(receiver.extra, NeverType) else None
    if method == "get" and (keys is None or any(k not in items for k in keys)):
        return None  # typeshed's `Mapping[str, object].get`: object (mypy: the same)
    if keys is None and extra is not None and receiver.extra_readonly:
        return None
    exprs.infer(func.value)
    key_type = exprs.infer(key_node)
    default_node = node.args[1] if len(node.args) == 2 else None
    if keys is None and extra is not None:
        # PEP 728: with writable extra items, `dict[str, VT]`'s methods: any str key,
        # the value of an extra item or of any key that may be missing.
        value = make_union([extra, *(t for k, t in items.items() if k not in receiver.required)])
        if default_node is None:
            return value
        return make_union([value, exprs.infer(default_node, value)])
    if keys is None:
        if not (isinstance(key_type, AnyType) and key_type.reason == "error"):  # reported already
            exprs.error(key_node, NOT_LITERAL_KEY, "misc")
        if default_node is not None:
            exprs.infer(default_node)
        return ANY_ERROR
    values: list[Type] = []
    for key in keys:
        if key in items:
            values.append(items[key])
        elif extra is not None:
            values.append(extra)  # PEP 728: an undeclared key has the extra items' type
        else:
            exprs.error(key_node, f'TypedDict "{format_type(receiver)}" has no key "{key}"', "typeddict-item")
            if default_node is not None:
                exprs.infer(default_node)
            return ANY_ERROR
    value = make_union(values)
    if method == "setdefault":
        # Spec, "Read-only items": a read-only item cannot be set (mypy: setdefault is a mutation).
        for key in keys:
            if key in receiver.readonly:
                exprs.error(key_node, f'ReadOnly TypedDict key "{key}" TypedDict is mutated', "typeddict-readonly-mutated")
                break
    if method == "pop":
        # Spec ("Typed dictionaries"): a required or read-only key may not be removed.
        for key in keys:
            if key in receiver.required or key in receiver.readonly:
                exprs.error(key_node, f'Key "{key}" of TypedDict "{format_type(receiver)}" cannot be deleted', "misc")
                break
    if default_node is None:
        return make_union([value, NoneType()]) if method == "get" else value
    if method == "setdefault":
        default = exprs.infer(default_node, value)
        if len(keys) == 1 and not is_subtype(exprs.ev, default, value):
            got, want = format_pair(default, value)
            exprs.error(default_node, f'Argument 2 to "setdefault" of "TypedDict" has incompatible type "{got}"; expected "{want}"', "typeddict-item")
        return value
    if method == "get" and isinstance(default_node, ast.Dict) and isinstance(value, TypedDictType):
        # `td.get("options", {})`: a dict display default of a TypedDict item is a
        # partial one (mypy accepts it); the result is the item's type.
        for part in [*default_node.keys, *default_node.values]:
            if part is not None:
                exprs.infer(part)
        return value
    return make_union([value, exprs.infer(default_node, value)])
