"""Rules for the body and keywords of a class-syntax TypedDict (typing spec, "TypedDict")."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, NeverType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.types.model import Type, TypedDictType
    from veritype.evaluate.classes import ClassInfo

_KEYWORDS = ("total", "closed", "extra_items")


def check_typeddict(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if not info.is_typeddict or any(c.has_any_base for c in info.mro):
        return
    for kw in node.keywords:
        # "Specifying a custom metaclass is not allowed"; the only other keywords
        # are `total` (and PEP 728's `closed` / `extra_items`).
        if kw.arg is not None and kw.arg not in _KEYWORDS:
            checker.error(kw.value, f'Unexpected keyword argument "{kw.arg}" for "__init_subclass__" of "TypedDict"', "call-arg")
    _body(checker, node.body)
    from veritype.check.typeddict_inheritance import check_typeddict_bases

    check_typeddict_bases(checker, node, info)
    from veritype.check.typeddict_extra_rules import check_extra_items_keywords

    check_extra_items_keywords(checker, node, info)


def _body(checker: "ModuleChecker", body: list[ast.stmt]) -> None:
    for stmt in body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            continue
        if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and (stmt.value.value is Ellipsis or isinstance(stmt.value.value, str))):
            continue  # a docstring, `...`, `pass`
        if isinstance(stmt, ast.If):
            # "`if` conditions that the type checker is able to statically evaluate
            # are also permitted"
            _body(checker, stmt.body)
            _body(checker, stmt.orelse)
            continue
        # "Methods are not allowed, since the runtime type of a TypedDict object
        # will always be just dict"; nor are other statements.
        checker.error(stmt, 'Invalid statement in TypedDict definition; expected "field_name: field_type"', "misc")


def check_typeddict_delete(checker: "ModuleChecker", base: "TypedDictType", target: ast.Subscript, key_type: "Type") -> None:
    """`del td[key]`: the key must be a string literal (or have a literal type;
    mypy: `Expected TypedDict key to be string literal`  [misc]), and (typing
    spec, "Typed dictionaries") a required or read-only key cannot be deleted."""
    from veritype.evaluate.typeddict_key_methods import NOT_LITERAL_KEY, literal_keys
    from veritype.types.format import format_type

    if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
        keys: list[str] | None = [target.slice.value]
    else:
        keys = literal_keys(key_type)
    if keys is None:
        if base.extra is not None and not isinstance(base.extra, NeverType) and not base.extra_readonly:
            return  # PEP 728: with writable extra items it is a `dict[str, VT]` here
        if not isinstance(key_type, AnyType) or key_type.reason != "error":
            checker.error(target.slice, NOT_LITERAL_KEY, "misc")
        return
    for name in keys:
        if name in base.required or name in base.readonly:
            checker.error(target, f'Key "{name}" of TypedDict "{format_type(base)}" cannot be deleted', "misc")
            return
