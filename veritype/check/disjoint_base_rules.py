"""Disjoint bases (typing spec, "Directives", `@disjoint_base`; PEP 800).

A class is a disjoint base when it is decorated `@disjoint_base` (typeshed
marks `int`, `str`, `BaseException`... so) or "contains a non-empty
`__slots__` definition". Otherwise its disjoint base comes from its bases: "If
the candidate set contains a single disjoint base, that is the class's
disjoint base. If there are multiple candidates, but one of them is a
subclass of all other candidates, that class is the disjoint base"; with no
such candidate the class "lacks a valid disjoint base" and "Type checkers must
... emit a diagnostic" (at runtime its definition raises "multiple bases have
instance lay-out conflict"). The decorator "may only be used on nominal
classes": "it is a type checker error to use the decorator on a function,
TypedDict definition, or Protocol definition".

`__slots__` naming only `__dict__` / `__weakref__` adds no instance layout
(Python 3.12+), and a `__slots__` value that is not a literal is not read:
such classes count as no disjoint base, which can only make the check quiet.
A base that is Any or unresolved leaves the class unchecked. Messages and
codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

from veritype.evaluate.disjoint_bases import _INVALID, DISJOINT_BASE, disjoint_base  # noqa: F401 (re-exported)
from veritype.types.format import format_type


def check_disjoint_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    info.bases  # the decorators are read with the bases
    for dec, name in zip(node.decorator_list, info.decorators):
        if name in DISJOINT_BASE:
            if info.is_typeddict:
                checker.error(dec, "@disjoint_base cannot be used with TypedDict", "misc")
            elif info.is_protocol:
                checker.error(dec, "@disjoint_base cannot be used with protocol class", "misc")
    if disjoint_base(info) is _INVALID:
        checker.error(node, f'Class "{info.name}" has incompatible disjoint bases', "misc")


def check_function_decorators(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str], sig: object) -> None:
    """`@disjoint_base` on a function: its type variable takes class objects
    only (mypy's `type-var` message)."""

    for dec, name in zip(node.decorator_list, names):
        if name in DISJOINT_BASE:
            checker.error(dec, f'Value of type variable "_TC" of "disjoint_base" cannot be "{format_type(sig)}"', "type-var")  # type: ignore[arg-type]
