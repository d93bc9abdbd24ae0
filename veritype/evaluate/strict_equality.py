"""`strict_equality` (mypy's `--strict-equality`, part of --strict).

mypy: "Prohibit equality checks, identity checks, and container checks between
non-overlapping types", reported as `Non-overlapping equality check (left
operand type: "int", right operand type: "str")  [comparison-overlap]` (and
"identity check" for `is`, "container check (element type: ..., container
item type: ...)" for `in`). As in mypy, a side that is `None` is left alone,
and so is `==` when either side has its own `__eq__` (one not from builtins).

Reported only where veritype is sure the types cannot overlap: each side a
class instance, a literal or None (or a union of those), compared class by
class through the MRO, with mypy's numeric promotions (int -> float ->
complex; bytearray, memoryview -> bytes). Anything else (Any, type variables,
protocols, callables, classes with an Any base) counts as overlapping: a
missed error, never a false one. Tuples are compared item by item; a module
is a `types.ModuleType` (shown `Module`, unquoted, as mypy); a class object
(`type[C]`) overlaps an instance only of `object` or of a metaclass, and is
compared by `==` unless its metaclass has its own `__eq__`. A container check
looks at any class deriving from `Container` (mypy's
`analyze_container_item_type`) whose `__contains__` takes the element.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import AnyType, Instance, LiteralType, ModuleType, NoneType, TupleType, Type, TypeType, union_items
from veritype.types.subtype import map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

_PROMOTIONS = {
    ("builtins.int", "builtins.float"),
    ("builtins.int", "builtins.complex"),
    ("builtins.float", "builtins.complex"),
}
# Only with --no-strict-bytes (mypy 2.x's default is strict bytes: a bytearray
# is no bytes, and `bytearray(b"x") == b"x"` is a non-overlapping check).
_BYTES_PROMOTIONS = {
    ("builtins.bytearray", "builtins.bytes"),
    ("builtins.memoryview", "builtins.bytes"),
}
_CONTAINERS = frozenset({"builtins.list", "builtins.set", "builtins.frozenset", "builtins.dict"})
# mypy compares these set-like builtins by their items (its overlapping-types
# allow-list): a frozenset may equal a set. veritype counts them as overlapping.
_SET_LIKE = ("builtins.set", "builtins.frozenset", "_collections_abc.dict_keys", "_collections_abc.dict_items")
_PROMOTIONS |= {(a, b) for a in _SET_LIKE for b in _SET_LIKE if a != b}


def comparison_overlap_message(op: ast.cmpop, left: Type, right: Type, strict_bytes: bool = True, ev: "Evaluator | None" = None) -> str | None:
    """The error for `left op right`, or None when the types may overlap."""
    promotions = _PROMOTIONS if strict_bytes else _PROMOTIONS | _BYTES_PROMOTIONS
    shown_left, shown_right = _shown(left), _shown(right)
    left, right = _module_instance(left, ev), _module_instance(right, ev)
    if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
        if _bytes_pair(left, right):
            return None
        if not _disjoint(left, right, promotions, check_eq=isinstance(op, (ast.Eq, ast.NotEq))):
            return None
        kind = "equality" if isinstance(op, (ast.Eq, ast.NotEq)) else "identity"
        return f'Non-overlapping {kind} check (left operand type: {shown_left}, right operand type: {shown_right})'
    if isinstance(op, (ast.In, ast.NotIn)):
        item = _container_item(right, left, ev)
        if item is None or (_has_bytes_component(left) and _has_bytes_component(right)):
            # (`b"a" in b"abc"`, `b"a" in bytearray(...)`: mypy's bytes exemption)
            return None
        if _bytes_pair(left, item):
            return None
        if not _disjoint(left, item, promotions, check_eq=False):
            return None
        # mypy shows the element without its literal value (`prefer_literal=False`).
        element = left if _mentions_literal(item) else widen_literals(left)
        return f'Non-overlapping container check (element type: "{format_type(element)}", container item type: "{format_type(item)}")'
    return None


def _has_bytes_component(t: Type) -> bool:
    """bytes or bytearray, or a union holding one (mypy's has_bytes_component)."""
    return any(_info(i) is not None and _info(i).fullname in ("builtins.bytes", "builtins.bytearray")  # type: ignore[union-attr]
               for i in union_items(t) if isinstance(i, (Instance, LiteralType)))


def _shown(t: Type) -> str:
    if isinstance(t, TupleType):
        # A tuple display's items show their classes, as mypy's (`tuple[int, int]`).
        t = TupleType(tuple(i.fallback if isinstance(i, LiteralType) and not i.declared else i for i in t.items), t.fallback)
    return "Module" if isinstance(t, ModuleType) else f'"{format_type(t)}"'


def _module_instance(t: Type, ev: "Evaluator | None") -> Type:
    """A module compares as a `types.ModuleType` instance (mypy's module type)."""
    if isinstance(t, ModuleType) and ev is not None:
        m = ev.instance("types.ModuleType")
        if isinstance(m, Instance):
            return m
    return t


def _mentions_literal(t: Type) -> bool:
    return any(isinstance(i, LiteralType) for i in union_items(t))


def _container_item(right: Type, element: Type, ev: "Evaluator | None") -> Type | None:
    """The item type of a container `right` for `element in right`: the builtins
    list/set/frozenset/dict, or (with an evaluator) any class deriving from
    `typing.Container` whose `__contains__` takes `element` (otherwise mypy
    reports the call, not the overlap)."""
    if not isinstance(right, Instance):
        return None
    if right.info.fullname in _CONTAINERS:
        return right.args[0] if right.args else None
    if ev is None:
        return None
    if any(c.has_any_base for c in right.info.mro):
        return None
    # Through `Collection` first: newer typeshed derives it from `Container[Any]`
    # (mypy 2.4.1's bundled one from `Container[_T_co]`, whose item it reads).
    mapped = None
    for name in ("typing.Collection", "typing.Container"):
        base = next((c for c in right.info.mro if c.fullname == name), None)
        mapped = map_instance_to_supertype(right, base) if base is not None else None
        if mapped is not None and mapped.args and not isinstance(mapped.args[0], AnyType):
            break
    if mapped is None or not mapped.args or isinstance(mapped.args[0], AnyType):
        return None
    from veritype.types.model import CallableType
    from veritype.types.subtype import is_subtype

    contains = ev.bound_member(right, "__contains__")
    if not isinstance(contains, CallableType) or not contains.params or not is_subtype(ev, element, contains.params[0].type):
        return None
    return mapped.args[0]


_BYTES_LIKE = ("builtins.bytes", "builtins.bytearray", "builtins.memoryview")


def _bytes_pair(left: Type, right: Type) -> bool:
    """mypy's exemptions, on the operands themselves (not inside a union): two
    bytes-like instances, or a bytes literal and a bytearray, may be equal."""
    for a, b in ((left, right), (right, left)):
        if isinstance(a, Instance) and isinstance(b, Instance):
            if a.info.fullname in _BYTES_LIKE and b.info.fullname in _BYTES_LIKE:
                return True
        if isinstance(a, LiteralType) and isinstance(b, Instance) and a.fallback.info.fullname == "builtins.bytes":
            if any(c.fullname == "builtins.bytearray" for c in b.info.mro):
                return True
    return False


def _disjoint(left: Type, right: Type, promotions: set[tuple[str, str]], check_eq: bool) -> bool:
    if isinstance(left, NoneType) or isinstance(right, NoneType):
        return False  # `x == None`, `x is None`: mypy's --strict-equality-for-none only
    lefts, rights = union_items(left), union_items(right)
    if not all(_plain(t) for t in lefts + rights):
        return False
    if check_eq and any(_custom_eq(t) for t in lefts + rights):
        return False  # (a class object's `__eq__` is its metaclass's: see _custom_eq)
    direct = len(lefts) == 1 and len(rights) == 1
    return not any(_overlap(a, b, promotions, direct) for a in lefts for b in rights)


def _plain(t: Type) -> bool:
    if isinstance(t, NoneType):
        return True
    if isinstance(t, TupleType):
        return t.fallback.info.fullname == "builtins.tuple" and all(_plain(i) for i in t.items)
    if isinstance(t, TypeType):
        return isinstance(t.item, Instance) and _plain(t.item)
    info = _info(t)
    return info is not None and not info.is_protocol and not any(c.has_any_base for c in info.mro)


def _info(t: Type) -> "ClassInfo | None":
    if isinstance(t, (LiteralType, TupleType)):
        return t.fallback.info
    if isinstance(t, Instance):
        return t.info
    return None


def _custom_eq(t: Type) -> bool:
    if isinstance(t, TypeType):
        # A class object's `==` is its metaclass's: `type` has none of its own.
        if not isinstance(t.item, Instance):
            return True
        meta = t.item.info.ev.metaclass_instance(t.item.info)
        return meta is None or _custom_eq(meta)
    if isinstance(t, TupleType):
        return any(_custom_eq(i) for i in t.items)
    info = _info(t)
    if info is None:
        return False
    for cls in info.mro:
        if cls.symbols.get("__eq__") is not None:
            return not cls.fullname.startswith("builtins.")
    return False


def _overlap(a: Type, b: Type, promotions: set[tuple[str, str]], direct: bool = False) -> bool:
    if isinstance(a, NoneType) or isinstance(b, NoneType):
        return isinstance(a, NoneType) and isinstance(b, NoneType)
    if isinstance(a, LiteralType) and isinstance(b, LiteralType):
        if a.is_enum or b.is_enum:
            return a.is_enum and b.is_enum and a.fallback.info is b.fallback.info and a.value == b.value
        return bool(a.value == b.value)
    if isinstance(a, TypeType) and isinstance(b, TypeType):
        # `type[A] is type[B]`: class objects overlap as their classes do (mypy).
        return _overlap(a.item, b.item, promotions)
    if isinstance(a, TypeType) or isinstance(b, TypeType):
        # A class object and an instance: only an `object` or a metaclass instance
        # may be a class object (mypy's `_type_object_overlap`).
        other = b if isinstance(a, TypeType) else a
        if isinstance(other, TupleType):
            return False
        info = _info(other)
        return info is None or info.fullname == "builtins.object" or any(c.fullname == "builtins.type" for c in info.mro)
    if isinstance(a, TupleType) and isinstance(b, TupleType):
        # Tuples of known length: the same length, and each pair of items overlaps.
        return len(a.items) == len(b.items) and all(_overlap(x, y, promotions) for x, y in zip(a.items, b.items))
    if isinstance(a, TupleType):
        return not isinstance(b, LiteralType) and _overlap(a.fallback, b, promotions)
    if isinstance(b, TupleType):
        return not isinstance(a, LiteralType) and _overlap(a, b.fallback, promotions)
    ia, ib = _info(a), _info(b)
    if ia is None or ib is None:
        return True
    if ia in ib.mro or ib in ia.mro:
        return _args_overlap(a, b, promotions, direct)
    return (ia.fullname, ib.fullname) in promotions or (ib.fullname, ia.fullname) in promotions


def is_plain_class(t: Type) -> bool:
    """A class instance or literal whose class is no protocol and has no Any base."""
    return not isinstance(t, NoneType) and _plain(t)


def has_own_eq(t: Type) -> bool:
    """An `__eq__` not from builtins up the class's MRO (mypy's custom `__eq__`)."""
    return _custom_eq(t)


def may_be_equal(a: Type, b: Type) -> bool:
    """Whether a value of `a` may equal one of `b` (mypy's overlap for narrowing
    by `==`): anything not plain, an own `__eq__`, the bytes-like family and the
    numeric promotions all may."""
    if not _plain(a) or not _plain(b) or _custom_eq(a) or _custom_eq(b) or _bytes_pair(a, b):
        return True
    return _overlap(a, b, _PROMOTIONS | _BYTES_PROMOTIONS)


def _args_overlap(a: Type, b: Type, promotions: set[tuple[str, str]], direct: bool) -> bool:
    """mypy's is_overlapping_types for related classes: they overlap when each
    pair of type arguments (seen as the same class) does: `list[int]` and
    `list[str]` do not. An argument that is None, has its own `__eq__` or is
    anything but a plain class counts as overlapping. `direct`: neither operand
    is a union, where mypy compares the items as operands (two bytes-like ones
    may be equal: `list[bytes] == list[bytearray]` is no error, but `list[bytes]
    | None == list[bytearray]` is)."""
    if not (isinstance(a, Instance) and isinstance(b, Instance) and a.args and b.args):
        return True
    if b.info in a.info.mro:
        mapped = map_instance_to_supertype(a, b.info)
        a = mapped if mapped is not None else a
    else:
        mapped = map_instance_to_supertype(b, a.info)
        b = mapped if mapped is not None else b
    if a.info is not b.info or len(a.args) != len(b.args):
        return True
    for x, y in zip(a.args, b.args):
        xs, ys = union_items(widen_literals(x)), union_items(widen_literals(y))
        if not all(_plain(t) and not isinstance(t, NoneType) and not _custom_eq(t) for t in xs + ys):
            continue
        single = direct and len(xs) == 1 and len(ys) == 1
        if single and _bytes_pair(xs[0], ys[0]):
            continue
        if not any(_overlap(p, q, promotions, single) for p in xs for q in ys):
            return False
    return True
