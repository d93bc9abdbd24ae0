"""The scale program of bench/scale_program.py (issue #15, item 5) at a small
size: veritype checks it with no internal error and reports exactly the
errors the generator planted (path, line and code), nothing else; the same
seed gives the same program.

`python bench/scale.py` measures how time and memory grow with its size;
speed is never asserted here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from veritype.cli.main import main

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import scale_program  # noqa: E402

# 18 modules: one error of each of the six kinds (modules 2, 5, ..., 17).
LINES = 18 * scale_program.LINES_PER_MODULE


def _texts(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.py"))}


def test_the_program_is_deterministic_by_seed(tmp_path: Path) -> None:
    a = scale_program.generate(tmp_path / "a", 3000, seed=7)
    b = scale_program.generate(tmp_path / "b", 3000, seed=7)
    c = scale_program.generate(tmp_path / "c", 3000, seed=8)
    assert _texts(tmp_path / "a") == _texts(tmp_path / "b") != _texts(tmp_path / "c")
    assert a.errors == b.errors and a.modules == 6
    assert abs(a.lines - 3000) < 300


def test_veritype_reports_exactly_the_planted_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    program = scale_program.generate(tmp_path, LINES, seed=0)
    assert sorted(code for _, _, code in program.errors) == sorted(scale_program.ERROR_KINDS)
    monkeypatch.chdir(tmp_path)
    status = main(["check", scale_program.PACKAGE, "--no-incremental", "--output", "veritype-json",
                   "--no-error-summary"])
    out = capsys.readouterr()
    assert "internal error" not in out.err
    assert status == 1
    found = sorted((d["path"], d["line"], d["code"]) for d in json.loads(out.out))
    assert found == sorted(program.errors)
