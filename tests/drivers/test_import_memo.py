"""The import memo of the incremental cache (engine/followed_imports.py,
cache/store.py): a warm run finds the modules to follow without parsing the
unchanged sources, and an edit that adds an import is still followed."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.flags import options_from_argv
from veritype.engine.build import run
from veritype.modules.sources import BuildSource
from veritype.options import Options


def _options(root: Path, *argv: str) -> Options:
    opts = options_from_argv(list(argv), str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / ".veritype_cache")
    return opts


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text("import helper\n\nn: int = helper.value\n")
    (root / "helper.py").write_text("value = 1\n")
    (root / "extra.py").write_text("bad: int = 'no'\n")
    return root


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import veritype.evaluate.program as program_mod

    seen: list[str] = []
    original = program_mod.parse_file

    def spy(path: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(Path(path).name)
        return original(path, *args, **kwargs)

    monkeypatch.setattr(program_mod, "parse_file", spy)
    return seen


def _check(root: Path) -> list[str]:
    result = run([BuildSource(str(root / "main.py"), "main", str(root))], _options(root))
    return [f"{Path(d.path).name}:{d.line}: {d.message}" for d in result.diagnostics if d.severity == "error"]


def test_a_warm_run_parses_no_unchanged_source(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = _parsed(monkeypatch)
    assert _check(project) == []
    assert {"main.py", "helper.py"} <= set(parsed)
    parsed.clear()
    assert _check(project) == []
    assert [p for p in parsed if not p.endswith(".pyi")] == []


def test_an_added_import_is_followed(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _check(project) == []
    (project / "helper.py").write_text("import extra\n\nvalue = 1\n")
    errors = _check(project)
    assert len(errors) == 1 and errors[0].startswith("extra.py:1: Incompatible types in assignment")
    assert _check(project) == errors  # and again, from the memo and the cache


def test_inline_settings_are_read_by_loading_the_module(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "helper.py").write_text("# mypy: disable-error-code=assignment\nvalue = 1\n")
    assert _check(project) == []
    parsed = _parsed(monkeypatch)
    assert _check(project) == []
    assert "helper.py" in parsed and "main.py" not in parsed


def test_mypy_comment_text_that_is_no_setting_does_not_load_the_module(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only a line that starts with `# mypy: ` is a setting (mypy docs, "Inline
    # configuration"); the words inside a string or an indented comment are not.
    (project / "helper.py").write_text('HINT = "# mypy: strict"\nvalue = 1\n    # mypy: not-a-setting\n')
    assert _check(project) == []
    parsed = _parsed(monkeypatch)
    assert _check(project) == []
    assert [p for p in parsed if not p.endswith(".pyi")] == []


@pytest.mark.parametrize("digests, kept", [
    ({"d": ["a", "b.c"]}, True),
    ({"d": ["a", 1]}, False),  # a name that is not a string
    ({"d": "a"}, False),  # not a list
])
def test_an_import_memo_of_the_wrong_shape_is_empty(tmp_path: Path, digests: dict[str, object], kept: bool) -> None:
    from veritype.cache.store import CacheStore

    store = CacheStore(str(tmp_path))
    store.save_imports("k", digests)  # type: ignore[arg-type]
    assert store.load_imports("k") == (digests if kept else {})
    assert store.load_imports("another veritype") == {}
