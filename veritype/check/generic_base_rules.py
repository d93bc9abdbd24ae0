"""Rule for a generic class's bases: they must agree on a shared ancestor's type arguments."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, Type, TypeVarType, UnionType, TupleType
from veritype.types.substitute import type_vars_in
from veritype.types.subtype import map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_base_consistency(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    # Spec, "Generics" ("Arbitrary generic types as base classes"): "A type
    # checker should report an error when the type variable order is inconsistent"
    # - two bases that reach one generic ancestor with different type arguments.
    bases = list(info.bases)
    if len(bases) < 2 or any(c.has_any_base for c in info.mro):
        return
    for i, a in enumerate(bases):
        for b in bases[i + 1:]:
            for anc in a.info.mro:
                if not anc.type_vars or anc not in b.info.mro:
                    continue
                ma, mb = map_instance_to_supertype(a, anc), map_instance_to_supertype(b, anc)
                if ma is None or mb is None or not _plain(ma) or not _plain(mb) or ma == mb:
                    continue
                # Inferred variances (PEP 695) count as the class infers them.
                if not any(x != y and checker.ev.class_variance(anc, k) == "invariant" for k, (x, y) in enumerate(zip(ma.args, mb.args))):
                    continue  # a co-/contravariant argument may differ compatibly: stay silent
                checker.error(node, f'Base classes of "{info.name}" give "{anc.name}" inconsistent type arguments', "misc")
                return


def _plain(t: Type, depth: int = 0) -> bool:
    """No Any anywhere (a bare generic base's implicit Any agrees with anything)."""
    if depth > 8 or isinstance(t, AnyType):
        return False
    if isinstance(t, Instance):
        return all(_plain(x, depth + 1) for x in t.args)
    if isinstance(t, (UnionType, TupleType)):
        return all(_plain(x, depth + 1) for x in t.items)
    if isinstance(t, TypeVarType):
        return t.kind == "typevar"
    return True


def check_generic_metaclass(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    # Spec, "Generics": "Generic metaclasses are not supported" - a metaclass
    # written with a type variable (`metaclass=Meta[T]`).
    for kw in node.keywords:
        if kw.arg == "metaclass" and isinstance(kw.value, ast.Subscript):
            t = checker.ev.type_exprs.evaluate(kw.value, checker.scope)
            if type_vars_in(t):
                checker.error(kw.value, "Metaclass cannot be generic", "misc")
