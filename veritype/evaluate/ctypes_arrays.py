"""`ctypes.Array[T]`: the members typeshed leaves as Any, typed as mypy does.

typeshed cannot express them (its `_ctypes.Array` says so): `value` is
`bytes` for an array of `c_char` and `str` for one of `c_wchar`, and exists
for no other element type; `raw` exists for `c_char` only; an item (`a[i]`)
of an array of a simple type (a direct `_SimpleCData[X]` subclass such as
`c_int`) is "unboxed" to X, while a subclass of a simple type, a structure
or a pointer stays T. mypy's default plugin types them so (mypy 2.4.1:
`Array attribute "value" is only available with element type "c_char" or
"c_wchar", not "c_int"`  [misc]); trio's `create_string_buffer(...).value
.decode()` is a `str`, not Any.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import ANY_ERROR, AnyType, Instance, Type, make_union, union_items

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

_ARRAY = "_ctypes.Array"
_SIMPLE = "_ctypes._SimpleCData"


def is_ctypes_array(t: Type) -> bool:
    return isinstance(t, Instance) and t.info.fullname == _ARRAY and len(t.args) == 1


def array_member(ev: "Evaluator", base: Instance, name: str) -> tuple[Type, str | None] | None:
    """`value` / `raw` of an array: (type, error message or None); None for
    other members (typeshed's own)."""
    if name not in ("value", "raw"):
        return None
    elements = union_items(base.args[0])
    if any(isinstance(e, AnyType) or not isinstance(e, Instance) for e in elements):
        return None
    out: list[Type] = []
    for e in elements:
        assert isinstance(e, Instance)
        if _is(e, "ctypes.c_char"):
            out.append(ev.builtin("bytes"))
        elif name == "value" and _is(e, "ctypes.c_wchar"):
            out.append(ev.builtin("str"))
        else:
            wanted = '"c_char" or "c_wchar"' if name == "value" else '"c_char"'
            # mypy's type is Never; Any here, so the rest of the block is still checked.
            return ANY_ERROR, f'Array attribute "{name}" is only available with element type {wanted}, not "{format_type(e)}"'
    return make_union(out), None


def unboxed_item(ev: "Evaluator", base: Instance) -> Type | None:
    """The type of `a[i]`: the element type, unboxed for a simple type; None
    when it is not known (Any elements)."""
    out: list[Type] = []
    for e in union_items(base.args[0]):
        if not isinstance(e, Instance):
            return None
        simple = next((b for b in e.info.bases if isinstance(b, Instance) and b.info.fullname == _SIMPLE), None)
        if simple is not None and simple.args:
            out.append(simple.args[0])
        else:
            out.append(e)
    return make_union(out)


def _is(e: Instance, fullname: str) -> bool:
    return any(c.fullname == fullname for c in e.info.mro)
