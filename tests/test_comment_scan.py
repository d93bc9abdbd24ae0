"""diagnostics/comment_scan.py finds the comments tokenize finds, and the
ignore columns parse_ignores gives do not depend on which one found them."""

from __future__ import annotations

import ast
import io
import tokenize

from veritype.diagnostics import ignores
from veritype.diagnostics.comment_scan import MAY_MISREAD, STRING_OR_COMMENT

SOURCE = '''x = "a # b"  # type: ignore[misc]
y = {'k': "it's"}  # type: ignore
z = """
# type: ignore
"""  # type: ignore[assignment]
w = rb'\\'' + b"{x!r}" + 'q\\
r'  # type: ignore[operator]
v = 1  # type: int  # type: ignore
'''

F_SOURCE = 'u = f"{x!r} # no"  # type: ignore[misc]\n'


def _tokenize_comments(source: str) -> list[tuple[int, int, str]]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.start[1], tok.string))
    return out


def _scan_comments(source: str) -> list[tuple[int, int, str]]:
    out = []
    for m in STRING_OR_COMMENT.finditer(source):
        if m.group(1) is not None:
            line = source.count("\n", 0, m.start()) + 1
            col = m.start() - (source.rfind("\n", 0, m.start()) + 1)
            out.append((line, col, m.group(1)))
    return out


def test_scan_finds_tokenize_comments() -> None:
    ast.parse(SOURCE)  # valid Python
    assert _scan_comments(SOURCE) == _tokenize_comments(SOURCE)
    assert len(_scan_comments(SOURCE)) == 5


def _tags(source: str) -> dict[int, str]:
    return {ti.lineno: ti.tag for ti in ast.parse(source, type_comments=True).type_ignores}


def test_ignore_columns_are_tokenize_columns() -> None:
    tags = _tags(SOURCE)
    assert len(tags) == 4  # (the one after `# type: int` is found from the type comment)
    scanned = ignores._scanned_columns(SOURCE, tags)
    assert scanned is not None and scanned.keys() == tags.keys()
    by_tokens = ignores._comment_columns(SOURCE)
    assert scanned == {line: by_tokens[line] for line in tags}


def test_fstrings_go_to_tokenize_from_312() -> None:
    scanned = ignores._scanned_columns(F_SOURCE, _tags(F_SOURCE))
    if MAY_MISREAD is not None:
        assert scanned is None
    else:
        assert scanned == {1: (20, "# type: ignore[misc]", 20)} == ignores._comment_columns(F_SOURCE)
