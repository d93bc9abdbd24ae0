"""follow_imports=normal (mypy's default): the project modules a checked file
imports are checked too and their errors reported, though not named on the
command line; `silent` checks them without reporting. Output compared with
mypy 2.4.1 on the same files (order aside: mypy prints dependencies first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.main import main


def _write_project(root: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> Path:
    """A git project at `root` (the current directory) holding `files`, with
    no virtual environment and no MYPYPATH."""
    (root / ".git").mkdir()
    monkeypatch.chdir(root)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.setenv("VIRTUAL_ENV", str(root / "novenv"))
    monkeypatch.setenv("MYPYPATH", "")
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _write_project(tmp_path, monkeypatch, {
        "a.py": (
            "import sys\nimport b\nimport pkg.c\nx: int = b.y\n"
            "if sys.version_info < (3, 0):\n    import old\n"
            'if sys.platform == "win32":\n    import winonly\n'
            "import yaml_like\n"
        ),
        "b.py": 'y: str = 1\n',
        "pkg/__init__.py": "",
        "pkg/c.py": 'z: int = ""\n',
        "old.py": 'x: int = ""\n',  # only imported where it cannot run
        "winonly.py": 'x: int = ""\n',
        "site/yaml_like/__init__.py": 'bad: int = ""\n',
        "site/yaml_like/py.typed": "",
    })


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    # An installed, typed package (PEP 561) is followed silently, as in mypy.
    main(["a.py", "--no-incremental", "--hide-column-numbers", "--platform", "linux", *argv])
    return capsys.readouterr().out.splitlines()


def _site(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import veritype.modules.environment as environment

    monkeypatch.setattr(environment, "base_site_dirs", lambda options: [str(project / "site")])
    environment.environment_cache_clear()


def test_normal_reports_errors_in_followed_modules(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    _site(project, monkeypatch)
    assert sorted(run(capsys)) == sorted([
        'a.py:4: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
        'b.py:1: error: Incompatible types in assignment (expression has type "int", variable has type "str")  [assignment]',
        'pkg/c.py:1: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
        "Found 3 errors in 3 files (checked 1 source file)",
    ])


def test_silent_and_per_module_settings(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    _site(project, monkeypatch)
    lines = run(capsys, "--follow-imports", "silent")
    assert lines[-1] == "Found 1 error in 1 file (checked 1 source file)"
    (project / "mypy.ini").write_text("[mypy]\n[mypy-pkg.*]\nfollow_imports = silent\n")
    lines = run(capsys)
    assert not any(line.startswith("pkg/") for line in lines)
    assert any(line.startswith("b.py:1: error:") for line in lines)
    assert lines[-1] == "Found 2 errors in 2 files (checked 1 source file)"


def test_followed_modules_come_from_the_cache_too(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    _site(project, monkeypatch)
    main(["a.py", "--hide-column-numbers", "--platform", "linux"])
    cold = capsys.readouterr().out
    main(["a.py", "--hide-column-numbers", "--platform", "linux"])
    assert capsys.readouterr().out == cold and "b.py:1: error:" in cold


def test_imports_nested_anywhere_are_followed(tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    # An import in a method, a branch, a continued line: followed wherever it
    # stands (engine/followed_imports.py skips only statements whose lines
    # hold no `import`, and what they nest).
    _write_project(tmp_path, monkeypatch, {
        "a.py": (
            "import sys\n"
            "class C:\n"
            "    x = (\n        1)\n"
            "    def m(self) -> None:\n"
            "        y = [\n            2]\n"
            "        if sys.platform == 'linux':\n"
            "            from inner \\\n                import v\n"
            "def later() -> None:\n"
            "    try:\n        pass\n"
            "    except ImportError:\n        pass\n"
            "    else:\n"
            "        import other\n"
        ),
        "inner.py": 'v: int = ""\n',
        "other.py": 'w: str = 1\n',
    })
    lines = run(capsys)
    assert [line.split(":")[0] for line in lines[:-1]] == ["inner.py", "other.py"]
    assert lines[-1] == "Found 2 errors in 2 files (checked 1 source file)"
