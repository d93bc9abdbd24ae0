"""Whether `obj.attr = v` writes an attribute `obj` can take (mypy's [attr-defined] on writes).

mypy looks an assignment target up as it looks up a read, with one difference:
a class's `__getattr__` makes unknown names readable, not writable; only a
`__setattr__` below `object` (on the class, or on the metaclass for a class
object) lets any name be assigned. So mypy reports `obj.new = 1` for an
instance, `Cls.new = 1` for a class object and `module.new = 1` for a module
(`Module has no attribute "new"`, also for a `types.ModuleType` value, whose
`__getattr__` is for reads only), unless the target is `self.new` in a method,
which declares the attribute.

Silent wherever the lookup is not sure: Any in the MRO, an unknown metaclass,
a module with a `__getattr__`, a name listed in `__slots__`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.reference_keys import expr_key
from veritype.types.format import format_type
from veritype.types.model import Instance, ModuleType, Type, TypeType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def unknown_write_message(checker: "ModuleChecker", target: ast.Attribute, base: Type) -> str | None:
    """mypy's message when `target` (an assignment target) names no attribute of `base`."""
    name = target.attr
    ev = checker.ev
    key = expr_key(target)
    if key is not None and checker.flow.lookup(key) is not None:
        return None  # known to exist here (`hasattr(x, "name")`: mypy's extra attribute)
    if isinstance(base, ModuleType):
        mod = ev.program.get_module(base.name)
        if mod is None or "__getattr__" in mod.symbols or mod.origin == "namespace":
            return None
        if ev.members.module_member(base, name) is None:
            return f'Module has no attribute "{name}"'
        return None
    if isinstance(base, TypeType) and isinstance(base.item, Instance):
        if not _class_takes_no_new(ev, base.item.info):
            return None
        if ev.members.class_member(base, name) is None:
            return f'"type[{format_type(base.item)}]" has no attribute "{name}"'
        return None
    if isinstance(base, Instance):
        if is_self_target(checker, target):
            return None  # `self.x = v` in a method declares `x`
        if not _instance_takes_no_new(base.info) or not _unknown_instance_attribute(ev, base, name):
            return None
        if base.info.fullname == "types.ModuleType":
            return f'Module has no attribute "{name}"'
        return f'"{format_type(base)}" has no attribute "{name}"'
    return None


def is_self_target(checker: "ModuleChecker", target: ast.Attribute) -> bool:
    """`name.attr` where `name` is the first parameter of an enclosing method
    (or of a method a nested function sits in): mypy takes it as a declaration."""
    if not isinstance(target.value, ast.Name):
        return False
    s: "Scope | None" = checker.scope
    while s is not None:
        fn = s.function
        if s.kind == "function" and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [*fn.args.posonlyargs, *fn.args.args]
            if (s.parent is not None and s.parent.kind == "class" and params and params[0].arg == target.value.id
                    and not any(_decorator_tail(d) == "staticmethod" for d in fn.decorator_list)):
                return True
        s = s.parent
    return False


def _decorator_tail(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _instance_takes_no_new(info: "ClassInfo") -> bool:
    """No Any in the MRO and no `__setattr__` below object."""
    for c in info.mro:
        if c.has_any_base or c.unknown_decorator:
            return False
        if c.fullname != "builtins.object" and "__setattr__" in c.symbols:
            return False
    return True


def _unknown_instance_attribute(ev: "Evaluator", base: Instance, name: str) -> bool:
    if not _has_getattr(base.info):
        return ev.members.get(base, name) is None
    # The member lookup would answer through `__getattr__`: look for a declaration.
    from veritype.evaluate.members import _slot_names

    # Dunders too: `mod.__version__ = "1.3"` on a `types.ModuleType` value is
    # reported by mypy 2.4.1 (`__doc__`, `__module__` are declared on object).
    for c in base.info.mro:
        if name in c.symbols or c.synthesized.get(name) is not None or name in _slot_names(c):
            return False
    return True


def _has_getattr(info: "ClassInfo") -> bool:
    return any(c.fullname != "builtins.object" and ("__getattr__" in c.symbols or "__getattribute__" in c.symbols)
               for c in info.mro)


def _class_takes_no_new(ev: "Evaluator", info: "ClassInfo") -> bool:
    """A class object takes new attributes only through its metaclass's `__setattr__`;
    silent when a metaclass is not understood."""
    if any(c.has_any_base or c.unknown_decorator for c in info.mro):
        return False
    for c in info.mro:
        c.bases  # the metaclass keyword is read with the bases
        if c.metaclass_expr is not None and c.defining_scope is not None:
            if not isinstance(ev.type_exprs.evaluate(c.metaclass_expr, c.defining_scope), Instance):
                return False
    meta = ev.metaclass_instance(info)
    if meta is None:
        return False
    return not any(c.fullname != "builtins.type" and c.fullname != "builtins.object" and "__setattr__" in c.symbols
                   for c in meta.info.mro)
