"""The shared stub cache (veritype/cache/shared.py): installed files'
interface digests computed once per user; a run with it says exactly what a
run without it says, and records the same dependency states."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.drivers import cache_rows
from veritype.cli.flags import options_from_argv, parse_args, options_from_args
from veritype.config.project import default_shared_cache_dir, set_default_cache_dir
from veritype.engine.build import BuildResult, run
from veritype.modules.sources import BuildSource
from veritype.options import Options

PROJECT = {
    "main.py": (
        "import collections, json, os.path\n"
        "from typedpkg import make, Thing\n"
        "from stubbed import parse_it\n"
        "x: int = make()\n"  # error: make() returns Thing
        "reveal_type(os.path.join('a', 'b'))\n"
        "reveal_type(parse_it(b''))\n"
        "reveal_type(collections.Counter('ab').most_common(1))\n"
        "json.dumps(Thing().size + 'a')\n"  # error: int + str
    ),
    "helper.py": "from main import x\nfrom typedpkg.sub import VALUE\nreveal_type(VALUE)\n",
}
SITE = {
    "typedpkg/__init__.py": "class Thing:\n    size: int = 0\ndef make() -> Thing:\n    return Thing()\n",
    "typedpkg/sub.py": "VALUE: tuple[int, ...] = ()\n",
    "typedpkg/py.typed": "",
    "stubbed-stubs/__init__.pyi": "def parse_it(data: bytes) -> dict[str, list[int]]: ...\n",
    "stubbed/__init__.py": "def parse_it(data): return {}\n",
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    _write(tmp_path / "proj", PROJECT)
    _write(tmp_path / "site", SITE)
    return tmp_path


def _run(root: Path, shared: Path | None, project_cache: str = "c", *argv: str) -> BuildResult:
    """One check of the project with a fresh project cache `project_cache`."""
    proj = root / "proj"
    opts = options_from_argv(list(argv), str(proj))
    opts.site_packages = [str(root / "site")]
    opts.cache_dir = str(root / project_cache)
    opts.shared_cache_dir = str(shared) if shared is not None else None
    srcs = [BuildSource(str(proj / name), name[:-3], str(proj)) for name in sorted(PROJECT)]
    return run(srcs, opts)


def _counts(result: BuildResult) -> str:
    return next(line for line in result.cache_notes if line.startswith("shared stub cache /"))


def _entries(shared: Path) -> list[Path]:
    return sorted(p for p in (shared / "stubs-v1").rglob("*") if p.is_file() and not p.name.startswith("."))


def _project_deps(cache: Path) -> list[object]:
    """The dependency records the project cache wrote (they hold the library files' interface digests)."""
    found = sorted(json.loads(text.partition("\n")[2])["deps"].items().__repr__()
                   for text in cache_rows.entries(cache, "sqlite").values())  # the entries, not the memos
    assert found  # a cache was written
    return found


def test_warm_and_cold_shared_cache_give_the_same_diagnostics(project: Path) -> None:
    plain = _run(project, None, "c0")
    messages = [d.message for d in plain.diagnostics]
    assert sum(d.severity == "error" for d in plain.diagnostics) == 2
    assert 'Revealed type is "dict[str, list[int]]"' in messages
    assert 'Revealed type is "tuple[int, ...]"' in messages

    shared = project / "shared"
    cold = _run(project, shared, "c1")
    assert cold.diagnostics == plain.diagnostics
    # typedpkg, typedpkg.sub, stubbed's stub: installed files in the closure.
    assert "0 library interface digest(s) reused, 3 stored" in _counts(cold)
    stored = _entries(shared)
    assert len(stored) == 3 and all(p.parent.name == p.name[:2] for p in stored)

    warm = _run(project, shared, "c2")  # a new project cache: only the shared one is warm
    assert warm.diagnostics == plain.diagnostics and warm.reused == 0
    assert "3 library interface digest(s) reused, 0 stored" in _counts(warm)
    assert _entries(shared) == stored
    # The project cache records the same dependency states either way.
    assert _project_deps(project / "c2") == _project_deps(project / "c1") == _project_deps(project / "c0")

    again = _run(project, shared, "c2")  # the project cache warm too: nothing asked of the shared one
    assert again.diagnostics == plain.diagnostics and again.reused == 2
    assert "0 library interface digest(s) reused, 0 stored" in _counts(again)
    # Whether a run uses the shared cache is no part of the project cache's key.
    assert _run(project, None, "c2").reused == 2 and _run(project, shared, "c0").reused == 2


def test_a_library_file_that_changed_is_digested_again(project: Path) -> None:
    shared = project / "shared"
    _run(project, shared, "c1")
    (project / "site" / "typedpkg" / "__init__.py").write_text("class Thing:\n    size: str = ''\ndef make() -> int:\n    return 1\n")
    plain = _run(project, None, "c0")
    warm = _run(project, shared, "c2")
    assert warm.diagnostics == plain.diagnostics
    assert [d.line for d in warm.diagnostics if d.severity == "error"] == []
    assert "2 library interface digest(s) reused, 1 stored" in _counts(warm)  # the new typedpkg/__init__.py
    assert _project_deps(project / "c2") == _project_deps(project / "c0")


@pytest.mark.parametrize("damage", ["truncate", "flip", "swap", "garbage", "empty", "directory"])
def test_a_bad_entry_is_rebuilt_and_named(project: Path, damage: str) -> None:
    shared = project / "shared"
    plain = _run(project, None, "c0")
    _run(project, shared, "c1")
    entries = _entries(shared)
    first = entries[0].read_bytes()
    for i, entry in enumerate(entries):
        data = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(data[: len(data) // 2])
        elif damage == "flip":  # one hex digit of the digest to another: still looks like a digest
            at = data.index(b" ") - 1
            entry.write_bytes(data[:at] + (b"1" if data[at:at + 1] != b"1" else b"2") + data[at + 1:])
        elif damage == "swap":  # another file's (valid) entry under this file's name
            entry.write_bytes(entries[(i + 1) % len(entries)].read_bytes() if i + 1 < len(entries) else first)
        elif damage == "garbage":
            entry.write_bytes(b"\x80\x04 not an entry \xff")
        elif damage == "empty":
            entry.write_bytes(b"")
        else:
            entry.unlink()
            entry.mkdir()  # unreadable as a file; cannot be replaced by one either
    result = _run(project, shared, "c2", "-v")
    assert result.diagnostics == plain.diagnostics
    bad = [line for line in result.cache_notes if "unreadable or corrupt, rebuilt" in line]
    assert len(bad) == 1 and f"{len(entries)} entries" in bad[0], result.cache_notes
    assert os.path.join("typedpkg", "__init__.py") in bad[0]
    assert "0 library interface digest(s) reused, " in _counts(result)
    assert _project_deps(project / "c2") == _project_deps(project / "c0")
    if damage == "directory":
        assert any("3 entries could not be written" in line for line in result.cache_notes)
    else:
        after = _run(project, shared, "c3")
        assert after.diagnostics == plain.diagnostics and "3 library interface digest(s) reused, 0 stored" in _counts(after)
        assert not [line for line in after.cache_notes if "corrupt" in line]


def test_an_unwritable_shared_cache_is_not_fatal(project: Path) -> None:
    blocker = project / "blocker"
    blocker.write_text("a file where the directory should be")
    plain = _run(project, None, "c0")
    result = _run(project, blocker / "shared", "c1")
    assert result.diagnostics == plain.diagnostics
    assert any("could not be written" in line for line in result.cache_notes)


# The command-line tests check a file importing an installed typed package
# (iniconfig, which pytest needs) of the interpreter running the tests.
INSTALLED = "from iniconfig import IniConfig\nreveal_type(IniConfig('x').sections)\nn: int = IniConfig('x').path\n"


def _cli(cwd: Path, shared: Path, *argv: str) -> tuple[list[object], str]:
    return _done(_start(cwd, shared, *argv))


def _start(cwd: Path, shared: Path, *argv: str) -> subprocess.Popen[str]:
    (cwd / "installed.py").write_text(INSTALLED)
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "VIRTUAL_ENV")}
    env["VERITYPE_SHARED_CACHE_DIR"] = str(shared)
    return subprocess.Popen(
        [sys.executable, "-m", "veritype", "check", "installed.py", "-O", "veritype-json",
         "--python-executable", sys.executable, *argv],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def _done(proc: subprocess.Popen[str]) -> tuple[list[object], str]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode in (0, 1), err
    return json.loads(out), err


def test_concurrent_runs_share_one_cache(project: Path) -> None:
    """Four runs at once on an empty shared cache: each reports what a run
    without it reports, and no partial or temporary file is left."""
    proj, shared = project / "proj", project / "shared"
    clean, _ = _cli(proj, shared, "--no-shared-cache", "--no-incremental")
    assert [d["code"] for d in clean if d["severity"] == "error"] == ["assignment"]  # type: ignore[index]
    assert not shared.exists()
    runs = [_start(proj, shared, "--cache-dir", f"c{i}") for i in range(4)]
    assert all(_done(proc)[0] == clean for proc in runs)
    files = [p for p in shared.rglob("*") if p.is_file()]
    assert len(files) >= 3 and not [p for p in files if p.name.startswith(".tmp-")]  # tag, .gitignore, entries
    out, err = _cli(proj, shared, "--cache-dir", "c9", "-v")
    assert out == clean and " 0 stored" in err and "corrupt" not in err
    assert "shared stub cache" in err and " 0 library interface digest(s) reused" not in err


def test_where_the_shared_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VERITYPE_SHARED_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_shared_cache_dir() == str(tmp_path / "xdg" / "veritype")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG rule: absolute paths only
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_shared_cache_dir() == str(tmp_path / "home" / ".cache" / "veritype")
    monkeypatch.setenv("VERITYPE_SHARED_CACHE_DIR", str(tmp_path / "env"))
    assert default_shared_cache_dir() == str(tmp_path / "env")

    def options(*argv: str) -> Options:
        opts = options_from_args(parse_args(["check", *argv]), str(tmp_path), lambda m: None, search_config=False)
        set_default_cache_dir(opts, str(tmp_path))
        return opts

    assert options().shared_cache_dir == str(tmp_path / "env")
    assert options("--no-incremental").shared_cache_dir == str(tmp_path / "env")
    assert options("--shared-cache-dir", "here").shared_cache_dir == os.path.abspath("here")  # as --cache-dir
    assert options("--no-shared-cache").shared_cache_dir is None
    assert options("--cache-dir", os.devnull).shared_cache_dir is None  # mypy's "no cache at all"


def test_no_shared_cache_writes_nothing(project: Path) -> None:
    proj, shared = project / "proj", project / "shared"
    for i, argv in enumerate((["--no-shared-cache"], ["--cache-dir", os.devnull])):
        out, err = _cli(proj, shared, f"--cache-dir=c{i}", *argv, "-v")
        assert out and not shared.exists() and "shared stub cache" not in err
    out, err = _cli(proj, shared, "--cache-dir=c3", "--shared-cache-dir", "elsewhere", "-v")
    assert not shared.exists() and (proj / "elsewhere" / "stubs-v1").is_dir()
    assert f"shared stub cache {proj / 'elsewhere'}: 0 library interface digest(s) reused" in err


def test_entries_of_builds_unused_for_a_month_are_removed(project: Path) -> None:
    shared = project / "shared"
    builds = shared / "stubs-v1" / "ifaces"
    for name, age_days in (("old", 31), ("recent", 2)):
        (builds / name / "ab").mkdir(parents=True)
        (builds / name / "ab" / ("ab" + "0" * 62)).write_text("entry")
        stamp = time.time() - age_days * 24 * 3600
        (builds / name / ".written").write_text("")
        os.utime(builds / name / ".written", (stamp, stamp))
    result = _run(project, shared, "c1")
    assert "3 stored" in _counts(result)
    assert sorted(p.name for p in builds.iterdir() if p.name != "recent") == [
        next(p.name for p in builds.iterdir() if p.name not in ("recent", "old"))]
    assert (builds / "recent" / "ab").is_dir()
