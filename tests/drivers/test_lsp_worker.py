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
    snap = Snapshot({a: "def f() -> int:\n    return 1\n", b: "from a import f\nn: int = f()\n"}, str(root), options_for(str(root)))
    first_b = diagnostics(snap, b)
    assert first_b == [] and diagnostics(snap, b) is first_b  # memoized
    # An edit of a: b imports it, so b is checked again and sees the new text.
    snap.update(a, "def f() -> str:\n    return ''\n")
    assert [d.code for d in diagnostics(snap, b) or []] == ["assignment"]
