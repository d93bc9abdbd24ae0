"""Which callables assigned in a class body bind like methods.

Python data model, "Invoking Descriptors": a function stored in a class is a
non-data descriptor, so `__float__ = unwrap` (or a lambda) is a method; a
bound method stored there (`x = obj.meth`, `x = int.from_bytes`, a
classmethod read through its class) is not a function and is not bound
again. The type alone does not tell the two apart, so the assigned
expression decides (mypy binds the first kind and leaves the second).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import Instance, ModuleType, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def assigned_function(ev: "Evaluator", sym: S.Symbol, scope: "Scope") -> bool:
    """Whether the class variable `sym` holds a plain function: its value is a
    lambda, a name, a module's attribute, or an instance method read through its
    class. A bound method (an instance's method, a classmethod read through its
    class) is left unbound."""
    cached = sym.cache.get("assigned_function")
    if isinstance(cached, bool):
        return cached
    sym.cache["assigned_function"] = False  # also the answer while evaluating
    node = sym.node
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
        result = value is not None and _plain_function_expr(ev, value, scope)
    sym.cache["assigned_function"] = result
    return result


def assigned_call(sym: S.Symbol) -> bool:
    """Whether the class variable `sym` is assigned a call's result."""
    node = sym.node
    return isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call)


def _plain_function_expr(ev: "Evaluator", value: ast.expr, scope: "Scope") -> bool:
    if isinstance(value, (ast.Lambda, ast.Name)):
        # (A call's callable result is judged by its signature: members.assigned_call.)
        return True
    if not isinstance(value, ast.Attribute):
        return False
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.evaluate.functions import method_kind

    base = ExprEvaluator(ev, scope).infer(value.value)  # no reporter: silent
    if isinstance(base, ModuleType):
        return True
    if isinstance(base, TypeType) and isinstance(base.item, Instance):
        hit = base.item.info.get(value.attr)
        if hit is None or hit[0].kind != S.FUNC:
            return False
        fn = hit[0].node
        return isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and method_kind(ev, fn, hit[1].scope) == "instance"
    return False
