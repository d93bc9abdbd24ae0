"""The shared stub cache (veritype/cache/shared.py): library files parsed once
per user; a run with it says exactly what a run without it says."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from veritype.cache.shared import HOST, SharedCache
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
    return sorted(p for p in (shared / "stubs-v1").rglob("*") if p.is_file())


def _project_deps(cache: Path) -> list[object]:
    """The dependency records the project cache wrote (they hold the library files' interface digests)."""
    return sorted(json.loads(p.read_text().partition("\n")[2])["deps"].items().__repr__()
                  for p in (cache / "v1").glob("*.json") if p.name not in ("interfaces.json", "imports.json"))


def test_warm_and_cold_shared_cache_give_the_same_diagnostics(project: Path) -> None:
    plain = _run(project, None, "c0")
    messages = [d.message for d in plain.diagnostics]
    assert sum(d.severity == "error" for d in plain.diagnostics) == 2
    assert 'Revealed type is "dict[str, list[int]]"' in messages
    assert 'Revealed type is "tuple[int, ...]"' in messages

    shared = project / "shared"
    cold = _run(project, shared, "c1")
    assert cold.diagnostics == plain.diagnostics
    assert "0 parsed file(s) reused" in _counts(cold) and "0 interface digest(s) reused" in _counts(cold)
    stored = _entries(shared)
    trees = [p for p in stored if p.suffix == ".ast"]
    assert any(p.parent.parent.name == HOST for p in trees) and len(trees) > 10  # builtins, typing, os, ...
    assert len([p for p in stored if p.suffix != ".ast"]) >= 3  # typedpkg, typedpkg.sub, stubbed's stub

    warm = _run(project, shared, "c2")  # a new project cache: only the shared one is warm
    assert warm.diagnostics == plain.diagnostics and warm.reused == 0
    assert f"{len(trees)} parsed file(s) reused, 0 stored" in _counts(warm)
    assert " 0 stored" in _counts(warm).rpartition(";")[2]
    assert _entries(shared) == stored
    # The project cache records the same dependency states either way.
    assert _project_deps(project / "c2") == _project_deps(project / "c1") == _project_deps(project / "c0")

    again = _run(project, shared, "c2")  # the project cache warm too
    assert again.diagnostics == plain.diagnostics and again.reused == 2


def test_a_library_file_that_changed_is_parsed_again(project: Path) -> None:
    shared = project / "shared"
    _run(project, shared, "c1")
    (project / "site" / "typedpkg" / "__init__.py").write_text("class Thing:\n    size: str = ''\ndef make() -> int:\n    return 1\n")
    plain = _run(project, None, "c0")
    warm = _run(project, shared, "c2")
    assert warm.diagnostics == plain.diagnostics
    assert [d.line for d in warm.diagnostics if d.severity == "error"] == []
    assert "1 stored" in _counts(warm)  # the new typedpkg/__init__.py


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty", "directory"])
def test_a_bad_entry_is_rebuilt_and_named(project: Path, damage: str) -> None:
    shared = project / "shared"
    plain = _run(project, None, "c0")
    _run(project, shared, "c1")
    entries = _entries(shared)
    for entry in entries:
        data = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(data[: len(data) // 2])
        elif damage == "flip":
            entry.write_bytes(data[:-3] + bytes([data[-3] ^ 0x01]) + data[-2:])
        elif damage == "garbage":
            entry.write_bytes(b"\x80\x04not a pickle at all")
        elif damage == "empty":
            entry.write_bytes(b"")
        else:
            entry.unlink()
            entry.mkdir()  # unreadable as a file; cannot be replaced by one either
    result = _run(project, shared, "c2", "-v")
    assert result.diagnostics == plain.diagnostics
    bad = [line for line in result.cache_notes if "unreadable or corrupt, rebuilt" in line]
    assert len(bad) == 1 and f"{len(entries)} entries" in bad[0], result.cache_notes
    assert "builtins.pyi" in bad[0]
    assert "0 parsed file(s) reused" in _counts(result) and "0 interface digest(s) reused" in _counts(result)
    assert _project_deps(project / "c2") == _project_deps(project / "c0")
    if damage == "directory":
        assert any("could not be written" in line for line in result.cache_notes)
    else:
        after = _run(project, shared, "c3")
        assert after.diagnostics == plain.diagnostics and "0 stored" in _counts(after)
        assert not [line for line in after.cache_notes if "corrupt" in line]


def test_a_planted_entry_cannot_run_code(project: Path) -> None:
    """A tree entry with a valid checksum whose pickle calls a function: refused (a miss), never run."""
    shared = project / "shared"
    _run(project, shared, "c1")
    marker = project / "ran"

    class Evil:
        def __reduce__(self):  # type: ignore[no-untyped-def]
            return (os.mkdir, (str(marker),))

    payload = pickle.dumps(("x = 1\n", Evil()))
    data = b"veritype-ast-1\n" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    victims = [p for p in _entries(shared) if p.suffix == ".ast"]
    for entry in victims:
        entry.write_bytes(data)
    plain = _run(project, None, "c0")
    result = _run(project, shared, "c2")
    assert not marker.exists()
    assert result.diagnostics == plain.diagnostics
    assert f"{len(victims)} entries unreadable or corrupt" in " ".join(result.cache_notes)


def test_an_unwritable_shared_cache_is_not_fatal(project: Path) -> None:
    blocker = project / "blocker"
    blocker.write_text("a file where the directory should be")
    plain = _run(project, None, "c0")
    result = _run(project, blocker / "shared", "c1")
    assert result.diagnostics == plain.diagnostics
    assert any("could not be written" in line for line in result.cache_notes)


def _cli(cwd: Path, env: dict[str, str], *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "veritype", "check", "main.py", "helper.py", "-O", "veritype-json", *argv],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def test_concurrent_runs_share_one_cache(project: Path) -> None:
    """Four runs at once on an empty shared cache: each reports what a run
    without it reports, and no partial or temporary file is left."""
    proj = project / "proj"
    (proj / "pyproject.toml").write_text("[tool.mypy]\n")
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "VIRTUAL_ENV")}
    env["VERITYPE_SHARED_CACHE_DIR"] = str(project / "shared")
    site = ["--python-executable", sys.executable]
    clean, _ = _cli(proj, env, "--no-shared-cache", "--no-incremental", *site).communicate(timeout=300)
    runs = [_cli(proj, env, "--cache-dir", f"c{i}", *site) for i in range(4)]
    outs = [proc.communicate(timeout=300)[0] for proc in runs]
    assert all(json.loads(out) == json.loads(clean) for out in outs)
    files = list((project / "shared").rglob("*"))
    assert files and not [p for p in files if p.name.startswith(".tmp-")]
    proc = _cli(proj, env, "--cache-dir", "c9", "-v", *site)
    out, err = proc.communicate(timeout=300)
    assert json.loads(out) == json.loads(clean) and "0 stored; " in err and "corrupt" not in err


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
    proj = project / "proj"
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "VIRTUAL_ENV")}
    env["VERITYPE_SHARED_CACHE_DIR"] = str(project / "shared")
    for argv in (["--no-shared-cache"], ["--cache-dir", os.devnull]):
        out, _ = _cli(proj, env, "--no-site-packages", "--no-incremental", *argv).communicate(timeout=300)
        assert json.loads(out) and not (project / "shared").exists()
    out, _ = _cli(proj, env, "--no-site-packages", "--no-incremental", "--shared-cache-dir", "elsewhere").communicate(timeout=300)
    assert not (project / "shared").exists() and (proj / "elsewhere" / "stubs-v1").is_dir()


def test_a_file_with_a_syntax_error_is_not_kept(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pyi"
    bad.write_text("def f(:\n")
    cache = SharedCache(str(tmp_path / "shared"), "key")
    first = cache.parse(str(bad))
    assert first.tree is None and first.diagnostics and cache.trees_stored == 0
    assert cache.parse(str(bad)).diagnostics == first.diagnostics and cache.trees_reused == 0
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\r\nname = '\xe9'\r\n")
    parsed = cache.parse(str(latin))
    again = SharedCache(str(tmp_path / "shared"), "key").parse(str(latin))
    assert parsed.source == again.source == "# -*- coding: latin-1 -*-\nname = '\xe9'\n"
    assert isinstance(again.tree.body[0].value.value, str) and again.tree.body[0].value.value == "\xe9"  # type: ignore[attr-defined, union-attr]
