"""--verbose names the work bounds a run hit (veritype.diagnostics.bounds):
past them veritype infers Any and reports nothing, and says so only there."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.diagnostics import bounds
from veritype.evaluate.infer_memo import MAX_EXPRESSION_DEPTH


@pytest.fixture
def deep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    # A chain of additions nested past the expression depth bound; then a real error.
    terms = " + ".join(["1"] * (MAX_EXPRESSION_DEPTH + 200))
    (tmp_path / "deep.py").write_text(f"x = {terms}\ny: str = 1\n")
    return tmp_path


def test_verbose_names_the_bound_hit(deep: Path, capsys) -> None:
    assert main(["deep.py", "--no-incremental", "-v"]) == 1
    out, err = capsys.readouterr()
    assert f"veritype: info: bound hit: expression nested deeper than {MAX_EXPRESSION_DEPTH}" in err
    assert "(first at deep.py:1); inferred as Any, nothing reported" in err
    assert out.splitlines() == [
        'deep.py:2:10: error: Incompatible types in assignment (expression has type "int", variable has type "str")  [assignment]',
        "Found 1 error in 1 file (checked 1 source file)",
    ]


def test_quiet_without_verbose_and_reset_per_run(deep: Path, capsys) -> None:
    main(["deep.py", "--no-incremental"])
    assert "bound hit" not in capsys.readouterr().err
    (deep / "ok.py").write_text("x = 1\n")
    main(["ok.py", "--no-incremental", "-v"])
    assert "bound hit" not in capsys.readouterr().err  # the earlier run's hits are gone


def test_summary_counts_and_first_place() -> None:
    bounds.reset()
    bounds.hit("b")
    bounds.hit("b", "m.py:3")
    bounds.hit("b", "m.py:9")
    assert bounds.summary() == ["bound hit: b, 3 time(s) (first at m.py:3); inferred as Any, nothing reported"]
    bounds.reset()
    assert bounds.summary() == []
