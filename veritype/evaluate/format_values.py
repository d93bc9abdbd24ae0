"""What the format checks (percent_format, brace_format) ask of a value's type.

The messages of str-bytes-safe live here too: mypy reports formatting a
`bytes` value with `%s`, `{}` or in an f-string, which gives `"b'abc'"`, not
`"abc"`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import Instance, LiteralType, Type, TypedDictType, TupleType, union_items

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

BYTES_SAFE_PERCENT = (
    "If x = b'abc' then \"%s\" % x produces \"b'abc'\", not \"abc\". "
    "If this is desired behavior use \"%r\" % x. Otherwise, decode the bytes"
)
BYTES_SAFE_FORMAT = (
    "If x = b'abc' then f\"{x}\" or \"{}\".format(x) produces \"b'abc'\", not \"abc\". "
    "If this is desired behavior, use f\"{x!r}\" or \"{!r}\".format(x). Otherwise, decode the bytes"
)


def has_bytes(t: Type) -> bool:
    """`t` is `bytes` (exactly, or a bytes literal), or a union with such a member."""
    for item in union_items(t):
        if isinstance(item, Instance) and item.info.fullname == "builtins.bytes":
            return True
        if isinstance(item, LiteralType) and isinstance(item.value, bytes):
            return True
    return False


def is_iterable(ex: "ExprEvaluator", t: Type) -> bool:
    """`t` has `__iter__` (a list, a str, a dict): the number of items is not known."""
    if isinstance(t, (TupleType, TypedDictType)):
        return True
    return ex.ev.bound_member(t, "__iter__") is not None
