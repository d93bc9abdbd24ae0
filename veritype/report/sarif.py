"""`--output sarif`: the run as one SARIF 2.1.0 log (OASIS Static Analysis
Results Interchange Format), the format GitHub code scanning and other
dashboards upload.

One run, tool driver `veritype` with a rule per error code found (its
one-line doc from diagnostics/codes.py and a link to its section of
docs/error_codes.md); one result per error or standalone note, its notes
appended to the message text. Locations are relative to the current
directory (`uriBaseId` %SRCROOT%), 1-based, the end column exclusive, as
SARIF defines them. tests/test_output_formats.py validates the log against
the SARIF 2.1.0 JSON schema.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections.abc import Sequence
from typing import TextIO
from urllib.parse import quote

from veritype import __version__
from veritype.diagnostics.codes import REGISTRY, code_doc_url
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.report.groups import findings, relative_posix

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def _uri(path: str, root: str) -> tuple[str, bool]:
    """(uri, relative to %SRCROOT%)."""
    rel = relative_posix(path, root)
    if path.startswith("<") or not os.path.isabs(rel):
        return quote(rel, safe="/"), True
    return pathlib.Path(rel).as_uri(), False


def _region(diag: Diagnostic) -> dict[str, int]:
    region = {"startLine": max(diag.line, 1), "startColumn": max(diag.column, 1)}
    if diag.end_line is not None and diag.end_column is not None:
        end_line = max(diag.end_line, region["startLine"])
        end_column = diag.end_column
        if end_line == region["startLine"]:
            end_column = max(end_column, region["startColumn"])
        region["endLine"] = end_line
        region["endColumn"] = end_column
    return region


def sarif_log(diagnostics: Sequence[Diagnostic], root: str) -> dict[str, object]:
    rules: dict[str, dict[str, object]] = {}
    results: list[dict[str, object]] = []
    for finding in findings(diagnostics):
        head = finding.head
        uri, relative = _uri(head.path, root)
        location: dict[str, object] = {"uri": uri}
        if relative:
            location["uriBaseId"] = "%SRCROOT%"
        result: dict[str, object] = {
            "level": _LEVELS.get(head.severity, "note"),
            "message": {"text": finding.full_message()},
            "locations": [{"physicalLocation": {"artifactLocation": location, "region": _region(head)}}],
        }
        if head.code:
            result = {"ruleId": head.code, **result}
            if head.code not in rules:
                info = REGISTRY.get(head.code)
                rule: dict[str, object] = {"id": head.code}
                if info is not None:
                    rule["shortDescription"] = {"text": info.doc}
                    rule["helpUri"] = code_doc_url(head.code)
                rules[head.code] = rule
        results.append(result)
    driver: dict[str, object] = {
        "name": "veritype",
        "version": __version__,
        "informationUri": code_doc_url(None),
        "rules": [rules[name] for name in sorted(rules)],
    }
    base = pathlib.Path(root).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "originalUriBaseIds": {"%SRCROOT%": {"uri": base}},
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


def write_sarif(diagnostics: Sequence[Diagnostic], stream: TextIO, root: str) -> None:
    json.dump(sarif_log(diagnostics, root), stream, indent=2)
    stream.write("\n")
