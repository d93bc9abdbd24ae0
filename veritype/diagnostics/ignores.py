"""Inline `# type: ignore` comments: find them, apply them, report unused ones.

Two pure functions, called once per file by the build:

* `parse_ignores(tree, source)` finds the ignores. With a tree, `ast` has
  already found them (`ast.Module.type_ignores`, because we parse with
  `type_comments=True`); without one (a file that did not parse) we scan the
  comments with `tokenize`. A `# type: ignore` standing alone before any code
  at the top of the file ignores the whole file.
* `apply_ignores(path, diagnostics, ignore_map, options)` drops what the
  ignores and the options silence, and with `warn_unused_ignores` adds an
  `unused-ignore` error for each ignore that silenced nothing: a bare one, or
  one each of whose codes veritype checks for (codes.implemented).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import compress, count, repeat
from operator import contains

from veritype.diagnostics.codes import REGISTRY, implemented, silenced_by
from veritype.diagnostics.comment_scan import MAY_MISREAD, PIECES
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.diagnostics.enabled import code_enabled
from veritype.diagnostics.ignore_tags import read_tag
from veritype.options import Options

# `# type: ignore`, `#type:ignore[a, b]`, with anything after it; not `# type: ignored`.
_IGNORE_COMMENT = re.compile(r"#\s*type\s*:\s*ignore(?![\w-])(\[[^\]]*\])?")

# A line where an ignore follows another comment (`# type: int  # type: ignore`).
_IGNORE_IN_TYPE_COMMENT = re.compile(r"#[^\n]*#\s*type\s*:\s*ignore(?![\w-])")

# Codes that can never be silenced: an unparsable file is not "checked" at all.
_UNSILENCEABLE = frozenset({"syntax"})


@dataclass(frozen=True)
class Ignore:
    """One `# type: ignore` comment: its line and the codes it silences."""
    line: int
    # None: a bare `# type: ignore`, which silences every code.
    codes: frozenset[str] | None
    column: int = 1  # where the comment starts (1-based), for unused-ignore reports
    # The codes as written, in order, for mypy's "not covered by" note.
    written: tuple[str, ...] = ()


@dataclass
class IgnoreMap:
    """A module's ignore comments, by line, and the whole-file one."""
    lines: dict[int, Ignore] = field(default_factory=dict)
    # A whole-file ignore; its codes (None = all) apply to every line.
    whole_file: Ignore | None = None
    # (line, 1-based column, message) of each comment mypy calls invalid or
    # doubled (diagnostics/ignore_tags.py), reported as `syntax` errors.
    problems: list[tuple[int, int, str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.lines) or self.whole_file is not None or bool(self.problems)


def parse_codes(tag: str) -> frozenset[str] | None:
    """Codes of an ignore from the text after `ignore` (`"[a, b] trailing"` -> {a, b})."""
    tag = tag.strip()
    if not tag.startswith("["):
        return None
    end = tag.find("]")
    if end < 0:
        return None
    codes = frozenset(written_codes(tag))
    # `# type: ignore[]` silences nothing in particular; treat it as bare, as mypy does.
    return codes or None


def written_codes(tag: str) -> tuple[str, ...]:
    """The codes of an ignore in the order written (`"[b, a]"` -> ("b", "a"))."""
    tag = tag.strip()
    end = tag.find("]")
    if not tag.startswith("[") or end < 0:
        return ()
    return tuple(c.strip() for c in tag[1:end].split(",") if c.strip())


def _comment_columns(source: str) -> dict[int, tuple[int, str, int]]:
    """line -> (1-based column, text, 1-based column of the comment's `#`) of
    each `# type: ignore` comment, from the tokens. The comment starts before
    the ignore where an ignore follows a type comment (`# type: int  # type: ignore`)."""
    found: dict[int, tuple[int, str, int]] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                m = _IGNORE_COMMENT.search(tok.string)
                if m:
                    found[tok.start[0]] = (tok.start[1] + m.start() + 1, tok.string[m.start() :], tok.start[1] + 1)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return found


def _quick_columns(source: str, tags: dict[int, str]) -> dict[int, tuple[int, str, int]] | None:
    """`_comment_columns` for the ignore lines in `tags`, without tokenizing the
    file, when each such line has no quote in it: then its first `#` starts
    its comment (the line is not inside a string, since `ast` found a comment
    on it). None when some line does not qualify: tokenize then.
    """
    if "\r" in source or source.startswith("\ufeff"):
        return None  # tokenize's lines or columns could differ from split("\n")
    lines = source.split("\n")
    found: dict[int, tuple[int, str, int]] = {}
    for line in tags:
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        start = text.find("#")
        if start < 0 or "'" in text or '"' in text:
            return None
        comment = text[start:]
        m = _IGNORE_COMMENT.search(comment)
        if m is None:
            return None
        found[line] = (start + m.start() + 1, comment[m.start() :], start + 1)
    return found


def _scanned_columns(source: str, tags: dict[int, str]) -> dict[int, tuple[int, str, int]] | None:
    """`_comment_columns` for the ignore lines in `tags` by the comment scan
    (diagnostics/comment_scan.py) rather than tokenizing the file: its
    comments are tokenize's on source that parsed. None where the scan could
    misread, lines or columns could differ from split("\\n") (as for
    `_quick_columns`), or some line's ignore is not found: tokenize then.

    The text is cut at its strings and comments by `re.split` in C, and only
    the comments holding the word `ignore` (which each ignore does) are looked
    at in Python: a step for each string and comment of the file (a match
    object, its groups, a count of the newlines since the last) was most of
    the cost, on the files with an ignore on a line with a quote.
    """
    if "\r" in source or source.startswith("\ufeff") or (MAY_MISREAD is not None and MAY_MISREAD.search(source)):
        return None
    parts = PIECES.split(source)  # code, comment or string, code, ..., code
    found: dict[int, tuple[int, str, int]] = {}
    line, index, pos = 1, 0, 0  # the line at `pos`, the offset where parts[index] starts
    for hit in compress(count(), map(contains, parts, repeat("ignore"))):
        comment = parts[hit]
        if not hit & 1 or comment[0] != "#":
            continue  # code, or a string: no comment
        start = pos + sum(map(len, parts[index:hit]))
        line += source.count("\n", pos, start)
        index, pos = hit, start
        if line in tags:
            ignore = _IGNORE_COMMENT.search(comment)
            if ignore is not None:
                line_start = source.rfind("\n", 0, start) + 1
                found[line] = (start - line_start + ignore.start() + 1, comment[ignore.start() :], start - line_start + 1)
    return found if found.keys() >= tags.keys() else None


def _first_code_line(source: str) -> int:
    """Line of the first token that is not a comment or blank (a large number if none)."""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING):
                continue
            if tok.type == tokenize.ENDMARKER:
                break
            return tok.start[0]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return 1 << 30


def parse_ignores(tree: ast.Module | None, source: str) -> IgnoreMap:
    result = IgnoreMap()
    if tree is not None:
        tags = {ti.lineno: ti.tag for ti in tree.type_ignores}
        # `x = 1  # type: int  # type: ignore`: Python keeps the ignore inside the
        # type comment, not in `type_ignores`; PEP 484 allows the two together.
        # Such a line holds two `#`s, the second starting an ignore: without
        # one in the source there is nothing to look for.
        if _IGNORE_IN_TYPE_COMMENT.search(source):
            _type_comment_ignores(tree, tags)
        if not tags:
            return result  # most files: no ignores, so no need to tokenize
        comments = _quick_columns(source, tags) or _scanned_columns(source, tags) or _comment_columns(source)
    else:
        comments = _comment_columns(source)
        tags = {line: _tag_of(text) for line, (_, text, _) in comments.items()}
    first_code: int | None = None  # (tokenized only for an ignore alone on its line)
    lines = source.splitlines()
    for line, full_tag in sorted(tags.items()):
        column, _, comment_column = comments.get(line, (1, "", 1))
        read = read_tag(full_tag)
        for problem in read.problems:
            # mypy's column: the character after the comment's `#`.
            result.problems.append((line, comment_column + 1, problem))
        if read.applied is None:
            continue  # no valid ignore: the line's errors stand
        tag = read.applied
        codes = parse_codes(tag)
        ignore = Ignore(line, codes, column, written_codes(tag))
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if result.whole_file is None and text.lstrip().startswith("#"):
            if first_code is None:
                first_code = _first_code_line(source)
            if line < first_code:
                result.whole_file = ignore
                continue
        result.lines[line] = ignore
    return result


# The nodes that may carry a type comment (`ast` gives them `type_comment`):
# statements, and the parameters of a def (a lambda's never have one).
_TYPE_COMMENTED = frozenset(kind for kind in (*ast.stmt.__subclasses__(), ast.arg) if "type_comment" in kind._fields)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _type_comment_ignores(tree: ast.Module, tags: dict[int, str]) -> None:
    """Add to `tags` the ignores written after a type comment, by the line of
    the node holding the comment (where `type_ignores` has none).

    Type comments sit only on statements and a def's parameters: those are
    read, not every node of the tree (`ast.walk`, most of which are
    expressions). Where two nodes of one line hold such an ignore, the first
    in `ast.walk`'s order gives the line's: that order is then asked of
    `ast.walk` itself (never seen on real code)."""
    found: dict[int, str] = {}
    repeated = False
    for node in _type_commented(tree):
        lineno = node.lineno  # type: ignore[attr-defined]
        if lineno not in tags:
            tag = _ignore_after(node.type_comment)  # type: ignore[attr-defined]
            if tag is not None:
                repeated = repeated or lineno in found
                found[lineno] = tag
    if not repeated:
        tags.update(found)
        return
    for node in ast.walk(tree):
        lineno = getattr(node, "lineno", None)
        if lineno is not None and lineno not in tags:
            tag = _ignore_after(getattr(node, "type_comment", None))
            if tag is not None:
                tags[lineno] = tag


def _ignore_after(comment: str | None) -> str | None:
    """The tag of an ignore written after the type comment `comment` (`int  #
    type: ignore[x]`), as `_tag_of` gives it; None where it has none."""
    if not comment or "#" not in comment:
        return None
    rest = "#" + comment.split("#", 1)[1]
    return _tag_of(rest) if _IGNORE_COMMENT.search(rest) is not None else None


def _type_commented(tree: ast.Module) -> Iterator[ast.AST]:
    """The statements of `tree`, nested ones too, and their defs' parameters,
    that can carry a type comment (in no particular order)."""
    stack: list[ast.AST] = list(tree.body)
    commented = _TYPE_COMMENTED
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in commented:
            yield node
        if kind in _DEFS:
            args = node.args  # type: ignore[attr-defined]
            yield from args.posonlyargs
            yield from args.args
            if args.vararg is not None:
                yield args.vararg
            yield from args.kwonlyargs
            if args.kwarg is not None:
                yield args.kwarg
        # The statement lists (and the except handlers and match cases holding
        # them); elsewhere, as in a Lambda or an IfExp, `body` is an expression.
        for name in _BLOCKS:
            child = getattr(node, name, None)
            if type(child) is list:
                stack.extend(child)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _tag_of(comment: str) -> str:
    """The text after `ignore`, as `ast` gives it in `TypeIgnore.tag`."""
    m = _IGNORE_COMMENT.search(comment)
    if m is None:
        return ""
    return comment[m.start(1) if m.group(1) else m.end(0) :]


def _covers(ignore: Ignore, code: str | None) -> bool:
    if code in _UNSILENCEABLE:
        return False
    if ignore.codes is None:
        return True
    return code is not None and silenced_by(code, ignore.codes)


def unused_ignore_message(codes: frozenset[str] | None, written: frozenset[str] | None = None,
                          order: tuple[str, ...] = ()) -> str:
    """mypy's message: the unused codes are named only when the comment names more
    than one code (`# type: ignore[attr-defined]` unused is `Unused "type: ignore"
    comment`; checked against mypy 2.4.1). `written`: the codes the comment names;
    `order`: as written, the order mypy names them in (`[b, a]` unused is
    `Unused "type: ignore[b, a]" comment`; sorted where it is not known)."""
    if codes is None or (written is not None and len(written) <= 1):
        return 'Unused "type: ignore" comment'
    named = [c for c in dict.fromkeys(order) if c in codes] + sorted(c for c in codes if c not in order)
    return f'Unused "type: ignore[{", ".join(named)}]" comment'


def apply_ignores(
    path: str,
    diagnostics: list[Diagnostic],
    ignore_map: IgnoreMap,
    options: Options,
    skipped: "set[int] | frozenset[int]" = frozenset(),
) -> list[Diagnostic]:
    """Drop silenced diagnostics of one file; add unused-ignore errors if asked.

    `skipped`: lines of statically skipped branches (semantic.static_skips),
    where an ignore is for another platform or version, never unused (mypy).

    `options` are the file's own options (`options.for_module(module)`): they
    decide which codes are enabled and whether `ignore_errors` is set.
    A note is dropped together with the error it follows on the same line.
    `skipped`: lines of blocks a version/platform condition rules out, whose
    ignores are never reported unused (mypy does not check those blocks).
    """
    kept: list[Diagnostic] = []
    used: dict[int, set[str | None]] = {}  # ignore line -> codes it silenced
    noted: set[tuple[int, str]] = set()
    # The fate of the last error seen: a note right after it on its line shares it.
    last_error: tuple[int, bool] | None = None  # (line, dropped)
    for diag in diagnostics:
        if diag.severity == "note":
            if last_error is not None and last_error[0] == diag.line:
                if last_error[1]:
                    continue
            else:
                code = _standalone_note_code(diag)
                if code is not None:
                    ignore = ignore_map.lines.get(diag.line)
                    if ignore is not None and _covers(ignore, code):
                        used.setdefault(diag.line, set()).add(code)
                        last_error = (diag.line, True)  # and the notes after it (reveal_locals)
                        continue
                    if ignore is not None and ignore.codes is not None:
                        kept.append(diag)
                        kept.append(not_covered_note(replace(diag, code=code), ignore))
                        continue
            kept.append(diag)
            continue
        dropped = _silenced(diag, ignore_map, options, used)
        last_error = (diag.line, dropped)
        if not dropped:
            kept.append(diag)
            uncovered = _uncovering_ignore(diag, ignore_map)
            if uncovered is not None:
                note = not_covered_note(diag, uncovered)
                # Once per line and text (mypy drops a repeated message): two
                # union-attr errors of one write share one note.
                if (note.line, note.message) not in noted:
                    noted.add((note.line, note.message))
                    kept.append(note)

    added = False
    if ignore_map.problems and not options.ignore_errors and not (ignore_map.whole_file is not None and ignore_map.whole_file.codes is None):
        # After the line's other errors, as mypy orders them (by column: the
        # comment ends the line).
        kept.extend(Diagnostic(path, line, column, "error", message, "syntax") for line, column, message in ignore_map.problems)
        added = True
    if not options.ignore_errors and code_enabled(options, "ignore-without-code"):
        from veritype.diagnostics.ignore_without_code import ignore_without_code_errors

        unused_reported = options.warn_unused_ignores and code_enabled(options, "unused-ignore")
        extra = ignore_without_code_errors(path, ignore_map, used, skipped, unused_reported)
        kept.extend(extra)
        added = bool(extra)
    if options.warn_unused_ignores and not options.ignore_errors and code_enabled(options, "unused-ignore"):
        added = True
        for line, ignore in sorted(ignore_map.lines.items()):
            if line in skipped:
                continue
            if ignore.codes is not None and "unused-ignore" in ignore.codes:
                continue  # `# type: ignore[x, unused-ignore]` asks not to be reported
            if ignore.codes is not None and not all(implemented(c) or _never_reported(c, options) for c in ignore.codes):
                # The ignore may be there for an error mypy reports and veritype
                # cannot (a code it does not check for): reporting it would turn
                # a mypy-clean project red. A bare ignore that silenced nothing
                # is reported, as mypy does: the primer's projects under
                # --warn-unused-ignores (h11, cattrs) have such ignores, where
                # veritype and mypy agree that nothing is silenced.
                continue
            silenced = used.get(line)
            if silenced is None:
                message = unused_ignore_message(ignore.codes, ignore.codes, ignore.written)
            elif ignore.codes is not None:
                # Each named code must have silenced something (a parent via a sub-code).
                unused = frozenset(c for c in ignore.codes if not any(_named_covers(c, s) for s in silenced))
                if not unused:
                    continue
                message = unused_ignore_message(unused, ignore.codes, ignore.written)
            else:
                continue
            kept.append(Diagnostic(path, line, ignore.column, "error", message, "unused-ignore"))
    if added:
        kept.sort(key=lambda d: d.line)  # stable: notes stay after their error
    return kept


def _silenced(diag: Diagnostic, ignore_map: IgnoreMap, options: Options, used: dict[int, set[str | None]]) -> bool:
    if diag.code in _UNSILENCEABLE:
        return False
    if options.ignore_errors or not code_enabled(options, diag.code):
        return True
    if ignore_map.whole_file is not None and _covers(ignore_map.whole_file, diag.code):
        return True
    lines = range(diag.ignore_span[0], diag.ignore_span[1] + 1) if diag.ignore_span is not None else (diag.line,)
    for line in lines:
        ignore = ignore_map.lines.get(line)
        if ignore is not None and _covers(ignore, diag.code):
            used.setdefault(line, set()).add(diag.code)
            return True
    return False


def _standalone_note_code(diag: Diagnostic) -> str | None:
    """The code of a note that follows no error on its line, by which the line's
    ignore silences it as mypy does: `reveal_type`'s is `misc`, an unchecked
    function's annotation note is `annotation-unchecked` (mypy 2.4.1: a bare
    ignore on such a line is used, and names that code under ignore-without-code)."""
    if diag.code == "annotation-unchecked":
        return diag.code
    return "misc" if diag.message.startswith("Revealed ") else None


def _uncovering_ignore(diag: Diagnostic, ignore_map: IgnoreMap) -> Ignore | None:
    """An ignore with codes on the error's lines that does not name its code."""
    if diag.code is None or diag.code in _UNSILENCEABLE:
        return None
    lines = range(diag.ignore_span[0], diag.ignore_span[1] + 1) if diag.ignore_span is not None else (diag.line,)
    for line in lines:
        ignore = ignore_map.lines.get(line)
        if ignore is not None and ignore.codes is not None:
            return ignore
    return None


def not_covered_note(diag: Diagnostic, ignore: Ignore) -> Diagnostic:
    """mypy's note, right after the error (before its own notes): the ignore
    on its line names other codes, with the codes as written."""
    codes = ", ".join(ignore.written or sorted(ignore.codes or ()))
    message = f'Error code "{diag.code}" not covered by "type: ignore[{codes}]" comment'
    return Diagnostic(diag.path, diag.line, diag.column, "note", message, end_line=diag.end_line, end_column=diag.end_column)


def _never_reported(code: str, options: Options) -> bool:
    """Whether no error an ignore naming `code` covers can be reported in this file:
    the code is off (disabled, or off by default and not enabled) and so is each
    of its sub-codes. mypy drops such errors before they reach the ignores, so
    an ignore naming only such codes is unused under mypy too, whether or not
    veritype checks for them (mypy 2.4.1: `disable_error_code =
    comparison-overlap` makes `# type: ignore[comparison-overlap]` unused)."""
    if code not in REGISTRY or code_enabled(options, code):
        return False  # an unknown code may be a plugin's, or one veritype does not know
    return not any(info.parent == code and code_enabled(options, name) for name, info in REGISTRY.items())


def _named_covers(named: str, silenced: str | None) -> bool:
    return silenced is not None and silenced_by(silenced, frozenset({named}))
