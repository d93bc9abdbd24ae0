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
        for sub in p.patterns:
            _pattern(checker, sub, AnyType("special"))
        for sub in p.kwd_patterns:
            _pattern(checker, sub, AnyType("special"))
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
