"""Type aliases made by a call: `A = TypeAliasType("A", value, type_params=(T,))`.

Spec, "Type aliases" (TypeAliasType): the call is equivalent to a `type`
statement for checkers that cannot use the statement; its value is a type
expression, and "type_params" must be a tuple literal listing every type
variable the value uses. The value may refer to the alias itself only inside
a string (it is evaluated when the call runs).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.evaluate.scopes import Scope
from veritype.semantic.symbols import Symbol
from veritype.types.model import AnyType, Type, TypeVarType
from veritype.types.substitute import substitute, tv_key, type_vars_in

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


@dataclass(frozen=True)
class CallParts:
    """The name, value and type parameters given to a type alias call."""
    name: ast.expr | None
    value: ast.expr | None
    type_params: ast.expr | None


def call_parts(call: ast.Call) -> CallParts:
    name = call.args[0] if call.args else None
    value = call.args[1] if len(call.args) > 1 else None
    params = call.args[2] if len(call.args) > 2 else None
    for kw in call.keywords:
        if kw.arg == "name":
            name = kw.value
        elif kw.arg == "value":
            value = kw.value
        elif kw.arg == "type_params":
            params = kw.value
    return CallParts(name, value, params)


def declared_params(ev: "Evaluator", scope: Scope, node: ast.expr | None) -> list[TypeVarType] | None:
    """The type variables `type_params=` lists, or None when it is no tuple literal
    of type variables (then nothing is known about the parameters)."""
    if node is None:
        return []
    if not isinstance(node, ast.Tuple):
        return None
    from veritype.evaluate.declarations import typevar_declaration

    out: list[TypeVarType] = []
    for e in node.elts:
        ref = ev.resolve_expr(e, scope) if isinstance(e, (ast.Name, ast.Attribute)) else None
        tv = typevar_declaration(ev, ref.sym, ref.scope) if ref is not None and ref.sym is not None and ref.scope is not None else None
        if tv is None:
            return None
        out.append(tv)
    return out


def alias_from_call(ev: "Evaluator", sym: Symbol, scope: Scope, call: ast.Call) -> tuple[Type, tuple[TypeVarType, ...]]:
    from veritype.evaluate.declarations import alias_fullname
    from veritype.evaluate.type_expr import TypeContext

    parts = call_parts(call)
    if parts.value is None:
        return AnyType("special"), ()
    listed = declared_params(ev, scope, parts.type_params)
    owner = alias_fullname(sym, scope)
    ctx = TypeContext(scope)
    params: list[TypeVarType] = []
    for tv in listed or []:
        bound = TypeVarType(tv.name, tv.fullname, owner, tv.upper_bound, tv.values, tv.variance, tv.default, tv.kind)
        ctx.bound[tv.fullname] = bound
        params.append(bound)
    target = ev.type_exprs.eval(parts.value, ctx)
    # Type variables the value uses but the call does not list are errors
    # (reported at the call); the alias treats them as unknown.
    stray = {k: AnyType("special") for k, tv in type_vars_in(target).items() if tv.scope == "" and k not in {tv_key(p) for p in params}}
    if stray:
        target = substitute(target, stray)
    if listed is None:
        return target, ()
    return target, tuple(params)
