"""How a class-syntax TypedDict may redeclare or merge the items of its bases.

Typing spec, "TypedDict", "Inheritance": "A TypedDict cannot inherit from both
a TypedDict type and a non-TypedDict base class other than Generic", and
"Changing a field type of a parent TypedDict class in a subclass is not
allowed". With read-only items ("Read-only items", "Inheritance"):

- a mutable item keeps its type, stays mutable, and keeps its requiredness
  (a required item "cannot be deleted", a non-required one can);
- "Subclasses can narrow value types of read-only items" and "can redeclare
  read-only items as non-read-only"; "Subclasses can require items that are
  read-only but not required in the superclass", never the reverse.

The class's own item is held against each base's item; an item it inherits
from one base (the first in the MRO) is held against the same key of its
other bases. Messages and codes are mypy's (`misc`); mypy has no rule for a
mutable item redeclared read-only, and says "Definition of field ...
incompatible" there too.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Instance, TypedDictType
from veritype.types.subtype import is_same_type, is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

# Bases a TypedDict may have besides TypedDicts (the marker class stands for
# `TypedDict` itself).
_ALLOWED_BASES = ("typing._TypedDict", "typing_extensions._TypedDict", "typing.Generic", "builtins.object")


def check_typeddict_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    from veritype.evaluate.typeddicts import typeddict_type

    ev = checker.ev
    bases = list(info.bases)
    if any(not b.info.is_typeddict and b.info.fullname not in _ALLOWED_BASES for b in bases):
        checker.error(node, "All bases of a new TypedDict must be TypedDict types", "misc")
        return
    own = typeddict_type(ev, info.self_instance())
    if not isinstance(own, TypedDictType):
        return
    own_decls = _own_item_statements(node)
    base_types: list[tuple[Instance, TypedDictType]] = []
    for b in bases:
        if not b.info.is_typeddict:
            continue
        bt = typeddict_type(ev, b)
        if not isinstance(bt, TypedDictType):
            return  # a base seen as Any: nothing to hold the items against
        base_types.append((b, bt))
    items = own.item_map()
    reported: set[str] = set()
    for b, bt in base_types:
        for key, base_t in bt.items:
            if key in reported or key not in items:
                continue
            problem = _override_problem(checker, key, items[key], own, base_t, bt)
            if problem is None:
                continue
            reported.add(key)
            stmt = own_decls.get(key)
            if stmt is not None:
                checker.error(stmt, problem.replace("{base}", b.info.name), "misc")
                continue
            source = _source_base(key, base_types)
            if source is None or source is b:
                continue
            if "can be deleted" in problem:
                msg = f'Field "{key}" is required in base class "{source[0].info.name}" but can be deleted in base class "{b.info.name}"'
            else:
                msg = f'Incompatible definitions of field "{key}" in base classes "{b.info.name}" and "{source[0].info.name}"'
            checker.error(node, msg, "misc")


def _override_problem(checker: "ModuleChecker", key: str, t: object, own: TypedDictType, base_t: object, base: TypedDictType) -> str | None:
    """Why the class's item `key` may not stand for the base's item (None: it may)."""
    ev = checker.ev
    own_required = key in own.required
    base_required = key in base.required
    if key in base.readonly:
        if not is_subtype(ev, t, base_t):  # type: ignore[arg-type]
            return f'Definition of field "{key}" incompatible with base class "{{base}}"'
        if base_required and not own_required:
            return f'Field "{key}" is required in base class "{{base}}"'
        return None
    if key in own.readonly or not is_same_type(ev, t, base_t):  # type: ignore[arg-type]
        return f'Definition of field "{key}" incompatible with base class "{{base}}"'
    if base_required and not own_required:
        return f'Field "{key}" is required in base class "{{base}}"'
    if own_required and not base_required:
        return f'Field "{key}" can be deleted in base class "{{base}}"'
    return None


def _source_base(key: str, base_types: list[tuple[Instance, TypedDictType]]) -> tuple[Instance, TypedDictType] | None:
    # The item a class inherits is its first base's (the first in the MRO).
    for b, bt in base_types:
        if key in bt.item_map():
            return b, bt
    return None


def _own_item_statements(node: ast.ClassDef) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}

    def walk(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                out.setdefault(stmt.target.id, stmt)
            elif isinstance(stmt, ast.If):
                walk(stmt.body)
                walk(stmt.orelse)

    walk(node.body)
    return out
