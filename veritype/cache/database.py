"""The cache's rows in one SQLite database (`<cache dir>/v1/cache.db`), the default layout.

store.py owns what a row holds (an entry or a memo, as the file layout's
file of the same name: a checksum line, then JSON); this module owns the
database: reading a row or all rows' stamps, and writing a run's rows in one
transaction (begun by its first row, committed by the store's flush; the rows
go to SQLite as they come, not held until then: a cold run's ~5 MB of entries
would add to its peak memory). A cold run writes ~400 entries: one file each cost it a create,
a write and a rename (ext4: 80-340 us per create, very variable); one
transaction of them all costs ~10 ms. mypy keeps its cache in SQLite too
(`sqlite_cache = True`); `--no-sqlite-cache` keeps one file per entry (for
shared storage such as NFS, where SQLite's locking is unreliable).

One table, `rows(name, size, stamp, data)`. `stamp` is a random number drawn
once per store (per run) and written with each of its rows: with `size`, it
is a row's `EntryStat` (run_summary.py), the warm run's proof that no other
run rewrote the row since the summary was written beside it (a file's is its
size, mtime and inode).

Faults: nothing here raises but `DatabaseFault` (the store turns it into a
miss or a write error, never a failed check).
- a file that is not a database, or whose pages are damaged (SQLITE_NOTADB,
  SQLITE_CORRUPT): removed (with its journal) when found, so the run reads
  nothing more from it and its write makes a new one; `corrupt` says why,
  for `--verbose`. A flipped byte inside a row's text is caught by its
  checksum (store.py), as in a file.
- another run writing: readers and writers wait for its lock up to
  BUSY_TIMEOUT seconds; then a read is a miss and a write is counted as
  failed (the next run checks those modules again).
- no database yet: every read is a miss, without creating it (nor the
  directory) until the run writes.
- a read-only or full disk: the write fails and is counted.
A run killed mid-transaction leaves SQLite's journal, rolled back by the next
connection that opens the file: readers see the whole last transaction or
none of it.

The connection lives until `close` (the store's flush, once per run), and is
opened again in a process other than the one that opened it (a forked
worker must not use its parent's connection).
"""

from __future__ import annotations

import os
import sqlite3

FILE_NAME = "cache.db"
# Seconds a read or write waits for another run's lock before giving up.
BUSY_TIMEOUT = 10.0
# SQLite's page cache, in KiB (its default: 2,000): the rows are written once
# and read once per run, and a cold run's peak memory (at its end, as it
# writes) took +1.8 MB with the default, +0.3 MB with 256 KiB, ~0 with 64.
_PAGE_CACHE_KIB = 64
_SCHEMA = "CREATE TABLE IF NOT EXISTS rows (name TEXT PRIMARY KEY, size INTEGER NOT NULL, stamp INTEGER NOT NULL, data TEXT NOT NULL)"
# Primary result codes (the low byte of an extended code) of a damaged file:
# SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_MISMATCH; and SQLITE_ERROR, which the
# fixed statements here meet only where the schema is not theirs (a damaged
# schema row: "no such column"), but for "no such table" (no rows yet).
_CORRUPT_CODES = frozenset({11, 26, 20})
_SQLITE_ERROR = 1


class DatabaseFault(Exception):
    """A read or write that did not happen (the reason is the message)."""


class Database:
    def __init__(self, path: str) -> None:
        self.path = path
        # Why the file was found damaged (and removed), or None.
        self.corrupt: str | None = None
        # Why a read failed other than by damage (a lock held too long), or None.
        self.unreadable: str | None = None
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._stats: dict[str, list[int]] | None = None
        # No database file when first read: the reads until `close` are
        # misses without looking again (a cold run: one stat per module
        # otherwise). One another run makes meanwhile is missed: checked again.
        self._absent = False

    def get(self, name: str) -> bytes | None:
        """A row's text as stored (UTF-8, unless damaged: the caller decodes
        it), or None (no row, no database, or it cannot be read)."""
        conn = self._reader()
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT CAST(data AS BLOB) FROM rows WHERE name = ?", (name,)).fetchone()
        except sqlite3.Error as exc:
            self._read_failed(exc)
            return None
        return row[0] if row is not None and isinstance(row[0], bytes) else None

    def stat(self, name: str) -> list[int] | None:
        """A row's [size, stamp, 0], or None; every row's, read in one query
        at the first call (a warm run asks it of every checked module)."""
        if self._stats is None:
            self._stats = {}
            conn = self._reader()
            if conn is not None:
                try:
                    for row_name, size, stamp in conn.execute("SELECT name, size, stamp FROM rows"):
                        if type(size) is int and type(stamp) is int:
                            self._stats[row_name] = [size, stamp, 0]
                except sqlite3.Error as exc:
                    self._read_failed(exc)
                    self._stats = {}
        return self._stats.get(name)

    def write(self, name: str, size: int, stamp: int, data: str) -> None:
        """Write a row, replacing the row of that name, in the run's
        transaction (begun by its first write; `commit` ends it). Raises
        DatabaseFault: then the transaction is rolled back, and its earlier
        rows are not written either."""
        try:
            conn = self._transaction()
            conn.execute("INSERT OR REPLACE INTO rows VALUES (?, ?, ?, ?)", (name, size, stamp, data))
        except (sqlite3.Error, OSError) as exc:
            self._write_failed(exc)
        if self._stats is not None:
            self._stats[name] = [size, stamp, 0]

    def commit(self) -> None:
        """End the run's transaction, if one was begun; raises DatabaseFault."""
        conn = self._conn
        if conn is None or self._pid != os.getpid() or not conn.in_transaction:
            return
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._write_failed(exc)

    def _transaction(self) -> sqlite3.Connection:
        conn = self._connection(create=True)
        assert conn is not None  # create=True
        if conn.in_transaction:
            return conn
        try:
            # IMMEDIATE: the write lock is taken (or waited for) up front,
            # not at some row half-way through.
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(_SCHEMA)
        except sqlite3.Error as exc:
            if not _is_damage(exc):
                raise
            # A damaged database found by the write: a new one instead.
            self._remove(str(exc))
            conn = self._connection(create=True)
            assert conn is not None
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(_SCHEMA)
        return conn

    def _write_failed(self, exc: BaseException) -> None:
        if isinstance(exc, sqlite3.Error) and _is_damage(exc):
            self._remove(str(exc))
        else:
            self.close()  # rolls the transaction back
        raise DatabaseFault(str(exc) or type(exc).__name__) from None

    def close(self) -> None:
        """Close the connection (rolling back a transaction not committed)."""
        if self._conn is not None and self._pid == os.getpid():
            try:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            try:
                self._conn.close()
            except sqlite3.Error:
                pass
        self._conn = None
        self._stats = None
        self._absent = False

    def _reader(self) -> sqlite3.Connection | None:
        try:
            return self._connection(create=False)
        except (sqlite3.Error, OSError) as exc:
            self._read_failed(exc)
            return None

    def _connection(self, create: bool) -> sqlite3.Connection | None:
        """The open connection; a new one if none (None when there is no
        database and `create` is false: a cold run's reads open nothing)."""
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        self._conn = None
        if not create and (self._absent or not os.path.exists(self.path)):
            self._absent = True
            return None
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        try:
            conn.execute(f"PRAGMA cache_size = -{_PAGE_CACHE_KIB}")
            # No fsync (the file layout never made one either): a killed run
            # leaves its journal written all the same (the OS has it), and a
            # power loss that damages the file is a damaged database (rebuilt)
            # or older rows, each still checked against its key and states.
            conn.execute("PRAGMA synchronous = OFF")
            if not create:
                # A file that is not a database fails here, at the first read.
                conn.execute("SELECT 1 FROM sqlite_master").fetchall()
        except BaseException:
            conn.close()
            raise
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _read_failed(self, exc: BaseException) -> None:
        if isinstance(exc, sqlite3.Error) and _is_damage(exc):
            self._remove(str(exc))
        elif "no such table" in str(exc):
            pass  # made by a run killed before its first commit: empty
        else:
            self.unreadable = str(exc)

    def _remove(self, why: str) -> None:
        """A damaged database: closed and removed, so that nothing more is
        read from it and the run's write makes a new one."""
        self.corrupt = why
        self.close()
        self._stats = {}
        for path in (self.path, self.path + "-journal", self.path + "-wal", self.path + "-shm"):
            try:
                os.unlink(path)
            except OSError:
                pass


def _is_damage(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        if code == _SQLITE_ERROR:
            return "no such table" not in str(exc)
        return code & 0xFF in _CORRUPT_CODES
    return isinstance(exc, sqlite3.DatabaseError) and ("not a database" in str(exc) or "malformed" in str(exc))
