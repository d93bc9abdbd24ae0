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
to `cast`, `assert_type` and `reveal_type`. Those nodes are marked once per
module by a walk of its tree, on the first question about that module;
everything else is a use.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic.symbols import PARAM, VAR
from veritype.types.model import CallableType, Instance, NoneType, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_MARKED = "_veritype_none_ok"  # on a node whose None value is allowed
_WALKED = "_veritype_none_ok_walked"  # on a module tree already marked

_VALUE_ONLY_CALLS = {"cast": 1, "assert_type": 0, "reveal_type": 0}


def check_call_value(exprs: "ExprEvaluator", node: ast.Call, callee: Type, result: Type) -> None:
    """Report a used call result of a def that only ever returns None."""
    if not isinstance(result, NoneType) or not isinstance(callee, CallableType) or _allowed(exprs, node):
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
    if isinstance(result, NoneType) and not _allowed(exprs, node):
        exprs.error(node, "Function does not return a value (it only ever returns None)", "func-returns-value")


def _plain_none_def(func: ast.expr, callee: CallableType) -> str | None:
    """The def's name when `func` names an undecorated def annotated `-> None`."""
    d = callee.definition
    if not isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) or d.decorator_list or callee.is_type_obj:
        return None
    if isinstance(d, ast.AsyncFunctionDef):
        return None  # its call is a coroutine, never None
    returns = d.returns
    if not (isinstance(returns, ast.Constant) and returns.value is None) and not (
        isinstance(returns, ast.Name) and returns.id == "None"
    ):
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


def _allowed(exprs: "ExprEvaluator", node: ast.AST) -> bool:
    scope = exprs.scope
    tree = scope.module.tree if scope is not None else None
    if tree is None:
        return True  # nowhere to ask: say nothing
    if not getattr(tree, _WALKED, False):
        _mark(tree)
        setattr(tree, _WALKED, True)
    return getattr(node, _MARKED, False)


def _mark(tree: ast.Module) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr):
            _allow(node.value)
        elif isinstance(node, ast.Lambda):
            _allow(node.body)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _returns_may_be_none(node):
            for ret in _own_returns(node):
                if ret.value is not None:
                    _allow(ret.value)
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr if isinstance(node.func, ast.Attribute) else None
            index = _VALUE_ONLY_CALLS.get(name or "")
            if index is not None and index < len(node.args):
                _allow(node.args[index])


def allow_none_value(node: ast.expr) -> None:
    """Mark a call the checker makes up (not in the tree) as one whose value is not used."""
    _allow(node)


def _allow(value: ast.expr) -> None:
    setattr(value, _MARKED, True)
    if isinstance(value, ast.IfExp):
        _allow(value.body)
        _allow(value.orelse)


def _returns_may_be_none(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Declared to return None or Any, or not declared, or a generator: mypy
    lets `return f()` pass there."""
    r = fn.returns
    if r is None or fn.type_comment:
        return True
    if isinstance(r, ast.Constant) and r.value is None:
        return True
    if isinstance(r, ast.Name) and r.id in ("None", "Any") or isinstance(r, ast.Attribute) and r.attr == "Any":
        return True
    if isinstance(r, ast.Constant) and isinstance(r.value, str):
        return True  # a string annotation: not read here, so allowed
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(fn))


def _own_returns(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    return [n for n in _own_nodes(fn) if isinstance(n, ast.Return)]


def _own_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """The nodes of `fn`'s body outside nested defs, lambdas and classes."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = list(fn.body)
    while stack:
        n = stack.pop()
        out.append(n)
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                stack.append(child)
    return out
