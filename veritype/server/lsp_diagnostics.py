"""What the language server publishes: veritype diagnostics for open documents.

Pure of any LSP connection, so it is tested directly: `check_documents`
checks the editor's open documents with their in-memory (possibly unsaved)
text and returns, per path, the diagnostics with LSP ranges.

All open documents are checked together, each with its editor text, so an
unsaved edit in one open module is seen by the open modules that import it.
Modules that are not open are read from disk. The incremental cache
(veritype/cache) makes re-checking the unchanged ones cheap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.modules.sources import BuildSource
from veritype.options import Options

# LSP DiagnosticSeverity values (the spec's numbers, so this module needs no
# lsprotocol import): Error=1, Warning=2, Information=3, Hint=4.
SEVERITY = {"error": 1, "warning": 2, "note": 3}


@dataclass(frozen=True)
class LspDiagnostic:
    """An LSP diagnostic in server units: 0-based lines, columns in characters
    of the line's Python str (the server converts to the client's encoding)."""

    start: tuple[int, int]
    end: tuple[int, int]
    severity: int
    message: str
    code: str | None


def _char_column(line_text: str, byte_column: int) -> int:
    """veritype columns are 1-based UTF-8 byte offsets (from ast); LSP wants
    0-based characters. A column past the line is clamped to its end."""
    raw = line_text.encode("utf-8")
    return len(raw[: max(byte_column - 1, 0)].decode("utf-8", "ignore"))


def to_lsp(diag: Diagnostic, lines: list[str]) -> LspDiagnostic:
    def line_at(n: int) -> str:
        return lines[n] if 0 <= n < len(lines) else ""

    line = max(diag.line - 1, 0)
    start_col = _char_column(line_at(line), diag.column)
    if diag.end_line is not None and diag.end_column is not None:
        end_line = max(diag.end_line - 1, line)
        end_col = _char_column(line_at(end_line), diag.end_column)
        if end_line == line:
            end_col = max(end_col, start_col)
    else:  # no extent known: one character (or an empty range at the line's end)
        end_line, end_col = line, min(start_col + 1, len(line_at(line)))
        end_col = max(end_col, start_col)
    return LspDiagnostic((line, start_col), (end_line, end_col), SEVERITY.get(diag.severity, 3), diag.message, diag.code)


def options_for(root: str) -> Options:
    """The options a `veritype check` in `root` would use: its config, its cache."""
    from veritype.config.project import project_options

    return project_options(root)


def check_documents(documents: dict[str, str], root: str, options: Options | None = None) -> dict[str, list[LspDiagnostic]]:
    """path -> diagnostics, for every open document (absolute path -> text).

    Each path is in the result (an empty list clears the editor's markers).
    A document veritype cannot place (not .py/.pyi) is left out.
    """
    from veritype.engine.build import run
    from veritype.modules.discover import module_for_path

    options = options or options_for(root)
    sources: list[BuildSource] = []
    for path, text in sorted(documents.items()):
        if not path.endswith((".py", ".pyi")):
            continue
        module, base_dir = module_for_path(path, options, root)
        sources.append(BuildSource(path, module, base_dir, text))
    # Two open files naming one module (a.py and a.pyi): the first is checked.
    unique = list({s.module: s for s in reversed(sources)}.values())
    result = run(unique, options) if unique else None
    out: dict[str, list[LspDiagnostic]] = {s.path: [] for s in sources}
    for diag in result.diagnostics if result else []:
        path = os.path.abspath(diag.path)
        if path in out:
            out[path].append(to_lsp(diag, documents[path].splitlines()))
    return out
