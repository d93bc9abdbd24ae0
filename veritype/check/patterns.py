"""`match` statements: the subject's type flows into capture patterns, class patterns narrow."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.flow import merge
from veritype.evaluate.isinstance_narrowing import narrow_isinstance
from veritype.types.model import AnyType, Instance, Type, TypeType, make_union
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_match(checker: "ModuleChecker", stmt: ast.Match) -> None:
    subject = checker.infer(stmt.subject)
    entry = checker.flow.fork()
    ends = []
    from veritype.evaluate.reference_keys import expr_key

    from veritype.diagnostics.enabled import code_enabled

    # Whether the rest after the cases is exactly mypy's (check.exhaustive_match).
    followed = expr_key(stmt.subject) is not None and code_enabled(checker.options, "exhaustive-match")
    for case in stmt.cases:
        checker.flow.set(entry.copy())
        test = _subject_test(stmt.subject, case.pattern)
        if followed and ((test is None and case.guard is None) or (case.guard is not None and _guard_may_narrow(checker, stmt.subject, case))):
            followed = False
        if test is not None:
            checker.flow.apply(checker.exprs().narrow_for(test, True))
        narrowed = _pattern(checker, case.pattern, _current_subject(checker, stmt.subject, subject))
        # PEP 634: a class pattern narrows the subject itself (`case ast.Name(): subject.id`).
        from veritype.types.model import NeverType

        key = expr_key(stmt.subject)
        if key is not None and narrowed is not subject and not isinstance(narrowed, NeverType):
            checker.flow.bind(key, narrowed)
        if case.guard is not None:
            checker.infer(case.guard)
            checker.flow.apply(checker.exprs().narrow_for(case.guard, True))
        checker.block(case.body)
        ends.append(checker.flow.fork())
        if test is not None and case.guard is None:
            # Later cases see the subject without what this case matched (PEP 634:
            # cases are tried in order), so `case _: assert_never(x)` holds.
            checker.flow.set(entry.copy())
            checker.flow.apply(checker.exprs().narrow_for(test, False))
            entry = checker.flow.fork()
    # Without an irrefutable case the match may fall through unchanged --
    # unless the cases used up the subject's type (every member of an enum),
    # which makes the fall-through unreachable, as mypy treats it.
    if not any(_irrefutable(c) for c in stmt.cases):
        from veritype.types.model import NeverType as _Never

        rest = entry.copy()
        checker.flow.set(entry.copy())
        if expr_key(stmt.subject) is not None and isinstance(_current_subject(checker, stmt.subject, subject), _Never) and not isinstance(subject, _Never):
            rest.unreachable = True
        if followed and not entry.unreachable:
            from veritype.check.exhaustive_match import check_exhaustive

            check_exhaustive(checker, stmt, _current_subject(checker, stmt.subject, subject), followed)
        ends.append(rest)
    checker.flow.set(merge(ends, checker.merge_declared))


def _current_subject(checker: "ModuleChecker", node: ast.expr, subject: Type) -> Type:
    """The subject's type as earlier cases have narrowed it (a capture binds that)."""
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.evaluate.reference_keys import expr_key

    if isinstance(node, ast.Tuple) and node.elts and all(expr_key(e) is not None for e in node.elts):
        # `match (a, b):` -- the items as the cases so far have narrowed them.
        return ExprEvaluator(checker.ev, checker.scope, checker.flow, None).infer(node)
    if expr_key(node) is None:
        return subject
    return ExprEvaluator(checker.ev, checker.scope, checker.flow, None).infer(node)


def _subject_test(subject: ast.expr, p: ast.pattern) -> ast.expr | None:
    """The condition a value, singleton or plain class pattern stands for, on a
    subject we can narrow (a name or attribute): `x == V`, `x is None`,
    `isinstance(x, C)`; an or-pattern of those is their `or`. None otherwise."""
    from veritype.evaluate.reference_keys import expr_key

    if isinstance(subject, ast.Tuple) and isinstance(p, ast.MatchSequence):
        return _tuple_test(subject, p)
    if expr_key(subject) is None:
        return None
    if isinstance(p, ast.MatchValue):
        # A literal value pattern narrows to the literal itself (mypy: `case "in":`
        # makes a `str` subject `Literal['in']`, where `x == "in"` leaves a `str`):
        # the test is written as `is`, which narrows so.
        literal = isinstance(p.value, ast.Constant) and type(p.value.value) in (str, bytes, int)
        return _located(ast.Compare(left=subject, ops=[ast.Is() if literal else ast.Eq()], comparators=[p.value]), p)
    if isinstance(p, ast.MatchSingleton):
        return _located(ast.Compare(left=subject, ops=[ast.Is()], comparators=[_located(ast.Constant(value=p.value), p)]), p)
    if isinstance(p, ast.MatchClass) and not p.patterns and not p.kwd_patterns:
        func = _located(ast.Name(id="isinstance", ctx=ast.Load()), p)
        return _located(ast.Call(func=func, args=[subject, p.cls], keywords=[]), p)
    if isinstance(p, ast.MatchAs) and p.pattern is not None:
        return _subject_test(subject, p.pattern)
    if isinstance(p, ast.MatchOr):
        parts = [_subject_test(subject, sub) for sub in p.patterns]
        if all(part is not None for part in parts):
            return _located(ast.BoolOp(op=ast.Or(), values=parts), p)  # type: ignore[arg-type]
    return None


def _tuple_test(subject: ast.Tuple, p: ast.MatchSequence) -> ast.expr | None:
    """`match (a, op, b): case (str(), "in", str()):` stands for `isinstance(a, str)
    and op == "in" and isinstance(b, str)` (mypy narrows each item of a tuple
    subject by its sub-pattern). None unless every refutable sub-pattern has a
    test, so that the negation (what later cases see) is exact."""
    if len(subject.elts) != len(p.patterns) or any(isinstance(e, ast.Starred) for e in subject.elts):
        return None
    if any(isinstance(sub, ast.MatchStar) for sub in p.patterns):
        return None
    tests: list[ast.expr] = []
    for elt, sub in zip(subject.elts, p.patterns):
        if isinstance(sub, ast.MatchAs) and sub.pattern is None:
            continue  # `_` or a capture: always matches
        test = _subject_test(elt, sub)
        if test is None:
            return None
        tests.append(test)
    if not tests:
        return None
    return tests[0] if len(tests) == 1 else _located(ast.BoolOp(op=ast.And(), values=tests), p)


def _sequence_items(subject: Type, count: int) -> list[Type]:
    """The types the `count` sub-patterns of a sequence pattern (without a star)
    match: a tuple's items, or the item type of a tuple, list or Sequence."""
    from veritype.types.model import TupleType, UnpackType

    if isinstance(subject, TupleType) and not any(isinstance(i, UnpackType) for i in subject.items):
        if len(subject.items) == count:
            return list(subject.items)
    elif isinstance(subject, Instance) and len(subject.args) == 1 and subject.info.fullname in (
        "builtins.tuple", "builtins.list", "typing.Sequence", "typing.MutableSequence",
    ):
        return [subject.args[0]] * count
    return [AnyType("special")] * count


def _located(node: ast.expr, p: ast.pattern) -> ast.expr:
    return ast.copy_location(node, p)


def _guard_may_narrow(checker: "ModuleChecker", subject: ast.expr, case: ast.match_case) -> bool:
    """Whether a case's guard may narrow the subject for later cases: mypy takes
    away what pattern and guard together match (`case x if x is Color.RED:`),
    where veritype takes nothing. A guard whose failing narrows neither the
    subject nor a capture of the pattern (`case int() if x > 0:`) takes
    nothing in either."""
    from veritype.evaluate.reference_keys import expr_key

    names = {n.name for n in walk_nodes(case.pattern) if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name}
    names |= {n.rest for n in walk_nodes(case.pattern) if isinstance(n, ast.MatchMapping) and n.rest}
    key = expr_key(subject)
    if key is not None:
        names.add(key)
    assert case.guard is not None
    from veritype.evaluate.expressions import ExprEvaluator

    narrowed = ExprEvaluator(checker.ev, checker.scope, checker.flow, None).narrow_for(case.guard, False)
    return any(k in names or k.startswith(tuple(n + "." for n in names)) for k in narrowed)


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
        starred = any(isinstance(sub, ast.MatchStar) for sub in p.patterns)
        items = [AnyType("special")] * len(p.patterns) if starred else _sequence_items(subject, len(p.patterns))
        for sub, item in zip(p.patterns, items):
            _pattern(checker, sub, item)
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
