"""Solving type variables: constraints from (parameter, argument) pairs, then solutions.

`infer_constraints(template, actual, direction)` walks the two types side by
side and records, for each type variable in the template, that the actual
type is a lower bound (the argument flows into it) or an upper bound.
`solve` joins lower bounds (widening literals, as mypy and pyright do) and
meets upper bounds; a variable with no constraints stays unsolved (Any).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.types.model import TypeFormType
from veritype.types.model import (
    KW_ONLY, POS_ONLY, POS_OR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType,
    NeverType, NoneType, Overloaded, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType,
    UnpackType, make_union,
)
from veritype.types.join import widen_literals, join_all, meet
from veritype.types.substitute import TVKey, erase_to_any, paramspec_tail, substitute, tv_key, type_vars_in
from veritype.types.tuples import item_types, unpack_index, unpacked_star
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.classes import ClassInfo

SUBTYPE = 0  # actual <: template  (a lower bound for the variable)
SUPERTYPE = 1  # template <: actual  (an upper bound)


@dataclass(frozen=True)
class Constraint:
    """A bound on a type variable: the variable, the direction and the type."""
    key: TVKey
    direction: int
    target: Type


def infer_constraints(ev: "Evaluator", template: Type, actual: Type, direction: int, targets: set[TVKey], depth: int = 0) -> list[Constraint]:
    if depth > 12 or not targets:
        return []
    out: list[Constraint] = []
    _infer(ev, template, actual, direction, targets, out, depth)
    return out


def _flip(d: int) -> int:
    return SUPERTYPE if d == SUBTYPE else SUBTYPE


def _infer(ev: "Evaluator", t: Type, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    if depth > 12:
        return
    if isinstance(t, TypeVarType):
        if tv_key(t) in targets:
            if t.kind == "paramspec" and not isinstance(a, (AnyType, CallableType)) and not (isinstance(a, TypeVarType) and a.kind == "paramspec"):
                return  # an argument for `*args: P.args`: P comes from a signature, not from it
            out.append(Constraint(tv_key(t), d, a))
        return
    if isinstance(a, AnyType):
        for key in type_vars_in(t):
            if key in targets:
                out.append(Constraint(key, d, a))
        return
    # (Loops, not `any()` over a generator: made, resumed and, stopping early,
    # closed by a raised GeneratorExit in Python 3.11; asked ~10k times a run.)
    for tk in type_vars_in(t):
        if tk in targets:
            break
    else:
        return
    if isinstance(t, UnionType):
        _infer_union(ev, t, a, d, targets, out, depth)
        return
    if isinstance(a, UnionType) and d == SUBTYPE:
        for item in a.items:
            _infer(ev, t, item, d, targets, out, depth + 1)
        return
    if isinstance(t, Instance):
        _infer_instance(ev, t, a, d, targets, out, depth)
        return
    if isinstance(t, TupleType) and unpack_index(t) is not None:
        _infer_variadic_tuple(ev, t, a, d, targets, out, depth)
        return
    if isinstance(t, TupleType):
        if isinstance(a, TupleType) and unpack_index(a) is not None:
            return  # a variadic actual for a fixed template: no fit, nothing to learn
        if isinstance(a, TupleType) and len(a.items) == len(t.items):
            for ti, ai in zip(t.items, a.items):
                _infer(ev, ti, ai, d, targets, out, depth + 1)
        elif isinstance(a, Instance) and a.info.fullname == "builtins.tuple" and a.args:
            for ti in t.items:
                _infer(ev, ti, a.args[0], d, targets, out, depth + 1)
        return
    if isinstance(t, CallableType):
        spec = paramspec_tail(t)
        if spec is not None and tv_key(spec) in targets and _is_overloaded(ev, a):
            # P of an overloaded signature would be the overloads themselves, which
            # a parameter list cannot hold: unknown (Any) rather than the first item.
            # The return is known where every item agrees on it (`socket.sendto`'s
            # overloads all return int), as mypy infers it.
            items = _overload_items(ev, a)
            rets = {i.ret for i in items.items} if items is not None else set()
            learnt: set[TVKey] = set()
            if len(rets) == 1 and not any(i.type_vars for i in items.items):  # type: ignore[union-attr]
                found: list[Constraint] = []
                _infer(ev, t.ret, next(iter(rets)), d, targets, found, depth + 1)
                out.extend(found)
                learnt = {c.key for c in found}
            for key in type_vars_in(t):
                if key in targets and key not in learnt:
                    out.append(Constraint(key, d, AnyType("special")))
            return
        variadic = unpacked_star(t)
        if (t.is_ellipsis or variadic) and isinstance(a, Overloaded) and len(set(i.ret for i in a.items)) > 1:
            # `Callable[..., R]` or `Callable[[*Ts], R]` says nothing that picks an overload
            # (`run_sync(path.open, "rb")` would need Ts from the other arguments first):
            # R is unknown (Any) rather than the first item's return.
            for key in type_vars_in(t.ret):
                if key in targets:
                    out.append(Constraint(key, d, AnyType("special")))
            return
        overloads = _overload_items(ev, a)
        ret_targets = [k for k in type_vars_in(t.ret) if k in targets]
        if overloads is not None and ret_targets and any(k in targets for p in t.params for k in type_vars_in(p.type)):
            fits = _fitting_items(ev, overloads, t, targets)
            if len(fits) > 1 and len(set(i.ret for i in fits)) > 1:
                # Which overload applies depends on variables solved from the other
                # arguments (`map(fn, strs)`); the return is unknown (Any) rather than
                # the first item's (mypy solves in two passes and picks the item).
                out.extend(Constraint(key, d, AnyType("special")) for key in ret_targets)
                return
        call = _as_callable(ev, a, t, targets)
        if call is None:
            return
        if call.type_vars:
            call = _bind_own_vars(ev, call, t, targets)
        if spec is not None and tv_key(spec) in targets:
            _infer_paramspec(ev, t, spec, call, d, targets, out, depth)
        elif not t.is_ellipsis and not call.is_ellipsis and unpacked_star(t):
            _infer_variadic_params(ev, t, call, d, targets, out, depth)
        elif not t.is_ellipsis and not call.is_ellipsis:
            tpos = [p for p in t.params if p.kind in (POS_ONLY, POS_OR_KW)]
            apos = [p for p in call.params if p.kind in (POS_ONLY, POS_OR_KW)]
            a_star = next((p for p in call.params if p.kind == VAR_POS), None)
            for i, tp in enumerate(tpos):
                if i < len(apos):
                    _infer(ev, tp.type, apos[i].type, _flip(d), targets, out, depth + 1)
                elif a_star is not None:
                    _infer(ev, tp.type, a_star.type, _flip(d), targets, out, depth + 1)
            for tp in t.params:
                if tp.kind == KW_ONLY:
                    match = next((p for p in call.params if p.name == tp.name), None)
                    if match is not None:
                        _infer(ev, tp.type, match.type, _flip(d), targets, out, depth + 1)
        ret = call.ret
        if call.type_vars and not (spec is not None and tv_key(spec) in targets):
            # A generic function argument: its own variables stay free in the result.
            ret = substitute(ret, {tv_key(v): AnyType("special") for v in call.type_vars})
        _infer(ev, t.ret, ret, d, targets, out, depth + 1)
        return
    if isinstance(t, TypeFormType):
        # `TypeForm[T]` from a type form or a class object (type[T] is a TypeForm[T]).
        if isinstance(a, (TypeFormType, TypeType)):
            _infer(ev, t.item, a.item, d, targets, out, depth + 1)
        return
    if isinstance(t, TypeType):
        if isinstance(a, TypeType):
            _infer(ev, t.item, a.item, d, targets, out, depth + 1)
        elif isinstance(a, CallableType) and a.is_type_obj:
            _infer(ev, t.item, a.ret, d, targets, out, depth + 1)
        elif isinstance(a, Overloaded) and a.items and a.items[0].is_type_obj:
            _infer(ev, t.item, a.items[0].ret, d, targets, out, depth + 1)
        return
    if isinstance(t, TypedDictType) and isinstance(a, TypedDictType):
        am = a.item_map()
        for k, v in t.items:
            if k in am:
                _infer(ev, v, am[k], d, targets, out, depth + 1)


def _infer_variadic_tuple(ev: "Evaluator", t: TupleType, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    """`tuple[int, *Ts, str]` against an actual tuple: the prefix and suffix match
    item by item, and Ts is the tuple of what lies between (spec, "TypeVarTuple":
    the TypeVarTuple binds to the types "between" the fixed ones)."""
    from veritype.types.tuples import is_unbounded_tuple, make_tuple, tuple_info, unpack_index, unpacked_item

    k = unpack_index(t)
    assert k is not None
    prefix, suffix, u = t.items[:k], t.items[k + 1:], t.items[k]
    assert isinstance(u, UnpackType)
    info = tuple_info(t)
    if isinstance(a, LiteralType):
        return
    if is_unbounded_tuple(a):
        elem = a.args[0]  # type: ignore[attr-defined]
        for ti in prefix + suffix:
            _infer(ev, ti, elem, d, targets, out, depth + 1)
        if isinstance(u.item, TypeVarType):
            if tv_key(u.item) in targets:
                out.append(Constraint(tv_key(u.item), d, a))
        elif is_unbounded_tuple(u.item):
            _infer(ev, u.item.args[0], elem, d, targets, out, depth + 1)  # type: ignore[attr-defined]
        return
    if not isinstance(a, TupleType) or a.fallback.info.fullname != "builtins.tuple" or info is None:
        return
    ak = unpack_index(a)
    n = len(a.items)
    if ak is not None and (ak < len(prefix) or n - ak - 1 < len(suffix)):
        return  # the actual's unbounded part would cover fixed template items: no fit
    if n < len(prefix) + len(suffix):
        return
    for ti, ai in zip(prefix, a.items):
        _infer(ev, ti, ai, d, targets, out, depth + 1)
    for ti, ai in zip(suffix, a.items[n - len(suffix):]):
        _infer(ev, ti, ai, d, targets, out, depth + 1)
    middle = list(a.items[len(prefix):n - len(suffix)])
    if isinstance(u.item, TypeVarType):
        if tv_key(u.item) in targets:
            out.append(Constraint(tv_key(u.item), d, make_tuple(middle, info)))
    elif is_unbounded_tuple(u.item):
        for m in middle:
            item = unpacked_item(m, info) if isinstance(m, UnpackType) else m
            _infer(ev, u.item.args[0], item, d, targets, out, depth + 1)  # type: ignore[attr-defined]


def _infer_variadic_params(ev: "Evaluator", t: CallableType, call: CallableType, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    """`Callable[[int, *Ts], R]` against a signature: the leading parameters match
    one by one, and the rest of the signature's positional parameters (as a tuple)
    match the unpacked `*args` (spec, "Type Variable Tuples with Callable")."""
    from veritype.types.tuples import make_tuple, star_tuple

    star_i = next(i for i, p in enumerate(t.params) if p.kind == VAR_POS)
    star = t.params[star_i].type
    assert isinstance(star, UnpackType)
    tprefix = [p for p in t.params[:star_i] if p.kind in (POS_ONLY, POS_OR_KW)]
    apos = [p for p in call.params if p.kind in (POS_ONLY, POS_OR_KW)]
    a_star = next((p for p in call.params if p.kind == VAR_POS), None)
    if len(apos) < len(tprefix):
        return
    for tp, ap in zip(tprefix, apos):
        _infer(ev, tp.type, ap.type, _flip(d), targets, out, depth + 1)
    tup = ev.named_class("builtins.tuple")
    if tup is None:
        return
    rest: list[Type] = [p.type for p in apos[len(tprefix):]]
    if a_star is not None:
        if any(p.has_default for p in apos[len(tprefix):]):
            return  # how many it takes is open: nothing certain to learn
        rest.append(a_star.type if isinstance(a_star.type, UnpackType) else UnpackType(ev.builtin("tuple", a_star.type)))
    elif any(p.has_default for p in apos[len(tprefix):]):
        rest = [p.type for p in apos[len(tprefix):] if not p.has_default]
    _infer(ev, star_tuple(star, tup), make_tuple(rest, tup), _flip(d), targets, out, depth + 1)


def _infer_paramspec(ev: "Evaluator", t: CallableType, spec: TypeVarType, call: CallableType, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    """`Callable[Concatenate[X, P], R]` against a signature: the leading parameters
    match X, and P is the parameter list that is left (spec, "ParamSpec")."""
    prefix = t.params[:-2]
    if call.is_ellipsis:
        out.append(Constraint(tv_key(spec), d, AnyType("special")))
        return
    own = paramspec_tail(call)
    if len(call.params) < len(prefix) or any(p.kind not in (POS_ONLY, POS_OR_KW) for p in call.params[:len(prefix)]):
        if own is None:
            return  # the prefix does not fit: the argument check reports it
        # `Concatenate[int, P]` against `(*args: Q.args, ...)`: nothing to learn.
        return
    for tp, ap in zip(prefix, call.params):
        _infer(ev, tp.type, ap.type, _flip(d), targets, out, depth + 1)
    rest = call.params[len(prefix):]
    if own is not None and len(rest) == 2:
        out.append(Constraint(tv_key(spec), d, own))
        return
    # A generic argument's own variables go with its parameters (spec, "ParamSpec").
    out.append(Constraint(tv_key(spec), d, CallableType(rest, AnyType("special"), call.type_vars)))


def _infer_union(ev: "Evaluator", t: UnionType, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    from veritype.types.subtype import is_subtype

    bare = [i for i in t.items if isinstance(i, TypeVarType) and tv_key(i) in targets]
    rest = [i for i in t.items if not (isinstance(i, TypeVarType) and tv_key(i) in targets)]
    actual_items = list(a.items) if isinstance(a, UnionType) else [a]
    leftover: list[Type] = []
    for item in actual_items:
        # An actual item matched by a non-variable member of the template needs no variable.
        fixed = [r for r in rest if not type_vars_in(r)]
        # (Checked against them together too: a one-member enum `E` is covered
        # by `Literal[E.X]`, all of whose values they spell out.)
        covered = any(is_subtype(ev, item, r) for r in fixed) or (len(fixed) > 0 and isinstance(item, Instance) and item.info.is_enum_class() and is_subtype(ev, item, make_union(fixed)))
        if covered and not isinstance(item, AnyType):
            continue
        generic = [r for r in rest if type_vars_in(r)]
        matched = False
        for g in generic:
            if isinstance(g, Instance) and isinstance(item, Instance) and (item.info is g.info or g.info in item.info.mro):
                _infer(ev, g, item, d, targets, out, depth + 1)
                matched = True
                break
            if isinstance(g, Instance) and isinstance(item, TupleType) and g.info.fullname == "builtins.tuple":
                if not is_subtype(ev, item, erase_to_any(g, targets)):
                    # As mypy's infer_constraints_if_possible: a union member the item
                    # cannot fit whatever the variables (`("hello", E1)` for
                    # `tuple[type[E], ...]`) teaches nothing; the argument is reported.
                    continue
                _infer(ev, g, item, d, targets, out, depth + 1)
                matched = True
                break
            if isinstance(g, TypeType) and _is_class_object(item):
                # `type[E] | tuple[type[E], ...]` given a class: the `type[E]` member
                # takes it (pytest.raises, isinstance-like signatures).
                _infer(ev, g, item, d, targets, out, depth + 1)
                matched = True
                break
        if not matched and not bare and len(generic) > 1:
            matched = _infer_any_member(ev, generic, item, d, targets, out, depth)
        if not matched:
            leftover.append(item)
    if leftover:
        if len(bare) == 1:
            out.append(Constraint(tv_key(bare[0]), d, make_union(leftover)))
        elif not bare:
            generic = [r for r in rest if type_vars_in(r)]
            if len(generic) == 1:
                _infer(ev, generic[0], make_union(leftover), d, targets, out, depth + 1)


def _infer_any_member(ev: "Evaluator", generic: list[Type], item: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> bool:
    """An actual item for one of several generic members of a union template
    (`def () -> V'` for `Callable[..., V] | Callable[..., Generator[V]]`): as
    mypy's any_constraints, the members it fits (with the variables erased) are
    the options; one option, or several that agree, is what is learnt, and
    options that disagree teach nothing. False when it fits no member."""
    from veritype.types.subtype import is_subtype

    if d != SUBTYPE:
        return False
    options: list[list[Constraint]] = []
    for g in generic:
        if is_subtype(ev, item, erase_to_any(g, targets)):
            found: list[Constraint] = []
            _infer(ev, g, item, d, targets, found, depth + 1)
            options.append(found)
    if not options:
        return False
    if all(o == options[0] for o in options[1:]):
        out.extend(options[0])
    return True


def _bind_own_vars(ev: "Evaluator", call: CallableType, t: CallableType, targets: set[TVKey]) -> CallableType:
    """A generic function passed for a callable template: its own variables are
    first solved from the template's concrete positional parameter types, the
    return ignored (mypy's unify_generic_callable in constraint inference), so
    `pathlib.Path.absolute` (`def [Self] (self: Self) -> Self`) given for
    `Callable[Concatenate[pathlib.Path, P], T]` is `(pathlib.Path) -> pathlib.Path`
    and T is `pathlib.Path`, not the argument's own `Self`. Template parameters
    that mention the variables being solved say nothing here, and variables they
    leave unconstrained stay generic."""
    own = {tv_key(v) for v in call.type_vars}
    tpos = [p for p in t.params if p.kind in (POS_ONLY, POS_OR_KW)]
    apos = [p for p in call.params if p.kind in (POS_ONLY, POS_OR_KW)]
    cons: list[Constraint] = []
    for tp, ap in zip(tpos, apos):
        if any(k in targets for k in type_vars_in(tp.type)):
            continue
        cons += infer_constraints(ev, ap.type, tp.type, SUPERTYPE, own)
    if not cons:
        return call
    solved = {c.key for c in cons}
    mapping = {k: v for k, v in solve(ev, [v for v in call.type_vars if tv_key(v) in solved], cons).items() if not isinstance(v, AnyType)}
    if not mapping:
        return call
    inst = substitute(call, mapping)
    return inst if isinstance(inst, CallableType) else call


def _is_class_object(a: Type) -> bool:
    """A class object as a value: `type[C]`, or a constructor signature."""
    if isinstance(a, TypeType):
        return True
    if isinstance(a, CallableType):
        return a.is_type_obj
    return isinstance(a, Overloaded) and bool(a.items) and a.items[0].is_type_obj


def _infer_instance(ev: "Evaluator", t: Instance, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    if isinstance(a, LiteralType):
        a = a.fallback
    if isinstance(a, TupleType):
        if t.info.fullname == "builtins.tuple":


            item = join_all(ev, item_types(a)) if a.items else NeverType()
            if t.args:
                _infer(ev, t.args[0], item, d, targets, out, depth + 1)
            return
        if not a.items and a.fallback.info.fullname == "builtins.tuple":
            # Spec, "Tuples": "A zero-length tuple (tuple[()]) is a subtype of Sequence[Never]".
            a = Instance(a.fallback.info, (NeverType(),))
        else:
            a = a.fallback
    if isinstance(a, TypedDictType):
        a = a.fallback
    if isinstance(a, NoneType):
        none = ev.instance("types.NoneType")
        if isinstance(none, Instance):
            a = none
    if isinstance(a, TypeType) and isinstance(a.item, Instance):
        meta = ev.metaclass_instance(a.item.info)
        if t.info.is_protocol:
            _infer_protocol(ev, t, a, d, targets, out, depth)
            return
        if meta is not None:
            a = meta
    if isinstance(a, (CallableType, Overloaded)) and t.info.is_protocol:
        _infer_protocol(ev, t, a, d, targets, out, depth)
        return
    if not isinstance(a, Instance):
        return
    if d == SUBTYPE:
        mapped = map_instance_to_supertype(a, t.info)
        if mapped is None:
            if t.info.is_protocol:
                _infer_protocol(ev, t, a, d, targets, out, depth)
            return
        pairs = zip(t.info.type_vars, t.args, mapped.args)
    else:
        mapped_t = map_instance_to_supertype(t, a.info)
        if mapped_t is None:
            return
        pairs = zip(a.info.type_vars, mapped_t.args, a.args)
    for tv, targ, aarg in pairs:
        if tv.variance == "contravariant":
            _infer(ev, targ, aarg, _flip(d), targets, out, depth + 1)
        elif tv.variance == "covariant":
            _infer(ev, targ, aarg, d, targets, out, depth + 1)
        else:
            # Invariant: the argument is both bound; record as lower (joins) — solving
            # checks the result afterwards, so an over-wide solution is reported there.
            _infer(ev, targ, aarg, d, targets, out, depth + 1)
            if isinstance(targ, TypeVarType) and widen_literals(aarg, in_tuples=False) != aarg:
                # ... and an exact one: `Box[Literal[1]]` solves T to Literal[1] (see solve).
                _infer(ev, targ, aarg, _flip(d), targets, out, depth + 1)


def _infer_protocol(ev: "Evaluator", t: Instance, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    # The constraints of an instance against a protocol are kept (`iter(xs)`, `sorted(xs)`:
    # the same few pairs at hundreds of calls, each a walk over the protocol's members and
    # a subtype check), on the terms the subtype checker keeps protocol answers: begun with
    # nothing assumed and no lazy evaluation in progress, of settled classes. The actual side
    # must be exact besides (`_exact`): its parts become the constraints' targets, so an
    # equal type must be the same in every field (an Any's reason is not compared).
    sc = ev._subtype_checker
    if sc is None:
        sc = ev.subtype_checker()
    key = None
    if type(a) is Instance and ev.lazy_depth == 0 and not sc._assuming and _exact(a) and _exact_template(t, targets):
        key = (t, a, d, frozenset(targets), depth)
        hit = sc.protocol_constraints.get(key)
        if hit is not None:
            out.extend(hit)
            return
    start = len(out)
    _walk_protocol(ev, t, a, d, targets, out, depth)
    if key is not None and ev.lazy_depth == 0:
        sc.protocol_constraints[key] = tuple(out[start:])


def _exact(t: Type) -> bool:
    """Whether every value equal to `t` is `t` in every field: built of settled
    classes (see kept_answers.keyed), None and tuples only."""
    tp = type(t)
    if tp is Instance:
        if not _settled(t.info):  # type: ignore[attr-defined]
            return False
        for arg in t.args:  # type: ignore[attr-defined]
            if not _exact(arg):
                return False
        return True
    if tp is NoneType:
        return True
    if tp is TupleType:
        return _exact(t.fallback) and all(_exact(i) for i in t.items)  # type: ignore[attr-defined]
    if tp is UnionType:
        return all(_exact(i) for i in t.items)  # type: ignore[attr-defined]
    return False


def _settled(info: "ClassInfo") -> bool:
    # (kept_answers.keyed's test of the class.)
    if info._bases is None or info._resolving or info.is_namedtuple:
        return False
    mro = info._mro
    return not (mro is not None and len(mro) == 1 and info._bases)  # (else the MRO is being computed)


def _exact_template(t: Instance, targets: set[TVKey]) -> bool:
    """`_exact` for the protocol side, whose arguments are the variables solved."""
    if not _settled(t.info):
        return False
    for arg in t.args:
        if not (type(arg) is TypeVarType and tv_key(arg) in targets) and not _exact(arg):  # type: ignore[arg-type]
            return False
    return True


def _walk_protocol(ev: "Evaluator", t: Instance, a: Type, d: int, targets: set[TVKey], out: list[Constraint], depth: int) -> None:
    for name in ev.protocol_members(t.info):
        if name in ("__init__", "__new__", "__class_getitem__", "__slots__", "__hash__"):
            continue
        proto_member = ev.bound_member(t, name)
        actual_member = ev.protocol_member(a, name)
        if proto_member is None or actual_member is None:
            continue
        for tk in type_vars_in(proto_member):
            if tk in targets:
                break
        else:
            continue
        if isinstance(actual_member, Overloaded) and isinstance(proto_member, CallableType):
            from veritype.types.subtype import is_subtype

            # The item that fits the protocol's signature (the targets erased): float's
            # `__round__(None) -> int` / `__round__(SupportsIndex) -> float` against
            # `__round__(int) -> T` is the second one.
            erased = erase_to_any(proto_member, targets)
            arity = [i for i in actual_member.items if _arity_ok(i, proto_member)]
            picked = next((i for i in arity if is_subtype(ev, i, erased)), arity[0] if arity else actual_member.items[0])
            actual_member = picked
        _infer(ev, proto_member, actual_member, d, targets, out, depth + 1)


def _arity_ok(item: CallableType, proto: CallableType) -> bool:
    return len([p for p in item.params if p.kind in (POS_ONLY, POS_OR_KW) and not p.has_default]) <= len([p for p in proto.params if p.kind in (POS_ONLY, POS_OR_KW)])


def _is_overloaded(ev: "Evaluator", a: Type) -> bool:
    if isinstance(a, Overloaded):
        return len(a.items) > 1
    if isinstance(a, TypeType):
        ctor = ev.constructor_type(a)
        return isinstance(ctor, Overloaded) and len(ctor.items) > 1
    return False


def matching_overload_item(ev: "Evaluator", items: tuple[CallableType, ...], template: Type, targets: "set[TVKey]") -> CallableType | None:
    """The item of an overloaded function passed for the callable `template`:
    the first accepting the template's parameter types (the variables being
    solved read as Any), the return type aside, as mypy's
    find_matching_overload_item. None if the template is not such a callable
    or no item fits (the caller then takes the first item)."""
    from veritype.types.subtype import is_subtype

    if not isinstance(template, CallableType) or template.is_ellipsis:
        return None
    if any(isinstance(p.type, (UnpackType, TypeVarType)) and getattr(p.type, "kind", "typevar") != "typevar" for p in template.params):
        return None
    erased = erase_to_any(template, targets) if targets else template
    if not isinstance(erased, CallableType):
        return None
    for item in items:
        if not item.type_vars and is_subtype(ev, item, erased.with_ret(item.ret)):
            return item
    return None


def _as_callable(ev: "Evaluator", a: Type, template: CallableType | None = None, targets: "set[TVKey] | None" = None) -> CallableType | None:
    if isinstance(a, CallableType):
        return a
    if isinstance(a, Overloaded):
        return _matching_item(ev, a, template, targets)
    if isinstance(a, TypeType):
        ctor = ev.constructor_type(a)
        if isinstance(ctor, Overloaded):
            return _matching_item(ev, ctor, template, targets)
        return ctor if isinstance(ctor, CallableType) else None
    if isinstance(a, Instance):
        call = ev.instance_call_signature(a, whole=True)
        if isinstance(call, Overloaded):
            return _matching_item(ev, call, template, targets)
        return call if isinstance(call, CallableType) else None
    return None


def _matching_item(ev: "Evaluator", a: Overloaded, template: CallableType | None, targets: "set[TVKey] | None") -> CallableType | None:
    """The overload item to infer from, against a callable template: the first whose
    parameters accept the template's (the variables being solved and the returns left
    out), else the first item. mypy picks the item the same way (an overloaded
    `fn(None) -> None` / `fn(str) -> int` passed for `Callable[[str], T]` gives T = int)."""
    if not a.items:
        return None
    fits = _fitting_items(ev, a, template, targets)
    return fits[0] if fits else a.items[0]


def _fitting_items(ev: "Evaluator", a: Overloaded, template: CallableType | None, targets: "set[TVKey] | None") -> list[CallableType]:
    """The overload items whose parameters accept the template's (with the variables
    being solved as Any, returns left out); all of them without a template."""
    if template is None or template.is_ellipsis:
        return list(a.items)
    from veritype.types.subtype import is_subtype

    erased = erase_to_any(template, targets or ())
    if not isinstance(erased, CallableType):
        return list(a.items)
    want = erased.with_ret(AnyType("special"))
    return [item for item in a.items if is_subtype(ev, item.with_ret(AnyType("special")), want)]


def _overload_items(ev: "Evaluator", a: Type) -> Overloaded | None:
    """The overloads a callable argument stands for (a function, a class object's
    constructor, an object's `__call__`), or None when it is not overloaded."""
    if isinstance(a, TypeType):
        a = ev.constructor_type(a) or a
    elif isinstance(a, Instance):
        a = ev.instance_call_signature(a, whole=True) or a
    return a if isinstance(a, Overloaded) and len(a.items) > 1 else None


def solve(ev: "Evaluator", type_vars: tuple[TypeVarType, ...] | list[TypeVarType], constraints: list[Constraint], keep_literals: bool = False) -> dict[TVKey, Type]:
    """Each variable's solution. With `keep_literals`, the literal types of the
    arguments are not widened (the "last known value" mypy matches an overload
    item passed for a callable with)."""

    result: dict[TVKey, Type] = {}
    for tv in type_vars:
        key = tv_key(tv)
        lowers = [c.target for c in constraints if c.key == key and c.direction == SUBTYPE]
        uppers = [c.target for c in constraints if c.key == key and c.direction == SUPERTYPE]
        sol: Type | None = None
        if lowers:
            for x in lowers:
                if isinstance(x, AnyType):
                    sol = AnyType("implicit")
                    break
            else:
                # A literal bound from both sides (an invariant position, `Matrix[Literal[3]]`)
                # is exact: widening it would no longer fit the argument.
                sol = join_all(ev, [x if x in uppers or keep_literals else widen_literals(x, in_tuples=False, keep_declared=True) for x in lowers])
        elif uppers:
            sol = uppers[0]
            for u in uppers[1:]:
                sol = meet(ev, sol, u)
        if tv.kind == "typevartuple":
            sol = _solve_variadic(ev, lowers, uppers, keep_literals)
        if tv.kind == "paramspec":
            # A parameter list is not joined: the first signature seen decides.
            found = [x for x in lowers + uppers if isinstance(x, CallableType) or (isinstance(x, TypeVarType) and x.kind == "paramspec")]
            sol = found[0] if found else (AnyType("implicit") if lowers or uppers else None)
        if sol is None:
            if tv.default is not None:
                # A default may name an earlier parameter (PEP 696: `StopT = TypeVar(default=StartT)`).
                earlier: dict[TVKey, Type] = {}
                for prev in type_vars:
                    if tv_key(prev) in result:
                        earlier[tv_key(prev)] = earlier[(prev.fullname, "")] = result[tv_key(prev)]
                result[key] = substitute(tv.default, earlier) if earlier else tv.default
            else:
                result[key] = AnyType("unsolved")
            continue
        if tv.values and not isinstance(sol, AnyType):
            for v in tv.values:
                if is_subtype(ev, sol, v):
                    sol = v
                    break
        result[key] = sol
    return result


def _solve_variadic(ev: "Evaluator", lowers: list[Type], uppers: list[Type], keep_literals: bool = False) -> Type | None:
    """A TypeVarTuple's solution: a tuple type. Bounds of one fixed length join item
    by item (`f((0,), (0.0,))` gives `tuple[float]`); bounds of different lengths do
    not (spec: "the types must match exactly (the list of type parameters must be
    the same length...)"), so the first decides and the other argument is reported."""
    from veritype.types.join import join_all

    cands = lowers or uppers
    if not cands:
        return None
    if any(isinstance(c, AnyType) for c in cands):
        return AnyType("implicit")
    if lowers and not keep_literals:
        cands = [widen_literals(c) for c in cands]
    fixed = [c for c in cands if isinstance(c, TupleType) and not any(isinstance(i, UnpackType) for i in c.items)]
    if len(fixed) == len(cands) and len({len(c.items) for c in fixed}) == 1 and len(cands) > 1 and lowers:
        first = fixed[0]
        items = [join_all(ev, [c.items[i] for c in fixed]) for i in range(len(first.items))]
        return ev.tuple_of(items)
    return cands[0]


def unify_callable(ev: "Evaluator", generic: CallableType, target: CallableType) -> CallableType | None:
    """Instantiate `generic`'s own variables so that it may match `target`."""
    targets = {tv_key(v) for v in generic.type_vars}
    cons: list[Constraint] = []
    gpos = [p for p in generic.params if p.kind in (POS_ONLY, POS_OR_KW)]
    tpos = [p for p in target.params if p.kind in (POS_ONLY, POS_OR_KW)]
    for gp, tp in zip(gpos, tpos):
        cons += infer_constraints(ev, gp.type, tp.type, SUPERTYPE, targets)
    cons += infer_constraints(ev, generic.ret, target.ret, SUPERTYPE, targets)
    mapping = solve(ev, generic.type_vars, cons)
    for k, v in list(mapping.items()):
        if isinstance(v, AnyType) and v.reason == "unsolved":
            mapping[k] = AnyType("implicit")
    inst = substitute(generic, mapping)
    return inst if isinstance(inst, CallableType) else None
