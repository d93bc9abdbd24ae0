"""The type a declared name or attribute takes from a value assigned to it (mypy's
binder): narrowed to the value's class, kept where the value is Any or holds Any
where the declaration fits, a declared Literal kept and an inferred one widened.
"""

from __future__ import annotations

from veritype.check.assign_context import any_where_declared_any
from veritype.types.join import widen_literals
from veritype.types.model import AnyType, CallableType, Instance, LiteralType, NoneType, Overloaded, TupleType, Type, TypeType, UnionType, flatten_union, holds_any, make_union, union_items
from veritype.types.subtype import is_subtype


def narrow_on_assign(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    if isinstance(declared, CallableType) and declared.type_vars and isinstance(value, CallableType) and not value.type_vars:
        # A generic callable declared (`x: Callable[[T], T] = lambda a: a`): the
        # lambda's own signature would only hold the variables unsolved.
        return declared
    if isinstance(value, AnyType):
        # mypy's rule (binder.assign_type): an Any value does not narrow a declared
        # type, so `x: bytes = d["k"]` stays bytes; except that an Optional's None
        # becomes Any (a fallback replacing None), and a union with an Any item or
        # a declared Any takes the Any.
        if isinstance(declared, UnionType):
            items = flatten_union(declared.items)
            if any(isinstance(i, NoneType) for i in items):
                return make_union([value if isinstance(i, NoneType) else i for i in items])
            if any(isinstance(i, AnyType) for i in items):
                return value
        return declared
    if isinstance(declared, AnyType):
        return declared
    if isinstance(declared, UnionType):
        kept = [i for i in union_items(value)]
        for i in kept:  # (a loop, not `all()` over a generator: asked for each assignment to a union)
            if not is_subtype(ev, i, declared):
                break
        else:
            # Literal values keep their literal type only when declared as such.
            declares_literal = False
            for d in declared.items:
                if isinstance(d, LiteralType):
                    declares_literal = True
                    break
            out = []
            for i in kept:
                if isinstance(i, LiteralType) and not declares_literal:
                    out.append(widen_literals(i))
                else:
                    out.append(i)
            return make_union(out)
    if isinstance(declared, Instance) and isinstance(value, (TupleType,)) and declared.info.fullname == "builtins.tuple":
        return value
    return declared


def keep_declared_over_any(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    """mypy: a value holding Any that the declared type (or one of its union
    items) fits into keeps that declared type: `x: list[int]` then `x =
    list_of_any()` is still `list[int]` (and trio's `coro = wrapper(coro)`, a
    `Coroutine[Any, Any, T]`, keeps the declared coroutine type); a value of
    another class (`list[Any]` into `Sequence[int]`) narrows as usual."""

    out: list[Type] = []
    for v in union_items(value):
        if isinstance(v, (Instance, TupleType)) and holds_any(v):
            fit = [d for d in union_items(declared) if isinstance(d, (Instance, TupleType)) and is_subtype(ev, d, v)]
            if len(fit) == 1:
                out.append(fit[0])
                continue
        out.append(v)
    return make_union(out)


def narrow_on_reassign(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    """A later assignment to a declared name (or annotated parameter) narrows it to the
    value's class, as mypy does: `v: Sequence[int]` then `v = tuple(v)` is a tuple."""
    return keep_declared_over_any(ev, declared, _narrow_to_class(ev, declared, value))


def _narrow_to_class(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    narrowed = narrow_on_assign(ev, declared, value)
    if narrowed is declared and isinstance(declared, (CallableType, Overloaded)) and not (isinstance(declared, CallableType) and declared.type_vars):
        # A callable declaration narrows to the value that fits it, as mypy's binder:
        # `hook` declared `def (Any) -> dict` takes a `SimpleStructureHook` protocol
        # instance in a later loop and is passed on as that (cattrs).
        v = value
        if isinstance(v, (Instance, CallableType)) and v != declared and not (isinstance(v, CallableType) and v.type_vars) and is_subtype(ev, v, declared):
            return v
        return narrowed
    if narrowed is declared and isinstance(declared, TypeType) and isinstance(value, TypeType) and isinstance(value.item, Instance):
        # A class object narrows a `type[...]` as an instance narrows its class
        # (mypy): `seq_type = list` after `seq_type = type(seq)` is the list class.
        return value if value != declared and is_subtype(ev, value, declared) else narrowed
    if narrowed is not declared or not isinstance(declared, Instance):
        return narrowed
    # A protocol narrows too (mypy): `conn = cast(HTTPSConnection, conn)` where
    # `conn` is a `BaseHTTPConnection` protocol reads `conn.sock` after.
    v = widen_literals(value)
    if isinstance(v, (Instance, TupleType)) and v != declared and is_subtype(ev, v, declared):
        return any_where_declared_any(v, declared) if isinstance(v, Instance) else v
    if isinstance(v, UnionType) and all(isinstance(i, (Instance, TupleType)) for i in v.items) and is_subtype(ev, v, declared):
        # `event = cast(Union[Request, Response], event)` with `event: Event` (h11).
        return v
    return narrowed
