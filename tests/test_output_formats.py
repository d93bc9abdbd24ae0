"""The CI output formats: SARIF 2.1.0, GitHub Actions annotations, GitLab Code Quality.

The SARIF log is validated against the SARIF 2.1.0 JSON schema (vendored in
tests/data/sarif/ from Microsoft's SARIF SDK, MIT licence beside it) with the
`jsonschema` package, so a field out of place fails here, not in a CI upload.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from veritype.cli.main import main

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif" / "sarif-2.1.0.json").read_text(encoding="utf-8"))

SOURCE = (
    "import nosuchthing\n"  # 1: import-not-found, with no note
    "class Account:\n"
    "    balance: int = 0\n"
    'x: int = "a, b: c%"\n'  # 4: assignment; the message has ',', ':' and '%' to escape
    "reveal_type(1)\n"  # 5: a note on its own
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "--no-incremental"])
    out, err = capsys.readouterr()
    return code, out, err


def test_sarif_validates_against_the_schema(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "pkg/a.py", "--output", "sarif")
    assert code == 1
    log = json.loads(out)
    jsonschema.validate(log, SCHEMA)
    (run_,) = log["runs"]
    assert run_["tool"]["driver"]["name"] == "veritype"
    results = run_["results"]
    assert [r.get("ruleId") for r in results] == ["import-not-found", "assignment", None]
    assert [r["level"] for r in results] == ["error", "error", "note"]
    region = results[1]["locations"][0]["physicalLocation"]["region"]
    # `"a, b: c%"` is columns 10..19 (1-based), SARIF's end column is exclusive.
    assert region == {"startLine": 4, "startColumn": 10, "endLine": 4, "endColumn": 20}
    location = results[1]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "pkg/a.py", "uriBaseId": "%SRCROOT%"}
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.as_uri() + "/"
    rules = {rule["id"]: rule for rule in run_["tool"]["driver"]["rules"]}
    assert set(rules) == {"import-not-found", "assignment"}
    assert rules["assignment"]["helpUri"].endswith("error_codes.md#assignment")


def test_sarif_clean_run_and_absolute_paths(project: Path, capsys) -> None:
    (project / "ok.py").write_text("x: int = 1\n")
    code, out, _ = run(capsys, str(project / "ok.py"), "--output", "sarif")
    assert code == 0
    log = json.loads(out)
    jsonschema.validate(log, SCHEMA)
    assert log["runs"][0]["results"] == []


def test_sarif_keeps_an_errors_notes_in_its_message(project: Path, capsys) -> None:
    (project / "b.py").write_text("import yaml\n")  # an installed-stubs hint follows the error
    _, out, _ = run(capsys, "b.py", "--output", "sarif", "--no-site-packages")
    log = json.loads(out)
    jsonschema.validate(log, SCHEMA)
    (result,) = log["runs"][0]["results"]
    assert result["message"]["text"].splitlines()[1:] == ['Hint: "python3 -m pip install types-PyYAML"']


def test_github_annotations(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "pkg/a.py", "--output", "github")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("::error file=pkg/a.py,line=1,col=1,")
    assert lines[0].endswith(",title=veritype [import-not-found]::Cannot find implementation or library stub for module named \"nosuchthing\"")
    # The message's ',' and ':' are data, not properties: only '%' (and newlines) are escaped there.
    assert lines[1].startswith("::error file=pkg/a.py,line=4,col=10,endLine=4,endColumn=20,title=veritype [assignment]::")
    assert 'expression has type "str", variable has type "int"' in lines[1]
    assert lines[2].startswith("::notice file=pkg/a.py,line=5,") and lines[2].endswith('::Revealed type is "Literal[1]"')
    assert lines[3] == "Found 2 errors in 1 file (checked 1 source file)"


def test_github_escaping() -> None:
    from veritype.report.github import escape_data, escape_property

    assert escape_data("50%\nnext\r") == "50%25%0Anext%0D"
    assert escape_property("a,b:c") == "a%2Cb%3Ac"


def test_github_is_the_default_under_github_actions(project: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    _, out, _ = run(capsys, "pkg/a.py")
    assert out.startswith("::error file=pkg/a.py,line=1,")
    # An explicit format wins, as pyright's --outputjson does.
    _, out, _ = run(capsys, "pkg/a.py", "--output", "text")
    assert out.startswith("pkg/a.py:1:1: error:")
    (project / "pyproject.toml").write_text('[tool.mypy]\noutput = "json"\n')
    _, out, _ = run(capsys, "pkg/a.py")
    assert json.loads(out.splitlines()[0])["file"] == "pkg/a.py"


def test_gitlab_code_quality(project: Path, capsys) -> None:
    (project / "pkg" / "b.py").write_text('x: int = ""\ny: int = ""\n')
    code, out, _ = run(capsys, "pkg/a.py", "pkg/b.py", "--output", "gitlab")
    assert code == 1
    records = json.loads(out)
    for record in records:
        assert set(record) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert set(record["location"]) == {"path", "lines"} and set(record["location"]["lines"]) == {"begin"}
    first = records[0]
    assert first["check_name"] == "import-not-found" and first["severity"] == "major"
    assert first["location"] == {"path": "pkg/a.py", "lines": {"begin": 1}}
    assert records[2]["severity"] == "info"  # reveal_type's note
    # Two identical errors in one file still have different fingerprints.
    fingerprints = [r["fingerprint"] for r in records]
    assert len(set(fingerprints)) == len(fingerprints)
    # ... and a fingerprint does not move with the line.
    (project / "pkg" / "b.py").write_text('\n\nx: int = ""\ny: int = ""\n')
    _, again, _ = run(capsys, "pkg/a.py", "pkg/b.py", "--output", "gitlab")
    assert [r["fingerprint"] for r in json.loads(again)] == fingerprints


@pytest.mark.parametrize("fmt", ["sarif", "gitlab", "json"])
def test_machine_formats_keep_stats_off_stdout(project: Path, capsys, fmt: str) -> None:
    _, out, err = run(capsys, "pkg/a.py", "--output", fmt, "--stats")
    assert "Stats:" in err and "Stats:" not in out
