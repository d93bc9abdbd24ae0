"""On which lines of a source a word occurs: to skip the syntax that cannot hold it.

Some rules look for one kind of node in a subtree (a `yield` in a function
body, an `await` in a statement). The keyword of such a node is written
inside the node's own line span, and a node's span lies inside the span of
every node holding it, but for a def's or class's decorators, written above
its `def`/`class` line (`span_start` counts them). So when no line of a
subtree's span holds the word, the subtree holds no such node and need not be
walked. The lines come from the text (a word in a comment or a string
counts too: that only costs the walk it would have cost anyway).
"""

from __future__ import annotations

import ast
from bisect import bisect_left


#: The answer where no line holds the words: one list for every such answer
#: (most: a module's memo holds several, for each of hundreds of modules).
#: Like every answer here, and those a parse memoizes, it is never mutated.
NOWHERE: list[int] = []


def word_lines(source: str, *words: str) -> list[int] | None:
    """The sorted 1-based numbers of the lines holding any of `words`; None
    when the text holds one and its line numbers may not be the parser's (a
    lone carriage return ends a line for Python, not for this count)."""
    return union_lines([_lines_of(source, word) for word in words])


def keyword_lines(source: str, *words: str) -> list[int] | None:
    """`word_lines` for words standing alone: an occurrence inside a longer
    name (`default` for `def`) is not counted. For keywords, never written
    as part of a name; a word next to another character (`²def`, only in a
    string or a comment) counts, as in `word_lines`, and so does one right
    after a number (`[1for x in y]` is a comprehension)."""
    return union_lines([_whole_lines_of(source, word) for word in words])


def union_lines(parts: list[list[int] | None]) -> list[int] | None:
    """The sorted lines of any of `parts` (each as `word_lines` gives for one
    word): None when one of them is."""
    if len(parts) == 1:
        return parts[0]
    found: set[int] = set()
    for part in parts:
        if part is None:
            return None
        found.update(part)
    return sorted(found) if found else NOWHERE


def lines_by_word(source: str, words: tuple[str, ...], keywords: tuple[str, ...]) -> list[list[int] | None]:
    """`word_lines(source, w)` for each of `words`, then `keyword_lines(source,
    w)` for each of `keywords`: the same answers, by one count of the text's
    newlines. Each word's own scan counts the newlines from the start of the
    text to its last occurrence; asked for a dozen words (a checked module's
    rules do: `def`, `for`, `import`...), that was a dozen passes over the
    text, the most of these scans' cost. Here the occurrences of all the
    words are found first (by `str.find`, as each word's scan finds them),
    then their lines by one pass over them in text order."""
    found = [_positions(source, word) for word in words] + [_whole_positions(source, word) for word in keywords]
    if "\r" in source:
        return [None if positions else NOWHERE for positions in found]
    # Each occurrence as one int, its offset and its word's index: sorted,
    # the occurrences of every word in text order (two words never start at
    # the same offset, and if they did the order between them would not matter).
    shift = max(len(found), 1).bit_length()
    mask = (1 << shift) - 1
    keyed = sorted([pos << shift | i for i, positions in enumerate(found) for pos in positions])
    out: list[list[int]] = [[] for _ in found]
    line, counted, count = 1, 0, source.count
    for key in keyed:
        pos = key >> shift
        line += count("\n", counted, pos)
        counted = pos
        lines = out[key & mask]
        if not lines or lines[-1] != line:
            lines.append(line)
    return [lines if lines else NOWHERE for lines in out]


def _positions(source: str, word: str) -> list[int]:
    """The offsets where `word` starts, in order."""
    out: list[int] = []
    pos, size, find = source.find(word), len(word), source.find
    while pos >= 0:
        out.append(pos)
        pos = find(word, pos + size)
    return out


def _whole_positions(source: str, word: str) -> list[int]:
    """The offsets where `word` starts standing alone, in order."""
    # (ASCII name characters only: any other beside the word counts it. A
    # `str.find` loop: a regular expression looking behind is tried at every
    # character of the text, ten times slower.)
    out: list[int] = []
    name_chars, size, length, find = _NAME_CHARS, len(word), len(source), source.find
    pos = find(word)
    while pos >= 0:
        end = pos + size
        if (end == length or source[end] not in name_chars) and (pos == 0 or source[pos - 1] not in name_chars
                                                                 or _after_number(source, pos)):
            out.append(pos)
        pos = find(word, end)
    return out


def _lines_of(source: str, word: str) -> list[int] | None:
    """`word_lines(source, word)`: the lines holding one word (none, whatever
    the line ends, when the text does not hold it)."""
    return _lines_at(source, _positions(source, word), word)


def _whole_lines_of(source: str, word: str) -> list[int] | None:
    """`keyword_lines(source, word)` for one word."""
    return _lines_at(source, _whole_positions(source, word), word)


def _lines_at(source: str, positions: list[int], word: str) -> list[int] | None:
    """The lines of the sorted offsets `positions` (of `word`): none when
    there are none; None when the text holds the word and its line numbers
    may not be the parser's (see `word_lines`)."""
    if "\r" in source:
        return None if word in source else NOWHERE
    if not positions:
        return NOWHERE
    lines: list[int] = []
    line, counted, count = 1, 0, source.count
    for pos in positions:
        line += count("\n", counted, pos)
        counted = pos
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _after_number(source: str, pos: int) -> bool:
    """Whether the name characters just before `pos` may end a number, not a
    name: a keyword may follow a number with no space (`[1for x in y]`,
    `[1jfor ...]`, `0b1for`), never a name. They start with a digit then."""
    i = pos - 1
    while i > 0 and source[i - 1] in _NAME_CHARS:
        i -= 1
    return source[i] in _DIGITS


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DIGITS = frozenset("0123456789")


# The statements that may have decorators.
DECORATED = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})


def span_start(node: ast.stmt | ast.excepthandler) -> int:
    """The first line of a statement (or an except clause), its decorators included."""
    if type(node) not in DECORATED:
        return node.lineno  # (most statements: no decorators, and no attribute to look up for them)
    decorators = node.decorator_list  # type: ignore[union-attr]
    if decorators:
        return min(node.lineno, *(d.lineno for d in decorators))
    return node.lineno


def any_in_span(lines: list[int], first: int, last: int | None) -> bool:
    """Whether one of the sorted `lines` lies within `first`..`last` (no end: yes)."""
    if last is None:
        return True
    i = bisect_left(lines, first)
    return i < len(lines) and lines[i] <= last
