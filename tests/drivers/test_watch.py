"""Watch mode (veritype/server/watch.py), driven by scripted change batches."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import veritype.server.watch as watch
from veritype.cli.main import main
from veritype.server.watch import is_relevant, watch_loop, watch_roots

MODIFIED = 2  # watchfiles.Change.modified; the loop only reads the path


def test_loop_rechecks_only_on_relevant_changes() -> None:
    calls: list[int] = []
    out = io.StringIO()

    def check() -> int:
        calls.append(1)
        return len(calls) % 2

    batches = [
        {(MODIFIED, "/p/a.py")},
        {(MODIFIED, "/p/notes.txt")},  # ignored
        {(MODIFIED, "/p/.veritype_cache/v1/x.json")},  # the cache's own writes: ignored
        {(MODIFIED, "/p/b.pyi"), (MODIFIED, "/p/pyproject.toml")},
    ]
    status = watch_loop(check, batches, out, ignore_dirs=("/p/.veritype_cache",))
    assert len(calls) == 3 and status == 1
    assert out.getvalue().count("checking again") == 2


def test_relevance_and_roots(tmp_path: Path) -> None:
    assert is_relevant("/x/mypy.ini") and is_relevant("/x/m.py") and not is_relevant("/x/m.pyc")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text("")
    roots = watch_roots(["pkg", "pkg/m.py"], str(tmp_path), None)
    assert roots == [str(tmp_path / "pkg")]
    assert watch_roots([], str(tmp_path), str(tmp_path / "pyproject.toml")) == [str(tmp_path)]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_watch_command_rechecks_what_the_change_can_affect(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], checked_by_engine: list[str]
) -> None:
    """The runs share one in-memory engine: after an edit of `a`, `b` (which
    uses no name of `a` the edit changed) keeps its diagnostics and `c` (which
    uses `a.x`) is checked again."""
    (project / "a.py").write_text("x: int = 'no'\n")
    (project / "b.py").write_text("import a\n")
    (project / "c.py").write_text("import a\ny: str = a.x\n")
    seen_roots: list[list[str]] = []
    checked = checked_by_engine

    def scripted(roots: list[str]) -> Iterator[set[tuple[int, str]]]:
        seen_roots.append(roots)
        checked.clear()
        (project / "a.py").write_text("x: str = 'yes'\n")  # the user fixes the error
        yield {(MODIFIED, str(project / "a.py"))}

    monkeypatch.setattr(watch, "file_events", scripted)
    status = main(["watch", "a.py", "b.py", "c.py"])
    out, err = capsys.readouterr()
    assert seen_roots == [[str(project)]]
    assert status == 0
    first, second = out.split("checking again")
    assert "Incompatible types in assignment" in first and "Found 2 errors in 2 files" in first
    assert "Success: no issues found in 3 source files" in second
    assert sorted(checked) == ["a", "c"]


def test_watch_without_watchfiles_is_a_usage_error(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "a.py").write_text("")
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # import fails
    assert main(["check", "--watch", "a.py"]) == 2
    assert "needs the 'watchfiles' package" in capsys.readouterr().err
