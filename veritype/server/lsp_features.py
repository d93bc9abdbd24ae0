"""The language server's answers: LSP requests mapped onto the engine's queries.

Each handler converts the client's positions (UTF-16 by default) to engine
units with the workspace's position codec, asks `veritype.engine`, and
converts back. Handlers hold no checker logic; a failing query is logged
and answered with nothing, never with an error that would take the
editor's server down.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from veritype.engine.locate import Span


def _guard(ls: Any, default: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except Exception as exc:  # noqa: BLE001 - never take the editor's server down
                from lsprotocol import types as T

                ls.window_log_message(T.LogMessageParams(T.MessageType.Error, f"veritype: {fn.__name__}: {type(exc).__name__}: {exc}"))
                return default

        return run

    return wrap


def register(server: Any, state: Any) -> None:
    """Add the query features to `server`; `state.snapshot()` gives the engine's workspace."""
    from lsprotocol import types as T

    from veritype.engine import outline, queries

    ls = server

    def lines_of(path: str) -> list[str]:
        doc = state.snapshot().document(path)
        if doc is not None:
            return doc.text.splitlines(keepends=True)
        try:
            with open(path, encoding="utf-8") as f:
                return f.read().splitlines(keepends=True)
        except OSError:
            return []

    def to_engine(uri: str, pos: T.Position) -> tuple[str, int, int] | None:
        path = state.path_of(uri)
        if path is None:
            return None
        p = ls.workspace.position_codec.position_from_client_units(lines_of(path), pos)
        return path, p.line, p.character

    def to_range(path: str, span: Span) -> T.Range:
        r = T.Range(T.Position(*span.start), T.Position(*span.end))
        return ls.workspace.position_codec.range_to_client_units(lines_of(path), r)

    def to_location(loc: queries.Location) -> T.Location:
        from pathlib import Path

        return T.Location(Path(loc.path).as_uri(), to_range(loc.path, loc.span))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    @_guard(ls, None)
    def hover(params: T.HoverParams) -> T.Hover | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        h = queries.hover(state.snapshot(), *at)
        if h is None:
            return None
        return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, h.text), to_range(at[0], h.span))

    def locations(query: Callable[..., list[queries.Location]]) -> Callable[[Any], list[T.Location] | None]:
        def handler(params: Any) -> list[T.Location] | None:
            at = to_engine(params.text_document.uri, params.position)
            if at is None:
                return None
            return [to_location(loc) for loc in query(state.snapshot(), *at)] or None

        handler.__name__ = query.__name__
        return _guard(ls, None)(handler)

    server.feature(T.TEXT_DOCUMENT_DEFINITION)(locations(queries.definition))
    server.feature(T.TEXT_DOCUMENT_DECLARATION)(locations(queries.declaration))
    server.feature(T.TEXT_DOCUMENT_TYPE_DEFINITION)(locations(queries.type_definition))

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guard(ls, None)
    def document_symbol(params: T.DocumentSymbolParams) -> list[T.DocumentSymbol] | None:
        path = state.path_of(params.text_document.uri)
        if path is None:
            return None

        def convert(s: outline.OutlineSymbol) -> T.DocumentSymbol:
            return T.DocumentSymbol(
                name=s.name, kind=T.SymbolKind(s.kind), range=to_range(path, s.span),
                selection_range=to_range(path, s.selection), detail=s.detail or None,
                children=[convert(c) for c in s.children] or None,
            )

        return [convert(s) for s in outline.document_symbols(state.snapshot(), path)]

    @server.feature(T.WORKSPACE_SYMBOL)
    @_guard(ls, None)
    def workspace_symbol(params: T.WorkspaceSymbolParams) -> list[T.WorkspaceSymbol] | None:
        from pathlib import Path

        out = []
        for path, s, container in outline.workspace_symbols(state.snapshot(), params.query):
            out.append(T.WorkspaceSymbol(
                name=s.name, kind=T.SymbolKind(s.kind), container_name=container or None,
                location=T.Location(Path(path).as_uri(), to_range(path, s.selection)),
            ))
        return out
