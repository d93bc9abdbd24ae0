"""Which error a failed overloaded call gets: mypy's rule, so its ignores keep working.

When no overload item accepts the arguments, mypy (checkexpr, "Step 4/5" of
check_overload_call) looks among the items whose arity fits for one the
arguments resemble "after erasing types" (`erased_signature_similarity`, with
the deliberately loose `arg_approximate_similarity`). If there is one, the
call is checked against the first such item and its argument errors are
reported (`arg-type`: `d.get(key_or_str, (0, None))` on a `dict[Key, ...]`);
otherwise the call gets `No overload variant ... matches` (`call-overload`, or
`operator` for an operator method). veritype picks the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import (
    AnyType, CallableType, Instance, LiteralType, Overloaded, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType,
    make_union,
)
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.calls import Arg, CallSite
    from veritype.evaluate.evaluator import Evaluator


def resembling_item(site: "CallSite", items: list[CallableType], args: "list[Arg]", arg_types: list[Type]) -> CallableType | None:
    """The first of `items` (each fitting the call's arity) that the arguments resemble."""
    from veritype.evaluate.calls import ARG_KW, ARG_POS, match_arguments
    from veritype.types.param_shape import checks_arguments_together
    from veritype.types.substitute import paramspec_tail

    for item in items:
        if paramspec_tail(item) is not None:
            # An item taking `*args: P.args, **kwargs: P.kwargs` never resembles a
            # call it rejects: mypy 2.4.1 reports `No overload variant` for every
            # such call (pytest's `raises(TypeError, int, match="invalid")`,
            # `raises(TypeError, f)` missing f's argument).
            continue
        matching = match_arguments(site, item, args, arg_types)
        if matching.errors:
            continue
        ok = True
        for pi, p in enumerate(item.params):
            if checks_arguments_together(p):
                continue
            for ai in matching.slots[pi]:
                # A `*x`/`**x` argument's items are not looked into (resembling, loosely).
                if args[ai].kind in (ARG_POS, ARG_KW) and not similar(site.ev, arg_types[ai], p.type):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return item
    return None


def similar(ev: "Evaluator", actual: Type, formal: Type) -> bool:
    """Whether `actual` roughly has the shape of `formal` (mypy's arg_approximate_similarity)."""
    if isinstance(actual, TypeVarType):
        actual = _erase_var(ev, actual)
    if isinstance(formal, TypeVarType):
        formal = _erase_var(ev, formal)
    if isinstance(formal, CallableType) and isinstance(actual, (CallableType, Overloaded, TypeType)):
        return True
    if _typetype_like(actual) and _typetype_like(formal):
        return True
    if isinstance(actual, UnionType):
        return any(similar(ev, item, formal) for item in actual.items)
    if isinstance(formal, UnionType):
        return any(similar(ev, actual, item) for item in formal.items)
    if isinstance(actual, TypedDictType):
        return isinstance(formal, TypedDictType) or similar(ev, actual.fallback, formal)
    if isinstance(formal, Instance):
        if isinstance(actual, TupleType):
            actual = actual.fallback
        if isinstance(actual, Instance) and formal.info in actual.info.mro:
            return True
    return is_subtype(ev, _erase(ev, actual), _erase(ev, formal))


def _erase_var(ev: "Evaluator", t: TypeVarType) -> Type:
    if t.values:
        return make_union(list(t.values))
    return t.upper_bound if t.upper_bound is not None else ev.builtin("object")


def _typetype_like(t: Type) -> bool:
    return (
        isinstance(t, TypeType)
        or (isinstance(t, CallableType) and t.is_type_obj)
        or (isinstance(t, Instance) and t.info.fullname == "builtins.type")
    )


def _erase(ev: "Evaluator", t: Type) -> Type:
    """mypy's erase_type: type arguments become Any, a fixed tuple its plain tuple."""
    if isinstance(t, Instance) and t.args:
        return Instance(t.info, tuple(AnyType("special") for _ in t.args))
    if isinstance(t, TupleType):
        return ev.builtin("tuple", AnyType("special"))
    if isinstance(t, TypeVarType):
        return AnyType("special")
    if isinstance(t, UnionType):
        return make_union([_erase(ev, i) for i in t.items])
    if isinstance(t, LiteralType):
        return t
    return t
