"""Flow state while walking a body: narrowed types of references, and reachability.

A state maps reference keys (`x`, `x.attr`, `x[0]`) to their narrowed type;
a key that is absent has its declared type. Branches copy the state and
merge it back: keys narrowed on every reachable branch keep the join.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator

from veritype.types.model import AnyType, LiteralType, NeverType, Type, UnionType, make_union, union_items
from veritype.types.union_simplify import drop_covered_items
from veritype.check.possibly_undefined import merged as merged_definedness
from veritype.check.deleted_names import DELETED
from veritype.types.join import widen_literals

if TYPE_CHECKING:
    import ast

    from veritype.check.possibly_undefined import Definedness, UndefinedNames

    from veritype.evaluate.expressions import ExprEvaluator


def _is_member_key(key: str) -> bool:
    return "." in key or "[" in key


class KeyTable(dict[str, Type]):
    """The narrowed types of a state, which also knows its member keys.

    `invalidate("x")` must drop `x.attr` and `x[0]` too; scanning every key for
    them made each assignment cost the number of names narrowed so far, and
    10,000 module-level assignments quadratic (issue #19). `members` holds
    every key with a `.` or `[` (and may hold keys since deleted), so only
    those are scanned.
    """

    def __init__(self, *args: object, **kwargs: Type) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.members: set[str] = {k for k in self if _is_member_key(k)}

    def __setitem__(self, key: str, value: Type) -> None:
        if "." in key or "[" in key:  # (_is_member_key, written out: each narrowing is set here)
            self.members.add(key)
        dict.__setitem__(self, key, value)  # (not through `super()`: 31k sets on the bench corpus)

    def setdefault(self, key: str, default: Type) -> Type:  # type: ignore[override]
        if key not in self:
            self[key] = default
        return self[key]

    def update(self, *args: object, **kwargs: Type) -> None:  # type: ignore[override]
        for k, v in dict(*args, **kwargs).items():  # type: ignore[arg-type]
            self[k] = v

    def copy(self) -> "KeyTable":
        # The member keys are copied, not found again by scanning every key
        # (a state is copied at each branch: 400k key tests on the bench corpus).
        # `members` may hold deleted keys, so the copy's superset is as valid.
        # (`__new__` and the dict copy, not `__init__`: it would scan for member keys.)
        new = KeyTable.__new__(KeyTable)
        dict.update(new, self)
        new.members = set(self.members)
        return new


def _empty_table() -> KeyTable:
    """A new empty KeyTable (as `KeyTable()` makes, with no keys to scan)."""
    table = KeyTable.__new__(KeyTable)
    table.members = set()
    return table


@dataclass
class State:
    """The narrowed types and reachability at one point of a function's flow."""
    types: dict[str, Type] = field(default_factory=dict)  # changed in place, never replaced (Flow.lookup)
    unreachable: bool = False
    # The names bound so far (check.possibly_undefined); None: not tracked.
    defined: "Definedness | None" = None

    def __post_init__(self) -> None:
        if not isinstance(self.types, KeyTable):
            self.types = KeyTable(self.types)

    @staticmethod
    def made(types: "KeyTable", unreachable: bool, defined: "Definedness | None") -> "State":
        """A state of `types`, made as `copy` makes one (no dataclass `__init__`,
        no `__post_init__` scanning the keys again: 7k merges on the bench corpus)."""
        new = State.__new__(State)
        new.types = types
        new.unreachable = unreachable
        new.defined = defined
        return new

    def copy(self) -> "State":
        # Made without the dataclass `__init__` and `__post_init__` (a state is
        # copied at each branch: 21k copies on the bench corpus): the fields
        # are set as they would be.
        new = State.__new__(State)
        # (`KeyTable.copy`, written out: `__post_init__` makes every state's a KeyTable)
        types = KeyTable.__new__(KeyTable)
        old = self.types
        dict.update(types, old)
        types.members = set(old.members)  # type: ignore[attr-defined]
        new.types = types
        new.unreachable = self.unreachable
        new.defined = self.defined.copy() if self.defined is not None else None
        return new


class Flow:
    def __init__(self) -> None:
        # (`State()`, written out: a flow is made for every body checked, with an empty state.)
        self.set(State.made(_empty_table(), False, None))
        # The scope's possibly-undefined tracking, when that code is enabled.
        self.__dict__["undefined"] = None
        self.undefined: "UndefinedNames | None"

    def __setattr__(self, name: str, value: object) -> None:
        if name == "state":
            self.set(value)  # type: ignore[arg-type]
        else:
            object.__setattr__(self, name, value)

    def lookup(self, key: str) -> Type | None:
        """(Replaced on each instance by its state's `types.get`, see `set`.)"""
        return self.state.types.get(key)

    def may_hold_members(self) -> bool:
        """(FlowView) `KeyTable.members` holds every member key, and maybe some
        deleted. (Replaced on each instance by the `__len__` of its state's
        table's `members`, a true count for true, see `set`: asked for
        each attribute and item read, 26k on the bench corpus. A table's
        `members` is never replaced, only changed.)"""
        return bool(self.state.types.members)  # type: ignore[attr-defined]

    def bind(self, key: str, t: Type) -> None:
        state = self.state
        if state.types.members:  # type: ignore[attr-defined]
            self.invalidate(key)
        else:
            state.types.pop(key, None)  # (`invalidate` where no member key is: most binds)
        if "." in key or "[" in key:  # (KeyTable.__setitem__, written out: 17k binds on the bench corpus)
            state.types.members.add(key)  # type: ignore[attr-defined]
            dict.__setitem__(state.types, key, t)
            return  # (a member key is not a name possibly-undefined tracks)
        dict.__setitem__(state.types, key, t)
        if state.defined is not None:
            self.define(key)

    def define(self, name: str) -> None:
        """`name` is bound from here on (for possibly-undefined)."""
        defined = self.state.defined
        if defined is not None and self.undefined is not None and self.undefined.own(name):
            defined.add(name)

    def invalidate(self, key: str) -> None:
        """Forget `key` and everything reached through it (`key.attr`, `key[0]`)."""
        types: KeyTable = self.state.types  # type: ignore[assignment]  # (every state's is one: State.__post_init__)
        types.pop(key, None)
        members = types.members
        if not members:
            return  # no member key at all (most binds)
        # One pass over the member keys, making no new set (17k binds on the
        # bench corpus): the keys reached through `key` go, and so do the keys
        # deleted from the table since, so that `members` stays empty where no
        # member key is left.
        prefixes = (key + ".", key + "[")
        gone = [k for k in members if k.startswith(prefixes) or k not in types]
        for k in gone:
            members.discard(k)
            types.pop(k, None)

    def apply(self, narrowed: dict[str, Type]) -> None:
        types = self.state.types
        # (KeyTable.__setitem__, written out: 15k keys set on the bench corpus)
        for k, v in narrowed.items():
            if "." in k or "[" in k:
                types.members.add(k)  # type: ignore[attr-defined]
            dict.__setitem__(types, k, v)

    def fork(self) -> State:
        return self.state.copy()

    def set(self, state: State) -> None:
        """Make `state` the flow's (as `self.state = state` does, without `__setattr__`'s
        test: every branch and loop sets a state). `lookup` is the state's own table's
        `get` (every name read asks it: 136k on the bench corpus), kept with the
        state, and `may_hold_members` its member keys' `__len__`: a state's table
        and its `members` are never replaced, only changed."""
        d = self.__dict__
        d["state"] = state
        d["lookup"] = state.types.get
        d["may_hold_members"] = state.types.members.__len__  # type: ignore[attr-defined]

    @contextmanager
    def condition(self, ev: "ExprEvaluator", test: "ast.expr", positive: bool) -> Iterator[None]:
        saved = self.fork()
        self.apply(ev.narrow_for(test, positive))
        try:
            yield
        finally:
            self.state = saved


# The types a join does not give back as themselves: a union is simplified
# again (`Literal[True] | Literal[False]` is `bool`), and Never is the shared NEVER.
_NOT_ITSELF = (UnionType, NeverType)
# The types whose equal values a join may not give back as the first: Any
# too (a reported Any is kept over another, see make_union).
_NOT_ITS_EQUAL = (UnionType, NeverType, AnyType)
_ABSENT = object()
# Unions a join of themselves gives back as themselves (the same item objects,
# in order), by id: a key that every branch left as the same union (or as
# unions of the very same items) joins to it with no union made again (4.3k of
# the 6.8k joins on the bench corpus). Each is held, so that its id is not
# another's; the memo is bounded (a union not found is joined as before) and
# emptied after each module's check (`forget_joins`), so that it keeps no
# module's types alive past it (a server checks again and again).
_JOIN_FIXED: dict[int, UnionType] = {}
_JOIN_FIXED_MAX = 4096


def forget_joins() -> None:
    """Empty the memo of unions that join to themselves (see `_JOIN_FIXED`):
    after each module's check."""
    _JOIN_FIXED.clear()


def merge(states: list[State], declared: "Callable[[str], Type | None] | None" = None, handed_over: bool = False) -> State:
    """The state where `states` meet. A key the branches left with different types
    is their union, with mypy's binder rules (`update_from_options`) for the
    variable's declared type, `declared(key)` (check.merge_declared): declared
    Any and branches that differ give Any again; Any items the branches
    brought in are dropped when the rest is exactly the declared type.
    `handed_over`: the caller keeps none of `states`, so one live state is
    the result itself, not a copy."""
    live = [s for s in states if not s.unreachable]
    if not live:
        return State.made(_empty_table(), True, None)
    if len(live) == 1:
        return live[0] if handed_over else live[0].copy()
    # (Untracked, as in most scopes, every state's is None: so is the merge's.)
    defined = None if live[0].defined is None else merged_definedness([s.defined for s in live])
    # The keys every branch narrowed, read off the smallest table (the order of
    # `out` is free: it was a set's).
    if len(live) == 2:
        # (Two branches, the commonest join: the smaller table first, as `sorted` orders them.)
        a, b = live[0].types, live[1].types
        smallest, others = (a, [b]) if len(a) <= len(b) else (b, [a])
    else:
        tables = sorted([s.types for s in live], key=len)
        smallest, others = tables[0], tables[1:]
    out: dict[str, Type] = {}
    only = others[0].get if len(others) == 1 else None  # (two branches, the commonest join)
    smallest_first = smallest is live[0].types
    for k, first in smallest.items():
        if only is not None:
            other = only(k, _ABSENT)
            if other is _ABSENT:
                continue  # not narrowed on that branch: its declared type again
            same = other is first
            if not same and type(other) is type(first) and type(first) not in _NOT_ITS_EQUAL and other == first:
                # Equal values, distinct objects (each branch narrowed the key
                # alike, 2.1k keys on the bench corpus): the join below is the
                # first branch's (make_union keeps the first of equal items, one
                # item is itself, and equal types differ for no declared rule).
                out[k] = first if smallest_first else other
                continue
            if not same and type(first) is UnionType and type(other) is UnionType and _same_items(first, other):  # type: ignore[arg-type]
                same = True  # (the join of either is the other's too: the same items)
        else:
            everywhere = same = True
            for table in others:
                other = table.get(k, _ABSENT)
                if other is _ABSENT:
                    everywhere = False
                    break
                if other is not first:
                    same = False
            if not everywhere:
                continue
        if same and type(first) not in _NOT_ITSELF:
            # Most keys come through every branch as the very same object (the
            # states are copies of one): the join below gives it back as is
            # (make_union of one item is that item, which is no union to
            # simplify, and no two branches differ for the declared rules).
            out[k] = first
            continue
        if same and _JOIN_FIXED.get(id(first)) is first:
            out[k] = first  # a union the join gives back as itself (_JOIN_FIXED)
            continue
        if only is not None:
            types: list[Type] = [first, other] if smallest_first else [other, first]  # type: ignore[assignment]  # (in the order of `live`)
        else:
            types = [s.types[k] for s in live]
        # A name deleted on some paths only is not deleted where they meet (check.deleted_names).
        types = [t for t in types if t is not DELETED] or types
        # The first Any item, and whether an item is Any or holds one, in one pass
        # (6.6k joins on the bench corpus; exact classes: type classes are never subclassed).
        first_any: Type | None = None
        with_any = False
        for t in types:
            if type(t) is AnyType:
                if first_any is None:
                    first_any = t
                with_any = True
            elif not with_any and type(t) is UnionType and _holds_any(t):  # type: ignore[arg-type]
                with_any = True
        d = declared(k) if with_any and declared is not None and any(t != types[0] for t in types) else None
        if first_any is not None and type(d) is AnyType:
            # `tbstyle = getoption(...)` then `if tbstyle == "auto": tbstyle = "short"`
            # is Any after the `if`, not `str | Any` (pytest, hypothesis).
            out[k] = first_any
            continue
        joined = drop_covered_items(_bool_whole(make_union(types)))
        if d is not None and _without_any_is(joined, d):
            joined = d
        elif same and type(first) is UnionType and type(joined) is UnionType and _same_items(joined, first):  # type: ignore[arg-type]
            # The join of one union (or of unions of the same items) is that
            # union again: kept as the union it is, and remembered as such.
            if len(_JOIN_FIXED) >= _JOIN_FIXED_MAX:
                _JOIN_FIXED.clear()
            _JOIN_FIXED[id(first)] = first  # type: ignore[assignment]
            joined = first
        out[k] = joined
    # The member keys of `out` are among the smallest table's (every key of
    # `out` is one of its keys): no scan of every key for them.
    table = KeyTable.__new__(KeyTable)
    dict.update(table, out)
    members = smallest.members  # type: ignore[attr-defined]
    table.members = {k for k in members if k in out} if members else set()
    merged = State.__new__(State)  # (`State.made`, written out: 7k merges on the bench corpus)
    merged.types = table
    merged.unreachable = False
    merged.defined = defined
    return merged


def _same_items(a: UnionType, b: UnionType) -> bool:
    """Whether `a` and `b` hold the very same item objects, in the same order
    (then no join can tell them apart: equal items may differ in what
    equality does not compare, such as an Any's `reported`)."""
    x, y = a.items, b.items
    if len(x) != len(y):
        return False
    for i, j in zip(x, y):
        if i is not j:
            return False
    return True


def _holds_any(t: UnionType) -> bool:
    for i in t.items:
        if type(i) is AnyType:  # (exact: type classes are never subclassed)
            return True
    return False


def _without_any_is(t: Type, declared: Type) -> bool:
    """Whether `t` less its Any items is `declared` (the same items, in any order)."""

    want = union_items(declared)
    rest = [i for i in union_items(t) if not isinstance(i, AnyType)]
    if not any(isinstance(i, LiteralType) for i in want):
        # `y = 1` narrows a declared `int | None` to `int` in mypy (we keep the literal)
        rest = union_items(make_union([widen_literals(i) for i in rest]))
    return len(rest) == len(want) and all(i in want for i in rest) and all(i in rest for i in want)


def _bool_whole(t: Type) -> Type:
    """`Literal[True] | Literal[False]` (the branches of `if b:`) joins back to `bool`."""
    if type(t) is not UnionType:
        return t
    # Both bool literals are looked for first, with no list made (6.7k joins on
    # the bench corpus, most with neither; exact classes: type classes are
    # never subclassed, and a literal's value is a bool only for a bool literal).
    true = false = False
    for i in t.items:
        if type(i) is LiteralType:
            value = i.value
            if value is True:
                true = True
            elif value is False:
                false = True
    if not (true and false):
        return t
    bools = [i for i in t.items if isinstance(i, LiteralType) and isinstance(i.value, bool)]
    rest = [i for i in t.items if i not in bools]
    return make_union(rest + [bools[0].fallback])
