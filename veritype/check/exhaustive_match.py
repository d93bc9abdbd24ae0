"""mypy's optional `exhaustive-match`: a match statement some values fall through.

With the code enabled, mypy 2.4.1 reports a match statement without an
irrefutable case whose cases leave part of the subject's type unmatched:
`Match statement has unhandled case for values of type "T"` on the `match`
line, with the note ``If match statement is intended to be non-exhaustive,
add `case _: pass` ``. T is the subject's type once every unguarded case has
taken away what it matches (a guarded case takes nothing).

Reported only where veritype follows the narrowing of every case exactly: a
subject that is a name or an attribute chain, each unguarded case a value,
singleton, plain class or or-pattern of those (check.patterns turns them into
conditions); and never for a rest that holds Any (veritype's Any may stand for
a type mypy knows and the cases exhaust). Elsewhere it stays silent.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import AnyType, NeverType, Type, union_items

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_exhaustive(checker: "ModuleChecker", stmt: ast.Match, rest: Type, followed: bool) -> None:
    """`rest`: the subject's type after every case; `followed`: every case's narrowing was applied."""
    if not followed or isinstance(rest, NeverType) or any(isinstance(item, AnyType) for item in union_items(rest)):
        return
    checker.error(stmt, f'Match statement has unhandled case for values of type "{format_type(rest)}"', "exhaustive-match")
    checker.note(stmt, "If match statement is intended to be non-exhaustive, add `case _: pass`")
