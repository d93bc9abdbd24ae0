"""Plain-text output: `path:line:col: error: message  [code]` and the summary line.

Colour is used only when asked for or when writing to a terminal (and
`NO_COLOR` is unset), so piped output and CI logs stay plain.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import TextIO

from veritype.diagnostics.codes import code_doc_url
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options

_RED = "\x1b[31m"
_BLUE = "\x1b[34m"
_YELLOW = "\x1b[33m"
_GREEN = "\x1b[32m"
_BOLD = "\x1b[1m"
_RESET = "\x1b[0m"

_SEVERITY_COLOURS = {"error": _RED, "note": _BLUE, "warning": _YELLOW}
_QUOTED = re.compile(r'"[^"]*"')


def use_colour(options: Options, stream: TextIO) -> bool:
    if options.color is not None:
        return options.color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR") or os.environ.get("MYPY_FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _identity(path: str) -> str:
    return path


def format_diagnostic(diag: Diagnostic, options: Options, colour: bool = False, display: Callable[[str], str] = _identity) -> str:
    where = f"{display(diag.path)}:{diag.line}"
    if options.show_column_numbers or options.show_error_end:
        where += f":{diag.column}"
        if options.show_error_end:
            # mypy's end column: the last character's (1-based, inclusive).
            end_line = diag.end_line if diag.end_line is not None else diag.line
            end_column = diag.end_column - 1 if diag.end_column is not None else diag.column
            where += f":{end_line}:{max(end_column, diag.column)}"
    if not colour:
        line = f"{where}: {diag.severity}: {diag.message}"
        # Codes go on errors and warnings, not on notes (they belong to the error before them).
        if options.show_error_codes and diag.code and diag.severity != "note":
            line += f"  [{diag.code}]"
        return line
    # mypy's colours: a bold red "error:", a blue "note:", quoted names and
    # types in bold, the code in yellow.
    bold = _BOLD if diag.severity == "error" else ""
    severity = f"{bold}{_SEVERITY_COLOURS.get(diag.severity, '')}{diag.severity}:{_RESET}"
    message = _QUOTED.sub(lambda m: f"{_BOLD}{m.group(0)}{_RESET}", diag.message)
    line = f"{where}: {severity} {message}"
    if options.show_error_codes and diag.code and diag.severity != "note":
        line += f"  {_YELLOW}[{diag.code}]{_RESET}"
    return line


# mypy gives no documentation link for these codes: generic, or self-explanatory.
# The link is to veritype's own page (docs/error_codes.md), in mypy's words.
_NO_LINK_CODES = frozenset({"misc", "assignment", "arg-type", "return-value", "attr-defined", "name-defined", "override"})


def display_path_for(options: Options) -> Callable[[str], str]:
    if not options.show_absolute_path:
        return _identity
    return lambda path: path if path.startswith("<") else os.path.abspath(path)


def _groups(diagnostics: Sequence[Diagnostic]) -> list[list[Diagnostic]]:
    """Each error with the notes right after it on its line; a lone note is its own group."""
    groups: list[list[Diagnostic]] = []
    for diag in diagnostics:
        if diag.severity == "note" and groups and groups[-1][0].severity != "note":
            head = groups[-1][0]
            if head.path == diag.path and head.line == diag.line:
                groups[-1].append(diag)
                continue
        groups.append([diag])
    return groups


def text_lines(
    diagnostics: Sequence[Diagnostic], options: Options, colour: bool = False, texts: dict[str, str] | None = None
) -> list[tuple[Diagnostic, str]]:
    """Every output line before the summary, with the diagnostic it belongs to."""
    from veritype.report.context import ErrorContext
    from veritype.report.pretty import SourceLines, snippet, terminal_width, wrap

    display = display_path_for(options)
    context = ErrorContext(texts) if options.show_error_context else None
    sources = SourceLines(texts) if options.pretty else None
    width = terminal_width() if options.pretty else 0
    linked: set[str] = set()
    out: list[tuple[Diagnostic, str]] = []
    for group in _groups(diagnostics):
        head = group[0]
        if context is not None:
            words = context.note_before(head.path, head.line)
            if words is not None:
                out.append((head, f"{display(head.path)}: note: {words}"))
        for diag in group:
            text = format_diagnostic(diag, options, colour, display)
            if sources is not None and diag is head and diag.severity != "note":
                out.extend((diag, part) for part in wrap(text, width))
                source = sources.line(diag.path, diag.line)
                if source is not None:
                    same = diag.end_line is None or diag.end_line == diag.line
                    out.extend((diag, part) for part in snippet(source, diag.column, diag.end_column, same, width))
            else:
                out.append((diag, text))
        code = head.code
        if (
            options.show_error_code_links
            and options.show_error_codes
            and head.severity == "error"
            and code
            and code not in _NO_LINK_CODES
            and code not in linked
        ):
            linked.add(code)  # once per code and run, as mypy
            note = Diagnostic(head.path, head.line, head.column, "note", f"See {code_doc_url(code)} for more info")
            out.append((note, format_diagnostic(note, options, colour, display)))
    return out


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


def write_text(
    diagnostics: Sequence[Diagnostic],
    files_checked: int,
    options: Options,
    stream: TextIO,
    texts: dict[str, str] | None = None,
) -> None:
    colour = use_colour(options, stream)
    for _, line in text_lines(diagnostics, options, colour, texts):
        stream.write(line + "\n")
    if options.error_summary:
        line = summary_line(diagnostics, files_checked)
        if colour:
            colour_code = _GREEN if line.startswith("Success") else _RED
            line = f"{_BOLD}{colour_code}{line}{_RESET}"
        stream.write(line + "\n")
