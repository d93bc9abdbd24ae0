"""syntax/word_lines.py: the lines holding a word, and the spans that hold none."""

from __future__ import annotations

import ast
import warnings

from veritype.syntax.word_lines import NOWHERE, any_in_span, keyword_lines, lines_by_word, span_start, word_lines

SOURCE = '''import x

@dec(
    1)
def f():
    return (
        yield)

def g(): return 1  # no y-word here
'''


def test_lines_of_a_word() -> None:
    assert word_lines(SOURCE, "yield") == [7]
    assert word_lines(SOURCE, "return", "import") == [1, 6, 9]
    assert word_lines("a\nb", "c") == []
    assert word_lines("a\ryield\n", "yield") is None  # a lone CR ends a line for Python only
    assert word_lines("a\rb\n", "yield") == []  # not in the text: on no line, whatever the line ends
    assert word_lines("a\ryield\n", "yield", "c") is None


def test_lines_of_a_keyword() -> None:
    text = "def f(default=1):\n    undef = _def + def_\n    return default  # def\nasync def g(): pass\ndef"
    assert word_lines(text, "def") == [1, 2, 3, 4, 5]
    assert keyword_lines(text, "def") == [1, 3, 4, 5]  # a word of its own (a comment counts too)
    assert keyword_lines(text, "class") == []
    assert keyword_lines("x=1\nfor(y)in z:pass\n[a for\tb in c]", "for") == [2, 3]
    assert keyword_lines("a\rdef f(): pass\n", "def") is None  # a lone CR: lines not known
    assert keyword_lines("a\rb\n", "def") == []
    assert keyword_lines(text, "def", "async") == [1, 3, 4, 5]
    # A keyword may follow a number with no space, never a name.
    numbers = "[1for a in b]\n[1jfor a in b]\n[0b1for a in b]\n[1e5for a in b]\n[1.for a in b]\nx1jfor = _1for = 2\n"
    assert keyword_lines(numbers, "for") == [1, 2, 3, 4, 5]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (Python warns of the missing space: still a comprehension)
        for line in numbers.splitlines()[:5]:
            assert isinstance(ast.parse(line).body[0].value, ast.ListComp)  # type: ignore[attr-defined]


def test_lines_of_several_words_at_once() -> None:
    # The answers of word_lines and keyword_lines, word by word, in one call.
    text = "def f(default=1):\n    for x in y: yield x\n    import os  # def\nformat = [1for a in b]\n"
    words, keywords = ("yield", "import", "await", "def"), ("def", "for", "class")
    expected = [word_lines(text, w) for w in words] + [keyword_lines(text, w) for w in keywords]
    assert lines_by_word(text, words, keywords) == expected == [[2], [3], [], [1, 3], [1, 3], [2, 4], []]
    assert lines_by_word(text, (), ()) == []
    assert lines_by_word(text, ("await",), ())[0] is NOWHERE  # the shared empty answer
    # A lone carriage return: the lines of a word the text holds are not known.
    assert lines_by_word("a\rdef\nundef\n", ("def", "class"), ("def",)) == [None, NOWHERE, None]
    assert lines_by_word("a\rundef\n", (), ("def",)) == [NOWHERE]  # never standing alone


def test_parsed_file_finds_the_common_words_together() -> None:
    from veritype.syntax.parse import parse_source

    text = "import a\nclass C:\n    def f(self):\n        global g\n        del g\n        for x in y: await x\n"
    parsed = parse_source("m.py", text)
    assert parsed.keyword_lines("def") == [3]
    # Asked for one, the others were found with it, each as its own scan answers.
    assert parsed._keyword_memo[("class",)] == [2] and parsed._lines_memo[("await",)] == [6]
    for word in ("import", "await", "yield"):
        assert parsed._lines_memo[(word,)] == word_lines(text, word)
    for word in ("for", "def", "class", "del", "global", "nonlocal"):
        assert parsed.keyword_lines(word) == keyword_lines(text, word)
    # `yield` alone (the binder asks it of every module loaded) is found alone.
    alone = parse_source("m.py", text)
    assert alone.word_lines("yield") == [] and ("def",) not in alone._keyword_memo


def test_spans() -> None:
    tree = ast.parse(SOURCE)
    f, g = tree.body[1], tree.body[2]
    assert isinstance(f, ast.FunctionDef) and isinstance(g, ast.FunctionDef)
    assert span_start(f) == 3 and span_start(g) == 9  # decorators count
    lines = word_lines(SOURCE, "yield")
    assert lines is not None
    assert any_in_span(lines, span_start(f), f.end_lineno)
    assert not any_in_span(lines, span_start(g), g.end_lineno)
    assert not any_in_span(lines, 8, 100) and not any_in_span([], 1, 10)
    assert any_in_span([], 1, None)  # no end known: may hold it


def test_parsed_file_unions_its_memo() -> None:
    from veritype.syntax.parse import parse_source

    parsed = parse_source("m.py", SOURCE)
    assert parsed.word_lines("return", "import") == word_lines(SOURCE, "return", "import") == [1, 6, 9]
    assert parsed.word_lines("yield", "yield") == [7]
    assert parse_source("m.py", "a = 1\ryield_ = 2\n").word_lines("yield", "a") is None
    assert parsed.keyword_lines("yield", "import") == [1, 7]
    walrus = parse_source("m.py", "x = [a for a in b]\ny = (z := 1)\nformat = 2\n")
    assert walrus.binding_expression_lines() == [1, 2]
    assert parsed.binding_expression_lines() == []


def test_binder_walks_for_walrus_only_where_a_line_may_hold_one() -> None:
    from veritype.semantic.binder import Binder

    tree = ast.parse("x = (y := 1)\n")
    for lines, bound in ((None, True), ([1], True), ([], False)):
        binder = Binder("m", False, (3, 11), "linux", False, walrus_lines=lines)
        assert binder.has_walrus is bound
        assert ("y" in binder.bind_module(tree)) is bound
