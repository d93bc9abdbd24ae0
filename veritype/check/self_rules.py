"""Rules for where `typing.Self` may be used (spec, "Self", "Valid locations for Self").

Spec: "Self ... is invalid" in "static methods", in "metaclasses", in a method
whose `self`/`cls` is annotated with a type variable, and outside a class
(base class lists and module-level annotations included). Messages are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import CallableType, TypeType, TypeVarType
from veritype.types.substitute import type_vars_in
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def _uses_self(sig: CallableType) -> bool:
    # (Loops, not `any()` over a generator: asked for every method checked.)
    for p in sig.params:
        for v in type_vars_in(p.type).values():
            if v.kind == "self":
                return True
    for v in type_vars_in(sig.ret).values():
        if v.kind == "self":
            return True
    return False


def check_self_in_method(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    scope = checker.scope
    if scope.kind != "class" or scope.cls is None or not _uses_self(sig):
        return
    from veritype.evaluate.functions import method_kind

    cls = scope.cls
    if cls.has_base("builtins.type"):
        checker.error(node, "Self type cannot be used in a metaclass", "misc")
        return
    if node.name != "__new__" and method_kind(checker.ev, node, scope) == "static":
        checker.error(node, "Static methods cannot use Self type", "misc")
        return
    args = [*node.args.posonlyargs, *node.args.args]
    if args and args[0].annotation is not None and sig.params:
        first = sig.params[0].type
        inner = first.item if hasattr(first, "item") else first
        if isinstance(inner, TypeVarType) and inner.kind == "typevar":
            checker.error(node, "Method cannot have explicit self annotation and Self type", "misc")
        elif isinstance(inner, TypeVarType) and inner.kind == "self" and (inner is first or isinstance(first, TypeType)):
            # mypy's optional `redundant-self`: `self: Self` / `cls: type[Self]` says
            # what an unannotated first argument already means (PEP 673).
            checker.error(node, 'Redundant "Self" annotation for the first method argument', "redundant-self")


def check_self_in_bases(checker: "ModuleChecker", node: ast.ClassDef) -> None:
    """`class C(Base[Self])` / `class C(Self)`: Self does not mean the class being defined."""
    for base in node.bases:
        for sub in walk_nodes(base):
            if isinstance(sub, (ast.Name, ast.Attribute)) and _is_self(checker, sub):
                checker.error(sub, "Self type is only allowed in annotations within class definition", "misc")
                break


def _is_self(checker: "ModuleChecker", node: ast.expr) -> bool:
    if isinstance(node, ast.Name) and node.id != "Self" or isinstance(node, ast.Attribute) and node.attr != "Self":
        return False
    ref = checker.ev.resolve_expr(node, checker.scope)
    return ref is not None and ref.kind == "special" and ref.fullname in ("typing.Self", "typing_extensions.Self")
