"""check/var_annotated.py and check/partial_types.py: the `x = []` rules and
the search for the statement completing `x = []` walk only the statements
whose span may hold the name (`name_lines`), and answer as the whole walk does:
each use below is written on a line of its own, away from the line its
statement starts on (a decorator above its `def`, an except clause, a match
case, a `global` in a nested function), so a span taken too short misses it."""

from __future__ import annotations

import ast

import pytest

from veritype.check.partial_types import find_completion
from veritype.check.var_annotated import needs_annotation, read_before_completion
from veritype.syntax.word_lines import keyword_lines

SOURCE = '''
def decorated() -> None:
    hooks = []
    @hooks.append
    def h() -> None: ...

def handler() -> None:
    err = {}
    try:
        pass
    except (
        ValueError
    ) as err:
        pass

def captured(v: object) -> None:
    found = set()
    match v:
        case [
            *found
        ]:
            pass

def read_later() -> None:
    seen = {}
    for i in range(3):
        pass
    print(
        seen
    )

def in_fstring() -> None:
    shown = {}
    print(f"""
        {shown!r}
    """)

def untouched() -> None:
    alone = []

names = []
def rebinds() -> None:
    def inner() -> None:
        global names
        names = [1]
'''


def _cases() -> list[tuple[str, list[ast.stmt], ast.Assign]]:
    tree = ast.parse(SOURCE)
    out = []
    for node in tree.body:
        body = node.body if isinstance(node, ast.FunctionDef) else tree.body
        for stmt in body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.List, ast.Dict, ast.Call)):
                assert isinstance(stmt.targets[0], ast.Name)
                out.append((stmt.targets[0].id, body, stmt))
                break
    return out


@pytest.mark.parametrize("name, body, assign", _cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_lines_give_the_whole_walks_answer(name: str, body: list[ast.stmt], assign: ast.Assign) -> None:
    lines = keyword_lines(SOURCE, name)
    assert lines is not None
    for nested in (True, False):
        assert needs_annotation(body, name, assign, nested=nested, lines=lines) == needs_annotation(body, name, assign, nested=nested)
    assert read_before_completion(body, name, assign, set(), lines) == read_before_completion(body, name, assign, set())


def test_the_answers_themselves() -> None:
    by_name = {name: (body, assign) for name, body, assign in _cases()}

    def needs(name: str, nested: bool = True) -> bool:
        body, assign = by_name[name]
        return needs_annotation(body, name, assign, nested=nested, lines=keyword_lines(SOURCE, name))

    # Each use on a line of its own keeps the rule silent: the decorator's
    # attribute, the except clause's name, the match capture.
    assert not needs("hooks") and not needs("err") and not needs("found")
    assert needs("alone") and needs("seen")
    for name in ("seen", "shown"):  # (a read inside a multi-line f-string too)
        body, assign = by_name[name]
        assert read_before_completion(body, name, assign, set(), keyword_lines(SOURCE, name))
    # A module-level `names = []` that a nested function declares global: silent.
    assert not needs("names", nested=False)


COMPLETIONS = '''
def decorated() -> None:
    hooks = []
    x = 1
    @hooks.append
    def h() -> None: ...
    hooks.append(h)

def in_handler() -> None:
    errors = []
    try:
        pass
    except ValueError as e:
        errors.append(
            e
        )

def in_case(v: object) -> None:
    found = []
    match v:
        case [
            *rest
        ]:
            found.extend(
                rest
            )
'''


def test_find_completion_with_lines() -> None:
    tree = ast.parse(COMPLETIONS)
    answers = {}
    for fn in tree.body:
        assert isinstance(fn, ast.FunctionDef)
        assign = fn.body[0]
        assert isinstance(assign, ast.Assign) and isinstance(assign.targets[0], ast.Name)
        name = assign.targets[0].id
        found = find_completion(fn.body, assign, (name,), "list", keyword_lines(COMPLETIONS, name))
        assert found == find_completion(fn.body, assign, (name,), "list")
        answers[name] = None if found is None else (len(found[0]), found[1].role)
    # The decorator reads `hooks` first: nothing completes it; the others are completed.
    assert answers == {"hooks": None, "errors": (1, "item"), "found": (1, "iter")}
