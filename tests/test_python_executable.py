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


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_a_relative_python_executable_is_relative_to_the_current_directory(project: Path, capsys) -> None:
    # As in mypy, which runs the interpreter from where it was started; the
    # query itself runs from a neutral directory, so the path is made absolute.
    make_venv(project / "env", {"only_here": "VALUE: int = 1\n"})
    (project / "app.py").write_text("import only_here\nreveal_type(only_here.VALUE)\n")
    code, out = check(capsys, "--python-executable", "env/bin/python", "app.py")
    assert 'Revealed type is "int"' in out and "import-not-found" not in out, out


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The interpreters started by the path query (its answers still given)."""
    from veritype.modules import environment

    asked: list[str] = []
    real = environment._ask

    def spy(executable: str, given: str) -> list[str]:
        asked.append(given)
        return real(executable, given)

    monkeypatch.setattr(environment, "_ask", spy)
    return asked


def _cached_check(capsys, python: Path) -> tuple[int, str]:
    from veritype.modules.environment import environment_cache_clear, interpreter_site_dirs

    interpreter_site_dirs.cache_clear()  # a new process: only the cache directory remembers
    environment_cache_clear()
    code = main(["check", "--cache-dir", "c", "--hide-column-numbers", "--python-executable", str(python), "app.py"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_the_interpreter_is_asked_once_while_its_environment_is_unchanged(
        project: Path, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    from veritype.modules import interpreter_memo

    monkeypatch.setattr(interpreter_memo, "RACY_NS", -(10**18))  # the venv was made just now
    python = make_venv(tmp_path / "env", {"only_here": "VALUE: int = 1\n"})
    (project / "app.py").write_text("import only_here\nreveal_type(only_here.VALUE)\n")
    asked = _asked(monkeypatch)
    first = _cached_check(capsys, python)
    assert 'Revealed type is "int"' in first[1] and len(asked) == 1
    assert _cached_check(capsys, python) == first and len(asked) == 1
    # The venv made again (its pyvenv.cfg rewritten): asked again.
    cfg = tmp_path / "env" / "pyvenv.cfg"
    cfg.write_text(cfg.read_text() + "\n")
    assert _cached_check(capsys, python) == first and len(asked) == 2


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout of POSIX")
def test_a_just_made_environment_is_asked_every_time(project: Path, tmp_path: Path, capsys,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Its files changed within the timestamp tick of a coarse file system:
    # their stats cannot yet tell a venv made again from this one.
    python = make_venv(tmp_path / "env", {"only_here": "VALUE: int = 1\n"})
    (project / "app.py").write_text("import only_here\n")
    asked = _asked(monkeypatch)
    _cached_check(capsys, python)
    _cached_check(capsys, python)
    assert len(asked) == 2
