"""engine/release.py: which function bodies a checked module gives up.

The end-to-end answers are in tests/cases/robustness/released_bodies.md; a
module's own check often settles what a guard protects (an instance
attribute's type) before the release, so each guard is also asserted here
on the mechanism itself.
"""

from __future__ import annotations

import ast
from types import SimpleNamespace

from veritype.engine.release import release_bodies

SOURCE = '''
import os

class C:
    def __init__(self, n: int) -> None:
        items = [n]
        self.items = items

    def plain(self) -> int:
        total = 1
        return total

    def unpack(self) -> None:
        a, self.b = 1, 2

    def stub(self) -> int: ...

    @staticmethod
    def other(x: "C") -> None:
        y = 1
        x.z = y

counter = 0

def bump() -> None:
    global counter
    counter = counter + 1

def lazy() -> str:
    import json
    return json.dumps(1)

def local_class() -> object:
    class L:
        pass
    return L()

def gen():
    def inner():
        return 1
    yield inner()

if os.name == "nt":
    def conditional() -> int:
        x = 1
        return x
'''


def _released(source: str) -> set[str]:
    tree = ast.parse(source)
    info = SimpleNamespace(tree=tree, is_stub=False)
    before = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    count = release_bodies(info)  # type: ignore[arg-type]
    after = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    released = {name for name, body in after.items() if body is not before[name]}
    assert count == len(released)
    return released


def test_interface_bodies_stay_and_the_rest_go() -> None:
    # __init__ and unpack declare instance attributes; bump declares a global;
    # lazy imports; local_class holds a class; stub is a placeholder.
    # `other` stores to an attribute of its first parameter: kept (wider than
    # the binder, which skips static methods; never narrower).
    assert _released(SOURCE) == {"plain", "gen", "conditional"}


def test_generator_fact_is_settled_before_the_body_goes() -> None:
    tree = ast.parse("def g():\n    x = 1\n    yield x\n")
    release_bodies(SimpleNamespace(tree=tree, is_stub=False))  # type: ignore[arg-type]
    node = tree.body[0]
    assert isinstance(node.body[0], ast.Expr) and getattr(node, "_vt_is_generator") is True


def test_stubs_are_left_alone() -> None:
    tree = ast.parse("def f() -> int:\n    x = 1\n    return x\n")
    assert release_bodies(SimpleNamespace(tree=tree, is_stub=True)) == 0  # type: ignore[arg-type]


def test_a_worker_releases_bodies_with_imports_too() -> None:
    # In an early worker (engine/early_workers.py) a module's imports went to
    # the parent when it was loaded: a body importing may go as well.
    tree = ast.parse(SOURCE)
    before = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    release_bodies(SimpleNamespace(tree=tree, is_stub=False), keep_imports=False)  # type: ignore[arg-type]
    after = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert {name for name, body in after.items() if body is not before[name]} == {"plain", "gen", "conditional", "lazy"}
