"""mypy's `Maybe you forgot to use "await"?` note.

mypy adds it after an error about an awaitable value (a coroutine, a Task,
any `Awaitable[T]`) when the awaited value, `T`, would have been fine: an
assignment, return or argument whose expected type `T` satisfies, an
attribute `T` has. Unions, Any and unknown awaited types get no note (mypy
gives none when the awaited type is Any).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, Type
from veritype.types.subtype import is_subtype, map_instance_to_supertype
from veritype.evaluate.protocol_notes import protocol_notes

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

MISSING_AWAIT = 'Maybe you forgot to use "await"?'


def awaited_type(ev: "Evaluator", t: Type) -> Type | None:
    """`T` of an `Awaitable[T]` instance (None: not one, or `T` is Any)."""
    if not isinstance(t, Instance):
        return None
    awaitable = ev.named_class("typing.Awaitable")
    if awaitable is None or awaitable not in t.info.mro:
        return None
    mapped = map_instance_to_supertype(t, awaitable)
    if mapped is None or len(mapped.args) != 1 or isinstance(mapped.args[0], AnyType):
        return None
    return mapped.args[0]


def missing_await(ev: "Evaluator", actual: Type, works: Callable[[Type], bool]) -> bool:
    awaited = awaited_type(ev, actual)
    return awaited is not None and works(awaited)


def subtype_notes(ev: "Evaluator", actual: Type, expected: Type) -> list[str]:
    """The notes after "`actual` is not assignable to `expected`": the
    protocol's members at fault, then the await hint, in mypy's order."""

    notes = protocol_notes(ev, actual, expected)
    if missing_await(ev, actual, lambda awaited: is_subtype(ev, awaited, expected)):
        notes.append(MISSING_AWAIT)
    return notes
