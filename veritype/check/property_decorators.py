"""mypy's `prop-decorator` (on by default): a decorator applied on top of `@property`.

mypy types a property from the decorated getter only when nothing but the
decorators it understands sits above `@property`; for any other decorator
there it reports `Decorators on top of @property are not supported
[prop-decorator]` on the first decorator line (mypy 2.4.1). The decorators it
understands and strips first do not count: abstractmethod, final, override,
deprecated, no_type_check, staticmethod/classmethod (a `[misc]` error of their
own in mypy), overload and the property kinds themselves.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, PROPERTY, STATIC, TRANSPARENT

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_UNDERSTOOD = frozenset((*TRANSPARENT, *STATIC, *CLASSMETHOD, *OVERLOAD, *PROPERTY))


def check_property_decorators(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str]) -> None:
    """`names`: the decorators' full names, in source order (evaluate.functions.decorator_names)."""
    first_property = next((i for i, name in enumerate(names) if name in PROPERTY), None)
    if not first_property:
        return  # no property, or nothing above it
    above = names[:first_property]
    if any(name.startswith((".", "?")) for name in above):
        return  # a decorator veritype could not resolve may be one mypy understands
    if any(name not in _UNDERSTOOD for name in above):
        checker.error(node.decorator_list[0], "Decorators on top of @property are not supported", "prop-decorator")
