"""Answers of member lookups on instances, kept once they are final.

`Members.instance_member` is asked again and again for the same few members
(115,000 times for 6,600 distinct questions on the bench corpus), each time
a walk of the MRO, a mapping to the declaring class and a binding to the
receiver. The answer depends on nothing else than the question and the
classes involved, which do not change once evaluated; it is kept only when
final: computed while no lazy evaluation is in progress (one that is may
still hold a placeholder, see Evaluator.lazy_depth).

Types compare by value, but some of their fields take no part in it (an
Any's reason, a literal's `declared`, a callable's name): only plain instances
(`list[str]`, `Generator[int, None, None]`, `dict[str, int | None]`), whose
every field counts, are keyed by value, and a receiver
that is a literal (with its `declared` flag) or a fixed tuple of them; other
types by identity, kept alive in the entry so that their ids stay theirs.
"""

from __future__ import annotations

from collections.abc import Callable

from veritype.types.model import AnyType, Instance, LiteralType, NoneType, TupleType, Type, TypeType, UnionType

Lookup = Callable[[Instance, str, Type], "Type | None"]
Construct = Callable[[TypeType], "Type | None"]

_MISSING = object()
# An enum's attributes `Members.get` makes (`enum_attr`) before it looks for a kept answer.
ENUM_VALUE_NAMES = frozenset(("value", "_value_", "name", "_name_"))


class FoundMembers:
    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[tuple[object, ...], tuple[Type | None, Type, Type]] = {}

    def answer(self, inst: Instance, name: str, receiver: Type, lookup: Lookup) -> Type | None:
        """`lookup(inst, name, receiver)`, from the table when asked before."""
        # The usual question is asked of the instance itself (`self.x`, `obj.m()`):
        # an instance without arguments is then keyed by its class, which is all
        # its value (no hash of a type to compute: the class hashes by identity,
        # and an equal but distinct instance is not compared field by field);
        # a plain one with arguments once, not twice.
        key: tuple[object, ...]
        found = self._found
        if receiver is inst and type(inst) is Instance:
            if not inst.args:
                key = (inst.info, name)
            else:
                # Looked up before `plain_instance` is asked: only plain instances
                # are keys, and no other instance equals one (they differ in a
                # part whose kind only a plain instance has), so a hit is plain.
                key = (inst, name)
                hit = found.get(key)
                if hit is not None:
                    return hit[0]
                if not plain_instance(inst):
                    key = (id(inst), name, id(receiver))
        elif type(inst) is Instance and (not inst.args or plain_instance(inst)):
            if plain_instance(receiver):
                key = (inst, name, receiver)
            else:
                by_value = _receiver_key(receiver)
                key = (inst, name, by_value) if by_value is not None else (id(inst), name, id(receiver))
        else:
            key = (id(inst), name, id(receiver))
        hit = found.get(key)
        if hit is not None and (type(key[0]) is not int or (hit[1] is inst and hit[2] is receiver)):
            return hit[0]
        result = lookup(inst, name, receiver)
        found[key] = (result, inst, receiver)
        return result

    @property
    def table(self) -> dict[tuple[object, ...], tuple[Type | None, Type, Type]]:
        """The answers, keyed as `answer` keys them: an instance without
        arguments asked of itself by (its class, the name). Cleared in place."""
        return self._found

    def clear(self) -> None:
        self._found.clear()


def _receiver_key(receiver: Type) -> object:
    """A literal or fixed tuple receiver (`"-".join`, `1 + x`'s `__radd__`, `x in
    (a, b)`) by value where every field counts: a literal of a plain class with
    its `declared` flag (which equality leaves out) and its value's class
    (`Literal[1]` and `Literal[True]` are equal values); a tuple of plain
    instances. None for any other."""
    tp = type(receiver)
    if tp is LiteralType:
        return literal_key(receiver)  # type: ignore[arg-type]
    if tp is TupleType and plain_instance(receiver.fallback):  # type: ignore[attr-defined]
        for item in receiver.items:  # type: ignore[attr-defined]
            if not plain_instance(item):
                return None
        return receiver
    return None


def literal_key(t: LiteralType) -> object:
    """A literal of a plain class by value where every field counts: with its
    `declared` flag (which equality leaves out) and its value's class
    (`Literal[1]` and `Literal[True]` are equal values); None for another."""
    if plain_instance(t.fallback):
        return (t, type(t.value), t.declared)
    return None


def plain_instance(t: Type) -> bool:
    """An instance type whose arguments are plain too: instances like it, None,
    or unions and fixed tuples of such (`Generator[int, None, None]`,
    `list[tuple[str, int]]`, `dict[str, int | None]`): every field of each
    counts in equality."""
    if type(t) is not Instance:
        return False
    # (The usual parts tested inline: an instance, None; an Any or a type variable fails.)
    for a in t.args:  # type: ignore[attr-defined]
        tp = type(a)
        if tp is Instance:
            if a.args and not plain_instance(a):  # type: ignore[attr-defined]
                return False
        elif tp is NoneType:
            continue
        elif (tp is not UnionType and tp is not TupleType) or not _plain_part(a):
            return False
    return True


def _plain_part(t: Type) -> bool:
    tp = type(t)
    if tp is Instance:
        return plain_instance(t)
    if tp is NoneType:
        return True
    if tp is UnionType or (tp is TupleType and plain_instance(t.fallback)):  # type: ignore[attr-defined]
        for item in t.items:  # type: ignore[attr-defined]
            if not _plain_part(item):
                return False
        return True
    return False


class FoundConstructors:
    """The signatures of calling class objects (`Members.constructor`), kept once final.

    A class is called again and again (6,193 constructor questions for 595
    distinct class objects on the bench corpus), each time a walk of the MRO
    for `__init__`/`__new__`/a metaclass `__call__`, their signatures bound
    and mapped. The answer depends only on the class object, whose classes'
    members, bases and signatures do not change once evaluated; the caller
    keeps it only when computed while no lazy evaluation is in progress
    (Evaluator.lazy_depth). Keyed by value only where every field of the key
    counts: a class object as written (`C`, every argument an Any "bare",
    which the constructor tells from an explicit Any) by its class, and
    `type[C[int]]` with plain instance arguments by the instance.
    """

    __slots__ = ("_found",)

    def __init__(self) -> None:
        self._found: dict[object, Type | None] = {}

    def answer(self, receiver: TypeType, construct: Construct, final: bool) -> Type | None:
        """`construct(receiver)`, from the table when asked before; kept if `final`."""
        key = _constructor_key(receiver)
        if key is None:
            return construct(receiver)
        hit = self._found.get(key, _MISSING)
        if hit is not _MISSING:
            return hit  # type: ignore[return-value]
        result = construct(receiver)
        if final:
            self._found[key] = result
        return result

    def clear(self) -> None:
        self._found.clear()


def _constructor_key(receiver: TypeType) -> object:
    item = receiver.item
    if type(item) is not Instance:
        return None
    args = item.args  # type: ignore[attr-defined]
    if not args:
        return item
    for a in args:  # (a loop, not `all()` over a generator: asked for each class object called)
        if type(a) is not AnyType or a.reason != "bare":  # type: ignore[attr-defined]
            return item if plain_instance(item) else None
    return item.info  # type: ignore[attr-defined]
