"""Item-level errors for a list/set/dict display assigned to a declared type.

mypy reports `List item 0 has incompatible type "str"; expected "int"`
[list-item] (and `Dict entry 0 has incompatible type "str": "str"; expected
"str": "int"` [dict-item]) instead of a whole-assignment error when the value
is a display literal and the declared type is exactly list/set/dict.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_pair, format_type
from veritype.types.model import Instance
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_SEQ = {ast.List: ("builtins.list", "List"), ast.Set: ("builtins.set", "Set")}


def report_display_items(checker: "ModuleChecker", value: ast.expr, declared: object) -> bool:
    """Report the bad items; True when at least one was reported."""
    if not isinstance(declared, Instance):
        return False
    ev = checker.ev
    kind = _SEQ.get(type(value))
    if kind is not None and isinstance(value, (ast.List, ast.Set)):
        if declared.info.fullname != kind[0] or len(declared.args) != 1:
            return False
        if any(isinstance(e, ast.Starred) for e in value.elts):
            return False
        item_t = declared.args[0]
        bad = []
        for i, elt in enumerate(value.elts):
            t = checker.exprs().infer(elt, item_t)
            if not is_subtype(ev, t, item_t):
                bad.append((i, elt, t))
        for i, elt, t in bad:
            got, exp = format_pair(t, item_t)
            checker.error(elt, f'{kind[1]} item {i} has incompatible type "{got}"; expected "{exp}"', "list-item")
        return bool(bad)
    if isinstance(value, ast.Dict):
        if declared.info.fullname != "builtins.dict" or len(declared.args) != 2 or any(k is None for k in value.keys):
            return False
        kt, vt = declared.args
        reported = False
        for i, (k, v) in enumerate(zip(value.keys, value.values)):
            assert k is not None
            ka = checker.exprs().infer(k, kt)
            va = checker.exprs().infer(v, vt)
            if not (is_subtype(ev, ka, kt) and is_subtype(ev, va, vt)):
                gk, ek = _pair(ka, kt, is_subtype(ev, ka, kt))
                gv, ev_ = _pair(va, vt, is_subtype(ev, va, vt))
                checker.error(k, f'Dict entry {i} has incompatible type "{gk}": "{gv}"; expected "{ek}": "{ev_}"', "dict-item")
                reported = True
        return reported
    return False


def _pair(a: object, b: object, is_subtype_plain: bool) -> tuple[str, str]:
    # format_pair qualifies equal names; an equal key type must stay short.
    from veritype.types.join import widen_literals

    if is_subtype_plain:
        return format_type(widen_literals(a)), format_type(b)  # type: ignore[arg-type]
    return format_pair(a, b)  # type: ignore[arg-type]
