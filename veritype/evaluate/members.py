"""Attribute access on types: `x.attr` for instances, class objects, modules, tuples.

Finds the member along the MRO, binds methods to the receiver (dropping
`self`, solving an explicitly typed `self`, replacing `Self`), maps the
declaring class's type parameters to the receiver's type arguments, and
applies properties and descriptors. Also: constructors. Binding the first
parameter is in `self_binding`, protocol membership in `protocol_membership`,
enum members in `enum_membership`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import (
    POS_ONLY, VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, ModuleType, NeverType,
    NoneType, Overloaded, Param, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType,
)
from veritype.types.substitute import TVKey, substitute, tv_key
from veritype.evaluate.found_members import ENUM_VALUE_NAMES, FoundConstructors, FoundMembers
from veritype.evaluate.self_binding import bind_self, bind_self_vars, takes_self
from veritype.evaluate import protocol_membership
from veritype.evaluate import enum_membership
from veritype.evaluate.dataclasses import DataclassInfo
from veritype.evaluate.functions import method_kind
from veritype.evaluate.method_aliases import assigned_call, assigned_function
from veritype.types.subtype import map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator, Ref

_ORDERING = ("__lt__", "__le__", "__gt__", "__ge__")

def _hidden_initvar(cls: "ClassInfo", name: str, sym: "S.Symbol") -> bool:
    """An `InitVar` field without a default: an `__init__` parameter, not an attribute
    (PEP 557: init-only variables "are not stored"; mypy reports their access)."""

    dc = cls.dataclass_info
    if not isinstance(dc, DataclassInfo) or dc.unknown or len(sym.decls) != 1:
        return False
    for f in dc.fields:  # (a loop, not `any()` over a generator)
        if f.name == name and f.is_initvar and not f.has_default and f.node is not None:
            return True
    return False


class Members:
    def __init__(self, ev: "Evaluator") -> None:
        self.ev = ev
        # `_map_to` answers by (id of the member's type, instance, declaring class).
        # Pure: the type is immutable and the instance's view of the class is fixed
        # once its bases are known. The type itself is kept in the value, so its id
        # is never reused while the entry lives. Every generic member access asked
        # this (a supertype walk and a substitution each time) before.
        self._mapped: dict[tuple[int, Instance, "ClassInfo"], tuple[Type, Type]] = {}
        self.found = FoundMembers()
        # The same dict, for the look-ups written out in `get` and expr_access.infer_attribute.
        self.found_table = self.found.table
        self.constructors = FoundConstructors()
        self.known_calls: dict[tuple[object, ...], tuple[Type | None, Type]] = {}  # see evaluate.known_calls
        self.known_expr_calls: dict[tuple[object, ...], tuple[Type, Type, bool]] = {}  # see known_calls.expression_key
        self.context_solutions: dict[tuple[Type, Type], dict[TVKey, Type]] = {}  # see context_first.solve_from_context
        # `module_member` answers by (module name, attribute), with the module they were
        # read from, kept when final (no lazy evaluation in progress: a module being
        # loaded reads as missing meanwhile). The answer depends on nothing else: the
        # module found for a name, its symbols and their types are the program's,
        # whoever asks (5,891 questions for 633 distinct ones on the bench corpus:
        # `ast.Name`, `os.path`, `re.compile`). An answer is taken only while the
        # program still has that module under that name (the engine swaps in a
        # variant of a module for a query, and forgets edited ones).
        self._module_members: dict[tuple[str, str], tuple[object, Type | None]] = {}
        # The references `module.name` follows to, by (module, name): see Evaluator.member_ref.
        self.module_refs: dict[tuple[object, str], Ref] = {}
        # `; maybe "x"?` after an unknown attribute, by (class or module, name): see expr_access.maybe_suffix.
        self.suffixes: dict[tuple[object, str], str] = {}

    def forget(self) -> None:
        """Drop every kept answer (the engine forgets modules: their classes go)."""
        self._mapped.clear()
        self._module_members.clear()
        self.suffixes.clear()
        self.module_refs.clear()
        self.found.clear()
        self.constructors.clear()
        self.known_calls.clear()
        self.known_expr_calls.clear()
        self.context_solutions.clear()

    # -- entry point ------------------------------------------------------------

    def get(self, receiver: Type, name: str) -> Type | None:
        """The type of `receiver.name`, or None when it has no such attribute."""
        ev = self.ev
        # Dispatch by exact class: type classes are final (frozen, slotted, never
        # subclassed), and this runs for every attribute read.
        if type(receiver) is AnyType:
            return AnyType("implicit")
        if type(receiver) is Instance:
            if name in ENUM_VALUE_NAMES and receiver.info.is_enum_class():
                t = self.enum_attr(receiver.info, name, None)
                if t is not None:
                    return t
            # (`instance_member` written out: the most common question of all.)
            if ev.lazy_depth:
                return self._instance_member(receiver, name, receiver)
            # FoundMembers.answer's first look-up, written out: most of these
            # questions (`self.x`, `obj.m`, `items.append`) were asked before. An
            # instance with arguments is a key itself, when plain; no other equals
            # one, so a hit is one (see FoundMembers.answer).
            hit = self.found_table.get((receiver.info, name) if not receiver.args else (receiver, name))
            if hit is not None:
                return hit[0]
            return self.found.answer(receiver, name, receiver, self._instance_member)
        if type(receiver) is LiteralType:
            if receiver.is_enum and name in ENUM_VALUE_NAMES:
                t = self.enum_attr(receiver.fallback.info, name, str(receiver.value))
                if t is not None:
                    return t
            return self.instance_member(receiver.fallback, name, receiver)
        if type(receiver) is TupleType:
            return self.instance_member(receiver.fallback, name, receiver)
        if type(receiver) is TypedDictType:
            if name == "update" and receiver.extra is None:
                return _partial_update(receiver)
            if receiver.extra is not None:
                from veritype.evaluate.typeddict_members import extra_items_member

                t = extra_items_member(self, receiver, name)
                if t is not None:
                    return t
            return self.instance_member(receiver.fallback, name, receiver)
        if type(receiver) is NoneType:
            none = ev.instance("types.NoneType")
            if isinstance(none, Instance):
                return self.instance_member(none, name, receiver)
            return self.instance_member(ev.builtin("object"), name, receiver)
        if type(receiver) is TypeVarType:
            bound = receiver.upper_bound
            if receiver.values:
                return AnyType("special")
            if bound is None:
                bound = ev.builtin("object")
            if isinstance(bound, Instance):
                # Look up on the bound, but bind to the variable itself, so that
                # `self.__class__` and methods returning Self keep it (spec, "Self").
                return self.instance_member(bound, name, receiver)
            return self.get(bound, name)
        if type(receiver) is TypeType:
            return self.class_member(receiver, name)
        if type(receiver) is ModuleType:
            return self.module_member(receiver, name)
        if type(receiver) is CallableType or type(receiver) is Overloaded:
            if name in ("__name__", "__qualname__", "__module__"):
                return ev.builtin("str")
            if name == "__call__":
                return receiver
            fn = ev.instance("builtins.function")
            if isinstance(fn, Instance):
                return self.instance_member(fn, name, fn)
            return AnyType("special")
        if type(receiver) is NeverType:
            return NeverType()
        if type(receiver) is UnionType:
            parts = [self.get(i, name) for i in receiver.items]
            if any(p is None for p in parts):
                return None
            from veritype.types.model import make_union

            return make_union([p for p in parts if p is not None])
        return AnyType("special")

    # -- instances ----------------------------------------------------------------

    def instance_member(self, inst: Instance, name: str, receiver: Type) -> Type | None:
        """`name` looked up on `inst`'s class and bound to `receiver` (final
        answers are kept: evaluate.found_members)."""
        if self.ev.lazy_depth:
            return self._instance_member(inst, name, receiver)
        return self.found.answer(inst, name, receiver, self._instance_member)

    def _instance_member(self, inst: Instance, name: str, receiver: Type) -> Type | None:
        ev = self.ev
        info = inst.info
        for cls in info.mro:
            synth = cls.synthesized.get(name)
            if synth is not None:
                t = self._map_to(inst, cls, synth, receiver)
                if isinstance(t, CallableType) and t.params and t.params[0].name == "self":
                    return bind_self(ev, t, receiver)  # a made-up method
                return t
            sym = cls.symbols.get(name)
            if sym is None:
                continue
            if _hidden_initvar(cls, name, sym):
                return None
            if _implicit_redefinition(info, cls, name, sym):
                # `self.x = ...` in a subclass assigns the base's `x`; it does
                # not declare a new one (as mypy: the base's type stands).
                continue
            return self._from_symbol(inst, cls, sym, receiver, on_class=False)
        for c in info.mro:  # (a loop, not `any()` over a generator)
            if c.has_any_base or c.unknown_decorator:
                return AnyType("special")
        if name in _ORDERING and any("functools.total_ordering" in c.decorators for c in info.mro):
            # functools.total_ordering fills in the other comparisons from one of them.
            for other in _ORDERING:
                if other != name and info.get(other) is not None and info.get(other)[1].fullname != "builtins.object":  # type: ignore[index]
                    return self.instance_member(inst, other, receiver)
        getattr_ = self._dunder_getattr(inst)
        if getattr_ is not None:
            return getattr_
        return None

    def _dunder_getattr(self, inst: Instance) -> Type | None:
        for cls in inst.info.mro:
            if cls.fullname == "builtins.object":
                break
            for dunder in ("__getattr__", "__getattribute__"):
                if dunder in cls.symbols:
                    t = self.instance_member(inst, dunder, inst)
                    if isinstance(t, CallableType):
                        return t.ret
                    return AnyType("special")
        return None

    def _from_symbol(self, inst: Instance, cls: "ClassInfo", sym, receiver: Type, on_class: bool) -> Type | None:  # type: ignore[no-untyped-def]

        ev = self.ev
        scope = cls.scope
        if sym.kind == S.FUNC:
            node = sym.node
            kind = method_kind(ev, node, scope) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else "instance"
            t = ev.symbol_type(sym, scope)
            t = self._map_to(inst, cls, t, receiver)
            if kind == "property":
                if on_class:
                    # mypy 2.4.1 gives the getter's own (unbound) callable for a
                    # property read on its class, for every property kind
                    # (`property`, `cached_property`, `abstractproperty`, ...):
                    # `A.prop.__name__` is clean under mypy, and so here. (At run
                    # time it is the descriptor object; mypy-clean code is the judge.)
                    return t if isinstance(t, (CallableType, Overloaded)) else ev.instance("builtins.property")
                if isinstance(t, CallableType):
                    bound = bind_self(ev, t, receiver)
                    return bound.ret if isinstance(bound, CallableType) else AnyType("special")
                return AnyType("special")
            if kind == "static":
                return t
            if kind == "class":
                return bind_self(ev, t, TypeType(receiver) if not on_class else receiver)
            if isinstance(t, Instance):
                # A decorator that returns a descriptor object (a cached_property-style
                # class, a property subclass): the attribute is read through its
                # `__get__`, as for any class attribute (data model, "Invoking Descriptors").
                desc = self._descriptor_get(t, receiver, on_class)
                if desc is not None:
                    return desc
            if on_class:
                return t
            return bind_self(ev, t, receiver)
        if sym.kind == S.CLASS:
            return ev.symbol_type(sym, scope)
        t = ev.symbol_type(sym, scope)
        t = self._map_to(inst, cls, t, receiver)
        if not on_class and sym.kind == S.VAR:
            t = bind_self_vars(t, receiver)
        if not on_class and isinstance(t, Instance) and sym.kind == S.VAR and not sym.is_instance_attr:
            desc = self._descriptor_get(t, receiver, on_class=False)
            if desc is not None:
                return desc
        if isinstance(t, (CallableType, Overloaded)) and sym.kind == S.VAR and not sym.is_instance_attr and not on_class:
            # A callable assigned in a class body (`__float__ = unwrap`, `f = lambda self: 0`)
            # or declared as a ClassVar binds like a method; an annotated instance variable
            # of a Callable type does not (PEP 526: it is set per instance), nor a class object.
            # This is mypy's rule (checkmember: an inferred or ClassVar variable binds).
            if sym.annotation is None and not _is_type_obj(t) and assigned_function(ev, sym, scope):
                return bind_self(ev, t, receiver)
            if sym.annotation is None and not _is_type_obj(t) and assigned_call(sym) and takes_self(ev, t, receiver):
                # A call's callable result (`absolute = _wrap_method(Path.absolute)`):
                # mypy binds every callable so stored (and reports one whose first
                # parameter does not take the instance); veritype binds the ones
                # that take it and leaves the others as they are, silently.
                return bind_self(ev, t, receiver)
            if sym.annotation is not None and _is_classvar(ev, sym, scope) and not _is_type_obj(t):
                return bind_self(ev, t, receiver)
        return t

    def _descriptor_get(self, t: Instance, receiver: Type, on_class: bool) -> Type | None:
        # (A `property(fget)` object assigned in a class body is read through typeshed's
        # `property.__get__`: Any on an instance, as mypy has it.)
        if t.info.fullname == "builtins.function":
            return None
        hit = t.info.get("__get__")
        if hit is None:
            return None
        get = self.instance_member(t, "__get__", t)
        if isinstance(get, (CallableType, Overloaded)):
            from veritype.evaluate.call_dispatch import call_types

            owner = TypeType(receiver) if not isinstance(receiver, TypeType) else receiver
            inst_arg: Type = NoneType() if on_class else receiver
            r = call_types(self.ev, get, [inst_arg, owner])
            return r
        return None

    def _map_to(self, inst: Instance, cls: "ClassInfo", t: Type, receiver: Type) -> Type:
        if not cls.type_vars:
            return t
        key = (id(t), inst, cls)
        hit = self._mapped.get(key)
        if hit is not None:
            return hit[1]

        mapped = map_instance_to_supertype(inst, cls)
        if mapped is None:
            result = t
        else:
            mapping = {tv_key(tv): self._value_arg(tv, arg) for tv, arg in zip(cls.type_vars, mapped.args)}
            result = substitute(t, mapping)
        self._mapped[key] = (t, result)
        return result

    def _value_arg(self, tv: TypeVarType, arg: Type) -> Type:
        """A ParamSpec standing where a plain type variable is mapped is `object`: `args`
        and `kwargs` of a `*args: P.args, **kwargs: P.kwargs` function are held as
        `tuple[P, ...]` and `dict[str, P]` (so that calls can forward them), and their
        items are some objects (mypy: `kwargs.get(k)` is `object`)."""
        if tv.kind == "typevar" and isinstance(arg, TypeVarType) and arg.kind == "paramspec":
            return self.ev.builtin("object")
        return arg

    # -- class objects -----------------------------------------------------------

    def class_member(self, receiver: TypeType, name: str, bind_to: TypeType | None = None) -> Type | None:
        ev = self.ev
        item = receiver.item
        if isinstance(item, AnyType):
            # `type[Any]`: an attribute of `type` itself is that (mypy:
            # `t.__name__` is `str`, `t.__new__` is `type.__new__`); any other
            # name is Any.
            type_inst = ev.builtin("type")
            found = self.instance_member(type_inst, name, receiver) if isinstance(type_inst, Instance) and name != "__call__" else None
            return found if found is not None else AnyType("implicit")
        if isinstance(item, TypeVarType):
            bound = item.upper_bound or ev.builtin("object")
            if isinstance(bound, Instance):
                return self.class_member(TypeType(bound), name, bind_to=receiver)
            return AnyType("special")
        if isinstance(item, UnionType):
            return self.get(UnionType(tuple(TypeType(i) for i in item.items)), name)
        if isinstance(item, TupleType):
            item = item.fallback
        if isinstance(item, TypedDictType):
            item = item.fallback
        if not isinstance(item, Instance):
            return AnyType("special")
        info = item.info
        if info.is_enum_class():
            member = self.enum_member(info, name)
            if member is not None:
                return member
        for cls in info.mro:
            sym = cls.symbols.get(name)
            if sym is None:
                synth = cls.synthesized.get(name)
                if synth is not None and name != "__init__":
                    return synth
                continue
            t = self._from_symbol(item, cls, sym, bind_to or receiver, on_class=True)
            if t is not None and sym.kind == S.VAR and isinstance(t, Instance):
                desc = self._descriptor_get(t, item, on_class=True)
                if desc is not None:
                    return desc
            return t
        meta = ev.metaclass_instance(info)
        if meta is not None:
            t = self._metaclass_member(meta, name, bind_to or receiver)
            if t is not None:
                return t
        if any(c.has_any_base or c.unknown_decorator for c in info.mro):
            return AnyType("special")
        return None

    def _metaclass_member(self, meta: Instance, name: str, receiver: TypeType) -> Type | None:
        for cls in meta.info.mro:
            sym = cls.symbols.get(name)
            if sym is None:
                continue
            return self._from_symbol(meta, cls, sym, receiver, on_class=False)
        return None

    # -- modules --------------------------------------------------------------------

    def module_member(self, receiver: ModuleType, name: str) -> Type | None:
        modules = self.ev.program.modules
        key = (receiver.name, name)
        kept = self._module_members.get(key)
        if kept is not None and modules.get(receiver.name) is kept[0]:
            return kept[1]
        result = self._module_member(receiver, name)
        mod = modules.get(receiver.name)
        if mod is not None and not self.ev.lazy_depth:
            self._module_members[key] = (mod, result)
        return result

    def _module_member(self, receiver: ModuleType, name: str) -> Type | None:
        ev = self.ev
        mod = ev.program.get_module(receiver.name)
        if mod is None:
            return AnyType("special")
        sym = ev.program.lookup_in_module(mod, name, from_import=True)
        if sym is not None:
            scope = ev.module_scope_of_symbol(mod, sym)
            ref = ev.resolve_symbol(sym, scope)
            if ref.kind == "special":
                # `t.Protocol`, `t.Optional`: the special form, as the bare name is
                # (typeshed declares some as plain variables: `Protocol: type[_Protocol]`).
                return ev.ref_value_type(ref)
            return ev.symbol_type(sym, scope)
        if name in ("__name__", "__file__", "__doc__", "__package__", "__qualname__"):
            return ev.builtin("str")
        if name in ("__path__",):
            return ev.builtin("list", ev.builtin("str"))
        if name in ("__dict__", "__annotations__"):
            return ev.builtin("dict", ev.builtin("str"), AnyType("implicit"))
        if name == "__spec__":
            # mypy's implicit module attribute: a ModuleSpec, not Optional (a
            # module being checked was imported).
            return ev.instance("_frozen_importlib.ModuleSpec")
        if name.startswith("__") and name.endswith("__"):
            # Every module object is a types.ModuleType (__loader__, ...).
            module_type = ev.instance("types.ModuleType")
            # Declared names only: ModuleType's own __getattr__ would allow any.
            if isinstance(module_type, Instance) and any(name in c.symbols for c in module_type.info.mro):
                found = self.instance_member(module_type, name, module_type)
                if found is not None:
                    return found
        sub = ev.program.get_module(f"{receiver.name}.{name}")
        if sub is not None:
            return ModuleType(sub.name, sub)
        getattr_ = mod.symbols.get("__getattr__")
        if getattr_ is not None:
            t = ev.symbol_type(getattr_, ev.module_scope(mod))
            return t.ret if isinstance(t, CallableType) else AnyType("special")
        if mod.origin == "namespace":
            return AnyType("special")
        return None

    # -- enums -------------------------------------------------------------------

    enum_members = enum_membership.enum_members
    enum_attr = enum_membership.enum_attr
    enum_member = enum_membership.enum_member
    # -- constructors ------------------------------------------------------------

    def constructor(self, receiver: TypeType) -> Type | None:
        """The signature of calling the class object (spec, "Constructors"); final
        answers are kept (evaluate.found_members)."""
        return self.constructors.answer(receiver, self._constructor, not self.ev.lazy_depth)

    def _constructor(self, receiver: TypeType) -> Type | None:
        ev = self.ev
        item = receiver.item
        if isinstance(item, TupleType):
            item = item.fallback
        if not isinstance(item, Instance):
            return None
        info = item.info
        explicit = not item.args
        for a in item.args:  # (a loop, not `all()` over a generator: asked for each class called)
            if not isinstance(a, AnyType) or a.reason != "bare":
                explicit = True
                break
        self_type = item if explicit else info.self_instance()
        if info.is_newtype and "__init__" in info.synthesized:
            # NewType: exactly one argument of the original type (spec, "NewType").
            return bind_self(ev, info.synthesized["__init__"], self_type, constructor_of=self_type, init=True)
        for c in info.mro:  # (a loop, not `any()` over a generator)
            if c.unknown_decorator and "__init__" not in c.synthesized:
                return _as_type_obj(CallableType((), self_type, is_ellipsis=True), () if explicit else info.type_vars)
        if info.is_enum_class() and info.fullname.startswith("enum.") and not self.enum_members(info):
            # `Enum("E", names)`, the functional API (typeshed types it on EnumMeta.__call__);
            # a call we could not read as a class (see functional_classes) stays silent.
            return CallableType((), AnyType("special"), is_ellipsis=True)
        synth_init = self._synthesized_init(info)
        if synth_init is not None:
            synth, cls = synth_init
            t = self._map_to(self_type, cls, synth, self_type)
            bound = bind_self(ev, t, self_type, constructor_of=self_type, init=True)
            return _as_type_obj(bound, () if explicit else info.type_vars, info.name)
        meta_call = self._metaclass_call(info, self_type)
        if meta_call is not None and not _is_instance_return(meta_call.ret, info):
            return meta_call
        init_hit = self._find_method(info, "__init__")
        new_hit = self._find_method(info, "__new__")
        if _from_object(init_hit) and _from_object(new_hit) and any(c.has_any_base for c in info.mro):
            # Both are object's, but an unknown base may define either: mypy's
            # type_object_type makes "a universal callable" (*Any, **Any) here.
            return _as_type_obj(CallableType((), self_type, is_ellipsis=True), () if explicit else info.type_vars, info.name)
        use_new = False
        if new_hit is not None and new_hit[1].fullname != "builtins.object":
            if init_hit is None or init_hit[1].fullname == "builtins.object" or info.mro.index(new_hit[1]) < info.mro.index(init_hit[1]):
                use_new = True
            elif self._new_skips_init(new_hit, info):
                # Spec ("__new__ Method"): a `__new__` returning something that is not an
                # instance of the class means `__init__` is not called at all.
                use_new = True
            elif _accepts_anything(ev.symbol_type(init_hit[0], init_hit[1].scope)) and not _accepts_anything(ev.symbol_type(new_hit[0], new_hit[1].scope)):
                # `__init__(self, *args, **kwargs)` says nothing; the `__new__` signature does.
                use_new = True
        result: Type | None
        if use_new:
            assert new_hit is not None
            sym, cls = new_hit
            t = ev.symbol_type(sym, cls.scope)
            t = self._map_to(self_type, cls, t, self_type)
            result = bind_self(ev, t, TypeType(self_type), constructor_of=self_type)
        elif init_hit is not None:
            sym, cls = init_hit
            t = ev.symbol_type(sym, cls.scope)
            t = self._map_to(self_type, cls, t, self_type)
            result = bind_self(ev, t, self_type, constructor_of=self_type, init=True)
        else:
            result = CallableType((), self_type)
        if result is None:
            return None
        if meta_call is not None and _bound_accepts_anything(result) and not _bound_accepts_anything(meta_call):
            # Spec ("Metaclass __call__ Method"): a metaclass `__call__` returning the
            # instance is evaluated too; when `__new__`/`__init__` take anything,
            # its parameters are the ones that say what the call needs.
            result = meta_call.with_ret(self_type)
        own = () if explicit else info.type_vars
        return _as_type_obj(result, own, info.name)

    def _metaclass_call(self, info: "ClassInfo", self_type: Instance) -> CallableType | None:
        """A metaclass `__call__` (other than `type`'s), bound to the class. When its
        declared return is not an instance of the class, the call evaluates to that
        and `__new__`/`__init__` are skipped (spec, "Metaclass __call__ Method")."""
        meta = self.ev.metaclass_instance(info)
        if meta is None:
            return None
        for cls in meta.info.mro:
            if cls.fullname in ("builtins.type", "builtins.object"):
                return None
            sym = cls.symbols.get("__call__")
            if sym is None:
                continue
            if sym.kind != S.FUNC:
                return None
            t = self.ev.symbol_type(sym, cls.scope)
            if not isinstance(t, CallableType):
                return None
            bound = bind_self(self.ev, t, TypeType(self_type))
            return bound if isinstance(bound, CallableType) else None
        return None

    def _new_skips_init(self, new_hit, info: "ClassInfo") -> bool:  # type: ignore[no-untyped-def]
        t = self.ev.symbol_type(new_hit[0], new_hit[1].scope)
        if not isinstance(t, CallableType):
            return False
        return not _is_instance_return(t.ret, info)

    def _synthesized_init(self, info: "ClassInfo"):  # type: ignore[no-untyped-def]
        """A made-up `__init__` (dataclass, NamedTuple) reached before any written
        `__init__`/`__new__` along the MRO, with the class that has it."""
        for cls in info.mro:
            synth = cls.synthesized.get("__init__")
            if synth is not None:
                return synth, cls
            sym_init = cls.symbols.get("__init__")
            sym_new = cls.symbols.get("__new__")
            if (sym_init is not None and sym_init.kind == S.FUNC) or (sym_new is not None and sym_new.kind == S.FUNC):
                return None
        return None

    def _find_method(self, info: "ClassInfo", name: str):  # type: ignore[no-untyped-def]
        for cls in info.mro:
            sym = cls.symbols.get(name)
            if sym is not None and sym.kind == S.FUNC:
                return sym, cls
            if cls.synthesized.get(name) is not None:
                return None
        return None

    # -- protocols ---------------------------------------------------------------------

    protocol_members = protocol_membership.protocol_members
    satisfies = protocol_membership.satisfies
    protocol_actual = protocol_membership.protocol_actual
    _settable_member = protocol_membership.settable_member
    _class_var = protocol_membership.class_var
    _instance_only = protocol_membership.instance_only
    _not_settable = protocol_membership.not_settable
    _both_mutable_vars = protocol_membership.both_mutable_vars
    _mutable_var = protocol_membership.mutable_var

def _partial_update(td: TypedDictType) -> CallableType:
    """`update` of a TypedDict takes a partial view of it (every key optional, as
    mypy does). Spec, "Read-only items": "type checkers should error if a TypedDict
    with a read-only item is updated with another TypedDict that declares that key" -
    unless its value is Never: the read-only items are typed Never."""
    from veritype.evaluate.typeddict_merges import partial_view

    return CallableType((Param("m", partial_view(td, readonly_never=True), POS_ONLY),), NoneType(), name="update")


def _slot_names(cls: "ClassInfo") -> frozenset[str]:
    """The names of a class body's literal `__slots__` (a string, or a tuple/list of strings)."""
    sym = cls.symbols.get("__slots__")
    if sym is None:
        return frozenset()
    cached = sym.cache.get("slot_names")
    if isinstance(cached, frozenset):
        return cached
    names: set[str] = set()
    for decl in sym.decls:
        value = decl.value if isinstance(decl, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            names.add(value.value)
        elif isinstance(value, (ast.Tuple, ast.List, ast.Set)):
            names.update(e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    out = frozenset(names)
    sym.cache["slot_names"] = out
    return out


def _is_classvar(ev: "Evaluator", sym, scope) -> bool:  # type: ignore[no-untyped-def]
    from veritype.evaluate.declarations import qualifiers

    return "ClassVar" in qualifiers(ev, sym, scope)


def _is_type_obj(t: Type) -> bool:
    if isinstance(t, Overloaded):
        return any(i.is_type_obj for i in t.items)
    return isinstance(t, CallableType) and t.is_type_obj


def _implicit_redefinition(info: "ClassInfo", cls: "ClassInfo", name: str, sym) -> bool:  # type: ignore[no-untyped-def]
    """`sym` is only `self.name = value` in methods of `cls`, and a later class of
    the MRO (other than object) has `name`: that one declares it."""
    if not sym.is_instance_attr or sym.annotation is not None or sym.type_comment is not None:
        return False
    later = info.mro[info.mro.index(cls) + 1:] if cls in info.mro else []
    for c in later:  # (a loop, not `any()` over a generator: asked for each instance attribute read)
        if c.fullname != "builtins.object" and (name in c.symbols or name in c.synthesized):
            return True
    return False


def _from_object(hit) -> bool:  # type: ignore[no-untyped-def]
    return hit is None or hit[1].fullname == "builtins.object"


def _as_type_obj(t: Type, own: tuple[TypeVarType, ...], name: str | None = None) -> Type:
    # `name`: a class object is called by the class's name in messages
    # ('Too many arguments for "A"', not "__init__"), as mypy words them.
    if isinstance(t, CallableType):
        return CallableType(t.params, t.ret, tuple(own) + tuple(v for v in t.type_vars if v not in own), name or t.name, t.definition, t.is_ellipsis, True, None, None, t.is_untyped)
    if isinstance(t, Overloaded):
        return Overloaded(tuple(_as_type_obj(i, own, name) for i in t.items), name or t.name)  # type: ignore[misc]
    return t


def _is_instance_return(ret: Type, info: "ClassInfo") -> bool:
    """Whether a constructor-stage return type is an instance of `info` (or may be:
    unannotated, Self, a type variable), so that the later stages still run. An
    explicit Any, a union, Never or another class is not (spec, "Constructors")."""
    if isinstance(ret, AnyType):
        return ret.reason in ("unannotated", "implicit")
    if isinstance(ret, TypeVarType):
        return True
    if isinstance(ret, Instance):
        return info in ret.info.mro
    if isinstance(ret, TupleType):
        return info in ret.fallback.info.mro
    if isinstance(ret, TypedDictType):
        return True
    return False


def _accepts_anything(t: Type) -> bool:
    """`(self, *args, **kwargs)` with no annotations on the rest: a pass-through signature."""
    if not isinstance(t, CallableType):
        return False
    rest = t.params[1:]
    return bool(rest) and all(p.kind in (VAR_POS, VAR_KW) and isinstance(p.type, AnyType) for p in rest)


def _bound_accepts_anything(t: Type) -> bool:
    """A bound signature `(*args, **kwargs)` with no annotations: says nothing."""
    return isinstance(t, CallableType) and (t.is_ellipsis or (
        bool(t.params) and all(p.kind in (VAR_POS, VAR_KW) and isinstance(p.type, AnyType) for p in t.params)))


def descriptor_set_type(ev: "Evaluator", desc: Instance) -> Type | None:
    """The value type a data descriptor's `__set__` accepts, or None when it
    cannot be read (overloads, generics, Any: callers stay silent)."""
    t = ev.members.get(desc, "__set__")
    # Bound, `__set__(self, obj, value)` leaves (obj, value).
    if isinstance(t, CallableType) and len(t.params) == 2 and not t.type_vars and not isinstance(t.params[1].type, AnyType):
        return t.params[1].type
    return None
