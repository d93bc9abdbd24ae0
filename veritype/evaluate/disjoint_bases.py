"""A class's disjoint base (typing spec, "Directives", `@disjoint_base`; PEP 800).

A class is a disjoint base when it is decorated `@disjoint_base` (typeshed
marks `int`, `str`, `BaseException`... so) or has a non-empty `__slots__`;
otherwise its disjoint base comes from its bases (the one candidate, or the
candidate that is a subclass of all others). Two classes whose disjoint bases
are distinct (neither a subclass of the other) can have no common subclass:
isinstance narrowing uses that (mypy's typeops.can_have_shared_disjoint_base),
and check.disjoint_base_rules reports classes lacking a valid disjoint base.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo

DISJOINT_BASE = ("typing.disjoint_base", "typing_extensions.disjoint_base")
_INVALID = object()


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


def can_share_disjoint_base(infos: "list[ClassInfo]") -> bool:
    """Whether a class deriving from all of `infos` can exist as far as their
    disjoint bases go (one of them a subclass of all the others)."""
    bases = [b for b in (disjoint_base(i) for i in infos) if b is not None and b is not _INVALID]
    if not bases:
        return True
    candidate = bases[0]
    for base in bases[1:]:
        if base in candidate.mro:  # type: ignore[attr-defined]
            continue
        if candidate in base.mro:  # type: ignore[attr-defined]
            candidate = base
        else:
            return False
    return True
