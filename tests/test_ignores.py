"""`# type: ignore` parsing and application (veritype.diagnostics.ignores)."""

from __future__ import annotations

import ast

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.diagnostics.ignores import apply_ignores, parse_codes, parse_ignores
from veritype.options import Options


def _map(source: str, with_tree: bool = True):
    tree = ast.parse(source, type_comments=True) if with_tree else None
    return parse_ignores(tree, source)


def err(line: int, code: str | None = "arg-type", msg: str = "bad", severity: str = "error") -> Diagnostic:
    return Diagnostic("m.py", line, 1, severity, msg, code)


def test_parse_codes_forms() -> None:
    assert parse_codes("") is None
    assert parse_codes("\n") is None
    assert parse_codes("[a, b]") == frozenset({"a", "b"})
    assert parse_codes("[a,b] because reasons") == frozenset({"a", "b"})
    assert parse_codes("[]") is None
    assert parse_codes("  # note: x") is None


def test_line_ignores_from_tree_and_from_tokens() -> None:
    src = "x = 1  # type: ignore\ny = 2  #type:ignore[attr-defined, arg-type]  # why\nz = 3  # type: ignored\n"
    for with_tree in (True, False):
        m = _map(src, with_tree)
        assert set(m.lines) == {1, 2}
        assert m.lines[1].codes is None
        assert m.lines[2].codes == frozenset({"attr-defined", "arg-type"})
        assert m.lines[1].column == 8
        assert m.whole_file is None
        assert m.problems == []


def test_text_after_the_codes_makes_an_ignore_invalid() -> None:
    # mypy 2.4.1: `Invalid "type: ignore" comment` [syntax] at the character
    # after the comment's `#`, and the ignore silences nothing.
    src = "y = 2  #type:ignore[attr-defined, arg-type] why\nz = 3  # type: int  # type: ignore[misc]  why\n"
    for with_tree in (True, False):
        m = _map(src, with_tree)
        assert m.lines == {}
        assert m.problems == [(1, 9, 'Invalid "type: ignore" comment'), (2, 9, 'Invalid "type: ignore" comment')]
        kept = apply_ignores("m.py", [err(1), err(2)], m, Options())
        assert [(d.line, d.code) for d in kept] == [(1, "arg-type"), (1, "syntax"), (2, "arg-type"), (2, "syntax")]
        assert apply_ignores("m.py", [err(1)], m, Options(ignore_errors=True)) == []


def test_chained_ignores_the_first_valid_one_applies() -> None:
    m = _map("f()  # type: ignore[misc] why  # type: ignore[arg-type]  # type: ignore[a]\n")
    assert m.lines[1].codes == frozenset({"arg-type"})
    assert [p[2] for p in m.problems] == ['Invalid "type: ignore" comment', "Multiple type ignores on the same line"]
    # A part that is not an ignore ends the chain: the rest is a plain comment.
    m = _map("f()  # type: ignore  # why # type: ignore junk\n")
    assert m.lines[1].codes is None and m.problems == []


def test_a_bare_ignore_with_words_after_it_is_one() -> None:
    # The spec's conformance suite (directives_type_ignore.py) over mypy 2.4.1.
    m = _map("y: int = ''  # type: ignore - additional stuff\n")
    assert m.lines[1].codes is None and m.problems == []


def test_whole_file_ignore_only_before_code() -> None:
    assert _map("#!/usr/bin/env python\n# type: ignore\nx = 1\n").whole_file is not None
    assert _map('"""doc"""\n# type: ignore\nx = 1\n').whole_file is None
    assert _map("x = 1  # type: ignore\n").whole_file is None
    assert _map("# type: ignore\n").whole_file is not None


def test_bare_ignore_silences_everything_on_its_line() -> None:
    m = _map("f(1)  # type: ignore\ng(2)\n")
    kept = apply_ignores("m.py", [err(1), err(1, "call-arg"), err(2)], m, Options())
    assert [d.line for d in kept] == [2]


def test_code_ignore_silences_only_its_codes_and_subcodes() -> None:
    m = _map("import x  # type: ignore[import]\nf()  # type: ignore[arg-type]\n")
    diags = [err(1, "import-not-found"), err(2, "arg-type"), err(2, "call-arg")]
    kept = apply_ignores("m.py", diags, m, Options())
    assert [(d.line, d.code) for d in kept] == [(2, "call-arg"), (2, None)]
    # mypy's note on the error the ignore does not cover, right after it.
    assert kept[1].severity == "note"
    assert kept[1].message == 'Error code "call-arg" not covered by "type: ignore[arg-type]" comment'


def test_notes_go_with_their_error() -> None:
    m = _map("import yaml  # type: ignore\nreveal_type(1)\n")
    diags = [
        err(1, "import-untyped"),
        err(1, None, "Hint: install", severity="note"),
        err(2, None, 'Revealed type is "int"', severity="note"),
    ]
    kept = apply_ignores("m.py", diags, m, Options())
    assert [d.message for d in kept] == ['Revealed type is "int"']


def test_a_reveal_note_is_silenced_as_misc() -> None:
    # mypy 2.4.1: reveal_type's note has the code misc; a bare ignore on its line
    # silences it (and is used), one naming other codes does not.
    m = _map("reveal_type(1)  # type: ignore\nreveal_type(2)  # type: ignore[misc]\nreveal_type(3)  # type: ignore[arg-type]\n")
    diags = [err(line, "note", f'Revealed type is "{line}"', severity="note") for line in (1, 2, 3)]
    kept = apply_ignores("m.py", diags, m, Options(warn_unused_ignores=True))
    assert [(d.line, d.message) for d in kept] == [
        (3, 'Revealed type is "3"'),
        (3, 'Error code "misc" not covered by "type: ignore[arg-type]" comment'),
        (3, 'Unused "type: ignore" comment'),
    ]


def test_syntax_errors_are_never_silenced() -> None:
    src = "# type: ignore\nx = (\n"
    m = parse_ignores(None, src)
    assert m.whole_file is not None
    kept = apply_ignores("m.py", [err(2, "syntax")], m, Options())
    assert len(kept) == 1


def test_whole_file_ignore() -> None:
    m = _map("# type: ignore\nf(1)\ng(2)\n")
    assert apply_ignores("m.py", [err(2), err(3)], m, Options()) == []


def test_disabled_codes_and_ignore_errors() -> None:
    m = _map("f(1)\n")
    opts = Options(disable_error_code=frozenset({"arg-type"}))
    assert apply_ignores("m.py", [err(1), err(1, "call-arg")], m, opts) == [err(1, "call-arg")]
    assert apply_ignores("m.py", [err(1)], m, Options(ignore_errors=True)) == []
    # Off by default unless enabled.
    assert apply_ignores("m.py", [err(1, "unreachable")], m, Options()) == []
    enabled = Options(enable_error_code=frozenset({"unreachable"}))
    assert len(apply_ignores("m.py", [err(1, "unreachable")], m, enabled)) == 1


def test_unused_ignores_reported_only_when_asked() -> None:
    src = "a = 1  # type: ignore\nb = 2  # type: ignore[arg-type, call-arg]\nf()  # type: ignore[arg-type, call-arg]\n"
    m = _map(src)
    diags = [err(3, "arg-type")]
    assert apply_ignores("m.py", diags, m, Options()) == []
    kept = apply_ignores("m.py", diags, m, Options(warn_unused_ignores=True))
    # A bare ignore that silenced nothing is reported, as mypy does.
    assert [(d.line, d.code, d.message) for d in kept] == [
        (1, "unused-ignore", 'Unused "type: ignore" comment'),
        (2, "unused-ignore", 'Unused "type: ignore[arg-type, call-arg]" comment'),
        (3, "unused-ignore", 'Unused "type: ignore[call-arg]" comment'),
    ]
    assert kept[1].column == 8


def test_unused_ignore_naming_an_unchecked_code_is_not_reported() -> None:
    src = "a = 1  # type: ignore[comparison-overlap]\nb = 2  # type: ignore[arg-type, func-returns-value]\nc = 3  # type: ignore[misc]\nd = 4  # type: ignore[arg-type]\n"
    kept = apply_ignores("m.py", [], _map(src), Options(warn_unused_ignores=True))
    assert [d.line for d in kept] == [4]


def test_parent_code_ignore_is_used_by_a_subcode() -> None:
    m = _map("import x  # type: ignore[import]\n")
    kept = apply_ignores("m.py", [err(1, "import-untyped")], m, Options(warn_unused_ignores=True))
    assert kept == []


def test_unused_ignore_can_itself_be_ignored_or_disabled() -> None:
    m = _map("a = 1  # type: ignore[arg-type, unused-ignore]\nb = 1  # type: ignore[arg-type]\n")
    opts = Options(warn_unused_ignores=True)
    kept = apply_ignores("m.py", [], m, opts)
    assert [d.line for d in kept] == [2]
    opts = Options(warn_unused_ignores=True, disable_error_code=frozenset({"unused-ignore"}))
    assert apply_ignores("m.py", [], m, opts) == []


def test_readme_lists_the_codes_unused_ignores_are_reported_for() -> None:
    import os
    import re

    from veritype.diagnostics.codes import REGISTRY

    readme = open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8").read()
    start = readme.index("Those codes are:")
    listed = re.findall(r"`([a-z-]+)`", readme[start : readme.index("(`implemented`", start)])
    assert listed == [name for name, code in REGISTRY.items() if code.implemented]
