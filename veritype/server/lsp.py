"""`veritype lsp`: a language server over stdio (pygls, the optional `lsp` extra).

Document sync and diagnostics live here; the other requests (hover,
definition, completion...) are answered by `lsp_features` from the engine's
workspace (`veritype.engine.workspace.Snapshot`), which holds the open
documents' unsaved text.

Diagnostics are debounced: each change restarts a short timer and only the
last change of a burst of typing is checked, so fast typing never piles up
checks. The check runs on a worker thread with a workspace of its own
(`lsp_worker`), so requests are answered while it runs; a check whose
documents changed meanwhile stops and is not published (a newer one follows).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any
from urllib.parse import unquote, urlparse

from veritype import __version__

# Seconds of quiet after a change before the open documents are checked.
# Short: a body edit's check costs ~0.04 s of CPU (bench/edits.py), and a
# check overtaken by a newer change stops at the next module (lsp_worker), so
# a check started between two keystrokes costs little; what the user sees is
# this delay plus the check (0.25 s made the diagnostics of a body edit come
# as late as dmypy's whole run, 0.29 s). Keystrokes of a burst (mostly under
# 0.15 s apart) still make one check.
DEBOUNCE = 0.15


class LspUnavailable(Exception):
    """pygls/lsprotocol are not installed."""


def _path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None  # untitled buffers and the like: nothing on disk to place them
    return os.path.abspath(unquote(parsed.path))


class EditorState:
    """The server's view of the editor: the workspace snapshot and the edit count."""

    def __init__(self, ls: Any) -> None:
        self.ls = ls
        self._snapshot: Any = None
        self.version = 0  # bumped by every open, change and close
        self._pending: asyncio.TimerHandle | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the request loop, for the check worker's results

    path_of = staticmethod(_path_of)

    @property
    def root(self) -> str:
        root = self.ls.workspace.root_path
        if root:
            return str(root)
        docs = [p for p in (_path_of(u) for u in self.ls.workspace.text_documents) if p]
        return os.path.dirname(min(docs)) if docs else os.getcwd()

    def snapshot(self) -> Any:
        if self._snapshot is None:
            from veritype.engine.workspace import Snapshot
            from veritype.server.lsp_diagnostics import options_for

            root = self.root
            self._snapshot = Snapshot(self.documents(), root, options_for(root))
        return self._snapshot

    def documents(self) -> dict[str, str]:
        docs = {}
        for uri, doc in list(self.ls.workspace.text_documents.items()):
            path = _path_of(uri)
            if path is not None:
                docs[path] = doc.source
        return docs

    def changed(self, uri: str, closed: bool = False) -> None:
        self.version += 1
        path = _path_of(uri)
        if path is not None and self._snapshot is not None:
            doc = None if closed else self.ls.workspace.text_documents.get(uri)
            self._snapshot.update(path, doc.source if doc is not None else None)


def build_server() -> Any:
    try:
        from lsprotocol import types as T
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise LspUnavailable("the language server needs pygls 2 and lsprotocol: pip install 'veritype[lsp]'") from None

    from veritype.server.lsp_diagnostics import LspDiagnostic
    from veritype.server.lsp_features import register
    from veritype.server.lsp_worker import DiagnosticsWorker

    server = LanguageServer("veritype", __version__)
    state = EditorState(server)
    server.veritype_state = state  # type: ignore[attr-defined]

    def send(version: int, results: dict[str, list[LspDiagnostic]]) -> None:
        """Publish a check's results (on the loop thread), unless the documents moved on."""
        if version != state.version:
            return
        docs = state.documents()
        uris = {p: u for u in server.workspace.text_documents if (p := _path_of(u)) is not None}
        codec = server.workspace.position_codec
        for path, diags in results.items():
            if path not in docs or path not in uris:
                continue
            lines = docs[path].splitlines(keepends=True)
            items = [
                T.Diagnostic(
                    range=codec.range_to_client_units(
                        lines, T.Range(T.Position(*d.start), T.Position(*d.end))
                    ),
                    message=d.message,
                    severity=T.DiagnosticSeverity(d.severity),
                    code=d.code,
                    source="veritype",
                )
                for d in diags
            ]
            server.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uris[path], diagnostics=items))

    def log(message: str) -> None:
        server.window_log_message(T.LogMessageParams(T.MessageType.Error, message))

    def from_worker(fn: Any) -> Any:
        def call(*args: Any) -> None:
            loop = state.loop
            if loop is not None:
                loop.call_soon_threadsafe(fn, *args)

        return call

    worker = DiagnosticsWorker(from_worker(send), from_worker(log))

    def publish(ls: LanguageServer) -> None:
        state._pending = None
        docs = state.documents()
        if docs:
            worker.request(state.version, docs, state.root)

    def schedule(ls: LanguageServer, delay: float) -> None:
        """Check after `delay` seconds of quiet; an earlier pending check is cancelled."""
        if state._pending is not None:
            state._pending.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            publish(ls)
            return
        state.loop = loop
        state._pending = loop.call_later(delay, publish, ls)

    def warm(uri: str) -> None:
        path = _path_of(uri)
        if path is not None and uri in server.workspace.text_documents:
            try:
                state.snapshot().warm(path)
            except Exception as exc:  # noqa: BLE001 - a warm-up is only an optimisation
                log(f"veritype: warm-up: {type(exc).__name__}: {exc}")

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams) -> None:
        state.changed(params.text_document.uri)
        schedule(ls, 0)
        # Parse what the document imports while the editor is still drawing it,
        # so that the first hover does not pay for it.
        if state.loop is not None:
            state.loop.call_later(0.05, warm, params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams) -> None:
        state.changed(params.text_document.uri)
        schedule(ls, DEBOUNCE)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: T.DidSaveTextDocumentParams) -> None:
        schedule(ls, 0)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: T.DidCloseTextDocumentParams) -> None:
        state.changed(params.text_document.uri, closed=True)
        # Markers of a closed file go away; the others may change with it.
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
        schedule(ls, 0)

    @server.feature(T.SHUTDOWN)
    def on_shutdown(ls: LanguageServer, params: None) -> None:
        # Checks not yet started are dropped; one running finishes (it cannot be interrupted).
        worker.shutdown()

    register(server, state)
    return server


def serve_stdio() -> None:
    from veritype.server.lsp_input import GuardedInput, quiet_library_logs

    quiet_library_logs()
    build_server().start_io(stdin=GuardedInput(sys.stdin.buffer))  # type: ignore[arg-type]
