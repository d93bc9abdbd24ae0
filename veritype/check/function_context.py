"""The function whose body the checker walks: its node, declared return type,
and whether it is a generator or a coroutine (what `return`, `yield` and
`await` are checked against). Its own module so that the function rules
(check.function_rules) and the statement walk (check.module_checker) can
import each other's names at module level, with no import inside a handler.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.types.model import Type


class FunctionContext:
    def __init__(self, node: ast.AST | None, ret: "Type | None", is_generator: bool, is_async: bool) -> None:
        self.node = node
        self.ret = ret
        self.is_generator = is_generator
        self.is_async = is_async
        self.yield_types: "tuple[Type, Type] | None" = None  # set for annotated generators
