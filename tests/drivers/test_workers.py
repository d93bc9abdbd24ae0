"""Parallel checking (`-n N`, veritype/engine/workers.py): worker processes give
exactly the diagnostics of a serial run, import cycles are kept together, and
the incremental cache records the same dependencies."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from veritype.engine.build import run
from veritype.cli.flags import options_from_argv
from veritype.cli.main import main
import veritype.engine.workers as workers_module
from veritype.engine.workers import import_cycles, worker_count
from veritype.modules.sources import BuildSource
from veritype.options import Options, parse_num_workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes need fork")

# A small program: an import cycle (a <-> b, with a class hierarchy across it),
# modules that use it, a leaf, and errors spread over most of them, some
# depending on types inferred in other modules.
FILES = {
    "app/__init__.py": "",
    "app/a.py": (
        "from __future__ import annotations\n"
        "from app import b\n"
        "class A:\n"
        "    def make(self) -> b.B:\n"
        "        return b.B()\n"
        "    def n(self) -> int:\n"
        "        return 1\n"
        "x: int = 'no'\n"
    ),
    "app/b.py": (
        "from app import a\n"
        "class B(a.A):\n"
        "    def name(self) -> str:\n"
        "        return self.n()\n"
    ),
    "app/c.py": (
        "from app.a import A\n"
        "from app.leaf import value\n"
        "reveal_type(A().make())\n"
        "reveal_type(value)\n"
        "y: str = A().n()\n"
    ),
    "app/d.py": (
        "from app.c import y\n"
        "import app.b\n"
        "def use(v: app.b.B) -> None:\n"
        "    v.nothing\n"
        "reveal_type(y)\n"
    ),
    "app/leaf.py": "value = [1, 2]\ndef f(x: int) -> str:\n    return x\n",
    # An installed typed package, loaded only while checking (in a worker):
    # app.uses depends on ext.base through ext.core.
    "app/uses.py": "import ext.core\nreveal_type(ext.core.make().v)\n",
    "site/ext/__init__.py": "",
    "site/ext/py.typed": "",
    "site/ext/core.py": "from ext.base import Base\ndef make() -> Base:\n    return Base()\n",
    "site/ext/base.py": "class Base:\n    v: int = 0\n",
}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def sources(root: Path) -> list[BuildSource]:
    out = []
    for name in sorted(os.listdir(root / "app")):
        if name.endswith(".py"):
            module = "app" if name == "__init__.py" else f"app.{name[:-3]}"
            out.append(BuildSource(str(root / "app" / name), module, str(root)))
    return out


def options(root: Path, *argv: str) -> Options:
    opts = options_from_argv(list(argv), str(root))
    opts.site_packages = [str(root / "site")]
    opts.cache_dir = str(root / ".veritype_cache")
    return opts


@pytest.fixture(autouse=True)
def small_programs_in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """These programs are far below CHARS_PER_WORKER: check them in workers anyway."""
    monkeypatch.setattr(workers_module, "CHARS_PER_WORKER", 1)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, FILES)
    return root


@pytest.mark.parametrize("workers", ["2", "3", "8"])
def test_workers_report_what_a_serial_run_reports(project: Path, checked: list[str], workers: str) -> None:
    serial = run(sources(project), options(project, "--no-incremental"))
    assert sorted(checked) == ["app", "app.a", "app.b", "app.c", "app.d", "app.leaf", "app.uses"]
    codes = sorted({(os.path.basename(d.path), d.code or d.severity) for d in serial.diagnostics})
    # The program is not trivial: errors and notes come from five modules.
    assert codes == [("a.py", "assignment"), ("b.py", "return-value"), ("c.py", "assignment"), ("c.py", "note"),
                     ("d.py", "attr-defined"), ("d.py", "note"), ("leaf.py", "return-value"),
                     ("uses.py", "note")]
    checked.clear()
    parallel = run(sources(project), options(project, "--no-incremental", "-n", workers))
    assert checked == []  # every module was checked in a worker process
    assert parallel.diagnostics == serial.diagnostics
    assert parallel.files_checked == serial.files_checked == 7
    # A one-shot run: workers release each module's bodies once checked, as a
    # serial run does; the reports stay those of a serial run, and the
    # parent's trees are whole.
    released = run(sources(project), options(project, "--no-incremental", "-n", workers), release_bodies=True)
    assert released.diagnostics == serial.diagnostics


def test_a_small_program_is_checked_in_this_process(project: Path, checked: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Forking costs more than a worker saves on a few hundred characters:
    # with the real threshold, -n 8 checks this program serially, same output.
    serial = run(sources(project), options(project, "--no-incremental"))
    monkeypatch.setattr(workers_module, "CHARS_PER_WORKER", 100_000)
    checked.clear()
    parallel = run(sources(project), options(project, "--no-incremental", "-n", "8"))
    assert sorted(checked) == ["app", "app.a", "app.b", "app.c", "app.d", "app.leaf", "app.uses"]
    assert parallel.diagnostics == serial.diagnostics


def test_worker_count_follows_the_program_size(monkeypatch: pytest.MonkeyPatch) -> None:
    per = 100_000
    monkeypatch.setattr(workers_module, "CHARS_PER_WORKER", per)
    assert worker_count(2, 155, 3_500_000) == 2  # the bench corpus
    assert worker_count(64, 155, 3_500_000) == 35  # -n auto on 64 cores: one per CHARS_PER_WORKER
    assert worker_count(8, 3, 10 * per) == 3  # no more than the import cycles
    assert worker_count(8, 50, per + per // 2) == 1  # serial


def test_workers_record_the_dependencies_a_serial_run_records(tmp_path: Path, checked: list[str]) -> None:
    rechecked = {}
    for how in ("serial", "parallel"):
        root = tmp_path / how
        write(root, FILES)
        checked.clear()
        run(sources(root), options(root, *(["-n", "2"] if how == "parallel" else [])))
        assert (checked == []) == (how == "parallel")
        # An interface edit of the leaf: the warm run re-checks what the cold
        # run's recorded dependencies say, the same set after either.
        write(root, {"app/leaf.py": "value = ['s']\ndef f(x: int) -> str:\n    return x\n",
                     "site/ext/base.py": "class Base:\n    v: str = ''\n"})
        checked.clear()
        warm = run(sources(root), options(root))
        notes = [d.message for d in warm.diagnostics]
        assert 'Revealed type is "list[str]"' in notes and 'Revealed type is "str"' in notes
        rechecked[how] = (sorted(checked), warm.reused)
    assert rechecked["parallel"] == rechecked["serial"]
    assert rechecked["serial"] == (["app.c", "app.d", "app.leaf", "app.uses"], 3)


def test_import_cycles_are_kept_together(project: Path) -> None:
    from veritype.evaluate.program import Program
    from veritype.modules.finder import ModuleFinder

    opts = options(project)
    program = Program(opts, ModuleFinder(opts, [str(project)]))
    srcs = sources(project)
    for src in srcs:
        program.sources[src.module] = src
    infos = [program.get_module(s.module) for s in srcs]
    groups = import_cycles([i for i in infos if i is not None])
    assert sorted(groups) == [["app"], ["app.a", "app.b"], ["app.c"], ["app.d"], ["app.leaf"], ["app.uses"]]


def test_num_workers_values() -> None:
    assert parse_num_workers("4") == 4 and parse_num_workers(0) == 0
    assert parse_num_workers("auto") >= 1
    for bad in ("-1", "two", True, 1.5):
        with pytest.raises(ValueError):
            parse_num_workers(bad)


def test_num_workers_flag_and_config(project: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert options_from_argv(["--num-workers", "3", "x.py"], str(project)).num_workers == 3
    assert options_from_argv(["-n", "auto", "x.py"], str(project)).num_workers >= 1
    (project / "pyproject.toml").write_text("[tool.mypy]\nnum_workers = 2\n")
    assert options_from_argv(["x.py"], str(project), search_config=True).num_workers == 2
    (project / "pyproject.toml").write_text('[tool.mypy]\nnum_workers = "auto"\n')
    assert options_from_argv(["x.py"], str(project), search_config=True).num_workers >= 1
    monkeypatch.chdir(project)
    assert main(["check", "-n", "many", "app"]) == 2
    assert "expected a number of workers" in capsys.readouterr().err
    (project / "pyproject.toml").write_text("[tool.mypy]\nnum_workers = -2\n")
    assert main(["check", "app"]) == 2


def test_forking_workers_from_the_check_thread_does_not_warn(project: Path) -> None:
    # On Python 3.12+ forking a multi-threaded process warns (DeprecationWarning);
    # the run forks from the deep-stack thread while the main thread waits.
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(sources(project), options(project, "--no-incremental", "-n", "2"))
    assert [str(w.message) for w in caught if "fork" in str(w.message)] == []


def _cache_contents(root: Path) -> dict[str, object]:
    """Each file of the project's cache, its JSON parsed (after the checksum line where there is one)."""
    import json

    from tests.drivers import cache_rows

    out: dict[str, object] = {}
    cache = root / ".veritype_cache"
    # The files, and the database's rows as the files they stand for (cache/store.py).
    texts = {str(path.relative_to(cache)): path.read_text() for path in sorted(cache.rglob("*"))
             if path.is_file() and path.name != "cache.db"}
    texts.update({f"v1/{name}": text for name, text in cache_rows.rows(cache, "sqlite").items()})
    for name, text in sorted(texts.items()):
        body = text.split("\n", 1)[1] if "\n" in text and text.lstrip()[:1] not in "{[" else text
        try:
            data = json.loads(body)
        except json.JSONDecodeError:
            data = text
        if name.endswith("run.json"):  # the entries' stats (times, inodes, stamps) differ: not their contents
            import re

            data = re.sub(r"\[\d+, \d+, \d+\]", "[stat]", repr(data))
        out[name] = data
    return out


def test_workers_write_the_cache_a_serial_run_writes(project: Path) -> None:
    # The parent computes the entries' syntactic digests while the workers
    # check (engine/workers.py `meanwhile`): the same entries and memos as a
    # serial run's, no digest more or less.
    run(sources(project), options(project))
    serial = _cache_contents(project)
    assert any("digests" in str(v) for v in serial.values())  # the memos are there
    import shutil

    shutil.rmtree(project / ".veritype_cache")
    run(sources(project), options(project, "-n", "2"))
    assert _cache_contents(project) == serial
