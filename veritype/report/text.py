"""Plain-text output: `path:line:col: error: message  [code]` and the summary line.

Colour is used only when asked for or when writing to a terminal (and
`NO_COLOR` is unset), so piped output and CI logs stay plain.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options

_RED = "\x1b[31m"
_BLUE = "\x1b[34m"
_YELLOW = "\x1b[33m"
_GREEN = "\x1b[32m"
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"

_SEVERITY_COLOURS = {"error": _RED, "note": _BLUE, "warning": _YELLOW}


def use_colour(options: Options, stream: TextIO) -> bool:
    if options.color is not None:
        return options.color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def format_diagnostic(diag: Diagnostic, options: Options, colour: bool = False) -> str:
    where = f"{diag.path}:{diag.line}"
    if options.show_column_numbers:
        where += f":{diag.column}"
    severity = diag.severity
    if colour:
        severity = f"{_SEVERITY_COLOURS.get(severity, '')}{severity}{_RESET}"
    line = f"{where}: {severity}: {diag.message}"
    # Codes go on errors and warnings, not on notes (they belong to the error before them).
    if options.show_error_codes and diag.code and diag.severity != "note":
        line += f"  [{diag.code}]"
    return line


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(diagnostics: Sequence[Diagnostic], files_checked: int) -> str:
    errors = [d for d in diagnostics if d.severity == "error"]
    if not errors:
        return f"Success: no issues found in {_plural(files_checked, 'source file')}"
    files = len({d.path for d in errors})
    return (
        f"Found {_plural(len(errors), 'error')} in {_plural(files, 'file')} "
        f"(checked {_plural(files_checked, 'source file')})"
    )


def write_text(diagnostics: Sequence[Diagnostic], files_checked: int, options: Options, stream: TextIO) -> None:
    colour = use_colour(options, stream)
    for diag in diagnostics:
        stream.write(format_diagnostic(diag, options, colour) + "\n")
    if options.error_summary:
        line = summary_line(diagnostics, files_checked)
        if colour:
            colour_code = _GREEN if line.startswith("Success") else _RED
            line = f"{_BOLD}{colour_code}{line}{_RESET}"
        stream.write(line + "\n")
