"""`--pretty`: mypy's visually nicer text output.

Each error's message is word-wrapped to the terminal width (continuation
lines start at column 0, as in mypy), and after the error (before its notes)
comes its source line, indented four more spaces, with a `^~~~` marker under the
reported span. Source lines are read from the checked files (or the text a
`-c` program gave) once per file.
"""

from __future__ import annotations

import os
import shutil
import textwrap

# mypy's fallback width when the terminal's is unknown, and its cap on snippet length.
DEFAULT_WIDTH = 80


def terminal_width() -> int:
    env = os.environ.get("MYPY_FORCE_TERMINAL_WIDTH")
    if env and env.isdigit():
        return int(env)
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns or DEFAULT_WIDTH


class SourceLines:
    """The lines of the files errors are reported in, read on first use."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self._texts = dict(texts or {})
        self._lines: dict[str, list[str]] = {}

    def line(self, path: str, number: int) -> str | None:
        lines = self._lines.get(path)
        if lines is None:
            text = self._texts.get(path)
            if text is None:
                try:
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    text = ""
            lines = self._lines[path] = text.splitlines()
        return lines[number - 1] if 0 < number <= len(lines) else None


def wrap(text: str, width: int) -> list[str]:
    """A long first line wrapped at word boundaries, mypy's soft wrap."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [text]


def snippet(source: str, column: int, end_column: int | None, end_line_same: bool, width: int) -> list[str]:
    """The source line (indented four more spaces) and its marker line, cut to `width`."""
    code = source.rstrip().expandtabs(8) if "\t" in source else source.rstrip()
    start = max(column - 1, 0)
    end = end_column - 1 if (end_column is not None and end_line_same) else len(code)
    end = max(min(end, len(code)), start + 1)
    marker = " " * start + "^" + "~" * (end - start - 1)
    budget = max(width - 4, 20)
    if len(code) > budget:
        code = code[: budget - 3] + "..."
    if len(marker) > budget:
        marker = marker[: budget - 3] + "..."
    return ["    " + code, "    " + marker]
