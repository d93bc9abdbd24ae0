"""Assignments with special meaning: TypeVar/ParamSpec declarations, type aliases.

These are checked as type expressions (with their errors reported) instead of
as ordinary values.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check import alias_rules
from veritype.check.local_aliases import check_local_alias
from veritype.check.typevar_scope_rules import check_alias_of_bound_type_var
from veritype.evaluate import functional_classes as fc
from veritype.evaluate.declarations import TYPEVAR_KINDS, alias_info, type_alias_type_call, typevar_declaration
from veritype.evaluate.typeddict_calls import TYPEDDICT_NAMES
from veritype.evaluate.special import TYPING
from veritype.evaluate.type_applications import report_invalid_alias
from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

# The last part of the full name of each callee whose call, assigned to a name,
# is special below: TypeVar and its kin (declarations.typevar_declaration),
# NewType (newtype.newtype_call), TypedDict (typeddict_calls), NamedTuple and the
# other classes made by a call (functional_classes._from_call), TypeAliasType
# (declarations.type_alias_type_call). A call of anything else is none of them.
_SPECIAL_CALLEES = frozenset(
    [*TYPEVAR_KINDS, "NewType", "TypeAliasType"]
    + [n.rpartition(".")[2] for n in (*TYPEDDICT_NAMES, *fc._NAMEDTUPLE, *fc._COLLECTIONS, *fc._SENTINELS, *fc._ENUMS)])


def special_assignment(checker: "ModuleChecker", stmt: ast.Assign) -> bool:
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
        return False
    name = stmt.targets[0].id
    if checker.scope.kind == "function" and type(stmt.value) is not ast.Call:
        # Every special form below is a call (TypeVar, NewType, NamedTuple,
        # TypedDict, Enum, TypeAliasType) but a type alias, checked as a value in a function.
        if type(stmt.value) is ast.Subscript:
            check_local_alias(checker, stmt, stmt.value, name)  # (its value as a type; `A = list[len(xs)]`: no type alias)
        return False
    sym = checker.scope.table.get(name)
    if sym is None or sym.node is not stmt:
        return False
    ev = checker.ev
    if type(stmt.value) is ast.Call and _may_be_special_call(stmt.value, checker) and _special_call(checker, stmt, sym, name):
        return True
    if checker.scope.kind != "function" and alias_info(ev, sym, checker.scope) is not None:
        if not alias_rules.report_circular(checker, sym, stmt) and not report_invalid_alias(checker, stmt):
            ev.type_exprs.evaluate(stmt.value, checker.scope, report=checker.type_report(), alias_value=True)
            check_alias_of_bound_type_var(checker, stmt.value)  # (a class body's alias; none at module scope)
        return True
    return False


def _may_be_special_call(call: ast.Call, checker: "ModuleChecker") -> bool:
    """Whether `call` may be one of the special calls (see _SPECIAL_CALLEES): its
    callee is a name or dotted name that resolves to one of those names.

    Each test of _special_call resolves the callee itself: resolved here once
    first, most calls assigned are none of them (4k on the bench corpus, each
    resolved five times before)."""
    func = call.func
    if type(func) is not ast.Name and type(func) is not ast.Attribute:
        return False
    ev = checker.ev
    head: ast.expr = func
    while type(head) is ast.Attribute:
        head = head.value
    if type(head) is ast.Name and not ev.type_params_seen:
        # A callee whose first name is a variable, parameter or function (`self.make(...)`,
        # `helper(...)`; most calls assigned): its reference is that symbol's own, and
        # each attribute after it a plain member of that (Evaluator.resolve_expr, _own_ref,
        # member_ref), so its last part is the name written last. Looked up as
        # resolve_expr does, without making the references (3.7k callees on the bench
        # corpus). An import, a class or a name in the typing modules is resolved.
        hit = ev.lookup(head.id, checker.scope)
        if hit is None:
            return False
        sym, where = hit
        if (sym.kind == S.VAR or sym.kind == S.PARAM or sym.kind == S.FUNC) and where.module.name not in TYPING:
            return (func.attr if isinstance(func, ast.Attribute) else sym.name) in _SPECIAL_CALLEES
    ref = ev.resolve_expr(func, checker.scope)
    return ref is not None and ref.fullname.rpartition(".")[2] in _SPECIAL_CALLEES


def _special_call(checker: "ModuleChecker", stmt: ast.Assign, sym: Symbol, name: str) -> bool:
    """`name = TypeVar(...)`, `NewType(...)`, `NamedTuple(...)`, `TypedDict(...)`,
    an Enum or TypeAliasType call...: checked here (True), or none of them (False)."""
    ev = checker.ev
    tv = typevar_declaration(ev, sym, checker.scope)
    if tv is not None:
        call = stmt.value
        assert isinstance(call, ast.Call)
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str) and call.args[0].value != name:
            kind = tv.kind
            label = {"typevar": "TypeVar", "paramspec": "ParamSpec", "typevartuple": "TypeVarTuple"}[kind]
            checker.error(stmt, f'String argument 1 "{call.args[0].value}" to {label}(...) does not match variable name "{name}"', "misc")
        for arg in call.args[1:]:
            ev.type_exprs.evaluate(arg, checker.scope, report=checker.type_report())
        for kw in call.keywords:
            if kw.arg == "bound":
                ev.type_exprs.evaluate(kw.value, checker.scope, report=checker.type_report())
            elif kw.arg == "default":
                ev.type_exprs.evaluate_default(kw.value, checker.scope, tv.kind, report=checker.type_report())
        _variance_flags(checker, call, tv.kind)
        _typevar_shape(checker, stmt, tv)
        return True
    from veritype.evaluate.newtype import newtype_call, newtype_problems

    nt_call = newtype_call(ev, stmt, checker.scope)
    if nt_call is not None:
        for node, msg in newtype_problems(ev, nt_call, name, checker.scope):
            checker.error(node, msg, "valid-newtype")
        return True
    from veritype.evaluate.functional_classes import functional_class
    from veritype.evaluate.typeddict_calls import typeddict_call_problems

    if isinstance(stmt.value, ast.Call):
        for node, msg, code in typeddict_call_problems(ev, stmt.value, name, checker.scope) or ():
            checker.error(node, msg, code)
    made = functional_class(ev, sym, checker.scope)
    if made is not None:
        # `P = NamedTuple("P", [...])`: the name is the class, not the call's value.
        assert isinstance(stmt.value, ast.Call)
        first = stmt.value.args[0]
        if made.functional_enum_members is not None and isinstance(first, ast.Constant) and isinstance(first.value, str) and first.value != name:
            # The spec leaves the check optional; mypy makes it, and its users expect it.
            base = made.bases[0].info.fullname if made.bases else "enum.Enum"
            checker.error(first, f'String argument 1 "{first.value}" to {base}(...) does not match variable name "{name}"', "misc")
        for arg in stmt.value.args[1:]:
            checker.infer(arg) if not isinstance(arg, (ast.List, ast.Tuple, ast.Dict)) else None
        return True
    alias_call = type_alias_type_call(ev, sym, checker.scope) if len(sym.decls) == 1 else None
    if alias_call is not None:
        alias_rules.check_alias_type_call(checker, sym, alias_call)
        return True
    return False


def special_annassign(checker: "ModuleChecker", stmt: ast.AnnAssign) -> bool:
    return False


def _variance_flags(checker: "ModuleChecker", call: ast.Call, kind: str) -> None:
    """Spec, "Variance": type variables "accept keyword arguments covariant=True or
    contravariant=True. At most one of these may be passed"; and `infer_variance`
    ("a type checker should use inference to determine" the variance) leaves no
    room for a declared one (the runtime raises "Variance cannot be specified with
    infer_variance"). The same holds for ParamSpec and TypeVarTuple."""
    flags = {kw.arg for kw in call.keywords if isinstance(kw.value, ast.Constant) and kw.value.value is True}
    label = {"typevar": "TypeVar", "paramspec": "ParamSpec", "typevartuple": "TypeVarTuple"}.get(kind, "TypeVar")
    if {"covariant", "contravariant"} <= flags:
        checker.error(call, f"{label} cannot be both covariant and contravariant", "misc")
    elif "infer_variance" in flags and flags & {"covariant", "contravariant"}:
        checker.error(call, "Variance cannot be specified with infer_variance", "misc")


def _typevar_shape(checker: "ModuleChecker", stmt: ast.Assign, tv) -> None:  # type: ignore[no-untyped-def]
    """Spec, "Generics": "There should be at least two constraints, if any;
    specifying a single constraint is disallowed", and (PEP 696) a default "must
    be assignable to the bound" / be one of the constraints. mypy's messages."""
    from veritype.types.model import AnyType, TypeVarType
    from veritype.types.subtype import is_subtype

    call = stmt.value
    assert isinstance(call, ast.Call)
    if tv.kind == "typevartuple":
        # Spec, "TypeVarTuple": "Type variable tuples ... do not support type
        # constraints" (nor a bound: the runtime has no such parameter before 3.13's
        # typing_extensions, and the spec defines none).
        if len(call.args) > 1 or any(kw.arg == "bound" for kw in call.keywords):
            checker.error(stmt, "TypeVarTuple does not support constraints or a bound", "misc")
        return
    if tv.kind != "typevar":
        return
    if len(call.args) == 2 and not any(isinstance(a, ast.Starred) for a in call.args):
        checker.error(stmt, "Type variable must have at least two constrained types", "misc")
        return
    if _typevar_bound_rules(checker, stmt, tv):
        return
    default = tv.default
    if isinstance(default, TypeVarType) and default.kind == "typevar":
        _typevar_default_rules(checker, stmt, tv, default)
        return
    if default is None or isinstance(default, (AnyType, TypeVarType)):
        return
    if tv.upper_bound is not None and not isinstance(tv.upper_bound, AnyType) and not is_subtype(checker.ev, default, tv.upper_bound):
        checker.error(stmt, "TypeVar default must be a subtype of the bound type", "misc")
    elif tv.values and not any(isinstance(v, AnyType) or (is_subtype(checker.ev, default, v) and is_subtype(checker.ev, v, default)) for v in tv.values):
        checker.error(stmt, "TypeVar default must be one of the constraint types", "misc")


def _typevar_default_rules(checker: "ModuleChecker", stmt: ast.Assign, tv, default) -> None:  # type: ignore[no-untyped-def]
    """Spec, "Defaults for type parameters" (a default that is another type variable):
    "T1's bound must be a subtype of T2's bound" and "The constraints of T2 must be a
    superset of the constraints of T1". An unbounded default is not judged (silence)."""
    from veritype.types.model import AnyType
    from veritype.types.subtype import is_subtype

    ev = checker.ev

    def same(a, b) -> bool:  # type: ignore[no-untyped-def]
        return isinstance(a, AnyType) or isinstance(b, AnyType) or (is_subtype(ev, a, b) and is_subtype(ev, b, a))

    if tv.upper_bound is not None and not isinstance(tv.upper_bound, AnyType):
        bounds = list(default.values) or ([default.upper_bound] if default.upper_bound is not None else [])
        if bounds and not all(is_subtype(ev, b, tv.upper_bound) for b in bounds):
            checker.error(stmt, "TypeVar default must be a subtype of the bound type", "misc")
    elif tv.values:
        if default.values:
            if not all(any(same(d, c) for c in tv.values) for d in default.values):
                checker.error(stmt, "TypeVar default must be one of the constraint types", "misc")
        elif default.upper_bound is not None and not any(same(default.upper_bound, c) for c in tv.values):
            checker.error(stmt, "TypeVar default must be one of the constraint types", "misc")


def _typevar_bound_rules(checker: "ModuleChecker", stmt: ast.Assign, tv) -> bool:  # type: ignore[no-untyped-def]
    """Spec, "Generics": a TypeVar has constraints or an upper bound, not both, and
    neither "can be parameterized by type variables" (`bound=list[T]`). True if reported."""
    from veritype.types.substitute import type_vars_in

    call = stmt.value
    assert isinstance(call, ast.Call)
    if len(call.args) > 2 and any(kw.arg == "bound" for kw in call.keywords):
        checker.error(stmt, "TypeVar cannot have both values and an upper bound", "misc")
        return True
    if tv.upper_bound is not None and type_vars_in(tv.upper_bound):
        checker.error(stmt, 'TypeVar "bound" must be a type without type variables', "misc")
        return True
    if any(type_vars_in(v) for v in tv.values):
        checker.error(stmt, "TypeVar constraint type cannot be parametrized by type variables", "misc")
        return True
    return False
