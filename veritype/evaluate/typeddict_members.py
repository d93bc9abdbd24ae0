"""Methods of a TypedDict with PEP 728 extra items (closed or `extra_items=`).

Typing spec, "TypedDict", "Extra items": "Type checkers should infer the
precise signatures of values() and items() on such TypedDict types" (those of
`Mapping[str, VT]`, VT the union of every value type), and where the TypedDict
is assignable to `dict[str, VT]` (every item non-required and mutable),
"methods that are previously unavailable on a TypedDict are allowed, with
signatures matching dict[str, VT]" (`clear`, `popitem`, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import Instance, NeverType, Type, TypedDictType, make_union

if TYPE_CHECKING:
    from veritype.evaluate.members import Members


def extra_items_member(access: "Members", td: TypedDictType, name: str) -> Type | None:
    ev = access.ev
    values = [t for _, t in td.items] + ([td.extra] if td.extra is not None and not isinstance(td.extra, NeverType) else [])
    vt = make_union(values) if values else NeverType()
    str_t = ev.builtin("str")
    if name in ("items", "values"):
        mapping = ev.instance("typing.Mapping", (str_t, vt))
        return access.instance_member(mapping, name, td) if isinstance(mapping, Instance) else None
    if access.instance_member(td.fallback, name, td) is not None:
        return None
    as_dict = ev.builtin("dict", str_t, vt)
    from veritype.types.subtype import is_subtype

    if is_subtype(ev, td, as_dict):
        return access.instance_member(as_dict, name, td)
    return None
