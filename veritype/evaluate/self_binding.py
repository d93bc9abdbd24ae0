"""Binding a method's first parameter to its receiver (`bind_self`).

A method found on a class is seen through an instance, a class object or a
constructor call: its `self`/`cls` parameter is solved against the receiver
and dropped, `Self` becomes the receiver, overload items whose explicit self
type the receiver does not fit are dropped, and a constructor's return type
becomes the constructed instance. Member lookup (`members.py`) finds the
member; this module binds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import (
    POS_ONLY, POS_OR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, Overloaded, TupleType, Type,
    TypedDictType, TypeType, TypeVarType,
)
from veritype.types.substitute import erase_to_any, substitute, tv_key, type_vars_in
from veritype.types.solve import SUBTYPE, infer_constraints, solve
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def bind_self_vars(t: Type, receiver: Type) -> Type:
    """An attribute declared with `Self` seen through an instance: Self is that instance
    (spec, "Use in attribute annotations": the type of the attribute is the receiver's)."""
    selfs = {k: v for k, v in type_vars_in(t).items() if v.kind == "self"}
    if not selfs:
        return t
    value = receiver.fallback if isinstance(receiver, LiteralType) else receiver
    if not isinstance(value, (Instance, TypeVarType, TupleType, TypedDictType)):
        return t
    return substitute(t, {k: value for k in selfs})


def bind_self(ev: "Evaluator", t: Type, receiver: Type, constructor_of: Instance | None = None, init: bool = False) -> Type:
    """Bind the first parameter of a method to `receiver` and drop it."""
    if isinstance(t, Overloaded):
        items = [bind_self(ev, i, receiver, constructor_of, init) for i in t.items]
        callables = [i for i in items if isinstance(i, CallableType)]
        # Items whose explicit `self` type the receiver does not fit are dropped,
        # except when constructing a subclass: its own type arguments need not
        # match the base's self annotations (mypy accepts these calls too).
        fitting = [
            c for c, orig in zip(callables, t.items)
            if _self_fits(ev, orig, receiver)
            or (constructor_of is not None and (_self_class(orig) is not constructor_of.info or type_vars_in(constructor_of)))
        ]
        chosen = fitting or callables
        if len(chosen) == 1:
            return chosen[0]
        return Overloaded(tuple(chosen), t.name) if chosen else AnyType("special")
    if not isinstance(t, CallableType):
        return t
    if t.is_ellipsis:
        return t
    params = t.params
    if not params or params[0].kind not in (POS_ONLY, POS_OR_KW):
        if params and params[0].kind == VAR_POS:
            return t if constructor_of is None else _ctor_ret(t, constructor_of, init)
        return t
    first = params[0]
    mapping: dict = {}
    first_vars: set = set()
    if t.type_vars:  # (most methods have none: nothing to solve, no Self)
        own = {tv_key(v) for v in t.type_vars}
        first_vars = {k for k in type_vars_in(first.type) if k in own}
        if first_vars:
            cons = infer_constraints(ev, first.type, receiver, SUBTYPE, first_vars)
            # Variables the receiver says nothing of stay the call's to solve: a
            # constructor's `self: H[list[T]]` against `H[T_co]` leaves T to the arguments.
            learnt = {c.key for c in cons}
            solved = solve(ev, [v for v in t.type_vars if tv_key(v) in first_vars and tv_key(v) in learnt], cons)
            mapping.update(solved)
        for v in t.type_vars:
            if v.kind == "self":
                self_value = receiver.item if isinstance(receiver, TypeType) else receiver
                if isinstance(self_value, (LiteralType,)):
                    self_value = self_value.fallback
                mapping[tv_key(v)] = self_value
    rest = CallableType(params[1:], t.ret, t.type_vars, t.name, t.definition, t.is_ellipsis, t.is_type_obj, t.type_guard, t.type_is, t.is_untyped, t.is_async, t.kwargs_unpacked, t.owner)
    if mapping:
        substituted = substitute(rest, mapping)
        # Substitution keeps a callable a callable (it maps inside params and return).
        if isinstance(substituted, CallableType):
            rest = substituted
    if constructor_of is not None:
        if init:
            explicit_self = first.type
            ret: Type = constructor_of
            if first_vars or (isinstance(explicit_self, Instance) and explicit_self.info is constructor_of.info and explicit_self != constructor_of.info.self_instance()):
                solved_self = substitute(explicit_self, mapping) if mapping else explicit_self
                if isinstance(solved_self, Instance):
                    ret = solved_self
            elif isinstance(explicit_self, Instance) and explicit_self.info is not constructor_of.info and explicit_self.info in constructor_of.info.mro:
                # A base's `__init__(self: dict[str, _VT], ...)` fixes the subclass's
                # own parameters through the base (OrderedDict(a=1) is OrderedDict[str, int]).
                template = map_instance_to_supertype(constructor_of, explicit_self.info)
                own_keys = {tv_key(v) for v in constructor_of.info.type_vars}
                if template is not None:
                    cons = [c for c in infer_constraints(ev, template, explicit_self, SUBTYPE, own_keys)
                            if not (isinstance(c.target, TypeVarType) and tv_key(c.target) == c.key)]
                    if cons:
                        solved = solve(ev, [v for v in constructor_of.info.type_vars if any(c.key == tv_key(v) for c in cons)], cons)
                        r = substitute(constructor_of, solved)
                        if isinstance(r, Instance):
                            ret = r
            return CallableType(rest.params, ret, rest.type_vars, rest.name, rest.definition, rest.is_ellipsis, True, None, None, rest.is_untyped)
        if isinstance(rest.ret, AnyType) and rest.ret.reason in ("unannotated", "implicit"):
            # Spec, "__new__ Method": "If the return type of __new__ is not annotated,
            # a type checker may assume that the return type is Self" (mypy does).
            return CallableType(rest.params, constructor_of, rest.type_vars, rest.name, rest.definition, rest.is_ellipsis, True, None, None, rest.is_untyped)
        return rest
    return rest


def _ctor_ret(t: CallableType, inst: Instance, init: bool) -> CallableType:
    if init:
        return CallableType(t.params, inst, t.type_vars, t.name, t.definition, t.is_ellipsis, True)
    return t


def _self_class(item: CallableType) -> object:
    if item.params and isinstance(item.params[0].type, Instance):
        return item.params[0].type.info
    return None


def takes_self(ev: "Evaluator", t: CallableType | Overloaded, receiver: Type) -> bool:
    """Whether some signature of `t` has a positional first parameter the receiver fits."""
    items = t.items if isinstance(t, Overloaded) else (t,)
    return any(not i.is_ellipsis and bool(i.params) and i.params[0].kind in (POS_ONLY, POS_OR_KW) and _self_fits(ev, i, receiver) for i in items)


def _self_fits(ev: "Evaluator", item: CallableType, receiver: Type) -> bool:
    if not item.params or item.params[0].kind not in (POS_ONLY, POS_OR_KW):
        return True
    first = item.params[0].type

    if type_vars_in(first):
        if isinstance(first, Instance) and any(v.kind == "typevartuple" for v in first.info.type_vars):
            # `self: Array[Axis1, Axis2]` on a class generic over a TypeVarTuple (spec,
            # "TypeVarTuple", "Overloads for Accessing Individual Types"): the shape
            # must fit, whatever the variables solve to.
            erased = erase_to_any(first, type_vars_in(first))
            return is_subtype(ev, receiver, erased)
        return _bounds_fit(ev, first, receiver)
    return is_subtype(ev, receiver, first)


def _bounds_fit(ev: "Evaluator", first: Type, receiver: Type) -> bool:
    """`self: RaisesGroup[E]` (E bound to Exception) on a `RaisesGroup[KeyboardInterrupt]`:
    the item does not apply, as mypy binds self types (pytest's overloaded
    `RaisesGroup.matches`, a TypeGuard per item). Only the plain shape is judged, a
    self type of the receiver's class with bare type variables as arguments."""

    if not isinstance(first, Instance) or not isinstance(receiver, Instance) or first.info is not receiver.info:
        return True
    for arg, actual in zip(first.args, receiver.args):
        if not isinstance(arg, TypeVarType) or isinstance(actual, (AnyType, TypeVarType)):
            continue
        if arg.upper_bound is not None and not is_subtype(ev, actual, arg.upper_bound):
            return False
        if arg.values and not any(is_subtype(ev, actual, v) for v in arg.values):
            return False
    return True
