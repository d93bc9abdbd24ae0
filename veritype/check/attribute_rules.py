"""Rules for assigning to attributes: read-only properties, frozen dataclass fields."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import method_kind
from veritype.evaluate.expressions import ExprEvaluator
from veritype.semantic import symbols as S
from veritype.types.model import Instance, Type

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_attribute_assignment(checker: "ModuleChecker", target: ast.Attribute, value: Type) -> None:
    silent = ExprEvaluator(checker.ev, checker.scope, checker.flow, None)
    base = silent.infer(target.value)
    if not isinstance(base, Instance):
        return
    owner = slots_violation(base.info, target.attr)
    if owner is not None:
        checker.error(target, f'Trying to assign name "{target.attr}" that is not in "__slots__" of type "{owner.fullname}"', "misc")
        return
    hit = base.info.get(target.attr)
    if hit is None:
        return
    sym, cls = hit
    if sym.kind == S.VAR:
        # A field of a frozen dataclass (spec, "Dataclasses": frozen instances are read-only).
        from veritype.evaluate.dataclasses import frozen_field_owner

        owner = frozen_field_owner(base.info, target.attr)
        if owner is not None:
            checker.error(target, f'Property "{target.attr}" defined in "{owner.name}" is read-only', "misc")
        return
    if sym.kind != S.FUNC:
        return
    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs or method_kind(checker.ev, defs[0], cls.scope) != "property":
        return
    from veritype.evaluate.functions import decorator_names

    if "functools.cached_property" in decorator_names(checker.ev, defs[0], cls.scope):
        return  # a cached_property may be assigned (it is a non-data descriptor)
    has_setter = any(
        isinstance(dec, ast.Attribute) and dec.attr == "setter" for d in defs for dec in d.decorator_list
    )
    if not has_setter:
        checker.error(target, f'Property "{target.attr}" defined in "{cls.name}" is read-only', "misc")


def slots_violation(info: "ClassInfo", name: str) -> "ClassInfo | None":
    """The class whose `__slots__` lack `name`, when `info` is a `slots=True` dataclass and
    every class of its MRO has slots (only then is there no `__dict__` to take the name)."""
    from veritype.evaluate.dataclasses import DataclassInfo

    if name.startswith("__") and name.endswith("__"):
        return None
    for cls in info.mro:
        if cls.fullname == "builtins.object":
            continue
        cls.synthesized  # processes a dataclass
        dc = cls.dataclass_info
        if not isinstance(dc, DataclassInfo) or dc.unknown or not dc.slots or cls.has_any_base:
            return None
        if "__slots__" in cls.symbols or "__setattr__" in cls.symbols or "__getattr__" in cls.symbols:
            return None
        if any(f.name == name for f in dc.fields):
            return None
        sym = cls.symbols.get(name)
        if sym is not None and not sym.is_instance_attr:
            return None  # a class-level member (a property, a descriptor, a ClassVar)
    return info
