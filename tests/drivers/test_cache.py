"""The incremental cache (veritype/cache): reuse only what nothing invalidated."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from veritype.engine.build import run
from veritype.cli.flags import options_from_argv
from veritype.modules.sources import BuildSource
from veritype.options import Options
from tests.drivers import cache_rows

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
    # `later` is not listed, but follow_imports=normal (mypy's default) checks a
    # followed module too; nothing else is checked again.
    assert sorted(checked) == ["later", "uses"]
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


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_corrupt_cache_is_ignored(project: Path, checked: list[str], layout: str) -> None:
    flags = cache_rows.flags(layout)
    cold = run(sources(project), options(project, *flags))
    cache = project / ".veritype_cache"
    garbage = [b"", b"{not json", b"[]", b'{"key": 1, "deps": {}, "diagnostics": []}', b"\xff\xfe"]
    # The summary of the whole run too (else it answers for the entries: cache/run_summary.py).
    for name, junk in zip(sorted(cache_rows.rows(cache, layout)), garbage):
        cache_rows.write(cache, layout, name, junk)
    cache_rows.write(cache, layout, "run.json", b"")
    checked.clear()
    again = run(sources(project), options(project, *flags))
    assert len(checked) == 4 and again.diagnostics == cold.diagnostics
    # and the rewritten entries are good again
    checked.clear()
    assert run(sources(project), options(project, *flags)).reused == 4


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_every_byte_flip_of_an_entry_is_a_miss_or_harmless(project: Path, checked: list[str], layout: str) -> None:
    """Entries carry a checksum: a flipped byte that still parses as JSON
    (a line number, a message) must not change what the next run prints."""
    flags = cache_rows.flags(layout)
    cold = run(sources(project), options(project, *flags))
    cache = project / ".veritype_cache"
    name, original = max(cache_rows.entries(cache, layout).items(), key=lambda item: len(item[1]))
    cache_rows.delete(cache, layout, "run.json")  # else it answers for the entries (cache/run_summary.py)
    for i in range(0, len(original), max(1, len(original) // 60)):
        flipped = original[:i] + chr(ord(original[i]) ^ 0x01) + original[i + 1:]
        cache_rows.write(cache, layout, name, flipped)
        assert run(sources(project), options(project, *flags)).diagnostics == cold.diagnostics, f"byte {i}"
        cache_rows.write(cache, layout, name, original)
        cache_rows.delete(cache, layout, "run.json")


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


def test_an_import_never_loaded_counts_by_where_it_resolves(tmp_path: Path, checked: list[str]) -> None:
    # `old` is imported only on a branch the target never runs: no check
    # reads it, so its entry records where it resolves, not its interface
    # (cache/closures.UNLOADED). An edit to it re-checks nothing; its removal
    # (it resolves elsewhere: nowhere) re-checks the importer.
    root = tmp_path / "proj"
    root.mkdir()
    write(root, {"old.py": "def h() -> int:\n    return 1\n",
                 "main.py": "import sys\nif sys.version_info < (3, 0):\n    import old\nx: int = ''\n"})
    srcs = [BuildSource(str(root / "main.py"), "main", str(root))]
    first = run(srcs, options(root))
    assert [d.code for d in first.diagnostics] == ["assignment"] and checked == ["main"]
    write(root, {"old.py": "def h() -> str:\n    return ''\n"})
    checked.clear()
    assert run(srcs, options(root)).diagnostics == first.diagnostics and checked == []
    (root / "old.py").unlink()
    assert run(srcs, options(root)).diagnostics == first.diagnostics and checked == ["main"]


# -- interface fingerprints: a dependency counts by what importers can see ----

SHAPES = {
    "shapes.py": '''"""Shapes."""
from typing import AsyncIterator

g = 1


def area(x: int) -> int:
    """The area."""
    return x * x  # squared


class C:
    a = 1

    def __init__(self, v: int | None) -> None:
        if v is None:
            v = 0
        self.b = v

    def size(self) -> int:
        return 1


async def agen() -> AsyncIterator[int]:
    yield 1
''',
    "use.py": '''import shapes
from shapes import C, area, agen
reveal_type(shapes.g)
reveal_type(area(2))
reveal_type(C.a)
reveal_type(C(None).b)
reveal_type(agen())
''',
}

SHAPES_REVEALED = ['"int"', '"int"', '"int"', '"int"', '"AsyncIterator[int]"']


def revealed(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [d.message.removeprefix("Revealed type is ") for d in result.diagnostics if d.path.endswith("use.py")]


@pytest.fixture
def shapes(tmp_path: Path) -> Path:
    root = tmp_path / "shapes_proj"
    root.mkdir()
    write(root, SHAPES)
    return root


def edit(root: Path, old: str, new: str) -> None:
    text = (root / "shapes.py").read_text()
    assert text.count(old) == 1, old
    (root / "shapes.py").write_text(text.replace(old, new))


@pytest.mark.parametrize(
    "old,new",
    [
        ("    return x * x  # squared\n", "    y = x + 1\n\n    # a new comment\n    return y * x\n"),  # a body, lines added
        ('"""The area."""', '"""The area of a square.\n\n    More words.\n    """'),  # a docstring
        ('"""Shapes."""', "# a module comment\n"),  # the module docstring
        ("        return 1\n", "        return 2  # type: ignore\n"),  # a method body without self.x
        ("    yield 1\n", "    yield 2\n    yield 3\n"),  # still a generator
    ],
)
def test_body_edit_in_dependency_rechecks_only_it(shapes: Path, checked: list[str], old: str, new: str) -> None:
    cold = run(sources(shapes), options(shapes))
    assert revealed(cold) == SHAPES_REVEALED
    checked.clear()
    edit(shapes, old, new)
    warm = run(sources(shapes), options(shapes))
    assert checked == ["shapes"] and warm.reused == 1
    assert revealed(warm) == revealed(cold)
    # and the reused result is what a cold run gives
    assert run(sources(shapes), options(shapes, "--no-incremental")).diagnostics == warm.diagnostics


@pytest.mark.parametrize(
    "old,new,index,now",
    [
        ("g = 1", "g = ''", 0, '"str"'),  # a module-level assignment
        ("def area(x: int) -> int:", "def area(x: int) -> str:", 1, '"str"'),  # a signature
        ("    a = 1\n", "    a = ''\n", 2, '"str"'),  # a class attribute
        ("        self.b = v\n", "        self.b = str(v)\n", 3, '"str"'),  # `self.x =` in __init__
        # the method walker reads the whole method: the narrowing decides b's type
        ("        if v is None:\n            v = 0\n", "", 3, '"int | None"'),
        ("    yield 1\n", "    raise NotImplementedError\n", 4, '"Coroutine[Any, Any, AsyncIterator[int]]"'),  # no yield: a coroutine
    ],
)
def test_interface_edit_in_dependency_rechecks_importers(shapes: Path, checked: list[str], old: str, new: str, index: int, now: str) -> None:
    run(sources(shapes), options(shapes))
    checked.clear()
    edit(shapes, old, new)
    warm = run(sources(shapes), options(shapes))
    assert sorted(checked) == ["shapes", "use"] and warm.reused == 0
    expected = list(SHAPES_REVEALED)
    expected[index] = now
    assert revealed(warm) == expected
    assert run(sources(shapes), options(shapes, "--no-incremental")).diagnostics == warm.diagnostics


def test_adding_a_yield_rechecks_importers(shapes: Path, checked: list[str]) -> None:
    edit(shapes, "    yield 1\n", "    raise NotImplementedError\n")
    run(sources(shapes), options(shapes))
    checked.clear()
    edit(shapes, "    raise NotImplementedError\n", "    raise NotImplementedError\n    yield 1\n")
    warm = run(sources(shapes), options(shapes))
    assert sorted(checked) == ["shapes", "use"]
    assert revealed(warm) == SHAPES_REVEALED


def test_type_comment_signature_is_interface(tmp_path: Path, checked: list[str]) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    write(root, {"dep.py": "def f(a):  # type: (int) -> int\n    return a  # a comment\n", "main.py": "from dep import f\nreveal_type(f(1))\n"})
    run(sources(root), options(root))
    checked.clear()
    write(root, {"dep.py": "def f(a):  # type: (int) -> int\n    # another comment\n    return a\n"})
    run(sources(root), options(root))
    assert checked == ["dep"]
    checked.clear()
    write(root, {"dep.py": "def f(a):  # type: (int) -> str\n    return str(a)\n"})
    result = run(sources(root), options(root))
    assert sorted(checked) == ["dep", "main"]
    assert [d.message for d in result.diagnostics] == ['Revealed type is "str"']


def test_interface_digest_unit() -> None:
    from veritype.cache.interface import interface_digest

    base = 'X: Literal[(1, 2)]\nS = """a\n\nb"""\n'
    assert interface_digest(base) != interface_digest(base.replace("(1, 2)", "1, 2"))  # positions inside a statement count
    assert interface_digest(base) != interface_digest(base.replace("\n\nb", "\nb"))  # a string's text counts
    assert interface_digest(base) == interface_digest("\n# c\n" + base.replace("\n", "\r\n"))
    assert interface_digest("def f(:\n").startswith("full:")  # what does not parse counts in full


def _read_memo(path: Path) -> dict:  # type: ignore[type-arg]
    import json

    return json.loads(path.read_text().partition("\n")[2])


def _write_memo(path: Path, memo: object) -> None:
    """A memo as the store writes it: a checksum line, then the JSON."""
    import json

    from veritype.cache.fingerprint import digest_text

    payload = json.dumps(memo)
    path.write_text(digest_text(payload) + "\n" + payload)


def test_interface_memo_is_kept_and_trusted_only_for_its_key(shapes: Path, checked: list[str]) -> None:
    run(sources(shapes), options(shapes, "--no-sqlite-cache"))  # a memo file to forge (the layouts share the memo code)
    memo_path = shapes / ".veritype_cache" / "v1" / "interfaces.json"
    memo = _read_memo(memo_path)
    assert len(memo["digests"]) == 1  # shapes.py, the one dependency
    # The memo is read: a (forged) different answer for unchanged bytes makes
    # the dependency look changed.
    _write_memo(memo_path, {"key": memo["key"], "digests": {k: "iface:forged" for k in memo["digests"]}})
    checked.clear()
    run(sources(shapes), options(shapes, "--no-sqlite-cache"))
    assert checked == ["use"]
    # A memo written by another veritype is not trusted: a forged answer
    # that would hide an interface change is ignored.
    forged = {k: "iface:forged" for k in memo["digests"]}
    _write_memo(memo_path, {"key": "another veritype", "digests": forged})
    edit(shapes, "g = 1", "g = ''")
    checked.clear()
    result = run(sources(shapes), options(shapes, "--no-sqlite-cache"))
    assert sorted(checked) == ["shapes", "use"]
    assert revealed(result)[0] == '"str"'


@pytest.mark.parametrize("layout", cache_rows.LAYOUTS)
def test_a_memo_that_fails_its_checksum_is_not_read(shapes: Path, checked: list[str], layout: str) -> None:
    flags = cache_rows.flags(layout)
    run(sources(shapes), options(shapes, *flags))
    cache = shapes / ".veritype_cache"
    text = cache_rows.rows(cache, layout)["interfaces.json"]
    memo = json.loads(text.partition("\n")[2])
    # The forged answer of the test above, but the checksum line is the old
    # one (a byte flipped on disk): the memo is not read, nothing is checked.
    checksum, _, payload = text.partition("\n")
    payload = payload.replace(next(iter(memo["digests"].values())), "iface:forged")
    cache_rows.write(cache, layout, "interfaces.json", checksum + "\n" + payload)
    checked.clear()
    run(sources(shapes), options(shapes, *flags))
    assert checked == []


def test_a_released_module_is_digested_from_the_checks_parse(shapes: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A one-shot run empties a checked module's function bodies (engine/release.py);
    # its interface digest is taken before, from the check's own tree: no second
    # parse of the file, and the same digest as from the file's text.
    from veritype.cache import interface

    trees: list[bool] = []
    real = interface.interface_text

    def spy(source: str, tree: object = None, *rest: object) -> str:
        trees.append(tree is not None)
        return real(source, tree, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(interface, "interface_text", spy)
    result = run(sources(shapes), options(shapes), release_bodies=True)
    assert revealed(result) == SHAPES_REVEALED
    assert trees and all(trees)
    memo = json.loads(cache_rows.rows(shapes / ".veritype_cache", "sqlite")["interfaces.json"].partition("\n")[2])
    # shapes.py, the one dependency (use.py's early digest is not kept: nobody asked)
    assert list(memo["digests"].values()) == [interface.interface_digest((shapes / "shapes.py").read_text())]
