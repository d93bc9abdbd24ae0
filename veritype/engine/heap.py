"""Garbage collection in a process that keeps a program across edits (the
daemon, watch mode, the language server's diagnostics worker).

A loaded program is millions of long-lived objects. A full collection walks
all of them: about 1.4 s of CPU on the bench corpus, after every edit,
while an edit's own check takes 0.05-0.5 s. Run after the answer is out,
it still delays the next edit, which waits for it (an editor's next burst
of typing, the bench's next request).

So the program is frozen (`gc.freeze`) once it has been collected: the
collector then walks only what was allocated since, which is what the
edits made and dropped. What an edit makes a frozen object forget (a
forgotten module loaded before the freeze) stays in memory until the next
full collection; that is done when the frozen part has grown by half since
the last one, so memory stays within about 1.5 times the live program and
the full walk is paid once per many edits instead of once per edit.

While a check runs, the thresholds keep the young collections rare: a
re-check's allocations (parsing one edited file) would otherwise set off
collections over everything not frozen yet (a body edit of rich/progress.py
took 1.6 s, in a parse that alone takes 0.04 s).
"""

from __future__ import annotations

import gc

# Thresholds while checking (mypy's; the one-shot `veritype check` runs without
# the collector, cli/main.py, but a long-lived process must collect what its
# edits drop).
THRESHOLDS = (200_000, 30, 30)
# A full collection once the frozen part has grown by this factor since the last one.
GROWTH = 1.5


class Heap:
    """The collection policy of one long-lived engine process."""

    def __init__(self) -> None:
        gc.set_threshold(*THRESHOLDS)
        self._full: int | None = None  # objects frozen by the last full collection
        self._added = 0  # objects frozen since
        self.full_collections = 0

    def idle(self) -> None:
        """Between requests, once the answer is out: collect what the last
        one left behind, then freeze what survives."""
        if self._full is None or self._full + self._added > self._full * GROWTH:
            gc.unfreeze()
            gc.collect()
            # (`gc.get_freeze_count` walks every frozen object: only here,
            # beside a full collection that walks them all anyway.)
            gc.freeze()
            self._full = gc.get_freeze_count()
            self._added = 0
            self.full_collections += 1
            return
        gc.collect()  # the objects allocated since the last freeze only
        # A full collection leaves the survivors in the oldest generation:
        # they are what the freeze adds.
        self._added += len(gc.get_objects(generation=2))
        gc.freeze()
