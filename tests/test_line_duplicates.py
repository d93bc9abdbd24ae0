"""mypy's one-message-per-line rule (diagnostics.line_duplicates): notes too,
and an error's explaining notes go with it (case files check errors only)."""

from __future__ import annotations

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.engine.checking import sorted_unique


def _d(line: int, col: int, severity: str, message: str, code: str | None = None) -> Diagnostic:
    return Diagnostic("m.py", line, col, severity, message, code)


def test_repeated_note_and_error_group_shown_once() -> None:
    diags = [
        _d(1, 1, "note", 'Revealed type is "Literal[1]"'),
        _d(1, 17, "note", 'Revealed type is "Literal[1]"'),
        _d(2, 1, "error", "Bad", "misc"),
        _d(2, 1, "note", "why it is bad"),
        _d(2, 9, "error", "Bad", "other-code"),
        _d(2, 9, "note", "why it is bad"),
        _d(3, 1, "error", "Bad", "misc"),
    ]
    assert sorted_unique(diags) == [diags[0], diags[2], diags[3], diags[6]]
