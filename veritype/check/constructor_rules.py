"""Rules for a constructor's explicit `self` annotation.

Spec ("Constructors", "__init__ Method"): "Class-scoped type variables should
not be used in the self annotation" - `def __init__(self: "C[T2, T1]")` in
`class C(Generic[T1, T2])` would make the class's own variables mean two
things at once. The annotation that restates the class (`self: "C[T1, T2]"`)
changes nothing and is left alone; mypy has no such check, so the message is
veritype's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import CallableType, Instance
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_init_self_annotation(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    scope = checker.scope
    if node.name != "__init__" or scope.kind != "class" or scope.cls is None or not scope.cls.type_vars:
        return
    args = [*node.args.posonlyargs, *node.args.args]
    if not args or args[0].annotation is None or not sig.params:
        return
    first = sig.params[0].type
    cls = scope.cls
    own = {v.fullname for v in cls.type_vars}
    used = [v for v in type_vars_in(first).values() if v.fullname in own]
    if not used:
        return
    if isinstance(first, Instance) and first.info is cls and first == cls.self_instance():
        return
    checker.error(args[0].annotation, 'The "self" annotation of "__init__" may not use the class\'s own type variables', "misc")
