"""The order diagnostics are printed in: by file (in the order files were given), then line.

The sort is stable and ignores columns, so a note stays right after the error
it explains.
"""

from __future__ import annotations

from collections.abc import Sequence

from veritype.diagnostics.diagnostic import Diagnostic


def ordered(diagnostics: Sequence[Diagnostic], paths: Sequence[str] = ()) -> list[Diagnostic]:
    rank = {p: i for i, p in enumerate(paths)}
    first_seen: dict[str, int] = {}
    for d in diagnostics:
        first_seen.setdefault(d.path, len(first_seen))
    return sorted(diagnostics, key=lambda d: (rank.get(d.path, len(rank) + first_seen[d.path]), d.line))
