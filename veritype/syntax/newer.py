"""Explain a syntax error caused by syntax newer than the running interpreter.

veritype parses with the standard `ast` module, which only knows the grammar of
the Python it runs on. A file written for a newer Python then fails with an
unhelpful "invalid syntax". For each construct we know was added in a later
version, a *rewriter* turns the construct at the error into an older
equivalent of the same line count; if the rewritten source gets past the
original error, we know the construct was the cause and can name the version.
We never guess: no rewrite that fixes the parse, no version claim.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Callable, Iterator

RUNNING = sys.version_info[:2]

# A rewriter gets the source lines and the 0-based error line and yields
# candidates (rewritten lines, version that introduced the construct, what it is).
Candidate = tuple[list[str], tuple[int, int], str]
Rewriter = Callable[[list[str], int], Iterator[Candidate]]


def explain_newer_syntax(source: str, exc: SyntaxError) -> str | None:
    """A message naming the needed Python version, or None if the error is not that."""
    if exc.lineno is None:
        return None
    lines = source.splitlines(keepends=True)
    index = exc.lineno - 1
    if not 0 <= index < len(lines):
        return None
    for rewriter in _REWRITERS:
        try:
            candidates = list(rewriter(lines, index))
        except (IndexError, ValueError, StopIteration):
            continue
        for new_lines, version, what in candidates:
            if version > RUNNING and _gets_past("".join(new_lines), exc.lineno):
                v = f"{version[0]}.{version[1]}"
                r = f"{RUNNING[0]}.{RUNNING[1]}"
                return f"Cannot parse: {what} needs Python {v} or newer; veritype is running on Python {r}"
    return None


def _gets_past(source: str, error_line: int) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(source, type_comments=True)
    except SyntaxError as exc:
        return (exc.lineno or 0) > error_line
    except (ValueError, RecursionError, MemoryError):
        return False
    return True


def _match_bracket(lines: list[str], row: int, col: int) -> tuple[int, int] | None:
    """Position just after the bracket matching lines[row][col] (ignores strings: type params have none)."""
    depth = 0
    r, c = row, col
    while r < len(lines):
        text = lines[r]
        while c < len(text):
            ch = text[c]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    return r, c + 1
            elif ch == "#":
                break
            c += 1
        r, c = r + 1, 0
    return None


def _blank(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> tuple[list[str], str]:
    """Replace the span with spaces (newlines kept, so line numbers stay) and return the old text."""
    out = list(lines)
    removed: list[str] = []
    (r0, c0), (r1, c1) = start, end
    for r in range(r0, r1 + 1):
        text = out[r]
        a = c0 if r == r0 else 0
        b = c1 if r == r1 else len(text.rstrip("\r\n"))
        removed.append(text[a:b])
        if r < r1:
            # The brackets held the lines together; a backslash does it now.
            out[r] = text[:a] + " " * (b - a) + " \\" + text[b:]
        else:
            out[r] = text[:a] + " " * (b - a) + text[b:]
    return out, "\n".join(removed)


def _top_level_equals(params: str) -> bool:
    """Whether a type parameter list has a default (`[T = int]`) at its top level."""
    depth = 0
    for i, ch in enumerate(params):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 1:
            nxt = params[i + 1 : i + 2]
            prev = params[i - 1 : i]
            if nxt != "=" and prev not in "=!<>":
                return True
    return False


_GENERIC_DEF = re.compile(r"^(\s*)(?:async\s+def|def|class)\s+[A-Za-z_]\w*\s*(\[)")
_TYPE_ALIAS = re.compile(r"^(\s*)type\s+([A-Za-z_]\w*)\s*(\[|=)")


def _rewrite_type_params(lines: list[str], index: int) -> Iterator[Candidate]:
    """PEP 695 `class A[T]:` / `def f[T]():` (3.12); with a default `[T = int]`, PEP 696 (3.13)."""
    # The error can be on a later line of a multi-line parameter list: look back a little.
    for row in range(index, max(index - 10, -1), -1):
        m = _GENERIC_DEF.match(lines[row])
        if m is None:
            continue
        end = _match_bracket(lines, row, m.start(2))
        if end is None or end[0] < index:
            return
        new, params = _blank(lines, (row, m.start(2)), end)
        if _top_level_equals(params):
            yield new, (3, 13), "a type parameter default (PEP 696)"
        else:
            yield new, (3, 12), "type parameter syntax (PEP 695)"
        return


def _rewrite_type_alias(lines: list[str], index: int) -> Iterator[Candidate]:
    """PEP 695 `type X = ...` / `type X[T] = ...` (3.12)."""
    m = _TYPE_ALIAS.match(lines[index])
    if m is None:
        return
    version, what = (3, 12), "the `type` statement (PEP 695)"
    new = list(lines)
    text = new[index]
    if m.group(3) == "[":
        end = _match_bracket(lines, index, m.start(3))
        if end is None:
            return
        new, params = _blank(new, (index, m.start(3)), end)
        if _top_level_equals(params):
            version, what = (3, 13), "a type parameter default (PEP 696)"
        text = new[index]
    # `type X` -> `X`, keeping indentation.
    new[index] = m.group(1) + m.group(2) + text[m.end(2) :]
    yield new, version, what


_EXCEPT_TUPLE = re.compile(r"^(\s*except\*?\s+)([^:()]+,[^:()]+?)(\s*:)")


def _rewrite_bare_except_tuple(lines: list[str], index: int) -> Iterator[Candidate]:
    """PEP 758 `except A, B:` without parentheses (3.14)."""
    m = _EXCEPT_TUPLE.match(lines[index])
    if m is None or re.search(r"\bas\b", m.group(2)):
        return
    new = list(lines)
    text = new[index]
    new[index] = m.group(1) + "(" + m.group(2) + ")" + text[m.start(3) :]
    yield new, (3, 14), "`except` with several exception types and no parentheses (PEP 758)"


_TSTRING = re.compile(r"(?<![\w.])([tT][rR]?|[rR][tT])(['\"])")


def _rewrite_template_string(lines: list[str], index: int) -> Iterator[Candidate]:
    """PEP 750 template strings `t"..."` (3.14): retry them as f-strings."""
    text = lines[index]
    if not _TSTRING.search(text):
        return
    new = list(lines)

    def to_f(m: re.Match[str]) -> str:
        return m.group(1).replace("t", "f").replace("T", "F") + m.group(2)

    new[index] = _TSTRING.sub(to_f, text)
    yield new, (3, 14), "a template string (PEP 750)"


_FSTRING_START = re.compile(r"(?<![\w.])(?:[fF][rR]?|[rR][fF])(\"\"\"|'''|\"|')")


def _scan_string(src: str, i: int) -> int | None:
    """End index of the (possibly PEP 701) string literal starting at src[i], prefix included."""
    m = re.compile(r"[A-Za-z]{0,2}(\"\"\"|'''|\"|')").match(src, i)
    if m is None:
        return None
    prefix = src[i : m.start(1)].lower()
    quote = m.group(1)
    j = m.end()
    raw = "r" in prefix
    if "f" not in prefix:
        while j < len(src):
            if src.startswith(quote, j):
                return j + len(quote)
            if src[j] == "\\" and not raw:
                j += 2
                continue
            if src[j] == "\n" and len(quote) == 1:
                return None
            j += 1
        return None
    return _scan_fstring_body(src, j, quote, raw)


def _scan_fstring_body(src: str, j: int, quote: str, raw: bool) -> int | None:
    """Scan an f-string body under PEP 701 rules; every replacement field must parse."""
    while j < len(src):
        if src.startswith(quote, j):
            return j + len(quote)
        ch = src[j]
        if ch == "\\" and not raw:
            j += 2
            continue
        if ch == "\n" and len(quote) == 1:
            return None
        if src.startswith("{{", j) or src.startswith("}}", j):
            j += 2
            continue
        if ch == "{":
            end = _scan_field(src, j + 1, quote, raw)
            if end is None:
                return None
            j = end
            continue
        j += 1
    return None


def _scan_field(src: str, j: int, quote: str, raw: bool) -> int | None:
    """Scan one `{expr!r:spec}` field from just after `{`; returns the index after `}`."""
    depth = 0
    start = j
    while j < len(src):
        ch = src[j]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if ch != "}":
                    return None
                return j + 1 if _expr_ok(src[start:j]) else None
            depth -= 1
        elif ch in "'\"" or (ch.isalpha() and re.match(r"[A-Za-z]{1,2}['\"]", src[j:])):
            end = _scan_string(src, j)
            if end is None:
                return None
            j = end
            continue
        elif ch == "#":
            nl = src.find("\n", j)
            if nl < 0:
                return None
            j = nl
            continue
        elif depth == 0 and (ch == "!" and src[j + 1 : j + 2] != "=" or ch == ":"):
            if not _expr_ok(src[start:j]):
                return None
            # A format spec: literal text with nested fields, up to the closing brace.
            k = j + 1
            while k < len(src):
                if src[k] == "{":
                    end = _scan_field(src, k + 1, quote, raw)
                    if end is None:
                        return None
                    k = end
                    continue
                if src[k] == "}":
                    return k + 1
                if src.startswith(quote, k):
                    return None
                k += 1
            return None
        j += 1
    return None


def _expr_ok(text: str) -> bool:
    expr = text.rstrip()
    if expr.endswith("="):  # f"{x=}" self-documenting expressions
        expr = expr[:-1]
    if not expr.strip():
        return False
    try:
        # Parenthesised, so that newlines inside the field are fine.
        ast.parse("(" + _neutralise_nested_fstrings(expr) + "\n)", mode="eval")
    except SyntaxError:
        return False
    return True


def _neutralise_nested_fstrings(expr: str) -> str:
    """Replace nested f-strings by `0` so an older parser can check the expression around them."""
    out: list[str] = []
    i = 0
    while i < len(expr):
        m = _FSTRING_START.match(expr, i)
        if m and (i == 0 or not (expr[i - 1].isalnum() or expr[i - 1] in "_.")):
            end = _scan_string(expr, i)
            if end is None:
                return expr
            out.append('""')
            i = end
            continue
        out.append(expr[i])
        i += 1
    return "".join(out)


def _rewrite_fstring(lines: list[str], index: int) -> Iterator[Candidate]:
    """PEP 701 f-strings (3.12): reused quotes, backslashes, comments, multi-line fields."""
    source = "".join(lines)
    # Offsets of line starts, to convert between (row, col) and absolute index.
    starts = [0]
    for text in lines:
        starts.append(starts[-1] + len(text))
    # f-strings starting on the error line or a few lines before it (multi-line fields).
    for row in range(index, max(index - 10, -1), -1):
        for m in _FSTRING_START.finditer(lines[row]):
            begin = starts[row] + m.start()
            end = _scan_string(source, begin)
            if end is None:
                continue
            end_row = next(r for r in range(len(starts) - 1) if starts[r + 1] > end - 1)
            if end_row < index:
                continue
            # Replace the whole literal by an empty string, keeping the newlines it held.
            literal = source[begin:end]
            replacement = '""'
            if "\n" in literal:
                replacement = '(""' + "\n" * literal.count("\n") + ")"
            new_source = source[:begin] + replacement + source[end:]
            yield new_source.splitlines(keepends=True), (3, 12), "this f-string (PEP 701)"


_REWRITERS: list[Rewriter] = [
    _rewrite_type_alias,
    _rewrite_type_params,
    _rewrite_bare_except_tuple,
    _rewrite_template_string,
    _rewrite_fstring,
]
