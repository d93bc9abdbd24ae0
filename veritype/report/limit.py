"""`--soft-error-limit N`: mypy's many-errors rule.

Missing stubs can cause a flood of errors about Any types. Once an import
error (`import`, `import-not-found`, `import-untyped`) has been reported and
N diagnostics (or diagnostics in N files) have been reported, the remaining
non-import errors are left out of the output and the summary, and a single
note says so where the first one was: mypy's behaviour with the same limit.
A negative limit (the default, -1) leaves everything in.
"""

from __future__ import annotations

from collections.abc import Sequence

from veritype.diagnostics.diagnostic import Diagnostic

IMPORT_CODES = frozenset({"import", "import-not-found", "import-untyped"})
SKIPPING = "(Skipping most remaining errors due to unresolved imports or missing stubs; fix these first)"


def apply_soft_limit(diagnostics: Sequence[Diagnostic], limit: int) -> list[Diagnostic]:
    if limit < 0:
        return list(diagnostics)
    kept: list[Diagnostic] = []
    seen_import_error = False
    reported = 0
    files: set[str] = set()
    noted = False
    hiding = False  # the error before these notes was left out: its notes go too
    for diag in diagnostics:
        if diag.severity == "note" and hiding:
            continue
        hiding = False
        many = reported >= limit or len(files) >= limit
        if seen_import_error and diag.code not in IMPORT_CODES and diag.severity != "note" and many:
            hiding = True
            if not noted:
                noted = True
                kept.append(Diagnostic(diag.path, diag.line, diag.column, "note", SKIPPING, None, diag.end_line, diag.end_column))
            continue
        if diag.code in IMPORT_CODES and diag.severity == "error":
            seen_import_error = True
        reported += 1
        files.add(diag.path)
        kept.append(diag)
    return kept
