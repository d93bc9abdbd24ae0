"""`x = []` (or `self.x = []`) with nothing that fixes the item type: [var-annotated].

mypy gives an empty display a "partial" type and completes it from a later
`x.append(1)`, `x[k] = v`, `x += [...]` or reassignment in the same scope;
when nothing completes it, it reports `Need type annotation for "x" (hint:
"x: list[<type>] = ...")`. We do not track partial types: we report only
the plainly unfixable case, where the scope (nested scopes included) never
touches the name except by plain reads. Any attribute access, subscript,
store, `del`, `global`/`nonlocal` of the name keeps us silent.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.types.model import Type

_HINTS = {"list": "list[<type>]", "dict": "dict[<type>, <type>]", "set": "set[<type>]"}


def empty_display_kind(value: ast.expr) -> str | None:
    """'list' / 'dict' / 'set' for `[]`, `{}`, `set()`, else None."""
    if isinstance(value, ast.List) and not value.elts:
        return "list"
    if isinstance(value, ast.Dict) and not value.keys:
        return "dict"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("set", "list", "dict") and not value.args and not value.keywords:
        return value.func.id
    return None


def needs_annotation(body: list[ast.stmt], name: str, assign: ast.Assign) -> bool:
    """True when nothing in `body` (outside `assign`) could complete the type of `name`."""
    for stmt in body:
        for node in ast.walk(stmt):
            if node is assign:
                continue
            if isinstance(node, ast.Name) and node.id == name:
                if not isinstance(node.ctx, ast.Load):
                    if node in assign.targets:
                        continue
                    return False
            elif isinstance(node, (ast.Attribute, ast.Subscript)):
                if isinstance(node.value, ast.Name) and node.value.id == name:
                    return False
            elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return False
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                return False
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                return False
            elif isinstance(node, ast.arg) and node.arg == name:
                return False
            elif getattr(node, "name", None) == name or getattr(node, "rest", None) == name:
                return False  # match-pattern captures, except-handler names
            elif isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name for a in node.names):
                return False
    return True


def message(name: str, kind: str) -> str:
    return f'Need type annotation for "{name}" (hint: "{name}: {_HINTS[kind]} = ...")'


def attribute_needs_annotation(checker: "ModuleChecker", stmt: ast.Assign, t: "Type") -> tuple[str, str] | None:
    """(name, kind) when `self.x = []` in a method declares the attribute and nothing
    in the method completes it: mypy's partial types are local (`local_partial_types`),
    so a `self.x.append(1)` in another method does not count and mypy asks for an
    annotation. We report only when the method mentions `self.x` nowhere else except
    in plain reads (never as the base of a call, subscript or attribute, a store, or
    in a nested function): any such use might be one mypy completes from."""
    from veritype.check.inferred_attrs import _first_in_text, _is_untyped
    from veritype.types.model import AnyType, Instance

    if len(stmt.targets) != 1 or stmt.type_comment or checker.info.is_stub:
        return None
    target = stmt.targets[0]
    kind = empty_display_kind(stmt.value)
    if kind is None or not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
        return None
    if not (isinstance(t, Instance) and t.info.fullname == f"builtins.{kind}" and all(isinstance(a, AnyType) for a in t.args)):
        return None
    cls = checker.scope.method_class() if checker.scope.kind == "function" else None
    fn = checker.scope.function
    if cls is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if _is_untyped(fn):
        return None  # mypy asks for no annotation in an unannotated function (checked or not)
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params or params[0].arg != target.value.id or fn.decorator_list:
        return None
    sym = cls.symbols.get(target.attr)
    if sym is None or not sym.is_instance_attr or sym.annotation is not None or sym.type_comment is not None:
        return None
    if sym.node is not stmt or _first_in_text(sym) is not stmt:
        return None
    if any(target.attr in c.symbols for c in cls.mro[1:]):
        return None  # a base declares it: this assigns the base's attribute
    if not _only_plain_reads(fn, target.value.id, target.attr, target):
        return None
    return target.attr, kind


def _only_plain_reads(fn: ast.AST, self_name: str, attr: str, target: ast.Attribute) -> bool:
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and self_name in node.names:
            return False
        if isinstance(node, ast.Name) and node.id == self_name and not isinstance(node.ctx, ast.Load):
            return False  # `self` rebound
        if not (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) and node.value.id == self_name):
            continue
        if node is target:
            continue
        if not isinstance(node.ctx, ast.Load):
            return False
        parent = parents.get(id(node))
        if isinstance(parent, (ast.Attribute, ast.Subscript, ast.AugAssign, ast.Starred)):
            return False
        p: ast.AST | None = parent
        while p is not None and p is not fn:
            if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False  # in a nested scope
            p = parents.get(id(p))
    return True
