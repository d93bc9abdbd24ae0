"""Rules for type variables used outside any scope that binds them.

Spec, "Generics" ("Scoping rules for type variables"): "A type variable used
in a generic function could be inferred to represent different types in the
same code block"; "Unbound type variables should not appear in the bodies of
generic functions, or in the class bodies apart from method definitions",
and a type variable at module level (outside an alias) is bound by nothing.
A variable annotation naming a type variable that no enclosing function or
class binds is reported (mypy's message and code).
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from typing import TYPE_CHECKING

from veritype.types.model import Type, CallableType, Instance, Overloaded, TupleType, TypeType, UnionType
from veritype.types.substitute import type_vars_in
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_unbound_in_annotation(checker: "ModuleChecker", node: ast.expr, declared: Type) -> None:
    if checker.info.is_stub:
        return
    for tv in _outside_callables(declared).values():
        if tv.kind in ("typevar", "paramspec", "typevartuple") and tv.scope == "":
            checker.error(node, f'Type variable "{tv.fullname}" is unbound', "valid-type")
            return


def _outside_callables(t: Type) -> dict:  # type: ignore[type-arg]
    """The type variables `t` names outside any callable type: one inside a
    callable (`dict[Any, Callable[[Any, type[T]], T]]`) is bound by it, as
    mypy makes such a callable generic in it (cattrs' handler registries)."""

    out: dict = {}  # type: ignore[type-arg]

    def walk(x: Type) -> None:
        if isinstance(x, (CallableType, Overloaded)):
            return
        if isinstance(x, Instance):
            for a in x.args:
                walk(a)
        elif isinstance(x, (UnionType, TupleType)):
            for i in x.items:
                walk(i)
        elif isinstance(x, TypeType):
            walk(x.item)
        else:
            out.update(type_vars_in(x))

    walk(t)
    return out


def check_class_type_var_scope(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    """A class defined inside a generic class or function (spec, "Scoping rules for
    type variables": "A generic class definition that appears inside a generic
    function should not use type variables that parameterize the generic
    function"; "A generic class nested in another generic class cannot use the
    same type variables"). mypy's messages: `Generic[T]` naming a variable bound
    outside is no free variable; another base using the enclosing class's own
    variable is bound by that class."""
    scope = checker.scope
    if scope.kind == "module" or getattr(node, "type_params", None):
        return
    enclosing = scope.bound_type_vars()
    if scope.kind == "class" and scope.cls is not None:
        enclosing.update({v.fullname: v for v in scope.cls.type_vars})
    if not enclosing:
        return
    ev = checker.ev
    outer_class = {v.fullname for v in scope.cls.type_vars} if scope.kind == "class" and scope.cls is not None else set()
    reported_outer = False
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        ref = ev.resolve_expr(target, scope) if isinstance(target, (ast.Name, ast.Attribute)) else None
        if ref is not None and ref.kind == "special" and ref.fullname.rpartition(".")[2] in ("Generic", "Protocol"):
            if isinstance(base, ast.Subscript) and any(_names_type_var(checker, a, enclosing) for a in _args(base)):
                checker.error(base, f"Free type variable expected in {ref.fullname.rpartition('.')[2]}[...]", "misc")
            continue
        if reported_outer or not outer_class or not isinstance(base, ast.Subscript):
            continue
        for a in walk_nodes(base.slice):
            name = _type_var_name(checker, a)
            if name is not None and name[1] in outer_class:
                checker.error(node, f'Type variable "{name[0]}" is bound by an outer class', "valid-type")
                reported_outer = True
                break


def _args(base: ast.Subscript) -> list[ast.expr]:
    return list(base.slice.elts) if isinstance(base.slice, ast.Tuple) else [base.slice]


def _names_type_var(checker: "ModuleChecker", node: ast.expr, among: "Collection[str]") -> bool:
    name = _type_var_name(checker, node)
    return name is not None and name[1] in among


def _type_var_name(checker: "ModuleChecker", node: ast.AST) -> tuple[str, str] | None:
    """(short name, fullname) of a name that refers to a TypeVar-like declaration."""
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    ref = checker.ev.resolve_expr(node, checker.scope)
    if ref is None or ref.kind != "symbol" or ref.sym is None or ref.scope is None:
        return None
    from veritype.evaluate.declarations import typevar_declaration

    tv = typevar_declaration(checker.ev, ref.sym, ref.scope)
    return (tv.name, tv.fullname) if tv is not None else None


def check_alias_of_bound_type_var(checker: "ModuleChecker", value: ast.expr) -> None:
    """`A: TypeAlias = list[T]` where an enclosing class or function binds T: an
    alias is generic in its own free variables (spec, "Type aliases"), and a
    bound one is the enclosing scope's - mypy reports it."""
    if checker.scope.kind == "module":
        return
    bound = checker.scope.bound_type_vars()
    if not bound:
        return
    for sub in walk_nodes(value):
        name = _type_var_name(checker, sub)
        if name is not None and name[1] in bound:
            checker.error(sub, f'Can\'t use bound type variable "{name[0]}" to define generic alias', "valid-type")
            return
