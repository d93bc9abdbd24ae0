"""--python-executable with real virtual environments (veritype.modules.environment).

A venv's ``bin/python`` is a symlink to its base interpreter, as is the
python of the venv veritype runs in: a target venv made from the same base
must still be asked for its own site-packages (repro:
shared/false-positive-repros/python_executable_venv.py). The target
interpreter runs isolated (``-I``) from a neutral directory, so no module of
the checked project is ever imported.
"""

from __future__ import annotations

import sys
import venv
from pathlib import Path

import pytest

from veritype.cli.main import main


def make_venv(path: Path, packages: dict[str, str]) -> Path:
    """A real venv (no pip: fast) from the base interpreter of ours, with typed packages."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(path)
    python = path / "bin" / "python"
    (site,) = (path / "lib").glob("python*/site-packages")
    for name, text in packages.items():
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(text)
        (site / name / "py.typed").write_text("")
    return python


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    (root / ".git").mkdir()
    (root / "mypy.ini").write_text("[mypy]\n")
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.chdir(root)
    return root


def check(capsys, *argv: str) -> tuple[int, str]:
    code = main(["check", "--no-incremental", "--hide-column-numbers", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_two_venvs_from_the_same_base_each_give_their_own_packages(project: Path, tmp_path: Path,
                                                                   capsys) -> None:
    one = make_venv(tmp_path / "one", {"only_in_one": "VALUE: int = 1\n"})
    two = make_venv(tmp_path / "two", {"only_in_two": "VALUE: str = ''\n"})
    (project / "app.py").write_text(
        "import only_in_one\n"
        "reveal_type(only_in_one.VALUE)\n"
    )
    code, out = check(capsys, "--python-executable", str(one), "app.py")
    assert "import-not-found" not in out and 'Revealed type is "int"' in out, out

    (project / "app.py").write_text("import only_in_two\nimport only_in_one\n")
    code, out = check(capsys, "--python-executable", str(two), "app.py")
    assert code == 1
    assert out.splitlines()[0] == (
        'app.py:2: error: Cannot find implementation or library stub for module named'
        ' "only_in_one"  [import-not-found]'), out
    assert "only_in_two" not in out


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_our_own_site_packages_are_not_read_for_another_venv(project: Path, tmp_path: Path,
                                                             capsys) -> None:
    # pytest (typed) is installed where the tests run, not in the target.
    target = make_venv(tmp_path / "target", {})
    (project / "app.py").write_text("import pytest\n")
    code, out = check(capsys, "--python-executable", str(target), "app.py")
    assert code == 1 and '"pytest"  [import-not-found]' in out, out
    code, out = check(capsys, "--python-executable", sys.executable, "app.py")
    assert code == 0, out


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_the_target_interpreter_never_imports_project_code(project: Path, tmp_path: Path,
                                                           capsys) -> None:
    target = make_venv(tmp_path / "isolated", {"lib_here": ""})
    marker = tmp_path / "imported"
    # Modules the path query imports, shadowed in the project directory.
    for name in ("json", "site", "sysconfig", "os"):
        (project / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write('{name}')\nraise SystemExit(7)\n")
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("import lib_here\n")
    code, out = check(capsys, "--python-executable", str(target), "src/app.py")
    assert not marker.exists()
    assert code == 0, out
