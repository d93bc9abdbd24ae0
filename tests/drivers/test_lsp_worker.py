"""The diagnostics worker: checks the latest text, drops stale work."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from veritype.server.lsp_worker import DiagnosticsWorker


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.delenv("MYPYPATH", raising=False)
    return tmp_path


def test_only_the_latest_version_is_published(root: Path) -> None:
    path = str(root / "m.py")
    done = threading.Event()
    published: list[tuple[int, dict[str, list[object]]]] = []

    def publish(version: int, results: dict[str, list[object]]) -> None:
        published.append((version, results))
        done.set()

    worker = DiagnosticsWorker(publish, lambda message: None)
    for version in range(1, 6):
        worker.request(version, {path: f"x: int = {'1' if version < 5 else 'no'!r}\n"}, str(root))
    assert done.wait(30)
    worker.shutdown()
    # Requests 1-4 were stale when the worker reached them: only 5 is published.
    assert [v for v, _ in published] == [5]
    [diag] = published[0][1][path]
    assert diag.code == "assignment"  # type: ignore[attr-defined]


def test_an_unchanged_document_is_not_checked_again(root: Path) -> None:
    from veritype.engine.workspace import Snapshot, diagnostics
    from veritype.server.lsp_diagnostics import options_for

    a, b = str(root / "a.py"), str(root / "b.py")
    a_text, b_text = "def f() -> int:\n    return 1\n", "from a import f\nn: int = f()\n"
    snap = Snapshot({a: a_text, b: b_text}, str(root), options_for(str(root)))
    first_b = diagnostics(snap, b, b_text)
    assert first_b == [] and diagnostics(snap, b, b_text) is first_b  # memoized
    # An edit of a's interface: b imports it, so b is checked again and sees the new text.
    assert diagnostics(snap, a, "def f() -> str:\n    return ''\n") == []
    assert [d.code for d in diagnostics(snap, b, b_text) or []] == ["assignment"]


def _full(root: Path, path: str, text: str) -> list[tuple[int, int, str]]:
    from veritype.engine.build import run
    from veritype.modules.discover import module_for_path
    from veritype.modules.sources import BuildSource
    from veritype.server.lsp_diagnostics import options_for

    options = options_for(str(root))
    options.incremental = False
    module, base = module_for_path(path, options, str(root))
    return [(d.line, d.column, d.message) for d in run([BuildSource(path, module, base, text)], options).diagnostics]


BASE = """\
from typing import Optional

LIMIT: Optional[int] = 3


class C:
    def __init__(self) -> None:
        self.n = 0

    def m(self, k: int) -> int:
        total = k
        return total


def g(x: int) -> str:
    return str(x + LIMIT)


maybe = int("1") if LIMIT else None
assert maybe is not None


def h() -> int:
    return maybe + 1


def say(n: int) -> None:
    print(n)


late: int = "x"
"""

EDITS = [
    # Inside a method body: only the method is checked again; `late` moves down.
    BASE.replace("        total = k\n", "        total = k\n        bad: str = total\n"),
    # Inside a function: the narrowing of LIMIT carried in from the module (it is
    # never rebound) must be the same as in a full check - no error either way.
    BASE.replace("    return str(x + LIMIT)", "    y = x + LIMIT\n    return str(y)"),
    BASE.replace("    return maybe + 1", "    k = maybe + 1\n    return k"),
    # Removing lines, and a body error going away.
    BASE.replace("late: int = \"x\"\n", "late: int = 1\n").replace("        total = k\n", ""),
    # Not a body edit: a signature change, and a body assigning self.x.
    BASE.replace("def g(x: int) -> str:", "def g(x: str) -> str:"),
    BASE.replace("        total = k\n", "        self.n = ''\n        total = k\n"),
    # A syntax error, then good text again.
    BASE.replace("        total = k\n", "        total = \n"),
    BASE.replace("        total = k\n", "        total: str = k\n"),
    # A line added after the last line of a body: still a body edit.
    BASE.replace("    print(n)\n", "    print(n)\n    s: str = n\n"),
    # Whole top-level definitions added (engine.toplevel_edits): at the end, and in the middle.
    BASE + "\n\ndef added(n: int) -> str:\n    return n\n",
    BASE.replace("def say(", "def other() -> int:\n    return ''\n\n\ndef say("),
]


@pytest.mark.parametrize("start_from_base", [True, False])
def test_body_edits_give_what_a_full_check_gives(root: Path, start_from_base: bool) -> None:
    from veritype.engine.workspace import Snapshot, diagnostics
    from veritype.server.lsp_diagnostics import options_for

    path = str(root / "m.py")
    snap = Snapshot({path: BASE}, str(root), options_for(str(root)))
    assert [(d.line, d.column, d.message) for d in diagnostics(snap, path, BASE) or []] == _full(root, path, BASE)
    for text in EDITS:
        got = [(d.line, d.column, d.message) for d in diagnostics(snap, path, text) or []]
        assert got == _full(root, path, text), text
        if start_from_base:
            diagnostics(snap, path, BASE)


def test_a_body_edit_keeps_the_module_loaded(root: Path) -> None:
    from veritype.engine.workspace import Snapshot, diagnostics
    from veritype.server.lsp_diagnostics import options_for

    path = str(root / "m.py")
    snap = Snapshot({path: BASE}, str(root), options_for(str(root)))
    diagnostics(snap, path, BASE)
    loaded = snap.module_of(path)
    diagnostics(snap, path, EDITS[0])
    assert snap.module_of(path) is loaded  # only the body was checked
    diagnostics(snap, path, BASE)
    diagnostics(snap, path, EDITS[8])
    assert snap.module_of(path) is loaded  # a line after the body's last: only the body too
    diagnostics(snap, path, EDITS[3])
    assert snap.module_of(path) is not loaded  # a signature changed: loaded and checked again
