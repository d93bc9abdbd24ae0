"""Parsing format strings: printf-style (`"%d" % x`) and `str.format` fields.

Pure functions over the literal text, no types: `percent_format` and
`brace_format` check the parts against the arguments. The grammars are
Python's (library reference, "printf-style String Formatting" and "Format
String Syntax"); where a string is malformed, what is returned says how, in
the words mypy reports it with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# -- printf-style ------------------------------------------------------------------


@dataclass(frozen=True)
class PercentSpec:
    """One `%` conversion: `%(key)#5.2d` is key "key", width "5", precision "2", type "d"."""

    key: str | None
    width: str  # "", digits or "*"
    precision: str  # "", digits or "*"
    type: str  # the conversion character; "" at the end of the string


# After the `%` and an optional `(key)`: flags, width, precision, length modifier, type.
_PERCENT_REST = re.compile(r"[#0\- +]*(\*|\d+)?(?:\.(\*|\d*))?[hlL]?(.?)", re.S)


def parse_percent(fmt: str) -> list[PercentSpec]:
    """The conversions of a printf-style format, `%%` left out."""
    specs: list[PercentSpec] = []
    i = fmt.find("%")
    while i != -1:
        j = i + 1
        key: str | None = None
        if fmt.startswith("(", j):
            # Python matches the parentheses of a key ("%((a))s" has key "(a)").
            depth, k = 1, j + 1
            while k < len(fmt) and depth:
                depth += {"(": 1, ")": -1}.get(fmt[k], 0)
                k += 1
            if depth == 0:
                key = fmt[j + 1 : k - 1]
                j = k
        m = _PERCENT_REST.match(fmt, j)
        assert m is not None  # every part of the pattern is optional
        width, precision, conv = m.group(1) or "", m.group(2) or "", m.group(3)
        if conv == "%" and key is None and not width and not precision:
            i = fmt.find("%", m.end())
            continue
        specs.append(PercentSpec(key, width, precision, conv))
        i = fmt.find("%", m.end())
    return specs


# -- str.format --------------------------------------------------------------------


@dataclass
class BraceField:
    """A replacement field `{name!conv:spec}`; `nested`: the fields inside its spec."""

    name: str  # "" (automatic numbering), digits, or an identifier
    accessors: str  # what follows the name: `.attr` and `[key]` parts
    conversion: str | None
    spec: str
    nested: list["BraceField"] = field(default_factory=list)


class FormatSyntaxError(Exception):
    """A format string Python would refuse; the message is mypy's."""


def parse_braces(fmt: str) -> list[BraceField]:
    """The top-level replacement fields of `fmt`, in order (each with its nested ones)."""
    fields: list[BraceField] = []
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        if c == "{":
            if fmt.startswith("{", i + 1):
                i += 2
                continue
            end = _field_end(fmt, i)
            fields.append(_parse_field(fmt[i + 1 : end]))
            i = end + 1
        elif c == "}":
            if fmt.startswith("}", i + 1):
                i += 2
                continue
            raise FormatSyntaxError("Invalid conversion specifier in format string: unexpected }")
        else:
            i += 1
    return fields


def _field_end(fmt: str, start: int) -> int:
    """The index of the `}` closing the field opened at `start` (braces nest in specs)."""
    depth, i = 0, start
    while i < len(fmt):
        if fmt[i] == "{":
            depth += 1
        elif fmt[i] == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise FormatSyntaxError("Invalid conversion specifier in format string: unmatched {")


_NAME = re.compile(r"[^.\[!:]*")


def _parse_field(body: str) -> BraceField:
    m = _NAME.match(body)
    assert m is not None
    name = m.group(0)
    rest = body[m.end() :]
    # Accessors run to the conversion or the spec; a `[key]` may hold `!` or `:`.
    k = 0
    while k < len(rest) and rest[k] not in "!:":
        if rest[k] == "[":
            close = rest.find("]", k)
            if close == -1:
                raise FormatSyntaxError("Invalid conversion specifier in format string")
            k = close + 1
        else:
            k += 1
    accessors, rest = rest[:k], rest[k:]
    conversion: str | None = None
    if rest.startswith("!"):
        if len(rest) < 2 or (len(rest) > 2 and rest[2] != ":"):
            raise FormatSyntaxError("Invalid conversion specifier in format string")
        conversion, rest = rest[1], rest[2:]
    spec = rest[1:] if rest.startswith(":") else ""
    nested = parse_braces(spec) if "{" in spec or "}" in spec else []
    return BraceField(name, accessors, conversion, spec, nested)


# `[[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]`
_SPEC = re.compile(r"(?:.?[<>=^])?[+\- ]?#?0?(\d*)[,_]?(?:\.(\d+))?(.?)", re.S)


def spec_type(spec: str) -> str | None:
    """The presentation type of a standard format spec ("" for none), or None
    when the spec does not follow the standard grammar (`%Y` of a datetime)."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        return None
    return m.group(3)
