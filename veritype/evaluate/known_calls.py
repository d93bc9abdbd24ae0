"""Answers of silent calls made with known argument types, kept once final.

`call_dispatch.call_types` calls a callee with argument types, not
expressions, and reports nothing: `__iter__`/`__next__` of every `for` loop
and comprehension, each operator's dunder (`__add__`, `__contains__`...),
a descriptor's `__get__`. The same few questions come again and again (19,800
calls for 1,450 distinct ones on the bench corpus), each a full signature
check (or overload resolution).

Pure: the answer (the return type, or None when the call has an error)
depends on the callee, the argument types and the classes involved, nothing
else: there are no argument expressions, no expected type, no scope and no
flow; the options it reads are the program's. It is kept only when final:
asked while no lazy evaluation is in progress (one that is may still hold a
placeholder, see Evaluator.lazy_depth), as in `found_members`.

Keys: the callee by identity (a callable's name, definition and flags take
no part in its equality, and its definition decides a deprecation report);
it is kept alive in the entry so that its id stays its own. Arguments by
value where every field of the type takes part in equality (an instance of
plain instances, None) and for literals with their `declared` flag (which
equality leaves out and the solver reads); a call with any other argument
is not kept. The table lives on the evaluator's `members` (Members.known_calls)
beside the other kept answers about classes (found members and constructors),
which the engine drops when classes are forgotten (Members.forget), so that no
answer about a forgotten class outlives it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.evaluate.found_members import literal_key, plain_instance as _plain
from veritype.types.model import Instance, LiteralType, NoneType, Type

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

_MISSING = object()


def answer(ev: "Evaluator", callee: Type, arg_types: list[Type], call: Callable[[], Type | None]) -> Type | None:
    """`call()`, the silent call of `callee` with `arg_types`, from the table when asked before."""
    if ev.lazy_depth:
        return call()
    key = _key(callee, arg_types)
    if key is None:
        return call()
    table = ev.members.known_calls
    hit = table.get(key, _MISSING)
    if hit is not _MISSING and hit[1] is callee:  # type: ignore[index]
        return hit[0]  # type: ignore[index]
    result = call()
    table[key] = (result, callee)  # (lazy_depth is 0 again: lazy evaluations restore it)
    return result


def _key(callee: Type, arg_types: list[Type]) -> tuple[object, ...] | None:
    key: list[object] = [id(callee)]
    for t in arg_types:
        tp = type(t)
        if tp is Instance:
            if not _plain(t):
                return None
            key.append(t)
        elif tp is LiteralType:
            literal = literal_key(t)  # type: ignore[arg-type]
            if literal is None:
                return None
            key.append(literal)
        elif tp is NoneType:
            key.append(t)
        else:
            return None
    return tuple(key)
