"""Truthiness: whether a type can be false or true in a boolean context, and the part of a
type that passes a truth test (mypy's true_only/false_only, with literal parts for bool,
int, str and bytes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, CallableType, Instance, LiteralType, NoneType, Overloaded, TupleType, Type, UnpackType, TypedDictType, TypeType, make_union, union_items

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator


def can_be_false(ev: "Evaluator", t: Type, branch: bool = False) -> bool:
    """Whether some value of `t` is false. `branch`: for what a test's false
    branch may see, where mypy 2.4.1 (typeops.false_only) keeps an instance of
    a class without `__bool__` or `__len__` (a subclass may define one) unless
    the class is final or an enum, and a `type[A]` (its metaclass may); so `if
    a: ... else: ...` checks the else branch. Without `branch` (the value of an
    `and`), such a falsy part is left out, as mypy's false_only marks it never
    true and the `or` that usually follows (`(x and x.f()) or []`) drops it."""
    if isinstance(t, (NoneType, AnyType)):
        return True
    if isinstance(t, LiteralType):
        return not bool(t.value)
    if isinstance(t, TupleType):
        # `tuple[*Ts]` / `tuple[*tuple[int, ...], ...]` may be empty; a fixed item may not.
        return all(isinstance(i, UnpackType) for i in t.items)
    if isinstance(t, Instance):
        if t.info.fullname == "builtins.object" or _defines_truth(ev, t.info):
            return True
        return branch and not (t.info.is_final or t.info.is_enum_class())
    if isinstance(t, (CallableType, Overloaded)):
        return False
    if isinstance(t, TypeType):
        # (A class named directly, `if A:`, is a callable for mypy and never
        # false; here it is `type[A]` too, and mypy reports that test as
        # truthy-function anyway.)
        return branch
    if isinstance(t, TypedDictType):
        return True
    return True


def _defines_truth(ev: "Evaluator", info: "ClassInfo") -> bool:
    """Whether a class of `info`'s MRO below `object` defines `__bool__`, or one
    defines `__len__`. Kept on the class (36k MRO searches for 20k truth
    questions on the bench corpus), once final: not while a lazy evaluation is
    in progress, when the MRO may still be a placeholder (Evaluator.lazy_depth)."""
    known = info.defines_truth
    if known is not None:
        return known
    found = info.get("__bool__")
    answer = found is not None and found[1].fullname != "builtins.object" or info.get("__len__") is not None
    if not ev.lazy_depth:
        info.defines_truth = answer
    return answer


def can_be_true(ev: "Evaluator", t: Type) -> bool:
    if isinstance(t, NoneType):
        return False
    if isinstance(t, LiteralType):
        return bool(t.value)
    if isinstance(t, TupleType):
        # `tuple[()]` is always false (mypy: `if history:` on `tuple[R, ...] | tuple[()]`
        # keeps the first); a tuple subclass may define its own truth.
        return len(t.items) > 0 or t.fallback.info.fullname != "builtins.tuple"
    return True


def surely_has(ev: "Evaluator", t: Type, name: str) -> bool:
    if not isinstance(t, Instance) or any(c.has_any_base for c in t.info.mro):
        return False
    return t.info.defines_below_object(name)


def truthy_part(ev: "Evaluator", t: Type, literal_bool: bool = False) -> Type:
    items = []
    for i in union_items(t):
        if not can_be_true(ev, i):
            continue
        if literal_bool and isinstance(i, Instance) and i.info.fullname == "builtins.bool":
            i = _part_literal(ev, True)  # a true bool is `Literal[True]` (so `is True` can rule it out)
        items.append(i)
    return make_union(items)


def _part_literal(ev: "Evaluator", value: object) -> Type:
    """The literal a truthiness part stands for. mypy's `false_only` makes a real
    `LiteralType` (not an inferred literal that a variable widens): `r = flag and
    loc()` is `Literal[False] | str | None`, so `if r:` leaves `str` (urllib3)."""
    lit = ev.literal(value)
    # (the fields of `dataclasses.replace(lit, declared=True)`, without its generic copy)
    return LiteralType(lit.value, lit.fallback, lit.is_enum, True)


_FALSY_VALUES: dict[str, object] = {"builtins.int": 0, "builtins.str": "", "builtins.bytes": b""}


def falsy_part(ev: "Evaluator", t: Type, literal_bool: bool = False, branch: bool = False) -> Type:
    """The false values of `t`; `branch` as for `can_be_false`."""
    items = []
    for i in union_items(t):
        if not can_be_false(ev, i, branch):
            continue
        if literal_bool and isinstance(i, Instance) and i.info.fullname == "builtins.bool":
            i = _part_literal(ev, False)
        elif literal_bool and isinstance(i, Instance) and i.info.fullname in _FALSY_VALUES:
            # mypy behaviour: a falsy `int` / `str` / `bytes` is its empty literal.
            i = _part_literal(ev, _FALSY_VALUES[i.info.fullname])
        items.append(i)
    return make_union(items)


def never_true(ev: "Evaluator", t: Type) -> bool:
    """No value of `t` is true (None, `Literal[False]`, `tuple[()]`, Never): a
    test of this type makes its true branch unreachable (mypy's true_only is
    Never, for any expression, not only a narrowable reference)."""
    for i in union_items(t):
        if can_be_true(ev, i):
            return False
    return True


def never_false(ev: "Evaluator", t: Type) -> bool:
    """No value of `t` is false (a function, a class object, a final class
    without `__bool__`, `Literal[True]`): the false branch of a test of this
    type is unreachable."""
    for i in union_items(t):
        if can_be_false(ev, i, branch=True):
            return False
    return True
