"""Binding an explicitly specialized class to its constructor's `self` / `cls`.

Spec ("Constructors", "__init__ Method" and "__new__ Method"): "Regardless of
whether the self parameter type is explicit or inferred, a type checker
should bind the class being constructed to this parameter and report any type
errors that arise during binding" (the same for `cls` of `__new__`). Only a
call that spells the type arguments (`C[str]()`) is judged: without them the
annotation is what solves the class's variables. The message is mypy's
wording for a receiver that does not fit a method's `self`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import CallableType, Instance, Type, TypeType
from veritype.types.substitute import type_vars_in
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def binding_error(ev: "Evaluator", item: Instance) -> str | None:
    for name in ("__new__", "__init__"):
        hit = item.info.get(name)
        if hit is None or hit[1].fullname == "builtins.object":
            continue
        t = ev.symbol_type(hit[0], hit[1].scope)
        if not isinstance(t, CallableType) or not t.params or t.definition is None:
            continue
        first: Type = t.params[0].type
        receiver: Type = TypeType(item) if name == "__new__" else item
        if not _explicit(t) or type_vars_in(first):
            continue
        if not is_subtype(ev, receiver, first):
            return f'Invalid self argument "{format_type(receiver)}" to attribute function "{name}" with type "{format_type(t)}"'
    return None


def _explicit(t: CallableType) -> bool:
    node = t.definition
    args = getattr(node, "args", None)
    positional = [*args.posonlyargs, *args.args] if args is not None else []
    return bool(positional) and positional[0].annotation is not None
