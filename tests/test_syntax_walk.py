"""syntax/walk.py must be a drop-in for ast.walk / ast.iter_child_nodes:
the same nodes, in the same order (rules take the first match or report in
walk order)."""

from __future__ import annotations

import ast
from pathlib import Path

import veritype
from veritype.syntax.walk import child_nodes, walk

_SAMPLE = '''
@dec(1)
async def f(a, /, b: int = 2, *c, d, **e) -> "T":
    """doc"""
    async with x as (y, *z):
        yield [i async for i in g() if i]
    match v:
        case {"k": [1, *rest], **kw} if rest: pass
        case C(a=b) | None: ...
    try:
        del q[1:2, ...]
    except* (E, F) as exc:
        x: list[int] = lambda p=1: p
    return f"{a!r:>{b}}" + (w := 3)
'''


def _trees() -> list[ast.AST]:
    trees: list[ast.AST] = [ast.parse(_SAMPLE, type_comments=True)]
    for path in sorted(Path(veritype.__file__).parent.rglob("*.py"))[:40]:
        trees.append(ast.parse(path.read_text(encoding="utf-8"), type_comments=True))
    return trees


def test_walk_matches_ast_walk() -> None:
    for tree in _trees():
        assert list(walk(tree)) == list(ast.walk(tree))
        for node in ast.walk(tree):
            assert child_nodes(node) == list(ast.iter_child_nodes(node))


def test_walk_of_a_leaf_and_a_missing_field() -> None:
    name = ast.Name(id="x")
    if hasattr(name, "ctx"):
        del name.ctx  # (3.13 fills it in): ast.walk skips a missing field
    assert list(walk(name)) == list(ast.walk(name)) == [name]
    assert child_nodes(name) == []


def test_walk_own_body_stops_at_nested_scopes() -> None:
    from veritype.syntax.walk import walk_own_body

    tree = ast.parse("def f():\n    yield 1\n    def g():\n        await x\n    lambda: (yield)\n    class C:\n        y = (yield)\n")
    f = tree.body[0]
    kinds = {type(n).__name__ for n in walk_own_body(f)}
    assert "Yield" in kinds and "Await" not in kinds
    assert sum(isinstance(n, ast.Yield) for n in walk_own_body(f)) == 1
