"""mypy's optional `ignore-without-code`: a bare `# type: ignore` comment.

A bare ignore silences every error on its line, the ones nobody meant to
hide included. With the code enabled, mypy 2.4.1 reports each such comment:
`"type: ignore" comment without error code`, followed by
` (consider "type: ignore[a, b]" instead)` naming (sorted) the codes it did
silence. Not reported: a whole-file ignore, an ignore in a block skipped by a
version or platform check, and (with --warn-unused-ignores) one that
silenced nothing, which is reported as unused instead (ignores.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.diagnostics.diagnostic import Diagnostic

if TYPE_CHECKING:
    from veritype.diagnostics.ignores import IgnoreMap


def ignore_without_code_errors(path: str, ignore_map: "IgnoreMap", used: dict[int, set[str | None]], skipped: "set[int] | frozenset[int]",
                               unused_reported: bool = False) -> list[Diagnostic]:
    """The errors for the bare ignores of one file; `used`: what each ignore line silenced;
    `unused_reported`: --warn-unused-ignores is on, and reports the ones that silenced nothing."""
    if ignore_map.whole_file is not None:
        return []
    out: list[Diagnostic] = []
    for line, ignore in sorted(ignore_map.lines.items()):
        if ignore.codes is not None or line in skipped:
            continue
        if unused_reported and not used.get(line):
            continue  # reported as unused instead (one of the two, as mypy)
        message = '"type: ignore" comment without error code'
        silenced = sorted(c for c in used.get(line, ()) if c is not None)
        if silenced:
            message += f' (consider "type: ignore[{", ".join(silenced)}]" instead)'
        out.append(Diagnostic(path, line, ignore.column, "error", message, "ignore-without-code"))
    return out
