"""The cache's SQLite database (cache/database.py, the default layout): its
faults are misses, never a failed or different check, and `--verbose` names
them. (The faults both layouts share, a damaged or rewritten row, two runs at
once, a run killed mid-write, are in test_cache.py, test_cache_faults.py and
test_run_summary.py.)"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from veritype.cache import database as db_module
from veritype.cache.store import CacheStore, Entry
from veritype.cli.flags import options_from_argv
from veritype.engine.build import BuildResult, run
from veritype.modules.sources import BuildSource
from tests.drivers import cache_rows

FILES = {
    "leaf.py": "def f() -> int:\n    return 1\n",
    "mid.py": "from leaf import f\nx: str = f()\n",
    "top.py": "import mid\nreveal_type(mid.x)\n",
    "other.py": "y: int = 'a'\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return cache_rows.write_project(tmp_path / "proj", FILES)


def _run(root: Path, *argv: str) -> BuildResult:
    opts = options_from_argv(["-v", *argv], str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / "c")
    return run([BuildSource(str(root / n), n[:-3], str(root)) for n in sorted(FILES)], opts)


def _db(root: Path) -> Path:
    return root / "c" / "v1" / "cache.db"


def _notes(result: BuildResult) -> str:
    return "\n".join(result.cache_notes)


def test_one_database_by_default_one_file_per_entry_without_it(project: Path) -> None:
    cold = _run(project)
    assert sorted(p.name for p in (project / "c" / "v1").iterdir()) == ["cache.db"]
    assert sorted(p.name for p in (project / "c").iterdir()) == [".gitignore", "CACHEDIR.TAG", "v1"]
    assert len(cache_rows.entries(project / "c", "sqlite")) == 4
    assert {"run.json", "interfaces.json"} <= cache_rows.rows(project / "c", "sqlite").keys()
    warm = _run(project)
    assert warm.reused == 4 and warm.diagnostics == cold.diagnostics
    # The other layout does not read the database, nor the database the files.
    files = _run(project, "--no-sqlite-cache")
    assert files.reused == 0 and files.diagnostics == cold.diagnostics
    assert len(cache_rows.entries(project / "c", "files")) == 4
    shutil.rmtree(project / "c" / "v1")
    files_only = _run(project, "--no-sqlite-cache")
    assert files_only.reused == 0 and not _db(project).exists()
    assert _run(project, "--no-sqlite-cache").reused == 4


def test_the_config_key_chooses_the_layout_too(project: Path) -> None:
    (project / "mypy.ini").write_text("[mypy]\nsqlite_cache = False\n")
    warnings: list[str] = []
    from veritype.config.loader import load_options

    assert load_options(str(project), None, warnings.append).sqlite_cache is False and warnings == []


@pytest.mark.parametrize("damage", ["not a database", "zeroed header", "truncated", "empty"])
def test_a_damaged_database_is_removed_checked_again_and_rebuilt(project: Path, damage: str) -> None:
    cold = _run(project)
    data = _db(project).read_bytes()
    if damage == "not a database":
        _db(project).write_bytes(b"this is not a database\n" * 200)
    elif damage == "zeroed header":
        _db(project).write_bytes(bytes(100) + data[100:])
    elif damage == "truncated":
        _db(project).write_bytes(data[: len(data) // 2])
    else:
        _db(project).write_bytes(b"")
    again = _run(project)
    assert again.diagnostics == cold.diagnostics
    if damage == "empty":
        # SQLite's empty database: no rows, nothing damaged.
        assert again.reused == 0 and "corrupt" not in _notes(again)
    else:
        assert again.reused < 4 and f"cache: the database {_db(project)} was corrupt" in _notes(again)
    rebuilt = _run(project)
    assert rebuilt.reused == 4 and rebuilt.diagnostics == cold.diagnostics and "corrupt" not in _notes(rebuilt)


def test_every_byte_flip_of_the_database_is_a_miss_or_harmless(project: Path) -> None:
    """Whatever byte of the file is damaged (SQLite's pages, a row's text, its
    stamp), the next run prints what a clean run prints, and the one after it
    reads a good cache again."""
    cold = _run(project)
    original = _db(project).read_bytes()
    step = max(1, len(original) // 80)
    for i in list(range(0, 100, 7)) + list(range(100, len(original), step)):
        flipped = bytearray(original)
        flipped[i] ^= 0x01
        _db(project).write_bytes(bytes(flipped))
        assert _run(project).diagnostics == cold.diagnostics, f"byte {i}"
        assert _run(project).diagnostics == cold.diagnostics, f"byte {i}, the run after"
        _db(project).write_bytes(original)


def test_a_run_that_cannot_get_the_lock_finishes_and_counts_its_writes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = _run(project)
    _db(project).unlink()
    _run(project)  # a database to lock
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT", 0.05)
    holder = sqlite3.connect(_db(project), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another run, writing for longer than the timeout
    try:
        (project / "other.py").write_text("y: int = 'b'\n")  # a module to write
        locked = _run(project)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert locked.reused == 0 and len(locked.diagnostics) == len(cold.diagnostics)
    assert "could not be read (database is locked)" in _notes(locked)
    assert "could not be written" in _notes(locked)
    assert "corrupt" not in _notes(locked) and _db(project).exists()  # a lock is no damage
    after = _run(project)
    assert after.diagnostics == locked.diagnostics and after.reused == 3  # other.py's entry was not written
    assert _run(project).reused == 4


@pytest.mark.parametrize("pragma, error", [("max_page_count = 2", "full"), ("query_only = 1", "readonly")])
def test_a_full_or_read_only_database_never_fails_the_check(project: Path, monkeypatch: pytest.MonkeyPatch, pragma: str, error: str) -> None:
    """SQLite's own errors for a disk that is full (SQLITE_FULL: the file may
    not grow) or read-only (SQLITE_READONLY): every row is counted as not
    written, the check is the same, the next run writes them."""
    cold = _run(project, "--no-incremental")
    real = sqlite3.connect

    def limited(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real(*args, **kwargs)  # type: ignore[arg-type]
        conn.execute(f"PRAGMA {pragma}")
        return conn

    monkeypatch.setattr(db_module.sqlite3, "connect", limited)
    failed = _run(project)
    monkeypatch.setattr(db_module.sqlite3, "connect", real)
    assert failed.diagnostics == cold.diagnostics
    assert any(line.startswith("cache: ") and "could not be written" in line for line in failed.cache_notes), failed.cache_notes
    assert _run(project).reused == 0  # nothing was written
    assert _run(project).reused == 4


def test_an_unwritable_cache_directory_counts_every_row(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("")
    store = CacheStore(str(tmp_path / "blocker" / "c"))
    store.save("m", "m.py", Entry("k", {}, []))
    store.save_imports("k", {"d": ["os"]})
    store.flush()
    assert store.write_errors == 2 and store.load("m", "m.py") is None


def test_rows_are_read_back_before_the_commit_and_after_it(tmp_path: Path) -> None:
    store = CacheStore(str(tmp_path / "c"))
    assert store.load("m", "m.py") is None and not (tmp_path / "c").exists()  # reading creates nothing
    entry = Entry("k", {"n": "s"}, [], {"r": "d"}, "digest")
    store.save("m", "m.py", entry)
    store.save_imports("k", {"d": ["os"]})
    assert store.load("m", "m.py") == entry and store.load_imports("k") == {"d": ["os"]}
    stat = store.entry_stat("m", "m.py")
    assert stat is not None
    other = CacheStore(str(tmp_path / "c"))
    store.flush()
    assert store.write_errors == 0
    assert other.load("m", "m.py") == entry and other.entry_stat("m", "m.py") == stat
    # Another store (another run) writing the same entry gives it another stamp.
    third = CacheStore(str(tmp_path / "c"))
    third.save("m", "m.py", entry)
    third.flush()
    fourth = CacheStore(str(tmp_path / "c"))
    assert fourth.load("m", "m.py") == entry and fourth.entry_stat("m", "m.py") not in (None, stat)


def test_a_database_removed_mid_run_is_no_error(tmp_path: Path) -> None:
    store = CacheStore(str(tmp_path / "c"))
    entry = Entry("k", {}, [])
    store.save("a", "a.py", entry)
    shutil.rmtree(tmp_path / "c")  # by hand, while the run writes
    store.save("b", "b.py", entry)
    store.flush()  # to the removed file: lost, as a write that did not happen
    again = CacheStore(str(tmp_path / "c"))
    assert again.load("b", "b.py") is None
    again.save("b", "b.py", entry)
    again.flush()
    assert again.write_errors == 0 and CacheStore(str(tmp_path / "c")).load("b", "b.py") == entry


def test_a_forked_process_does_not_use_its_parents_connection(tmp_path: Path) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork")
    store = CacheStore(str(tmp_path / "c"))
    store.save("a", "a.py", Entry("k", {}, []))
    store.flush()
    assert store.load("a", "a.py") is not None  # the connection is open again
    pid = os.fork()
    if pid == 0:  # the child: its own connection
        code = 0 if store.load("a", "a.py") == Entry("k", {}, []) else 1
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.load("a", "a.py") == Entry("k", {}, [])
