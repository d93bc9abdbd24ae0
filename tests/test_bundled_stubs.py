"""Stubs veritype bundles for third-party packages, as mypy does (mypy_extensions).

mypy ships typeshed's stubs for `mypy_extensions` with itself, so a project
that imports it (an untyped install: no py.typed) is checked without
`import-untyped` and its `@mypyc_attr`/`@trait` decorators are typed. Repro:
shared/false-positive-repros/mypy_extensions_stubs.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.modules.finder import FoundModule, ModuleFinder
from veritype.options import Options


def make(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def test_an_untyped_install_gives_way_to_the_bundled_stubs(tmp_path: Path) -> None:
    make(tmp_path / "site", {"mypy_extensions/__init__.py": ""})
    finder = ModuleFinder(Options(site_packages=[str(tmp_path / "site")]), [])
    hit = finder.find("mypy_extensions")
    assert isinstance(hit, FoundModule) and hit.origin == "bundled" and hit.is_stub


def test_the_bundled_stubs_serve_without_an_install(tmp_path: Path) -> None:
    hit = ModuleFinder(Options(site_packages=[]), []).find("mypy_extensions")
    assert isinstance(hit, FoundModule) and hit.origin == "bundled"


def test_a_typed_install_comes_first(tmp_path: Path) -> None:
    make(tmp_path / "site", {"mypy_extensions/__init__.py": "", "mypy_extensions/py.typed": ""})
    hit = ModuleFinder(Options(site_packages=[str(tmp_path / "site")]), []).find("mypy_extensions")
    assert isinstance(hit, FoundModule) and hit.origin == "site"


def test_decorators_from_mypy_extensions_are_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys) -> None:
    make(tmp_path, {
        ".git/HEAD": "",
        "mypy.ini": "[mypy]\nstrict = True\n",
        "venv/lib/python3.11/site-packages/mypy_extensions/__init__.py": "",
        "app.py": (
            "from mypy_extensions import i64, mypyc_attr, trait\n"
            "\n"
            "@mypyc_attr(patchable=True)\n"
            "def out(message: str) -> None:\n"
            "    print(message)\n"
            "\n"
            "@trait\n"
            "class Base:\n"
            "    pass\n"
            "\n"
            "n: i64 = 5\n"
            "m: int = n + 1\n"
            "reveal_type(out)\n"
        ),
    })
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "venv"))  # an untyped install
    code = main(["check", "--no-incremental", "--hide-column-numbers", "app.py"])
    out, _ = capsys.readouterr()
    assert out.splitlines()[0] == 'app.py:13: note: Revealed type is "def (message: str) -> None"', out
    assert code == 0, out
