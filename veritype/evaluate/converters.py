"""Field converters of dataclass_transform field specifiers (spec, "Dataclasses",
"Converters").

"The converter must be a callable that must accept a single positional
argument"; "The type of the first positional parameter provides the type of
the synthesized __init__ parameter for the field", and assigning the
attribute goes through the converter too. An overloaded converter (or a class
whose constructor is overloaded) accepts what any overload's first parameter
accepts. A converter whose first parameter is generic (`dict`, `list`) or that
veritype cannot read is taken to accept anything: the field is not checked
where it is unclear what the converter takes.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import POS_ONLY, POS_OR_KW, VAR_POS, AnyType, CallableType, Overloaded, Type, TypeType, make_union
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def converter_keyword(call: ast.Call) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == "converter"), None)


def converter_input(ev: "Evaluator", scope: "Scope", node: ast.expr) -> Type:
    from veritype.evaluate.expressions import ExprEvaluator

    t = ExprEvaluator(ev, scope).infer(node)
    if isinstance(t, TypeType):
        ctor = ev.constructor_type(t)
        t = ctor if ctor is not None else AnyType("special")
    items = [t] if isinstance(t, CallableType) else list(t.items) if isinstance(t, Overloaded) else None
    if not items:
        return AnyType("special")
    firsts: list[Type] = []
    for item in items:
        if item.is_ellipsis:
            return AnyType("special")
        first = next((p for p in item.params if p.kind in (POS_ONLY, POS_OR_KW, VAR_POS)), None)
        if first is None:
            return AnyType("special")  # not a converter; the specifier's own signature says so
        if type_vars_in(first.type):
            return AnyType("special")
        firsts.append(first.type)
    return make_union(firsts)
