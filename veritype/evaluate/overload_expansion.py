"""Argument type expansion for overload evaluation (spec, "Overload call
evaluation", step 3): a union is tried member by member, `bool` as
`Literal[True] | Literal[False]`, an enum (not a Flag) as its literal
members, `type[A | B]` as `type[A] | type[B]`, and a fixed-length tuple as
every combination of its items' expansions.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from veritype.types.model import Instance, LiteralType, TupleType, Type, TypeType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

# Past this many combinations a tuple is not expanded (the call just fails to match).
_LIMIT = 64


def expand_argument(ev: "Evaluator", t: Type) -> list[Type] | None:
    """The types to try one at a time for an argument of type `t`, or None."""
    if isinstance(t, UnionType):
        return list(t.items)
    if isinstance(t, Instance):
        if t.info.fullname == "builtins.bool":
            return [LiteralType(True, t), LiteralType(False, t)]
        if t.info.is_enum_class() and not any(c.fullname == "enum.Flag" for c in t.info.mro):
            members = ev.enum_members(t.info)
            if members and len(members) <= _LIMIT:
                return [LiteralType(m, t, is_enum=True) for m in members]
        return None
    if isinstance(t, TypeType) and isinstance(t.item, UnionType):
        return [TypeType(i) for i in t.item.items]
    if isinstance(t, TupleType) and t.items:
        options = [expand_argument(ev, i) or [i] for i in t.items]
        if all(len(o) == 1 for o in options):
            return None
        count = 1
        for o in options:
            count *= len(o)
        if count > _LIMIT:
            from veritype.diagnostics import bounds

            bounds.hit(f"overload argument expansion over {_LIMIT} combinations (not expanded)")
            return None
        return [TupleType(tuple(combo), t.fallback) for combo in itertools.product(*options)]
    return None
