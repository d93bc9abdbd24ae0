"""An error with the notes that explain it: the unit the tool formats report.

mypy prints an error's notes (hints, "See ...", the Liskov note) right after
it on the same line number; machine formats (SARIF, GitHub annotations,
GitLab Code Quality, mypy's JSON `hint`) attach them to their error instead
of reporting each as a finding of its own. A note with no error before it
(`reveal_type`) is its own group.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from veritype.diagnostics.diagnostic import Diagnostic


@dataclass(frozen=True)
class Finding:
    head: Diagnostic
    notes: tuple[Diagnostic, ...] = ()

    def full_message(self) -> str:
        """The message with its notes, one per line."""
        return "\n".join([self.head.message, *(n.message for n in self.notes)])


def findings(diagnostics: Sequence[Diagnostic]) -> list[Finding]:
    out: list[Finding] = []
    for diag in diagnostics:
        if diag.severity == "note" and out and out[-1].head.severity != "note":
            head = out[-1].head
            if head.path == diag.path and head.line == diag.line:
                out[-1] = Finding(head, (*out[-1].notes, diag))
                continue
        out.append(Finding(diag))
    return out


def relative_posix(path: str, root: str) -> str:
    """`path` relative to `root` with forward slashes when it lies under it (CI
    tools resolve paths against the repository root); otherwise as given."""
    if path.startswith("<"):
        return path
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, root)
    except ValueError:  # another drive (Windows)
        return absolute.replace(os.sep, "/")
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return absolute.replace(os.sep, "/")
    return rel.replace(os.sep, "/")
