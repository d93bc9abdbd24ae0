"""`-O json`: mypy's JSON lines, one object per error, for tools that read mypy.

mypy 2.4's shape, field for field: `file`, `line`, `column` (0-based),
`end_line`, `end_column` (0-based, exclusive), `message`, `hint`, `code`,
`severity`. The notes that explain an error (same file and line, right after
it) are its `hint`, joined by newlines; a note on its own (`reveal_type`) is
an object of severity "note". veritype's own array, with 1-based columns, is
`--output veritype-json` (veritype.report.json_output).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic


def _record(diag: Diagnostic, path: str) -> dict[str, object]:
    end_line = diag.end_line if diag.end_line is not None else diag.line
    end_column = diag.end_column - 1 if diag.end_column is not None else diag.column
    return {
        "file": path,
        "line": diag.line,
        "column": max(diag.column - 1, 0),
        "end_line": end_line,
        "end_column": max(end_column, 0),
        "message": diag.message,
        "hint": None,
        "code": diag.code,
        "severity": diag.severity,
    }


def _same(path: str) -> str:
    return path


def mypy_records(diagnostics: Sequence[Diagnostic], display_path: Callable[[str], str] = _same) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    head: Diagnostic | None = None
    hints: list[str] = []

    def flush() -> None:
        if records and hints:
            records[-1]["hint"] = "\n".join(hints)
        hints.clear()

    for diag in diagnostics:
        if diag.severity == "note" and head is not None and head.path == diag.path and head.line == diag.line:
            hints.append(diag.message)
            continue
        flush()
        records.append(_record(diag, display_path(diag.path)))
        head = diag if diag.severity != "note" else None
    flush()
    return records


def write_mypy_json(diagnostics: Sequence[Diagnostic], stream: TextIO, display_path: Callable[[str], str] = _same) -> None:
    for record in mypy_records(diagnostics, display_path):
        stream.write(json.dumps(record) + "\n")
