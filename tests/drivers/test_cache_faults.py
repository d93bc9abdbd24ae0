"""Cache faults (issue #19): a run killed mid-write and two runs sharing one
cache directory leave a cache the next run reads or rebuilds, giving exactly
a clean run's diagnostics, and `--verbose` says what it found."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from veritype.engine.build import run
from veritype.cli.flags import options_from_argv
from veritype.modules.sources import BuildSource
from tests.drivers import cache_rows

MODULES = 12


def _project(root: Path) -> Path:
    root.mkdir()
    (root / ".git").mkdir()
    for i in range(MODULES):
        prev = f"from m{i - 1} import f{i - 1}\n" if i else ""
        call = f"x{i}: str = f{i - 1}()\n" if i else ""
        (root / f"m{i}.py").write_text(f"{prev}def f{i}() -> int:\n    return {i}\n{call}")
    return root


def _veritype(root: Path, *argv: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "VIRTUAL_ENV")}
    return subprocess.Popen(
        [sys.executable, "-m", "veritype", "check", ".", "-O", "veritype-json", "--no-site-packages", *argv],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def _result(proc: subprocess.Popen[str]) -> tuple[list[object], str]:
    out, err = proc.communicate(timeout=300)
    return json.loads(out), err


def _killer_at(module: str, function: str, call: int, *argv: str) -> str:
    """A program that runs a cold check (with `argv`) and SIGKILLs itself (no
    cleanup of any kind runs) on entering `module.function` for the `call`-th
    time, before that call does anything."""
    owner, _, name = function.rpartition(".")
    target = f"{module}.{owner}" if owner else module
    return (
        "import os, signal, sys\n"
        f"import {module}\n"
        f"holder = {target}\n"
        f"real = getattr(holder, {name!r})\n"
        "calls = [0]\n"
        "def killing(*args):\n"
        "    calls[0] += 1\n"
        f"    if calls[0] == {call}:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    return real(*args)\n"
        f"setattr(holder, {name!r}, killing)\n"
        "from veritype.cli.main import main\n"
        f"sys.exit(main(['check', '.', '--cache-dir', 'c', '--no-site-packages', '-O', 'veritype-json', *{list(argv)!r}]))\n"
    )


def test_killed_mid_write_then_read_or_rebuilt(tmp_path: Path) -> None:
    """The file layout (--no-sqlite-cache): one file per entry."""
    root = _project(tmp_path / "proj")
    clean, _ = _result(_veritype(root, "--no-incremental"))
    assert len(clean) == MODULES - 1  # one assignment error per importing module
    # A run killed right after writing its fifth temporary entry, before the
    # rename that publishes it (SIGKILL: no cleanup of any kind runs). The
    # import memo (imports.json) of a cold one-shot run is written after the
    # entries, once its imports read from prefixes are confirmed
    # (engine/build.py `_followed`): the fifth rename is the fifth entry's.
    killer = _killer_at("os", "replace", 5, "--no-sqlite-cache")
    killed = subprocess.run([sys.executable, "-c", killer], cwd=root, capture_output=True, text=True, timeout=300)
    assert killed.returncode == -9
    entries = root / "c" / "v1"
    temps = [p for p in entries.iterdir() if p.name.startswith(".tmp-")]
    assert len(temps) == 1 and len([p for p in entries.iterdir() if p.suffix == ".json" and not p.name.startswith(".") and p.name != "imports.json"]) == 4
    old = time.time() - 120
    os.utime(temps[0], (old, old))  # left behind a while ago

    again, err = _result(_veritype(root, "--cache-dir", "c", "-v", "--no-sqlite-cache"))
    assert again == clean
    assert f"4 of {MODULES} file(s) reused from the cache" in err
    assert f"cache: 4 entries reused, {MODULES - 4} missing (checked)" in err
    assert "cache: removed 1 temporary file(s) left by an interrupted run" in err
    assert not [p for p in entries.iterdir() if p.name.startswith(".tmp-")]

    third, err = _result(_veritype(root, "--cache-dir", "c", "-v", "--no-sqlite-cache"))
    assert third == clean and f"{MODULES} of {MODULES} file(s) reused" in err


def test_killed_mid_transaction_then_rolled_back(tmp_path: Path) -> None:
    """The database: a run killed half-way through writing its rows (after
    the fifth, before the commit) wrote none of them; the next run's first
    connection rolls the journal back, checks everything and writes all."""
    root = _project(tmp_path / "proj")
    clean, _ = _result(_veritype(root, "--no-incremental"))
    killer = _killer_at("veritype.cache.database", "Database.write", 6)
    killed = subprocess.run([sys.executable, "-c", killer], cwd=root, capture_output=True, text=True, timeout=300)
    assert killed.returncode == -9
    assert (root / "c" / "v1" / "cache.db-journal").exists()  # the transaction's, left behind
    again, err = _result(_veritype(root, "--cache-dir", "c", "-v"))
    assert again == clean
    assert f"cache: 0 entries reused, {MODULES} missing (checked)" in err
    assert "could not" not in err and "corrupt" not in err
    third, err = _result(_veritype(root, "--cache-dir", "c", "-v"))
    assert third == clean and f"{MODULES} of {MODULES} file(s) reused" in err
    assert not (root / "c" / "v1" / "cache.db-journal").exists()


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_two_concurrent_runs_share_a_cache(tmp_path: Path, layout: str) -> None:
    root = _project(tmp_path / "proj")
    clean, _ = _result(_veritype(root, "--no-incremental"))
    flags = cache_rows.flags(layout)
    first, second = _veritype(root, "--cache-dir", "c", *flags), _veritype(root, "--cache-dir", "c", *flags)
    assert _result(first)[0] == clean and _result(second)[0] == clean
    after, err = _result(_veritype(root, "--cache-dir", "c", "-v", *flags))
    assert after == clean
    assert f"{MODULES} of {MODULES} file(s) reused from the cache" in err
    assert not [p for p in (root / "c" / "v1").iterdir() if p.name.startswith(".tmp-")]


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_verbose_names_unreadable_entries(tmp_path: Path, layout: str) -> None:
    root = _project(tmp_path / "proj")
    sources = [BuildSource(str(root / f"m{i}.py"), f"m{i}", str(root)) for i in range(MODULES)]
    opts = options_from_argv(cache_rows.flags(layout), str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / "c")
    cold = run(sources, opts)
    name, text = max(cache_rows.entries(root / "c", layout).items(), key=lambda item: len(item[1]))
    cache_rows.write(root / "c", layout, name, text[: len(text) // 2])  # truncated
    warm = run(sources, opts)
    assert warm.diagnostics == cold.diagnostics and warm.reused == MODULES - 1
    assert any(line.startswith("cache: 1 entry unreadable or corrupt, checked again and rewritten: m") for line in warm.cache_notes)
    assert run(sources, opts).reused == MODULES


@pytest.mark.parametrize("age, removed", [(120.0, 1), (1.0, 0)])
def test_only_old_temporaries_are_removed(tmp_path: Path, age: float, removed: int) -> None:
    from veritype.cache.store import CacheStore

    store = CacheStore(str(tmp_path))
    (tmp_path / "v1").mkdir()
    temp = tmp_path / "v1" / ".tmp-abc.json"
    temp.write_text("{")
    stamp = time.time() - age
    os.utime(temp, (stamp, stamp))
    store.remove_stale_temps()
    assert store.temps_removed == removed and temp.exists() == (removed == 0)  # a concurrent run's write stays


def test_a_store_whose_directory_goes_mid_run_makes_it_again(tmp_path: Path) -> None:
    """(The file layout; the database's: test_cache_database.py.) The directory is made once per store, not before each entry: a write
    that finds it removed since makes it (and its tag files) again."""
    import shutil

    from veritype.cache.store import CacheStore, Entry

    store = CacheStore(str(tmp_path / "cache"), sqlite=False)
    entry = Entry("key", {"os": "stdlib:os.pyi"}, [])
    store.save("a", "a.py", entry)
    shutil.rmtree(tmp_path / "cache")
    store.save("b", "b.py", entry)
    store.save_imports("k", {"d": ["os"]})
    assert store.write_errors == 0
    assert store.load("b", "b.py") == entry and store.load_imports("k") == {"d": ["os"]}
    assert (tmp_path / "cache" / "CACHEDIR.TAG").exists() and (tmp_path / "cache" / ".gitignore").exists()


def test_entries_missing_from_the_listing_are_not_opened(tmp_path: Path) -> None:
    """(The file layout.) remove_stale_temps lists the entries' directory: an entry absent from
    it is missing without an open; one the store writes since is found."""
    from veritype.cache.store import CacheStore, Entry

    store = CacheStore(str(tmp_path / "c"), sqlite=False)
    store.remove_stale_temps()  # no directory yet: nothing is present
    assert store.load("m", "m.py") is None and store.missing == 1
    store.save("m", "m.py", Entry("k", {"n": "s"}, []))
    assert store.load("m", "m.py") == Entry("k", {"n": "s"}, [])
    other = CacheStore(str(tmp_path / "c"), sqlite=False)
    other.remove_stale_temps()
    store.save("late", "late.py", Entry("k", {}, []))  # by another run, after the listing
    assert other.load("late", "late.py") is None and other.missing == 1  # missed: checked again
    assert other.load("m", "m.py") is not None
