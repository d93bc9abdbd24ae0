"""Cache entries that refer to other entries for the rest of their import
closure (veritype/cache/closures.py): with the inline limit at 0 every entry
refers to the entries of the modules it imports, as in a program of
thousands of modules. A warm run reuses everything (an import cycle
included); an interface edit two imports away re-checks the importers; a
body edit re-checks only its module; a lost entry re-checks the modules
whose closure went through it; each run gives a clean run's diagnostics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from veritype.cache.closures import deps_digest, pairs_digest
from veritype.cache.store import CacheStore, Entry, _diag_to_json, json_string
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.engine.build import run

from test_cache import options, sources, write
from tests.drivers import cache_rows

FILES = {
    "base.py": "class Base:\n    def get(self) -> int:\n        return 1\n",
    "mid.py": "from base import Base\nclass Mid(Base):\n    pass\n",
    "top.py": "from mid import Mid\nx: str = Mid().get()\n",
    # An import cycle whose closure goes through mid, and so to base.
    "cyc_a.py": "import cyc_b\ndef a() -> int:\n    return cyc_b.b()\n",
    "cyc_b.py": "import cyc_a\nfrom mid import Mid\ndef b() -> int:\n    return Mid().get()\nreveal_type(cyc_a.a())\n",
    "other.py": "y: int = 'a'\n",
}
ALL = ["base", "cyc_a", "cyc_b", "mid", "other", "top"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("veritype.cache.closures.INLINE_LIMIT", 0)
    root = tmp_path / "proj"
    root.mkdir()
    write(root, FILES)
    return root


def _clean(root: Path) -> list[object]:
    return run(sources(root), options(root, "--no-incremental")).diagnostics


def test_entries_refer_to_their_imports_and_a_warm_run_reuses_all(project: Path, checked: list[str]) -> None:
    cold = run(sources(project), options(project))
    assert sorted(checked) == ALL
    entry = CacheStore(str(project / ".veritype_cache")).load("top", str(project / "top.py"))
    assert entry is not None and set(entry.refs) == {"mid"} and "base" not in entry.deps
    checked.clear()
    warm = run(sources(project), options(project))
    assert checked == [] and warm.reused == len(ALL)
    assert warm.diagnostics == cold.diagnostics == _clean(project)


def test_interface_edit_two_imports_away_rechecks_the_importers(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    write(project, {"base.py": "class Base:\n    def get(self) -> str:\n        return ''\n"})
    result = run(sources(project), options(project))
    assert sorted(checked) == ["base", "cyc_a", "cyc_b", "mid", "top"]  # not `other`
    assert result.diagnostics == _clean(project)
    assert not any(d.path.endswith("top.py") for d in result.diagnostics)  # now a str


def test_body_edit_rechecks_only_its_module(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    write(project, {"base.py": "class Base:\n    def get(self) -> int:\n        return 2\n"})
    result = run(sources(project), options(project))
    assert checked == ["base"] and result.reused == len(ALL) - 1
    assert result.diagnostics == _clean(project)


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_a_lost_entry_rechecks_the_closures_through_it(project: Path, checked: list[str], layout: str) -> None:
    run(sources(project), options(project, *cache_rows.flags(layout)))
    store = CacheStore(str(project / ".veritype_cache"))
    cache_rows.delete(project / ".veritype_cache", layout, Path(store._path("mid", str(project / "mid.py"))).name)
    checked.clear()
    result = run(sources(project), options(project, *cache_rows.flags(layout)))
    assert sorted(checked) == ["cyc_a", "cyc_b", "mid", "top"]
    assert result.diagnostics == _clean(project)


def test_an_entry_written_from_encoded_deps_is_json_dumps_of_it(tmp_path: Path) -> None:
    # A cold run writes each entry from its (name, state) pairs encoded once
    # (cache/incremental.py): the bytes json.dumps of the entry gives, read
    # back as written, and digested as deps_digest digests the deps.
    deps = {"a": "source:/p/a.py:iface:1", "b.c": "missing:import-not-found:False", "d": 'site:/p/"é\\x".py:full:2'}
    refs = {"m": "0" * 64}
    diagnostics = [Diagnostic("/p/q.py", 3, 1, "error", 'Name "é" is "not" defined', "name-defined")]
    ordered = sorted(deps)
    deps_json = "{" + ", ".join(f"{json_string(n)}: {json_string(deps[n])}" for n in ordered) + "}"
    digest = pairs_digest(f"{n}\0{deps[n]}" for n in ordered)
    assert digest == deps_digest(deps)
    store = CacheStore(str(tmp_path / "cache"), sqlite=False)
    store.save_encoded("q", "/p/q.py", "key", deps_json, refs, digest, diagnostics)
    written = Path(store._path("q", "/p/q.py")).read_text(encoding="utf-8").partition("\n")[2]
    expected = Entry("key", deps, diagnostics, refs, digest)
    assert written == json.dumps({"key": "key", "deps": deps, "refs": refs, "digest": digest,
                                  "diagnostics": [_diag_to_json(d) for d in diagnostics]})
    assert store.load("q", "/p/q.py") == expected
