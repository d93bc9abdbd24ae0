"""A parameter typed with a bare covariant type variable (mypy's [misc]).

mypy ("Cannot use a covariant type variable as a parameter", `check_func_def`)
checks every function it type-checks, not only methods: a nested function
(`def not_yet_in_unique_list(val: Ex)` inside a method of a class generic in
a covariant `Ex`), a module-level function, and a lambda whose parameter
types come from its context (`condition: Callable[[Ex], Any]`, then
`condition = lambda _: True`). `__init__`, `__new__`, `__post_init__` and
private names (`__x`) are exempt. The typing spec ("Variance"): a covariant
variable may appear only in output positions. The error sits on the
parameter (where its `# type: ignore[misc]` is), or on the lambda.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import CallableType, Param, TypeVarType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

MESSAGE = "Cannot use a covariant type variable as a parameter"


def _covariant(p: Param) -> bool:
    return isinstance(p.type, TypeVarType) and p.type.variance == "covariant" and p.type.kind == "typevar"


def check_covariant_params(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, sig: CallableType, method: bool) -> None:
    """`sig` is the def's own signature (with `self` for a method, dropped here)."""
    if node.name in ("__init__", "__new__", "__post_init__") or (node.name.startswith("__") and not node.name.endswith("__")):
        return
    params = sig.params[1:] if method and sig.params else sig.params
    args = node.args
    by_name = {a.arg: a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a is not None}
    for p in params:
        if _covariant(p):
            checker.error(by_name.get(p.name or "", node), MESSAGE, "misc")
