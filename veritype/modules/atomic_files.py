"""Writing a file atomically: readers see the old file or the whole new one.

Every file veritype keeps between runs (cache entries and memos, the shared
stub cache, the interpreter memo) is written to a temporary file beside its
target and renamed over it; a run killed mid-write leaves only a `.tmp-`
file, which the cache removes later. Failures (a read-only or full disk)
are raised as OSError for the caller to count or ignore: none may fail a
check. (It sits in `modules`, the lowest stage that keeps files between
runs, so that the cache above it and the interpreter memo share it.)

The temporary file's name is the process id and a counter, created with
O_EXCL (never an existing file, nor one through a symlink: as safe as
`tempfile.mkstemp`, whose random names cost a cold run a random draw and a
buffered file object per entry); a name taken (a file left by a killed run
of a process with the same id) is passed over for the next one.
"""

from __future__ import annotations

import itertools
import os

# Unique within the process (threads included: next() on it is atomic);
# forked workers have their own process id.
_COUNTER = itertools.count()
# As mkstemp: write only, created here or failing, no symlink followed, not
# inherited by child processes; owner-only permissions.
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_ATTEMPTS = 100


def write_atomically(target: str, data: bytes | str) -> None:
    """Replace `target` with `data` (text is written as UTF-8); its folder must exist."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = _create(os.path.dirname(target) or ".", ".json" if target.endswith(".json") else "")
    try:
        try:
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _create(folder: str, suffix: str) -> tuple[int, str]:
    """A new temporary file in `folder`: its descriptor and path."""
    pid = os.getpid()
    for _ in range(_ATTEMPTS):
        tmp = os.path.join(folder, f".tmp-{pid}-{next(_COUNTER)}{suffix}")
        try:
            return os.open(tmp, _FLAGS, 0o600), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {folder}")
