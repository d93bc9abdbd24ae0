"""`veritype lsp`: a language server over stdio (pygls, the optional `lsp` extra).

Document sync and diagnostics live here; the other requests (hover,
definition, completion...) are answered by `lsp_features` from the engine's
workspace (`veritype.engine.workspace.Snapshot`), which holds the open
documents' unsaved text.

Diagnostics are debounced: each change restarts a short timer and only the
last change of a burst of typing is checked, so fast typing never piles up
checks; a check whose documents changed while it ran is not published (a
newer one follows).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any
from urllib.parse import unquote, urlparse

from veritype import __version__

# Seconds of quiet after a change before the open documents are checked.
DEBOUNCE = 0.25


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

    from veritype.server.lsp_diagnostics import check_documents
    from veritype.server.lsp_features import register

    server = LanguageServer("veritype", __version__)
    state = EditorState(server)
    server.veritype_state = state  # type: ignore[attr-defined]

    def publish(ls: LanguageServer) -> None:
        docs = state.documents()
        if not docs:
            return
        version = state.version
        uris = {p: u for u in ls.workspace.text_documents if (p := _path_of(u)) is not None}
        root = state.root
        try:
            results = check_documents(docs, root)
        except Exception as exc:  # noqa: BLE001 - never take the editor's server down
            ls.window_log_message(T.LogMessageParams(T.MessageType.Error, f"veritype: {type(exc).__name__}: {exc}"))
            return
        if version != state.version:
            return  # stale: the documents changed while they were checked
        codec = ls.workspace.position_codec
        for path, diags in results.items():
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
            ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uris[path], diagnostics=items))

    def schedule(ls: LanguageServer, delay: float) -> None:
        """Check after `delay` seconds of quiet; an earlier pending check is cancelled."""
        if state._pending is not None:
            state._pending.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            publish(ls)
            return
        state._pending = loop.call_later(delay, publish, ls)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams) -> None:
        state.changed(params.text_document.uri)
        schedule(ls, 0)

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

    register(server, state)
    return server


def serve_stdio() -> None:
    build_server().start_io()
