"""Unannotated attributes: the first assignment declares the type (mypy's rule).

`self.side = side` in a method (or `side = 0` in the class body) declares
the attribute's type as mypy infers it; a later assignment of another type,
in the class (`self.side = "x"`) or from outside (`obj.side = "x"`), is an
`[assignment]` error with mypy's message ("variable has type ..."). A
subclass assigning an attribute a base class defines assigns the base's
attribute (mypy: the name is found in the MRO, so it is no new definition).

Left unenforced, each where mypy's rule is not modelled exactly (a missed
error, never a false one):
- a first assignment of `None` or of an empty display (mypy's partial
  types, completed within one scope);
- a first assignment in a method without annotations: mypy does not infer
  types in unchecked functions, the attribute is `Any` there (unless
  `check_untyped_defs`);
- dunder names, names whose first declaration in text order is not the one
  the evaluator infers from, generic defining classes reached from a
  subclass, attributes of class objects and modules.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.syntax.shapes import is_unannotated_def
from veritype.types.model import AnyType, Instance, NoneType, Type
from veritype.syntax.walk import walk as walk_nodes
from veritype.check.inferred_decls import enabled

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.semantic.symbols import Symbol


def inferred_attribute_type(checker: "ModuleChecker", target: ast.Attribute, base: Type) -> Type | None:
    """The type `target`'s attribute was declared with by its first assignment, when
    `target` is a later assignment to it; None when nothing is enforced."""

    if not enabled(checker):
        return None
    name = target.attr
    if not isinstance(base, Instance) or (name.startswith("__") and name.endswith("__")):
        return None
    hit = base.info.get(name)
    if hit is None:
        return None
    sym, cls = hit
    if sym.kind != S.VAR or sym.annotation is not None or sym.type_comment is not None:
        return None
    if sym.is_instance_attr:
        # Defined by a base too: the subclass's `self.x = ...` assigns the base's attribute,
        # and so does that base's own `self.x = ...` if a base of it defines the name (the
        # definition is in the furthest base: urllib3's `self.sock` is http.client's).
        definers = [other for other in cls.mro[1:] if name in other.symbols]
        if definers:
            return _inherited(checker, definers[-1], name)
    if checker.ev.declared_type(sym, cls.scope) is not None:
        return None
    if _is_declaration(sym, target):
        return None
    if is_partial_none(checker, sym):
        return NoneType()
    if not _declares(checker, sym):
        return None
    t = checker.ev.members.get(base, name)
    return None if t is None or isinstance(t, AnyType) else t


def _inherited(checker: "ModuleChecker", cls: "ClassInfo", name: str) -> Type | None:
    sym = cls.symbols[name]
    if sym.kind != S.VAR or cls.type_vars or sym.type_comment is not None:
        return None
    if sym.annotation is not None:
        return None  # an annotated base attribute: members and override rules own it
    if is_partial_none(checker, sym):
        return NoneType()
    if not _declares(checker, sym):
        return None
    t = checker.ev.symbol_type(sym, cls.scope)
    return None if isinstance(t, AnyType) else t


def _first_in_text(sym: "Symbol") -> ast.AST | None:
    decls = [d for d in sym.decls if hasattr(d, "lineno")]
    if not decls:
        return None
    return min(decls, key=lambda d: (d.lineno, d.col_offset))


def _declares(checker: "ModuleChecker", sym: "Symbol") -> bool:
    """Whether the first declaration fixes a type mypy would enforce."""
    node = sym.node
    if node is None or _first_in_text(sym) is not node:
        return False
    if not isinstance(node, (ast.Assign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
        return False
    value = getattr(node, "value", None)
    if isinstance(node, ast.Assign):
        from veritype.check.var_annotated import empty_display_kind

        if isinstance(value, ast.Constant) and value.value is None:
            return False  # partial None
        if value is not None and empty_display_kind(value) is not None:
            return False  # partial collection
    method = sym.decl_methods.get(id(node)) or (sym.method if sym.is_instance_attr else None)
    if method is not None and is_unannotated_def(method) and not checker.options.check_untyped_defs:
        return False
    return True


def is_partial_none(checker: "ModuleChecker", sym: "Symbol") -> bool:
    """`self.x = None` in a checked method, as the attribute's first declaration,
    with no other assignment to it in that method: mypy's partial None type is
    not completed in its scope, so the attribute's type is `None` and any other
    value assigned elsewhere (another method, a subclass, `obj.x = v` outside
    the class) is an `[assignment]` error ("variable has type "None"").
    Checked against mypy 2.4.1 (trio's `FakeNet.route_packet`). A partial None
    completed in the same method (`T | None`) is not modelled: not enforced."""
    node = sym.node
    if not sym.is_instance_attr or node is None or _first_in_text(sym) is not node:
        return False
    if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is None):
        return False
    method = sym.decl_methods.get(id(node)) or sym.method
    if method is None or is_unannotated_def(method):
        return False  # mypy: `Any | None` there (under check_untyped_defs), which takes anything
    for d in sym.decls:
        if d is node or sym.decl_methods.get(id(d)) is not method:
            continue
        if not (isinstance(d, ast.Assign) and isinstance(d.value, ast.Constant) and d.value.value is None):
            return False  # completed (or touched otherwise) in its own scope
    # A nested function or class of the method assigning the attribute: another
    # scope, whose completion rules are not modelled.
    for sub in walk_nodes(method):
        if sub is not method and isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            for n in walk_nodes(sub):
                if isinstance(n, ast.Attribute) and n.attr == sym.name and isinstance(n.ctx, ast.Store):
                    return False
    return True


def _is_declaration(sym: "Symbol", target: ast.Attribute) -> bool:
    node = sym.node
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
    for t in targets:  # (loops, not `any()` over a generator)
        for sub in walk_nodes(t):
            if sub is target:
                return True
    return False
