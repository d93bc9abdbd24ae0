"""Which output format a run prints, and printing it.

`--output` / `output =` name one of options.OUTPUT_FORMATS; when neither is
given the format is text, or GitHub annotations when the run is a GitHub
Actions step (`GITHUB_ACTIONS=true`), as pyright does. Each format lives in
its own module; this one only dispatches.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options


def output_format(options: Options, environ: Mapping[str, str] | None = None) -> str:
    if options.output is not None:
        return options.output
    env = os.environ if environ is None else environ
    return "github" if env.get("GITHUB_ACTIONS") == "true" else "text"


def machine_readable(fmt: str) -> bool:
    """Formats whose stdout is one document a tool parses: nothing else may go there."""
    return fmt in ("json", "veritype-json", "sarif", "gitlab")


def write_output(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    files_checked: int,
    options: Options,
    stream: TextIO,
    texts: dict[str, str],
    root: str,
) -> None:
    from veritype.report.text import display_path_for, summary_line, write_text

    if fmt == "json":
        from veritype.report.mypy_json import write_mypy_json

        write_mypy_json(diagnostics, stream, display_path_for(options))
    elif fmt == "veritype-json":
        from veritype.report.json_output import write_json

        write_json(diagnostics, stream)
    elif fmt == "sarif":
        from veritype.report.sarif import write_sarif

        write_sarif(diagnostics, stream, root)
    elif fmt == "gitlab":
        from veritype.report.gitlab import write_gitlab

        write_gitlab(diagnostics, stream, root)
    elif fmt == "github":
        from veritype.report.github import write_github

        write_github(diagnostics, stream, root)
        if options.error_summary:
            stream.write(summary_line(diagnostics, files_checked) + "\n")
    else:
        write_text(diagnostics, files_checked, options, stream, texts)
