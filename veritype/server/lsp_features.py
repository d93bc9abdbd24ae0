"""The language server's answers: LSP requests mapped onto the engine's queries.

Each handler converts the client's positions (UTF-16 by default) to engine
units with the workspace's position codec, asks `veritype.engine`, and
converts back. Handlers hold no checker logic; a failing query is logged
and answered with nothing, never with an error that would take the
editor's server down.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from veritype.engine.locate import Span


def _guard(ls: Any, default: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except _Refused:
                raise  # answered as an error the editor shows
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

    register_editing(server, state, (to_engine, to_range, lines_of))


def register_editing(server: Any, state: Any, convert: Any) -> None:
    """Completion, signature help, inlay hints, code actions, references,
    rename and semantic tokens (the second half of `register`)."""
    from pathlib import Path

    from lsprotocol import types as T

    from veritype.engine import actions, completion, hints, references, semantic, signatures

    ls = server
    to_engine, to_range, lines_of = convert

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    @_guard(ls, None)
    def complete(params: T.CompletionParams) -> T.CompletionList | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        items = completion.complete(state.snapshot(), *at)
        return T.CompletionList(
            is_incomplete=False,
            items=[
                T.CompletionItem(
                    label=i.label, kind=T.CompletionItemKind(i.kind), detail=i.detail or None,
                    sort_text=i.sort or None, insert_text=i.insert,
                )
                for i in items
            ],
        )

    @server.feature(T.TEXT_DOCUMENT_SIGNATURE_HELP, T.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]))
    @_guard(ls, None)
    def signature_help(params: T.SignatureHelpParams) -> T.SignatureHelp | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        h = signatures.signature_help(state.snapshot(), *at)
        if h is None:
            return None
        return T.SignatureHelp(
            signatures=[
                T.SignatureInformation(s.label, parameters=[T.ParameterInformation(label=(a, b)) for a, b in s.params])
                for s in h.signatures
            ],
            active_signature=h.active_signature,
            active_parameter=h.active_parameter,
        )

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT, T.InlayHintOptions(resolve_provider=False))
    @_guard(ls, None)
    def inlay_hint(params: T.InlayHintParams) -> list[T.InlayHint] | None:
        path = state.path_of(params.text_document.uri)
        if path is None:
            return None
        rng = ls.workspace.position_codec.range_from_client_units(lines_of(path), params.range)
        out = []
        for h in hints.inlay_hints(state.snapshot(), path, rng.start.line, rng.end.line):
            r = to_range(path, Span(h.position, h.position))
            out.append(T.InlayHint(position=r.start, label=h.label, kind=T.InlayHintKind(h.kind)))
        return out

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    @_guard(ls, None)
    def code_action(params: T.CodeActionParams) -> list[T.CodeAction] | None:
        path = state.path_of(params.text_document.uri)
        if path is None:
            return None
        lines = lines_of(path)
        codec = ls.workspace.position_codec
        out: list[T.CodeAction] = []
        diags = [d for d in params.context.diagnostics if d.source in (None, "veritype")]
        for i, d in enumerate(diags):
            start = codec.position_from_client_units(lines, d.range.start)
            line_text = lines[start.line].rstrip("\r\n") if start.line < len(lines) else ""
            found: list[actions.Action] = []
            if isinstance(d.code, str) and d.code:
                a = actions.ignore_action(line_text, start.line, d.code, i)
                if a is not None:
                    found.append(a)
            found += actions.import_actions(state.snapshot(), path, d.message, i)
            for a in found:
                edits = [T.TextEdit(to_range(path, e.span), e.text) for e in a.edits]
                out.append(T.CodeAction(
                    title=a.title, kind=T.CodeActionKind.QuickFix, diagnostics=[d], is_preferred=a.preferred or None,
                    edit=T.WorkspaceEdit(changes={params.text_document.uri: edits}),
                ))
        return out

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    @_guard(ls, None)
    def find_references(params: T.ReferenceParams) -> list[T.Location] | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        found = references.references(state.snapshot(), *at, include_declaration=params.context.include_declaration)
        return [T.Location(Path(loc.path).as_uri(), to_range(loc.path, loc.span)) for loc in found]

    @server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
    @_guard(ls, None)
    def prepare_rename(params: T.PrepareRenameParams) -> T.Range | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        result = references.prepare_rename(state.snapshot(), *at)
        if isinstance(result, str):
            raise _Refused(result)
        return to_range(at[0], result)

    @server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
    @_guard(ls, None)
    def rename(params: T.RenameParams) -> T.WorkspaceEdit | None:
        at = to_engine(params.text_document.uri, params.position)
        if at is None:
            return None
        path, line, char = at
        result = references.rename(state.snapshot(), path, line, char, params.new_name)
        if result.refused is not None:
            raise _Refused(result.refused)
        return T.WorkspaceEdit(changes={
            Path(p).as_uri(): [T.TextEdit(to_range(p, span), text) for span, text in edits]
            for p, edits in result.edits.items()
        })

    legend = T.SemanticTokensLegend(token_types=semantic.TOKEN_TYPES, token_modifiers=semantic.TOKEN_MODIFIERS)

    @server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)
    @_guard(ls, None)
    def semantic_tokens(params: T.SemanticTokensParams) -> T.SemanticTokens | None:
        path = state.path_of(params.text_document.uri)
        if path is None:
            return None
        lines = lines_of(path)
        codec = ls.workspace.position_codec
        toks = []
        for line, start, length, kind, mods in semantic.semantic_tokens(state.snapshot(), path):
            # Columns in the client's units (UTF-16 by default).
            r = codec.range_to_client_units(lines, T.Range(T.Position(line, start), T.Position(line, start + length)))
            toks.append((line, r.start.character, r.end.character - r.start.character, kind, mods))
        return T.SemanticTokens(data=semantic.encode(toks))


class _Refused(Exception):
    """A rename the server will not make; the client shows the message."""
