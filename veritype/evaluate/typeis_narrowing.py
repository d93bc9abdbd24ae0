"""What a TypeIs guard's call says about its argument, true and false.

The typing spec ("TypeIs"): "the type checker should narrow the type of the
argument in the positive case to the intersection of the declared type and the
TypeIs type, and in the negative case ... to the type minus the TypeIs type".
Where the spec leaves the details open, as mypy 2.4.1 does, item by item of a
union argument:

- true: each item met with the guard type; an item disjoint from it (`int` and
  the protocol `DataclassInstance`: a class that does not implement a protocol
  is disjoint from it, as in mypy's overlap test) is gone. When nothing is
  left the branch is unreachable (Never), except for a guard of one class,
  where mypy makes an ad hoc intersection of the two classes: the guard type.
- false: an item is gone only where it is a proper subtype of the guard type
  (an Any does not pass: `type[Any]` and a bare `type` stay).
- a bare `type` / `type[Any]` item is a class object of any class: met with a
  guard that holds `type[C]` it is that `type[C]` (`is_dataclass(x)` for a
  `x: type | int` is `type[DataclassInstance]` when true, `type | int` when
  false: typeshed's `is_dataclass(obj: object) -> TypeIs[DataclassInstance |
  type[DataclassInstance]]`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.evaluate.isinstance_narrowing import with_bound
from veritype.types.join import meet
from veritype.types.model import AnyType, Instance, NeverType, NoneType, Type, TypeType, TypeVarType, is_any_class_object, make_union, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def narrow_by_typeis(ev: "Evaluator", current: Type, guard: Type, positive: bool) -> Type:
    """The argument's type after `guard(arg)` is true (positive) or false."""
    if not positive:
        # An Any value is not ruled out by a failed TypeIs: the other branch keeps it.
        return make_union([i for i in union_items(current) if isinstance(i, AnyType) or not is_subtype(ev, i, guard) or _only_through_any(ev, i, guard)])
    if isinstance(current, TypeVarType) and current.kind in ("typevar", "self") and not current.values:
        # As for isinstance (mypy): still T, its upper bound met with the guard,
        # so `if inspect.isclass(test): return test` returns a T.
        bound = current.upper_bound if current.upper_bound is not None else ev.builtin("object")
        met = meet(ev, bound, guard)
        if not isinstance(met, NeverType):
            return current if is_subtype(ev, bound, guard) else with_bound(current, met)
    narrowed = make_union([_met_item(ev, i, guard) for i in union_items(current)])
    if isinstance(narrowed, NeverType) and not isinstance(current, NeverType) and (type(guard) is Instance or type(guard) is NoneType):
        return guard
    return narrowed


def _met_item(ev: "Evaluator", item: Type, guard: Type) -> Type:
    if not is_any_class_object(item):
        return meet(ev, item, guard)
    # A class object of any class: the guard's class objects of known classes
    # (mypy narrows `type` by `type[C]` to `type[C]`), else what a meet keeps.
    classes: list[Type] = [g for g in union_items(guard) if type(g) is TypeType and type(g.item) is Instance]
    return make_union(classes) if classes else meet(ev, item, guard)


def _only_through_any(ev: "Evaluator", item: Type, guard: Type) -> bool:
    """Whether `item`, a subtype of `guard`, is one only through an Any: a bare
    `type` under the guard's `type[C]` items and under none of the others."""
    if not is_any_class_object(item):
        return False
    rest = [g for g in union_items(guard) if not (type(g) is TypeType and type(g.item) is Instance)]
    # (`type[Any]` as the class `type`, whose attributes are no Any: it is not a
    # DataclassInstance, as the Any would make it.)
    return len(rest) < len(union_items(guard)) and not (rest and is_subtype(ev, ev.builtin("type"), make_union(rest)))
