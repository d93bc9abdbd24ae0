"""Checking printf-style formatting, `"%d items" % n` (str-format, str-bytes-safe).

Only a format written as a string (or bytes) literal is checked, as mypy
does; a variable holding the format is not. What is checked, each with
mypy 2.4.1's message and place (the right operand, unless said):

* the count: a fixed-length tuple gives one argument per item, any other
  value is one argument, except that a value that is iterable but not a
  tuple (a list, a str), a variable-length tuple with several conversions
  and Any are taken on trust; `*` width and precision take an int each;
* each argument against its conversion: `%d %i %u` take `int | float |
  SupportsInt`, `%x %X %o` `int`, `%e %f %g ...` `int | float |
  SupportsFloat`, `%c` an int or one character; `%s` of bytes in a str
  format is str-bytes-safe, `%s`/`%b` of a str in a bytes format is an
  error; an unknown conversion character is reported;
* `%(key)s` conversions take a mapping (any other value is reported): with
  a dict display of string literals, every key must be there and each
  value is checked; keys and positional conversions cannot be mixed, nor
  keys and `*`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.format_parse import PercentSpec, parse_percent
from veritype.evaluate.format_values import BYTES_SAFE_PERCENT, has_bytes, is_iterable
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import AnyType, Instance, LiteralType, TupleType, Type, UnionType, UnpackType, make_union, union_items
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

_INT_LIKE = "diu"
_INT_ONLY = "xXo"
_FLOAT_LIKE = "eEfFgG"
_ANY_VALUE = "sra"


def check_percent(ex: "ExprEvaluator", node: ast.BinOp, right_t: Type) -> None:
    left = node.left
    if not ex.reporting or not isinstance(left, ast.Constant) or not isinstance(left.value, (str, bytes)):
        return
    fmt = left.value
    is_bytes = isinstance(fmt, bytes)
    specs = parse_percent(fmt.decode("latin-1") if isinstance(fmt, bytes) else fmt)
    _Check(ex, node, is_bytes).run(specs, right_t)


class _Check:
    def __init__(self, ex: "ExprEvaluator", node: ast.BinOp, is_bytes: bool) -> None:
        self.ex = ex
        self.node = node
        self.at: ast.AST = node.right
        self.is_bytes = is_bytes

    def error(self, msg: str, at: ast.AST | None = None) -> None:
        self.ex.error(at if at is not None else self.at, msg, "str-format")

    def run(self, specs: list[PercentSpec], right_t: Type) -> None:
        for spec in specs:
            if not self._known_type(spec):
                self.error(f'Unsupported format character "{spec.type}"')
                return
        keyed = [s for s in specs if s.key is not None]
        if keyed and len(keyed) != len(specs):
            self.error("String interpolation mixes specifier with and without mapping keys", self.node)
            return
        if keyed:
            if any("*" in (s.width, s.precision) for s in keyed):
                self.error("String interpolation contains both stars and mapping keys", self.node)
                return
            self._mapping(keyed)
            return
        self._positional(specs, right_t)

    def _known_type(self, spec: PercentSpec) -> bool:
        if spec.type == "b":
            if not self.is_bytes:
                self.error('Format character "b" is only supported on bytes patterns')
                return True  # reported: no second error for the same character
            return True
        return spec.type != "" and spec.type in _INT_LIKE + _INT_ONLY + _FLOAT_LIKE + _ANY_VALUE + "c%"

    # -- positional conversions ------------------------------------------------------

    def _positional(self, specs: list[PercentSpec], right_t: Type) -> None:
        # Each conversion with what it takes: `*` width/precision first, as Python reads them.
        wanted: list[tuple[PercentSpec, str]] = []
        for s in specs:
            if s.width == "*":
                wanted.append((s, "*"))
            if s.precision == "*":
                wanted.append((s, "*"))
            wanted.append((s, s.type))
        items = union_items(right_t)
        if isinstance(right_t, UnionType):
            for item in items:
                self._positional_one(wanted, item)
            return
        self._positional_one(wanted, right_t)

    def _positional_one(self, wanted: list[tuple[PercentSpec, str]], t: Type) -> None:
        from veritype.evaluate.expr_access import as_tuple

        t = as_tuple(t)  # a NamedTuple gives its fields
        if isinstance(t, AnyType):
            return
        if isinstance(t, TupleType) and any(isinstance(i, UnpackType) for i in t.items):
            return  # a variadic tuple (PEP 646): its length is not known
        if isinstance(t, TupleType):
            values = list(t.items)
        elif _variadic_tuple_item(t) is not None and len(wanted) > 1:
            item = _variadic_tuple_item(t)
            assert item is not None
            values = [item] * len(wanted)
        elif len(wanted) > 1 and is_iterable(self.ex, t):
            return  # its length is not known
        else:
            values = [t]
        if len(values) < len(wanted):
            self.error("Not enough arguments for format string")
            return
        if len(values) > len(wanted):
            self.error("Not all arguments converted during string formatting")
            return
        for (spec, conv), value in zip(wanted, values):
            self._value(conv, value, None)

    # -- mapping keys ---------------------------------------------------------------

    def _mapping(self, specs: list[PercentSpec]) -> None:
        right = self.node.right
        if not isinstance(right, ast.Dict):
            self._requires_mapping(self.ex.infer(right))
            return
        if any(k is None for k in right.keys):
            return  # a mapping of unknown keys: taken on trust
        keys: dict[str, ast.expr] = {}
        for k, v in zip(right.keys, right.values):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                return
            keys[k.value] = v
        for spec in specs:
            assert spec.key is not None
            if spec.key not in keys:
                self.error(f'Key "{spec.key}" not found in mapping')
                return
        for spec in specs:
            assert spec.key is not None
            value_t = self.ex.infer(keys[spec.key])
            self._value(spec.type, value_t, spec.key)

    def _requires_mapping(self, t: Type) -> None:
        """`%(key)s` takes a mapping (typeshed's SupportsKeysAndGetItem[str, Any])."""
        if any(isinstance(i, AnyType) for i in union_items(t)):
            return
        ev = self.ex.ev
        expected = ev.instance("_typeshed.SupportsKeysAndGetItem", (ev.builtin("str"), AnyType("special")))
        if not isinstance(expected, Instance) or is_subtype(ev, t, expected):
            return
        self.error(f'Format requires a mapping (expression has type "{_shown(t)}", expected type for mapping is "{format_type(expected)}")')
        from veritype.evaluate.await_hint import subtype_notes

        for note in subtype_notes(ev, t, expected):
            self.ex.note(self.at, note)

    # -- one argument against its conversion -------------------------------------------

    def _value(self, conv: str, t: Type, key: str | None) -> None:
        if isinstance(t, AnyType):
            return
        ev = self.ex.ev
        if conv == "*":
            if not is_subtype(ev, t, ev.builtin("int")):
                self.error("* wants int")
            return
        if conv in _ANY_VALUE + "b":
            if conv in "sb" and self.is_bytes and _has_str(t):
                self.error("On Python 3 b'%s' requires bytes, not string")
            elif conv == "s" and not self.is_bytes and has_bytes(t):
                # mypy reports a keyed one on the whole expression.
                self.ex.error(self.node if key is not None else self.at, BYTES_SAFE_PERCENT, "str-bytes-safe")
            return
        if conv == "c":
            self._char(t)
            return
        expected = self._expected(conv)
        if expected is None or is_subtype(ev, t, expected):
            return
        placeholder = "placeholder" if key is None else f"placeholder with key '{key}'"
        self.error(f'Incompatible types in string interpolation (expression has type "{_shown(t)}", {placeholder} has type "{format_type(expected)}")')

    def _expected(self, conv: str) -> Type | None:
        ev = self.ex.ev
        if conv in _INT_ONLY:
            return ev.builtin("int")
        protocol = ev.instance("typing.SupportsInt" if conv in _INT_LIKE else "typing.SupportsFloat")
        if not isinstance(protocol, Instance):
            return None
        return make_union([ev.builtin("int"), ev.builtin("float"), protocol])

    def _char(self, t: Type) -> None:
        ev = self.ex.ev
        char_cls = "bytes" if self.is_bytes else "str"
        wording = '"%c" requires an integer in range(256) or a single byte' if self.is_bytes else '"%c" requires int or char'
        for item in union_items(t):
            if isinstance(item, LiteralType) and isinstance(item.value, (str, bytes)) and item.fallback.info.fullname == f"builtins.{char_cls}":
                if len(item.value) != 1:
                    self.error(wording)
                    return
        if not is_subtype(ev, t, make_union([ev.builtin("int"), ev.builtin(char_cls)])):
            self.error(f"{wording} (expression has type \"{_shown(t)}\")")


def _variadic_tuple_item(t: Type) -> Type | None:
    if isinstance(t, Instance) and t.info.fullname == "builtins.tuple" and len(t.args) == 1:
        return t.args[0]
    return None


def _has_str(t: Type) -> bool:
    return any((isinstance(i, Instance) and i.info.fullname == "builtins.str") or (isinstance(i, LiteralType) and isinstance(i.value, str) and i.fallback.info.fullname == "builtins.str") for i in union_items(t))


def _shown(t: Type) -> str:
    return format_type(widen_literals(t, keep_declared=True))
