"""The incremental cache (veritype/cache): reuse only what nothing invalidated."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from veritype.build import run
from veritype.cli.flags import options_from_argv
from veritype.modules.sources import BuildSource
from veritype.options import Options

FILES = {
    "leaf.py": "def f() -> int:\n    return 1\n",
    "mid.py": "from leaf import f\nx: str = f()\n",
    "top.py": "import mid\nreveal_type(mid.x)\n",
    "other.py": "y: int = 'a'\n",
}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).write_text(text)


def sources(root: Path) -> list[BuildSource]:
    return [
        BuildSource(str(root / name), name[:-3], str(root))
        for name in sorted(os.listdir(root))
        if name.endswith(".py")
    ]


def options(root: Path, *argv: str) -> Options:
    opts = options_from_argv(list(argv), str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / ".veritype_cache")
    return opts


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    write(root, FILES)
    return root


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules actually checked (not taken from the cache)."""
    import veritype.check.module_checker as mc

    names: list[str] = []
    real = mc.check_module

    def spy(program, info):  # type: ignore[no-untyped-def]
        names.append(info.name)
        return real(program, info)

    monkeypatch.setattr(mc, "check_module", spy)
    return names


def test_warm_run_equals_cold_run(project: Path, checked: list[str]) -> None:
    cold = run(sources(project), options(project))
    assert sorted(checked) == ["leaf", "mid", "other", "top"] and cold.reused == 0
    checked.clear()
    warm = run(sources(project), options(project))
    assert checked == [] and warm.reused == 4
    assert warm.diagnostics == cold.diagnostics and warm.files_checked == cold.files_checked
    assert [d.message for d in warm.diagnostics if d.severity == "note"] == ['Revealed type is "str"']
    plain = run(sources(project), options(project, "--no-incremental"))
    assert plain.diagnostics == cold.diagnostics


def test_edit_to_leaf_rechecks_it_and_its_importers_only(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    write(project, {"leaf.py": "def f() -> str:\n    return ''\n"})
    result = run(sources(project), options(project))
    assert sorted(checked) == ["leaf", "mid", "top"]  # not `other`
    assert result.reused == 1
    messages = [d.message for d in result.diagnostics]
    assert 'Revealed type is "str"' in messages
    assert not any(d.path.endswith("mid.py") for d in result.diagnostics)  # the error is gone
    assert any(d.path.endswith("other.py") for d in result.diagnostics)  # kept from the cache


def test_unsaved_text_counts_as_the_source(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    srcs = [s if s.module != "other" else BuildSource(s.path, s.module, s.base_dir, "y: int = 1\n") for s in sources(project)]
    result = run(srcs, options(project))
    assert checked == ["other"]
    assert not any(d.path.endswith("other.py") for d in result.diagnostics)


def test_creating_a_missing_module_rechecks_its_importer(project: Path, checked: list[str]) -> None:
    write(project, {"uses.py": "import later\n"})
    first = run(sources(project), options(project))
    assert any(d.code == "import-not-found" for d in first.diagnostics)
    checked.clear()
    (project / "later.py").write_text("z = 1\n")
    second = run([s for s in sources(project) if s.module != "later"], options(project))
    assert checked == ["uses"]
    assert not any(d.code == "import-not-found" for d in second.diagnostics)


def test_option_change_invalidates(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    result = run(sources(project), options(project, "--disallow-untyped-defs"))
    assert sorted(checked) == ["leaf", "mid", "other", "top"] and result.reused == 0
    checked.clear()
    run(sources(project), options(project, "--python-version", "3.11"))
    assert len(checked) == 4


def test_per_module_option_change_invalidates(project: Path, checked: list[str]) -> None:
    run(sources(project), options(project))
    checked.clear()
    opts = options(project)
    opts.overrides = [("other", {"ignore_errors": True})]
    result = run(sources(project), opts)
    assert "other" in checked
    assert not any(d.path.endswith("other.py") for d in result.diagnostics)


def test_corrupt_cache_is_ignored(project: Path, checked: list[str]) -> None:
    cold = run(sources(project), options(project))
    entries = project / ".veritype_cache" / "v1"
    garbage = [b"", b"{not json", b"[]", b'{"key": 1, "deps": {}, "diagnostics": []}', b"\xff\xfe"]
    for path, junk in zip(sorted(entries.iterdir()), garbage):
        path.write_bytes(junk)
    checked.clear()
    again = run(sources(project), options(project))
    assert len(checked) == 4 and again.diagnostics == cold.diagnostics
    # and the rewritten entries are good again
    checked.clear()
    assert run(sources(project), options(project)).reused == 4


def test_unwritable_cache_dir_is_not_fatal(project: Path) -> None:
    blocker = project / "not_a_dir"
    blocker.write_text("")
    opts = options(project)
    opts.cache_dir = str(blocker / "cache")
    result = run(sources(project), opts)
    assert result.files_checked == 4


def test_cli_flags(tmp_path: Path) -> None:
    from veritype.cli.flags import parse_args, set_default_cache_dir

    opts = options_from_argv(["--cache-dir", "somewhere"], str(tmp_path))
    assert opts.cache_dir is not None and opts.cache_dir.endswith("somewhere")
    opts = options_from_argv(["--no-incremental"], str(tmp_path))
    set_default_cache_dir(opts, str(tmp_path))
    assert opts.incremental is False and opts.cache_dir is None
    opts = options_from_argv([], str(tmp_path))
    set_default_cache_dir(opts, str(tmp_path))
    assert opts.cache_dir == os.path.join(str(tmp_path), ".veritype_cache")
    assert parse_args(["check", "--no-incremental", "x.py"]).incremental is False


def test_submodule_reached_by_attribute_is_a_dependency(tmp_path: Path, checked: list[str]) -> None:
    # `pkg.sub.x` after only `import pkg`: no import names pkg.sub, yet the
    # check read it; an edit to it must re-check the user.
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    write(root, {"pkg/__init__.py": "", "pkg/sub.py": "x: int = 1\n", "main.py": "import pkg\nreveal_type(pkg.sub.x)\n"})
    srcs = [BuildSource(str(root / "main.py"), "main", str(root))]
    first = run(srcs, options(root))
    assert [d.message for d in first.diagnostics] == ['Revealed type is "int"']
    write(root, {"pkg/sub.py": "x: str = ''\n"})
    checked.clear()
    second = run(srcs, options(root))
    assert checked == ["main"]
    assert [d.message for d in second.diagnostics] == ['Revealed type is "str"']
