"""Calls: matching arguments to parameters and checking one signature.

Argument matching follows the spec's "Callables" chapter (positional,
keyword, `*args`, `**kwargs`, defaults, positional-only and keyword-only).
Overloads (the spec's overload call evaluation) are in `overload_calls`;
what is called (function, class, union, __call__...) is dispatched in
`call_dispatch`.
"""

from __future__ import annotations

import ast

from veritype.evaluate.context_first import solve_from_context
from veritype.evaluate.call_plain import CONTEXT_SENSITIVE, RE_INFERRED, fits_plainly, plain_arity, plain_positional
from veritype.evaluate.type_forms import expects_type_form
from veritype.evaluate.passed_generics import forwarding_slots, solve_passed_generic
from veritype.evaluate.typevar_values import fits_type_var
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.evaluate.paramspec_calls import check_paramspec_arguments
from veritype.evaluate.paramspec_calls import component as paramspec_component
from veritype.types.format import format_type, format_pair
from veritype.types.join import widen_literals
from veritype.types.model import (
    KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, AnyType, CallableType, Instance,
    NeverType, Overloaded, Param, TupleType, Type, TypedDictType, TypeFormType, TypeType, TypeVarType, UnpackType,
    UnionType, callable_owner, make_union,
)
from veritype.types.param_shape import shape_of
from veritype.types.solve import SUBTYPE, SUPERTYPE, infer_constraints, solve, matching_overload_item
from veritype.types.substitute import erase_to_any, substitute, tv_key, type_vars_in
from veritype.types.subtype import is_subtype, map_instance_to_supertype
from veritype.evaluate.abstract_class_objects import abstract_class_given, call_message
from veritype.evaluate.await_hint import subtype_notes
from veritype.evaluate.display_items import report_display_items
from veritype.evaluate.dunder_messages import dunder_argument_error
from veritype.evaluate.lambda_returns import report_lambda_return
from veritype.evaluate.variadic_calls import check_variadic_args, variadic_constraints
from veritype.types.tuples import value_items

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

ARG_POS, ARG_STAR, ARG_KW, ARG_STAR2 = "pos", "star", "kw", "star2"


# (Slotted, as CallSite and Matching: each call makes one per argument and
# reads their fields in every test below.)
@dataclass(slots=True)
class Arg:
    """One argument of a call: its kind, keyword name, node and known type."""
    kind: str
    name: str | None = None
    node: ast.expr | None = None
    type: Type | None = None  # known type (for synthesized calls), else inferred from node


Report = Callable[[ast.AST | None, str, str], None]


# What the evaluator reported while recording: node, message, code, severity.
Recorded = tuple[ast.AST | None, str, str, str]


@dataclass(slots=True)
class CallSite:
    """What a call needs from the expression evaluator."""

    ev: "Evaluator"
    infer: Callable[[ast.expr, Type | None], Type]  # infer an argument with an expected type
    report: Report
    node: ast.AST | None
    iterate: Callable[[Type, ast.AST | None], Type]
    expected_ret: Type | None = None
    # The evaluator's recorder (ExprEvaluator.recording) and what reports its
    # records again (ExprEvaluator.replay), where there is one.
    recording: Callable[[bool], AbstractContextManager[list[Recorded]]] | None = None
    # The scope the call is written in, for rules about how an argument is spelled.
    scope: "Scope | None" = None
    replay: Callable[[list[Recorded]], None] | None = None
    # Where given, set to False when the call reads `expected_ret` (a signature
    # with type variables to solve: the only place it is read). A call that never
    # does is checked and typed the same under any expected type. Shared with the
    # sites of the same call made for its overload trials.
    context_free: list[bool] | None = None
    # Whether a call argument inferred without context gives the same under any
    # (ExprEvaluator.context_free_call), where the evaluator's memo knows.
    free_arg: Callable[[ast.expr], bool] | None = None


def recording(site: CallSite, forward: bool) -> AbstractContextManager[list[Recorded]]:
    return site.recording(forward) if site.recording is not None else nullcontext([])


def recorded_errors(seen: list[Recorded]) -> set[tuple[int, str]]:
    """The errors among what was recorded, as (node id, message)."""
    return {(id(node), msg) for node, msg, _code, severity in seen if severity == "error"}


class Collect:
    def __init__(self) -> None:
        self.errors: list[tuple[ast.AST | None, str, str]] = []

    def __call__(self, node: ast.AST | None, msg: str, code: str) -> None:
        self.errors.append((node, msg, code))


def callable_name(t: CallableType | Overloaded) -> str | None:
    """How a message names the callee, as mypy: `"f"`, a method `"m" of "C"`
    (`Too many arguments for "append" of "list"`); None for a callable without a
    name (a lambda, a `Callable[...]` value), which mypy's messages leave out."""
    if not t.name or t.name == "lambda":
        return None
    owner = callable_owner(t)
    return f'"{t.name}" of "{owner}"' if owner is not None else f'"{t.name}"'


def for_function(t: CallableType) -> str:
    """` for "f"` after an arity message, nothing for a callable without a name."""
    name = callable_name(t)
    return f" for {name}" if name is not None else ""


def to_function(t: CallableType) -> str:
    """` to "f"` after an argument's number or name, nothing for a callable without a name."""
    name = callable_name(t)
    return f" to {name}" if name is not None else ""


# -- argument to parameter mapping ---------------------------------------------------


@dataclass(slots=True)
class Matching:
    """Which arguments go to which parameter of a signature, and the errors found on the way."""
    # For each parameter index, the argument indices mapped to it.
    slots: list[list[int]]
    errors: list[tuple[ast.AST | None, str, str]]

    def has_arity_error(self) -> bool:
        """Whether an argument has no parameter or a parameter no argument (a
        `call-arg` error): the call's arguments are then not checked."""
        for _, _, code in self.errors:
            if code == "call-arg":
                return True
        return False


# The error a quiet match_arguments stops at.
_UNWORDED = (None, "", "call-arg")


def match_arguments(site: CallSite, callee: CallableType, args: list[Arg], arg_types: list[Type], quiet: bool = False) -> Matching:
    """The arguments mapped to the parameters, and the arity errors. `quiet` (the
    overload arity filter, which drops an item with any error) stops at the first
    error, its message left unworded: whether there is one is the same."""
    params = callee.params
    # (A callable `(...)` drops the errors found: never quiet, which would keep one.)
    quiet = quiet and not callee.is_ellipsis
    slots: list[list[int]] = [[] for _ in params]
    errors: list[tuple[ast.AST | None, str, str]] = []
    # The parameters by kind, worked out once per callable (this runs for every
    # signature tried at every call: once per overload item in the arity filter,
    # once per check).
    shape = shape_of(callee)
    positional = shape.positional
    npos = len(positional)
    kw_only = shape.kw_only
    star_index = shape.star_index
    kw_index = shape.kw_index
    keywords = shape.keywords
    pos_cursor = 0
    has_star_arg = False
    has_star2_arg = False
    unexpected_kw = False
    # Arity errors go at the call expression, once per message, as mypy
    # reports them (not at each surplus argument).
    at = site.node
    surplus_pos = 0
    too_many = False
    dup_kw: set[int] = set()
    for ai, arg in enumerate(args):
        if arg.kind == ARG_POS:
            if pos_cursor < npos:
                slots[positional[pos_cursor]].append(ai)
                pos_cursor += 1
            elif star_index is not None:
                slots[star_index].append(ai)
            elif surplus_pos < len(kw_only):
                # Like mypy, a surplus positional argument lands on the next
                # keyword-only parameter ("Too many positional arguments",
                # reported below); that parameter then does not count as missing.
                surplus_pos += 1
            elif not too_many:
                too_many = True
                if quiet:
                    return Matching(slots, [_UNWORDED])
                errors.append((at or arg.node, f"Too many arguments{for_function(callee)}", "call-arg"))
        elif arg.kind == ARG_STAR:
            has_star_arg = True
            # Fixed tuples were spread to positional arguments already
            # (call_dispatch.expand_star_tuples); any other iterable fills what is left.
            while pos_cursor < npos:
                slots[positional[pos_cursor]].append(ai)
                pos_cursor += 1
            if star_index is not None:
                slots[star_index].append(ai)
        elif arg.kind == ARG_KW:
            idx = keywords.get(arg.name) if arg.name is not None else None
            if idx is not None:
                if idx in kw_only[:surplus_pos]:
                    dup_kw.add(idx)
                    if quiet:
                        return Matching(slots, [_UNWORDED])
                    errors.append((at or arg.node, f'{callable_name(callee) or "Function"} gets multiple values for keyword argument "{arg.name}"', "misc"))
                elif slots[idx] and not (args[slots[idx][0]].kind in (ARG_STAR, ARG_STAR2)):
                    if quiet:
                        return Matching(slots, [_UNWORDED])
                    errors.append((at or arg.node, f'{callable_name(callee) or "Function"} gets multiple values for keyword argument "{arg.name}"', "misc"))
                elif not slots[idx]:
                    slots[idx].append(ai)
            elif kw_index is not None:
                slots[kw_index].append(ai)
            else:
                if callee.is_ellipsis:
                    continue
                if quiet:
                    return Matching(slots, [_UNWORDED])
                msg = f'Unexpected keyword argument "{arg.name}"{for_function(callee)}'
                errors.append((at or arg.node, msg, "call-arg"))
                unexpected_kw = True
        elif arg.kind == ARG_STAR2:
            has_star2_arg = True
            t = arg_types[ai]
            if isinstance(t, TypedDictType):
                for key, _vt in t.items:
                    idx = keywords.get(key)
                    if idx is not None and not slots[idx]:
                        slots[idx].append(ai)
                    elif idx is not None and not any(args[j].kind in (ARG_STAR, ARG_STAR2) for j in slots[idx]):
                        # `f(v1=1, **td)` where the TypedDict has a `v1` key: a
                        # TypeError at runtime; mypy's message.
                        if quiet:
                            return Matching(slots, [_UNWORDED])
                        errors.append((at or arg.node, f'{callable_name(callee) or "Function"} gets multiple values for keyword argument "{key}"', "misc"))
                    elif kw_index is not None:
                        slots[kw_index].append(ai)
                continue
            for i, p in enumerate(params):
                if p.kind in (POS_OR_KW, KW_ONLY) and not slots[i]:
                    slots[i].append(ai)
            if kw_index is not None:
                slots[kw_index].append(ai)
    if callee.is_ellipsis:
        return Matching(slots, [])
    if surplus_pos and any(i not in dup_kw for i in kw_only[:surplus_pos]):
        if quiet:
            return Matching(slots, [_UNWORDED])
        errors.append((at, f"Too many positional arguments{for_function(callee)}", "call-arg"))
    # After an "Unexpected keyword argument" error mypy reports no missing
    # argument (check_argument_count: `not is_unexpected_arg_error`): the
    # keyword was most likely meant for the parameter that looks missing.
    if unexpected_kw:
        return Matching(slots, errors)
    missing_pos: list[Param] = []
    missing_kw: list[Param] = []
    for i, p in enumerate(params):
        if slots[i] or p.has_default:
            continue
        if p.kind == POS_ONLY or p.kind == POS_OR_KW:
            missing_pos.append(p)
        elif p.kind == KW_ONLY and i not in kw_only[:surplus_pos]:
            missing_kw.append(p)
    if missing_pos and not has_star_arg:
        if quiet:
            return Matching(slots, [_UNWORDED])
        name = callable_name(callee)
        # A positional-only parameter has no name for the message (mypy: "Too few arguments").
        names = [p.name for p in missing_pos if p.name and p.kind != POS_ONLY] if name is not None else []
        if len(missing_pos) == 1 and names:
            errors.append((site.node, f'Missing positional argument "{names[0]}" in call to {name}', "call-arg"))
        elif names and len(names) == len(missing_pos):
            quoted = ", ".join(f'"{n}"' for n in names)
            errors.append((site.node, f"Missing positional arguments {quoted} in call to {name}", "call-arg"))
        else:
            errors.append((site.node, f"Too few arguments{for_function(callee)}", "call-arg"))
    if missing_kw and not has_star2_arg:
        if quiet:
            return Matching(slots, [_UNWORDED])
        for p in missing_kw:
            errors.append((site.node, f'Missing named argument "{p.name}"{for_function(callee)}', "call-arg"))
    return Matching(slots, errors)


# -- checking one signature ------------------------------------------------------------


def _context_sensitive(node: ast.expr | None) -> bool:
    return type(node) in CONTEXT_SENSITIVE


def has_star_arg(args: list[Arg]) -> bool:
    for a in args:
        if a.kind == ARG_STAR:
            return True
    return False


def _arg_actual(site: CallSite, arg: Arg, t: Type, param: Param) -> Type:
    """The type that flows into `param` from `arg` (an item for *xs and **kw)."""
    if arg.kind == ARG_STAR and param.kind != VAR_POS or arg.kind == ARG_STAR and param.kind == VAR_POS:
        if isinstance(t, TupleType):
            return make_union(value_items(t)) if t.items else NeverType()
        return site.iterate(t, arg.node)
    if arg.kind == ARG_STAR2:
        if isinstance(t, TypedDictType):
            m = t.item_map()
            if param.name in m:
                return m[param.name]  # type: ignore[index]
            return make_union(list(m.values())) if m else AnyType("special")
        if isinstance(t, Instance):
            mapping = site.ev.instance("typing.Mapping")
            if isinstance(mapping, Instance):
                mapped = map_instance_to_supertype(t, mapping.info)
                if mapped is not None and len(mapped.args) == 2:
                    return mapped.args[1]
        return AnyType("special")
    return t


def check_signature(site: CallSite, callee: CallableType, args: list[Arg], report: Report,
                    prepared: tuple[list[Type], Matching] | None = None, held_back: bool = False,
                    plain: list[Type] | bool | None = None) -> Type:
    """Check a call of `callee` and give its return type. `prepared` is the arguments'
    types without context and their matching to `callee`, where the caller has them
    already (the overload arity filter): both depend only on the site, the callee
    and the arguments, so they are not computed twice. An overload item tried
    with its reports `held_back` only needs to know whether there is an error: it
    stops at the first argument that does not fit, its message left unworded.
    `plain`, where the caller asked already (call_expressions, of a callee without
    type variables): False if not a plain call (call_plain), else the arguments'
    types, which do not fit plainly."""
    if prepared is not None:
        # (this check re-infers some in context: a copy)
        return _check_matched(site, callee, args, list(prepared[0]), prepared[1], report, held_back, None)
    if plain is None and not callee.type_vars:
        plain = plain_call(site.ev, callee, args, site.infer)
        if plain is True or (plain is False and _fits_known(site.ev, callee, args)):
            return callee.ret
    if plain:
        plain_types: list[Type] = plain  # type: ignore[assignment]
        matching = match_arguments(site, callee, args, plain_types)
        return _check_matched(site, callee, args, plain_types, matching, report, held_back, {}, [])
    arg_types: list[Type] = []
    # What an argument inferred again with its parameter's type reported without
    # context is held back, and reported only if no such inference happens: mypy
    # infers the arguments of a callee that is not overloaded in their parameter's
    # context only, so `k(Box(1))` for `k(b: Box[str])` is the arg-type of `Box(1)`
    # against `str`, not also the type-var of `Box(1)` alone (T bounded by str).
    held: dict[int, list[Recorded]] = {}
    # Such an argument of a callee without type variables is inferred only in its
    # parameter's context where it will be (see _later): its type without context
    # would be read by nothing but the matching of a `**` argument.
    later: list[int] | None = [] if not callee.type_vars and site.recording is not None else None
    for ai, a in enumerate(args):  # (initial_type, inlined: this runs for every argument of every call)
        if a.type is not None:
            arg_types.append(a.type)
        elif site.recording is not None and (a.kind == ARG_POS or a.kind == ARG_KW) and type(a.node) in RE_INFERRED:
            if later is not None:
                later.append(ai)
                arg_types.append(_NOT_YET)
                continue
            with site.recording(False) as seen:
                arg_types.append(site.infer(a.node, None))  # type: ignore[arg-type]  # (a node: its class is in RE_INFERRED)
            if seen:
                held[ai] = seen
        else:
            arg_types.append(site.infer(a.node, None))  # type: ignore[arg-type]
    matching = match_arguments(site, callee, args, arg_types)
    if later:
        later = _later(site, callee, args, arg_types, matching, later, held)
    ret = _check_matched(site, callee, args, arg_types, matching, report, held_back, held, later)
    if held and site.replay is not None:
        for seen in held.values():
            site.replay(seen)
    return ret


def plain_call(ev: "Evaluator", callee: CallableType, args: list[Arg], infer: Callable[[ast.expr, Type | None], Type]) -> list[Type] | bool:
    """check_signature's first case, for a callee without type variables (`isinstance(x,
    C)`, `len(xs)`, `f(a, b)`: most calls): False where `args` are not a plain positional
    call of `callee` (call_plain.plain_positional). Else each argument is inferred once
    without context by `infer`, as check_signature would; True where each fits its
    parameter (fits_plainly: _check_matched would report nothing and give the declared
    return type, given then without matching), else the arguments' types, from which
    the call is checked."""
    nodes: list[ast.expr] = []
    for a in args:
        if a.kind != ARG_POS or a.type is not None:
            return False  # (a keyword, a `*`, or an argument of a known type: not plain)
        nodes.append(a.node)  # type: ignore[arg-type]
    if not plain_positional(callee, nodes):
        return False
    types: list[Type] = []  # (a loop, not a list comprehension: one call less per call)
    for n in nodes:
        types.append(infer(n, None))
    return True if fits_plainly(ev, callee, nodes, types) else types


def _fits_known(ev: "Evaluator", callee: CallableType, args: list[Arg]) -> bool:
    """For a callee without type variables: whether each argument is a positional one
    of a known type (call_types: an operator's dunder, `__iter__`...), they go to the
    parameters at their positions (call_plain.plain_arity), and each type is assignable
    to its parameter's, which is no `type[...]` (whose check looks at the argument
    expression). _check_matched then reports nothing (no argument is inferred again:
    each has its type) and gives the declared return type."""
    params = callee.params
    for a in args:
        if a.kind != ARG_POS or a.type is None:
            return False
    if not plain_arity(callee, len(args)):
        return False
    for i, a in enumerate(args):
        expected = params[i].type
        if type(expected) is TypeType or (a.type is not expected and not is_subtype(ev, a.type, expected)):  # type: ignore[arg-type]
            return False
    return True


# The type of an argument not inferred yet (check_signature's `later`).
_NOT_YET = AnyType("special")


def _later(site: CallSite, callee: CallableType, args: list[Arg], arg_types: list[Type], matching: Matching,
           later: list[int], held: dict[int, list[Recorded]]) -> list[int]:
    """Of the arguments `later` (context-sensitive, of a callee without type
    variables), those _check_matched will infer in their parameter's context;
    the others are inferred without context now, what they report held back as
    check_signature does. The same types and reports as inferring all of them
    first (only that one is dropped: nothing read it), and one inference less."""
    kept: list[int] = []
    if not matching.has_arity_error():  # (else _check_matched stops first)
        together = shape_of(callee).together
        for pi, slot in enumerate(matching.slots):
            if not slot or pi in together:
                continue  # (their arguments are not inferred again in _check_matched)
            kept += [ai for ai in slot if ai in later]
    for ai in later:
        if ai not in kept:
            with recording(site, False) as seen:
                arg_types[ai] = site.infer(args[ai].node, None)  # type: ignore[arg-type]
            if seen:
                held[ai] = seen
    return kept


def _check_matched(site: CallSite, callee: CallableType, args: list[Arg], arg_types: list[Type], matching: Matching, report: Report,
                   held_back: bool, held: dict[int, list[Recorded]] | None, later: list[int] | None = None) -> Type:
    """check_signature once the arguments are inferred without context and matched;
    an argument inferred again in context is dropped from `held`. The arguments
    `later` were not inferred without context (see _later)."""
    ev = site.ev
    for node, msg, code in matching.errors:
        report(node, msg, code)
    if matching.errors and matching.has_arity_error():
        return _ret_after_error(callee)
    targets = {tv_key(v) for v in callee.type_vars} if callee.type_vars else set()
    if targets and site.context_free is not None:
        site.context_free[0] = False  # variables to solve: the context is read
    if targets and site.expected_ret is not None:
        # mypy solves from the return context first and checks the arguments
        # against that (evaluate/context_first.py).
        fixed = solve_from_context(ev, callee, site.expected_ret, targets)
        if fixed:
            callee = substitute(callee, fixed)  # type: ignore[assignment]
            targets = {tv_key(v) for v in callee.type_vars}
    mapping: dict = {}
    # Overloaded arguments whose item was picked by literal argument types:
    # they are checked against the parameter with those literals.
    picked: dict[int, dict] = {}  # type: ignore[type-arg]
    if targets:
        cons = []
        lambdas: list[tuple[int, Param]] = []
        overloads: list[tuple[int, Param]] = []
        for pi, p in enumerate(callee.params):
            if isinstance(p.type, UnpackType):
                # `*args: *Ts` (PEP 646): the arguments together are one tuple.
                slot = matching.slots[pi]
                cons += variadic_constraints(site, p, [args[i] for i in slot], [arg_types[i] for i in slot], targets)
                continue
            for ai in matching.slots[pi]:
                arg = args[ai]
                t = arg_types[ai]
                if isinstance(arg.node, ast.Lambda) and arg.type is None and type_vars_in(p.type).keys() & targets:
                    # Second pass (as mypy): a lambda's parameters come from
                    # what the other arguments solve (`map(lambda n: n * 2, [1])`).
                    lambdas.append((ai, p))
                    continue
                if isinstance(t, Overloaded) and isinstance(p.type, CallableType) and _params_mention(p.type, targets):
                    # Second pass too (as mypy): the item an overloaded function stands
                    # for is picked by the parameter types the other arguments solve
                    # (`run_sync(tempfile.mkdtemp, suffix, prefix, dir)`).
                    overloads.append((ai, p))
                    continue
                if arg.node is not None and _context_sensitive(arg.node) and arg.type is None and arg.kind in (ARG_POS, ARG_KW):
                    # Infer with the parameter's type as context where it has no variables.
                    ctx = p.type if not type_vars_in(p.type).keys() & targets else erase_to_any(p.type, targets)
                    t = site.infer(arg.node, ctx)
                    arg_types[ai] = t
                    if held:
                        held.pop(ai, None)
                actual = _arg_actual(site, arg, t, p)
                slots = forwarding_slots(callee, p.type) if isinstance(actual, CallableType) and actual.type_vars else []
                if slots:
                    # A generic function passed for `Callable[P, R]` (`ctx.run(self._spawn, coro)`)
                    # or `Callable[[*Ts], R]`, its arguments passed on by this call.
                    actual = solve_passed_generic(site, args, arg_types, matching, slots, actual)  # type: ignore[arg-type]
                cons += infer_constraints(ev, p.type, actual, SUBTYPE, targets)
        if lambdas or overloads:
            partial = solve(ev, callee.type_vars, cons) if cons else {}
            constrained = {c.key for c in cons}
            known = {k: v for k, v in partial.items() if k in constrained and v is not None and not isinstance(v, (AnyType, NeverType))}
            for ai, p in overloads:
                over = arg_types[ai]
                assert isinstance(over, Overloaded)

                # The arguments' literal types pick the item (`Path.open` with "rb").
                exact = solve(ev, callee.type_vars, cons, keep_literals=True)
                exact = {k: v for k, v in exact.items() if k in known}
                item = matching_overload_item(ev, over.items, substitute(p.type, exact), targets) if exact else None
                if item is not None:
                    picked[ai] = exact
                cons += infer_constraints(ev, p.type, item if item is not None else over, SUBTYPE, targets)
            for ai, p in lambdas:
                ctx = erase_to_any(substitute(p.type, known) if known else p.type, targets)
                t = site.infer(args[ai].node, ctx)  # type: ignore[arg-type]
                arg_types[ai] = t
                if held:
                    held.pop(ai, None)
                cons += infer_constraints(ev, p.type, _arg_actual(site, args[ai], t, p), SUBTYPE, targets)
        ret_cons = []
        if site.expected_ret is not None and not isinstance(site.expected_ret, AnyType):
            ret_cons = infer_constraints(ev, callee.ret, site.expected_ret, SUPERTYPE, targets)
            have = {c.key for c in cons}
            cons += [c for c in ret_cons if c.key not in have]
        mapping = solve(ev, callee.type_vars, cons)
        # A union context is tried whole, then member by member (`params=list(pairs)`
        # for `QueryParams | list[tuple[str, PrimitiveData]] | ...`), as mypy does.
        contexts = [(ret_cons, site.expected_ret)]
        if isinstance(site.expected_ret, UnionType):
            contexts += [(infer_constraints(ev, callee.ret, item, SUPERTYPE, targets), item) for item in site.expected_ret.items]
        for ctx_cons, _ctx in contexts:
            if not ctx_cons or is_subtype(ev, substitute(callee.ret, mapping), site.expected_ret):  # type: ignore[arg-type]
                continue
            # The return type context decides where the arguments allow it
            # (`x: list[int | None] = list(strs)` makes T = int | None), as in mypy.
            from_ret = solve(ev, callee.type_vars, ctx_cons)
            trial = dict(mapping)
            for c in ctx_cons:
                sol = from_ret.get(c.key)
                if sol is not None and not isinstance(sol, AnyType):
                    lowers = [x.target for x in cons if x.key == c.key and x.direction == SUBTYPE]
                    if all(is_subtype(ev, lo, sol) for lo in lowers):
                        trial[c.key] = sol
            if is_subtype(ev, substitute(callee.ret, trial), site.expected_ret):  # type: ignore[arg-type]
                mapping = trial
                break
        free = _free_in_returned_callable(callee, cons)
        for tv in free:
            mapping.pop(tv_key(tv), None)
        if not ret_cons and len(contexts) > 1:
            # A union context none of whose members but one can constrain the return
            # (`Box[str] | None`) in a way the variables allow (their bounds):
            # that member's constraints (mypy's any_constraints, filter_satisfiable).
            usable = [c for c, _ in contexts[1:] if c and _satisfiable(ev, callee, c, targets)]
            if len(usable) == 1:
                ret_cons = usable[0]
        ctx_sols = solve(ev, callee.type_vars, ret_cons) if ret_cons else {}
        for tv in callee.type_vars:
            sol = mapping.get(tv_key(tv))
            if sol is None or isinstance(sol, AnyType) or tv.kind != "typevar" or (tv.upper_bound is None and not tv.values) \
                    or fits_type_var(ev, sol, tv, targets):  # (any value fits a variable without bound or values)
                continue
            ctx_sol = ctx_sols.get(tv_key(tv))
            if ctx_sol is not None and not isinstance(ctx_sol, AnyType) and fits_type_var(ev, ctx_sol, tv, targets):
                # mypy solves from the return context first: the arguments are then
                # checked against that solution (arg-type), not the variable (type-var).
                mapping[tv_key(tv)] = ctx_sol
                continue
            report(site.node, f'Value of type variable "{tv.name}" of {callable_name(callee) or "function"} cannot be "{format_type(sol)}"', "type-var")
            mapping[tv_key(tv)] = AnyType("error")
    together = shape_of(callee).together  # (of the callee as solved from the context, if it was)
    for pi, p in enumerate(callee.params):
        slot = matching.slots[pi]
        if not slot and p.kind != VAR_POS:
            continue  # no argument for it (only an unpacked `*args` may want some)
        if pi in together:  # (types.param_shape.checks_arguments_together)
            if isinstance(p.type, UnpackType):
                check_variadic_args(site, callee, p, slot, args, arg_types, mapping, report)
            # (`*args: P.args`: P stands for a whole signature, not an argument's
            # type; these arguments are not checked here: Any, silence.)
            continue
        if not slot:
            continue
        expected = substitute(p.type, mapping) if mapping else p.type
        for ai in slot:
            arg = args[ai]
            t = arg_types[ai]
            plain = arg.kind == ARG_POS or arg.kind == ARG_KW
            if not plain and paramspec_component(t) is not None:
                continue  # `*args: P.args` spread here: judged in paramspec_calls
            # (A `*xs` / `**kw` argument is not one value of the parameter's type: no context.)
            node = arg.node
            if plain and node is not None and arg.type is None and (
                    type(node) in RE_INFERRED or isinstance(expected, (TypeFormType, UnionType)) and expects_type_form(expected, node)):
                # (A TypeForm parameter reads its argument as a type expression: PEP 747.)
                t = site.infer(node, expected)
                arg_types[ai] = t
                if held:
                    held.pop(ai, None)
            actual = t if plain else _arg_actual(site, arg, t, p)
            if ai in picked and not is_subtype(ev, actual, expected) and is_subtype(ev, actual, substitute(p.type, {**mapping, **picked[ai]})):
                continue
            if is_subtype(ev, actual, expected):
                if arg.kind in (ARG_POS, ARG_KW) and isinstance(expected, TypeType):
                    if abstract_class_given(ev, site.scope, arg.node, expected):
                        report(arg.node, call_message(expected), "type-abstract")
            elif held_back:
                report(arg.node or site.node, "", "arg-type")
                return _ret_after_error(callee)
            else:
                if later and ai in later:
                    # What reports an error may ask for the argument's type without
                    # context (an index's, "Invalid index type"): inferred as it would
                    # have been first, what it reports dropped, as it then would be.
                    with recording(site, False):
                        site.infer(node, None)  # type: ignore[arg-type]
                if arg.kind in (ARG_POS, ARG_KW) and isinstance(arg.node, (ast.List, ast.Set, ast.Dict, ast.GeneratorExp)) and arg.type is None \
                        and not _mentions_own_type_vars(callee, p.type):
                    # A display passed for a container parameter: its bad items are
                    # reported (`List item 0 has incompatible type ...` [list-item]),
                    # as mypy does, not the whole argument. For a parameter typed with
                    # the callee's own type variables mypy infers the display first and
                    # reports the whole argument (`arg-type`: `MultiDict([probe])`).
                    if report_display_items(ev, site.infer, lambda n, m, c: report(n, m, c), arg.node, expected):
                        continue
                # Star arguments are shown whole ("*list[str]"), as mypy does.
                shown = widen_literals(t) if arg.kind in (ARG_STAR, ARG_STAR2) else actual

                worded = dunder_argument_error(site.node, callee.name, ai + 1, shown, expected, site.infer) if arg.kind in (ARG_POS, ARG_STAR) else None
                msg, code = worded if worded is not None else (_arg_message(callee, args, ai, p, shown, expected), "arg-type")
                report(arg.node or site.node, msg, code)

                report_lambda_return(ev, arg.node, actual, expected, report)

                for n in subtype_notes(ev, actual, expected):
                    report(arg.node or site.node, n, "note")  # a Report's "note" code is a note
    # The ParamSpec rules concern a `*args` argument (that may be `*args: P.args`) or a
    # callee ending in `**kwargs` (that may be `**kwargs: P.kwargs`); most calls have neither.
    params = callee.params
    paramspec_rules = bool(params) and params[-1].kind == VAR_KW
    if not paramspec_rules:
        for a in args:
            if a.kind == ARG_STAR:
                paramspec_rules = True
                break
    if paramspec_rules:
        check_paramspec_arguments(site, callee, args, arg_types, matching, mapping, targets, report)
    ret = substitute(callee.ret, mapping) if mapping else callee.ret
    if targets and isinstance(ret, CallableType):
        free = _free_in_returned_callable(callee, cons)
        if free:
            import dataclasses

            ret = dataclasses.replace(ret, type_vars=ret.type_vars + tuple(v for v in free if v not in ret.type_vars))
    return ret


def _satisfiable(ev: "Evaluator", callee: CallableType, cons: list, targets: set) -> bool:  # type: ignore[type-arg]
    """Whether what `cons` solve each variable of `callee` to fits it."""
    sols = solve(ev, callee.type_vars, cons)
    for tv in callee.type_vars:
        sol = sols.get(tv_key(tv))
        if sol is not None and not isinstance(sol, AnyType) and tv.kind == "typevar" and not fits_type_var(ev, sol, tv, targets):
            return False
    return True


def _free_in_returned_callable(callee: CallableType, cons: list) -> list[TypeVarType]:  # type: ignore[type-arg]
    """Type variables no argument constrains that the returned callable mentions.

    As mypy does, they stay free and the returned callable is generic in them:
    `lru_cache(maxsize=None)` is `def [_T] (def (...) -> _T) -> _lru_cache_wrapper[_T]`,
    so a decorator factory's result still solves at the decorated function.
    """
    if not isinstance(callee.ret, CallableType):
        return []
    constrained = {c.key for c in cons}
    mentioned = type_vars_in(callee.ret)
    # One a parameter names outside a callable type (`cl: type[T]` given a plain
    # `type`) is not freed: mypy's polymorphic inference fails there and T is
    # Never (we say Any), not a generic `def [T] (T) -> ...` (cattrs).
    in_params: set = set()  # type: ignore[type-arg]
    for p in callee.params:
        if not isinstance(p.type, CallableType):
            in_params |= type_vars_in(p.type).keys()
    return [tv for tv in callee.type_vars
            if tv_key(tv) not in constrained and tv.default is None and tv_key(tv) in mentioned and tv_key(tv) not in in_params]


def _params_mention(t: CallableType, targets: set) -> bool:  # type: ignore[type-arg]
    return any(type_vars_in(p.type).keys() & targets for p in t.params)


def initial_type(site: CallSite, arg: Arg) -> Type:
    if arg.type is not None:
        return arg.type
    assert arg.node is not None
    return site.infer(arg.node, None)


def _ret_after_error(callee: CallableType) -> Type:
    if callee.type_vars:
        return substitute(callee.ret, {tv_key(v): AnyType("error") for v in callee.type_vars})
    return callee.ret


def _arg_message(callee: CallableType, args: list[Arg], ai: int, p: Param, actual: Type, expected: Type) -> str:
    sa, se = format_pair(actual, expected)
    to = to_function(callee)
    arg = args[ai]
    if arg.kind == ARG_KW:
        return f'Argument "{arg.name}"{to} has incompatible type "{sa}"; expected "{se}"'
    if arg.kind == ARG_STAR:
        return f'Argument {ai + 1}{to} has incompatible type "*{sa}"; expected "{se}"'
    if arg.kind == ARG_STAR2:
        return f'Argument {ai + 1}{to} has incompatible type "**{sa}"; expected "{se}"'
    return f'Argument {ai + 1}{to} has incompatible type "{sa}"; expected "{se}"'


def _mentions_own_type_vars(callee: CallableType, t: Type) -> bool:
    """Whether the parameter type `t` uses a type variable `callee` binds."""
    if not callee.type_vars:
        return False
    from veritype.types.substitute import tv_key, type_vars_in

    own = {tv_key(v) for v in callee.type_vars}
    return bool(type_vars_in(t).keys() & own)
