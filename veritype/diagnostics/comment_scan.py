"""Comments and string literals of valid Python source by one regular-expression
scan, for the two places that only need those (cache/interface.py's kept
text, diagnostics/ignores.py's comment columns) rather than every token.

`tokenize` is pure Python, microseconds a token; this scan runs in the
regex engine and stops only at strings and comments. On valid source it
finds the same comments and strings as `tokenize` (`STRING` and `COMMENT`
tokens: what lies between two matches holds no quote and no `#`), except
from Python 3.12, where an f-string may hold its own quotes and comments
(`f"{d["#"]}"`): callers tokenize a text where `MAY_MISREAD` finds one.
"""

from __future__ import annotations

import re
import sys

_SQ3 = r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
_DQ3 = r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
_SQ = r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
_DQ = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'

#: A comment: group 1, or a string literal from its opening quote
#: (triple-quoted across lines; escapes and line continuations inside): group
#: 2 (the scans that split a text use `PIECES` below, its one-group form). The
#: two start at different characters, so their order
#: decides nothing. A string's prefix (`rb`, `f`) is not part of the match: it
#: is left with the code before it, which changes neither the string's extent
#: nor the comments found, and a pattern that starts with a quote or `#` only
#: is tried at those characters alone (an optional prefix made the engine try
#: every one).
STRING_OR_COMMENT = re.compile(rf"(#[^\n]*)|({_SQ3}|{_DQ3}|{_SQ}|{_DQ})", re.S)

#: STRING_OR_COMMENT with its two groups made one, `(comment|string)` (a
#: piece is a comment when it starts with `#`, a string never does), for
#: `re.split`: the same matches, found three times faster. With the groups
#: side by side at its top the regex engine tries the pattern at every
#: character of the text; with one group whose alternatives each start with a
#: literal, it skips ahead to the next `#` or quote in C (sre's charset prefix).
PIECES = re.compile(STRING_OR_COMMENT.pattern.replace(")|(", "|", 1), re.S)

#: Where the scan could misread a text: an f-string on Python 3.12+ (None before).
MAY_MISREAD = re.compile(r"(?<!\w)(?:[fF][rR]?|[rR][fF])['\"]") if sys.version_info >= (3, 12) else None
