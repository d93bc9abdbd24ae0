"""The cache directory: one JSON entry per checked module, written atomically.

Layout: `<cache dir>/v1/<digest of module name and path>.json` (a line with
the digest of the JSON that follows it), and
`v1/interfaces.json` (a memo: source digest -> interface digest), plus a
`.gitignore` and a `CACHEDIR.TAG` (as mypy's cache has) so that backups and
version control skip it. Reading never raises: whatever cannot be read or
does not have the expected shape is a miss.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass

from veritype.cache.fingerprint import digest_text
from veritype.diagnostics.diagnostic import Diagnostic

FORMAT = "v1"
# The interface-digest memo (cache/interface.py is the costly part of a warm
# run: it parses every dependency); not a module entry (those are hex names).
_INTERFACES = "interfaces.json"
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This directory is veritype's incremental cache.\n"


@dataclass
class Entry:
    """What is stored for one checked module."""

    key: str  # own source, veritype, options, target: must match exactly
    deps: dict[str, str]  # module name -> its resolution and digest when checked
    diagnostics: list[Diagnostic]


class CacheStore:
    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.entries_dir = os.path.join(directory, FORMAT)
        self.write_errors = 0

    def _path(self, module: str, path: str) -> str:
        return os.path.join(self.entries_dir, digest_text(f"{module}\0{path}")[:32] + ".json")

    def load(self, module: str, path: str) -> Entry | None:
        try:
            with open(self._path(module, path), encoding="utf-8") as f:
                text = f.read()
            # The first line is the digest of the rest: a flipped byte that
            # still parses (a line number, a code) must not change the output.
            checksum, _, payload = text.partition("\n")
            if checksum != digest_text(payload):
                return None
            return _entry_from_json(json.loads(payload))
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None  # absent or corrupt: check the module again

    def save(self, module: str, path: str, entry: Entry) -> None:
        data = {
            "key": entry.key,
            "deps": entry.deps,
            "diagnostics": [_diag_to_json(d) for d in entry.diagnostics],
        }
        try:
            self._prepare()
            target = self._path(module, path)
            fd, tmp = tempfile.mkstemp(dir=self.entries_dir, prefix=".tmp-", suffix=".json")
            try:
                payload = json.dumps(data)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(digest_text(payload) + "\n" + payload)
                os.replace(tmp, target)  # atomic: readers see the old entry or the new one
            except BaseException:
                _remove_quietly(tmp)
                raise
        except OSError:
            # A read-only or full disk must not fail the check; the next run
            # simply checks this module again.
            self.write_errors += 1

    def load_interfaces(self, key: str) -> dict[str, str]:
        """The memo of interface digests (source digest -> interface digest)
        written by a run of the veritype that `key` names; empty otherwise."""
        try:
            with open(os.path.join(self.entries_dir, _INTERFACES), encoding="utf-8") as f:
                raw = json.load(f)
            memo = raw["digests"] if isinstance(raw, dict) and raw.get("key") == key else {}
            if isinstance(memo, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in memo.items()):
                return dict(memo)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            pass
        return {}

    def save_interfaces(self, key: str, memo: dict[str, str]) -> None:
        try:
            self._prepare()
            fd, tmp = tempfile.mkstemp(dir=self.entries_dir, prefix=".tmp-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump({"key": key, "digests": memo}, f)
                os.replace(tmp, os.path.join(self.entries_dir, _INTERFACES))
            except BaseException:
                _remove_quietly(tmp)
                raise
        except OSError:
            self.write_errors += 1

    def _prepare(self) -> None:
        os.makedirs(self.entries_dir, exist_ok=True)
        for name, text in ((".gitignore", "*\n"), ("CACHEDIR.TAG", _TAG)):
            path = os.path.join(self.directory, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _diag_to_json(d: Diagnostic) -> dict[str, object]:
    return {
        "path": d.path, "line": d.line, "column": d.column, "severity": d.severity,
        "message": d.message, "code": d.code, "end_line": d.end_line, "end_column": d.end_column,
    }


def _entry_from_json(raw: object) -> Entry:
    if not isinstance(raw, dict):
        raise TypeError("entry is not an object")
    key, deps, diags = raw["key"], raw["deps"], raw["diagnostics"]
    if not isinstance(key, str) or not isinstance(deps, dict) or not isinstance(diags, list):
        raise TypeError("entry has the wrong shape")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in deps.items()):
        raise TypeError("deps have the wrong shape")
    diagnostics = []
    for d in diags:
        diag = Diagnostic(
            path=str(d["path"]), line=int(d["line"]), column=int(d["column"]),
            severity=str(d["severity"]), message=str(d["message"]),
            code=None if d["code"] is None else str(d["code"]),
            end_line=None if d.get("end_line") is None else int(d["end_line"]),
            end_column=None if d.get("end_column") is None else int(d["end_column"]),
        )
        diagnostics.append(diag)
    return Entry(key, dict(deps), diagnostics)
