"""What is wrong with a functional `X = TypedDict("X", {...})` definition.

Typing spec, "TypedDict", "Alternative syntax": "A type checker is only
expected to accept a dictionary display expression as the second argument to
TypedDict"; the keys are the item names (string literals); the only other
arguments are `total` (and PEP 728's `closed` / `extra_items`). The name
argument should match the variable (mypy checks it, code `name-match`). The
deprecated keyword form (`TypedDict("X", a=int)`) is left alone: the spec lets
a checker not support it, and veritype then treats the call as unknown.
Messages and codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

# The names of TypedDict (the functional syntax is a call of it).
TYPEDDICT_NAMES = ("typing.TypedDict", "typing_extensions.TypedDict")
_KEYWORDS = ("total", "closed", "extra_items")


def typeddict_call_problems(ev: "Evaluator", call: ast.Call, name: str, scope: "Scope") -> list[tuple[ast.AST, str, str]] | None:
    """The problems of `name = TypedDict(...)` (None: the call is no TypedDict call)."""
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(call.func, scope)
    if ref is None or ref.fullname not in TYPEDDICT_NAMES:
        return None
    if len(call.args) == 1 and call.keywords and any(kw.arg not in _KEYWORDS for kw in call.keywords):
        return []  # the keyword form: not supported, not refused
    out: list[tuple[ast.AST, str, str]] = []
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return out
    first = call.args[0] if call.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value != name:
        out.append((call, f'First argument "{first.value}" to TypedDict() does not match variable name "{name}"', "name-match"))
    if len(call.args) == 2:
        fields = call.args[1]
        if not isinstance(fields, ast.Dict):
            out.append((call, "TypedDict() expects a dictionary literal as the second argument", "misc"))
        elif any(k is None or (isinstance(k, ast.Constant) and not isinstance(k.value, str)) for k in fields.keys):
            # a name may be a Final string: only a non-string constant is surely wrong
            out.append((call, "Invalid TypedDict() field name", "misc"))
    for kw in call.keywords:
        if kw.arg not in _KEYWORDS:
            out.append((call, f'Unexpected keyword argument "{kw.arg}" for "TypedDict"', "misc"))
    return out
