"""Writing a file atomically: readers see the old file or the whole new one.

Every file veritype keeps between runs (cache entries and memos, the shared
stub cache, the interpreter memo) is written to a temporary file beside its
target and renamed over it; a run killed mid-write leaves only a `.tmp-`
file, which the cache removes later. Failures (a read-only or full disk)
are raised as OSError for the caller to count or ignore: none may fail a
check. (It sits in `modules`, the lowest stage that keeps files between
runs, so that the cache above it and the interpreter memo share it.)
"""

from __future__ import annotations

import os
import tempfile


def write_atomically(target: str, data: bytes | str) -> None:
    """Replace `target` with `data` (text is written as UTF-8); its folder must exist."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target) or ".", prefix=".tmp-", suffix=".json" if target.endswith(".json") else "")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
