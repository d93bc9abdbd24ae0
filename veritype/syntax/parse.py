"""Parse one file into an `ast.Module` (type comments on), or a syntax diagnostic.

Two kinds of failure get special care because users hit them often:

* a file that cannot be decoded (bad bytes, a bad PEP 263 coding cookie) gives
  one `syntax` diagnostic for that file, and the run goes on with the rest;
* a file that uses syntax newer than the interpreter veritype runs on (the
  standard `ast` module can only parse what its own Python knows) says so, by
  version, instead of a bare "invalid syntax". See `veritype.syntax.newer`.
"""

from __future__ import annotations

import ast
import hashlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.syntax.newer import explain_newer_syntax
from veritype.syntax.read_files import decode_source, read_bytes
from veritype.syntax.word_lines import NOWHERE, keyword_lines, lines_by_word, union_lines, word_lines


@dataclass
class ParsedFile:
    """A parsed source file: its text, tree and syntax errors."""
    path: str
    source: str
    tree: ast.Module | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # `word_lines` answers by the words asked: several passes over the same
    # tree ask for the same word (`yield`: the binder and the interface digest).
    _lines_memo: dict[tuple[str, ...], list[int] | None] = field(default_factory=dict, repr=False, compare=False)
    _keyword_memo: dict[tuple[str, ...], list[int] | None] = field(default_factory=dict, repr=False, compare=False)
    # The sha256 (hex) of the bytes `source` was decoded from, when parse_file
    # read them (cache/fingerprint.digest_bytes of them): the incremental
    # cache then knows the file's interface digest from this parse, with no
    # second read of the file to tell that it is still the same.
    digest: str | None = field(default=None, repr=False, compare=False)

    def word_lines(self, *words: str) -> list[int] | None:
        """`syntax.word_lines.word_lines(self.source, *words)`, each word's
        lines found once for the file."""
        return self._lines_of(self._lines_memo, word_lines, words)

    def keyword_lines(self, *words: str) -> list[int] | None:
        """`syntax.word_lines.keyword_lines(self.source, *words)`, found once
        for the file."""
        return self._lines_of(self._keyword_memo, keyword_lines, words)

    def _lines_of(self, memo: dict[tuple[str, ...], list[int] | None],
                  find: Callable[..., list[int] | None], words: tuple[str, ...]) -> list[int] | None:
        if words in memo:
            return memo[words]
        if len(words) == 1 and words[0] in (_TOGETHER_TRIGGERS if memo is self._lines_memo else _TOGETHER_KEYWORDS):
            self._find_together()
            return memo[words]
        lines = (find(self.source, words[0]) if len(words) == 1
                 else union_lines([self._lines_of(memo, find, (word,)) for word in words]))
        memo[words] = lines
        return lines

    def _find_together(self) -> None:
        """Fill the memos with the lines of `_TOGETHER_WORDS` and
        `_TOGETHER_KEYWORDS` (those not there yet), by one count of the
        text's lines (syntax.word_lines.lines_by_word)."""
        plain = tuple(w for w in _TOGETHER_WORDS if (w,) not in self._lines_memo)
        keywords = tuple(w for w in _TOGETHER_KEYWORDS if (w,) not in self._keyword_memo)
        answers = lines_by_word(self.source, plain, keywords)
        for word, lines in zip(plain, answers):
            self._lines_memo[(word,)] = lines
        for word, lines in zip(keywords, answers[len(plain):]):
            self._keyword_memo[(word,)] = lines

    def binding_expression_lines(self) -> list[int] | None:
        """The lines that may hold a `:=` or a comprehension's `for` (the
        keyword), found once for the file; None: not known. Only a walrus or
        a comprehension binds a name inside an expression."""
        memo, key = self._keyword_memo, (":=", "for")  # (no keyword is `:=`)
        if key in memo:
            return memo[key]
        walrus, fors = self.word_lines(":="), self.keyword_lines("for")
        lines = memo[key] = fors if walrus is NOWHERE else union_lines([walrus, fors])
        return lines


# The words a checked module's rules and the release of its bodies all ask
# of its text (the checks' walks skip the lines holding none: `def`, `class`,
# `for`, `global`... syntax/word_lines.py): their lines are found together
# when the first of them is asked. Not when `yield` or `:=` is: the binder
# asks those of every module it loads, stubs and modules never checked too,
# which are asked nothing else (found together all the same once another is).
_TOGETHER_WORDS = ("import", "await", "yield")
_TOGETHER_KEYWORDS = ("for", "def", "class", "del", "global", "nonlocal")
_TOGETHER_TRIGGERS = frozenset(_TOGETHER_WORDS) - {"yield"}


def _syntax_error(path: str, line: int, col: int, message: str) -> Diagnostic:
    return Diagnostic(path, max(line, 1), max(col, 1), "error", message, "syntax")


def _parse(source: str, path: str, feature_version: tuple[int, int] | None) -> ast.Module:
    with warnings.catch_warnings():
        # Invalid escape sequences and the like are the checked code's business.
        warnings.simplefilter("ignore")
        if feature_version is None:
            return ast.parse(source, filename=path, type_comments=True)
        return ast.parse(source, filename=path, type_comments=True, feature_version=feature_version)


def parse_source(path: str, source: str, feature_version: tuple[int, int] | None = None) -> ParsedFile:
    """Parse `source`; `feature_version` (optional) makes `ast` reject syntax newer than it."""
    try:
        tree = _parse(source, path, feature_version)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        newer = explain_newer_syntax(source, exc)
        if newer is not None:
            message = newer
        else:
            msg = exc.msg or "invalid syntax"
            message = msg[:1].upper() + msg[1:]
        return ParsedFile(path, source, None, [_syntax_error(path, line, col, message)])
    except (ValueError, RecursionError, MemoryError) as exc:
        # ValueError: null bytes on Python 3.11; RecursionError: absurd nesting.
        detail = str(exc) or type(exc).__name__
        return ParsedFile(path, source, None, [_syntax_error(path, 1, 1, f"Cannot parse file: {detail}")])
    return ParsedFile(path, source, tree)


def parse_file(path: str, feature_version: tuple[int, int] | None = None) -> ParsedFile:
    try:
        data = read_bytes(path)
    except OSError as exc:
        return ParsedFile(path, "", None, [_syntax_error(path, 1, 1, f"Cannot read file: {exc.strerror or exc}")])
    return parse_bytes(path, data, feature_version)


def parse_bytes(path: str, data: bytes, feature_version: tuple[int, int] | None = None,
                decoded: str | None = None, digest: str | None = None) -> ParsedFile:
    """`parse_file` of the file `path` whose bytes are `data`, read already.
    `decoded`: `decode_source(data, path)`, and `digest`: the sha256 (hex) of
    `data`, where the caller made them already."""
    if decoded is not None:
        source = decoded
    else:
        try:
            source = decode_source(data, path)
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1  # the line of the first undecodable byte
            message = f"Cannot decode file as {exc.encoding}: {exc.reason} (byte {exc.object[exc.start]:#04x})"
            return ParsedFile(path, "", None, [_syntax_error(path, line, 1, message)])
        except SyntaxError as exc:
            # As tokenize.open: SyntaxError for an unknown or inconsistent coding cookie.
            return ParsedFile(path, "", None, [_syntax_error(path, exc.lineno or 1, 1, f"Cannot decode file: {exc.msg}")])
    parsed = parse_source(path, source, feature_version)
    parsed.digest = digest if digest is not None else hashlib.sha256(data).hexdigest()
    return parsed


class HeadParse:
    """A file's parse begun: its text, and the tree of its first lines (up to
    `cut`, the start of a line), parsed alone as a module of their own.
    `whole` ends it, parsing only the rest: the engine's walk of the imports
    parses the lines holding them before any module is checked
    (engine/followed_imports.py), and the module is loaded later, when its
    turn comes; so no line is parsed twice.

    The trees of the two parts make the whole file's where the rest starts
    with a statement at column 0 that continues none above it (no `else:`
    nor `except:`, which do not parse alone): the parser reads the file as a
    sequence of statements, the head's then the rest's, with the same
    tokens. The rest is parsed after as many newlines as the head has lines,
    so its positions are the file's. Where the rest does not parse alone (an
    indented line, a syntax error), the whole text is parsed as by
    `parse_bytes`, for its tree or its error."""

    __slots__ = ("path", "source", "cut", "head", "digest", "import_lines")

    def __init__(self, path: str, source: str, cut: int, head: ast.Module, digest: str,
                 import_lines: list[int] | None = None) -> None:
        self.path = path
        self.source = source
        self.cut = cut
        self.head = head
        self.digest = digest  # (as ParsedFile.digest)
        self.import_lines = import_lines  # `word_lines(source, "import")`, if known

    def whole(self) -> ParsedFile:
        """`parse_bytes` of the file (no `feature_version`)."""
        source, cut = self.source, self.cut
        tree = None
        # `barry_as_FLUFL` changes how the rest is tokenized (`<>`).
        if starts_at_column_0(source, cut) and "barry_as_FLUFL" not in source[:cut]:
            try:
                rest = _parse("\n" * source.count("\n", 0, cut) + source[cut:], self.path, None)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                rest = None
            if rest is not None:
                tree = self.head
                tree.body.extend(rest.body)
                tree.type_ignores.extend(rest.type_ignores)
        parsed = ParsedFile(self.path, source, tree) if tree is not None else parse_source(self.path, source)
        parsed.digest = self.digest
        if self.import_lines is not None:
            parsed._lines_memo[("import",)] = self.import_lines  # (asked again once loaded)
        return parsed


# Words that go on a statement begun above them: a rest starting with one
# does not parse alone (its whole text is parsed then; this spares the try).
CONTINUING = frozenset({"else", "elif", "except", "finally"})


def starts_at_column_0(source: str, pos: int) -> bool:
    """Whether the first line from `pos` on (the start of a line) that is
    neither blank nor a comment starts at column 0, with no word that
    continues a statement above it (or there is no such line)."""
    size = len(source)
    while pos < size:
        end = source.find("\n", pos)
        if end < 0:
            end = size
        line = source[pos:end]
        stripped = line.lstrip(" \t\f")
        if stripped and stripped[0] != "#":
            if len(stripped) != len(line):
                return False  # indented: the rest of a block above
            return line[:8].split(None, 1)[0].split(":", 1)[0] not in CONTINUING
        pos = end + 1
    return True
