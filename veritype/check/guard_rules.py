"""Rules for the definition of a TypeGuard / TypeIs function (spec, "Type narrowing").

- The narrowed value is "the first positional argument" (for a method, "the
  second parameter (after self or cls)"): a guard with no such parameter can
  never narrow anything (mypy: `[valid-type]` on the def).
- For TypeIs: "It is an error to narrow to a type that is not consistent with
  the input type" (mypy: `[narrowed-type-not-subtype]`).

Messages and codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_pair
from veritype.types.model import POS_ONLY, POS_OR_KW, CallableType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_guard_function(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    if sig.type_guard is None and sig.type_is is None:
        return
    positional = [p for p in sig.params if p.kind in (POS_ONLY, POS_OR_KW)]
    scope = checker.scope
    if scope.kind == "class" and scope.cls is not None:
        from veritype.evaluate.functions import method_kind

        if method_kind(checker.ev, node, scope) != "static":
            # `self` / `cls` is bound at the call: the narrowed value is the next one.
            positional = positional[1:] if _has_receiver(node) else positional
    if not positional:
        what = "TypeGuard" if sig.type_guard is not None else '"TypeIs"'
        checker.error(node, f"{what} functions must have a positional argument", "valid-type")
        return
    if sig.type_is is not None and not is_subtype(checker.ev, sig.type_is, positional[0].type):
        narrowed, given = format_pair(sig.type_is, positional[0].type)
        checker.error(node, f'Narrowed type "{narrowed}" is not a subtype of input type "{given}"', "narrowed-type-not-subtype")


def _has_receiver(node: FuncDef) -> bool:
    # The receiver is the first parameter written positionally (`def m(self, x)`);
    # `def m(*args)` has none to drop.
    return bool(node.args.posonlyargs or node.args.args)
