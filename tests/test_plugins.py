"""`plugins`: a mypy plugin veritype finds is named in the `not enforced`
warning; one that mypy could not import either stops the run with mypy's
blocking error (stderr), its summary line, and exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.cli.plugins import missing_prefix


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.py").write_text("x: int = 1\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["a.py", "--no-incremental", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_unimportable_plugin_is_mypys_error(project: Path, capsys) -> None:
    (project / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["nosuch.plugin"]\n')
    code, out, err = run(capsys)
    assert code == 2
    assert err.splitlines() == [
        "pyproject.toml:1: error: Error importing plugin \"nosuch.plugin\": No module named 'nosuch'  [misc]"
    ]
    assert out == "Found 1 error in 1 file (errors prevented further checking)\n"


def test_missing_submodule_and_ini_line(project: Path, capsys) -> None:
    (project / "mypy.ini").write_text("[mypy]\nstrict = True\nplugins =\n  jsonschema.nosuch:plugin\n")
    code, _, err = run(capsys)
    assert code == 2
    # The INI key's line, the first missing module as Python names it; the entry point is not a module.
    assert "mypy.ini:3: error: Error importing plugin \"jsonschema.nosuch\": No module named 'jsonschema.nosuch'" in err


def test_plugin_file_path(project: Path, capsys) -> None:
    (project / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["tools/myplugin.py"]\n')
    code, _, err = run(capsys)
    assert code == 2 and 'Can\'t find plugin "tools/myplugin.py"' in err
    (project / "tools").mkdir()
    (project / "tools" / "myplugin.py").write_text("raise SystemExit('never run')\n")
    code, _, err = run(capsys)
    assert code == 0 and "not enforced: plugins=tools/myplugin.py" in err


def test_importable_plugin_is_warned(project: Path, capsys) -> None:
    # Found in the config's directory and in site-packages, never imported.
    (project / "localplugin").mkdir()
    (project / "localplugin" / "__init__.py").write_text("raise SystemExit('never run')\n")
    (project / "pyproject.toml").write_text('[tool.mypy]\nplugins = ["localplugin", "jsonschema.validators"]\n')
    code, out, err = run(capsys)
    assert code == 0 and out.startswith("Success")
    assert "veritype: warning: not enforced: plugins=localplugin,jsonschema.validators" in err


def test_missing_prefix(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "sub" / "mod.py").write_text("")
    (tmp_path / "ext.cpython-311-x86_64-linux-gnu.so").write_text("")
    roots = [str(tmp_path)]
    assert missing_prefix("pkg.sub.mod", roots, {}) is None
    assert missing_prefix("ext", roots, {}) is None
    assert missing_prefix("pkg.other", roots, {}) == "pkg.other"
    assert missing_prefix("nope.x", roots, {}) == "nope"
    assert missing_prefix("edit.mod", [], {"edit": str(tmp_path / "pkg" / "sub")}) is None
    assert missing_prefix("edit.nope", [], {"edit": str(tmp_path / "pkg" / "sub")}) == "edit.nope"
    assert missing_prefix("edit", [], {"edit": str(tmp_path / "pkg")}) is None
