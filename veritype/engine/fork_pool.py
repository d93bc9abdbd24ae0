"""A pool of forked worker processes, each with its own pipe.

multiprocessing.Pool hands a task to whichever worker takes it from a shared
queue; the early workers (engine/early_workers.py) need to choose: a worker
keeps the modules it parsed, so a task goes preferably to the worker that
holds most of what it needs (`choose`). Each worker runs `handler(message)`
for each message it receives and sends back the answer; the parent deals
tasks one at a time to whichever worker is idle, so the load still balances.

A worker with nothing to answer may do work of its own that a later task
needs (`idle`: engine/early_workers.py loads the stubs its checks will read
while the other worker still scans), one step at a time: it stops as soon as
a message is waiting, so a task is never held up by more than one step.

A failure in a worker (an exception, or the process dying) is raised in the
parent as RuntimeError with the worker's traceback: never a hang. One in an
idle step is the answer to the worker's next message.
"""

from __future__ import annotations

import gc
import multiprocessing
import traceback
import warnings
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.reduction import ForkingPickler
from typing import Any


def _serve(conn: Connection, handler: Callable[[Any], Any], idle: Callable[[], bool] | None = None) -> None:
    """In a worker: answer each message until None (or the parent is gone).
    Between them, while none is waiting, `idle()` steps until it says there
    is nothing more to do (False)."""
    failed: str | None = None  # an idle step's failure, the answer to the next message
    while True:
        try:
            while idle is not None and failed is None and not conn.poll():
                if not idle():
                    break
        except BaseException:  # noqa: BLE001 (sent to the parent, which raises it)
            failed = traceback.format_exc()
        try:
            message = conn.recv()
        except (EOFError, OSError):
            break
        if message is None:
            break
        if failed is not None:
            conn.send(("error", failed))
            continue
        try:
            answer = ("ok", handler(message))
        except BaseException:  # noqa: BLE001 (sent to the parent, which raises it)
            answer = ("error", traceback.format_exc())
        conn.send(answer)
    conn.close()


# What may wait in a worker's pipe unread (ForkPool.run's `ahead`): within the
# buffers of the socket pair a duplex Pipe is (208 KiB each way on Linux, 8 KiB
# on macOS by default), so that queueing a task never blocks this process.
_QUEUED_BYTES = 8192


class ForkPool:
    """`size` processes forked from this one now, inheriting its state.
    `idle`: what a worker does while no message waits (see `_serve`); each
    worker calls its own copy."""

    def __init__(self, size: int, handler: Callable[[Any], Any], idle: Callable[[], bool] | None = None) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        self._stopped = False
        # What is loaded now is shared with the workers copy-on-write; frozen,
        # the collector never walks (and so never writes to) it in either process.
        gc.freeze()
        try:
            with warnings.catch_warnings():
                # Python 3.12+ warns that forking a multi-threaded process may
                # deadlock the child on a lock another thread held. The run is
                # on the deep-stack thread (engine.deep_stack) while the main
                # thread only waits in Thread.join, holding no lock a worker
                # takes; and a worker never returns to the main thread's code.
                warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*multi-threaded.*fork")
                for _ in range(size):
                    parent_end, child_end = ctx.Pipe()
                    proc = ctx.Process(target=_serve, args=(child_end, handler, idle), daemon=True)
                    proc.start()
                    child_end.close()
                    self.conns.append(parent_end)
                    self.procs.append(proc)
        except BaseException:
            self.close()  # (a fork that failed: those started stop)
            raise
        finally:
            gc.unfreeze()

    def run(self, tasks: list[Any], choose: Callable[[int, list[Any]], int] | None = None,
            dress: Callable[[int, Any], Any] | None = None, ahead: int = 0) -> Iterator[tuple[int, Any, Any]]:
        """Each task sent to one worker, (worker index, task, answer) as each
        answer arrives. `choose(worker, pending)`: the index in `pending` of
        the task for that idle worker (default: the first). `dress(worker,
        task)`: the message that carries the task to that worker (default:
        the task itself), for news the worker should have with it.

        `ahead`: how many more tasks a worker is given beyond the one it
        works on while more than one task per worker is pending, so that it
        goes on to the next at once rather than after a round trip (its
        answer read here, the next task chosen and sent back: this process
        may be asleep or busy when the answer comes). The last tasks go one
        at a time, to whichever worker is free first, so the run still ends
        balanced. Messages queued so stay within `_QUEUED_BYTES` per worker,
        which the pipe holds: a send here never waits for a worker that may
        itself be waiting to send an answer here (a larger one is held until
        the worker is free)."""
        pending = list(tasks)
        # Per worker: (task, size of its message) of each task sent and not yet answered.
        busy: dict[int, list[tuple[Any, int]]] = {w: [] for w in range(len(self.conns))}
        held: dict[int, tuple[Any, memoryview]] = {}
        for w in range(len(self.conns)):
            self._give(w, pending, busy, held, choose, dress, ahead)
        while any(busy.values()):
            for ready in wait([self.conns[w] for w, given in busy.items() if given]):
                w = next(i for i, conn in enumerate(self.conns) if conn is ready)
                try:
                    status, answer = self.conns[w].recv()
                except (EOFError, OSError):
                    raise RuntimeError(f"worker process {self.procs[w].pid} died") from None
                task, _ = busy[w].pop(0)  # (a worker answers its messages in order)
                if status != "ok":
                    raise RuntimeError(f"worker process failed:\n{answer}")
                yield w, task, answer
                self._give(w, pending, busy, held, choose, dress, ahead)

    def _give(self, w: int, pending: list[Any], busy: dict[int, list[tuple[Any, int]]], held: dict[int, tuple[Any, memoryview]],
              choose: Callable[[int, list[Any]], int] | None, dress: Callable[[int, Any], Any] | None, ahead: int) -> None:
        given = busy[w]
        if w in held:
            if given:
                return
            task, data = held.pop(w)
            self.conns[w].send_bytes(data)
            given.append((task, len(data)))
        while pending and (not given or len(given) <= ahead and len(pending) > len(self.conns)):
            task = pending.pop(choose(w, pending) if choose is not None else 0)
            data = ForkingPickler.dumps(dress(w, task) if dress is not None else task)
            if given and sum(size for _, size in given) + len(data) > _QUEUED_BYTES:
                held[w] = (task, data)
                return
            self.conns[w].send_bytes(data)
            given.append((task, len(data)))

    def broadcast(self, message: Any) -> list[Any]:
        """`message` to every worker; their answers, in worker order."""
        for conn in self.conns:
            conn.send(message)
        answers = []
        for w, conn in enumerate(self.conns):
            try:
                status, answer = conn.recv()
            except (EOFError, OSError):
                raise RuntimeError(f"worker process {self.procs[w].pid} died") from None
            if status != "ok":
                raise RuntimeError(f"worker process failed:\n{answer}")
            answers.append(answer)
        return answers

    def stop(self) -> None:
        """Tell the workers to exit (None), without waiting for them: a worker
        takes tens of milliseconds to go (its address space unmapped), which
        the caller can spend on its own work before `close` waits."""
        if self._stopped:
            return
        self._stopped = True
        for conn in self.conns:
            try:
                conn.send(None)
            except OSError:
                pass

    def close(self) -> None:
        """Stop the workers (they exit on None; one that does not in time is terminated)."""
        self.stop()
        for proc in self.procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join()
        for conn in self.conns:
            conn.close()
        self.conns, self.procs = [], []
