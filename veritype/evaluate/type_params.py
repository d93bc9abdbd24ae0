"""PEP 695 type parameter lists: `def f[T](...)`, `class C[T]:`, `type A[T] = ...`."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import TypeVarType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def pep695_type_params(ev: "Evaluator", node: ast.AST, owner: str, scope: "Scope") -> dict[str, TypeVarType]:
    params = getattr(node, "type_params", None) or []
    out: dict[str, TypeVarType] = {}
    for p in params:
        kind = {"TypeVar": "typevar", "ParamSpec": "paramspec", "TypeVarTuple": "typevartuple"}.get(type(p).__name__, "typevar")
        bound = None
        values: tuple = ()
        bound_node = getattr(p, "bound", None)
        if bound_node is not None:
            if isinstance(bound_node, ast.Tuple):
                values = tuple(ev.type_exprs.evaluate(e, scope) for e in bound_node.elts)
            else:
                bound = ev.type_exprs.evaluate(bound_node, scope)
        default = None
        default_node = getattr(p, "default_value", None)
        if default_node is not None:
            default = ev.type_exprs.evaluate(default_node, scope)
        out[p.name] = TypeVarType(p.name, f"{owner}.{p.name}", owner, bound, values, "infer", default, kind)
    return out
