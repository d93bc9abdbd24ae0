"""The collection policy of a long-lived engine (engine/heap.py): the program
is frozen after a full collection, later idles collect only what was made
since, and a full collection comes back once the frozen part has grown."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from veritype.engine.heap import GROWTH, Heap


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


@pytest.fixture
def heap() -> Iterator[Heap]:
    saved = gc.get_threshold()
    h = Heap()
    try:
        yield h
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


def test_first_idle_collects_all_and_freezes(heap: Heap) -> None:
    garbage = Node()
    gone = weakref.ref(garbage)
    del garbage
    heap.idle()
    assert gone() is None
    assert heap.full_collections == 1
    assert gc.get_freeze_count() > 0


def test_later_idles_collect_what_is_new_and_keep_the_frozen(heap: Heap) -> None:
    old = Node()
    heap.idle()  # `old` is frozen now
    old_ref = weakref.ref(old)
    del old
    new = Node()
    new_ref = weakref.ref(new)
    del new
    heap.idle()
    assert new_ref() is None  # made since the freeze: collected
    assert old_ref() is not None  # frozen garbage waits for a full collection
    assert heap.full_collections == 1


def test_a_full_collection_once_the_frozen_part_grew(heap: Heap) -> None:
    old = Node()
    heap.idle()
    old_ref = weakref.ref(old)
    del old
    keep = [Node() for _ in range(int(gc.get_freeze_count() * (GROWTH - 1)) + 10)]
    heap.idle()  # freezes `keep`: now grown past the limit
    assert heap.full_collections == 1 and old_ref() is not None
    heap.idle()
    assert heap.full_collections == 2
    assert old_ref() is None
    del keep
