"""`match` statements: the subject's type flows into capture patterns, class patterns narrow."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.flow import merge
from veritype.evaluate.narrowing import narrow_isinstance
from veritype.types.model import AnyType, Instance, Type, TypeType, make_union

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_match(checker: "ModuleChecker", stmt: ast.Match) -> None:
    subject = checker.infer(stmt.subject)
    entry = checker.flow.fork()
    ends = []
    for case in stmt.cases:
        checker.flow.set(entry.copy())
        narrowed = _pattern(checker, case.pattern, subject)
        if case.guard is not None:
            checker.infer(case.guard)
            checker.flow.apply(checker.exprs().narrow_for(case.guard, True))
        _ = narrowed
        checker.block(case.body)
        ends.append(checker.flow.fork())
    # Without an irrefutable case the match may fall through unchanged.
    if not any(_irrefutable(c) for c in stmt.cases):
        ends.append(entry.copy())
    checker.flow.set(merge(ends))


def _irrefutable(case: ast.match_case) -> bool:
    p = case.pattern
    return case.guard is None and isinstance(p, ast.MatchAs) and p.pattern is None


# Builtins whose class pattern takes one positional sub-pattern matching the
# subject itself (PEP 634, "Class Patterns").
_SELF_MATCHING = frozenset({
    "builtins.bool", "builtins.bytearray", "builtins.bytes", "builtins.dict", "builtins.float",
    "builtins.frozenset", "builtins.int", "builtins.list", "builtins.set", "builtins.str", "builtins.tuple",
})


def _named_attr(checker: "ModuleChecker", narrowed: Type, name: str) -> Type:
    """The type a keyword sub-pattern `name=p` matches: the attribute, or Any when unsure."""
    if not isinstance(narrowed, Instance):
        return AnyType("special")
    t = checker.ev.members.get(narrowed, name)
    return t if t is not None else AnyType("special")


def _positional_attr(checker: "ModuleChecker", narrowed: Type, index: int, count: int) -> Type:
    """The type of positional sub-pattern `index`: the attribute `__match_args__[index]`
    names (PEP 634), the subject itself for self-matching builtins, Any when unsure."""
    if not isinstance(narrowed, Instance):
        return AnyType("special")
    if narrowed.info.fullname in _SELF_MATCHING and count == 1:
        return narrowed
    names = _literal_match_args(checker, narrowed)
    if names is None or index >= len(names):
        return AnyType("special")
    return _named_attr(checker, narrowed, names[index])


def _literal_match_args(checker: "ModuleChecker", narrowed: Type) -> "list[str] | None":
    from veritype.types.model import LiteralType, TupleType

    if not isinstance(narrowed, Instance):
        return None
    match_args = checker.ev.members.get(TypeType(narrowed), "__match_args__")
    if not isinstance(match_args, TupleType):
        return None
    names = [i.value for i in match_args.items if isinstance(i, LiteralType) and isinstance(i.value, str)]
    return names if len(names) == len(match_args.items) else None


def _check_positional_count(checker: "ModuleChecker", p: ast.MatchClass, narrowed: Type) -> None:
    if not p.patterns or not isinstance(narrowed, Instance) or narrowed.info.fullname in _SELF_MATCHING:
        return
    names = _literal_match_args(checker, narrowed)
    if names is not None and len(p.patterns) > len(names):
        checker.error(p, "Too many positional patterns for class pattern", "misc")


def _pattern(checker: "ModuleChecker", p: ast.pattern, subject: Type) -> Type:
    ev = checker.ev
    if isinstance(p, ast.MatchAs):
        t = subject if p.pattern is None else _pattern(checker, p.pattern, subject)
        if p.name:
            checker.flow.bind(p.name, t)
        return t
    if isinstance(p, ast.MatchOr):
        return make_union([_pattern(checker, sub, subject) for sub in p.patterns])
    if isinstance(p, ast.MatchClass):
        cls = checker.infer(p.cls)
        narrowed: Type = AnyType("special")
        if isinstance(cls, TypeType) and isinstance(cls.item, Instance):
            narrowed = narrow_isinstance(ev, subject, [cls.item], True)
        _check_positional_count(checker, p, narrowed)
        for i, sub in enumerate(p.patterns):
            _pattern(checker, sub, _positional_attr(checker, narrowed, i, len(p.patterns)))
        for name, sub in zip(p.kwd_attrs, p.kwd_patterns):
            _pattern(checker, sub, _named_attr(checker, narrowed, name))
        return narrowed
    if isinstance(p, ast.MatchValue):
        checker.infer(p.value)
        return subject
    if isinstance(p, ast.MatchSingleton):
        return subject
    if isinstance(p, ast.MatchSequence):
        for sub in p.patterns:
            _pattern(checker, sub, AnyType("special"))
        return subject
    if isinstance(p, ast.MatchStar):
        if p.name:
            checker.flow.bind(p.name, ev.builtin("list", AnyType("special")))
        return subject
    if isinstance(p, ast.MatchMapping):
        for k in p.keys:
            checker.infer(k)
        for sub in p.patterns:
            _pattern(checker, sub, AnyType("special"))
        if p.rest:
            checker.flow.bind(p.rest, ev.builtin("dict", AnyType("special"), AnyType("special")))
        return subject
    return subject
