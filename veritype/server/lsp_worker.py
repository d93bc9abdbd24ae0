"""Diagnostics for the language server, checked off the request loop.

One worker thread owns a workspace of its own (`engine.workspace.Snapshot`),
separate from the one the queries use, so a check never sees a query's
half-walked state and hover stays answerable while a check runs. The loop
thread only hands it the latest documents and their version; the worker
brings its workspace up to that text, checks each open document whose
module changed, and drops the work as soon as a newer version arrives
(stale results are never published).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from veritype.server.lsp_diagnostics import LspDiagnostic, to_lsp


class DiagnosticsWorker:
    def __init__(self, publish: Callable[[int, dict[str, list[LspDiagnostic]]], None], log: Callable[[str], None]) -> None:
        self._publish = publish
        self._log = log
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="veritype-check")
        self._lock = threading.Lock()
        self._latest: tuple[int, dict[str, str], str] | None = None
        self._snapshot: Any = None
        self._root: str | None = None
        self._heap: Any = None

    def request(self, version: int, documents: dict[str, str], root: str) -> None:
        """Check `documents` (path -> text) as of `version`; an older request still waiting is dropped."""
        with self._lock:
            self._latest = (version, dict(documents), root)
        self._executor.submit(self._run, version)

    def stale(self, version: int) -> bool:
        with self._lock:
            return self._latest is None or self._latest[0] != version

    def _run(self, version: int) -> None:
        if self.stale(version):
            return  # a newer request follows
        with self._lock:
            assert self._latest is not None
            _, documents, root = self._latest
        try:
            self._check(version, documents, root)
        except Exception as exc:  # noqa: BLE001 - never take the editor's server down
            self._snapshot = None  # start afresh next time
            self._log(f"veritype: {type(exc).__name__}: {exc}")
        if self._heap is not None and not self.stale(version):
            # The answer is out: collect what the check left behind, and
            # freeze the program so that later collections skip it (engine.heap).
            self._heap.idle()

    def _check(self, version: int, documents: dict[str, str], root: str) -> None:
        from veritype.engine.workspace import Snapshot, diagnostics
        from veritype.server.lsp_diagnostics import options_for

        if self._heap is None:
            from veritype.engine.heap import Heap

            self._heap = Heap()
        if self._snapshot is None or self._root != root:
            self._snapshot = Snapshot({}, root, options_for(root))
            self._root = root
        snap = self._snapshot
        for path in [p for p in snap.documents if p not in documents]:
            snap.update(path, None)
        # Other documents' text first (an edit of one can change what another sees)...
        for path, text in documents.items():
            doc = snap.documents.get(path)
            if doc is None:
                snap.update(path, text)
        results: dict[str, list[Any]] = {}
        for path in sorted(documents):
            if self.stale(version):
                return  # typing went on: this text is already old
            diags = diagnostics(snap, path, documents[path])
            if diags is None:
                continue
            results[path] = diags
        # A document checked before another's edit reloaded it saw the old text: again.
        for path in sorted(results):
            if not self.stale(version):
                again = diagnostics(snap, path, documents[path])
                if again is not None:
                    results[path] = again
        converted = {
            path: [to_lsp(d, documents[path].splitlines()) for d in diags if os.path.abspath(d.path) == path]
            for path, diags in results.items()
        }
        if not self.stale(version):
            self._publish(version, converted)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
