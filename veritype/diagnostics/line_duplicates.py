"""mypy's rule for repeated messages: one line shows a message once.

mypy (errors.remove_duplicates) drops an error or note whose severity and
text were already reported on the same line, whatever its column or code,
together with the notes that explain it; `g("a") + g("a")` is one
`Argument 1 to "g" ...` error, and counts once in "Found N errors".
"""

from __future__ import annotations

from veritype.diagnostics.diagnostic import Diagnostic


def drop_line_repeats(groups: list[list[Diagnostic]]) -> list[list[Diagnostic]]:
    """`groups` (an error or note followed by the notes that explain it), in
    the order they are shown, without those whose head repeats the severity and
    message of an earlier head on its line. Each group's own notes stay with it."""
    seen: set[tuple[str, int, str, str]] = set()
    out: list[list[Diagnostic]] = []
    for g in groups:
        head = g[0]
        key = (head.path, head.line, head.severity, head.message)
        if key in seen:
            continue
        seen.add(key)
        out.append(g)
    return out
