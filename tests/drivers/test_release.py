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
from veritype.syntax.parse import parse_source

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


def _info(source: str, lines: bool = True) -> SimpleNamespace:
    """A module's info as release_bodies reads it; `lines`: with its parse,
    whose word lines spare the walk of the bodies that hold no keyword it
    looks for (False: none, every body walked)."""
    parsed = parse_source("m.py", source)
    return SimpleNamespace(tree=parsed.tree, is_stub=False, parsed=parsed if lines else None)


def _released(source: str, lines: bool = True, keep_imports: bool = True) -> set[str]:
    info = _info(source, lines)
    tree = info.tree
    before = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    count = release_bodies(info, keep_imports)  # type: ignore[arg-type]
    after = {n.name: n.body for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    released = {name for name, body in after.items() if body is not before[name]}
    assert count == len(released)
    return released


def test_interface_bodies_stay_and_the_rest_go() -> None:
    # __init__ and unpack declare instance attributes; bump declares a global;
    # lazy imports; local_class holds a class; stub is a placeholder.
    # `other` stores to an attribute of its first parameter: kept (wider than
    # the binder, which skips static methods; never narrower).
    for lines in (True, False):
        assert _released(SOURCE, lines) == {"plain", "gen", "conditional"}


def test_the_words_in_a_string_are_only_a_walk() -> None:
    # The body's lines hold the keywords, but in a string: walked, released.
    source = 'def f() -> str:\n    s = "import x; global y; class Z: def g(): pass"\n    return s\n'
    for lines in (True, False):
        assert _released(source, lines) == {"f"}


def test_a_nested_def_forgets_what_it_kept_with_its_body() -> None:
    # A signature kept on a nested def is keyed by the id of a scope that goes
    # with the body: dropped, whether the walk was spared or not.
    for lines in (True, False):
        info = _info("def outer():\n    x = 1\n    def inner():\n        return x\n    return inner\n", lines)
        inner = info.tree.body[0].body[1]
        inner._veritype_cache = {("sig", 1): None}
        assert release_bodies(info) == 1  # type: ignore[arg-type]
        assert "_veritype_cache" not in inner.__dict__


def test_generator_fact_is_settled_before_the_body_goes() -> None:
    tree = ast.parse("def g():\n    x = 1\n    yield x\n")
    release_bodies(SimpleNamespace(tree=tree, is_stub=False, parsed=None))  # type: ignore[arg-type]
    node = tree.body[0]
    assert isinstance(node.body[0], ast.Expr) and getattr(node, "_vt_is_generator") is True


def test_stubs_are_left_alone() -> None:
    tree = ast.parse("def f() -> int:\n    x = 1\n    return x\n")
    assert release_bodies(SimpleNamespace(tree=tree, is_stub=True, parsed=None)) == 0  # type: ignore[arg-type]


def test_a_worker_releases_bodies_with_imports_too() -> None:
    # In an early worker (engine/early_workers.py) a module's imports went to
    # the parent when it was loaded: a body importing may go as well.
    for lines in (True, False):
        assert _released(SOURCE, lines, keep_imports=False) == {"plain", "gen", "conditional", "lazy"}
