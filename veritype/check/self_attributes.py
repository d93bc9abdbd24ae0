"""`self.x: T = v` in a method whose `self` is annotated with the class.

mypy checks the value against the declared type as seen through that self
type: in `def __init__(self: "G[A | B]", a: A, b: B)`, `self.first: T_co =
a` compares `a` with `A | B`, the class's `T_co` bound by the annotation
(mypy 2.4.1; trio's `RaisesGroup.__init__`, whose `self` is
`RaisesGroup[ExcT_1 | BaseExcT_1 | BaseExceptionGroup[BaseExcT_2]]`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Instance, Type
from veritype.types.substitute import substitute, tv_key

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def through_annotated_self(checker: "ModuleChecker", target: ast.Attribute, declared: Type) -> Type:
    scope = checker.scope
    fn = scope.function
    if not isinstance(target.value, ast.Name) or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return declared
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params or params[0].arg != target.value.id or params[0].annotation is None:
        return declared
    info = scope.enclosing_class()
    self_t = scope.param_types.get(params[0].arg)
    if info is None or not isinstance(self_t, Instance) or self_t.info is not info or len(self_t.args) != len(info.type_vars):
        return declared
    return substitute(declared, {tv_key(tv): arg for tv, arg in zip(info.type_vars, self_t.args)})
