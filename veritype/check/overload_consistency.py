"""Overloads checked against each other and against their implementation.

- Implementation consistency (spec, "Overloads", "Implementation
  consistency"): "the input signature of the implementation should be
  assignable to the input signatures of all overloads, and the return type of
  all overloads should be assignable to the return type of the
  implementation". Messages and codes are mypy's (`misc`). As mypy does, a
  return type is accepted when it is assignable in either direction, so an
  implementation declared `-> object` or `-> bool` for `-> int` overloads is
  silent.
- Overlapping overloads. The spec no longer says anything about them; we
  follow mypy (DESIGN.md principle 7): `overload-cannot-match` when an
  earlier overload accepts every call a later one accepts, and
  `overload-overlap` when an earlier overload's parameters are all subtypes
  of a later one's while its return type is unrelated to the later one's.

Everything here is conservative: false positives are the worst bug. Any
TypeVar, ParamSpec, Any, callable parameter, or decorator we do not know
makes a pair (or the whole definition) silent, but for an earlier overload
taking Any itself for a parameter, which never lets a later one match
whose every call it accepts (mypy too). mypy also reports partially
overlapping parameter types (`int | str` against `str | bytes`); we do not.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.overload_any_first import any_first_cannot_match
from veritype.check.overload_generic_returns import plain_return_check
from veritype.check.overload_params import by_keyword, of_kind, positional_pairs
from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, STATIC, TRANSPARENT, decorator_names, function_type
from veritype.types.model import (
    KW_ONLY, VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, NeverType,
    NoneType, TupleType, Type, TypeType, UnionType,
)
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.evaluator import Evaluator

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef

_KNOWN = (*OVERLOAD, *STATIC, *CLASSMETHOD, *TRANSPARENT)
# Promotions (int -> float ...) make a parameter type accepted, not a subset
# of the values: mypy does not count them as overlap.
_PROMOTED_TO = ("builtins.float", "builtins.complex", "builtins.bytes")


def check_overload_signatures(checker: "ModuleChecker", overloads: list[FuncDef], impl: FuncDef | None, kind: str) -> None:
    """Run both checks. `kind` is the method kind shared by every definition."""
    ev = checker.ev
    scope = checker.scope
    if any(n not in _KNOWN for d in overloads for n in decorator_names(ev, d, scope)):
        return  # a decorator changes the type: we do not apply it here
    if impl is not None and any(n not in _KNOWN for n in decorator_names(ev, impl, scope)):
        impl = None  # (only the implementation's type is changed: the overloads are compared, as mypy does)
    sigs = [function_type(ev, d, scope) for d in overloads]
    try:
        if impl is not None:
            impl_sig = function_type(ev, impl, scope)
            if not impl_sig.is_untyped:
                drop = _bare_self(impl, kind)
                _check_implementation(checker, [_unbound(s, drop) for s in sigs], _unbound(impl_sig, drop), impl)
        if overloads[0].name != "__get__":  # descriptors: mypy does not check them either
            drop = all(_bare_self(d, kind) for d in overloads)
            _check_overlaps(checker, [_unbound(s, drop) for s in sigs], overloads)
    except RecursionError:
        pass


def _bare_self(node: FuncDef, kind: str) -> bool:
    args = [*node.args.posonlyargs, *node.args.args]
    return kind in ("instance", "class") and bool(args) and args[0].annotation is None and not node.type_comment


def _unbound(sig: CallableType, drop: bool) -> CallableType:
    """Without self/cls where it is unannotated: any instance of the class is accepted."""
    return sig.with_params(sig.params[1:]) if drop and sig.params and sig.params[0].kind != VAR_POS else sig


# -- implementation consistency ---------------------------------------------------------


def _check_implementation(checker: "ModuleChecker", sigs: list[CallableType], impl: CallableType, impl_node: FuncDef) -> None:
    ev = checker.ev
    at = impl_node.decorator_list[0] if impl_node.decorator_list else impl_node
    for i, sig in enumerate(sigs, 1):
        generic = _has_type_vars(sig) or _has_type_vars(impl)
        if sig.is_ellipsis or impl.is_ellipsis:
            continue
        if not ev.subtype_checker()._params_ok(impl, sig):
            if not generic:
                checker.error(at, f"Overloaded function implementation does not accept all possible parameters of signature {i}", "misc")
        elif not (is_subtype(ev, sig.ret, impl.ret) or is_subtype(ev, impl.ret, sig.ret)):
            if not generic or plain_return_check(sig, impl):
                checker.error(at, f"Overloaded function implementation cannot produce return type of signature {i}", "misc")


# -- overlaps ---------------------------------------------------------------------------


def _check_overlaps(checker: "ModuleChecker", sigs: list[CallableType], nodes: list[FuncDef]) -> None:
    ev = checker.ev
    sure = [_certain(ev, s) for s in sigs]
    for i, first in enumerate(sigs):
        if not sure[i]:
            handled = _certain_but_any(first)
            if handled:
                _check_any_cannot_match(checker, sigs, nodes, i, sure)
            for j in range(i + 1, len(sigs)):
                if not (handled and sure[j]) and any_first_cannot_match(ev, first, sigs[j], _simple, _accepts_all):
                    checker.error(
                        nodes[j],
                        f"Overloaded function signature {j + 1} will never be matched: "
                        f"signature {i + 1}'s parameter type(s) are the same or broader",
                        "overload-cannot-match",
                    )
            _check_generic_overlaps(checker, sigs, nodes, i, sure)
            continue
        for j in range(i + 1, len(sigs)):
            second = sigs[j]
            if not sure[j]:
                continue
            if _accepts_all(ev, first, second):
                checker.error(
                    nodes[j],
                    f"Overloaded function signature {j + 1} will never be matched: "
                    f"signature {i + 1}'s parameter type(s) are the same or broader",
                    "overload-cannot-match",
                )
            elif _accepts_all(ev, second, first, promotions=False) and not _ret_compatible(ev, first.ret, second.ret):
                checker.error(nodes[i], f"Overloaded function signatures {i + 1} and {j + 1} overlap with incompatible return types", "overload-overlap")


def _check_generic_overlaps(checker: "ModuleChecker", sigs: list[CallableType], nodes: list[FuncDef], i: int, sure: list[bool]) -> None:
    """A generic overload before plain ones (pytest's `(arg: Markable) -> Markable`
    before `(*args: object, **kwargs: object) -> MarkDecorator`): its variables
    may be their bounds, so it overlaps a later overload unsafely when, with the
    bounds in, the later one takes every call it takes and the returns are
    unrelated (mypy reports that too). Only where that is sure: a later
    overload we are sure about, parameters simple or taken by `object`."""
    ev = checker.ev
    first = _at_bounds(sigs[i])
    if first is None:
        return
    for j in range(i + 1, len(sigs)):
        second = sigs[j]
        if not sure[j] or not isinstance(second.ret, Instance) or second.ret.info.is_protocol:
            continue
        if second.ret.info.fullname in ("builtins.object", "builtins.function"):
            continue
        if not _sure_against(ev, first, second):
            continue
        if _accepts_all(ev, second, first, promotions=False) and not _ret_compatible(ev, first.ret, second.ret):
            checker.error(nodes[i], f"Overloaded function signatures {i + 1} and {j + 1} overlap with incompatible return types", "overload-overlap")
            return


def _check_any_cannot_match(checker: "ModuleChecker", sigs: list[CallableType], nodes: list[FuncDef], i: int, sure: list[bool]) -> None:
    """An overload taking Any for a parameter (`_certain_but_any`) accepts every
    argument there: a later overload we are sure about whose every call it
    accepts is never matched (mypy 2.4.1 checks that with Any on the earlier
    side only: `(x: str)` before `(x: Any)` is no error, nor is `list[Any]`
    before `list[int]`). Only that report: Any takes every argument, so the
    overlap check, which asks the reverse, is not decided here."""
    ev = checker.ev
    for j in range(i + 1, len(sigs)):
        if sure[j] and _accepts_all(ev, sigs[i], sigs[j]):
            checker.error(
                nodes[j],
                f"Overloaded function signature {j + 1} will never be matched: "
                f"signature {i + 1}'s parameter type(s) are the same or broader",
                "overload-cannot-match",
            )


def _at_bounds(sig: CallableType) -> CallableType | None:
    """`sig` with each type variable replaced by its upper bound (object when
    unbounded); None for other kinds of variables or constrained ones."""
    import dataclasses

    from veritype.types.substitute import substitute, tv_key

    if not sig.type_vars or any(v.kind not in ("typevar", "self") or v.values for v in sig.type_vars):
        return None
    mapping = {tv_key(v): v.upper_bound if v.upper_bound is not None else _OBJECT for v in sig.type_vars if v.kind == "typevar"}
    if any(t is _OBJECT for t in mapping.values()):
        return None  # unbounded: `object` needs the evaluator; not decided here
    out = substitute(dataclasses.replace(sig, type_vars=()), mapping)
    if not isinstance(out, CallableType) or _has_type_vars(out) or out.is_ellipsis:
        return None
    return out


_OBJECT = NeverType()  # a marker for "no bound"


def _sure_against(ev: "Evaluator", narrow: CallableType, wide: CallableType) -> bool:
    """Each of `narrow`'s parameter types is simple, or `wide` takes it as
    `object` (any type fits that); its return is a union of simple types and
    callables (a callable is surely no instance of a class that is no protocol)."""
    pairs = positional_pairs(wide, narrow)
    if len(pairs) != len(narrow.params):
        return False
    for n, w in pairs:
        if _simple(n.type):
            continue
        if w is None or not (isinstance(w.type, Instance) and w.type.info.fullname == "builtins.object"):
            return False
    rets = narrow.ret.items if isinstance(narrow.ret, UnionType) else (narrow.ret,)
    return all(_simple(r, ret=True) or isinstance(r, CallableType) for r in rets)


def _accepts_all(ev: "Evaluator", wide: CallableType, narrow: CallableType, promotions: bool = True) -> bool:
    """Every call `narrow` accepts, `wide` accepts too (return types ignored).

    With `promotions=False` (the overlap test): no pair may rely on a promotion,
    and at least one of `narrow`'s parameter types must be strictly narrower.
    """
    if not ev.subtype_checker()._params_ok(wide, narrow):
        return False
    if promotions:
        return True
    # The same walk, without promotions: pair the parameters as _params_ok does
    # (a keyword-only parameter with one of its name only, not with `**kwargs`).
    pairs: list[tuple[Type, Type]] = [(n.type, w.type) for n, w in positional_pairs(wide, narrow) if w is not None]
    for n in narrow.params:
        if n.kind == KW_ONLY:
            w = by_keyword(wide, n.name)
            if w is not None:
                pairs.append((n.type, w.type))
    nstar = of_kind(narrow, VAR_POS)
    wstar = of_kind(wide, VAR_POS)
    if nstar is not None and wstar is not None:
        pairs.append((nstar.type, wstar.type))
    if any(_promotes(ev, a, b) for a, b in pairs):
        return False
    # With every paired type the same, a call both accept is always resolved to
    # the first overload, statically and at run time: that is safe (mypy too).
    return any(not is_subtype(ev, b, a) for a, b in pairs)


def _promotes(ev: "Evaluator", a: Type, b: Type) -> bool:
    """`a` is accepted for `b` only through a promotion (int for float)."""
    if isinstance(a, UnionType):
        return any(_promotes(ev, x, b) for x in a.items)
    if isinstance(a, LiteralType):
        a = a.fallback
    if not isinstance(a, Instance):
        return False
    targets = b.items if isinstance(b, UnionType) else (b,)
    if any(_nominal(a, t) for t in targets):
        return False
    return any(isinstance(t, Instance) and t.info.fullname in _PROMOTED_TO for t in targets)


def _nominal(a: Instance, b: Type) -> bool:
    return isinstance(b, Instance) and b.info in a.info.mro


def _ret_compatible(ev: "Evaluator", r1: Type, r2: Type) -> bool:
    """r1's values are r2's values (mypy's is_subset): generics compared covariantly."""
    if is_subtype(ev, r1, r2):
        return True
    if isinstance(r1, UnionType):
        return all(_ret_compatible(ev, x, r2) for x in r1.items)
    if isinstance(r2, UnionType):
        return any(_ret_compatible(ev, r1, x) for x in r2.items)
    if isinstance(r1, Instance) and isinstance(r2, Instance):
        mapped = map_instance_to_supertype(r1, r2.info)
        if mapped is None or len(mapped.args) != len(r2.args):
            return False
        return all(_ret_compatible(ev, a, b) for a, b in zip(mapped.args, r2.args))
    if isinstance(r1, TupleType) and isinstance(r2, TupleType) and len(r1.items) == len(r2.items):
        return all(_ret_compatible(ev, a, b) for a, b in zip(r1.items, r2.items))
    return False


# -- what we are sure about -------------------------------------------------------------


def _certain(ev: "Evaluator", sig: CallableType) -> bool:
    """Whether our subtype checks on this signature are exact, not lenient."""
    if sig.is_ellipsis or sig.type_vars or sig.type_guard is not None or sig.type_is is not None:
        return False
    if any(p.kind == VAR_KW and not _simple(p.type) for p in sig.params):
        return False
    return all(_simple(p.type) for p in sig.params) and _simple(sig.ret, ret=True)


def _certain_but_any(sig: CallableType) -> bool:
    """`_certain` but for parameters typed Any itself (not within another type),
    whatever the return: the earlier side of `_check_any_cannot_match`."""
    if sig.is_ellipsis or sig.type_vars or sig.type_guard is not None or sig.type_is is not None:
        return False
    return all(type(p.type) is AnyType or _simple(p.type) for p in sig.params) and any(type(p.type) is AnyType for p in sig.params)


def _simple(t: Type, ret: bool = False) -> bool:
    if isinstance(t, (NoneType, LiteralType)):
        return True
    if isinstance(t, NeverType):
        return ret
    if isinstance(t, Instance):
        if any(c.has_any_base for c in t.info.mro):
            return False  # an unknown base: compatible with anything
        return all(_simple(a) for a in t.args)
    if isinstance(t, UnionType):
        return all(_simple(i, ret) for i in t.items)
    if isinstance(t, TupleType):
        return all(_simple(i) for i in t.items) and _simple(t.fallback)
    if isinstance(t, TypeType):
        return isinstance(t.item, Instance) and _simple(t.item)
    return False  # Any, TypeVars, ParamSpecs, callables, TypedDicts ...


def _has_type_vars(sig: CallableType) -> bool:
    from veritype.types.substitute import type_vars_in

    if sig.type_vars:
        return True
    return bool(any(type_vars_in(p.type) for p in sig.params) or type_vars_in(sig.ret))
