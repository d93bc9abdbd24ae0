"""A class's metaclass: mypy's `metaclass` error code.

Python builds a class with the most derived metaclass among the one it
declares and those of its bases, and raises `TypeError` when one of them
is not a (non-strict) subclass of it. mypy reports, on the class:

* `Metaclass conflict: the metaclass of a derived class must be a
  (non-strict) subclass of the metaclasses of all its bases`, with a note
  naming the two metaclasses and the classes that declare them;
* a `metaclass=` that is not a class deriving from `type`: `Metaclasses not
  inheriting from "type" are not supported` (on the expression);
* a `metaclass=` that is not a plain name (a call, a string): `Dynamic
  metaclass not supported for "C"`.

A base whose ancestry holds Any, an inconsistent MRO, a Protocol (whose
metaclass mypy does not count), `metaclass=type` (the default written
out), TypedDict and NamedTuple classes are left alone, as in mypy.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Instance

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

CONFLICT = "Metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases"


def check_metaclass(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if info.is_typeddict or info.is_namedtuple:
        return  # no metaclass of their own: a `metaclass=` keyword is reported as a keyword
    keyword = next((k.value for k in node.keywords if k.arg == "metaclass"), None)
    declared: "ClassInfo | None" = None
    if keyword is not None:
        if isinstance(keyword, ast.Subscript):
            return  # `metaclass=Meta[T]`: check.generic_base_rules
        if not isinstance(keyword, (ast.Name, ast.Attribute)):
            checker.error(keyword, f'Dynamic metaclass not supported for "{node.name}"', "metaclass")
            return
        t = checker.ev.type_exprs.evaluate(keyword, checker.scope)
        if not isinstance(t, Instance):
            return  # Any, or not understood: silent
        if checker.ev.named_class("builtins.type") not in t.info.mro:
            checker.error(keyword, 'Metaclasses not inheriting from "type" are not supported', "metaclass")
            return
        if t.info.fullname != "builtins.type":
            declared = t.info
    if info.inconsistent_mro or any(c.has_any_base for c in info.mro):
        return
    metas: list[tuple["ClassInfo", "ClassInfo"]] = []  # (metaclass, the class declaring it)
    try:
        for base in info.bases:
            found = _declared_metaclass(checker, base.info)
            if found is not None:
                metas.append(found)
    except _Unknown:
        return
    if not metas:
        return
    if declared is not None:
        winner = (declared, info)
    else:
        winner = metas[0]
        for meta in metas[1:]:
            if winner[0] in meta[0].mro:
                winner = meta
    for meta in metas:
        if meta[0] not in winner[0].mro:
            checker.error(node, CONFLICT, "metaclass")
            checker.note(node, f'"{winner[0].fullname}" (metaclass of "{winner[1].fullname}") conflicts with "{meta[0].fullname}" (metaclass of "{meta[1].fullname}")')
            return


class _Unknown(Exception):
    """A metaclass that cannot be known (Any, not understood)."""


def _declared_metaclass(checker: "ModuleChecker", cls: "ClassInfo") -> "tuple[ClassInfo, ClassInfo] | None":
    """The metaclass `cls` gets from the nearest class of its MRO declaring one,
    with that class; None for plain `type`; raises _Unknown when it cannot be known."""
    if cls.is_protocol:
        return None
    for c in cls.mro:
        c.bases  # the metaclass keyword is read with the bases
        if c.metaclass_expr is None:
            continue
        if c.defining_scope is None:
            raise _Unknown
        t = checker.ev.type_exprs.evaluate(c.metaclass_expr, c.defining_scope)
        if not isinstance(t, Instance):
            raise _Unknown
        if t.info.fullname == "builtins.type":
            return None
        return (t.info, c)
    return None
