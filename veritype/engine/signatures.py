"""Signature help: the signatures of the call being written, and the parameter the cursor is at.

Runs on a repaired copy of the document (`completion._repair`: the line's
open brackets closed) so that `f(a, |` can be answered.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from veritype.types.format import format_revealed
from veritype.types.model import KW_ONLY, POS_ONLY, POS_OR_KW, CallableType, Overloaded, TypeType, VAR_KW, VAR_POS

from veritype.engine.locate import byte_column, node_chain
from veritype.engine.queries import Cursor
from veritype.engine.workspace import Snapshot


@dataclass(frozen=True)
class Signature:
    label: str
    params: list[tuple[int, int]]  # each parameter's [start, end) in label
    doc: str | None = None


@dataclass(frozen=True)
class Help:
    signatures: list[Signature]
    active_signature: int
    active_parameter: int


def _param_text(p) -> str:  # type: ignore[no-untyped-def]
    star = "*" if p.kind == VAR_POS else "**" if p.kind == VAR_KW else ""
    text = f"{star}{p.name}: {format_revealed(p.type)}" if p.name else format_revealed(p.type)
    return text + (" = ..." if p.has_default else "")


def _signature(name: str, c: CallableType) -> Signature:
    pieces: list[tuple[str, bool]] = []  # (text, is a parameter)
    params = list(c.params)
    for i, p in enumerate(params):
        if p.kind == KW_ONLY and (i == 0 or params[i - 1].kind not in (KW_ONLY, VAR_POS)):
            pieces.append(("*", False))
        pieces.append((_param_text(p), True))
        if p.kind == POS_ONLY and p.name and (i + 1 == len(params) or params[i + 1].kind != POS_ONLY):
            pieces.append(("/", False))
    label = f"{name}("
    spans: list[tuple[int, int]] = []
    for i, (text, is_param) in enumerate(pieces):
        if i:
            label += ", "
        if is_param:
            spans.append((len(label), len(label) + len(text)))
        label += text
    label += f") -> {format_revealed(c.ret)}"
    return Signature(label, spans)


def signature_help(snap: Snapshot, path: str, line: int, char: int) -> Help | None:
    from veritype.engine.completion import _repair
    from veritype.engine.workspace import Variant

    doc = snap.documents.get(os.path.abspath(path))
    if doc is None:
        return None
    text = doc.text if snap.module_of(path) is not None and getattr(snap.module_of(path), "tree", None) is not None else _repair(doc.lines, line, char, char)
    with Variant(snap, path, text) as info:
        if info is None or info.tree is None:
            return None
        lines = text.splitlines()
        cur = Cursor(snap, os.path.abspath(path), info, lines, node_chain(info.tree, lines, line, char))
        pos = (line + 1, byte_column(lines[line] if line < len(lines) else "", char))
        call = next((n for n in reversed(cur.chain) if isinstance(n, ast.Call) and (n.func.end_lineno, n.func.end_col_offset) < pos), None)  # type: ignore[operator]
        if call is None:
            return None
        t = cur.type_of(call.func)
        name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr if isinstance(call.func, ast.Attribute) else "function"
        if isinstance(t, TypeType):
            t = snap.program.evaluator.constructor_type(t)
        sigs = list(t.items) if isinstance(t, Overloaded) else [t] if isinstance(t, CallableType) else []
        if not sigs:
            return None
        # The argument the cursor is in: positional by count, keyword by name.
        index = sum(1 for a in call.args if (a.end_lineno, a.end_col_offset) < pos)  # type: ignore[operator]
        keyword = next((k.arg for k in call.keywords if k.arg and (k.lineno, k.col_offset) <= pos <= (k.end_lineno, k.end_col_offset)), None)  # type: ignore[operator]
        active_sig, active_param = 0, index
        for si, sig in enumerate(sigs):
            names = [p.name for p in sig.params]
            if keyword is not None and keyword in names:
                active_sig, active_param = si, names.index(keyword)
                break
            positional = [i for i, p in enumerate(sig.params) if p.kind in (POS_ONLY, POS_OR_KW, VAR_POS)]
            if index < len(positional) or any(p.kind == VAR_POS for p in sig.params):
                active_sig = si
                active_param = positional[min(index, len(positional) - 1)] if positional else 0
                break
        return Help([_signature(name, s) for s in sigs], active_sig, active_param)
