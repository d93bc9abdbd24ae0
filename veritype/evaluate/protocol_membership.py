"""Protocol membership: a protocol's members, whether a type satisfies a protocol
structurally (members present, settable where the protocol's are, class variables and
instance variables matched) and the actual member compared.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
import ast
from veritype.semantic import symbols as S
from veritype.types.model import AnyType, Instance, Type, TypeType
from veritype.evaluate.dataclasses import frozen_field_owner
from veritype.evaluate.declarations import qualifiers
from veritype.evaluate.functions import method_kind

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.members import Members


PROTOCOL_SKIP = frozenset({"__init__", "__new__", "__slots__", "__class_getitem__", "__match_args__", "__annotations__", "__dict__", "__module__", "__doc__", "__weakref__", "__abstractmethods__", "__parameters__", "__orig_bases__", "__protocol_attrs__", "__non_callable_proto_members__", "__type_params__", "__init_subclass__"})


def protocol_members(members: "Members", info: "ClassInfo") -> list[str]:
    cached = getattr(info, "_protocol_members", None)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    names: dict[str, None] = {}
    for cls in info.mro:
        if not cls.is_protocol:
            continue
        for name, sym in cls.symbols.items():
            if name in PROTOCOL_SKIP:
                continue
            if sym.kind in (S.MODULE_REF, S.FROM_IMPORT):
                continue
            if sym.is_instance_attr:
                # Assigned only through `self` in a method: not a protocol
                # member (spec, "Protocols"; reported in check.class_rules).
                continue
            names.setdefault(name, None)
    result = list(names)
    info._protocol_members = result  # type: ignore[attr-defined]
    return result


def satisfies(members: "Members", left: Type, proto: Instance, checker) -> bool:  # type: ignore[no-untyped-def]
    for name in members.protocol_members(proto.info):
        # Spec, "Protocols": `Self` in a protocol member stands for the type
        # being checked against it, so the protocol's members bind to `left`.
        expected = members.instance_member(proto, name, left) if isinstance(left, Instance) else members.get(proto, name)
        if expected is None:
            continue
        if isinstance(left, TypeType) and isinstance(left.item, Instance) and not _class_object_member_ok(members, proto.info, left.item.info, name):
            return False
        actual = members.protocol_actual(left, name)
        if actual is None:
            if isinstance(left, Instance) and any(c.has_any_base for c in left.info.mro):
                continue
            return False
        if isinstance(expected, AnyType) or isinstance(actual, AnyType):
            continue
        if not checker.check(actual, expected):
            return False
        if members._both_mutable_vars(proto.info, left, name) and not checker.check(expected, actual):
            # Spec, "Protocols": "mutable attributes ... are invariant" - a
            # settable `x: int` member is not matched by a settable `x: bool`.
            return False
        if isinstance(left, Instance) and members._settable_member(proto.info, name) and members._not_settable(left.info, name):
            # Spec, "Protocols": "By default, protocol variables as defined
            # above are considered readable and writable" - a property
            # without a setter, a NamedTuple field, a frozen dataclass field
            # or a ClassVar (not writable through an instance) does not do.
            return False
        if isinstance(left, Instance) and members._class_var(proto.info, name) and members._instance_only(left.info, name):
            # A ClassVar member must be readable on the class object too.
            return False
    return True


def _class_object_member_ok(members: "Members", proto: "ClassInfo", cls: "ClassInfo", name: str) -> bool:
    """A class object against a protocol (spec, "Type[] and class objects vs
    protocols": "accessing all members on it results in types compatible with
    the protocol members"). As in mypy: a ClassVar member of the protocol is
    never matched by a class object, and a variable the class declares for its
    instances (annotated in the body, not ClassVar) is not a member of the class
    object. An unannotated class-body variable is a class variable."""
    if class_var(members, proto, name):
        return False
    if any(c.has_any_base for c in cls.mro):
        return True
    from veritype.evaluate.declarations import qualifiers

    hit = _written_definition(cls, name)
    if hit is None:
        return True
    sym, owner = hit
    if sym.kind != S.VAR or sym.annotation is None or sym.is_instance_attr:
        return True
    return "ClassVar" in qualifiers(members.ev, sym, owner.scope)


def protocol_actual(members: "Members", left: Type, name: str) -> Type | None:
    """`left`'s member `name` as a protocol member: as attribute access, except that
    a class object's `__call__` is its constructor (calling the class object runs
    `type.__call__`, not the instances' `__call__`; mypy matches it the same way)."""
    if name == "__call__" and isinstance(left, TypeType) and isinstance(left.item, Instance):
        ctor = members.constructor(left)
        if ctor is not None:
            return ctor
    return members.get(left, name)


def settable_member(members: "Members", proto: "ClassInfo", name: str) -> bool:
    """A protocol member written to through instances: a plain variable or a
    property with a setter."""
    if members._mutable_var(proto, name, allow_classvar=False):
        return True
    hit = proto.get(name)
    return hit is not None and hit[0].kind == S.FUNC and _property_setter(members.ev, hit[0], hit[1]) is True


def class_var(members: "Members", info: "ClassInfo", name: str) -> bool:
    hit = info.get(name)
    return hit is not None and hit[0].kind == S.VAR and hit[0].annotation is not None and "ClassVar" in qualifiers(members.ev, hit[0], hit[1].scope)


def instance_only(members: "Members", info: "ClassInfo", name: str) -> bool:
    """Whether `name` is set only through `self` in methods (not on the class)."""
    hit = info.get(name)
    return hit is not None and hit[0].is_instance_attr and not info.has_any_base


def not_settable(members: "Members", info: "ClassInfo", name: str) -> bool:
    """Whether `name` certainly cannot be assigned through an instance of `info`."""
    from veritype.evaluate.dataclasses import frozen_field_owner
    from veritype.evaluate.declarations import qualifiers

    if frozen_field_owner(info, name) is not None:
        return True
    hit = _written_definition(info, name)
    if hit is None:
        return False
    sym, cls = hit
    if cls.is_namedtuple and sym.kind == S.VAR and sym.annotation is not None:
        return True
    if sym.kind == S.VAR and sym.annotation is not None and not sym.is_instance_attr:
        return "ClassVar" in qualifiers(members.ev, sym, cls.scope)
    return sym.kind == S.FUNC and _property_setter(members.ev, sym, cls) is False


def both_mutable_vars(members: "Members", proto: "ClassInfo", left: Type, name: str) -> bool:
    """Whether `name` is a plain settable variable (annotated, not Final,
    ReadOnly or a descriptor; a ClassVar counts) both in the protocol and in
    the class of `left`.
    Anything else (properties, methods, inferred attributes) stays covariant."""
    if not isinstance(left, Instance):
        return False
    # Only declared ones on both sides: an inferred attribute's type is a guess
    # (widened literals, empty containers) too rough to be held invariant.
    # Read-only fields (NamedTuple, frozen dataclasses) are not held invariant either.
    if left.info.is_namedtuple:
        return False

    if frozen_field_owner(left.info, name) is not None:
        return False
    return members._mutable_var(proto, name) and members._mutable_var(left.info, name)


def mutable_var(members: "Members", info: "ClassInfo", name: str, allow_classvar: bool = True) -> bool:
    hit = _written_definition(info, name)
    if hit is None:
        return False
    sym, cls = hit
    if sym.kind != S.VAR or sym.annotation is None:
        return False
    quals = qualifiers(members.ev, sym, cls.scope)
    # A ClassVar is settable through the class, so held invariant too
    # (unless the caller asks about writes through an instance).
    if quals & {"Final", "ReadOnly"} or ("ClassVar" in quals and not allow_classvar):
        return False
    declared = members.ev.declared_type(sym, cls.scope)
    # A descriptor-typed member is not a plain variable.
    return not (isinstance(declared, Instance) and any("__get__" in c.symbols for c in declared.info.mro[:-1]))


def _written_definition(info: "ClassInfo", name: str) -> "tuple[S.Symbol, ClassInfo] | None":
    """The first written definition of `name` along the MRO; None when there is
    none or a made-up member (dataclass, NamedTuple machinery) comes first."""
    for cls in info.mro:
        sym = cls.symbols.get(name)
        if sym is None:
            if cls.synthesized.get(name) is not None:
                return None
            continue
        return sym, cls
    return None


def _property_setter(ev: "Evaluator", sym: S.Symbol, cls: "ClassInfo") -> bool | None:
    """For a property: whether it has a setter; None when `sym` is not a property."""

    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs or len(defs) != len(sym.decls) or method_kind(ev, defs[0], cls.scope) != "property":
        return None
    return any(isinstance(dec, ast.Attribute) and dec.attr == "setter" for d in defs for dec in d.decorator_list)
