"""Callable subtyping: a function, overload or callable object against a callable type,
parameter by parameter (positional, keyword, *args/**kwargs, gradual ... forms,
ParamSpec prefixes) with TypeGuard/TypeIs returns, as the spec's 'Assignability of
callables'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, AnyType, CallableType, Instance, Overloaded, Param, Type, TypeType, UnpackType
from veritype.types.substitute import substitute, tv_key, paramspec_tail
from veritype.types.tuples import expand_star_params, unpacked_star

if TYPE_CHECKING:
    from veritype.types.subtype import SubtypeChecker


def callable_left(sc: "SubtypeChecker", left: CallableType | Overloaded, right: Type) -> bool:
    if isinstance(right, Overloaded):
        return all(sc._callable_left(left, item) for item in right.items)
    if isinstance(right, CallableType):
        if isinstance(left, Overloaded):
            return any(sc.callable_ok(item, right) for item in left.items)
        return sc.callable_ok(left, right)
    if isinstance(right, Instance):
        if right.info.fullname in ("builtins.object", "builtins.function", "typing.Callable", "collections.abc.Callable"):
            return True
        if right.info.is_protocol:
            fn = sc.ev.instance("builtins.function")
            call_member = right.info.get("__call__")
            if call_member is not None:
                proto_call = sc.ev.bound_member(right, "__call__")
                if proto_call is None or not isinstance(fn, Instance):
                    return True
                # Spec, "Callback protocols": the callable must match `__call__`, and
                # the protocol's other members must exist on the function object too.
                if not sc._check(left, proto_call):
                    return False
                for name in sc.ev.protocol_members(right.info):
                    if name == "__call__":
                        continue
                    want, have = sc.ev.bound_member(right, name), sc.ev.bound_member(fn, name)
                    if want is not None and (have is None or not sc._check(have, want)):
                        return False
                return True
            return sc._protocol(fn, right) if isinstance(fn, Instance) else True
        if isinstance(left, CallableType) and left.is_type_obj:
            return sc._check(left.ret, right) if right.info.fullname == "builtins.type" else False
        return False
    if isinstance(right, TypeType):
        return isinstance(left, CallableType) and left.is_type_obj and sc._check(left.ret, right.item)
    return True


def callable_ok(sc: "SubtypeChecker", left: CallableType, right: CallableType) -> bool:
    if left.is_ellipsis or right.is_ellipsis:
        ret = left.ret
        if left.type_vars:
            # A generic function's own variables can be anything the target needs
            # (`sorted` as a `Callable[..., list[str]]`): nothing in `...` fixes them.
            ret = substitute(ret, {tv_key(v): AnyType("special") for v in left.type_vars})
        return sc._check(ret, right.ret) and sc._guards_ok(left, right)
    if left.type_vars:
        # (Imported here: solve reaches join, whose join imports subtype, which
        # imports this module; joins run far more often than this branch.)
        from veritype.types.solve import unify_callable

        inst = unify_callable(sc.ev, left, right)
        if inst is None:
            return True  # could not solve: do not report
        left = inst
    if not sc._check(left.ret, right.ret):
        return False
    if not sc._guards_ok(left, right):
        return False
    if unpacked_star(left) or unpacked_star(right):
        # `*args: *tuple[int, str]` is two positional parameters; what stays
        # unpacked (`*args: *Ts`) is not compared (lenient).
        left, right = expand_star_params(left), expand_star_params(right)
        if unpacked_star(left) or unpacked_star(right):
            return True

    if paramspec_tail(left) is not None or paramspec_tail(right) is not None:
        # A signature still holding a ParamSpec: its parameters are not known here.
        return True
    if _gradual_star(right):
        star = next(i for i, p in enumerate(right.params) if p.kind == VAR_POS)
        kw_only = [p for p in right.params if p.kind == KW_ONLY]
        return sc._gradual_prefix_ok(left, right.params[:star]) and sc._keywords_ok(left, kw_only)
    return sc._params_ok(left, right)


def guards_ok(sc: "SubtypeChecker", left: CallableType, right: CallableType) -> bool:
    """The narrowing part of two callables' returns (spec, "Type narrowing"): a
    TypeGuard is covariant in its type; "TypeIs is invariant in its argument
    type"; one kind is not the other (mypy). A guard against a plain `bool`
    return was compared as its `bool` already."""
    if right.type_guard is not None:
        return left.type_guard is not None and sc._check(left.type_guard, right.type_guard)
    if right.type_is is not None:
        return left.type_is is not None and sc._check(left.type_is, right.type_is) and sc._check(right.type_is, left.type_is)
    return True


def keywords_ok(sc: "SubtypeChecker", left: CallableType, kw_only: list[Param]) -> bool:
    """`left` accepts each of `right`'s keyword-only parameters by name."""
    l_kw = next((p for p in left.params if p.kind == VAR_KW), None)
    for r in kw_only:
        match = next((p for p in left.params if p.name == r.name and p.kind in (POS_OR_KW, KW_ONLY)), l_kw)
        if match is None or not sc._check(r.type, match.type):
            return False
    return True


def gradual_prefix_ok(sc: "SubtypeChecker", left: CallableType, prefix: tuple[Param, ...]) -> bool:
    """`right` is `(X, Y, *args: Any, **kwargs: Any)`, which the spec ("Callables",
    "Meaning of ... in Callable") treats like `Concatenate[X, Y, ...]`: only the
    leading parameters are checked; `left` may take anything after them
    (keyword-only parameters of `right` are checked by `_keywords_ok`)."""
    lpos = [p for p in left.params if p.kind in (POS_ONLY, POS_OR_KW)]
    l_star = next((p for p in left.params if p.kind == VAR_POS), None)
    for i, rp in enumerate(prefix):
        if rp.kind not in (POS_ONLY, POS_OR_KW):
            return True
        lp = lpos[i] if i < len(lpos) else l_star
        if lp is None:
            return False
        if not sc._check(rp.type, lp.type):
            return False
    return True


def params_ok(sc: "SubtypeChecker", left: CallableType, right: CallableType) -> bool:
    """Every call valid for `right` must be valid for `left` (spec, "Callables")."""
    lp, rp = list(left.params), list(right.params)
    if right.kwargs_unpacked and not left.kwargs_unpacked and not any(p.kind == VAR_KW for p in lp):
        # Spec ("Unpack for keyword arguments", "Assignment"): "The situation where the
        # destination callable contains **kwargs: Unpack[TypedDict] and the source callable
        # doesn't contain **kwargs should be disallowed" (a subclass of the TypedDict
        # may carry more keys).
        return False
    l_star, l_kw = _stars(lp)
    r_star, r_kw = _stars(rp)
    # *args: Any, **kwargs: Any on the left accepts anything (gradual form).
    if l_star is not None and l_kw is not None and _written_any(l_star.type) and _written_any(l_kw.type):
        return True  # (`_gradual_star(left)`, its parameters found above)
    l_pos = [p for p in lp if p.kind in (POS_ONLY, POS_OR_KW)]
    r_pos = [p for p in rp if p.kind in (POS_ONLY, POS_OR_KW)]
    # Positional parameters of right, matched by position.
    for i, r in enumerate(r_pos):
        if i < len(l_pos):
            l = l_pos[i]
            if not sc._check(r.type, l.type):
                return False
            if r.kind == POS_OR_KW and l.kind == POS_ONLY and not _implicit(left) and not _implicit(right):
                return False
            if r.kind == POS_OR_KW and l.name != r.name and r.name is not None and not _implicit(left) and not _implicit(right):
                # (An untyped def's parameter names are not held against it:
                # mypy accepts `def f(v, aP)` for `(validator, value)`.)
                return False
            if r.has_default and not l.has_default:
                return False
        elif l_star is not None:
            if not sc._check(r.type, l_star.type):
                return False
            if r.kind == POS_OR_KW:
                if l_kw is None and not any(p.name == r.name for p in lp if p.kind == KW_ONLY):
                    return False
        else:
            return False
    # Extra positional parameters of left must have defaults (or be keyword-matched).
    for l in l_pos[len(r_pos):]:
        if l.has_default:
            continue
        if r_star is not None and l.kind in (POS_ONLY, POS_OR_KW):
            if not sc._check(r_star.type, l.type):
                return False
            continue
        if l.kind == POS_OR_KW and any(p.name == l.name and p.kind == KW_ONLY for p in rp):
            continue
        return False
    if r_star is not None:
        if l_star is None:
            return False
        if not sc._check(r_star.type, l_star.type):
            return False
    # Keyword-only parameters of right.
    for r in rp:
        if r.kind != KW_ONLY:
            continue
        match = next((p for p in lp if p.name == r.name and p.kind in (POS_OR_KW, KW_ONLY)), None)
        if match is None:
            if l_kw is None:
                return False
            if not sc._check(r.type, l_kw.type):
                return False
            continue
        if not sc._check(r.type, match.type):
            return False
        if r.has_default and not match.has_default:
            return False
    for l in lp:
        if l.kind == KW_ONLY and not l.has_default:
            # A keyword `right` may be called without: `**kwargs` on the right
            # does not make it passed (spec, "Assignability of callables").
            if not any(p.name == l.name and p.kind in (KW_ONLY, POS_OR_KW) for p in rp):
                return False
    if r_kw is not None:
        if l_kw is None:
            return False
        if not sc._check(r_kw.type, l_kw.type):
            return False
    return True


def _gradual_star(c: CallableType) -> bool:
    """Whether `c` takes `*args: Any` and `**kwargs: Any`: the spec ("Meaning of
    ... in Callable") reads that pair as `...`; "any other parameters in the
    signature are unaffected and are retained as part of the signature"."""
    a, k = _stars(c.params)
    return a is not None and k is not None and _written_any(a.type) and _written_any(k.type)


def _stars(params: "list[Param] | tuple[Param, ...]") -> "tuple[Param | None, Param | None]":
    """The first `*args` and the first `**kwargs` parameter of `params` (None where
    there is none), found in one loop: `next()` over a generator for each was made,
    resumed and closed by a raised GeneratorExit (Python 3.11), four times for
    each pair of callables compared."""
    star = kw = None
    for p in params:
        kind = p.kind
        if kind == VAR_POS:
            if star is None:
                star = p
        elif kind == VAR_KW and kw is None:
            kw = p
    return star, kw


def _written_any(t: Type) -> bool:
    # Not an Any that a type variable was specialized to (substitute._sub_param_type).
    return isinstance(t, AnyType) and t.reason != "specialized"


def _implicit(t: CallableType) -> bool:
    """mypy's "implicitly typed" callable, whose positional parameter names are not
    compared on either side of a subtype check (mypy's is_callable_compatible):
    an unannotated def, or a lambda (veritype names its type "lambda"; one
    inferred without context is implicit in mypy, and with a context its names
    are rarely the point)."""
    return t.is_untyped or t.name == "lambda"
