"""Rules for class definitions: bases, final classes, the class body."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import TypeType, Instance
from veritype.check.attribute_overrides import check_attribute_overrides
from veritype.check.class_base_rules import check_bases, class_keywords_call
from veritype.check.dataclass_rules import check_dataclass
from veritype.check.disjoint_base_rules import check_disjoint_bases
from veritype.check.enum_rules import check_enum_body
from veritype.check.generic_base_rules import check_base_consistency, check_generic_metaclass
from veritype.check.metaclass_rules import check_metaclass
from veritype.check.namedtuple_rules import check_namedtuple
from veritype.check.override_rules import check_overrides
from veritype.check.runtime_annotations import check_class_body
from veritype.check.self_rules import check_self_in_bases
from veritype.check.subclassing_any import check_subclassing_any
from veritype.check.type_param_rules import check_pep695_params, check_type_param_list, check_undeclared_type_vars
from veritype.check.typeddict_rules import check_typeddict
from veritype.check.typevar_scope_rules import check_class_type_var_scope
from veritype.evaluate.newtype import is_newtype_class_expr
from veritype.evaluate.class_bases import type_param_scope
from veritype.semantic.symbols import Symbol
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_class(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    ev = checker.ev
    for dec in node.decorator_list:
        checker.infer(dec)

    sym = checker.scope.table.get(node.name)
    if sym is None or sym.node is not node:
        # A redefinition or a conditional class: check its body in a fresh info.
        sym = Symbol(node.name, "class", [node])
    outer = checker.scope
    # PEP 695: the class statement's bases and keywords see the class's own type
    # parameters (`class C[T](Base[T], param=Foo[T])`), as
    # class_bases.evaluate_bases reads them: inferred as values in the
    # parameters' scope, not the module's (where a `T` may be a variable).
    info = ev.class_info_of(sym, outer)
    header = (type_param_scope(outer, info.fullname, ev.pep695_params(node, info.fullname, outer))
              if getattr(node, "type_params", None) else outer)
    checker.scope = header
    try:
        for base in node.bases:
            if is_newtype_class_expr(ev, base, checker.scope) is not None:
                # At run time a NewType is a plain callable, not a class (spec, "NewType").
                checker.error(base, 'Cannot subclass "NewType"', "misc")
                continue
            t = checker.infer(base)
            if isinstance(t, TypeType) and isinstance(t.item, Instance) and t.item.info.is_final:
                checker.error(base, f'Cannot inherit from final class "{t.item.info.name}"', "misc")
    finally:
        checker.scope = outer

    check_bases(checker, node, info)

    check_subclassing_any(checker, node)
    if info.is_protocol:
        _protocol_self_attributes(checker, info)
    init_subclass = class_keywords_call(checker, node, info)
    checker.scope = header
    try:
        for kw in node.keywords:
            if init_subclass is None or kw.arg == "metaclass":
                checker.infer(kw.value)
        if init_subclass is not None:
            # The keywords are arguments to the base's `__init_subclass__` (PEP 487).
            checker.infer(init_subclass)
    finally:
        checker.scope = outer
    if info.mro and info.inconsistent_mro and not any(c.has_any_base for c in info.mro):
        # Python raises TypeError for such a class (C3 linearization), as mypy reports.
        seen: set[object] = set()
        dup = next((b.info for b in info.bases if b.info in seen or seen.add(b.info)), None)  # type: ignore[func-returns-value]
        if dup is not None:
            checker.error(node, f'Duplicate base class "{dup.name}"', "misc")
        else:
            checker.error(node, f'Cannot determine consistent method resolution order (MRO) for "{info.name}"', "misc")
    with checker.in_scope(info.scope, None):
        checker.block(node.body)

    check_class_body(checker, node, info)

    check_class_type_var_scope(checker, node, info)

    check_overrides(checker, node, info)

    check_attribute_overrides(checker, node, info)

    check_dataclass(checker, node, info)

    check_enum_body(checker, node, info)

    check_namedtuple(checker, node, info)

    check_typeddict(checker, node, info)

    check_disjoint_bases(checker, node, info)

    check_base_consistency(checker, node, info)
    check_generic_metaclass(checker, node)

    check_metaclass(checker, node, info)

    check_type_param_list(checker, node, info)

    check_pep695_params(checker, node)

    check_undeclared_type_vars(checker, node, [tv for b in info.bases for tv in type_vars_in(b).values()], info.fullname)

    check_self_in_bases(checker, node)


def _protocol_self_attributes(checker: "ModuleChecker", info: "ClassInfo") -> None:
    """Spec, "Protocols": "Additional attributes only defined in the body of a
    method by assignment via self are not allowed" (mypy's wording and code)."""
    for member in info.symbols.values():
        if member.is_instance_attr and member.node is not None:
            checker.error(member.node, "Protocol members cannot be defined via assignment to self", "misc")
