"""`veritype lsp`: a language server over stdio (pygls, the optional `lsp` extra).

Publishes diagnostics when a document is opened, changed or saved, computed
by `lsp_diagnostics.check_documents` from the open documents' in-memory
text, and clears them when it is closed. The check runs in the handler, so
a long check delays the next message; the incremental cache keeps re-checks
after an edit small.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlparse

from veritype import __version__


class LspUnavailable(Exception):
    """pygls/lsprotocol are not installed."""


def _path_of(uri: str) -> str | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None  # untitled buffers and the like: nothing on disk to place them
    return os.path.abspath(unquote(parsed.path))


def build_server() -> Any:
    try:
        from lsprotocol import types as T
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise LspUnavailable("the language server needs pygls 2 and lsprotocol: pip install 'veritype[lsp]'") from None

    from veritype.server.lsp_diagnostics import check_documents

    server = LanguageServer("veritype", __version__)

    def publish(ls: LanguageServer) -> None:
        docs = {}
        uris = {}
        for uri, doc in list(ls.workspace.text_documents.items()):
            path = _path_of(uri)
            if path is not None:
                docs[path], uris[path] = doc.source, uri
        if not docs:
            return
        root = ls.workspace.root_path or os.path.dirname(min(docs))
        try:
            results = check_documents(docs, root)
        except Exception as exc:  # noqa: BLE001 - never take the editor's server down
            ls.window_log_message(T.LogMessageParams(T.MessageType.Error, f"veritype: {type(exc).__name__}: {exc}"))
            return
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

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: T.DidOpenTextDocumentParams) -> None:
        publish(ls)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: T.DidChangeTextDocumentParams) -> None:
        publish(ls)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: T.DidSaveTextDocumentParams) -> None:
        publish(ls)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: T.DidCloseTextDocumentParams) -> None:
        # Markers of a closed file go away; the others may change with it.
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
        publish(ls)

    return server


def serve_stdio() -> None:
    build_server().start_io()
