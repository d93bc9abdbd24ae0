"""Content digests of files, kept across runs while a file's stat is unchanged.

A warm run must know whether each source file, and each installed file in
the import closures, still has the bytes it had: reading and hashing every
one of them (three times over: the module's key, its interface digest, the
import memo) was a fifth of a warm run. As mypy does (it compares size and
mtime before it hashes), a file's sha256 is kept with its stat, and taken
again only when the stat differs. The stat compared is (size, mtime_ns,
ctime_ns, inode): ctime cannot be set back by the tools that copy mtimes
(`cp -p`, `rsync -t`, `tar x`), and an editor that saves by renaming a new
file into place changes the inode.

A file whose mtime or ctime is within RACY_NS of the moment it was hashed is
not remembered (git's "racily clean" rule): on a file system with coarse
timestamps a second write in the same tick, of the same size, would
otherwise look unchanged. Such a file is hashed again by the next run.

Stored in the cache directory (store.py, `files.json`, with a checksum:
a corrupt memo is an empty one); only the files a run looked at are kept,
so the memo does not grow with every file ever seen.
"""

from __future__ import annotations

import os
import time

from veritype.cache.fingerprint import UNREADABLE, digest_bytes
from veritype.syntax.read_files import read_bytes

# Two seconds: FAT's mtime tick, the coarsest in common use.
RACY_NS = 2_000_000_000

# One record: [size, mtime_ns, ctime_ns, inode, sha256 hex digest].
Record = list[object]


class FileDigests:
    """The content digests of one run, from the memo where a file's stat matches."""

    def __init__(self, known: dict[str, Record] | None = None) -> None:
        self.known = known or {}  # absolute path -> record, from the last run
        self.used: dict[str, Record] = {}  # the records this run confirmed or made
        self._digests: dict[str, str] = {}  # absolute path -> digest, this run
        # The same by the path as asked (relative ones: os.path.abspath asks
        # the system for the current directory each time; a run asks for each
        # source's digest four times over). A FileDigests lives for one run.
        self._asked: dict[str, str] = {}
        self.hashed = 0  # files read and hashed (for tests and --verbose)
        # (path as asked, its bytes) of the file the last call of `digest`
        # read, if it read one: for a caller about to read it too (`take_read`),
        # not a second read of the file (a cold run's import walk).
        self._read: tuple[str, bytes] | None = None

    def digest(self, path: str) -> str:
        """The sha256 of the file's bytes, or UNREADABLE."""
        self._read = None
        found = self._asked.get(path)
        if found is None:
            full = os.path.abspath(path)
            found = self._digests.get(full)
            if found is None:
                found = self._digests[full] = self._compute(full, path)
            self._asked[path] = found
        return found

    def take_read(self, path: str) -> tuple[bytes, str] | None:
        """The bytes of `path` and their digest, when the last call of
        `digest` (for that very path) read them; once: they are let go."""
        read, self._read = self._read, None
        return (read[1], self._asked[path]) if read is not None and read[0] == path else None

    def _compute(self, full: str, asked: str) -> str:
        try:
            st = os.stat(full)
        except OSError:
            return UNREADABLE
        sig: Record = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        record = self.known.get(full)
        if record is not None and record[:4] == sig:
            self.used[full] = record
            return str(record[4])
        try:
            data = read_bytes(full)
        except OSError:
            return UNREADABLE
        self.hashed += 1
        digest = digest_bytes(data)
        self._read = (asked, data)
        if len(data) == st.st_size and time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS:
            self.used[full] = [*sig, digest]
        return digest

    def changed(self) -> bool:
        """Whether the memo to store differs from the one read."""
        return self.used != self.known


def valid_records(raw: dict[str, object]) -> dict[str, Record]:
    """The well-formed records of a memo read from disk (the others are dropped)."""
    out: dict[str, Record] = {}
    for path, record in raw.items():
        if (isinstance(record, list) and len(record) == 5 and all(type(v) is int for v in record[:4])
                and isinstance(record[4], str)):
            out[path] = record
    return out
