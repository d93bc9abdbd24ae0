"""Watch mode: `veritype check --watch PATHS` / `veritype watch PATHS`.

Checks once, then again after every batch of changes to Python files or
config files under the watched paths, printing the results each time. File
events come from the `watchfiles` package (the optional `watch` extra); the
loop itself (`watch_loop`) takes any iterable of change batches, so tests
drive it without real file events or sleeping.

Only the watched paths are watched: an installed package that changes under
site-packages is seen at the next re-check caused by an edit (the cache
fingerprints it), not as an event of its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TextIO

WATCHED_SUFFIXES = (".py", ".pyi")
CONFIG_NAMES = frozenset({"pyproject.toml", "mypy.ini", ".mypy.ini", "setup.cfg"})

# One batch: (change kind, path) pairs, as watchfiles yields them.
Batch = Iterable[tuple[object, str]]


class WatchUnavailable(Exception):
    """watchfiles is not installed."""


def is_relevant(path: str, ignore_dirs: tuple[str, ...] = ()) -> bool:
    """Does a change to `path` call for a re-check?"""
    if any(path == d or path.startswith(d.rstrip(os.sep) + os.sep) for d in ignore_dirs):
        return False  # the cache's own writes must not trigger a re-check
    name = os.path.basename(path)
    return name.endswith(WATCHED_SUFFIXES) or name in CONFIG_NAMES


def watch_loop(
    check: Callable[[], int],
    batches: Iterable[Batch],
    out: TextIO,
    ignore_dirs: tuple[str, ...] = (),
) -> int:
    """Check, then re-check after each batch holding a relevant change.

    Returns the last check's exit status once `batches` ends (in real use it
    ends only on Ctrl-C).
    """
    status = check()
    for batch in batches:
        changed = sorted({path for _, path in batch if is_relevant(path, ignore_dirs)})
        if not changed:
            continue
        shown = ", ".join(os.path.relpath(p) for p in changed[:3]) + (" ..." if len(changed) > 3 else "")
        out.write(f"\n== veritype: {len(changed)} file(s) changed ({shown}); checking again\n")
        out.flush()
        status = check()
    return status


def watch_roots(paths: list[str], cwd: str, config_file: str | None) -> list[str]:
    """Directories to watch: each path given (a file's own directory, so that
    editors' save-by-rename is seen), the config file's directory, else cwd."""
    roots: list[str] = []
    for p in paths or [cwd]:
        full = os.path.abspath(os.path.join(cwd, p))
        roots.append(full if os.path.isdir(full) else os.path.dirname(full))
    if config_file:
        roots.append(os.path.dirname(os.path.abspath(config_file)))
    # Drop roots inside another root: watching both would report events twice.
    unique = sorted(set(roots))
    return [r for r in unique if not any(r != o and r.startswith(o.rstrip(os.sep) + os.sep) for o in unique)]


def file_events(roots: list[str]) -> Iterable[Batch]:
    """Batches of real file events under `roots` (blocks; ends on Ctrl-C)."""
    try:
        import watchfiles
    except ImportError:
        raise WatchUnavailable(
            "watch mode needs the 'watchfiles' package: pip install 'veritype[watch]'"
        ) from None
    return watchfiles.watch(*roots, raise_interrupt=False)
