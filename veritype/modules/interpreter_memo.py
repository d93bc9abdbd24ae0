"""The target interpreter's answer (its site-packages), kept across runs.

Asking `--python-executable` for its paths starts that interpreter: a tenth
of a warm run's time, for an answer that changes only when the environment
is made again. The answer is kept in the project's cache directory
(`<cache dir>/v1/interpreters.json`, a checksum line then JSON) under a key of
everything it can depend on:

- the interpreter's path, the stat (size, mtime, ctime, inode) of the path
  itself (a venv's python is a symlink, made again with the venv) and of
  the file it resolves to (the base interpreter, replaced by an upgrade);
- the stat of `pyvenv.cfg` beside it or one level up (a venv's `home`,
  `include-system-site-packages`);
- what the query script reads of our environment (PYTHONNOUSERSITE, the
  home directory of the user site) and the script itself.

A file among those changed within RACY_NS of now is not trusted (git's
"racily clean" rule): on a file system with coarse timestamps a venv made
again within the same tick could keep its stats. Then the interpreter is
asked, and its answer is not kept. The directories it names are checked
for existence by the caller on every run, as before.

Reading and writing never raise: an unreadable, corrupt or foreign memo
means the interpreter is asked, a write that fails is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import time

from veritype.modules.atomic_files import write_atomically

NAME = "interpreters.json"
RACY_NS = 2_000_000_000
# Interpreters remembered per cache directory (the most recent ones).
KEEP = 8


def key(executable: str, script: str) -> str | None:
    """The memo key of asking `executable` with `script`, or None when one
    of the files it depends on changed too recently to be trusted."""
    now = time.time_ns()
    parts = [executable, hashlib.sha256(script.encode()).hexdigest()]
    bindir = os.path.dirname(executable)
    for path, stat in ((executable, os.lstat), (executable, os.stat),
                       (os.path.join(bindir, "pyvenv.cfg"), os.stat),
                       (os.path.join(os.path.dirname(bindir), "pyvenv.cfg"), os.stat)):
        try:
            st = stat(path)
        except OSError:
            parts.append(f"{path}: absent")
            continue
        if now - max(st.st_mtime_ns, st.st_ctime_ns) <= RACY_NS:
            return None
        parts.append(f"{path}: {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns} {st.st_ino}")
    parts.append(f"PYTHONNOUSERSITE={os.environ.get('PYTHONNOUSERSITE', '')}")
    parts.append(f"home={os.path.expanduser('~')}")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def read(directory: str, memo_key: str) -> list[str] | None:
    """The remembered answer for `memo_key`, if any."""
    paths = _load(directory).get(memo_key)
    if isinstance(paths, list) and all(isinstance(p, str) for p in paths):
        return paths
    return None


def write(directory: str, memo_key: str, paths: list[str]) -> None:
    memo = _load(directory)
    memo.pop(memo_key, None)
    memo[memo_key] = paths  # the most recent last
    kept = dict(list(memo.items())[-KEEP:])
    payload = json.dumps(kept)
    try:
        os.makedirs(directory, exist_ok=True)
        write_atomically(os.path.join(directory, NAME), _checksum(payload) + "\n" + payload)  # readers see a whole memo
    except OSError:
        pass  # read-only or full: the next run asks the interpreter again


def _load(directory: str) -> dict[str, object]:
    try:
        with open(os.path.join(directory, NAME), encoding="utf-8") as f:
            text = f.read()
        checksum, _, payload = text.partition("\n")
        if checksum != _checksum(payload):
            return {}
        memo = json.loads(payload)
    except (OSError, ValueError, RecursionError):
        return {}
    return memo if isinstance(memo, dict) else {}


def _checksum(payload: str) -> str:
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
