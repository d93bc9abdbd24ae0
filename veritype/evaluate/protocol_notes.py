"""Notes explaining why a type is not assignable to a protocol.

When a value fails a protocol (an argument, an assignment, a return), mypy
adds notes naming the members at fault, and mypy users rely on them:

    "C" is missing following "P" protocol member:
        meth
    Following member(s) of "C" have conflicts:
        x: expected "int", got "str"
        Expected:
            def meth(self) -> int
        Got:
            def meth(self) -> str

As mypy does, missing members are listed only when some (at most two) are
missing, not all ("an obviously wrong type"), and at most two conflicts are
shown. Members are in name order. Anything unusual (a class with an unknown
base, overloads, generic methods) is left out rather than explained wrongly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.format import format_callable, format_pair, format_type
from veritype.types.model import AnyType, CallableType, Instance, LiteralType, Type

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

_MAX_ITEMS = 2
_OFFSET = "    "


def protocol_notes(ev: "Evaluator", actual: Type, expected: Type) -> list[str]:
    """The notes for `actual` failing protocol `expected` (empty if not that case)."""
    if isinstance(actual, LiteralType):
        actual = actual.fallback
    if not (isinstance(expected, Instance) and expected.info.is_protocol and isinstance(actual, Instance)):
        return []
    if actual.info.is_protocol and actual.info is expected.info:
        return []
    if any(c.has_any_base or c.unknown_decorator for c in actual.info.mro):
        return []
    try:
        return _notes(ev, actual, expected)
    except RecursionError:
        return []


def _notes(ev: "Evaluator", actual: Instance, proto: Instance) -> list[str]:
    members = ev.members
    names = sorted(members.protocol_members(proto.info))
    out: list[str] = []
    missing: list[str] = []
    conflicts: list[tuple[str, Type, Type]] = []
    checker = ev.subtype_checker()
    for name in names:
        want = members.get(proto, name)
        if want is None:
            continue
        got = members.get(actual, name)
        if got is None:
            missing.append(name)
            continue
        if isinstance(want, AnyType) or isinstance(got, AnyType):
            continue
        if not checker.check(got, want) or (members._both_mutable_vars(proto.info, actual, name) and not checker.check(want, got)):
            conflicts.append((name, got, want))
    short = format_type(actual)
    if missing:
        if len(missing) >= len(names) or len(missing) > _MAX_ITEMS:
            return []  # an obviously wrong type: mypy explains nothing
        plural = "s" if len(missing) > 1 else ""
        out.append(f'"{short}" is missing following "{format_type(proto)}" protocol member{plural}:')
        out.append(_OFFSET + ", ".join(missing))
    if conflicts and _generic_mismatch_only(ev, actual, proto):
        return out
    if conflicts:
        lines: list[str] = []
        for name, got, want in conflicts[:_MAX_ITEMS]:
            if isinstance(got, CallableType) and isinstance(want, CallableType):
                g, w = _method(name, got), _method(name, want)
                if g is None or w is None:
                    return out
                lines += [_OFFSET + "Expected:", _OFFSET * 2 + w, _OFFSET + "Got:", _OFFSET * 2 + g]
            elif isinstance(got, CallableType) or isinstance(want, CallableType):
                return out  # a method against an attribute, or overloads: not explained
            else:
                g, w = format_pair(got, want)
                lines.append(f'{_OFFSET}{name}: expected "{w}", got "{g}"')
        out.append(f'Following member(s) of "{short}" have conflicts:')
        out += lines
        if len(conflicts) > _MAX_ITEMS:
            out.append(f"{_OFFSET}<{len(conflicts) - _MAX_ITEMS} more conflict(s) not shown>")
    return out


def _generic_mismatch_only(ev: "Evaluator", actual: Instance, proto: Instance) -> bool:
    """mypy lists no conflicts when both classes are generic and `actual` fits
    the protocol with its arguments erased: `list[str]` for an
    `Iterable[int | None]` differs in the arguments only, which the error
    message already shows."""
    if not actual.info.type_vars or not proto.info.type_vars:
        return False
    if any(tv.kind == "paramspec" for tv in (*actual.info.type_vars, *proto.info.type_vars)):
        return False
    erased = Instance(proto.info, tuple(AnyType("special") for _ in proto.args))
    return ev.subtype_checker().check(actual, erased)


def _method(name: str, bound: CallableType) -> str | None:
    """A bound method shown as its definition, `def meth(self, x: int) -> str`."""
    if bound.type_vars:
        return None
    text = format_callable(bound)
    if not text.startswith("def ("):
        return None
    # Defaults show as `= ...` in a definition (`def (x: int =)` in a type).
    rest = text[len("def ("):].replace(" =,", " = ...,").replace(" =)", " = ...)")
    return f"def {name}(self{', ' if not rest.startswith(')') else ''}{rest}"
