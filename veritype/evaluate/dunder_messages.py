"""mypy's messages and codes for a bad argument to an explicitly called dunder method
(and to the `__setitem__` of an indexed assignment).

mypy words an argument error of `x.__add__(y)`, `int.__add__(a, b)`,
`d.__getitem__(k)` or `d.__setitem__(k, v)` as the operation it stands for
(messages.incompatible_argument): `Unsupported operand types for + (...)`
[operator], `Invalid index type ...` [index], `Incompatible types in
assignment (... target has type ...)` [assignment]. A project's
`# type: ignore[operator]` on such a call must keep working, so veritype uses
the same words and codes. The left operand is the type of the expression the
method was read from (`type[int]` for `int.__add__`).
"""

from __future__ import annotations

import ast
from typing import Callable

from veritype.types.format import format_pair, format_type
from veritype.types.join import widen_literals
from veritype.types.model import Type

# Binary operation methods and their operators (mypy's operators.op_methods).
_OPERATORS = {
    "__add__": "+", "__sub__": "-", "__mul__": "*", "__truediv__": "/", "__mod__": "%",
    "__divmod__": "divmod", "__floordiv__": "//", "__pow__": "**", "__matmul__": "@",
    "__and__": "&", "__or__": "|", "__xor__": "^", "__lshift__": "<<", "__rshift__": ">>",
    "__eq__": "==", "__ne__": "!=", "__lt__": "<", "__ge__": ">=", "__gt__": ">", "__le__": "<=",
    "__contains__": "in",
}


def dunder_argument_error(
    call: ast.AST | None, name: str | None, position: int, actual: Type, expected: Type, infer: Callable[[ast.expr, Type | None], Type]
) -> tuple[str, str] | None:
    """(message, code) for argument `position` (1-based) of an explicit dunder
    call, or None when the call is not one mypy words differently."""
    if not name:
        return None
    if isinstance(call, ast.Subscript) and name == "__setitem__":
        receiver = call.value  # `d[k] = v` is checked as `d.__setitem__(k, v)`
    elif isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == name:
        receiver = call.func.value
    else:
        return None
    op, reversed_ = _operator(name)
    if op is None and name not in ("__getitem__", "__setitem__"):
        return None
    # An inferred literal is shown as its class, as mypy shows `Literal[1]?`.
    base = format_type(widen_literals(infer(receiver, None), keep_declared=True))
    if op is not None:
        arg = format_type(widen_literals(actual, keep_declared=True))
        left, right = (arg, base) if op == "in" or reversed_ else (base, arg)
        return f'Unsupported operand types for {op} ("{left}" and "{right}")', "operator"
    got, exp = format_pair(actual, expected)
    if name == "__setitem__" and position != 1:
        return f'Incompatible types in assignment (expression has type "{got}", target has type "{exp}")', "assignment"
    return f'Invalid index type "{got}" for "{base}"; expected type "{exp}"', "index"


def _operator(name: str) -> tuple[str | None, bool]:
    if name in _OPERATORS:
        return _OPERATORS[name], False
    if name.startswith("__r") and "__" + name[3:] in _OPERATORS:
        return _OPERATORS["__" + name[3:]], True
    return None, False


def is_operator_method(name: str | None) -> bool:
    """A binary, reversed or unary operator method (mypy's is_operator_method)."""
    return bool(name) and (_operator(name or "")[0] is not None or name in ("__neg__", "__pos__", "__invert__"))
