"""`func-returns-value`: the value of a call that only ever returns None is used.

mypy reports `"f" does not return a value (it only ever returns None)` when
the result of a call is used and the callee is a plain def (no decorator:
mypy sees a decorated def, an overload, a static or class method as
something else) whose return annotation is `None`; `"m" of "C"` for a
method, named by the class that defines it. An `await` or `yield from`
whose result is None is reported as `Function does not return a value`.

A value is not "used" where mypy lets a None result pass (its
`allow_none_return`): an expression statement (through `x if c else y` and
`await`), a `return` in a function declared to return None or Any, or with
no return annotation, or a generator, a lambda's body, and the value given
to `cast`, `assert_type` and `reveal_type`. Whoever evaluates such a node
marks it first (`allow_none_value`: the checker's expression statements and
returns, lambdas, the special calls); everything else is a use.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic.symbols import PARAM, VAR
from veritype.types.model import CallableType, Instance, NoneType, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_MARKED = "_veritype_none_ok"  # on a node whose None value is allowed


def check_call_value(exprs: "ExprEvaluator", node: ast.Call, callee: Type, result: Type) -> None:
    """Report a used call result of a def that only ever returns None."""
    if not isinstance(result, NoneType) or not isinstance(callee, CallableType) or _allowed(node):
        return
    name = _plain_none_def(node.func, callee)
    if name is None:
        if _declared_none_callable(exprs, node.func, callee):
            exprs.error(node, "Function does not return a value (it only ever returns None)", "func-returns-value")
        return
    owner = _defining_class(exprs, node.func, callee) if isinstance(node.func, ast.Attribute) else None
    who = f'"{name}" of "{owner}"' if owner else f'"{name}"'
    exprs.error(node, f"{who} does not return a value (it only ever returns None)", "func-returns-value")


def check_awaited_value(exprs: "ExprEvaluator", node: ast.Await | ast.YieldFrom, result: Type) -> None:
    """Report a used `await` / `yield from` whose result is None."""
    if isinstance(result, NoneType) and not _allowed(node):
        exprs.error(node, "Function does not return a value (it only ever returns None)", "func-returns-value")


def _plain_none_def(func: ast.expr, callee: CallableType) -> str | None:
    """The def's name when `func` names an undecorated def annotated `-> None`."""
    d = callee.definition
    if not isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) or d.decorator_list or callee.is_type_obj:
        return None
    if isinstance(d, ast.AsyncFunctionDef):
        return None  # its call is a coroutine, never None
    returns = d.returns  # `None` parses as a constant, never a name
    if not (isinstance(returns, ast.Constant) and returns.value is None):
        return None
    # The callee must be the def itself, not a variable holding it (mypy: an
    # inferred variable is not a def).
    named = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return d.name if named == d.name else None


def _declared_none_callable(exprs: "ExprEvaluator", func: ast.expr, callee: CallableType) -> bool:
    """`cb()` where `cb` is a variable or parameter annotated with a callable
    type returning None (mypy: a declared, not inferred, variable)."""
    if not isinstance(func, ast.Name) or callee.definition is not None or not isinstance(callee.ret, NoneType):
        return False
    if exprs.scope is None:
        return False
    hit = exprs.ev.lookup(func.id, exprs.scope)
    if hit is None:
        return False
    sym = hit[0]
    if sym.kind == VAR:
        return sym.annotation is not None
    if sym.kind == PARAM:
        return any(isinstance(d, ast.arg) and d.annotation is not None for d in sym.decls)
    return False


def _defining_class(exprs: "ExprEvaluator", func: ast.Attribute, callee: CallableType) -> str | None:
    receiver = exprs.silent().infer(func.value)
    if isinstance(receiver, TypeType):
        receiver = receiver.item
    if not isinstance(receiver, Instance):
        return None
    for info in receiver.info.mro:
        node = getattr(info, "node", None)
        if isinstance(node, ast.ClassDef) and any(stmt is callee.definition for stmt in ast.walk(node)):
            return info.name
    return receiver.info.name


def _allowed(node: ast.AST) -> bool:
    return getattr(node, _MARKED, False)


def allow_none_value(value: ast.expr) -> None:
    """Mark `value` (and the branches of a conditional expression) as a place
    where a None result is not a use; before it is evaluated."""
    if getattr(value, _MARKED, False):
        return
    setattr(value, _MARKED, True)
    if isinstance(value, ast.IfExp):
        allow_none_value(value.body)
        allow_none_value(value.orelse)
