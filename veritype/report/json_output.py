"""`--output veritype-json`: one JSON array of diagnostic objects on stdout, nothing else.

Each object has exactly the keys of `Diagnostic.to_json` (path, line, column,
end_line, end_column, severity, code, message); tools and the bench scripts
parse this, so the shape is a contract. (`-O json` is mypy's shape: mypy_json.py.)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic


def write_json(diagnostics: Sequence[Diagnostic], stream: TextIO) -> None:
    json.dump([d.to_json() for d in diagnostics], stream, indent=None)
    stream.write("\n")
