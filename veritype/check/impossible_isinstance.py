"""`isinstance(x, C)` that no value can pass: mypy's "Subclass of ... cannot exist".

Under `--warn-unreachable`, when the value's class and C are unrelated, mypy
tries to make an ad-hoc intersection class (checker.intersect_instances);
when none can exist and nothing else in the value's union passes either, it
reports, at the test, `Subclass of "A" and "C" cannot exist: <reason>`
[unreachable], and the branch is unreachable (so a `raise` there, which is
never itself reported as unreachable, still is covered). pytest's
`_parse_exc` ignores two of these ("have distinct disjoint bases":
`types.GenericAlias` and `type`, `GenericAlias` and `BaseException`).

Only the sure reasons are modelled: distinct disjoint bases (PEP 800, from
`@disjoint_base` and `__slots__`; typeops.can_have_shared_disjoint_base) and
a final class. mypy's other two (an inconsistent MRO, incompatible method
signatures) are not computed: where neither sure reason holds, nothing is
reported.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.disjoint_bases import can_share_disjoint_base
from veritype.types.format import format_pair
from veritype.types.model import Instance, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def report_impossible_isinstance(mc: "ModuleChecker", test: ast.expr) -> None:
    if not (isinstance(test, ast.Call) and isinstance(test.func, (ast.Name, ast.Attribute))
            and len(test.args) == 2 and not test.keywords):
        return
    from veritype.evaluate.isinstance_narrowing import classinfo_arg
    from veritype.evaluate.expressions import ExprEvaluator

    ref = mc.ev.resolve_expr(test.func, mc.scope)
    if ref is None or ref.fullname != "builtins.isinstance":
        return
    silent = ExprEvaluator(mc.ev, mc.scope, mc.flow, None)
    current = silent.infer(test.args[0])
    classes = classinfo_arg(mc.ev, silent, test.args[1])
    if not classes:
        return
    errors: list[str] = []
    for item in union_items(current):
        for cls in classes:
            if not isinstance(item, Instance) or not isinstance(cls, Instance):
                return  # Any, None, a type variable...: not judged
            reason = _impossible(mc, item, cls)
            if reason is None:
                return  # this pair may meet: the branch is reachable
            a, b = format_pair(item, cls)
            errors.append(f'Subclass of "{a}" and "{b}" cannot exist: {reason}')
    for msg in errors:
        mc.error(test, msg, "unreachable")


def _impossible(mc: "ModuleChecker", item: Instance, cls: Instance) -> str | None:
    """Why no class derives from both, or None when one may (or is not judged)."""
    ev = mc.ev
    if is_subtype(ev, item, cls) or cls.info in item.info.mro or item.info in cls.info.mro:
        return None
    if item.info.is_protocol or cls.info.is_protocol or item.info.has_any_base or cls.info.has_any_base:
        return None
    if not can_share_disjoint_base([item.info, cls.info]):
        return "have distinct disjoint bases"
    for info in (item.info, cls.info):
        if info.is_final:
            return f'"{info.name}" is final'
    return None
