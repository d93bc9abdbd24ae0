"""Rules for dataclass definitions: field order, frozen inheritance, `__post_init__`, slots.

The spec ("Dataclasses", "Dataclass semantics"): "all fields without default
values must appear before fields with default values" (not enforced with
`init=False` or for keyword-only fields); "Frozen dataclasses cannot inherit
from non-frozen dataclasses" (and, as at run time, the reverse). PEP 557:
`__post_init__` is called with the `InitVar` fields "in the order they were
defined in the class". A class we could not fully read (`unknown`) is never
reported. Messages and codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.dataclasses import DataclassInfo
from veritype.semantic import symbols as S
from veritype.types.model import POS_ONLY, POS_OR_KW, CallableType, NoneType, Param

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def _dataclass(info: "ClassInfo") -> DataclassInfo | None:
    info.synthesized  # processes the class if it was not yet
    dc = info.dataclass_info
    return dc if isinstance(dc, DataclassInfo) and not dc.unknown else None


def check_dataclass(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if node.decorator_list:
        from veritype.check.dataclass_literal_args import check_dataclass_flags

        check_dataclass_flags(checker, node)
    dc = _dataclass(info)
    if dc is None:
        return
    try:
        _field_order(checker, dc)
        _frozen_inheritance(checker, node, info, dc)
        _post_init(checker, info, dc)
        _own_slots(checker, node, dc)
    except RecursionError:
        pass


def _field_order(checker: "ModuleChecker", dc: DataclassInfo) -> None:
    if not dc.init:
        return
    seen_default = False
    for f in dc.fields:
        if not f.init or f.kw_only:
            continue
        if f.has_default:
            seen_default = True
        elif seen_default and f.node is not None:
            checker.error(f.node, "Attributes without a default cannot follow attributes with one", "misc")
            return


def _frozen_inheritance(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo", dc: DataclassInfo) -> None:
    for base in info.bases:
        base_dc = _dataclass(base.info)
        if base_dc is None or base_dc.frozen == dc.frozen:
            continue
        if base.info.node is not None and any(k.arg == "metaclass" for k in base.info.node.keywords) and not base_dc.stdlib:
            # The class that names a dataclass_transform metaclass is the
            # model base, not a dataclass with a frozenness of its own (as a
            # transform-decorated base class is not one either).
            continue
        if dc.frozen:
            checker.error(node, "Frozen dataclass cannot inherit from a non-frozen dataclass", "misc")
        else:
            checker.error(node, "Non-frozen dataclass cannot inherit from a frozen dataclass", "misc")
        return


def _post_init(checker: "ModuleChecker", info: "ClassInfo", dc: DataclassInfo) -> None:
    """`__post_init__` must accept the InitVars, positionally, in field order.

    Only for the stdlib decorator: libraries using `dataclass_transform` may
    give `__post_init__` other meanings."""
    if not dc.stdlib:
        return
    sym = info.symbols.get("__post_init__")
    if sym is None or sym.kind != S.FUNC or len(sym.decls) != 1:
        return
    fn = sym.decls[0]
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list:
        return
    actual = checker.ev.symbol_type(sym, info.scope)
    if not isinstance(actual, CallableType) or actual.is_untyped or actual.type_vars:
        return
    self_inst = info.self_instance()
    initvars = [f for f in dc.fields if f.is_initvar and f.init]
    expected = CallableType(
        tuple([Param("self", self_inst, POS_ONLY)] + [Param(f.name, f.type, POS_ONLY) for f in initvars]),
        NoneType(), name="__post_init__",
    )
    from veritype.evaluate.self_binding import bind_self
    from veritype.types.format import format_pair
    from veritype.types.subtype import is_subtype

    got = bind_self(checker.ev, actual, self_inst)
    want = bind_self(checker.ev, expected, self_inst)
    if not isinstance(got, CallableType) or not isinstance(want, CallableType):
        return
    if checker.ev.subtype_checker().callable_ok(got, want):
        return
    where = fn
    if not is_subtype(checker.ev, got.ret, want.ret):
        s, b = format_pair(got.ret, want.ret)
        checker.error(where, f'Return type "{s}" of "__post_init__" incompatible with return type "{b}" in supertype "dataclass"', "override")
        return
    positional = [p for p in got.params if p.kind in (POS_ONLY, POS_OR_KW)]
    if len(positional) == len(want.params) and len(got.params) == len(positional):
        for i, (gp, wp) in enumerate(zip(positional, want.params)):
            if not is_subtype(checker.ev, wp.type, gp.type):
                _, b = format_pair(gp.type, wp.type)
                checker.error(where, f'Argument {i + 2} of "__post_init__" is incompatible with supertype "dataclass"; supertype defines the argument type as "{b}"', "override")
                return
    checker.error(where, 'Signature of "__post_init__" incompatible with supertype "dataclass"', "override")


def _own_slots(checker: "ModuleChecker", node: ast.ClassDef, dc: DataclassInfo) -> None:
    """`@dataclass(slots=True)` makes `__slots__` itself and raises TypeError
    ("already specifies __slots__") when the class body defines it (Python's
    dataclasses documentation: slots=True "will generate a __slots__ attribute";
    the class is re-created with it). mypy's dataclasses plugin words it so."""
    if not dc.slots or not dc.stdlib:
        return
    for stmt in node.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else []
        if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets):
            checker.error(node, f'"{node.name}" both defines "__slots__" and is used with "slots=True"', "misc")
            return
