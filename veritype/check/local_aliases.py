"""A type alias defined in a function body: its value is checked as a type.

mypy 2.4.1 takes an unannotated `name = X[...]` in a function as a type alias
as it does at module scope (veritype too: evaluate/declarations), and reports
the errors of its value as a type expression there: `g = List[1]` is
`Invalid type: try using Literal[1] instead?` [valid-type], `u =
Union[classes]` for a variable `classes` is `Variable "classes" is not valid
as a type` [valid-type] with its note (cattrs: `final_union =
Union[union_classes]  # type: ignore`), `d = Dict[int]` is `"dict" expects 2
type arguments, but 1 given` [type-arg]; `A = List[T]` where the function
binds T is `Can't use bound type variable "T" to define generic alias`
[valid-type], as for `A: TypeAlias = List[T]` (check/typevar_scope_rules).
The value is then inferred as a value,
as any in a function. An argument that is no type expression at all
(`list[len(xs)]`) is reported by evaluate/type_applications instead.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.typevar_scope_rules import check_alias_of_bound_type_var
from veritype.evaluate.declarations import alias_info
from veritype.evaluate.type_application_args import ALIAS_VALUES
from veritype.evaluate.type_applications import INVALID_ALIAS, arguments_shaped

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_local_alias(checker: "ModuleChecker", stmt: ast.Assign, value: ast.Subscript, name: str) -> None:
    """`name = X[...]` in a function: `stmt`, whose one target is the name `name`
    and whose value is the subscript `value` (special_assignment has seen both)."""
    sym = checker.scope.table.get(name)
    if sym is None or sym.node is not stmt or alias_info(checker.ev, sym, checker.scope) is None:
        return
    if not arguments_shaped(value):
        # `A = list[len(xs)]`: no type alias; its 'Type expected' comes from
        # check_type_application, when the value is inferred as an expression.
        checker.error(value, INVALID_ALIAS, "valid-type")
        return
    ALIAS_VALUES.add(value)  # (not checked again as a value: evaluate/type_application_args)
    checker.ev.type_exprs.evaluate(value, checker.scope, report=checker.type_report(), alias_value=True)
    check_alias_of_bound_type_var(checker, value)
