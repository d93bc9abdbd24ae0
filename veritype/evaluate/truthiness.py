"""Truthiness: whether a type can be false or true in a boolean context, and the part of a
type that passes a truth test (mypy's true_only/false_only, with literal parts for bool,
int, str and bytes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, CallableType, Instance, LiteralType, NoneType, Overloaded, TupleType, Type, UnpackType, TypedDictType, TypeType, UnionType, NEVER, NeverType, make_union, union_items

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
    if type(t) is Instance:
        # (The commonest item, tested first: 20k questions on the bench corpus.
        # The model's classes are never subclassed: the chain below answers
        # the same for an Instance.)
        info = t.info  # type: ignore[attr-defined]
        if info.fullname == "builtins.object" or _defines_truth(ev, info):
            return True
        return branch and not (info.is_final or info.is_enum_class())
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
    if type(t) is Instance:
        return True  # (the commonest item: the chain below says so too)
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
    cls = type(t)
    if cls is not UnionType and cls is not NeverType:
        # One item (most of the 15k parts asked on the bench corpus): the union
        # below of its part alone is that part, or Never.
        part = _truthy_item(ev, t, literal_bool)
        return NEVER if part is None else part
    items = []
    for i in union_items(t):
        part = _truthy_item(ev, i, literal_bool)
        if part is not None:
            items.append(part)
    return make_union(items)


def _truthy_item(ev: "Evaluator", i: Type, literal_bool: bool) -> Type | None:
    if not can_be_true(ev, i):
        return None
    if literal_bool and isinstance(i, Instance) and i.info.fullname == "builtins.bool":
        return _part_literal(ev, True)  # a true bool is `Literal[True]` (so `is True` can rule it out)
    return i


def _part_literal(ev: "Evaluator", value: object) -> Type:
    """The literal a truthiness part stands for. mypy's `false_only` makes a real
    `LiteralType` (not an inferred literal that a variable widens): `r = flag and
    loc()` is `Literal[False] | str | None`, so `if r:` leaves `str` (urllib3)."""
    return ev.declared_literal(value)


_FALSY_VALUES: dict[str, object] = {"builtins.int": 0, "builtins.str": "", "builtins.bytes": b""}


def falsy_part(ev: "Evaluator", t: Type, literal_bool: bool = False, branch: bool = False) -> Type:
    """The false values of `t`; `branch` as for `can_be_false`."""
    cls = type(t)
    if cls is not UnionType and cls is not NeverType:
        part = _falsy_item(ev, t, literal_bool, branch)  # (one item, as in truthy_part)
        return NEVER if part is None else part
    items = []
    for i in union_items(t):
        part = _falsy_item(ev, i, literal_bool, branch)
        if part is not None:
            items.append(part)
    return make_union(items)


def _falsy_item(ev: "Evaluator", i: Type, literal_bool: bool, branch: bool) -> Type | None:
    if not can_be_false(ev, i, branch):
        return None
    if literal_bool and isinstance(i, Instance):
        name = i.info.fullname
        if name == "builtins.bool":
            return _part_literal(ev, False)
        if name in _FALSY_VALUES:
            # mypy behaviour: a falsy `int` / `str` / `bytes` is its empty literal.
            return _part_literal(ev, _FALSY_VALUES[name])
    return i


def never_true(ev: "Evaluator", t: Type) -> bool:
    """No value of `t` is true (None, `Literal[False]`, `tuple[()]`, Never): a
    test of this type makes its true branch unreachable (mypy's true_only is
    Never, for any expression, not only a narrowable reference)."""
    if type(t) is not UnionType:
        return not can_be_true(ev, t)  # (one item: `union_items` makes no list for it)
    for i in t.items:  # type: ignore[attr-defined]
        if can_be_true(ev, i):
            return False
    return True


def never_false(ev: "Evaluator", t: Type) -> bool:
    """No value of `t` is false (a function, a class object, a final class
    without `__bool__`, `Literal[True]`): the false branch of a test of this
    type is unreachable."""
    if type(t) is not UnionType:
        return not can_be_false(ev, t, branch=True)  # (one item, as in never_true)
    for i in t.items:  # type: ignore[attr-defined]
        if can_be_false(ev, i, branch=True):
            return False
    return True
