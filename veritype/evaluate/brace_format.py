"""Checking `"{}".format(...)` calls and f-strings (str-format, str-bytes-safe).

A `.format()` call on a string literal is checked as mypy 2.4.1 does, each
error on the call:

* the fields against the arguments: a positional field with no argument,
  a named one with no keyword, an argument no field uses, and automatic
  numbering (`{}`) mixed with manual (`{0}`); a `*args` may fill any
  positional field and a `**kwargs` any named one (mypy checks the other
  kind only);
* a conversion other than `!r`, `!s`, `!a`, and a malformed string;
* the presentation type of a field's spec against its value, where the
  value's `__format__` is the builtins' one (a `datetime` or `Decimal`
  formats itself, and is left alone): `d b o x X` take an int, `c` an int
  or a str, `e f g n % ...` an int or a float, each union member on its
  own; a spec outside the standard grammar or an unknown type character is
  reported;
* a `bytes` value formatted without a conversion is str-bytes-safe.

A field with `.attr` or `[key]` parts, or a spec with nested fields, is not
type-checked. In an f-string only str-bytes-safe is reported (as mypy
does): on the f-string when it is a single field, else on the value.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.format_parse import BraceField, FormatSyntaxError, parse_braces, spec_type
from veritype.evaluate.format_values import BYTES_SAFE_FORMAT, has_bytes
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import (
    AnyType, Instance, LiteralType, NoneType, Type, TupleType, TypedDictType, make_union, union_items,
)
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_INT_TYPES = "bdoxX"
_FLOAT_TYPES = "eEfFgGn%"
_KNOWN_TYPES = _INT_TYPES + _FLOAT_TYPES + "cs"


def is_format_call(node: ast.Call) -> bool:
    func = node.func
    return isinstance(func, ast.Attribute) and func.attr == "format" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str)


def check_format_call(ex: "ExprEvaluator", node: ast.Call) -> None:
    if not ex.reporting:
        return
    assert isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant)
    fmt = node.func.value.value
    assert isinstance(fmt, str)
    try:
        top = parse_braces(fmt)
    except FormatSyntaxError as e:
        ex.error(node, str(e), "str-format")
        return
    fields = _flatten(top)
    for f in fields:
        if f.conversion is not None and f.conversion not in "rsa":
            ex.error(node, f'Invalid conversion type "{f.conversion}", must be one of "r", "s" or "a"', "str-format")
            return
    auto = [f for f in fields if f.name == ""]
    if auto and any(f.name.isdigit() for f in fields):
        ex.error(node, "Cannot combine automatic field numbering and manual field specification", "str-format")
        return
    for k, f in enumerate(auto):
        f.name = str(k)
    # Arguments before the first `*args` have known positions; after a `**kwargs`
    # any name may be given, so nothing of the count is reported.
    first_star = next((i for i, a in enumerate(node.args) if isinstance(a, ast.Starred)), None)
    positional = node.args[:first_star] if first_star is not None else list(node.args)
    keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
    star_args, star_kwargs = first_star is not None, any(kw.arg is None for kw in node.keywords)
    if _count_problems(ex, node, fields, positional, keywords, star_args, star_kwargs):
        return
    for f in fields:
        if f.accessors:
            continue  # `{0.attr}`, `{0[key]}`: the formatted value is not the argument
        arg = (positional[int(f.name)] if int(f.name) < len(positional) else None) if f.name.isdigit() else keywords.get(f.name)
        if arg is not None:
            _check_field(ex, node, f, ex.infer(arg))


def _count_problems(ex: "ExprEvaluator", node: ast.Call, fields: list[BraceField], positional: list[ast.expr],
                    keywords: dict[str, ast.expr], star_args: bool, star_kwargs: bool) -> bool:
    """Report fields without an argument and arguments without a field (True if
    any). A `*args` may fill any positional field, a `**kwargs` any named one
    (mypy then checks the other kind only)."""
    problems = False
    for f in fields:
        if f.name.isdigit():
            if not star_args and int(f.name) >= len(positional):
                ex.error(node, f"Cannot find replacement for positional format specifier {f.name}", "str-format")
                problems = True
        elif not star_kwargs and f.name not in keywords:
            ex.error(node, f'Cannot find replacement for named format specifier "{f.name}"', "str-format")
            problems = True
    used_pos = {int(f.name) for f in fields if f.name.isdigit()}
    used_kw = {f.name for f in fields if not f.name.isdigit()}
    if (not star_args and any(i not in used_pos for i in range(len(positional)))) or any(k not in used_kw for k in keywords):
        ex.error(node, "Not all arguments converted during string formatting", "str-format")
        problems = True
    return problems


def _flatten(fields: list[BraceField]) -> list[BraceField]:
    """Fields in Python's numbering order: each field, then the ones nested in its spec."""
    out: list[BraceField] = []
    for f in fields:
        out.append(f)
        out.extend(_flatten(f.nested))
    return out


def _check_field(ex: "ExprEvaluator", node: ast.AST, f: BraceField, t: Type) -> None:
    if isinstance(t, AnyType):
        return
    if f.nested:
        if f.conversion is None and has_bytes(t):
            ex.error(node, BYTES_SAFE_FORMAT, "str-bytes-safe")
        return
    conv = spec_type(f.spec)
    if f.conversion is None and conv in ("", "s") and has_bytes(t):
        ex.error(node, BYTES_SAFE_FORMAT, "str-bytes-safe")
        return
    if conv == "" or conv == "s":
        return
    value = ex.ev.builtin("str") if f.conversion is not None else t
    for item in union_items(value):
        if not _builtin_formatted(ex, item):
            continue
        if conv is None:
            ex.error(node, f'Unrecognized format specification "{f.spec}"', "str-format")
            return
        if conv not in _KNOWN_TYPES:
            ex.error(node, f'Unsupported format character "{conv}"', "str-format")
            return
        expected = _expected(ex, conv)
        if not is_subtype(ex.ev, item, expected):
            shown = format_type(widen_literals(item, keep_declared=True))
            ex.error(node, f'Incompatible types in string interpolation (expression has type "{shown}", placeholder has type "{format_type(expected)}")', "str-format")


def _expected(ex: "ExprEvaluator", conv: str) -> Type:
    ev = ex.ev
    if conv in _INT_TYPES:
        return ev.builtin("int")
    if conv == "c":
        return make_union([ev.builtin("int"), ev.builtin("str")])
    return make_union([ev.builtin("int"), ev.builtin("float")])


def _builtin_formatted(ex: "ExprEvaluator", t: Type) -> bool:
    """`t` formats with a builtins class's `__format__` (a class of another module
    may define its own spec language, as `datetime` does)."""
    if isinstance(t, NoneType):
        return True
    if isinstance(t, LiteralType):
        t = t.fallback
    elif isinstance(t, (TupleType, TypedDictType)):
        t = t.fallback
    if not isinstance(t, Instance):
        return False
    for cls in t.info.mro:
        if "__format__" in cls.symbols:
            return cls.fullname.startswith("builtins.")
    return False


def check_fstring(ex: "ExprEvaluator", node: ast.JoinedStr, values: list[tuple[ast.FormattedValue, Type]]) -> None:
    """str-bytes-safe in an f-string: a bytes value without a conversion."""
    if not ex.reporting:
        return
    for v, t in values:
        if v.conversion == -1 and not isinstance(t, AnyType) and has_bytes(t):
            ex.error(node if len(node.values) == 1 else v.value, BYTES_SAFE_FORMAT, "str-bytes-safe")
