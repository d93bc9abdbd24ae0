"""Attribute access through `super()`: `super().name` and `super(C, obj).name`.

Python data model ("Invoking Descriptors", super binding): `super(C, obj).x`
searches `type(obj).__mro__` for `x` starting *after* `C`, and binds what it
finds to `obj`. So the member may come from any later class of the MRO (a
mixin's sibling, not only the first base), and a method returning `Self`
called through `super()` in a method whose `self` is `Self` stays that Self
(mypy binds the same way: the receiver, not the base class).
"""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import AnyType, CallableType, Instance, TupleType, Type, TypedDictType, TypeType, TypeVarType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.expressions import ExprEvaluator

# What `super_member` returns when the attribute is certainly missing.
MISSING = None


def is_super_call(exprs: "ExprEvaluator", node: ast.expr) -> bool:
    """`super()` or `super(C, obj)`, with `super` the builtin."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"):
        return False
    if node.keywords or len(node.args) not in (0, 2) or exprs.scope is None:
        return False
    ref = exprs.ev.resolve_expr(node.func, exprs.scope)
    return ref is not None and ref.fullname == "builtins.super"


def super_member(exprs: "ExprEvaluator", call: ast.Call, name: str) -> tuple[bool, Type | None, str | None]:
    """(understood, type, unsafe) of `super(...).name`: (True, None, _) when no class
    after the starting one has it; (False, None, None) when the call is not one this
    module reads. `unsafe` names the class when the member is an abstract method with a
    trivial body (mypy's `[safe-super]`: there is nothing to call)."""
    target = _start_and_receiver(exprs, call)
    if target is None:
        return False, None, None
    start, receiver = target
    found: list["ClassInfo"] = []
    t = lookup_after(exprs, start, receiver, name, found)
    unsafe = found[0].name if found and _abstract_placeholder(exprs, found[0], name) else None
    return True, t, unsafe


def _abstract_placeholder(exprs: "ExprEvaluator", cls: "ClassInfo", name: str) -> bool:
    """`cls.name` is one method (not in a stub) whose body is a placeholder and that is
    abstract: decorated `@abstractmethod`, or a member of a protocol."""
    from veritype.evaluate.functions import PROPERTY, decorator_names
    from veritype.syntax.bodies import is_trivial_body

    sym = cls.symbols.get(name)
    if sym is None or sym.kind != S.FUNC or len(sym.decls) != 1 or cls.module.is_stub:
        return False
    node = sym.decls[0]
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not is_trivial_body(node.body):
        return False
    names = decorator_names(exprs.ev, node, cls.scope)
    if any(n in PROPERTY or n.endswith((".setter", ".getter", ".deleter")) for n in names):
        return False  # a property is read, not called (mypy checks only methods)
    if any(n in ("abc.abstractmethod", "abc.abstractproperty") for n in names):
        return True
    return cls.is_protocol and not names


def lookup_after(exprs: "ExprEvaluator", start: "ClassInfo", receiver: Type, name: str, found: "list[ClassInfo] | None" = None) -> Type | None:
    """`name` along the MRO of the receiver's class after `start`, bound to `receiver`
    (the class that has it appended to `found`). Any where the MRO is not fully known."""
    ev = exprs.ev
    on_class = isinstance(receiver, TypeType)
    inst = _instance_of(ev, receiver.item if isinstance(receiver, TypeType) else receiver)
    if inst is None:
        return AnyType("special")
    mro = inst.info.mro
    if start not in mro:
        return AnyType("special")
    after = mro[mro.index(start) + 1:]
    members = ev.members
    for cls in after:
        sym = cls.symbols.get(name)
        if sym is None and name == "__new__" and cls.tuple_type is not None and isinstance(cls.synthesized.get("__init__"), CallableType):
            return _namedtuple_new(members._map_to(inst, cls, cls.synthesized["__init__"], receiver), inst)
        if sym is None:
            synth = cls.synthesized.get(name)
            if synth is not None:
                from veritype.evaluate.self_binding import bind_self

                t = members._map_to(inst, cls, synth, receiver)
                if isinstance(t, CallableType) and t.name != name:
                    # A made-up `__init__` is named by its class for constructor calls;
                    # called as a method it is the method.
                    t = dataclasses.replace(t, name=name)
                return bind_self(ev, t, receiver) if not on_class else t
            continue
        if cls.fullname == "builtins.object" and any(c.has_any_base or c.unknown_decorator for c in mro):
            # Only object's, but an unknown base before it may define the member
            # (mypy's visit_super_expr: "an undefined base class ... not an error").
            return AnyType("special")
        if found is not None:
            found.append(cls)
        found_t = members._from_symbol(inst, cls, sym, receiver, on_class=on_class)
        if on_class and found_t is not None and sym.kind == S.VAR and isinstance(found_t, Instance):
            desc = members._descriptor_get(found_t, inst, on_class=True)
            if desc is not None:
                return desc
        return found_t
    if any(c.has_any_base or c.unknown_decorator for c in mro):
        return AnyType("special")
    if on_class:
        # A metaclass attribute (e.g. `__name__`): found on the class object itself.
        meta = ev.metaclass_instance(inst.info)
        if meta is not None and ev.members.get(meta, name) is not None:
            return AnyType("special")
    return MISSING


def _namedtuple_new(init: Type, inst: Instance) -> Type:
    """A NamedTuple's `__new__`, seen from a subclass's `super().__new__(cls, ...)`:
    its fields as parameters after `cls` (the made-up `__init__` carries them),
    returning the instance (mypy: `def [_NT] (_cls: type[_NT], a: int) -> _NT`)."""
    if not isinstance(init, CallableType) or not init.params:
        return AnyType("special")
    cls_param = dataclasses.replace(init.params[0], name="_cls", type=TypeType(inst))
    return dataclasses.replace(init, params=(cls_param, *init.params[1:]), ret=inst, name="__new__")


def _instance_of(ev, t: Type) -> Instance | None:  # type: ignore[no-untyped-def]
    if isinstance(t, TypeVarType):
        bound = t.upper_bound if t.upper_bound is not None else ev.builtin("object")
        return _instance_of(ev, bound)
    if isinstance(t, (TupleType, TypedDictType)):
        return t.fallback
    return t if isinstance(t, Instance) else None


def _start_and_receiver(exprs: "ExprEvaluator", call: ast.Call) -> "tuple[ClassInfo, Type] | None":
    if call.args:
        # Silently: the call itself is evaluated (and reported on) as usual when
        # this module does not take it.
        silent = exprs.silent()
        cls_t = silent.infer(call.args[0])
        obj = silent.infer(call.args[1])
        if not (isinstance(cls_t, TypeType) and isinstance(cls_t.item, Instance)):
            return None
        if isinstance(obj, (Instance, TypeVarType, TypeType, TupleType, TypedDictType)):
            return cls_t.item.info, obj
        return None
    scope = exprs.scope
    while scope is not None and scope.kind != "function":
        scope = scope.parent
    if scope is None or scope.parent is None or scope.parent.kind != "class" or scope.parent.cls is None:
        return None
    fn = scope.function
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params:
        return None
    first = params[0].arg
    receiver = exprs.flow.lookup(first)
    if receiver is None:
        t = scope.param_types.get(first)
        receiver = t if isinstance(t, Type) else None
    if receiver is None or isinstance(receiver, AnyType):
        return None
    return scope.parent.cls, receiver
