"""`--show-error-context`: mypy's "In function ..." notes before errors.

Before an error whose enclosing function or class differs from the previous
error's in the same file, a note without a line number names it, in mypy's
words: `In function "f":`, `In member "m" of class "C":`, `In class "C":`,
and `At top level:` when going back to module level. The enclosing scope is
found from the file's syntax tree (innermost def or class around the line).
"""

from __future__ import annotations

import ast

from veritype.syntax.parse import parse_file, parse_source
from veritype.syntax.word_lines import span_start

# (first line, last line, words) of every def and class of a file.
Spans = list[tuple[int, int, str]]


def _spans(tree: ast.Module) -> Spans:
    spans: Spans = []

    def visit(node: ast.AST, owner: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = span_start(child)
                words = f'In member "{child.name}" of class "{owner}":' if owner else f'In function "{child.name}":'
                spans.append((first, child.end_lineno or child.lineno, words))
                visit(child, None)
            elif isinstance(child, ast.ClassDef):
                first = span_start(child)
                spans.append((first, child.end_lineno or child.lineno, f'In class "{child.name}":'))
                visit(child, child.name)
            else:
                visit(child, owner)

    visit(tree, None)
    return spans


class ErrorContext:
    """Tells, error by error, which context note (if any) goes before it."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self._texts = dict(texts or {})
        self._spans: dict[str, Spans] = {}
        self._current: dict[str, str] = {}

    def _of(self, path: str) -> Spans:
        spans = self._spans.get(path)
        if spans is None:
            text = self._texts.get(path)
            parsed = parse_source(path, text) if text is not None else parse_file(path)
            spans = self._spans[path] = _spans(parsed.tree) if parsed.tree is not None else []
        return spans

    def note_before(self, path: str, line: int) -> str | None:
        inner = [s for s in self._of(path) if s[0] <= line <= s[1]]
        words = min(inner, key=lambda s: s[1] - s[0])[2] if inner else "At top level:"
        previous = self._current.get(path, "At top level:")
        self._current[path] = words
        return words if words != previous else None
