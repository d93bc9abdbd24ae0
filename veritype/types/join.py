"""Joins and meets, for inferring one type from several (list displays, branches).

The join of two types is the wider when one is assignable to the other, and
their union otherwise (like pyright, and mypy's newer inference for
conditional expressions). Literal types of one class join to that class in
containers, since a list display's elements are not literal in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, LiteralType, NeverType, Type, TupleType, UnionType, make_union, NEVER
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def trivial_join(a: Type, b: Type) -> Type | None:
    """The join every join rule agrees on: Never is the identity, Any absorbs,
    equal types join to themselves; None when the rule must decide."""
    # (Exact class tests: the model's classes have no subclasses, and every
    # join of a display, a branch merge or a solver bound starts here.)
    if a is b:
        return a
    ta, tb = type(a), type(b)
    if ta is NeverType:
        return b
    if tb is NeverType:
        return a
    if ta is AnyType:
        return a
    if tb is AnyType:
        return b
    if ta is tb and a == b:  # (values of two classes are never equal)
        return a
    return None


def join(ev: "Evaluator", a: Type, b: Type) -> Type:
    trivial = trivial_join(a, b)
    if trivial is not None:
        return trivial
    if is_subtype(ev, a, b):
        return b
    if is_subtype(ev, b, a):
        return a
    return make_union([a, b])


def join_all(ev: "Evaluator", items: list[Type]) -> Type:
    if not items:
        return NEVER
    # The join of Never and the first item is that item (`trivial_join`): the fold
    # starts there (7.2k joins with Never on the bench corpus, one per call).
    result = items[0]
    for i in range(1, len(items)):
        result = join(ev, result, items[i])
    return result


def widen_literals(t: Type, *, in_tuples: bool = True, keep_declared: bool = False) -> Type:
    """Literal types inferred for a variable or a display element widen to their class.

    Inside a fixed-length tuple too: `t = (1, "a")` is `tuple[int, str]`, so a
    later `t = (2, "b")` or `[("a", 1)].append(("b", 2))` is accepted. With
    `in_tuples=False` only the top level and a top-level union widen (the
    solver keeps a tuple argument's literal items). With `keep_declared`, literals
    written in a type expression stay (the solver's rule, see `LiteralType.declared`).
    """
    tp = type(t)  # (exact classes: the model's classes have no subclasses)
    if tp is LiteralType:
        return t if keep_declared and t.declared else t.fallback  # type: ignore[attr-defined]
    if tp is UnionType:
        widened = [widen_literals(i, in_tuples=in_tuples, keep_declared=keep_declared) for i in t.items]  # type: ignore[attr-defined]
        for new, old in zip(widened, t.items):  # type: ignore[attr-defined]
            if new is not old:
                return make_union(widened)
        # Nothing widened: the union is its own answer (make_union only builds
        # unions it has simplified, and simplifying again changes nothing).
        return t
    if in_tuples and isinstance(t, TupleType):
        items = tuple(widen_literals(i, keep_declared=keep_declared) for i in t.items)
        if items == t.items:
            return t
        fallback = t.fallback
        if fallback.info.fullname == "builtins.tuple" and fallback.args:
            fallback = Instance(fallback.info, tuple(widen_literals(a) for a in fallback.args))
        return TupleType(items, fallback)
    return t


def declared_literal_classes(t: UnionType) -> set[str]:
    """The classes of the declared literal types in `t`: the literal context in
    which the other literals of those classes beside them were inferred."""
    return {i.fallback.info.fullname for i in t.items if isinstance(i, LiteralType) and i.declared}


def keep_context_literals(t: Type) -> Type:
    """`t` with its declared literal types kept, and with them the literals of
    the same class beside them in a union: they were inferred in that literal
    context (mypy: `kind() or ""` is `Literal['from', 'straight', '']`)."""
    if isinstance(t, UnionType):
        classes = declared_literal_classes(t)
        if classes:
            return make_union([i if isinstance(i, LiteralType) and i.fallback.info.fullname in classes
                               else widen_literals(i, keep_declared=True) for i in t.items])
    return widen_literals(t, keep_declared=True)


def meet(ev: "Evaluator", a: Type, b: Type) -> Type:
    """The narrower of two types (for narrowing), or Never when disjoint."""
    from veritype.types.subtype import is_subtype

    if isinstance(a, AnyType):
        return b
    if isinstance(b, AnyType):
        return a
    if is_subtype(ev, a, b):
        return a
    if is_subtype(ev, b, a):
        return b
    if isinstance(a, UnionType):
        return make_union([meet(ev, i, b) for i in a.items])
    if isinstance(b, UnionType):
        return make_union([meet(ev, a, i) for i in b.items])
    return NEVER


def join_display(ev: "Evaluator", items: list[Type]) -> Type:
    """The element type inferred for a display (`[A(), B()]`, `{"a": 1, "b": "x"}`):
    mypy's join of the items, see `types.display_join`."""
    from veritype.types.display_join import join_display_items

    return join_display_items(ev, items)
