"""`veritype daemon`: the same output and exit status as `veritype check`, from a process kept between runs."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest


def veritype(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "veritype", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.delenv("MYPYPATH", raising=False)
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg.b import g\n\n\ndef f(x: int) -> str:\n    return g(x)\n")
    (pkg / "b.py").write_text("def g(x: int) -> str:\n    return str(x)\n")
    yield tmp_path
    veritype(tmp_path, "daemon", "stop")


def same_as_check(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    daemon = veritype(project, "daemon", "check", *args)
    once = veritype(project, "check", "--no-incremental", *args)
    assert (daemon.stdout, daemon.returncode) == (once.stdout, once.returncode)
    return daemon


def test_daemon_check_prints_what_check_prints(project: Path) -> None:
    assert veritype(project, "daemon", "status").returncode == 1  # not running yet
    clean = same_as_check(project, "pkg")
    assert clean.returncode == 0 and "Success" in clean.stdout
    assert veritype(project, "daemon", "status").returncode == 0  # `check` started it
    # An interface change in b reaches a (which imports it).
    (project / "pkg" / "b.py").write_text("def g(x: int) -> int:\n    return x\n")
    broken = same_as_check(project, "pkg")
    assert broken.returncode == 1 and "pkg/a.py:5:12: error: Incompatible return value type" in broken.stdout
    # An edit inside a function body, and JSON output.
    (project / "pkg" / "a.py").write_text("from pkg.b import g\n\n\ndef f(x: int) -> str:\n    return str(g(x))\n")
    assert same_as_check(project, "pkg", "--output", "veritype-json").stdout.strip() == "[]"
    assert same_as_check(project, "pkg", "--output", "json").stdout == ""  # mypy's JSON lines: none
    # Bad input: exit status 2 and one line, and the daemon lives on.
    bad = veritype(project, "daemon", "check", "nosuch.py")
    assert bad.returncode == 2 and "nosuch.py" in bad.stderr
    assert veritype(project, "daemon", "check", "--no-such-flag").returncode == 2
    assert veritype(project, "daemon", "status").returncode == 0
    assert "stopped" in veritype(project, "daemon", "stop").stdout
    assert veritype(project, "daemon", "status").returncode == 1


def test_daemon_usage(project: Path) -> None:
    result = veritype(project, "daemon", "frobnicate")
    assert result.returncode == 2 and "usage: veritype daemon" in result.stderr
    assert "started" in veritype(project, "daemon", "restart").stdout
