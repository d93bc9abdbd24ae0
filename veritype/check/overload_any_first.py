"""An earlier overload taking Any where a later one takes something narrower:
`overload-cannot-match`, also for a later overload that is generic.

mypy 2.4.1 reports `Overloaded function signature 2 will never be matched:
signature 1's parameter type(s) are the same or broader` when each parameter
type of the later overload is "more precise" than the earlier one's: any
type is, against `Any` itself; otherwise it must be a proper subtype, where
Any is no supertype of anything but Any and a type variable bounded by Any
(`(x: Any)` before `(x: T)`; `(d: Any | Box[Any])` before `(d: D | Box[D])`
for a covariant Box and D bounded by an unresolved import: hypothesis's
`arrays()`, whose `np.dtype[G]` is Any where numpy is not installed; not for
an invariant Box, whose `Box[D]` is no proper subtype of `Box[Any]`). The
earlier overload's own type variables count as their bounds.
check/overload_consistency decides the pairs whose types it is sure of; this
module the others where the earlier overload takes Any somewhere, with a
proper subtype test that is sure or says no.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable

from veritype.check.overload_params import paired
from veritype.types.model import AnyType, CallableType, Instance, Param, Type, TypeVarType, UnionType, holds_any
from veritype.types.substitute import substitute, tv_key
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

Simple = Callable[[Type], bool]


def any_first_cannot_match(ev: "Evaluator", first: CallableType, second: CallableType, simple: Simple,
                           accepts_all: Callable[["Evaluator", CallableType, CallableType], bool]) -> bool:
    """Whether `second` is never matched after `first`, by the rule above.
    `simple` and `accepts_all` are overload_consistency's tests."""
    if first.is_ellipsis or second.is_ellipsis or first.type_guard is not None or first.type_is is not None:
        return False
    if not any(holds_any(p.type) for p in first.params):
        return False
    if first.type_vars:
        bounded = _at_bounds(first)
        if bounded is None:
            return False
        first = bounded
    params: list[Param] = []
    for n, w in paired(first, second):
        if w is None or not _more_precise(ev, n.type, w.type, simple):
            return False
        params.append(dataclasses.replace(n, type=AnyType("special")))  # (decided: accepts_all asks the shapes)
    plain = dataclasses.replace(second, params=tuple(params), type_vars=())
    return accepts_all(ev, first, plain)


def _at_bounds(sig: CallableType) -> CallableType | None:
    if any(v.kind != "typevar" or v.values or v.upper_bound is None for v in sig.type_vars):
        return None  # (an unbounded one is `object`, which needs the evaluator: not decided)
    bounds: dict[tuple[str, str], Type] = {tv_key(v): v.upper_bound for v in sig.type_vars if v.upper_bound is not None}
    out = substitute(dataclasses.replace(sig, type_vars=()), bounds)
    return out if isinstance(out, CallableType) else None


def _more_precise(ev: "Evaluator", left: Type, right: Type, simple: Simple) -> bool:
    return type(right) is AnyType or _proper(ev, left, right, simple)


def _proper(ev: "Evaluator", left: Type, right: Type, simple: Simple) -> bool:
    """`left` is a proper subtype of `right`, Any taken as no wider than itself;
    False where not sure."""
    if left == right:
        return True
    if type(left) is UnionType:
        return all(_proper(ev, i, right, simple) for i in left.items)
    if type(right) is UnionType:
        return any(_proper(ev, left, i, simple) for i in right.items)
    if type(left) is TypeVarType:
        if left.kind != "typevar" or left.values or left.upper_bound is None:
            return False
        return _proper(ev, left.upper_bound, right, simple)
    if type(right) is AnyType:
        return type(left) is AnyType
    if type(left) is Instance and type(right) is Instance and left.info is right.info and left.args and len(left.args) == len(right.args):
        for tv, la, ra in zip(left.info.type_vars, left.args, right.args):
            if tv.kind != "typevar":
                return False
            if tv.variance == "covariant":
                ok = _proper(ev, la, ra, simple)
            elif tv.variance == "contravariant":
                ok = _proper(ev, ra, la, simple)
            else:
                ok = la == ra
            if not ok:
                return False
        return True
    return simple(left) and simple(right) and is_subtype(ev, left, right)
