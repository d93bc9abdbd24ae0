"""`a, b = some_str`: mypy's `Unpacking a string is disallowed` [str-unpack].

Unpacking a `str` into several targets is almost always a bug (the value's
length decides whether it raises). mypy reports it where the value's type is
exactly `str` (or a union holding `str`): a literal string (`a, b = "xy"`),
a subclass of `str` and a TypeVar are left alone, as in mypy. The error
stands on the value of an assignment, the `for` statement of a loop and
the comprehension of a comprehension's target (mypy's lines and columns).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Instance, Type, union_items

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

MESSAGE = "Unpacking a string is disallowed"


def check_str_unpack(ex: "ExprEvaluator", t: Type, at: ast.AST | None) -> None:
    if at is None or not ex.reporting:
        return
    for item in union_items(t):  # (a loop, not `any()` over a generator: asked for each unpacking)
        if isinstance(item, Instance) and item.info.fullname == "builtins.str":
            ex.error(at, MESSAGE, "str-unpack")
            return
