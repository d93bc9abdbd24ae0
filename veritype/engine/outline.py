"""Symbols of a document and of the workspace: classes, functions, variables.

Read from the syntax tree alone (no types are needed), as editors show them
in an outline or a "go to symbol" search.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from veritype.engine.locate import Span, name_span, span_of
from veritype.engine.workspace import Snapshot

# LSP SymbolKind numbers (the spec's; no lsprotocol import needed here).
MODULE, CLASS, METHOD, PROPERTY, FUNCTION, VARIABLE, CONSTANT = 2, 5, 6, 7, 12, 13, 14


@dataclass
class OutlineSymbol:
    name: str
    kind: int
    span: Span  # the whole declaration
    selection: Span  # its name
    detail: str = ""
    children: list["OutlineSymbol"] = field(default_factory=list)


def _targets(stmt: ast.stmt) -> list[ast.Name]:
    if isinstance(stmt, ast.Assign):
        exprs: list[ast.expr] = list(stmt.targets)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        exprs = [stmt.target]
    else:
        return []
    out: list[ast.Name] = []
    for e in exprs:
        out += [n for n in ast.walk(e) if isinstance(n, ast.Name)]
    return out


def _outline(body: list[ast.stmt], lines: list[str], in_class: bool, seen: set[str]) -> list[OutlineSymbol]:
    out: list[OutlineSymbol] = []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            is_prop = any(isinstance(d, ast.Name) and d.id == "property" for d in stmt.decorator_list)
            kind = PROPERTY if in_class and is_prop else METHOD if in_class else FUNCTION
            sym = OutlineSymbol(stmt.name, kind, span_of(stmt, lines), name_span(stmt, lines))
            # Nested classes and functions; a function's local variables are noise in an outline.
            sym.children = [c for c in _outline(stmt.body, lines, False, set()) if c.kind in (CLASS, FUNCTION)]
            out.append(sym)
        elif isinstance(stmt, ast.ClassDef):
            sym = OutlineSymbol(stmt.name, CLASS, span_of(stmt, lines), name_span(stmt, lines))
            sym.children = _outline(stmt.body, lines, True, set())
            out.append(sym)
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)) or type(stmt).__name__ == "TryStar":
            # Definitions under `if TYPE_CHECKING:` or `try: import` are the module's too.
            for part in ("body", "orelse", "finalbody"):
                out += _outline(getattr(stmt, part, []) or [], lines, in_class, seen)
            for handler in getattr(stmt, "handlers", []) or []:
                out += _outline(handler.body, lines, in_class, seen)
        else:
            for name in _targets(stmt):
                if name.id in seen:
                    continue
                seen.add(name.id)
                kind = CONSTANT if name.id.isupper() and len(name.id) > 1 else PROPERTY if in_class else VARIABLE
                out.append(OutlineSymbol(name.id, kind, span_of(stmt, lines), span_of(name, lines)))
    return out


def document_symbols(snap: Snapshot, path: str) -> list[OutlineSymbol]:
    info = snap.module_of(path)
    doc = snap.document(path)
    if info is None or info.tree is None or doc is None:
        return []
    return _outline(info.tree.body, doc.lines, False, set())


def workspace_symbols(snap: Snapshot, query: str, limit: int = 200) -> list[tuple[str, OutlineSymbol, str]]:
    """(path, symbol, container name) for the project's files whose name
    contains `query`'s letters in order (case-insensitive), as editors filter."""
    files = _project_files(snap)
    out: list[tuple[str, OutlineSymbol, str]] = []
    q = query.lower()
    for path in files:
        doc = snap.documents.get(path)
        try:
            text = doc.text if doc is not None else open(path, encoding="utf-8").read()
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            continue
        lines = text.splitlines()
        stack = [(s, "") for s in _outline(tree.body, lines, False, set())]
        while stack:
            sym, container = stack.pop()
            if _fuzzy(q, sym.name.lower()):
                out.append((path, sym, container))
                if len(out) >= limit:
                    return out
            stack += [(c, sym.name) for c in sym.children]
    return out


def _fuzzy(query: str, name: str) -> bool:
    it = iter(name)
    return all(ch in it for ch in query)


def _project_files(snap: Snapshot, limit: int = 5000) -> list[str]:
    """The workspace root's Python files (hidden directories, virtual
    environments and caches left out), and the open documents."""
    found: list[str] = sorted(snap.documents)
    for dirpath, dirnames, filenames in os.walk(snap.root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in ("node_modules", "__pycache__", "venv", "build", "dist") and not os.path.isfile(os.path.join(dirpath, d, "pyvenv.cfg")))
        for f in sorted(filenames):
            if f.endswith((".py", ".pyi")):
                p = os.path.join(dirpath, f)
                if p not in snap.documents:
                    found.append(p)
                if len(found) >= limit:
                    return found
    return found
