"""The cache directory: one JSON entry per checked module, with a checksum.

Two layouts hold the same rows. The default (`sqlite_cache`, as mypy's):
one SQLite database, `<cache dir>/v1/cache.db` (cache/database.py), a row
per entry and memo, named as the file of the other layout would be, a run's
rows written in one transaction, committed at the run's end (`flush`). With
`--no-sqlite-cache` (for shared storage such as NFS, whose locking SQLite
cannot trust), one file per row, each written atomically when saved:

`<cache dir>/v1/<digest of module name and path>.json` (a line with
the digest of the JSON that follows it), and
`v1/interfaces.json` (a memo: source digest -> interface digest),
`v1/imports.json` (a memo: source digest -> the modules it imports),
`v1/files.json` (a memo: file path -> its stat and content digest,
cache/file_digests.py), `v1/run.json` (the last run's answer,
cache/run_summary.py), each with the same checksum line, plus a
`.gitignore` and a `CACHEDIR.TAG` (as mypy's cache has) so that backups and
version control skip it. Reading never raises: whatever cannot be read or
does not have the expected shape is a miss.

Faults it survives (the file layout; the database's are in database.py, and
a row has the same checksum line): a run killed mid-write leaves at most a
`.tmp-*` file (entries are replaced atomically), which a later run removes once it is
older than STALE_TEMP_SECONDS (a concurrent run's temporary file lives for
milliseconds); two runs sharing the directory each replace whole entries, so
a reader sees one run's entry or the other's, both valid. What a run found
(entries reused, missing, unreadable and rebuilt, temporary files removed)
is counted for `--verbose` (`CacheStore.summary`).
"""

from __future__ import annotations

import json
import os
from json.encoder import encode_basestring_ascii
import time
from collections.abc import Callable, Iterable, Mapping
from itertools import chain
from dataclasses import dataclass, field
from typing import Any, cast

from veritype.modules.atomic_files import write_atomically
from veritype.cache.database import FILE_NAME, Database, DatabaseFault
from veritype.cache import run_summary
from veritype.cache.file_digests import valid_records
from veritype.cache.run_summary import EntryStat, RunSummary
from veritype.cache.fingerprint import digest_text
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.syntax.read_files import read_bytes

# A str as `json.dumps` writes it (ASCII, escaped): json's own encoder, in C.
json_string: Callable[[str], str] = encode_basestring_ascii  # type: ignore[assignment]
_json_string = json_string

FORMAT = "v1"
# The interface-digest memo (cache/interface.py is the costly part of a warm
# run: it parses every dependency); not a module entry (those are hex names).
_INTERFACES = "interfaces.json"
# The import-list memo (engine/followed_imports.py: finding the modules to
# follow parsed every source file, half of a warm run).
_IMPORTS = "imports.json"
# The content-digest memo (cache/file_digests.py: stat, not read, unchanged files).
_FILES = "files.json"
# Its key: a file's digest does not depend on the veritype that took it.
_FILES_KEY = "files-1"
# The last run's answer (cache/run_summary.py).
_RUN = "run.json"
STALE_TEMP_SECONDS = 60.0
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This directory is veritype's incremental cache.\n"


@dataclass
class Entry:
    """What is stored for one checked module."""

    key: str  # own source, veritype, options, target: must match exactly
    deps: dict[str, str]  # module name -> its resolution and digest when checked
    diagnostics: list[Diagnostic]
    # module checked in the same run -> digest of its entry's deps: that entry
    # holds the rest of the import closure (cache/closures.py).
    refs: dict[str, str] = field(default_factory=dict)
    # closures.deps_digest(deps), stored by the writer ("" when not known):
    # the entries that refer to this one compare it, and a warm run need not
    # serialize and hash every referred entry's deps again to find it.
    digest: str = ""


class CacheStore:
    def __init__(self, directory: str, sqlite: bool = True) -> None:
        self.directory = directory
        self.entries_dir = os.path.join(directory, FORMAT)
        # The database (sqlite_cache), or None: one file per row.
        self.database = Database(os.path.join(self.entries_dir, FILE_NAME)) if sqlite else None
        # The rows written to the database's open transaction (`flush`
        # commits it), and whether it failed (the rest of the run's rows are
        # then counted as not written, without waiting for its lock again).
        # The rows' stamp, this store's, is drawn once (database.py).
        self._in_transaction = 0
        self._failed = False
        self._stamp = int.from_bytes(os.urandom(7), "big")
        self.write_errors = 0
        # For --verbose: entry files present but unreadable or corrupt (checked
        # again, then rewritten), lookups with no entry, stale temporaries removed.
        self.unreadable: list[str] = []
        self.missing = 0
        self.temps_removed = 0
        # The directory, its .gitignore and CACHEDIR.TAG are made once per store
        # (`_prepare`), not before each of a cold run's hundreds of entries; a
        # write that finds the directory gone (removed since) makes them again
        # (`_write`).
        self._prepared = False
        # The names in the entries' directory when the run began (listed by
        # remove_stale_temps), with those this store wrote since; None: not
        # listed. An entry not among them is missing without an open to
        # find so (a cold run: one failing open per module). One a concurrent
        # run writes after the listing is missed: checked again, as without it.
        self._present: set[str] | None = None

    def _path(self, module: str, path: str) -> str:
        return os.path.join(self.entries_dir, _name(module, path))

    def load(self, module: str, path: str) -> Entry | None:
        name = _name(module, path)
        if self.database is None and self._present is not None and name not in self._present:
            self.missing += 1
            return None
        try:
            text = self._read(name).decode("utf-8")
        except FileNotFoundError:
            self.missing += 1
            return None
        except (OSError, ValueError):
            self.unreadable.append(module)
            return None
        try:
            # The first line is the digest of the rest: a flipped byte that
            # still parses (a line number, a code) must not change the output.
            checksum, _, payload = text.partition("\n")
            if checksum != digest_text(payload):
                self.unreadable.append(module)
                return None
            return _entry_from_json(json.loads(payload))
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            self.unreadable.append(module)
            return None  # corrupt: check the module again

    def remove_stale_temps(self, now: float | None = None) -> None:
        """Remove the `.tmp-*` files a killed run left (old enough not to be a
        concurrent run's write in progress)."""
        now = time.time() if now is None else now
        try:
            names = os.listdir(self.entries_dir)
        except FileNotFoundError:
            self._present = set()
            return
        except OSError:
            return
        self._present = set(names)
        for name in names:
            if not name.startswith(".tmp-"):
                continue
            full = os.path.join(self.entries_dir, name)
            try:
                if now - os.stat(full).st_mtime > STALE_TEMP_SECONDS:
                    os.unlink(full)
                    self.temps_removed += 1
            except OSError:
                pass

    def summary(self, reused: int) -> list[str]:
        """--verbose lines: what the run found in the cache and did about it."""
        lines = [f"cache: {reused} entr{'y' if reused == 1 else 'ies'} reused, {self.missing} missing (checked)"]
        if self.unreadable:
            shown = ", ".join(self.unreadable[:5]) + (", ..." if len(self.unreadable) > 5 else "")
            lines.append(f"cache: {len(self.unreadable)} entr{'y' if len(self.unreadable) == 1 else 'ies'} unreadable or corrupt, checked again and rewritten: {shown}")
        if self.temps_removed:
            lines.append(f"cache: removed {self.temps_removed} temporary file(s) left by an interrupted run")
        database = self.database
        if database is not None and database.corrupt is not None:
            lines.append(f"cache: the database {database.path} was corrupt ({database.corrupt}): removed, its entries checked again and written to a new one")
        if database is not None and database.unreadable is not None:
            lines.append(f"cache: the database {database.path} could not be read ({database.unreadable}): its entries checked again")
        if self.write_errors:
            lines.append(f"cache: {self.write_errors} entr{'y' if self.write_errors == 1 else 'ies'} could not be written (the next run checks them again)")
        return lines

    def save(self, module: str, path: str, entry: Entry) -> None:
        self.save_encoded(module, path, entry.key, json.dumps(entry.deps), entry.refs, entry.digest, entry.diagnostics)

    def save_encoded(self, module: str, path: str, key: str, deps_json: str, refs: dict[str, str], digest: str,
                     diagnostics: list[Diagnostic]) -> None:
        """`save` of an Entry whose `deps` are given as `json.dumps` writes
        them (cache/incremental.py: each state's text is encoded once, not
        once for each of the tens of entries recording it). The same bytes as
        `json.dumps` of the whole entry: its default separators, in its order."""
        try:
            payload = (f'{{"key": {_json_string(key)}, "deps": {deps_json}, "refs": {json.dumps(refs)}, '
                       f'"digest": {_json_string(digest)}, "diagnostics": {json.dumps([_diag_to_json(d) for d in diagnostics])}}}')
            # Atomic: readers see the old entry or the new one.
            self._write(_name(module, path), digest_text(payload) + "\n" + payload)
        except OSError:
            # A read-only or full disk must not fail the check; the next run
            # simply checks this module again.
            self.write_errors += 1

    def load_interfaces(self, key: str) -> dict[str, str]:
        """The memo of interface digests (source digest -> interface digest)
        written by a run of the veritype that `key` names; empty otherwise."""
        memo = self._load_memo(_INTERFACES, key)
        if {*map(type, memo.values())} <= {str}:
            return memo  # type: ignore[return-value]
        return {}

    def save_interfaces(self, key: str, memo: dict[str, str]) -> None:
        self._save_memo(_INTERFACES, key, memo)

    def load_imports(self, key: str) -> dict[str, list[str]]:
        """The memo of import lists (digest of a module's source and target ->
        the modules it imports) written by the veritype that `key` names."""
        memo = self._load_memo(_IMPORTS, key)
        values = memo.values()
        # Type sets, in C (thousands of names); the lists are checked first.
        if {*map(type, values)} <= {list} and {*map(type, chain.from_iterable(cast("Iterable[list[object]]", values)))} <= {str}:
            return memo  # type: ignore[return-value]
        return {}

    def save_imports(self, key: str, memo: dict[str, list[str]]) -> None:
        self._save_memo(_IMPORTS, key, memo)

    def load_files(self) -> dict[str, list[object]]:
        """The memo of file digests (absolute path -> stat and digest,
        cache/file_digests.py); malformed records are left out."""
        return valid_records(self._load_memo(_FILES, _FILES_KEY))

    def save_files(self, memo: Mapping[str, list[object]]) -> None:
        self._save_memo(_FILES, _FILES_KEY, memo)

    def entry_stat(self, module: str, path: str) -> EntryStat:
        """The stat of a module's entry file, or row (run_summary.EntryStat)."""
        if self.database is not None:
            return self.database.stat(_name(module, path))
        try:
            st = os.stat(self._path(module, path))
        except OSError:
            return None
        return [st.st_size, st.st_mtime_ns, st.st_ino]

    def load_run(self, key: str) -> RunSummary | None:
        """The last run's summary, if it was a run with this key."""
        raw = self._load_memo(_RUN, key)
        if not raw:
            return None
        try:
            return run_summary.from_json(key, raw, _diag_from_json)
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def save_run(self, summary: RunSummary) -> None:
        self._save_memo(_RUN, summary.key, run_summary.to_json(summary, _diag_to_json))

    def _load_memo(self, name: str, key: str) -> dict[str, object]:
        try:
            text = self._read(name).decode("utf-8")
            # A checksum line, as in the entries: a flipped byte in a memo
            # (a module name in an import list) must not change the output.
            checksum, _, payload = text.partition("\n")
            if checksum != digest_text(payload):
                return {}
            raw = json.loads(payload)
            memo = raw["digests"] if isinstance(raw, dict) and raw.get("key") == key else {}
            if isinstance(memo, dict) and {*map(type, memo)} <= {str}:
                return dict(memo)
        except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
            pass
        return {}

    def _save_memo(self, name: str, key: str, memo: Mapping[str, object]) -> None:
        try:
            payload = json.dumps({"key": key, "digests": memo})
            self._write(name, digest_text(payload) + "\n" + payload)
        except OSError:
            self.write_errors += 1

    def _read(self, name: str) -> bytes:
        """A row's bytes, from the database or from its file; raises
        FileNotFoundError where there is none, another OSError where it cannot
        be read (the database's faults are its own: a miss, database.py)."""
        if self.database is None:
            return read_bytes(os.path.join(self.entries_dir, name))
        data = self.database.get(name)
        if data is None:
            raise FileNotFoundError(name)
        return data

    def flush(self) -> None:
        """Commit the rows written since the last flush (the database layout:
        one transaction; the file layout wrote each when saved), and close
        the database until the next read. Every driver's run ends with it
        (engine/build.py); what cannot be written is counted, never raised."""
        database = self.database
        if database is None:
            return
        try:
            database.commit()
        except DatabaseFault:
            self.write_errors += self._in_transaction
        finally:
            self._in_transaction = 0
            self._failed = False
            database.close()

    def _write(self, name: str, text: str) -> None:
        """Save a row: to the database's transaction, or to its file of the
        entries' directory, atomically (raises OSError)."""
        database = self.database
        if database is not None:
            if self._failed:
                raise OSError("the run's transaction failed")
            try:
                if not self._prepared:
                    self._prepare()
                database.write(name, len(text), self._stamp, text)
            except (OSError, DatabaseFault):
                # The transaction is gone, and its earlier rows with it (this
                # row is counted by the caller).
                self.write_errors += self._in_transaction
                self._in_transaction = 0
                self._failed = True
                raise OSError("not written") from None
            self._in_transaction += 1
            return
        target = os.path.join(self.entries_dir, name)
        if not self._prepared:
            self._prepare()
        try:
            write_atomically(target, text)
        except FileNotFoundError:
            # The directory went after it was made (removed by hand while a
            # run, or a long-lived server's store, was writing): made again,
            # as every write made it before it was made once per store.
            self._prepare()
            write_atomically(target, text)
        if self._present is not None:
            self._present.add(os.path.basename(target))

    def _prepare(self) -> None:
        os.makedirs(self.entries_dir, exist_ok=True)
        for name, text in ((".gitignore", "*\n"), ("CACHEDIR.TAG", _TAG)):
            path = os.path.join(self.directory, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
        self._prepared = True


def _name(module: str, path: str) -> str:
    """A module's entry: its file's name, or its row's."""
    return digest_text(f"{module}\0{path}")[:32] + ".json"


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
    refs = raw.get("refs", {})
    digest = raw.get("digest", "")
    if not isinstance(refs, dict) or not isinstance(digest, str):
        raise TypeError("refs have the wrong shape")
    if not (_all_str(deps) and _all_str(refs)):
        raise TypeError("deps have the wrong shape")
    diagnostics = [_diag_from_json(d) for d in diags]
    return Entry(key, dict(deps), diagnostics, dict(refs), digest)


def _diag_from_json(d: Any) -> Diagnostic:
    return Diagnostic(
        path=str(d["path"]), line=int(d["line"]), column=int(d["column"]),
        severity=str(d["severity"]), message=str(d["message"]),
        code=None if d["code"] is None else str(d["code"]),
        end_line=None if d.get("end_line") is None else int(d["end_line"]),
        end_column=None if d.get("end_column") is None else int(d["end_column"]),
    )


def _all_str(mapping: dict[object, object]) -> bool:
    """Every key and value is a str (JSON gives exact types; in C, not a
    Python loop: an entry records thousands of states)."""
    return {*map(type, mapping), *map(type, mapping.values())} <= {str}
