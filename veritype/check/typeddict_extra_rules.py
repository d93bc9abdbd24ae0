"""PEP 728's class keywords of a TypedDict: `closed=` and `extra_items=`.

Typing spec, "TypedDict", "Extra items": "only a literal True or False is
supported as the value of the closed argument"; "It is a type checker error
to pass closed=False if a superclass has closed=True or sets extra_items";
"It is possible to use closed=True when subclassing if the extra_items
argument is a read-only type"; "It is an error to use Required[] or
NotRequired[] with extra_items"; "it is not allowed to change the value of
extra_items in a subclass unless it is declared to be ReadOnly in the
superclass", and since `extra_items=T` "marks them as non-required", "the
above restriction applies to any additional items defined in a subclass".
An open base has implicit `ReadOnly[object]` extra items, so it restricts
nothing. mypy's messages where it has the rule (it knows `closed` only).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.qualifier_rules import special_qualifier
from veritype.types.model import NeverType, TypedDictType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_extra_items_keywords(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    from veritype.evaluate.typeddicts import typeddict_type

    ev = checker.ev
    closed_kw = next((kw for kw in node.keywords if kw.arg == "closed"), None)
    extra_kw = next((kw for kw in node.keywords if kw.arg == "extra_items"), None)
    if closed_kw is not None and not (isinstance(closed_kw.value, ast.Constant) and isinstance(closed_kw.value.value, bool)):
        checker.error(closed_kw.value, '"closed" argument must be a True or False literal', "literal-required")
        return
    if closed_kw is not None and extra_kw is not None:
        checker.error(node, '"closed" and "extra_items" cannot be used together', "misc")
        return
    if extra_kw is not None:
        bad = _item_qualifier(checker, extra_kw.value)
        if bad is not None:
            checker.error(extra_kw.value, f'"extra_items" value cannot be "{bad}[...]"', "valid-type")
            return
    own = typeddict_type(ev, info.self_instance())
    if not isinstance(own, TypedDictType):
        return
    fits = ev.subtype_checker().item_fits
    for b in info.bases:
        if not b.info.is_typeddict:
            continue
        base = typeddict_type(ev, b)
        if not isinstance(base, TypedDictType) or base.extra is None:
            continue  # an open base: ReadOnly[object] extra items restrict nothing
        name = b.info.name
        closed = isinstance(base.extra, NeverType)
        if closed_kw is not None and closed_kw.value.value is False:  # type: ignore[attr-defined]
            msg = (f'Open TypedDict class cannot subclass closed TypedDict class "{name}"' if closed
                   else f'Cannot set "closed=False" when base class "{name}" has "extra_items"')
            checker.error(node, msg, "misc")
            return
        if closed_kw is not None and not base.extra_readonly and not closed:
            checker.error(node, f'Cannot set "closed=True" when base class "{name}" has non-read-only "extra_items"', "misc")
            return
        if extra_kw is not None and own.extra is not None and not fits(own.extra, own.extra_readonly, False, base.extra, base.extra_readonly, False):
            checker.error(extra_kw.value, f'Cannot change "extra_items" type of base class "{name}" unless it is ReadOnly there', "misc")
            return
        base_items = base.item_map()
        for stmt in node.body:
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            key = stmt.target.id
            if key in base_items or key not in own.item_map():
                continue
            t = own.item_map()[key]
            if fits(t, key in own.readonly, key in own.required, base.extra, base.extra_readonly, False):
                continue
            if closed:
                checker.error(stmt, f'Cannot extend closed base class "{name}" with new field "{key}"', "misc")
            else:
                checker.error(stmt, f'Definition of field "{key}" incompatible with the extra items of base class "{name}"', "misc")


def _item_qualifier(checker: "ModuleChecker", node: ast.expr) -> str | None:
    return special_qualifier(checker, node, ("Required", "NotRequired"))
