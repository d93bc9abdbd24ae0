"""Source discovery: paths, directories, -m and -p (veritype.modules.discover)."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.modules.discover import (
    DiscoveryError,
    module_for_path,
    source_for_module,
    sources_for_package,
    sources_from_paths,
)
from veritype.options import Options


def make(root: Path, files: list[str]) -> None:
    for rel in files:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("")


def mods(sources) -> list[tuple[str, str]]:
    return sorted((s.module, s.path) for s in sources)


def test_directory_walk_and_module_names(tmp_path: Path) -> None:
    make(
        tmp_path,
        [
            "proj/top.py",
            "proj/pkg/__init__.py",
            "proj/pkg/a.py",
            "proj/pkg/sub/__init__.py",
            "proj/pkg/sub/b.py",
            "proj/pkg/stubbed.py",
            "proj/pkg/stubbed.pyi",
            "proj/.hidden/x.py",
            "proj/__pycache__/y.py",
            "proj/.venv/lib/z.py",
            "proj/venv/lib/z.py",
            "proj/node_modules/q.py",
            "proj/notes.txt",
        ],
    )
    sources = sources_from_paths(["proj"], Options(), cwd=str(tmp_path))
    assert mods(sources) == [
        ("pkg", "proj/pkg/__init__.py"),
        ("pkg.a", "proj/pkg/a.py"),
        ("pkg.stubbed", "proj/pkg/stubbed.pyi"),
        ("pkg.sub", "proj/pkg/sub/__init__.py"),
        ("pkg.sub.b", "proj/pkg/sub/b.py"),
        ("top", "proj/top.py"),
    ]
    assert {s.base_dir for s in sources} == {str(tmp_path / "proj")}


def test_file_inside_package_gets_dotted_name(tmp_path: Path) -> None:
    make(tmp_path, ["src/pkg/__init__.py", "src/pkg/inner/__init__.py", "src/pkg/inner/m.py"])
    [s] = sources_from_paths(["src/pkg/inner/m.py"], Options(), cwd=str(tmp_path))
    assert (s.module, s.base_dir) == ("pkg.inner.m", str(tmp_path / "src"))


def test_namespace_directory_inside_a_package_is_part_of_the_name(tmp_path: Path) -> None:
    # mypy's rule (find_sources crawl-up): with namespace packages on, a
    # directory without __init__ below a regular package belongs to it, so
    # `from .. import helpers` in pkg/sub/app.py resolves (repro
    # relative_import_namespace_subpkg). Without a package above, the
    # directory stays the source root.
    make(tmp_path, ["proj/pkg/__init__.py", "proj/pkg/helpers.py", "proj/pkg/sub/deeper/app.py",
                    "proj/pkg/sub/app.py", "proj/loose/dir/script.py", "proj/my-pkg/__init__.py",
                    "proj/my-pkg/mod.py", "proj/types-stubs/__init__.pyi"])
    proj = tmp_path / "proj"
    assert module_for_path(str(proj / "pkg/sub/app.py"), Options(), str(tmp_path)) == (
        "pkg.sub.app", str(proj))
    assert module_for_path(str(proj / "pkg/sub/deeper/app.py"), Options(), str(tmp_path)) == (
        "pkg.sub.deeper.app", str(proj))
    assert module_for_path(str(proj / "loose/dir/script.py"), Options(), str(tmp_path)) == (
        "script", str(proj / "loose/dir"))
    # Not an identifier: not a package name, the source root.
    assert module_for_path(str(proj / "my-pkg/mod.py"), Options(), str(tmp_path)) == (
        "mod", str(proj / "my-pkg"))
    # A stub-only package directory names the package it stubs.
    assert module_for_path(str(proj / "types-stubs/__init__.pyi"), Options(), str(tmp_path)) == (
        "types", str(proj))
    no_ns = Options(namespace_packages=False)
    assert module_for_path(str(proj / "pkg/sub/app.py"), no_ns, str(tmp_path)) == (
        "app", str(proj / "pkg/sub"))
    sources = sources_from_paths(["proj/pkg"], Options(), cwd=str(tmp_path))
    assert [s.module for s in sorted(sources, key=lambda s: s.module)] == [
        "pkg", "pkg.helpers", "pkg.sub.app", "pkg.sub.deeper.app"]


def test_relative_imports_in_a_namespace_subpackage(tmp_path: Path, monkeypatch, capsys) -> None:
    from veritype.cli.main import main

    files = {
        "pkg/__init__.py": "",
        "pkg/helpers.py": "def get_root_path(name: str) -> str:\n    return name\n",
        "pkg/sub/app.py": ("from .. import helpers\nfrom ..helpers import get_root_path\n"
                           "reveal_type(get_root_path('x'))\nreveal_type(helpers)\n"),
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / ".git").mkdir()
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    monkeypatch.chdir(tmp_path)
    for target in (["pkg"], ["pkg/sub/app.py"]):
        code = main(["check", "--no-incremental", "--hide-column-numbers", *target])
        out, _ = capsys.readouterr()
        assert code == 0, out
        assert 'pkg/sub/app.py:3: note: Revealed type is "str"' in out, out


def test_explicit_package_bases(tmp_path: Path) -> None:
    make(tmp_path, ["src/ns/inner/m.py"])
    options = Options(explicit_package_bases=True, mypy_path=[str(tmp_path / "src")])
    assert module_for_path(str(tmp_path / "src/ns/inner/m.py"), options, str(tmp_path)) == (
        "ns.inner.m",
        str(tmp_path / "src"),
    )
    # Without it, a directory without __init__ is a source root.
    assert module_for_path(str(tmp_path / "src/ns/inner/m.py"), Options(), str(tmp_path))[0] == "m"


def test_excludes_apply_to_walks_not_to_named_files(tmp_path: Path) -> None:
    make(tmp_path, ["p/keep.py", "p/build/gen.py", "p/old_x.py"])
    options = Options(exclude=["/build/", r"old_.*\.py$"])
    assert mods(sources_from_paths(["p"], options, cwd=str(tmp_path))) == [("keep", "p/keep.py")]
    assert mods(sources_from_paths(["p/old_x.py"], options, cwd=str(tmp_path))) == [("old_x", "p/old_x.py")]


def test_duplicates_checked_once(tmp_path: Path) -> None:
    make(tmp_path, ["a.py"])
    assert len(sources_from_paths(["a.py", "./a.py", str(tmp_path / "a.py")], Options(), cwd=str(tmp_path))) == 1


def test_paths_outside_cwd_stay_absolute(tmp_path: Path) -> None:
    make(tmp_path, ["outside/a.py", "here/.keep"])
    [s] = sources_from_paths([str(tmp_path / "outside" / "a.py")], Options(), cwd=str(tmp_path / "here"))
    assert s.path == str(tmp_path / "outside" / "a.py")


@pytest.mark.parametrize(
    "files,target,fragment",
    [
        ([], "missing.py", "No such file"),
        (["empty/readme.txt"], "empty", "no .py or .pyi files"),
        (["only/.hidden/x.py"], "only", "no .py or .pyi files"),
    ],
)
def test_bad_paths(tmp_path: Path, files: list[str], target: str, fragment: str) -> None:
    make(tmp_path, files)
    (tmp_path / "empty").mkdir(exist_ok=True)
    with pytest.raises(DiscoveryError, match=fragment):
        sources_from_paths([target], Options(), cwd=str(tmp_path))


def test_bad_exclude_regex(tmp_path: Path) -> None:
    make(tmp_path, ["a.py"])
    with pytest.raises(DiscoveryError, match="invalid exclude"):
        sources_from_paths(["."], Options(exclude=["("]), cwd=str(tmp_path))


def test_module_and_package_targets(tmp_path: Path) -> None:
    make(tmp_path, ["pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "pkg/sub/b.py", "solo.py"])
    options = Options(site_packages=[])
    s = source_for_module("pkg.a", options, cwd=str(tmp_path))
    assert (s.module, s.path, s.base_dir) == ("pkg.a", "pkg/a.py", str(tmp_path))
    assert source_for_module("solo", options, cwd=str(tmp_path)).path == "solo.py"
    assert [m for m, _ in mods(sources_for_package("pkg", options, cwd=str(tmp_path)))] == [
        "pkg",
        "pkg.a",
        "pkg.sub",
        "pkg.sub.b",
    ]
    with pytest.raises(DiscoveryError, match="can't find module 'nope'"):
        source_for_module("nope", options, cwd=str(tmp_path))
    with pytest.raises(DiscoveryError, match="can't find package"):
        sources_for_package("nope", options, cwd=str(tmp_path))


def test_namespace_package_target(tmp_path: Path) -> None:
    make(tmp_path, ["ns/a.py", "ns/deeper/b.py"])
    sources = sources_for_package("ns", Options(site_packages=[]), cwd=str(tmp_path))
    assert [m for m, _ in mods(sources)] == ["ns.a", "ns.deeper.b"]


def test_checked_module_shadowing_the_stdlib_is_refused(tmp_path: Path) -> None:
    from veritype.modules.discover import sources_from_targets

    make(tmp_path, ["proj/types.py", "proj/pkg/__init__.py", "proj/pkg/types.py"])
    with pytest.raises(DiscoveryError, match="shadows the standard-library module 'types'"):
        sources_from_targets(["proj"], [], [], Options(), cwd=str(tmp_path))
    # Inside a package the name is pkg.types: no clash.
    assert len(sources_from_targets(["proj/pkg"], [], [], Options(), cwd=str(tmp_path))) == 2
