"""What a one-shot check keeps between its statements and scopes makes no
reference cycle that would outlive what it belongs to: the one-shot run has
no cyclic collector (cli/main.py), so a cycle is memory held to the end.
The checker's reused evaluator refers back to the checker (its reporter);
a scope's kept lookups hold no tuple naming the scope itself."""

from __future__ import annotations

import gc
import io
import weakref
from pathlib import Path

import pytest

from veritype.check import module_checker
from veritype.cli.main import run
from veritype.evaluate import evaluator

_SOURCE = (
    "class Box:\n"
    "    def __init__(self, n: int) -> None:\n"
    "        self.n = n\n"
    "\n"
    "    def grow(self) -> int:\n"
    "        total = self.n\n"
    "        for i in range(3):\n"
    "            total += i\n"
    "        def inner() -> int:\n"
    "            return total\n"
    "        return inner()\n"
    "\n"
    "def use(b: Box) -> int:\n"
    "    x = b.grow()\n"
    "    return x + len([x])\n"
)


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(_SOURCE)
    (tmp_path / "n.py").write_text("from m import Box, use\n\nuse(Box(1))\n")


def test_no_checker_outlives_its_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, monkeypatch)
    made: list[weakref.ref[module_checker.ModuleChecker]] = []
    original = module_checker.ModuleChecker.__init__

    def spy(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original(self, *args, **kwargs)
        made.append(weakref.ref(self))

    monkeypatch.setattr(module_checker.ModuleChecker, "__init__", spy)
    collecting = gc.isenabled()
    gc.disable()
    try:
        out = io.StringIO()
        run(["check", "m.py", "n.py", "--no-incremental"], out, str(tmp_path))
        assert "Success" in out.getvalue()
        assert made
        assert [r() for r in made if r() is not None] == []
    finally:
        if collecting:
            gc.enable()


def test_kept_lookups_never_name_their_own_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path, monkeypatch)
    scopes: list[object] = []
    original = evaluator.Evaluator.lookup

    def spy(self, name, scope, for_type=False):  # type: ignore[no-untyped-def]
        scopes.append(scope)
        return original(self, name, scope, for_type)

    monkeypatch.setattr(evaluator.Evaluator, "lookup", spy)
    run(["check", "m.py", "n.py", "--no-incremental"], io.StringIO(), str(tmp_path))
    kinds = {s.kind for s in scopes}  # type: ignore[attr-defined]
    assert "function" in kinds and "module" in kinds
    for scope in scopes:
        for kept in scope.known.values():  # type: ignore[attr-defined]
            assert not (type(kept) is tuple and kept[1] is scope)
