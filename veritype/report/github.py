"""`--output github`: GitHub Actions workflow commands, one per finding.

`::error file=PATH,line=L,col=C,endLine=..,endColumn=..,title=veritype [code]::message`
(`::warning`, `::notice` for warnings and notes); GitHub shows each as an
annotation on the pull request's diff. An error's notes go into its message
on further lines. The summary line follows, plain, for the log. Chosen
automatically under GitHub Actions (`GITHUB_ACTIONS=true`) when no output
format is given, as pyright does (veritype.report.formats).

Escaping is the runner's: in the message `%`, CR and LF; in a property also
`:` and `,` (see GitHub's "Workflow commands" documentation).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.report.groups import findings, relative_posix

_COMMANDS = {"error": "error", "warning": "warning", "note": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_lines(diagnostics: Sequence[Diagnostic], root: str) -> list[str]:
    lines: list[str] = []
    for finding in findings(diagnostics):
        head = finding.head
        props = [f"file={escape_property(relative_posix(head.path, root))}", f"line={head.line}", f"col={head.column}"]
        if head.end_line is not None and head.end_column is not None:
            props += [f"endLine={head.end_line}", f"endColumn={head.end_column}"]
        title = f"veritype [{head.code}]" if head.code else "veritype"
        props.append(f"title={escape_property(title)}")
        command = _COMMANDS.get(head.severity, "notice")
        lines.append(f"::{command} {','.join(props)}::{escape_data(finding.full_message())}")
    return lines


def write_github(diagnostics: Sequence[Diagnostic], stream: TextIO, root: str) -> None:
    for line in github_lines(diagnostics, root):
        stream.write(line + "\n")
