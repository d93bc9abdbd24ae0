"""`# mypy:` comments: parsing (veritype/config/inline.py) and their errors, in mypy's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.config.inline import STRICT_INLINE, parse_inline, split_directive


def test_split_directive_keeps_quoted_commas() -> None:
    assert split_directive('allow-untyped-defs, disable-error-code="a, b"') == (
        ["allow-untyped-defs", "disable-error-code=a, b"],
        [],
    )
    assert split_directive('disable-error-code="a')[1] == ["Unterminated quote in configuration comment"]


def test_values_and_codes() -> None:
    config = parse_inline(
        '# mypy: allow-untyped-defs, disable-error-code="attr-defined, name-defined"\n'
        "x = 1\n"
        "# mypy: warn_return_any=True, enable-error-code=truthy-bool\n"
        "  # mypy: check-untyped-defs\n"  # not at the start of the line: not a directive (mypy)
    )
    assert config.values == {"disallow_untyped_defs": False, "warn_return_any": True}
    assert config.disable == {"attr-defined", "name-defined"} and config.enable == {"truthy-bool"}
    assert config.errors == []


def test_not_enforced_inline_option_is_recorded() -> None:
    config = parse_inline("# mypy: extra-checks, no-implicit-reexport, x-custom\n")
    assert config.not_enforced == {"extra_checks": True}
    assert config.values == {"implicit_reexport": False}
    assert config.errors == []


@pytest.mark.parametrize(
    "comment,message",
    [
        ("strict", STRICT_INLINE),
        ("python-version=3.12", "python_version not supported in inline configuration"),
        ("foo-bar", "Unrecognized option: foo_bar = True"),
        ("warn-unused-ignores=maybe", "warn_unused_ignores: Not a boolean: maybe"),
        ('disable-error-code="unterminated', "Unterminated quote in configuration comment"),
        ("follow-imports=bogus", "follow_imports: expected one of"),
    ],
)
def test_bad_comments(comment: str, message: str) -> None:
    config = parse_inline(f"x = 1\n# mypy: {comment}\n")
    assert len(config.errors) == 1
    line, text = config.errors[0]
    assert line == 2 and text.startswith(message)


def test_errors_are_reported_on_the_comment_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("# mypy: strict\n# mypy: foo-bar\ndef f(x):\n    return x\n")
    code = main(["a.py", "--no-incremental", "--disallow-untyped-defs"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"a.py:1:1: error: {STRICT_INLINE}  [misc]" in out
    assert "a.py:2:1: error: Unrecognized option: foo_bar = True  [misc]" in out
    assert "no-untyped-def" in out  # the bad comments set nothing


def test_inline_not_enforced_option_is_warned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text("# mypy: extra-checks\nx = 1\n")
    assert main(["a.py", "--no-incremental"]) == 0
    assert "veritype: warning: not enforced: extra_checks" in capsys.readouterr().err
