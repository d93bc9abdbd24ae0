"""Interface digests: what other modules can observe when checked against a module.

An importer's check reads a dependency through the evaluator, which sees:

- every module- and class-level statement, in full (declarations, imports,
  `__all__`, class bodies, decorators, conditions on `sys.version_info`);
- a function's signature: decorators, parameters with their annotations and
  defaults, the return annotation, `# type:` signature comments, and whether
  it is `async`;
- from a function's body, only whether it contains `yield` / `yield from`
  (a generator's return type differs; functions.is_generator), `await`
  (kept too, though only `yield` changes a type today), and whether it is
  a placeholder (`...`, `pass`, `raise NotImplementedError`). Unannotated
  returns are `Any`, never inferred from the body (functions._build);
- except: a function defined in a class body whose body stores an attribute
  on its first parameter (`self.x = ...`, `self.x: T = ...`, `for self.x in`,
  `with ... as self.x`, `self.x += ...`) keeps its *whole* body. The binder
  collects those attributes (binder.collect_instance_attributes) and the
  evaluator infers their types by walking the method with narrowing
  (`Evaluator.method_walker`), so any statement of the method may decide
  an attribute's type.

Left out: the other function bodies (replaced by a marker naming the
yield/await/placeholder flags), docstrings, and comments, except `# type:` comments
(annotations) other than pure `# type: ignore` ones (an ignore filters only
its own module's diagnostics; diagnostics/ignores.py, Program._filter).

The digest is over the kept *source text*, not over an AST dump: some rules
read positions (type_expr tells `Literal[(1, 2)]` from `Literal[1, 2]` by
column), which an AST dump without positions would not see. Comments, blank
lines and trailing blanks are dropped (outside string literals, kept
verbatim), so a body edit that adds or removes lines does not change the
digest; columns inside a kept statement stay exact. The kept parts are found
from the tree the check already parsed when there is one (`parsed`), and
comments and strings by one regular-expression scan rather than `tokenize`
(pure Python, microseconds a token: it was most of a cold run's cache
writing); only where that scan could misread (Python 3.12+ f-strings, which
may nest their own quotes) is the text tokenized.

A rule that comes to read more of a dependency's function bodies (say, an
inferred return type for unannotated functions) must add it here, or the
cache goes stale. When in doubt this includes more: a source that does not
parse or tokenize digests in full (`full:` prefix), so the digest never
equals an interface digest and any edit is seen.
"""

from __future__ import annotations

import ast
import io
import itertools
import re
import tokenize
from typing import TYPE_CHECKING

from veritype.cache.fingerprint import digest_bytes, digest_text
from veritype.diagnostics.comment_scan import MAY_MISREAD, PIECES
from veritype.evaluate.functions import is_generator
from veritype.syntax.bodies import is_trivial_body
from veritype.syntax.param_stores import first_param_stores
from veritype.syntax.statements import SIMPLE_STATEMENTS
from veritype.syntax.walk import CHILDLESS, child_nodes, walk as walk_nodes
from veritype.syntax.word_lines import NOWHERE, any_in_span, keyword_lines, span_start, word_lines

if TYPE_CHECKING:
    from veritype.syntax.parse import ParsedFile

_PURE_IGNORE = re.compile(r"#\s*type\s*:\s*ignore(?![\w-])(\[[^\]]*\])?\s*$")
_TYPE_COMMENT = re.compile(r"#\s*type\s*:")


FuncDef = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFS = frozenset(FuncDef)


class _StaleTree(Exception):
    """The tree given is not a plain parse of the source (a body was dropped)."""


def normalized_newlines(source: str) -> str:
    # Asked three times of each checked module's text (keep_interface,
    # interface_digest, interface_text): one scan, not two, for the usual
    # text without a carriage return (then the text itself).
    if "\r" not in source:
        return source
    return source.replace("\r\n", "\n").replace("\r", "\n")


def interface_digest(source: str, parsed: ParsedFile | None = None, early: tuple[str, str] | None = None) -> str:
    """A digest of what importers can observe of the module `source`.
    `parsed`: the check's parse of the file, used when its text is `source`.
    `early`: (a text with newlines normalized, its digest) computed before,
    answered when `source` is that text (cache/incremental.py keep_interface)."""
    source = normalized_newlines(source)
    if early is not None and early[0] == source:
        return early[1]
    tree = parsed.tree if parsed is not None and parsed.source == source else None
    try:
        try:
            text = interface_text(source, tree, parsed if tree is not None else None)
        except _StaleTree:
            text = interface_text(source)
    except Exception:  # noqa: BLE001 - does not parse (or a surprise): count every byte
        return "full:" + digest_text(source)
    return "iface:" + digest_text(text)


def interface_text(source: str, tree: ast.Module | None = None, parsed: ParsedFile | None = None) -> str:
    """The kept text (see the module docstring). `tree`: `source` parsed with
    type comments, parsed here if not given. `parsed`: the parse `tree` and
    `source` come from (its `word_lines` are those of `source`). Raises
    SyntaxError (or tokenize's errors) on a source that does not parse."""
    source = normalized_newlines(source)
    if tree is None:
        tree = ast.parse(source, type_comments=True)
    kept = _kept_source(source, tree, parsed if parsed is not None and parsed.source == source else None)
    if MAY_MISREAD is not None and MAY_MISREAD.search(kept):
        return _tokenized(kept)
    return _scanned(kept)


def _kept_source(source: str, tree: ast.Module, parsed: ParsedFile | None = None) -> str:
    """`source` without the function bodies and docstrings importers do not see.
    `parsed`: the parse of `source`, if known (its memo of the words' lines)."""
    lines = source.split("\n")
    # The characters before each line but its newlines (a line's start is
    # that plus one per line before it), summed without a Python step a line.
    before = list(itertools.accumulate(map(len, lines), initial=0))

    # (Most texts: ASCII, whose columns need no look at their lines.)
    ascii_text = source.isascii()

    def offset(lineno: int, col_bytes: int) -> int:
        # ast columns count UTF-8 bytes; the text is indexed by characters.
        start = before[lineno - 1] + lineno - 1
        if ascii_text:
            return start + col_bytes
        line = lines[lineno - 1]
        if line.isascii():
            return start + col_bytes
        return start + len(line.encode("utf-8", "surrogatepass")[:col_bytes].decode("utf-8", "replace"))

    cuts: list[tuple[int, int, str]] = []

    def cut_body(body: list[ast.stmt], marker: str) -> None:
        first, last = (body[0], body[-1]) if body else (None, None)
        if first is None or last is None or last.end_lineno is None or last.end_col_offset is None:
            # A parse never gives an empty body, nor a node without an end: a
            # body released after its module was checked (engine/release.py).
            raise _StaleTree
        cuts.append((offset(first.lineno, first.col_offset), offset(last.end_lineno, last.end_col_offset), marker))

    def docstring(body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            cut_body(body[:1], "")

    # A def whose lines do not hold the word has none: no walk of its body
    # for it (syntax/word_lines.py; None: the lines are not known, walk).
    # `for` as a keyword (not `format`, `before`); `yield` and `await` as
    # words, whose lines the binder and the await rule ask for too.
    if parsed is not None:
        yield_lines, await_lines, for_lines = parsed.word_lines("yield"), parsed.word_lines("await"), parsed.keyword_lines("for")
    else:
        yield_lines, await_lines, for_lines = word_lines(source, "yield"), word_lines(source, "await"), keyword_lines(source, "for")
    if for_lines:
        # Only the lines whose `for` may have an attribute in its target (a
        # search of those lines alone: the pattern never crosses a line end).
        search = _MAY_HOLD_ATTRIBUTE.search
        for_lines = [line for line in for_lines if search(lines[line - 1])] or NOWHERE

    # An explicit stack, not a recursive closure: a closure calling itself is a
    # reference cycle, which kept `lines`, `starts` and `cuts` of every module
    # alive until a full collection, never made by a one-shot run (about 24 MB
    # at the peak of the 100k-line scale program). The cuts are sorted below,
    # so the order of the walk does not matter.
    docstring(tree.body)
    pending: list[tuple[list[ast.stmt], bool]] = [(tree.body, False)]
    while pending:
        body, in_class = pending.pop()
        for stmt in body:
            kind = type(stmt)
            if kind in SIMPLE_STATEMENTS:
                continue  # (most: no block, no def)
            if kind in _DEFS:
                fn: ast.FunctionDef | ast.AsyncFunctionDef = stmt  # type: ignore[assignment]
                if in_class and _stores_on_first_param(fn, for_lines):
                    docstring(fn.body)  # the rest is read by the method walker
                else:
                    cut_body(fn.body, _body_marker(fn, yield_lines, await_lines))
            elif kind is ast.ClassDef:
                docstring(stmt.body)  # type: ignore[attr-defined]
                pending.append((stmt.body, True))  # type: ignore[attr-defined]
            else:
                for name in ("body", "orelse", "finalbody"):
                    child = getattr(stmt, name, None)
                    if isinstance(child, list) and child and isinstance(child[0], ast.stmt):
                        pending.append((child, in_class))
                for handler in getattr(stmt, "handlers", None) or ():
                    pending.append((handler.body, in_class))
                for case in getattr(stmt, "cases", None) or ():
                    pending.append((case.body, in_class))
    pieces: list[str] = []
    pos = 0
    for start, end, marker in sorted(cuts):
        pieces.append(source[pos:start])
        pieces.append(marker)
        pos = end
    pieces.append(source[pos:])
    return "".join(pieces)


# A `for` whose target is plain names (`for k, v in`, `for *a, b in`): what
# follows it on its line is names, blanks, commas and stars up to the word
# `in`. Such a target holds no attribute: with no bracket, quote or `#`
# before that `in`, the `in` is the one ending the target, and an attribute
# needs a `.`. A match of the negation is a `for` (or the end of a word like
# `before`) whose target may hold one; not one followed by a letter, digit
# or `_` (`format`): the keyword, in a source that parses, never is (such a
# character continues a name, or is one no name may hold). Only there
# can a comprehension store to an attribute (`_stores_on_first_param`).
_MAY_HOLD_ATTRIBUTE = re.compile(r"for(?!\w)(?![ \t]+[\w \t,*]*?\bin\b)")


def _kept_comment(comment: str) -> bool:
    # `# type:` comments are annotations; a pure ignore filters only its own
    # module's diagnostics (diagnostics/ignores.py, Program._filter).
    return _TYPE_COMMENT.match(comment) is not None and _PURE_IGNORE.match(comment) is None


def _scanned(kept: str) -> str:
    """`kept` without its comments (but `# type:` ones), blank lines and
    trailing blanks: string literals verbatim, every other column as it was.

    Done by whole-text operations in C rather than Python steps for each
    string and comment (a checked module's digest is taken in every cold
    run): `re.split` cuts the text at its strings and comments; the code
    between strings is joined with one NUL in each string's place (valid
    source has no NUL: it does not parse) and its line ends are stripped in
    one pass, which no match crosses (a NUL is neither blank nor newline),
    as if each run of code between two strings were stripped alone; the
    strings go back in at the NULs."""
    parts = PIECES.split(kept)  # code, comment or string, code, ..., code
    found = parts[1::2]
    if _TYPE_COMMENT.search(kept) is None:
        # No comment is kept (most texts: no `# type:` comment, nor that text in a string).
        marks = ["" if piece[0] == "#" else "\0" for piece in found]
    else:
        marks = ["\0" if piece[0] != "#" else piece if _kept_comment(piece) else "" for piece in found]
    strings = [piece for piece in found if piece[0] != "#"]
    pieces = parts[0::2]
    skeleton: list[str] = [""] * (len(pieces) + len(marks))
    skeleton[0::2] = pieces
    skeleton[1::2] = marks
    segments = _without_line_ends("".join(skeleton)).split("\0")
    segments[-1] = segments[-1].rstrip()
    out: list[str] = [""] * (2 * len(segments) - 1)
    out[0::2] = segments
    out[1::2] = strings
    return "".join(out).lstrip("\n")


def _without_line_ends(code: str) -> str:
    """`code` without the trailing blanks (space, tab, form feed) of its
    lines and the blank lines after a line: each run of blanks and newlines
    that ends in a newline becomes one newline. By lines, not by a regular
    expression tried at every character (twice the time): each line that a
    newline ends loses its trailing blanks, and those left empty go but the
    first (the text before the first newline stays, blank or not; the text
    after the last newline has no line end to strip)."""
    lines = code.split("\n")
    if len(lines) == 1:
        return code
    last = lines.pop()
    stripped = [line.rstrip(" \t\f") for line in lines]
    kept = [stripped[0], *filter(None, stripped[1:]), last]
    return "\n".join(kept)


def _tokenized(kept: str) -> str:
    """`_scanned`'s job done by `tokenize`, for what the scan could misread:
    one logical line per line, each token with its position relative to its
    logical line. Raises tokenize's errors."""
    out: list[str] = ["tokens\n"]
    line_row: int | None = None
    for tok in tokenize.generate_tokens(io.StringIO(kept).readline):
        if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        if tok.type == tokenize.COMMENT and not _kept_comment(tok.string):
            continue
        if tok.type == tokenize.NEWLINE:
            out.append("\n")
            line_row = None
            continue
        if line_row is None:
            line_row = tok.start[0]
        out.append(f"{tok.start[0] - line_row},{tok.start[1]}:{tok.string}\x00")
    return "".join(out)


def _body_marker(node: ast.FunctionDef | ast.AsyncFunctionDef, yield_lines: list[int] | None, await_lines: list[int] | None) -> str:
    # The evaluator's own test for a generator, so the two cannot disagree
    # (kept on the node: free where the check already asked).
    first, last = span_start(node), node.end_lineno
    yields = (yield_lines is None or any_in_span(yield_lines, first, last)) and is_generator(node)
    awaits = (await_lines is None or any_in_span(await_lines, first, last)) and _awaits(node, await_lines)
    return _MARKERS[yields, awaits, is_trivial_body(node.body)]


# The body markers by their flags (yield, await, trivial), made once.
_MARKERS = {(y, a, t): f"<body yield={int(y)} await={int(a)} trivial={int(t)}>"
            for y in (False, True) for a in (False, True) for t in (False, True)}


def _awaits(node: ast.FunctionDef | ast.AsyncFunctionDef, await_lines: list[int] | None) -> bool:
    """Whether an `ast.Await` is among `walk_own_body(node)` (not in a nested
    def, class or lambda). A statement whose lines hold no `await` (the
    sorted `await_lines`; None: not known) is not entered: its own nodes lie
    within its lines (a statement's positions are exact; those of an
    expression nested in an f-string may not be, before Python 3.12, so no
    expression is skipped by its lines)."""
    stack = child_nodes(node)
    childless, scopes, statements = CHILDLESS, _OWN_SCOPES, _STATEMENTS
    while stack:
        sub = stack.pop()
        kind = type(sub)
        if kind is ast.Await:
            return True
        if kind in childless or kind in scopes:
            continue
        if (await_lines is not None and kind in statements
                and not any_in_span(await_lines, sub.lineno, sub.end_lineno)):  # type: ignore[attr-defined]
            continue
        stack.extend(child_nodes(sub))
    return False


def _stores_on_first_param(node: ast.FunctionDef | ast.AsyncFunctionDef, for_lines: list[int] | None) -> bool:
    """Whether any node of the def stores to or deletes an attribute of its
    first parameter (`ast.Attribute` with a Store or Del context on that name).

    Such a node is only ever an assignment's, `for`'s, `with`'s or `del`'s
    target (or an element of one), or a comprehension's target: the
    statements' targets are read without visiting their expressions (by
    syntax/param_stores.py, once per def for all its readers), and
    only those expressions are walked that can hold a comprehension, whose
    `for` is written in their span (`for_lines`: the lines of the source
    holding the keyword; None: not known, walk them all; syntax/word_lines.py),
    and none of a statement whose lines (its decorators' too) hold no `for`.
    The expressions pruned so are a statement's own, whose positions are
    exact (those nested in an f-string may not be, before Python 3.12)."""
    positional = node.args.posonlyargs + node.args.args
    if not positional:
        return False
    first = positional[0].arg
    # The statements' targets holding an attribute of `first`, as the binder
    # found them (syntax/param_stores.py: walked once per def); a Store or
    # Del context among them is a store.
    for _, target in first_param_stores(node):
        if _stores_to(target, first):
            return True
    # A def whose lines hold no `for` has no comprehension: nothing else to read.
    if for_lines is not None and not any_in_span(for_lines, span_start(node), node.end_lineno):
        return False
    # The statements, depth first (the answer is a yes or no: any order will
    # do); one whose lines (its body's, which lie within them) hold no `for`
    # has no comprehension in its parts nor in its body's: not entered.
    # (Node classes are tested by identity, a parse's nodes being never of a
    # subclass; the walk under a part is depth first, without the nodes
    # that hold nothing: names, constants, contexts.)
    stack: list[ast.AST] = [node]
    childless = _CHILDLESS
    while stack:
        stmt = stack.pop()
        if (for_lines is not None and type(stmt) is not ast.match_case  # (a match case has no position)
                and not any_in_span(for_lines, span_start(stmt), stmt.end_lineno)):  # type: ignore[arg-type, attr-defined]
            continue
        parts: list[ast.AST] = []
        for child in child_nodes(stmt):
            (stack if type(child) in _STRUCTURAL else parts).append(child)
        while parts:
            part = parts.pop()
            if type(part) not in _POSITIONED:
                parts.extend(child_nodes(part))  # a def's `arguments`, a `withitem`: their parts have positions
                continue
            if for_lines is not None and not any_in_span(for_lines, part.lineno, part.end_lineno):  # type: ignore[attr-defined]
                continue
            todo = [part]
            while todo:
                sub = todo.pop()
                kind = type(sub)
                if kind in childless:
                    continue
                if kind is ast.comprehension and _stores_to(sub.target, first):  # type: ignore[attr-defined]
                    return True
                todo.extend(child_nodes(sub))
    return False


def _kinds(*bases: type) -> frozenset[type]:
    """The node classes of `bases` (each itself or its direct subclasses)."""
    return frozenset(kind for base in bases for kind in (base.__subclasses__() or [base]))


_STRUCTURAL = _kinds(ast.stmt, ast.excepthandler, ast.match_case)
# The statements (with positions; an except clause's are its own too).
_STATEMENTS = _kinds(ast.stmt, ast.excepthandler)
# The nodes whose `await` is their own (syntax/walk.walk_own_body's).
_OWN_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda})
# The parts of a statement with a position of their own (not `arguments`,
# `withitem`, nor the contexts Load/Store/Del and operators, which hold nothing).
_POSITIONED = _kinds(ast.expr, ast.arg, ast.keyword, ast.alias, ast.pattern)
_CHILDLESS = CHILDLESS | {ast.Name}


def _stores_to(target: ast.expr, name: str) -> bool:
    """Whether `target` (or a node in it) stores to or deletes an attribute of `name`."""
    if type(target) is ast.Name:
        return False  # (the most common target)
    for sub in walk_nodes(target):
        if (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.ctx, (ast.Store, ast.Del))
            and isinstance(sub.value, ast.Name)
            and sub.value.id == name
        ):
            return True
    return False


def interface_digest_of_bytes(data: bytes, parsed: ParsedFile | None = None, early: tuple[str, str] | None = None) -> str:
    """`interface_digest` of a file's bytes, decoded as Python decodes source
    (by its coding cookie); bytes that do not decode digest in full.
    `parsed`, `early`: as for `interface_digest`."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return "full:" + digest_bytes(data)
    return interface_digest(text, parsed, early)
