"""Output formats and mypy's output-shape flags, end to end through the CLI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.diagnostics.codes import code_doc_url

SOURCE = (
    "import nosuchthing\n"
    "class K:\n"
    "    def meth(self) -> None:\n"
    '        x: int = "a"\n'
    "def top() -> None:\n"
    '    y: str = 1\n'
    "reveal_type(1)\n"
)

# mypy 2.4.1's -O json keys, in its order.
MYPY_JSON_KEYS = ["file", "line", "column", "end_line", "end_column", "message", "hint", "code", "severity"]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("MYPY_FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("MYPY_FORCE_TERMINAL_WIDTH", "80")
    (tmp_path / "a.py").write_text(SOURCE)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--no-incremental"])
    out, err = capsys.readouterr()
    return code, out, err


def test_mypy_json_lines(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "a.py", "-O", "json")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert all(list(r) == MYPY_JSON_KEYS for r in records)
    first = records[0]
    assert first["file"] == "a.py" and first["line"] == 1 and first["column"] == 0  # 0-based, as mypy
    assert first["code"] == "import-not-found" and first["severity"] == "error"
    assignment = next(r for r in records if r["line"] == 4)
    assert assignment["column"] == 17 and assignment["end_column"] == 20  # `"a"`: columns 17..20, 0-based
    assert assignment["hint"] is None
    reveal = records[-1]
    assert reveal["severity"] == "note" and reveal["code"] is None and reveal["message"].startswith("Revealed type")


def test_veritype_json_array(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "a.py", "--output", "veritype-json")
    data = json.loads(out)
    assert isinstance(data, list) and data[0]["path"] == "a.py" and data[0]["column"] == 1


def test_show_error_context(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "a.py", "--show-error-context", "--hide-column-numbers")
    lines = out.splitlines()
    i = lines.index('a.py: note: In member "meth" of class "K":')
    assert lines[i + 1].startswith("a.py:4: error: Incompatible types in assignment")
    j = lines.index('a.py: note: In function "top":')
    assert lines[j + 1].startswith("a.py:6: error:")
    assert lines[j + 2] == "a.py: note: At top level:"
    assert lines[0].startswith("a.py:1: error:")  # top level first: no note before it


def test_pretty_shows_source_and_marker(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "a.py", "--pretty", "--hide-column-numbers")
    lines = out.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("a.py:4: error:"))
    # The message is wrapped at 80 columns, continuation at column 0 (mypy).
    assert len(lines[i]) <= 80 and lines[i + 1].endswith("[assignment]")
    assert lines[i + 2] == '            x: int = "a"'
    assert lines[i + 3] == "                     ^~~"


def test_show_error_end(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "a.py", "--show-error-end")
    assert 'a.py:4:18:4:20: error: Incompatible types in assignment' in out


def test_show_absolute_path(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "a.py", "--show-absolute-path")
    assert out.startswith(f"{project / 'a.py'}:1:1: error:")


def test_error_code_links_once_per_code(project: Path, capsys) -> None:
    (project / "b.py").write_text("import nosuch1\nimport nosuch2\nx: int = ''\n")
    _, out, _ = run(capsys, "b.py", "--show-error-code-links")
    links = [line for line in out.splitlines() if "for more info" in line]
    # One link for import-not-found; none for assignment (mypy gives none for it).
    assert links == [f"b.py:1:1: note: See {code_doc_url('import-not-found')} for more info"]
    assert code_doc_url("import-not-found").endswith("docs/error_codes.md#import-not-found")


def test_soft_error_limit(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "a.py", "--soft-error-limit", "1")
    assert code == 1
    assert "Skipping most remaining errors due to unresolved imports" in out
    assert "Incompatible types" not in out
    assert out.splitlines()[-1].startswith("Found 1 error in 1 file")


def test_no_error_summary(project: Path, capsys) -> None:
    _, out, _ = run(capsys, "a.py", "--no-error-summary")
    assert "Found" not in out


def test_command_text(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "-c", "x: int = ''")
    assert code == 1
    assert out.startswith("<string>:1:10: error: Incompatible types in assignment")
    assert out.splitlines()[-1] == "Found 1 error in 1 file (checked 1 source file)"


@pytest.mark.parametrize("fmt", ["global", "per_file"])
def test_junit_xml(project: Path, capsys, fmt: str) -> None:
    code, out, _ = run(capsys, "a.py", "--junit-xml", "out.xml", "--junit-format", fmt)
    root = ET.parse(project / "out.xml").getroot()
    assert root.tag == "testsuite" and root.get("failures") == "1" and root.get("tests") == "1"
    case = root.find("testcase")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None and failure.text is not None
    assert 'a.py:4:18: error: Incompatible types in assignment' in failure.text
    assert case.get("file") == ("mypy" if fmt == "global" else "a.py")
    assert out  # the usual output still goes to stdout


def test_junit_xml_clean_run(project: Path, capsys) -> None:
    (project / "ok.py").write_text("x = 1\n")
    assert run(capsys, "ok.py", "--junit-xml", "out.xml")[0] == 0
    root = ET.parse(project / "out.xml").getroot()
    assert root.get("failures") == "0" and root.find("testcase/failure") is None


def test_not_enforced_warning_is_one_line(project: Path, capsys) -> None:
    (project / "mypy.ini").write_text("[mypy]\nplugins = pydantic.mypy\n")
    # The plugin is found (never imported), else it would be mypy's blocking error (test_plugins.py).
    (project / "pydantic").mkdir()
    (project / "pydantic" / "mypy.py").write_text("")
    code, _, err = run(capsys, "-c", "x = 1", "--strict", "--fixed-format-cache", "--no-fixed-format-cache", "--always-true", "FOO")
    assert code == 0
    warnings = [line for line in err.splitlines() if "not enforced" in line]
    assert warnings == [
        "veritype: warning: not enforced: plugins=pydantic.mypy, extra_checks, fixed_format_cache=False"
    ]


def test_no_warning_for_defaults(project: Path, capsys) -> None:
    code, _, err = run(capsys, "-c", "x = 1", "--sqlite-cache", "--implicit-reexport", "--warn-no-return")
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    "version,message",
    [
        ("3.8", "argument --python-version: Python 3.8 is not supported (must be 3.10 or higher)"),
        ("3.9", "argument --python-version: Python 3.9 is not supported (must be 3.10 or higher)"),
        ("2.7", "Mypy no longer supports checking Python 2 code."),
        ("4.1", "argument --python-version: Python major version '4' out of range (must be 3)"),
    ],
)
def test_old_python_version_rejected_as_mypy(project: Path, capsys, version: str, message: str) -> None:
    code, _, err = run(capsys, "a.py", "--python-version", version)
    assert code == 2 and message in err and "Traceback" not in err


def test_old_python_version_in_config_warns_and_continues(project: Path, capsys) -> None:
    (project / "mypy.ini").write_text("[mypy]\npython_version = 3.8\n")
    code, out, err = run(capsys, "-c", "x = 1")
    assert code == 0 and "python_version: Python 3.8 is not supported (must be 3.10 or higher)" in err


def test_help_names_the_subcommands(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for word in ("check", "watch", "lsp"):
        assert f"  {word}  " in out or f"veritype {word}" in out


def test_no_warn_no_return(project: Path, capsys) -> None:
    (project / "r.py").write_text("def f(x: int) -> int:\n    if x:\n        return 1\n")
    assert "Missing return statement" in run(capsys, "r.py")[1]
    assert run(capsys, "r.py", "--no-warn-no-return")[0] == 0


def test_no_namespace_packages(project: Path, capsys) -> None:
    (project / "ns" / "sub").mkdir(parents=True)
    (project / "ns" / "sub" / "mod.py").write_text("X = 1\n")
    (project / "main.py").write_text("import ns.sub.mod\n")
    assert run(capsys, "main.py")[0] == 0
    code, out, _ = run(capsys, "main.py", "--no-namespace-packages")
    assert code == 1 and "import-not-found" in out


def test_modules_and_packages_config_keys(project: Path, capsys) -> None:
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "m.py").write_text("x: int = ''\n")
    (project / "mypy.ini").write_text("[mypy]\npackages = pkg\n")
    code, out, _ = run(capsys)
    assert code == 1 and "pkg/m.py:1:10: error" in out


def test_colours_as_mypy(project: Path, capsys) -> None:
    (project / "c.py").write_text('x: int = ""\n')
    _, out, _ = run(capsys, "c.py", "--color-output")
    first = out.splitlines()[0]
    assert "\x1b[1m\x1b[31merror:\x1b[0m" in first  # bold red "error:"
    assert '\x1b[1m"str"\x1b[0m' in first and '\x1b[1m"int"\x1b[0m' in first  # types in bold
    assert first.endswith("\x1b[33m[assignment]\x1b[0m")  # the code in yellow


def test_no_color_environment(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    (project / "c.py").write_text('x: int = ""\n')
    assert "\x1b[" not in run(capsys, "c.py")[1]
    monkeypatch.setenv("MYPY_FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" in run(capsys, "c.py")[1]


def test_duplicate_module_names_stop_the_run(project: Path, capsys) -> None:
    for d in ("one", "two"):
        (project / d).mkdir()
        (project / d / "mod.py").write_text("x = 1\n")
    code, _, err = run(capsys, "one", "two")
    assert code == 2
    assert 'Duplicate module named "mod" (also at "one/mod.py")' in err
    # With explicit package bases the files are one.mod and two.mod.
    assert run(capsys, "one", "two", "--explicit-package-bases")[0] == 0


def test_stub_beside_its_module_is_no_duplicate(project: Path, capsys) -> None:
    (project / "m.py").write_text("x = 1\n")
    (project / "m.pyi").write_text("x: int\n")
    assert run(capsys, "m.py", "m.pyi")[0] == 0


def test_junit_xml_unwritable_is_a_usage_error(project: Path, capsys) -> None:
    code, _, err = run(capsys, "a.py", "--junit-xml", str(project / "no" / "such" / "dir" / "out.xml"))
    assert code == 2 and "--junit-xml: cannot write" in err and "Traceback" not in err
