"""A one-shot serial run loads each source when its turn to be checked comes
(engine/checking.py), and the import walk reads a cold run's imports from the
prefix of each source that holds them (engine/followed_imports.py), so the
whole trees of all the sources are never held at once. The answers must be
those of loading every module first."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cache.fingerprint import veritype_key
from veritype.cache.store import CacheStore
from veritype.cli.flags import options_from_argv
from veritype.engine.build import run
from veritype.engine.followed_imports import _prefix_imports, module_imports
from veritype.evaluate.program import Program
from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options


def _options(root: Path, *argv: str, cache: bool = False) -> Options:
    opts = options_from_argv(list(argv), str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / ".veritype_cache") if cache else None
    return opts


def _write(root: Path, files: dict[str, str]) -> list[BuildSource]:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return [BuildSource(str(root / name), name[:-3].replace("/", "."), str(root)) for name in files]


def _errors(result) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(f"{Path(d.path).name}:{d.line}: {d.message}" for d in result.diagnostics)


def test_each_source_is_loaded_when_its_turn_comes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sources = _write(tmp_path, {
        "a.py": "import b\n\nx: int = b.y\n",
        "b.py": "y: str = 'b'\n",
        "c.py": "z: int = ''\n",
    })
    import veritype.engine.checking as checking

    loaded_at_check: dict[str, set[str]] = {}
    original = checking.check_one

    def spy(program, info):  # type: ignore[no-untyped-def]
        loaded_at_check[info.name] = {n for n in ("a", "b", "c") if program.modules.get(n) is not None}
        return original(program, info)

    monkeypatch.setattr(checking, "check_one", spy)
    lazy = run(sources, _options(tmp_path), release_bodies=True)
    # `b` is loaded when `a`'s check asks for it; `c` waits for its turn.
    assert loaded_at_check == {"a": {"a"}, "b": {"a", "b"}, "c": {"a", "b", "c"}}
    eager = run(sources, _options(tmp_path), release_bodies=False)
    assert _errors(lazy) == _errors(eager)
    assert len(_errors(lazy)) == 2


_SOURCES = {
    "top.py": "from __future__ import annotations\nimport os\nfrom b import y\n\ndef f() -> None:\n    pass\n" + "x = 1\n" * 20,
    "handlers.py": "try:\n    import b\nexcept ImportError:\n    b = None\nelse:\n    pass\n\ndef g():\n    return 1\n" + "x = 1\n" * 20,
    "names.py": "import os\nfrom b import (\n    y,\n    y as z,\n)\n\nclass C:\n    pass\n" + "x = 1\n" * 20,
    "guarded.py": (
        "import sys\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import b\n"
        "if sys.version_info < (3, 0):\n    import old\nelse:\n    import json\n" + "x = 1\n" * 20
    ),
    "inner.py": "def f():\n    import b\n    return b\n\n" + "x = 1\n" * 20,
    "none.py": "x = 1\n",
}


@pytest.mark.parametrize("name", sorted(_SOURCES))
def test_prefix_imports_are_the_whole_parse_s(tmp_path: Path, name: str) -> None:
    sources = _write(tmp_path, {**_SOURCES, "b.py": "y = 1\n"})
    opts = _options(tmp_path)
    program = Program(opts, ModuleFinder(opts, [str(tmp_path)]))
    for src in sources:
        program.sources[src.module] = src
    module = name[:-3]
    from_prefix = _prefix_imports(program, module)
    assert module not in program.modules  # not loaded
    info = program.get_module(module)
    assert info is not None
    assert from_prefix == module_imports(program, info)


@pytest.mark.parametrize("text", [
    "# mypy: disallow-untyped-defs\nimport b\n" + "x = 1\n" * 20,  # settings known once loaded
    "import b\nx = (\nimport c\n",  # no prefix parses alone (nor does the whole file)
])
def test_where_a_prefix_cannot_tell_the_module_is_loaded(tmp_path: Path, text: str) -> None:
    sources = _write(tmp_path, {"m.py": text, "b.py": "y = 1\n"})
    opts = _options(tmp_path)
    program = Program(opts, ModuleFinder(opts, [str(tmp_path)]))
    for src in sources:
        program.sources[src.module] = src
    assert _prefix_imports(program, "m") is None


def test_a_syntax_error_below_the_imports_follows_nothing(tmp_path: Path) -> None:
    # The whole file does not parse, so it imports nothing: `helper` (not a
    # source) is not followed, though the prefix names it.
    (tmp_path / "helper.py").write_text("bad: int = 'no'\n")
    sources = _write(tmp_path, {"main.py": "import helper\n\nx = (\n"})
    for cache in (False, True):
        for release in (True, False):
            result = run(sources, _options(tmp_path, cache=cache), release_bodies=release)
            errors = _errors(result)
            assert len(errors) == 1 and errors[0].startswith("main.py:3:"), (cache, release, errors)
            assert result.files_checked == 1


def test_the_import_memo_keeps_only_whole_parses(tmp_path: Path) -> None:
    # A source whose whole parse fails has no entry in the memo, as when it
    # was loaded by the walk; one read from a prefix and loaded later has.
    sources = _write(tmp_path, {"main.py": "import os\n\nx = (\n", "ok.py": "import os\n\ny = 1\n"})
    run(sources, _options(tmp_path, cache=True), release_bodies=True)
    memo = CacheStore(str(tmp_path / ".veritype_cache")).load_imports(veritype_key())
    assert sorted(memo.values()) == [["os"]]


def test_the_prefix_parsed_by_the_walk_is_not_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # With the cache, the walk reads each file's bytes (for their digest) and
    # parses the prefix holding its imports; the module is loaded later from
    # that text, parsing only the lines after the prefix (syntax/parse.py's
    # HeadParse), and its tree and diagnostics are those of a whole parse.
    text = "import b\nfrom typing import List\n\nx: int = b.y\n" + "".join(f"z{i}: List[int] = []\n" for i in range(20))
    sources = _write(tmp_path, {"a.py": text, "b.py": "y: str = 'b'\n" + "w = 1\n" * 20})
    import veritype.syntax.parse as parse

    parsed: list[str] = []
    original = parse._parse

    def spy(source, path, feature_version):  # type: ignore[no-untyped-def]
        if path.endswith("a.py"):
            parsed.append(source)
        return original(source, path, feature_version)

    monkeypatch.setattr(parse, "_parse", spy)
    lazy = run(sources, _options(tmp_path, cache=True), release_bodies=True)
    assert len(parsed) == 2 and parsed[0] == text[: len(parsed[0])]
    assert "".join(parsed).replace("\n", "") == text.replace("\n", "")  # each line once
    monkeypatch.setattr(parse, "_parse", original)
    eager = run(sources, _options(tmp_path), release_bodies=False)
    assert _errors(lazy) == _errors(eager) == ["a.py:4: Incompatible types in assignment (expression has type \"str\", variable has type \"int\")"]
