"""Parsing: syntax errors, undecodable files, syntax newer than the running Python; a parse begun on a prefix."""

from __future__ import annotations

import ast
import sys

import pytest

from veritype.syntax.parse import HeadParse, parse_file, parse_source, starts_at_column_0

RUNNING = sys.version_info[:2]


def test_ok_and_type_comments() -> None:
    parsed = parse_source("m.py", "x = []  # type: list[int]\n")
    assert parsed.tree is not None and not parsed.diagnostics
    assert parsed.tree.body[0].type_comment == "list[int]"  # type: ignore[attr-defined]


def test_plain_syntax_error_position() -> None:
    parsed = parse_source("m.py", "x = 1\ny = (1 +\n")
    assert parsed.tree is None
    [d] = parsed.diagnostics
    assert (d.code, d.severity) == ("syntax", "error")
    assert d.line >= 2 and "Python 3." not in d.message


def test_null_bytes() -> None:
    [d] = parse_source("m.py", "x = 1\x00\n").diagnostics
    assert d.code == "syntax"


def test_undecodable_file(tmp_path) -> None:
    p = tmp_path / "bad.py"
    p.write_bytes(b"x = 1\ny = '\xff\xfe'\n")
    parsed = parse_file(str(p))
    [d] = parsed.diagnostics
    assert d.code == "syntax" and d.line == 2 and "decode" in d.message


def test_bad_coding_cookie(tmp_path) -> None:
    p = tmp_path / "bad.py"
    p.write_bytes(b"# -*- coding: no-such-codec -*-\nx = 1\n")
    [d] = parse_file(str(p)).diagnostics
    assert d.code == "syntax" and "decode" in d.message


def test_missing_file(tmp_path) -> None:
    [d] = parse_file(str(tmp_path / "nope.py")).diagnostics
    assert d.code == "syntax" and "read" in d.message


NEWER = [
    ((3, 12), "type X = int\n", "PEP 695"),
    ((3, 12), "type L[T] = list[T]\n", "PEP 695"),
    ((3, 12), "class A[T]:\n    pass\n", "PEP 695"),
    ((3, 12), "def f[T](x: T) -> T:\n    return x\n", "PEP 695"),
    ((3, 12), "class A[\n    T,\n]:\n    pass\n", "PEP 695"),
    ((3, 13), "class A[T = int]:\n    pass\n", "PEP 696"),
    ((3, 12), 'd = {}\nx = f"{d["k"]}"\n', "PEP 701"),
    ((3, 12), 'x = f"{"\\n".join([])}"\n', "PEP 701"),
    ((3, 14), "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n", "PEP 758"),
    ((3, 14), 'name = 1\nx = t"hi {name}"\n', "PEP 750"),
]


@pytest.mark.parametrize("version,source,pep", NEWER)
def test_newer_syntax_is_named(version, source, pep) -> None:
    parsed = parse_source("m.py", source)
    if RUNNING >= version:
        assert parsed.diagnostics == []
        return
    [d] = parsed.diagnostics
    v = f"{version[0]}.{version[1]}"
    assert f"needs Python {v} or newer" in d.message and pep in d.message
    assert f"running on Python {RUNNING[0]}.{RUNNING[1]}" in d.message


@pytest.mark.parametrize(
    "source",
    [
        "x = 1 +\n",
        'x = f"{d[}"\n',
        "type X = = int\n",
        "class A[T]\n    pass\n",
        "try:\n    pass\nexcept A, B as e:\n    pass\n",
    ],
)
def test_genuine_errors_claim_no_version(source) -> None:
    parsed = parse_source("m.py", source)
    [d] = parsed.diagnostics
    assert "needs Python" not in d.message


def test_type_as_a_name_still_parses() -> None:
    assert parse_source("m.py", "type = 3\nprint(type)\n").diagnostics == []


# (text, where the head parsed alone ends): HeadParse.whole() must be the whole text's parse.
_HEADS = [
    ("import os\nimport sys\n\nx = 1\n", "\nx = 1"),  # the usual: imports, then the rest
    ("import os  # type: ignore\n\ny = 1  # type: ignore[misc]\nz: int = 2  # type: int\n", "\ny = 1"),
    ("import os\n\n# a comment\n    # an indented one\n\ndef f():\n    return 1\n", "\n# a comment"),
    ("import os\n", None),  # nothing after the head
    ("import os\n\n# only comments\n\n", "\n# only"),
    ("import os\n\nx = (\n", "\nx = ("),  # the rest does not parse: the whole text's error
    ("if a:\n    import os\n    x = 1\n", "    x = 1"),  # indented: the rest of a block above
    ("if a:\n    import os\nelse:\n    x = 1\n", "else:"),  # continues the head's statement
    ("for x in y:\n    import os\nelse:\n    pass\n", "else:"),
    ("from __future__ import barry_as_FLUFL\nx = 1 <> 2\n", "x = 1"),  # tokenized otherwise
    ("import os\ndef f(x):\n    return x\n@dec\nclass C: pass\n", "def f"),
    ("import os\nx = 1 +\\\n    2\n", "x = 1"),
    ("import os\nx = 1\x00\n", "x = 1"),  # null bytes: the whole text's error
]


@pytest.mark.parametrize(("text", "rest"), _HEADS)
def test_a_parse_begun_on_a_prefix_ends_as_the_whole_text_s(text: str, rest: str | None) -> None:
    cut = len(text) if rest is None else text.index(rest)
    head = ast.parse(text[:cut], type_comments=True)
    parsed = HeadParse("m.py", text, cut, head, "digest").whole()
    whole = parse_source("m.py", text)
    assert parsed.digest == "digest" and parsed.source == text
    if whole.tree is None:
        assert parsed.tree is None
        assert [(d.line, d.column, d.message) for d in parsed.diagnostics] == [(d.line, d.column, d.message) for d in whole.diagnostics]
    else:
        assert parsed.tree is not None and not parsed.diagnostics
        assert ast.dump(parsed.tree, include_attributes=True) == ast.dump(whole.tree, include_attributes=True)


@pytest.mark.parametrize(("text", "expected"), [
    ("x = 1\n", True), ("\n\n# c\n  # d\nx = 1\n", True), ("", True), ("\n# only\n", True),
    ("    x = 1\n", False), ("\tx = 1\n", False), ("else:\n", False), ("except ValueError:\n", False),
    ("elif x:\n", False), ("finally:\n", False), ("elsewhere = 1\n", True), ("@dec\n", True),
])
def test_where_a_rest_starts_a_statement_at_column_0(text: str, expected: bool) -> None:
    assert starts_at_column_0("import os\n" + text, len("import os\n")) is expected
