"""Calling an overloaded function: the spec's overload evaluation (arity filter, argument-
type matching in order, union expansion of arguments, Any-ambiguity rule) and the error
when no item matches.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from typing import TYPE_CHECKING

from veritype.evaluate import deprecation
from veritype.evaluate.known_calls import expression_key, store_for
from veritype.evaluate.calls import (
    ARG_KW, ARG_POS, ARG_STAR, ARG_STAR2, Arg, CallSite, Collect, Matching, Recorded, callable_name, check_signature, match_arguments, recorded_errors, recording,
)
from veritype.types.format import format_def, format_type
from veritype.types.param_shape import shape_of
from veritype.types.join import widen_literals
from veritype.types.model import VAR_KW, VAR_POS, AnyType, CallableType, Instance, Overloaded, Param, TupleType, Type, UnionType, holds_any, make_union, NEVER
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def check_overloaded(site: CallSite, callee: Overloaded, args: list[Arg]) -> Type:
    arg_types: list[Type] = []
    with recording(site, True) as inherent:
        for a in args:  # (initial_type, written out: this runs for every overloaded call)
            arg_types.append(a.type if a.type is not None else site.infer(a.node, None))  # type: ignore[arg-type]
    own_errors = recorded_errors(inherent) if inherent else set()
    key = expression_key(site, callee, args, arg_types)
    if key is None:
        return _resolve(site, callee, args, arg_types, own_errors, None)
    # Asked before (known_calls: the same callee, argument types and expected type).
    table = site.ev.members.known_expr_calls
    hit = table.get(key)
    if hit is not None and hit[1] is callee:
        if hit[2] and site.context_free is not None:
            site.context_free[0] = False
        return hit[0]
    outer = site.context_free
    site.context_free = probe = [True]  # (whether an item's check reads the expected type)
    clean = [False]
    try:
        ret = _resolve(site, callee, args, arg_types, own_errors, clean)
    finally:
        site.context_free = outer
    reads = not probe[0]
    if reads and outer is not None:
        outer[0] = False
    if clean[0] and store_for(callee):
        table[key] = (ret, callee, reads)
    return ret


def _resolve(site: CallSite, callee: Overloaded, args: list[Arg], arg_types: list[Type], own_errors: set[tuple[int, str]],
             clean: list[bool] | None) -> Type:
    """check_overloaded once the arguments are inferred. Where `clean` is given,
    it is set to whether the call was resolved by an item without any report,
    its trials' included (known_calls.expression_key)."""
    ev = site.ev
    # Step 1: the arity filter.
    # Each candidate's matching is kept for its check below (the same site, item and
    # arguments give the same matching).
    candidates: list[CallableType] = []
    known: dict[int, Matching] = {}
    # The matching of arguments of a shape (kinds and keyword names) to an item's
    # parameters is the same at every call (`d.get(k)` at hundreds): the last one is
    # kept on the item's ParamShape, the parameters' own memo (one pair, not a table:
    # most items are called with one shape). Not with a `**kwargs` argument, whose
    # matching reads its type (a TypedDict's keys).
    shape_key: tuple[tuple[str, str | None], ...] | None = tuple([(a.kind, a.name) for a in args])
    for a in args:  # (a loop, not `any()` over a generator: every overloaded call asks)
        if a.kind == ARG_STAR2:
            shape_key = None
            break
    for c in callee.items:
        if shape_key is not None:
            shape = shape_of(c)
            last = shape.arity
            if last is None or last[0] != shape_key:
                # (Quiet: an item with an arity error is dropped, its message not needed.)
                m = match_arguments(site, c, args, arg_types, quiet=True)
                shape.arity = (shape_key, None if m.errors else m.slots)
            elif last[1] is not None:
                # (Matchings are only read: the slots can be shared.)
                m = Matching(last[1], [])
            else:
                continue
        else:
            m = match_arguments(site, c, args, arg_types, quiet=True)
        if not m.errors:
            candidates.append(c)
            known[id(c)] = m
    if not candidates:
        _no_match(site, callee, args, arg_types)
        return AnyType("error")
    if len(candidates) == 1:
        collect = Collect()
        if clean is None:
            ret = check_signature(site, candidates[0], args, collect, (arg_types, known[id(candidates[0])]))
        else:
            with recording(site, True) as seen:  # (passed on as before; looked at only for `clean`)
                ret = check_signature(site, candidates[0], args, collect, (arg_types, known[id(candidates[0])]))
            clean[0] = not seen and not collect.errors
        if collect.errors:
            return _failed(site, callee, candidates, args, arg_types)
        _deprecated_item(site, callee, candidates[0])
        return ret
    # Step 2: the candidates whose argument types check. Only the first is
    # needed unless steps 4 (an argument of unknown length) or 5 (an argument
    # holding Any) may still decide between several.
    variadic_args = [ai for ai, a in enumerate(args) if a.kind in (ARG_STAR, ARG_STAR2)]
    # An empty collection's `list[Any]` is mypy's `list[Never]`: no Any to be
    # ambiguous (`d.get(k, [])`, `d.get(k, set())`).
    any_args = [ai for ai, t in enumerate(arg_types) if holds_any(t) and not _only_empty_any(t) and not _empty_display(args[ai].node)]
    matches: list[tuple[CallableType, Type]] = []
    # What each matching item's check reported through the evaluator (held back).
    held: dict[int, list[Recorded]] = {}
    quiet = True  # (no trial reported through the evaluator)
    for c in candidates:
        collect = Collect()
        # Errors inside an argument inferred in this item's context (a dict
        # display that is not the item's TypedDict) are held back and make the
        # item fail; errors the arguments have anyway were reported above.
        with recording(site, False) as inner:
            ret = check_signature(site, c, args, collect, (arg_types, known[id(c)]), held_back=True)
        if inner:
            quiet = False
        if not collect.errors and (not inner or own_errors.issuperset(recorded_errors(inner))):
            matches.append((c, ret))
            held[id(c)] = inner
            if not variadic_args and not any_args:
                break
    if len(matches) > 1 and variadic_args:
        # Step 4: "If so, eliminate overloads that do not have a variadic parameter"
        # for the `*args`/`**kwargs` argument of indeterminate length.
        kept = [m for m in matches if _takes_variadic(site, m[0], args, arg_types, variadic_args)]
        matches = kept or matches
    if len(matches) > 1 and any_args and not _any_solves_variables(site, matches[0][0], matches[0][1], args, arg_types, any_args) \
            and _all_materializations_fit(site, matches[0][0], args, arg_types, any_args):
        # Step 5: every materialization of the Any-holding arguments fits the
        # first remaining overload, so "eliminate all of the subsequent" ones.
        matches = matches[:1]
    if matches:
        first_ret = matches[0][1]
        if len(matches) > 1:
            # Any-ambiguity (spec step 5): different returns make the result Any.
            if not all(_same(ev, first_ret, r) for _, r in matches[1:]) and not _same_with_empty_never(site, matches, args, arg_types):
                # (mypy gives `list[Any]` where the returns differ only in type
                # arguments; the spec says Any: "the resulting return type is Any".)
                return AnyType("special")
        # Report errors inside arguments evaluated for this item (deduplicated later).
        if site.replay is not None:
            # Its check reported nothing itself (`collect` stayed empty) and is
            # the same check again (same site, item, arguments and matching; the
            # arguments' inferences in context are memoized): what it reported
            # through the evaluator is what checking it again would report.
            site.replay(held[id(matches[0][0])])
        else:
            check_signature(site, matches[0][0], args, site.report, (arg_types, known[id(matches[0][0])]))
        _deprecated_item(site, callee, matches[0][0])
        if clean is not None:
            # (A key holds no union: the refinement below gives `first_ret` back.)
            clean[0] = quiet and len(matches) == 1
        return _union_math_refinement(site, callee, args, arg_types, first_ret)
    # Step 3: union expansion of one argument at a time.
    from veritype.evaluate.overload_expansion import expand_argument

    for ai, t in enumerate(arg_types):
        expanded = expand_argument(ev, t) if args[ai].kind in (ARG_POS, ARG_KW) else None
        if expanded:
            results: list[Type] = []
            ok = True
            for member in expanded:
                sub_args = list(args)
                sub_args[ai] = Arg(args[ai].kind, args[ai].name, args[ai].node, member)
                collect = Collect()
                sub_site = _trial_site(site, collect)
                r = check_overloaded(sub_site, callee, sub_args)
                if collect.errors:
                    ok = False
                    break
                results.append(r)
            if ok:
                return make_union(results)
    return _failed(site, callee, candidates, args, arg_types)


_refining = False


def _union_math_refinement(site: CallSite, callee: Overloaded, args: list[Arg], arg_types: list[Type], first_ret: Type) -> Type:
    """mypy tries union math before the first matching item when an argument
    is a union (its check_overload_call: "picking the first overload often
    ends up being too greedy"): `parse_known_args(args, ns)` with `ns:
    Namespace | None` is `tuple[Namespace, ...]` from the `None` and the `_N`
    items, where the `_N` item alone gives `tuple[Namespace | None, ...]`. The
    spec's order picks that item; where the members' results together are
    strictly narrower, veritype takes them, so code mypy accepts stays clean.
    One union argument, one level deep."""
    global _refining
    if _refining:
        return first_ret
    ai = None
    for i, t in enumerate(arg_types):  # (a loop, not `next()` over a generator: asked for most overloaded calls)
        if isinstance(t, UnionType) and args[i].kind in (ARG_POS, ARG_KW):
            ai = i
            break
    if ai is None:
        return first_ret
    ev = site.ev
    results: list[Type] = []
    _refining = True
    try:
        for member in arg_types[ai].items:  # type: ignore[attr-defined]
            sub_args = list(args)
            sub_args[ai] = Arg(args[ai].kind, args[ai].name, args[ai].node, member)
            collect = Collect()
            sub_site = _trial_site(site, collect)
            r = check_overloaded(sub_site, callee, sub_args)
            if collect.errors or holds_any(r):
                return first_ret
            results.append(r)
    finally:
        _refining = False
    refined = make_union(results)
    if is_subtype(ev, refined, first_ret) and not is_subtype(ev, first_ret, refined):
        return refined
    return first_ret


def _failed(site: CallSite, callee: Overloaded, candidates: list[CallableType], args: list[Arg], arg_types: list[Type]) -> Type:
    """No item accepts the call: check it against the first item the arguments
    resemble (its argument errors, as mypy), or report that no variant matches."""
    from veritype.evaluate.overload_fallback import resembling_item

    item = resembling_item(site, candidates, args, arg_types)
    if item is not None:
        return check_signature(site, item, args, site.report)
    _no_match(site, callee, args, arg_types)
    return AnyType("error")


def _same(ev: "Evaluator", a: Type, b: Type) -> bool:
    # Mutual subtypes, but Any is compatible both ways with anything: a type
    # holding Any is the same only as itself (mypy's is_same_type), `S[Any]` is
    # not `S[int]`.
    return a == b or (is_subtype(ev, a, b) and is_subtype(ev, b, a) and not holds_any(a) and not holds_any(b))


def _same_with_empty_never(site: CallSite, matches: list[tuple[CallableType, Type]], args: list[Arg], arg_types: list[Type]) -> bool:
    """Whether the matching items return the same once an empty display's item
    types are Never, as mypy infers them (`{}` is `dict[Never, Never]`): then the
    returns are all the same and mypy's any_causes_overload_ambiguity says no
    ("if all_same_types(return_types): return False"). hypothesis's
    `fixed_dictionaries({}, optional=kw)`: the item taking `Mapping[NoReturn,
    NoReturn]` and the general one both return `S[dict[str, Any]]` (isort)."""
    empty = [ai for ai, a in enumerate(args) if _empty_display(a.node) and holds_any(arg_types[ai])]
    if not empty:
        return False
    fixed = list(args)
    for ai in empty:
        fixed[ai] = Arg(args[ai].kind, args[ai].name, args[ai].node, _fill_any(arg_types[ai], NEVER, keep=lambda a: a.reason != "empty"))
    rets: list[Type] = []
    for c, _ in matches:
        collect = Collect()
        with recording(site, False):
            rets.append(check_signature(site, c, fixed, collect))
        if collect.errors:
            return False
    return all(_same(site.ev, rets[0], r) for r in rets[1:])


def _only_empty_any(t: Type) -> bool:
    """Whether every Any `t` holds is an empty display's item type."""
    return not holds_any(_fill_any(t, NEVER, keep=lambda a: a.reason != "empty"))


def _takes_variadic(site: CallSite, callee: CallableType, args: list[Arg], arg_types: list[Type], variadic_args: list[int]) -> bool:
    """Whether every `*x`/`**x` argument maps to the `*args`/`**kwargs` of `callee`."""
    matching = match_arguments(site, callee, args, arg_types)
    for ai in variadic_args:
        kind = VAR_POS if args[ai].kind == ARG_STAR else VAR_KW
        if not any(ai in slot and callee.params[pi].kind == kind for pi, slot in enumerate(matching.slots)):
            return False
    return True


def _all_materializations_fit(site: CallSite, callee: CallableType, args: list[Arg], arg_types: list[Type], any_args: list[int]) -> bool:
    """Whether `callee` accepts the Any-holding arguments however their Any is
    filled in. Approximated from both ends: Any read as `object` and as Never
    must both fit (an exact answer would need each position's variance)."""
    for fill in (site.ev.builtin("object"), NEVER):
        fixed = list(args)
        for ai in any_args:
            t = arg_types[ai]
            # A `*x` or `**x` of type Any is some iterable or mapping: its
            # materializations are those, never a bare `object` (which would
            # report "not iterable" from the iteration of the argument).
            if isinstance(t, AnyType) and args[ai].kind == ARG_STAR:
                t = site.ev.builtin("tuple", t)
            elif isinstance(t, AnyType) and args[ai].kind == ARG_STAR2:
                t = site.ev.builtin("dict", site.ev.builtin("str"), t)
            fixed[ai] = Arg(args[ai].kind, args[ai].name, args[ai].node, _fill_any(t, fill))
        collect = Collect()
        check_signature(site, callee, fixed, collect)
        if collect.errors:
            return False
    return True


def _any_solves_variables(site: CallSite, callee: CallableType, ret: Type, args: list[Arg], arg_types: list[Type], any_args: list[int]) -> bool:
    """Whether an Any-holding argument goes to a parameter that mentions the
    item's own type variables and its Any reaches the item's return through
    them (`one_of(a1: S[Ex], a2: S[T])` given `S[list[Any]]` is `S[Ex | list[Any]]`).
    Every materialization fits such an item only because the variables follow
    it, so its return is no more certain than Any: mypy finds the call
    ambiguous (its any_causes_overload_ambiguity) and gives Any when the other
    items return something else; veritype does the same rather than keep
    the first item's return. (`gather(one(), two())` with coroutines, whose
    Any parts solve nothing returned, keeps its first item.)"""
    from veritype.types.substitute import tv_key, type_vars_in

    if not callee.type_vars or not holds_any(ret) or holds_any(callee.ret):
        return False
    own = {tv_key(v) for v in callee.type_vars}
    matching = match_arguments(site, callee, args, arg_types)
    for pi, slot in enumerate(matching.slots):
        if any(ai in any_args for ai in slot) and type_vars_in(callee.params[pi].type).keys() & own:
            return True
    return False


def _empty_display(node: object) -> bool:
    """`[]`, `{}`, `()`, or an empty collection made by calling its class (`set()`)."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        return isinstance(node.func, ast.Name) and node.func.id in ("list", "set", "dict", "frozenset", "tuple")
    return (isinstance(node, (ast.List, ast.Set, ast.Tuple)) and not node.elts) or (isinstance(node, ast.Dict) and not node.keys)


def _fill_any(t: Type, fill: Type, keep=lambda a: False) -> Type:  # type: ignore[no-untyped-def]
    if isinstance(t, AnyType):
        return t if keep(t) else fill
    if isinstance(t, Instance) and t.args:
        return Instance(t.info, tuple(_fill_any(a, fill, keep) for a in t.args))
    if isinstance(t, TupleType):
        return TupleType(tuple(_fill_any(i, fill, keep) for i in t.items), t.fallback)
    if isinstance(t, UnionType):
        return make_union([_fill_any(i, fill, keep) for i in t.items])
    if isinstance(t, CallableType):
        return t.with_params(tuple(Param(p.name, _fill_any(p.type, fill, keep), p.kind, p.has_default) for p in t.params)).with_ret(_fill_any(t.ret, fill, keep))
    return t


def _no_match(site: CallSite, callee: Overloaded, args: list[Arg], arg_types: list[Type]) -> None:
    name = callable_name(callee) or "function"
    if not args:
        desc = "call"
        msg = f"All overload variants of {name} require at least one argument"
    else:
        shown = []
        for a, t in zip(args, arg_types):
            # mypy shows the inferred (widened) types here: `o(1, 2)` lists "int", "int".
            s = format_type(widen_literals(t))
            if a.kind == ARG_STAR:
                s = "*" + s
            elif a.kind == ARG_STAR2:
                s = "**" + s
            shown.append(f'"{s}"')
        desc = ", ".join(shown)
        msg = f"No overload variant of {name} matches argument type{'s' if len(args) > 1 else ''} {desc}"
    from veritype.evaluate.dunder_messages import is_operator_method

    # mypy: an operator method's failed overloaded call is an `operator` error.
    site.report(site.node, msg, "operator" if is_operator_method(callee.name) else "call-overload")
    # mypy 2.4.1 lists every variant, each in its long form with `self`.
    site.report(site.node, "Possible overload variants:", "note")
    for item in callee.items:
        site.report(site.node, "    " + format_def(item), "note")


def _deprecated_item(site: CallSite, callee: Overloaded, item: CallableType) -> None:
    """Spec, `@deprecated`: "For deprecated overloads, this includes all calls that
    resolve to the deprecated overload"."""
    if deprecation.enabled(site.ev):
        msg = deprecation.overload_message(callee, item)
        if msg is not None:
            site.report(site.node, msg, "deprecated")


def _trial_site(site: CallSite, collect: Collect) -> CallSite:
    """`site` for one member of a union argument: the same call, its reports
    collected (to decide)."""
    return replace(site, report=collect)
