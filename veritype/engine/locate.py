"""Positions to syntax: the chain of AST nodes under a cursor.

Engine positions are 0-based lines and 0-based character offsets in the
line's Python string (the server converts from the client's UTF-16 units);
`ast` columns are UTF-8 byte offsets, converted here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

Defn = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def byte_column(line_text: str, char: int) -> int:
    return len(line_text[: max(char, 0)].encode("utf-8"))


def char_column(line_text: str, byte_col: int) -> int:
    return len(line_text.encode("utf-8")[: max(byte_col, 0)].decode("utf-8", "ignore"))


@dataclass(frozen=True)
class Span:
    """A node's extent in engine units: ((line, char), (line, char)), 0-based."""

    start: tuple[int, int]
    end: tuple[int, int]


def span_of(node: ast.AST, lines: list[str]) -> Span:
    def at(lineno: int, col: int) -> tuple[int, int]:
        text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
        return (lineno - 1, char_column(text, col))

    start = at(node.lineno, node.col_offset)  # type: ignore[attr-defined]
    end_line = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
    end_col = getattr(node, "end_col_offset", None)
    return Span(start, at(end_line, end_col if end_col is not None else node.col_offset))  # type: ignore[attr-defined]


def name_span(node: ast.AST, lines: list[str]) -> Span:
    """The span of the name a def, class or parameter declares (the whole node otherwise)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        line = lines[node.lineno - 1] if 0 < node.lineno <= len(lines) else ""
        keyword = "class" if isinstance(node, ast.ClassDef) else "def"
        start = char_column(line, node.col_offset)
        idx = line.find(node.name, line.find(keyword, start) + len(keyword)) if keyword in line else -1
        if idx >= 0:
            return Span((node.lineno - 1, idx), (node.lineno - 1, idx + len(node.name)))
    if isinstance(node, ast.arg):
        s = span_of(node, lines)
        return Span(s.start, (s.start[0], s.start[1] + len(node.arg)))
    if isinstance(node, ast.alias):
        s = span_of(node, lines)
        shown = node.asname or node.name
        line = lines[s.start[0]] if s.start[0] < len(lines) else ""
        if node.asname:
            idx = line.find(node.asname, s.start[1] + len(node.name))
            if idx >= 0:
                return Span((s.start[0], idx), (s.start[0], idx + len(shown)))
        return Span(s.start, (s.start[0], s.start[1] + len(node.name)))
    return span_of(node, lines)


def _contains(node: ast.AST, pos: tuple[int, int]) -> bool:
    lineno = getattr(node, "lineno", None)
    if lineno is None or not hasattr(node, "col_offset"):
        return False
    start = (lineno, node.col_offset)  # type: ignore[attr-defined]
    end = (getattr(node, "end_lineno", None) or lineno, getattr(node, "end_col_offset", None) or 0)
    return start <= pos <= end


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """Located children; unlocated ones (arguments, comprehension, withitem,
    match_case) are looked through."""
    for child in ast.iter_child_nodes(node):
        if hasattr(child, "col_offset"):
            yield child
        else:
            yield from _children(child)


def node_chain(tree: ast.Module, lines: list[str], line: int, char: int) -> list[ast.AST]:
    """The nodes containing the position, outermost first (the module excluded).

    A cursor just past a name (`x|`) is on it: editors ask there after typing.
    Where two siblings touch at the cursor, the one it is inside wins.
    """
    text = lines[line] if 0 <= line < len(lines) else ""
    return _deepest(tree, (line + 1, byte_column(text, char)))


def _deepest(node: ast.AST, pos: tuple[int, int]) -> list[ast.AST]:
    hits = [c for c in _children(node) if _contains(c, pos)]
    # Prefer a child the cursor is inside over one that merely ends at it.
    hits.sort(key=lambda c: (getattr(c, "end_lineno", 0), getattr(c, "end_col_offset", 0)) == pos)
    best: list[ast.AST] = []
    for child in hits:
        # Siblings overlap where positions are approximate (f-string parts
        # before 3.12 span the whole string): the deepest path wins.
        chain = [child] + _deepest(child, pos)
        if len(chain) > len(best):
            best = chain
    return best


def enclosing_bodies(chain: list[ast.AST]) -> list[Defn]:
    """The defs and classes whose *body* holds the position, outermost first
    (a position in a def's header - name, parameters, decorators - is in the
    scope around the def)."""
    out: list[Defn] = []
    for i, node in enumerate(chain):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and i + 1 < len(chain):
            if any(chain[i + 1] is s for s in node.body):
                out.append(node)
    return out


def innermost_statement(chain: list[ast.AST]) -> ast.stmt | None:
    for node in reversed(chain):
        if isinstance(node, ast.stmt):
            return node
    return None
