"""Rules for assigning to attributes: read-only properties, frozen dataclass fields."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.attribute_writes import unknown_write_message
from veritype.check.method_assign import check_method_assign
from veritype.evaluate.functions import method_kind, decorator_names
from veritype.evaluate.expressions import ExprEvaluator
from veritype.semantic import symbols as S
from veritype.types.format import format_type
from veritype.types.model import CallableType, Instance, NoneType, Overloaded, Type, TypeVarType, UnionType
from veritype.evaluate.dataclasses import DataclassInfo, frozen_field_owner

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_attribute_assignment(checker: "ModuleChecker", target: ast.Attribute, value: Type, value_node: ast.expr | None = None,
                               base: Type | None = None) -> bool:
    """The rules for `target = value` on an attribute; True when the attribute is
    unknown ([attr-defined] reported). `base`: the type of its object, if inferred
    (silently) already."""
    if base is None:
        base = ExprEvaluator(checker.ev, checker.scope, checker.flow, None).infer(target.value)
    if isinstance(base, UnionType):
        if _check_function_union(checker, target, base):
            return True
        _check_union_target(checker, target, base)
        return False
    if isinstance(base, (CallableType, Overloaded)) or (isinstance(base, TypeVarType) and _callable_bound(base)):
        return _check_function_attribute(checker, target, base)
    if not isinstance(base, Instance):
        unknown = unknown_write_message(checker, target, base)
        if unknown is not None:
            checker.error(target, unknown, "attr-defined")
            return True
        check_method_assign(checker, target, base, value, value_node)
        return False
    hit = base.info.get(target.attr)
    if hit is None:
        made_up = next((c for c in base.info.mro if c.is_namedtuple and c.node is None and target.attr in c.synthesized), None)
        if made_up is not None and target.attr != "__init__":
            # A field of a functional named tuple: a read-only property at run time.
            checker.error(target, f'Property "{target.attr}" defined in "{made_up.name}" is read-only', "misc")
            return False
        unknown = unknown_write_message(checker, target, base)
        if unknown is not None:
            # mypy: an attribute nothing declares is [attr-defined], `__slots__` or not.
            checker.error(target, unknown, "attr-defined")
            return True
    owner = slots_violation(base.info, target.attr)
    if owner is not None:
        checker.error(target, f'Trying to assign name "{target.attr}" that is not in "__slots__" of type "{owner.fullname}"', "misc")
        return False
    if hit is None:
        return False
    sym, cls = hit
    if sym.kind == S.VAR:
        # A field of a frozen dataclass (spec, "Dataclasses": frozen instances are read-only).
        owner = frozen_field_owner(base.info, target.attr)
        if owner is None and cls.is_namedtuple and not sym.is_instance_attr:
            owner = cls  # a NamedTuple field is a read-only property at run time
        if owner is not None:
            checker.error(target, f'Property "{target.attr}" defined in "{owner.name}" is read-only', "misc")
        else:
            check_method_assign(checker, target, base, value, value_node)
        return False
    if sym.kind != S.FUNC:
        return False
    if check_method_assign(checker, target, base, value, value_node):
        return False
    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs or method_kind(checker.ev, defs[0], cls.scope) != "property":
        return False

    if "functools.cached_property" in decorator_names(checker.ev, defs[0], cls.scope):
        return False  # a cached_property may be assigned (it is a non-data descriptor)
    has_setter = any(
        isinstance(dec, ast.Attribute) and dec.attr == "setter" for d in defs for dec in d.decorator_list
    )
    if not has_setter:
        checker.error(target, f'Property "{target.attr}" defined in "{cls.name}" is read-only', "misc")
    return False


def slots_violation(info: "ClassInfo", name: str) -> "ClassInfo | None":
    """The class whose `__slots__` lack `name`, when `info` is a `slots=True` dataclass and
    every class of its MRO has slots (only then is there no `__dict__` to take the name)."""

    if name.startswith("__") and name.endswith("__"):
        return None
    for cls in info.mro:
        if cls.fullname == "builtins.object":
            continue
        cls.synthesized  # processes a dataclass
        dc = cls.dataclass_info
        if cls.has_any_base or cls.node is None:
            return None
        if not isinstance(dc, DataclassInfo) or dc.unknown or not dc.slots:
            # A plain class with literal `__slots__` (Python data model, "__slots__"),
            # or a `slots=False` dataclass spelling them out itself (as mypy).
            names = _literal_slots(cls)
            if names is None or name in names or "__dict__" in names or (dc is not None and not isinstance(dc, DataclassInfo)) or (isinstance(dc, DataclassInfo) and dc.unknown):
                return None
            if "__setattr__" in cls.symbols or "__getattr__" in cls.symbols:
                return None
            sym = cls.symbols.get(name)
            if sym is not None and not sym.is_instance_attr:
                return None
            continue
        if "__slots__" in cls.symbols or "__setattr__" in cls.symbols or "__getattr__" in cls.symbols:
            return None
        if any(f.name == name for f in dc.fields):
            return None
        sym = cls.symbols.get(name)
        if sym is not None and not sym.is_instance_attr:
            return None  # a class-level member (a property, a descriptor, a ClassVar)
    return info


def _literal_slots(cls: "ClassInfo") -> "set[str] | None":
    """The names of a class body's one `__slots__ = <str | tuple/list of str>`; None
    when there is none, or it is anything less literal."""
    sym = cls.symbols.get("__slots__")
    if sym is None or len(sym.decls) != 1:
        return None
    decl = sym.decls[0]
    value = decl.value if isinstance(decl, (ast.Assign, ast.AnnAssign)) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return {value.value}
    if isinstance(value, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
        return {e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return None


def _check_function_attribute(checker: "ModuleChecker", target: ast.Attribute, base: "CallableType | Overloaded | TypeVarType") -> bool:
    """`view.view_class = cls` on a function object: it takes only the attributes
    of `builtins.function` (mypy reports [attr-defined]; pyright too), whatever the
    callable's origin (a `def`, a `Callable[...]` value, an overloaded function, a
    type variable bound to a callable) — the same lookup as a read, which mypy
    reports alike. Never a class object (its writes are the class's)."""
    if isinstance(base, CallableType) and base.is_type_obj:
        return False
    if isinstance(base, Overloaded) and any(i.is_type_obj for i in base.items):
        return False
    if checker.ev.bound_member(base, target.attr) is None:
        shown = "overloaded function" if isinstance(base, Overloaded) else f'"{format_type(base)}"'  # mypy's words, unquoted
        checker.error(target, f'{shown} has no attribute "{target.attr}"', "attr-defined")
        return True
    return False


def _check_function_union(checker: "ModuleChecker", target: ast.Attribute, base: UnionType) -> bool:
    """A write to a union of function objects (`res = globs[name]` where the dict
    holds a bound method or a hook): mypy simplifies the union first, dropping
    the items that are subtypes of another (a `def (obj, as_=None)` is a
    `Callable[[Any], Any]`); one callable left is reported as for one, several
    as mypy's [union-attr] per item, each shown as its class, "function"."""
    items = base.items
    if not all(isinstance(i, (CallableType, Overloaded)) and not _is_class_object(i) for i in items):
        return False
    if any(checker.ev.bound_member(i, target.attr) is not None for i in items):
        return False
    from veritype.types.subtype import is_subtype

    kept: list[Type] = []
    for i, t in enumerate(items):
        if any(is_subtype(checker.ev, t, u) and (not is_subtype(checker.ev, u, t) or j < i) for j, u in enumerate(items) if j != i):
            continue
        kept.append(t)
    if len(kept) == 1:
        return _check_function_attribute(checker, target, kept[0])  # type: ignore[arg-type]
    checker.error(target, f'Item "function" of "{format_type(base)}" has no attribute "{target.attr}"', "union-attr")
    return True


def _is_class_object(t: Type) -> bool:
    return (isinstance(t, CallableType) and t.is_type_obj) or (isinstance(t, Overloaded) and any(i.is_type_obj for i in t.items))


def _callable_bound(t: TypeVarType) -> bool:
    """A plain type variable bound to a callable type (`F = TypeVar("F", bound=Callable[..., Any])`),
    or to nothing (`object`: hypothesis's `cached_strategy.__clear_cache = ...` with
    `cached_strategy: T`), whose attributes are looked up as a read's."""
    if t.kind != "typevar" or t.values:
        return False
    bound = t.upper_bound
    return bound is None or isinstance(bound, (CallableType, Overloaded)) or (isinstance(bound, Instance) and bound.info.fullname == "builtins.object")


def _check_union_target(checker: "ModuleChecker", target: ast.Attribute, base: UnionType) -> None:
    """mypy 2.4.1: a write through a union names each item that lacks the
    attribute, in the union's order (`Item "B" of "A | B" has no attribute "x"`
    [union-attr]), `None` included; an item that would take any name (or that
    the lookup is not sure of) is silent, as for a write to it alone."""
    for item in base.items:
        if isinstance(item, NoneType):
            missing = checker.ev.members.get(item, target.attr) is None
        else:
            missing = isinstance(item, Instance) and unknown_write_message(checker, target, item) is not None
        if missing:
            checker.error(target, f'Item "{format_type(item)}" of "{format_type(base)}" has no attribute "{target.attr}"', "union-attr")
