"""The shared stub cache: what a new project's first run spends on library
code, kept once per user.

The project cache (store.py) keeps a project's own results, and for each
module the states of its dependencies, with an interface digest of every
installed file in the import closure (cache/interface.py: a parse and a
pure-Python tokenize each). A project's first run computes those digests for
every installed file its program reaches, the same in every project: on
trio's first run, 264 files and 1.5 s of 7.9 s. This cache keeps them, for
files that are not the project's own (site-packages, stub packages; the
stdlib is keyed by typeshed's version and needs none), in one directory per
user:

    <shared dir>/stubs-v1/ifaces/<veritype build>/<d[:2]>/<d>
        the interface digest of the file whose bytes have the sha256
        digest d, and a checksum of the two.

Entries are addressed by content, so one directory serves every project,
typeshed version, target Python version, platform and environment at once:
a file that changed (another version of a package) has another digest. The
veritype build (fingerprint.veritype_key) is part of the path, as the
digest is veritype's own computation; a build that wrote nothing for 30
days (its `.written` file's mtime) is removed by the next build that writes.

Parsed trees are not kept: measured (bench/RESULTS.md, 2026-12-04), reading
a pickled `ast.Module` back costs what `ast.parse` costs inside a run (the
objects made and collected are the same), so a cached tree saved nothing.

Where: `--shared-cache-dir DIR`, else `$VERITYPE_SHARED_CACHE_DIR`, else
`$XDG_CACHE_HOME/veritype`, else `~/.cache/veritype` (config/project.py);
`--no-shared-cache` (or `--cache-dir /dev/null`, mypy's "no cache") turns
it off. It is not under `--cache-dir`: that directory is per project, and
sharing is the point.

Safety: entries are written to a temporary file and renamed into place
(`os.replace`), so concurrent runs each see a whole entry or none; an
entry that does not match its checksum is a miss, computed again and
rewritten, and `--verbose` says so. Nothing here raises: the cache can only
make a run faster.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time

from veritype.modules.atomic_files import write_atomically

FORMAT = "stubs-v1"
_IFACE = re.compile(r"(iface|full):[0-9a-f]{64}")
# A veritype build's entries not written for this long are removed by a run
# of another build (a development checkout is a new build at every edit).
STALE_BUILD_SECONDS = 30 * 24 * 3600
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This directory is veritype's shared stub cache.\n"


class SharedCache:
    """One run's view of the shared stub cache, with counts for --verbose."""

    def __init__(self, directory: str, veritype_key: str) -> None:
        self.directory = directory
        self.root = os.path.join(directory, FORMAT)
        self.ifaces_dir = os.path.join(self.root, "ifaces", hashlib.sha256(veritype_key.encode()).hexdigest()[:32])
        self.reused = 0
        self.stored = 0
        self.corrupt: list[str] = []  # the files whose entries were bad (computed again, rewritten)
        self.write_errors = 0
        self._prepared = False

    def interface(self, content_digest: str, path: str) -> str | None:
        """The stored interface digest of the file with these bytes (at
        `path`, named if its entry is bad), if any."""
        entry = self._entry(content_digest)
        try:
            with open(entry, encoding="ascii") as f:
                value = f.read()
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            value = ""
        digest, _, check = value.partition(" ")
        if _IFACE.fullmatch(digest) and check == _check(content_digest, digest):
            self.reused += 1
            return digest
        self.corrupt.append(path)
        return None

    def store_interface(self, content_digest: str, value: str) -> None:
        if self._write(self._entry(content_digest), f"{value} {_check(content_digest, value)}".encode("ascii")):
            self.stored += 1

    def _entry(self, content_digest: str) -> str:
        return os.path.join(self.ifaces_dir, content_digest[:2], content_digest)

    def _write(self, entry: str, data: bytes) -> bool:
        try:
            self._prepare()
            os.makedirs(os.path.dirname(entry), exist_ok=True)
            write_atomically(entry, data)  # a reader sees no entry or a whole one
        except OSError:
            self.write_errors += 1  # read-only or full: this run is not the worse for it
            return False
        return True

    def _prepare(self) -> None:
        if self._prepared:
            return
        os.makedirs(self.ifaces_dir, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", "*\n")):
            path = os.path.join(self.directory, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
        with open(os.path.join(self.ifaces_dir, ".written"), "w", encoding="ascii"):
            pass  # its mtime: when this build last wrote (see _remove_stale_builds)
        self._remove_stale_builds()
        self._prepared = True

    def _remove_stale_builds(self, now: float | None = None) -> None:
        """Remove the entries of veritype builds that wrote nothing for
        STALE_BUILD_SECONDS (a concurrent reader of one just misses)."""
        now = time.time() if now is None else now
        parent = os.path.dirname(self.ifaces_dir)
        try:
            names = os.listdir(parent)
        except OSError:
            return
        for name in names:
            build = os.path.join(parent, name)
            if build == self.ifaces_dir:
                continue
            try:
                stale = now - os.stat(os.path.join(build, ".written")).st_mtime > STALE_BUILD_SECONDS
            except OSError:
                stale = True  # never finished preparing, or not ours
            if stale:
                shutil.rmtree(build, ignore_errors=True)

    def summary(self) -> list[str]:
        """--verbose lines: what the run took from the shared cache and added."""
        lines = [f"shared stub cache {self.directory}: {self.reused} library interface digest(s) reused, {self.stored} stored"]
        if self.corrupt:
            shown = ", ".join(self.corrupt[:5]) + (", ..." if len(self.corrupt) > 5 else "")
            lines.append(f"shared stub cache: {len(self.corrupt)} entr{'y' if len(self.corrupt) == 1 else 'ies'} unreadable or corrupt, rebuilt: {shown}")
        if self.write_errors:
            lines.append(f"shared stub cache: {self.write_errors} entr{'y' if self.write_errors == 1 else 'ies'} could not be written")
        return lines


def _check(content_digest: str, value: str) -> str:
    """An entry's checksum: a flipped character that still looks like a
    digest is caught, as is an entry copied to another file's name."""
    return hashlib.sha256(f"{content_digest}:{value}".encode("ascii")).hexdigest()[:16]
