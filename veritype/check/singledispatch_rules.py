"""`@functools.singledispatch` on a function that takes no positional argument.

`singledispatch` dispatches on the type of a call's first positional
argument (Python's docs, functools.singledispatch: "To define a generic
function, decorate it with the @singledispatch decorator ... Note that the
dispatch happens on the type of the first argument"). mypy 2.4.1 rejects a
decorated function with no parameter, `Singledispatch function requires at
least one argument`, and one whose first parameter is keyword-only or
`**kwargs`, `First argument to singledispatch function must be a positional
argument` (`*args` will do), both [misc], at the `def` line. (mypy also
checks a function passed to a call of `singledispatch`, but reports most of
those at the line of the callee's definition, in whatever file: not followed.)
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import KW_ONLY, VAR_KW, CallableType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_SINGLEDISPATCH = "functools.singledispatch"


def check_singledispatch_definition(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str], sig: CallableType) -> None:
    """Report `node` (of signature `sig`, decorated by `names`) when
    `@singledispatch` has no positional argument to dispatch on."""
    if _SINGLEDISPATCH not in names:
        return
    if not sig.params:
        checker.error(node, "Singledispatch function requires at least one argument", "misc")
    elif sig.params[0].kind in (KW_ONLY, VAR_KW):
        checker.error(node, "First argument to singledispatch function must be a positional argument", "misc")
