"""`--output gitlab`: a GitLab Code Quality report (one JSON array).

Each finding is `{description, check_name, fingerprint, severity, location:
{path, lines: {begin}}}`, the fields GitLab's Code Quality widget reads
(`artifacts: reports: codequality:` in .gitlab-ci.yml). Severity: error →
major, warning → minor, note → info. The fingerprint identifies an issue
across commits so GitLab can tell new ones from fixed ones: a hash of path,
code and message (not the line, which moves as code is edited above it),
with a counter for identical findings in one file.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.report.groups import findings, relative_posix

_SEVERITIES = {"error": "major", "warning": "minor", "note": "info"}


def gitlab_records(diagnostics: Sequence[Diagnostic], root: str) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    seen: dict[tuple[str, str, str], int] = {}
    for finding in findings(diagnostics):
        head = finding.head
        path = relative_posix(head.path, root)
        code = head.code or head.severity
        message = finding.full_message()
        key = (path, code, message)
        nth = seen.get(key, 0)
        seen[key] = nth + 1
        fingerprint = hashlib.sha256("\0".join([path, code, message, str(nth)]).encode("utf-8")).hexdigest()
        records.append(
            {
                "description": message,
                "check_name": code,
                "fingerprint": fingerprint,
                "severity": _SEVERITIES.get(head.severity, "info"),
                "location": {"path": path, "lines": {"begin": head.line}},
            }
        )
    return records


def write_gitlab(diagnostics: Sequence[Diagnostic], stream: TextIO, root: str) -> None:
    json.dump(gitlab_records(diagnostics, root), stream, indent=2)
    stream.write("\n")
