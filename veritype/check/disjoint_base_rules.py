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

DISJOINT_BASE = ("typing.disjoint_base", "typing_extensions.disjoint_base")
_INVALID = object()


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


def disjoint_base(info: "ClassInfo", depth: int = 0) -> object:
    """The class's disjoint base (a ClassInfo), None for none, or _INVALID."""
    cached = getattr(info, "_disjoint_base", False)
    if cached is not False:
        return cached
    result: object = None
    if depth > 100 or info.has_any_base or info.inconsistent_mro:
        result = None
    elif any(n in DISJOINT_BASE for n in _decorators(info)) or _has_slots(info):
        result = info
    else:
        candidates: list["ClassInfo"] = []
        for b in info.bases:
            c = disjoint_base(b.info, depth + 1)
            if c is _INVALID:
                result = None  # reported at the base's own definition
                candidates = []
                break
            if c is not None and c not in candidates:
                candidates.append(c)  # type: ignore[arg-type]
        if len(candidates) == 1:
            result = candidates[0]
        elif candidates:
            top = next((c for c in candidates if all(o in c.mro for o in candidates)), None)
            result = top if top is not None else _INVALID
    info._disjoint_base = result  # type: ignore[attr-defined]
    return result


def _decorators(info: "ClassInfo") -> list[str]:
    info.bases
    return info.decorators


def _has_slots(info: "ClassInfo") -> bool:
    if info.node is None:
        return False
    for stmt in info.node.body:
        value: ast.expr | None
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in stmt.targets):
            value = stmt.value
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "__slots__":
            value = stmt.value
        else:
            continue
        names = _slot_names(value)
        return names is not None and any(n not in ("__dict__", "__weakref__") for n in names)
    return False


def _slot_names(value: ast.expr | None) -> list[str] | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        out = []
        for e in value.elts:
            if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
                return None
            out.append(e.value)
        return out
    if isinstance(value, ast.Dict):
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in value.keys):
            return None
        return [k.value for k in value.keys]  # type: ignore[union-attr]
    return None


def check_function_decorators(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str], sig: object) -> None:
    """`@disjoint_base` on a function: its type variable takes class objects
    only (mypy's `type-var` message)."""
    from veritype.types.format import format_type

    for dec, name in zip(node.decorator_list, names):
        if name in DISJOINT_BASE:
            checker.error(dec, f'Value of type variable "_TC" of "disjoint_base" cannot be "{format_type(sig)}"', "type-var")  # type: ignore[arg-type]
