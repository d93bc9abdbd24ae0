"""The interface digest (cache/interface.py) changes exactly when what an
importer can observe changes: the kept source, comments and blank lines
aside; computed from the check's own parse when given one."""

from __future__ import annotations

import ast
import warnings

from veritype.cache.interface import interface_digest, interface_text
from veritype.syntax.parse import parse_source

BASE = '''"""Module doc."""
import os  # a comment
X: int = 1  # type: ignore[assignment]
Y = []  # type: list[int]
S = """a

  # not a comment
b"""
T = ("a"  # one
     "b")


def f(x: int) -> int:
    """doc"""
    y = x  # body
    return y


class C:
    """doc"""
    def __init__(self) -> None:
        self.a = 1  # kept: the method walker reads it
'''


def test_comments_blank_lines_and_bodies_do_not_count() -> None:
    d = interface_digest(BASE)
    assert d.startswith("iface:")
    same = [
        BASE.replace("# a comment", "# another"),
        BASE.replace("import os", "\n\nimport os"),
        BASE.replace('T = ("a"  # one\n', 'T = ("a"\n\n     # moved\n'),  # inside brackets too
        BASE.replace("    y = x  # body\n", "    z = 2\n    y = x + z\n"),
        BASE.replace('"""Module doc."""', '"""Other doc."""'),
        BASE.replace("X: int = 1", "X: int = 1   "),
        BASE.replace("[assignment]", "[misc]"),  # a pure ignore is not interface
    ]
    for s in same:
        assert interface_digest(s) == d, s


def test_everything_else_counts() -> None:
    d = interface_digest(BASE)
    changed = [
        BASE.replace("  # not a comment", "  # not a comment!"),  # inside a string
        BASE.replace('S = """a\n\n', 'S = """a\n'),  # a blank line inside a string
        BASE.replace("# type: list[int]", "# type: list[str]"),  # a type comment
        BASE.replace("self.a = 1  # kept", "self.a = ''  # kept"),
        BASE.replace("    return y\n", "    yield y\n"),  # a generator now
        BASE.replace("X: int", "X:  int"),  # columns inside a statement
        BASE.replace('"b")', "'b')"),
    ]
    for s in changed:
        assert interface_digest(s) != d, s


def test_the_checks_parse_gives_the_same_digest() -> None:
    parsed = parse_source("m.py", BASE)
    assert parsed.tree is not None
    assert interface_digest(BASE, parsed) == interface_digest(BASE)
    # A parse of another text is not used.
    other = parse_source("m.py", BASE.replace("X: int", "X: str"))
    assert interface_digest(BASE, other) == interface_digest(BASE)


def test_a_tree_with_a_dropped_body_is_not_trusted() -> None:
    parsed = parse_source("m.py", BASE)
    assert parsed.tree is not None
    for node in ast.walk(parsed.tree):
        if isinstance(node, ast.FunctionDef) and node.name == "f":
            node.body = []
    assert interface_digest(BASE, parsed) == interface_digest(BASE)


def test_text_keeps_columns_and_drops_comments() -> None:
    text = interface_text("a = [1,   # c\n\n     2]  \n# end\n")
    assert text == "a = [1,\n     2]"


def test_text_keeps_strings_verbatim_and_type_comments() -> None:
    # Blank lines and trailing blanks inside a string are the string's; a line
    # end between two strings is stripped as any other; `# type:` comments stay
    # (a pure ignore does not); the blank lines before the first code go.
    source = '\n  \nx = """a  \n\n  b"""  # c\n\n\ny = 1  # type: int   \nz = "q"  \t\n\n"r"  # type: ignore\n'
    assert interface_text(source) == 'x = """a  \n\n  b"""\ny = 1  # type: int\nz = "q"\n"r"'


def test_fstrings_whichever_way_they_are_read() -> None:
    # From Python 3.12 a kept f-string sends the text to tokenize
    # (comment_scan.MAY_MISREAD); the meaning is the same either way.
    base = 'N = 1\nF = f"{N!r} # not a comment"  # a comment\n'
    d = interface_digest(base)
    assert interface_digest(base.replace("# a comment", "")) == d
    assert interface_digest(base.replace("# not a comment", "# not a comment!")) != d
    assert interface_digest("\n\n" + base) == d


def test_a_method_storing_on_self_in_a_comprehension_keeps_its_body() -> None:
    # The comprehension's `for` is neither on its statement's first line nor
    # on the compound statement's holding it.
    src = "class C:\n    def m(self):\n        if x:\n            y = [\n                0 for self.a in\n                range(3)]\n        z = 1\n"
    assert interface_digest(src.replace("z = 1", "z = 2")) != interface_digest(src)
    plain = src.replace("self.a", "a")
    assert interface_digest(plain.replace("z = 1", "z = 2")) == interface_digest(plain)
    parsed = parse_source("m.py", src)
    assert interface_digest(src, parsed) == interface_digest(src)


def test_a_comprehension_right_after_a_number_is_seen() -> None:
    # `[1for ...]` and `[1jfor ...]` are comprehensions (a keyword may follow a
    # number with no space): their `for` is a keyword to the line search.
    for elt in ("1", "1j", "0b1"):
        src = f"class C:\n    def m(self):\n        y = [{elt}for self.a in range(3)]\n        z = 1\n"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (Python warns of the missing space)
            parsed = parse_source("m.py", src)
            assert parsed.tree is not None
            for text, known in ((src, None), (src, parsed)):
                changed = src.replace("z = 1", "z = 2")
                assert interface_digest(changed, parse_source("m.py", changed) if known else None) != interface_digest(text, known)


def test_comprehension_targets_holding_an_attribute_are_seen() -> None:
    # The `for` lines searched are those whose target is not plain names
    # (cache/interface.py `_attribute_target_lines`): each target here holds
    # `self.a` after something else, or after a line break, or parenthesized.
    targets = ("self.a", "b, self.a", "*b, self.a", "(self).a", "(b, self.a)", "[b, self.a]",
               "f(b in c).d, self.a", "b[c in d], self.a", "(\n                 self.a)", "self .a",
               "b,\\\n                 self.a")
    for target in targets:
        src = f"class C:\n    def m(self):\n        y = [0 for {target} in range(3)]\n        z = 1\n"
        parsed = parse_source("m.py", src)
        assert parsed.tree is not None, target
        changed = src.replace("z = 1", "z = 2")
        assert interface_digest(changed, parse_source("m.py", changed)) != interface_digest(src, parsed), target
        assert interface_digest(changed) != interface_digest(src), target
    # Plain names for a target: the body is not read, whatever else the lines hold.
    src = "class C:\n    def m(self):\n        y = [self.b for b, *c in range(3)]  # for self.a in\n        z = 1\n"
    assert interface_digest(src.replace("z = 1", "z = 2")) == interface_digest(src)


def test_a_body_with_its_own_await_differs_from_one_without() -> None:
    # The marker of a cut body says whether it awaits itself: a statement
    # holding `await` (an f-string's too) does; a nested def's, a lambda's, a
    # comment's or a string's do not. The statements whose lines hold no
    # `await` are not looked into (the same answers with the parse's lines).
    plain = "async def f(g):\n    # await in a comment\n    x = 1\n    s = 'await'\n    async def h():\n        await g()\n    k = lambda: 1\n    return x\n"
    awaiting = [plain.replace("x = 1", "x = await g()"), plain.replace("s = 'await'", "s = f'{await g()}'"),
                plain.replace("return x", "if x:\n        return [await g() for _ in ()]\n    return x")]
    for text in (plain, *awaiting):
        assert interface_digest(text, parse_source("m.py", text)) == interface_digest(text)
    digest = interface_digest(plain)
    assert interface_digest(plain.replace("x = 1", "x = 2")) == digest
    for text in awaiting:
        assert interface_digest(text) != digest
