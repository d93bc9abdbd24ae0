"""`--install-types [--non-interactive]` (veritype/cli/install_types.py), with pip replaced by a fake."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from veritype.cli import install_types as it
from veritype.cli.main import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    venv = tmp_path / "venv"
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    site.mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "python").write_text("")
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("import yaml\n\nreveal_type(yaml.safe_load)\n")
    return tmp_path


@pytest.fixture
def pip(project: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Records pip commands; "installs" a yaml-stubs package into the venv."""
    calls: list[list[str]] = []
    site = next((project / "venv" / "lib").glob("python*/site-packages"))

    def fake_run(cmd: list[str], check: bool = False) -> None:
        calls.append(cmd)
        (site / "yaml-stubs").mkdir()
        (site / "yaml-stubs" / "__init__.pyi").write_text("def safe_load(stream: str) -> object: ...\n")

    monkeypatch.setattr(it.subprocess, "run", fake_run)
    return calls


def test_non_interactive_installs_and_checks_again(project: Path, pip: list[list[str]], capsys) -> None:
    code = main(["a.py", "--install-types", "--non-interactive", "--no-incremental"])
    out = capsys.readouterr().out
    assert pip == [[str(project / "venv" / "bin" / "python"), "-m", "pip", "install", "types-PyYAML"]]
    assert out.startswith("Installing missing stub packages:\n")
    assert "import-untyped" not in out  # only the second run is shown
    assert 'Revealed type is "def (stream: str) -> object"' in out
    assert code == 0


def test_nothing_missing_installs_nothing(project: Path, pip: list[list[str]], capsys) -> None:
    (project / "a.py").write_text("x = 1\n")
    assert main(["a.py", "--install-types", "--non-interactive", "--no-incremental"]) == 0
    assert pip == [] and "Installing" not in capsys.readouterr().out


def test_interactive_yes(project: Path, pip: list[list[str]], capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    code = main(["a.py", "--install-types", "--no-incremental"])
    out = capsys.readouterr().out
    assert code == 2 and len(pip) == 1
    assert "import-untyped" in out and "Install? [yN] " in out
    assert out.rstrip().endswith("note: Run veritype again for up-to-date results with installed types")


def test_interactive_no(project: Path, pip: list[list[str]], capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["a.py", "--install-types", "--no-incremental"]) == 2
    assert pip == [] and "Skipping installation" in capsys.readouterr().out


def test_non_interactive_alone_is_a_usage_error(project: Path, capsys) -> None:
    assert main(["a.py", "--non-interactive"]) == 2
    assert "--non-interactive is only supported with --install-types" in capsys.readouterr().err


def test_python_executable_is_the_target(project: Path) -> None:
    from veritype.options import Options

    assert it.install_command(Options(python_executable="/x/python"), ["types-a"]) == [
        "/x/python", "-m", "pip", "install", "types-a",
    ]
