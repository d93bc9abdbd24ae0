"""`obj.method = f`: mypy's "Cannot assign to a method" [method-assign].

mypy's docs ("Check that assignment target is not a method [method-assign]"):
"In general, assigning to a method on class object or instance (a.k.a.
monkey-patching) is ambiguous in terms of types, since Python's static type
system cannot express the difference between bound and unbound callable
types." The code is a sub-code of `assignment`: `# type: ignore[assignment]`
silences it too.

What counts as a method is mypy's member lookup: the first class of the MRO
that declares the name (a `self.x = ...` in a subclass does not declare a name
a base declares) holds a `def` that is not a property (decorated: when the
decorated value is still a function), or, for an instance, a class-level
variable without annotation whose value is a function (`__rmul__ = __mul__`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import AnyType, CallableType, Instance, Overloaded, Type, TypeType, TypeVarType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

MESSAGE = "Cannot assign to a method"


def check_method_assign(checker: "ModuleChecker", target: ast.Attribute, base: Type, value: Type, value_node: ast.expr | None = None) -> bool:
    """Report `target` when it names a method of `base` (an instance or a class object);
    then, as mypy, a value that is not assignable to the method as accessed there
    (bound to an instance) is also an [assignment] error."""
    # `decorated: type[T]` (trio's `decorated.__init_subclass__ = ...`): mypy looks
    # the method up on T's upper bound.
    if isinstance(base, TypeType) and isinstance(base.item, TypeVarType) and base.item.kind == "typevar" and not base.item.values:
        bound = base.item.upper_bound or checker.ev.builtin("object")
        if isinstance(bound, Instance):
            base = TypeType(bound)
    elif isinstance(base, TypeVarType) and base.kind == "typevar" and not base.values:
        bound = base.upper_bound or checker.ev.builtin("object")
        if isinstance(bound, Instance):
            base = bound
    on_class = isinstance(base, TypeType) and isinstance(base.item, Instance)
    inst = base.item if isinstance(base, TypeType) else base
    if not isinstance(inst, Instance):
        return False
    if not is_method(checker.ev, inst.info, target.attr, on_class):
        return False
    checker.error(target, MESSAGE, "method-assign")
    current = checker.ev.bound_member(base, target.attr)
    if isinstance(current, (CallableType, Overloaded)) and not isinstance(value, AnyType) and not is_subtype(checker.ev, value, current):
        got, exp = format_pair(value, current)
        # On the value's line, as mypy (the value may start on the next line).
        checker.error(value_node if value_node is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
    return True


def is_method(ev: "Evaluator", info: "ClassInfo", name: str, on_class: bool) -> bool:
    for cls in info.mro:  # (a loop, not `any()` over a generator: asked for each attribute written)
        if cls.has_any_base or cls.unknown_decorator:
            return False
    for cls in info.mro:
        sym = cls.symbols.get(name)
        if sym is None:
            if cls.synthesized.get(name) is not None:
                return False  # made up (a dataclass's __init__, a named tuple's field)
            continue
        if sym.is_instance_attr:
            continue  # `self.x = ...`: the name of a base, if any, stands
        if sym.kind == S.FUNC:
            return _function_is_method(ev, sym, cls)
        if sym.kind == S.VAR and not on_class and sym.annotation is None and sym.type_comment is None:
            # A class-level alias of a function (`__rmul__ = __mul__`).
            return _is_function(ev.symbol_type(sym, cls.scope))
        return False
    return False


def _function_is_method(ev: "Evaluator", sym: S.Symbol, cls: "ClassInfo") -> bool:
    from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, STATIC, TRANSPARENT, decorator_names, method_kind

    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs or len(defs) != len(sym.decls):
        return False
    if method_kind(ev, defs[0], cls.scope) == "property":
        return False
    known = (*CLASSMETHOD, *STATIC, *OVERLOAD, *TRANSPARENT, "abc.abstractmethod")
    if all(n in known for d in defs for n in decorator_names(ev, d, cls.scope)):
        return True
    # Another decorator: a method only while the decorated value is still a function.
    return _is_function(ev.symbol_type(sym, cls.scope))


def _is_function(t: Type) -> bool:
    """A callable that is not a class object (mypy's FunctionLike and not is_type_obj)."""
    if isinstance(t, Overloaded):
        return bool(t.items) and not t.items[0].is_type_obj
    return isinstance(t, CallableType) and not t.is_type_obj
