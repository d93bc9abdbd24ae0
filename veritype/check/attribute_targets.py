"""What an assignment `obj.attr = value` writes through, and who may write it.

- A property with a setter takes the setter's value type; a data descriptor
  (a class attribute whose type defines `__set__`) takes `__set__`'s value
  type (typing spec, "Descriptors"). Neither is narrowed to the value
  assigned: reading goes through the getter.
- A `ClassVar` cannot be assigned through an instance (spec, "ClassVar":
  "assignment via an instance is an error").
- A `Final` attribute or name cannot be reassigned (spec, "Final": "cannot be
  re-assigned ... in the class body or via an instance/class"); a class-level
  `x: Final[int]` without a value is initialized in `__init__`.

Anything we cannot see clearly is left alone (false positives are worse).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.qualifier_rules import imported_final
from veritype.evaluate.declarations import qualifiers
from veritype.evaluate.members import descriptor_set_type
from veritype.semantic import symbols as S
from veritype.types.model import AnyType, Instance, Type, TypeType, TypeVarType
from veritype.evaluate import deprecation
from veritype.evaluate.dataclasses import converter_input_of
from veritype.evaluate.generic_class_access import MESSAGE, ambiguous_generic_access

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


class _Plain:
    """Marker: a plain attribute; the ordinary declared-type rules apply."""


PLAIN = _Plain()


def written_type(ev: "Evaluator", base: Type, attr: str) -> "Type | None | _Plain":
    """The type `base.attr = v` must accept through a setter or `__set__`;
    None when it goes through one we cannot read (no check); PLAIN otherwise."""
    if isinstance(base, TypeVarType) and base.kind == "self" and isinstance(base.upper_bound, Instance):
        base = base.upper_bound  # `self` in a method: its class (mypy's "type[C]")
    if isinstance(base, TypeVarType) and base.kind == "typevar" and not base.values and isinstance(base.upper_bound, Instance):
        # Through a type variable's bound, with `Self` the variable (`v.__class__ = v`
        # in a metaclass's `__new__`: mypy's "variable has type type[_T_Sentinel]").
        hit = base.upper_bound.info.get(attr)
        if hit is None or hit[0].kind != S.FUNC:
            return PLAIN
        setter = _setter(ev, hit[0], hit[1])
        return PLAIN if setter is None else _setter_value_type(ev, setter, hit[1], base)
    if not isinstance(base, Instance):
        return PLAIN
    hit = base.info.get(attr)
    if hit is None:
        return PLAIN
    sym, cls = hit
    if sym.kind == S.VAR and sym.is_instance_attr and sym.annotation is None and sym.type_comment is None:
        # `self.__class__ = R` in a method declares nothing where a base defines the
        # name (mypy): object's `__class__` property, with its setter, is written.
        for below in cls.mro[1:]:  # (a loop, not `next()` over a generator: asked for each `self.x = ...`)
            if attr in below.symbols:
                if below.symbols[attr].kind == S.FUNC:
                    sym, cls = below.symbols[attr], below
                break
    if sym.kind == S.FUNC:
        setter = _setter(ev, sym, cls)
        if setter is None:
            return PLAIN
        return _setter_value_type(ev, setter, cls, base)
    if sym.kind == S.VAR and not sym.is_instance_attr:
        converted = converter_input_of(base.info, attr)
        if converted is not None:
            # A dataclass_transform field with a converter (spec, "Converters"):
            # the assigned value goes through the converter.
            return converted
        declared = ev.symbol_type(sym, cls.scope)
        if isinstance(declared, Instance) and declared.info.defines_below_object("__set__"):
            return descriptor_set_type(ev, declared)
        if isinstance(declared, Instance) and declared.info.defines_below_object("__get__"):
            return None  # a non-data descriptor: assignment shadows it on the instance
    return PLAIN


def _setter(ev: "Evaluator", sym: S.Symbol, cls: "ClassInfo") -> ast.FunctionDef | None:
    from veritype.evaluate.functions import method_kind

    defs = [d for d in sym.decls if isinstance(d, ast.FunctionDef)]
    if not defs or method_kind(ev, defs[0], cls.scope) != "property":
        return None
    for d in defs:
        if any(isinstance(dec, ast.Attribute) and dec.attr == "setter" for dec in d.decorator_list):
            return d
    return None


def _setter_value_type(ev: "Evaluator", setter: ast.FunctionDef, cls: "ClassInfo", base: "Instance | TypeVarType") -> Type | None:
    params = [*setter.args.posonlyargs, *setter.args.args]
    if len(params) != 2 or params[1].annotation is None:
        return None
    if cls.type_vars:
        return None  # would need the base's type arguments mapped in: stay silent
    from veritype.evaluate.self_binding import bind_self_vars
    from veritype.evaluate.type_expr import TypeContext

    t = ev.type_exprs.eval(params[1].annotation, TypeContext(cls.scope))
    # `Self` in the setter is the receiver (object's `__class__` setter takes `type[Self]`).
    return None if isinstance(t, AnyType) else bind_self_vars(t, base)


def check_written_attribute(checker: "ModuleChecker", target: ast.Attribute, base: Type) -> bool:
    """ClassVar through an instance and Final reassignment ([misc], mypy's messages);
    True when reported (the assignment then does not narrow)."""
    ev = checker.ev

    if deprecation.enabled(ev):
        msg = deprecation.property_message(ev, base, target.attr, setter=True)
        if msg is not None:
            checker.error(target, msg, "deprecated")
    on_class = isinstance(base, TypeType) and isinstance(base.item, Instance)
    if on_class:
        if ambiguous_generic_access(ev, checker.scope, target):
            checker.error(target, MESSAGE, "misc")
            return True
    inst = base.item if isinstance(base, TypeType) and on_class else base
    if not isinstance(inst, Instance):
        return False
    hit = inst.info.get(target.attr)
    if hit is None:
        return False
    sym, cls = hit
    if sym.kind != S.VAR:
        return False
    if sym.is_instance_attr and sym.annotation is None and _final_in_base(checker, cls, target.attr):
        # `self.name = ...` in a subclass of a class declaring `self.name: Final`: the
        # name is the base's attribute (mypy finds it in the MRO), and final.
        checker.error(target, f'Cannot assign to final attribute "{target.attr}"', "misc")
        return True
    quals = qualifiers(ev, sym, cls.scope)
    if "Final" in quals:
        if not _is_declaration(sym, target) and not _init_of_unset_final(checker, sym, cls, target):
            checker.error(target, f'Cannot assign to final attribute "{target.attr}"', "misc")
            return True
        return False
    if "ClassVar" in quals and not on_class:
        checker.error(target, f'Cannot assign to class variable "{target.attr}" via instance', "misc")
        return True
    return False


def _final_in_base(checker: "ModuleChecker", cls: "ClassInfo", name: str) -> bool:
    """Whether the nearest base class defining `name` declares it Final."""
    for other in cls.mro[1:]:
        base_sym = other.symbols.get(name)
        if base_sym is not None:
            return base_sym.kind == S.VAR and "Final" in qualifiers(checker.ev, base_sym, other.scope)
    return False


def _is_declaration(sym: S.Symbol, target: ast.expr) -> bool:
    return any(isinstance(d, ast.AnnAssign) and d.target is target for d in sym.decls) or (
        isinstance(sym.annotation_node, ast.AnnAssign) and sym.annotation_node.target is target
    )


def _init_of_unset_final(checker: "ModuleChecker", sym: S.Symbol, cls: "ClassInfo", target: ast.Attribute) -> bool:
    """`self.x = v` in `__init__` for a class-level `x: Final[T]` without a value."""
    fn = checker.scope.function
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name != "__init__":
        return False
    if checker.scope.method_class() is not cls:
        return False
    decl = sym.annotation_node
    return not (isinstance(decl, ast.AnnAssign) and decl.value is not None and not sym.is_instance_attr)


def check_final_name(checker: "ModuleChecker", target: ast.Name) -> None:
    """`NAME = v` where NAME was declared `Final` (mypy: 'Cannot assign to final name')."""
    check_final_name_of(checker, target, checker.ev.lookup(target.id, checker.scope))


def check_final_name_of(checker: "ModuleChecker", target: ast.Name, hit: "tuple[S.Symbol, Scope] | None") -> None:
    """`check_final_name`, with `hit` the name looked up in the checker's scope."""
    if hit is None:
        return
    sym, scope = hit
    if sym.kind == S.VAR and sym.annotation is None and not checker.scope.table.star_imports:
        # Most names assigned: an unannotated variable (no qualifiers, below) where no
        # `from m import *` (only at module level) could have imported a Final one.
        return
    if scope is checker.scope and imported_final(checker, sym):
        checker.error(target, f'Cannot assign to final name "{target.id}"', "misc")
        return
    if sym.kind != S.VAR or sym.is_instance_attr or sym.annotation is None:
        return  # (only an annotation gives a variable qualifiers: declarations.compute_declared_type)
    if "Final" not in qualifiers(checker.ev, sym, scope):
        return
    if _is_declaration(sym, target):
        return
    checker.error(target, f'Cannot assign to final name "{target.id}"', "misc")
