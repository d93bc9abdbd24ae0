"""`x in container`: the union members of x that can be in the container.

The spec leaves narrowing by `in` to the checker. mypy 2.4.1, for a
container of a builtin collection class (list, set, frozenset, dict keys,
tuple; not a `Sequence`, whose `__contains__` may be anything), keeps in
the positive branch the members of x's union that overlap the item type
(`f: A | B` with `f in list_of_b` is `B`; `x: int | None` in a `list[int]`
is `int`; hypothesis's `_callbacks_all_threads.remove(f)` after `if f in
_callbacks_all_threads`). A member overlapping it stays whole (`int` in a
`list[bool]` is still `int`: `1 == True`); the negative branch is
unchanged. Containers of literals are narrowed in `narrowing` itself.

A container display of class objects narrows too, also in `narrowing`
(`class_objects` here tells such a container): mypy 2.4.1 narrows
`x in (A, B)` as `x == A or x == B` when it knows each item, and `t == A`
makes a `t: type[Base]` the class object `A`. So pytest's `seq_type =
type(self.expected)` (a `type[Sequence[Any]]`) is a tuple or list class
after `if seq_type not in (tuple, list): seq_type = list`, and can be
called with an iterable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.evaluate.strict_equality import has_own_eq
from veritype.types.model import AnyType, Instance, TupleType, Type, TypeType, TypeVarType, make_union, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

_BUILTIN_CONTAINERS = ("builtins.list", "builtins.set", "builtins.frozenset", "builtins.dict", "builtins.tuple")


def narrow_in_container(ev: "Evaluator", left: Type, container: Type) -> Type | None:
    item = _item_type(container)
    if item is None or isinstance(item, AnyType) or (isinstance(item, Instance) and item.info.fullname == "builtins.object"):
        return None
    members = union_items(left)
    if len(members) < 2:
        return None
    kept = [m for m in members if _overlaps(ev, m, item)]
    if not kept or len(kept) == len(members):
        return None
    return make_union(kept)


def class_objects(items: list[Type]) -> bool:
    """Whether each of a container's items is a class object (`tuple`, `list`)
    whose metaclass compares by identity: `x in` them narrows `x` to them."""
    return all(isinstance(c, TypeType) and isinstance(c.item, Instance) and not has_own_eq(c) for c in items)


def _item_type(t: Type) -> Type | None:
    if isinstance(t, TupleType):
        return make_union(list(t.items)) if t.items and not any(not isinstance(i, (Instance, TupleType)) for i in t.items) else None
    if isinstance(t, Instance) and t.args and t.info.fullname in _BUILTIN_CONTAINERS:
        return t.args[0]
    return None


def _overlaps(ev: "Evaluator", member: Type, item: Type) -> bool:
    if isinstance(member, (AnyType, TypeVarType)):
        return True
    return any(isinstance(i, (AnyType, TypeVarType)) or is_subtype(ev, member, i) or is_subtype(ev, i, member) for i in union_items(item))
