"""Run a check on a thread with a deep stack and a high recursion limit.

The checker walks syntax trees and types recursively. Legal programs can be
deep: a chain of 2,000 `+`, 1,000 nested blocks, a 190-deep call; Python's
default limit of 1,000 frames (on the main thread's 8 MiB C stack) is met
long before, and a RecursionError deep in a lazy evaluation used to lose the
whole run (issue #19). As mypy does, the limit is raised; unlike a bare
`sys.setrecursionlimit`, the work runs on a thread whose C stack is large
enough for that limit (on Python 3.11 a Python call made through C code uses
C stack), so the interpreter raises RecursionError, which every lazy
evaluation turns into Any, instead of overflowing the stack.

The limit is process-wide: it is raised while any deep-stack call runs and
put back when the last one ends. A call made from inside a deep-stack thread
runs in place.

The thread also gives its Python frames room (`_roomy`): CPython keeps them in
a per-thread stack of 16 KiB chunks, each mapped when a call goes past the end
of the last one and unmapped when that call returns. The checker's recursion
goes up and down across those ends all the time: 4,663 mmap/munmap pairs of
16 KiB on a cold run of the bench corpus, each pair with page faults on the
fresh pages. A frame larger than a chunk gets a chunk of its own, of the next
power of two at least its size, and the frames it calls fill the rest; so
the work runs under one frame that declares a value stack of 1 MiB (never
touched: only the pages the nested frames use are ever faulted in), whose
2 MiB chunk holds the next ~1 MiB of frames, thousands deep.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# 30,000 frames of Python through C code need well under 256 MiB of C stack;
# the memory is reserved, and only the pages touched are ever used.
RECURSION_LIMIT = 30_000
STACK_BYTES = 512 * 1024 * 1024

# The declared value stack of the frame the work runs under, in slots (8 bytes).
ROOMY_FRAME_SLOTS = 128 * 1024


def _roomy(fn: Callable[[], T]) -> T:
    """`fn()`, under a frame with room for the frames it calls (see the module docstring)."""
    return fn()


# The size of a frame is fixed by its code object; the value stack slots past
# what the code needs are never read or written.
_roomy.__code__ = _roomy.__code__.replace(co_stacksize=ROOMY_FRAME_SLOTS)

_lock = threading.Lock()
_local = threading.local()
_active = 0
_saved_limit = 0


def call_with_deep_stack(fn: Callable[[], T]) -> T:
    """`fn()` on a deep-stack thread (its result or its exception)."""
    global _active, _saved_limit
    if getattr(_local, "deep", False):
        return fn()
    outcome: dict[str, object] = {}

    def target() -> None:
        _local.deep = True
        try:
            outcome["value"] = _roomy(fn)
        except BaseException as exc:  # handed to the caller's thread as is
            outcome["error"] = exc

    with _lock:
        try:
            previous = threading.stack_size(STACK_BYTES)
        except (ValueError, RuntimeError):  # a platform without settable stacks
            return fn()
        try:
            thread = threading.Thread(target=target, name="veritype-check", daemon=True)
            if _active == 0:
                _saved_limit = sys.getrecursionlimit()
                sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
            _active += 1
            thread.start()
        except BaseException:
            _restore()
            raise
        finally:
            threading.stack_size(previous)
    try:
        thread.join()
    finally:
        with _lock:
            _restore()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def _restore() -> None:
    global _active
    _active -= 1
    if _active == 0:
        sys.setrecursionlimit(_saved_limit)
