"""`@functools.singledispatch` on a function that takes no positional argument.

`singledispatch` dispatches on the type of a call's first positional
argument (Python's docs, functools.singledispatch: "To define a generic
function, decorate it with the @singledispatch decorator ... Note that the
dispatch happens on the type of the first argument"). mypy 2.4.1 rejects a
decorated function with no parameter, `Singledispatch function requires at
least one argument`, and one whose first parameter is keyword-only or
`**kwargs`, `First argument to singledispatch function must be a positional
argument` (`*args` will do), both [misc], at the `def` line. A function
passed to a call of `singledispatch` is evaluate/singledispatch_calls', whose
rule and messages this uses.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.singledispatch_calls import dispatch_error, first_argument_kind
from veritype.types.model import CallableType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_SINGLEDISPATCH = "functools.singledispatch"


def check_singledispatch_definition(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str], sig: CallableType) -> None:
    """Report `node` (of signature `sig`, decorated by `names`) when
    `@singledispatch` has no positional argument to dispatch on."""
    if _SINGLEDISPATCH not in names:
        return
    msg = dispatch_error(first_argument_kind(sig))
    if msg is not None:
        checker.error(node, msg, "misc")
