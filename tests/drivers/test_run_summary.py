"""The last run's answer in one file (cache/run_summary.py): a warm run reads
no entry, and whatever it could not vouch for goes the per-entry way."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cache.store import CacheStore
from veritype.cli.flags import options_from_argv
from veritype.engine.build import BuildResult, run
from veritype.modules.sources import BuildSource
from tests.drivers import cache_rows

FILES = {
    "leaf.py": "def f() -> int:\n    return 1\n",
    "mid.py": "from leaf import f\nx: str = f()\n",
    "top.py": "import mid\nreveal_type(mid.x)\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return cache_rows.write_project(tmp_path / "proj", FILES)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The modules whose entries a run reads."""
    seen: list[str] = []
    real = CacheStore.load

    def spy(self: CacheStore, module: str, path: str):  # type: ignore[no-untyped-def]
        seen.append(module)
        return real(self, module, path)

    monkeypatch.setattr(CacheStore, "load", spy)
    return seen


def _run(root: Path, names: list[str] | None = None, *argv: str) -> BuildResult:
    opts = options_from_argv(list(argv), str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / ".veritype_cache")
    chosen = names or sorted(FILES)
    return run([BuildSource(str(root / n), n[:-3], str(root)) for n in chosen], opts)


def _cache(root: Path) -> Path:
    return root / ".veritype_cache"


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_a_warm_run_reads_no_entry(project: Path, loads: list[str], layout: str) -> None:
    cold = _run(project, None, *cache_rows.flags(layout))
    assert sorted(loads) == ["leaf", "mid", "top"] and "run.json" in cache_rows.rows(_cache(project), layout)
    loads.clear()
    warm = _run(project, None, *cache_rows.flags(layout))
    assert warm.diagnostics == cold.diagnostics and warm.reused == 3 and loads == []
    assert warm.cache_notes[0] == "cache: 3 entries reused, 0 missing (checked)"


def test_an_edit_is_not_answered_by_the_summary(project: Path, loads: list[str]) -> None:
    _run(project)
    (project / "leaf.py").write_text("def f() -> str:\n    return ''\n")  # an interface edit
    loads.clear()
    result = _run(project)
    assert sorted(loads) == ["leaf", "mid", "top"]
    assert not any(d.code == "assignment" for d in result.diagnostics)  # mid.x: str = f() is right now
    loads.clear()
    assert _run(project).diagnostics == result.diagnostics and loads == []  # and summarised again


def test_a_new_module_where_one_was_missing_is_seen(project: Path, loads: list[str]) -> None:
    (project / "top.py").write_text("import extra\n")
    cold = _run(project)
    assert any(d.code == "import-not-found" for d in cold.diagnostics)
    (project / "extra.py").write_text("")  # a recorded state ("missing") changed
    loads.clear()
    assert not any(d.code == "import-not-found" for d in _run(project).diagnostics)
    assert loads  # the per-entry way


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
@pytest.mark.parametrize("damage", ["delete", "truncate", "rewrite"])
def test_a_damaged_entry_goes_the_per_entry_way_and_is_named(project: Path, loads: list[str], damage: str, layout: str) -> None:
    flags = cache_rows.flags(layout)
    cold = _run(project, None, *flags)
    name, text = max(cache_rows.entries(_cache(project), layout).items(), key=lambda item: len(item[1]))
    if damage == "delete":
        cache_rows.delete(_cache(project), layout, name)
    elif damage == "truncate":
        cache_rows.write(_cache(project), layout, name, text[:10])
    else:
        # Written again, the same, by another run: its stamp (a file's mtime
        # and inode, a row's stamp) is not the one the summary recorded.
        other = CacheStore(str(_cache(project)), sqlite=layout == "sqlite")
        mid = str(project / "mid.py")
        other.save("mid", mid, other.load("mid", mid))  # type: ignore[arg-type]
        other.flush()
    loads.clear()
    warm = _run(project, None, "-v", *flags)
    assert warm.diagnostics == cold.diagnostics and warm.reused == (3 if damage == "rewrite" else 2) and loads
    if damage == "truncate":
        assert any("1 entry unreadable or corrupt" in line for line in warm.cache_notes)


def test_another_invocation_uses_the_entries_and_replaces_the_summary(project: Path, loads: list[str]) -> None:
    whole = _run(project)
    loads.clear()
    part = _run(project, ["mid.py"])  # and leaf.py, which it imports (follow_imports=normal)
    assert part.reused == 1 and sorted(loads) == ["leaf", "mid"]
    loads.clear()
    assert _run(project, ["mid.py"]).reused == 1 and loads == []
    loads.clear()
    assert _run(project).diagnostics == whole.diagnostics and sorted(loads) == ["leaf", "mid", "top"]


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_a_summary_that_fails_its_checksum_is_not_read(project: Path, loads: list[str], layout: str) -> None:
    flags = cache_rows.flags(layout)
    cold = _run(project, None, *flags)
    text = cache_rows.rows(_cache(project), layout)["run.json"]
    # One digit of a recorded line number changed: still JSON of the right shape.
    at = text.index('"line": ') + len('"line": ')
    cache_rows.write(_cache(project), layout, "run.json", text[:at] + ("7" if text[at] != "7" else "8") + text[at + 1:])
    loads.clear()
    assert _run(project, None, *flags).diagnostics == cold.diagnostics and loads
