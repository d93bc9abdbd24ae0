"""A decorator applied to a function: the function must be a valid argument.

`@dec def f` calls `dec(f)`; mypy checks that call like any other and reports
an argument the decorator cannot take (`Argument 1 to "dec" has incompatible
type ...  [arg-type]`) on the decorator's line. The spec's ParamSpec examples
("ParamSpec", `Concatenate`) rely on it: a decorator expecting
`Callable[Concatenate[int, P], R]` rejects a function whose first parameter is
not an int. Only that argument's type is reported here; a decorator whose
call veritype cannot evaluate (Any, other errors) ends the chain silently, as
the decorated type then is Any (evaluate.functions.decorated_type).
"""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, CallableType, Overloaded, Type
from veritype.evaluate.call_dispatch import call_type
from veritype.evaluate.calls import ARG_POS, Arg, CallSite, Collect
from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, PROPERTY, STATIC, TRANSPARENT, decorator_names

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_decorator_calls(checker: "ModuleChecker", node: FuncDef, sig: CallableType, dec_types: list[tuple[ast.expr, Type]]) -> None:
    ev = checker.ev
    names = dict(zip(map(id, node.decorator_list), decorator_names(ev, node, checker.scope)))
    base: Type = sig
    for dec, dec_type in reversed(dec_types):
        name = names.get(id(dec), "")
        if name in TRANSPARENT or name in STATIC or name in CLASSMETHOD or name in OVERLOAD or name in PROPERTY:
            continue
        if name == "typing.no_type_check" or isinstance(dec_type, AnyType):
            return
        collect = Collect()
        exprs = checker.exprs()
        site = CallSite(ev, lambda n, e: AnyType("special"), collect, dec, lambda t, n: exprs.iterate(t, n), scope=checker.scope)
        result = call_type(site, dec_type, [Arg(ARG_POS, type=base)])
        if collect.errors:
            mismatch = [msg for _n, msg, code in collect.errors if code == "arg-type" and msg.startswith("Argument 1 ")]
            if len(mismatch) == len(collect.errors):
                checker.error(dec, mismatch[0], "arg-type")
            return
        base = result
        if isinstance(base, (CallableType, Overloaded)) and base.name != node.name:
            base = dataclasses.replace(base, name=node.name)
