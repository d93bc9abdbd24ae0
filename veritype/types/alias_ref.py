"""References to recursive type aliases, expanded on demand.

Spec, "Type aliases" / PEP 695: an alias may refer to itself (`Json =
dict[str, "Json"] | list["Json"] | int`, `type T = int | list[T]`). Its value
cannot be built as a finite tree, so where the alias's own value mentions the
alias (while that value is being evaluated) the reference is kept as an
`AliasRef`: a name, its type arguments and a way to get the alias's value.

An `AliasRef` only ever appears nested (`list[AliasRef]`): at the top of a
type it is expanded (`expand_top`), and an alias whose value reaches itself
at the top (`type A = A`, `type A = B; type B = A`) is a circular definition.
Operations that look inside a reference (assignability, expression
inference) expand it one level at a time, so nothing recurses forever.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from veritype.types.model import AnyType, Type, UnionType, make_union

# Deeper top-level chains than this are treated as circular (non-regular
# recursion such as `type A[T] = T | A[list[T]]` never repeats exactly).
_MAX_TOP_DEPTH = 30


@dataclass(frozen=True, slots=True)
class AliasRef(Type):
    """A reference to a (possibly recursive) type alias, with its arguments."""
    name: str  # as written, for messages
    fullname: str  # identity of the alias
    args: tuple[Type, ...] = ()
    # args -> the alias's value with them substituted, or None while that
    # value is still being evaluated. Not part of equality.
    expander: Callable[[tuple[Type, ...]], Type | None] | None = field(default=None, compare=False, hash=False, repr=False)

    def expand(self) -> Type | None:
        """The value this reference stands for (one level), None when not known yet."""
        if self.expander is None:
            return AnyType("special")
        return self.expander(self.args)


#: The classes whose values may hold an alias reference at their top (an
#: AliasRef itself, or a union holding one): tested before `expand_top` is
#: called on the hot paths (most inferred types are neither).
MAY_HOLD_REF = frozenset((AliasRef, UnionType))


def expand_top(t: Type) -> Type:
    """`t` with every AliasRef at its top (itself, or a union member) replaced
    by its value, repeatedly. A reference whose value is still being evaluated
    stays as it is; one that reaches itself is Any (a circular definition is
    reported where the alias is defined)."""
    # (Exact class tests: no type class is subclassed, and this is asked of
    # every type expression and declared type, 60k times on the bench corpus.)
    cls = type(t)
    if cls is AliasRef:
        return _expand(t, (), 0)
    if cls is UnionType:
        for i in t.items:  # type: ignore[attr-defined]
            if type(i) is AliasRef:
                return make_union([_expand(i, (), 0) if type(i) is AliasRef else i for i in t.items])  # type: ignore[attr-defined]
    return t


def _expand(t: Type, seen: tuple[AliasRef, ...], depth: int) -> Type:
    if not isinstance(t, AliasRef):
        if isinstance(t, UnionType) and any(isinstance(i, AliasRef) for i in t.items):
            return make_union([_expand(i, seen, depth) for i in t.items])
        return t
    if t in seen or depth > _MAX_TOP_DEPTH:
        return AnyType("special")
    value = t.expand()
    if value is None:
        return t
    return _expand(value, seen + (t,), depth + 1)


def reaches_itself(value: Type, fullname: str) -> bool:
    """Whether the top of `value` (through unions and other aliases' values)
    is the alias `fullname` itself: `type A = A | int` is circular."""
    todo: list[tuple[Type, int]] = [(value, 0)]
    seen: set[AliasRef] = set()
    while todo:
        t, depth = todo.pop()
        if isinstance(t, UnionType):
            todo.extend((i, depth) for i in t.items)
            continue
        if not isinstance(t, AliasRef):
            continue
        if t.fullname == fullname or depth > _MAX_TOP_DEPTH:
            return True
        if t in seen:
            continue
        seen.add(t)
        inner = t.expand()
        if inner is not None:
            todo.append((inner, depth + 1))
    return False


def has_top_ref(t: Type) -> bool:
    # Asked of every inferred type (500k times on the bench corpus): exact class
    # tests and a plain loop, no generator (neither class is ever subclassed).
    cls = type(t)
    if cls is AliasRef:
        return True
    if cls is UnionType:
        for i in t.items:  # type: ignore[attr-defined]
            if type(i) is AliasRef:
                return True
    return False
