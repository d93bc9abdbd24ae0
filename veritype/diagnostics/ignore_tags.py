"""What one `# type: ignore` comment says: which of its ignores applies, and
whether mypy calls it invalid or doubled.

Python's tokenizer finds an ignore only where a comment starts with it, and
hands over everything after `ignore` as the tag (`ast.TypeIgnore.tag`). mypy
2.4.1 then reads the tag by these rules (measured, both parsers agree):

* the ignore's own part runs to the next `#`; it is empty, or one bracketed
  list of codes (`[a, b]`, spaces allowed around it), and nothing else:
  `# type: ignore[arg-type]  (why)` is `Invalid "type: ignore" comment`
  [syntax], and that ignore silences nothing. mypy says the same of a bare
  ignore with words after it (`# type: ignore - additional stuff`), but the
  typing spec's conformance suite (directives_type_ignore.py: "should be
  suppressed"; spec, "A bare `# type: ignore` must always suppress all type
  errors") takes it as a bare ignore, and so does veritype;
* a part after a `#` that is itself `type: ignore...` is another ignore of the
  chain (`# type: ignore[a]  # type: ignore[b]`); the chain ends at the first
  part that is not (`# type: ignore  # why # type: ignore` is one ignore);
* the first valid ignore of the chain is the one that applies; a second valid
  one adds `Multiple type ignores on the same line` [syntax]; an invalid one
  anywhere in the chain adds the invalid-comment error, once, where it is met.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INVALID = 'Invalid "type: ignore" comment'
MULTIPLE = "Multiple type ignores on the same line"

# A part of the chain after a `#` that starts another ignore (not `ignored`).
_NEXT_IGNORE = re.compile(r"\s*type\s*:\s*ignore(?![\w-])")
# An ignore's own part: nothing, one list of codes with no brackets inside, or
# (a bare ignore) words that do not start a list of codes.
_VALID_PART = re.compile(r"\s*(?:\[[^\[\]#]*\]\s*|[^\s\[].*)?", re.S)  # (3.12+: a tag ends with its newline)


@dataclass(frozen=True)
class ReadTag:
    """The reading of one comment's tag: the part of the ignore that applies
    (None: none is valid, the line has no ignore), and the problems in the
    order mypy reports them."""

    applied: str | None
    problems: tuple[str, ...]


def read_tag(tag: str) -> ReadTag:
    """`tag`: the text after the comment's first `ignore` (as `ast` gives it)."""
    if "#" not in tag and _VALID_PART.fullmatch(tag):
        return ReadTag(tag, ())  # the usual comment: one ignore, valid
    parts = tag.split("#")
    chain = [parts[0]]
    for part in parts[1:]:
        m = _NEXT_IGNORE.match(part)
        if m is None:
            break
        chain.append(part[m.end():])
    applied: str | None = None
    problems: list[str] = []
    for part in chain:
        if not _VALID_PART.fullmatch(part):
            if INVALID not in problems:
                problems.append(INVALID)
        elif applied is None:
            applied = part
        elif MULTIPLE not in problems:
            problems.append(MULTIPLE)
    return ReadTag(applied, tuple(problems))
