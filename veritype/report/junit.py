"""`--junit-xml FILE`: the run as a JUnit XML document, as mypy writes it.

`--junit-format global` (the default): one test case, `mypy-py3_X-PLATFORM`,
failed when there are errors, its failure text being the error lines.
`per_file`: one test case per file with errors (named by the file), plus a
passing one when there are none. CI systems show these as test results.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options


def junit_document(
    lines_by_file: dict[str, list[str]], errors: int, elapsed: float, options: Options
) -> str:
    # mypy's names, so CI dashboards keyed on them keep working.
    name = f"mypy-py{options.python_version[0]}_{options.python_version[1]}-{options.platform}"
    cases: list[tuple[str, str, list[str]]]
    if options.junit_format == "per_file" and lines_by_file:
        cases = [(path, f"{name} {path}", lines) for path, lines in lines_by_file.items()]
    else:
        cases = [("mypy", name, [line for lines in lines_by_file.values() for line in lines])]
    failures = sum(1 for _, _, lines in cases if lines) if errors else 0
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<testsuite errors="0" failures="{failures}" name="mypy" skips="0" tests="{len(cases)}" time="{elapsed:.3f}">',
    ]
    for file, case_name, lines in cases:
        out.append(f'  <testcase classname="mypy" file={quoteattr(file)} line="1" name={quoteattr(case_name)} time="{elapsed:.3f}">')
        if lines and errors:
            out.append(f'    <failure message="mypy produced messages">{escape(chr(10).join(lines))}</failure>')
        out.append("  </testcase>")
    out.append("</testsuite>")
    return "\n".join(out) + "\n"


def write_junit(path: str, formatted: Sequence[tuple[Diagnostic, str]], options: Options, started: float) -> None:
    """`formatted`: each diagnostic with its text line, in output order."""
    by_file: dict[str, list[str]] = {}
    for diag, line in formatted:
        by_file.setdefault(diag.path, []).append(line)
    errors = sum(1 for diag, _ in formatted if diag.severity == "error")
    with open(path, "w", encoding="utf-8") as f:
        f.write(junit_document(by_file, errors, time.monotonic() - started, options))
