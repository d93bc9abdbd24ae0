"""Hostile but possible inputs to the command line end cleanly (issue #19).

Each must give either a normal run or one line on stderr with exit 2, never a
traceback and never a wait. Runs that used to block forever go through a
subprocess with a timeout, which is only a hang guard: the assertions are on
the outcome, not on speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from veritype.cli.main import main

HANG_GUARD = 120  # seconds; a correct run takes about one


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "veritype", *argv], cwd=cwd, capture_output=True, text=True, timeout=HANG_GUARD
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_inside_a_checked_directory_is_skipped(project: Path) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "a.py").write_text("x: int = ''\n")
    os.mkfifo(project / "pkg" / "pipe.py")
    proc = run_process(project, "check", "--no-incremental", "pkg")
    assert proc.returncode == 1, proc.stderr
    assert "a.py:1:10: error: Incompatible types in assignment" in proc.stdout
    assert "checked 1 source file" in proc.stdout


@pytest.mark.parametrize(
    "data,fragment",
    [
        (b"[tool.veritype]\nfiles = ['\xff\xfe']\n", "not UTF-8"),
        (b"[tool.veritype]\nx = " + b"[" * 5000 + b"]" * 5000 + b"\n", "invalid TOML"),
    ],
)
def test_undecodable_or_absurd_pyproject_is_a_clean_error(project: Path, capsys, data: bytes, fragment: str) -> None:
    (project / "pyproject.toml").write_bytes(data)
    (project / "a.py").write_text("x = 1\n")
    code, out, err = run(capsys, "check", "a.py")
    assert code == 2 and out == ""
    assert err.startswith("veritype: error: ") and "pyproject.toml" in err and fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_empty_cache_dir_writes_nothing(project: Path, capsys) -> None:
    (project / "a.py").write_text("x = 1\n")
    code, out, _ = run(capsys, "check", "--cache-dir", "", "a.py")
    assert code == 0 and out.startswith("Success")
    assert sorted(p.name for p in project.iterdir()) == [".git", "a.py"]


def test_watch_of_a_missing_path_exits(project: Path) -> None:
    pytest.importorskip("watchfiles")
    proc = run_process(project, "check", "--watch", "missing.py")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "veritype: error: can't read file 'missing.py': No such file or directory"
