"""A generic function passed to a call that also passes its arguments.

`checked_call(os.readlink, path)` for `def checked_call(f: Callable[P, R],
*args: P.args, **kwargs: P.kwargs) -> R`, or `from_thread_run(run_sync, fn)`
for `def from_thread_run(afn: Callable[[*Ts], Awaitable[R]], *args: *Ts) -> R`:
the function given for `f` is called with the arguments for P (or Ts), so
its own type variables are solved from them, as if it were called there; mypy
infers `str` and `int` for these. What they do not solve, or solve to nothing
valid, is Any, rather than leaking into the result as variables of another
scope.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from veritype.types.model import VAR_KW, VAR_POS, AnyType, CallableType, NeverType, Type, TypeVarType, UnpackType
from veritype.types.substitute import substitute, tv_key

if TYPE_CHECKING:
    from veritype.evaluate.calls import Arg, CallSite, Matching


def forwarding_slots(callee: CallableType, template: Type) -> list[int]:
    """The callee's parameters that carry the arguments of the function given for
    `template`: `*args: P.args, **kwargs: P.kwargs` for `Callable[P, R]`, `*args:
    *Ts` for `Callable[[*Ts], R]`. Empty when the call does not pass them."""
    if not isinstance(template, CallableType):
        return []
    tail = [p.type for p in template.params if p.kind in (VAR_POS, VAR_KW)]
    specs = {tv_key(t) for t in tail if isinstance(t, TypeVarType) and t.kind == "paramspec"}
    variadic = {tv_key(t.item) for t in tail if isinstance(t, UnpackType) and isinstance(t.item, TypeVarType)}
    out = []
    for pi, p in enumerate(callee.params):
        if p.kind in (VAR_POS, VAR_KW) and isinstance(p.type, TypeVarType) and tv_key(p.type) in specs:
            out.append(pi)
        elif p.kind == VAR_POS and isinstance(p.type, UnpackType) and isinstance(p.type.item, TypeVarType) and tv_key(p.type.item) in variadic:
            out.append(pi)
    return out if any(callee.params[pi].kind == VAR_POS for pi in out) else []


def solve_passed_generic(site: "CallSite", args: "list[Arg]", arg_types: list[Type],
                         matching: "Matching", slots: list[int], actual: CallableType) -> CallableType:
    """`actual` with its own variables solved from the arguments in `slots`
    (see the module docstring)."""
    from veritype.evaluate.calls import _arg_actual, match_arguments
    from veritype.evaluate.typevar_values import fits_type_var
    from veritype.types.solve import SUBTYPE, infer_constraints, solve

    passed = sorted(ai for pi in slots for ai in matching.slots[pi])
    sub_args = [args[ai] for ai in passed]
    sub_types = [arg_types[ai] for ai in passed]
    own = {tv_key(v) for v in actual.type_vars}
    mapping: dict = {}  # type: ignore[type-arg]
    inner = match_arguments(site, actual, sub_args, sub_types) if sub_args else None
    if inner is not None and not inner.errors:
        cons = []
        for pi, p in enumerate(actual.params):
            if isinstance(p.type, UnpackType):
                from veritype.evaluate.variadic_calls import variadic_constraints

                slot = inner.slots[pi]
                cons += variadic_constraints(site, p, [sub_args[i] for i in slot], [sub_types[i] for i in slot], own)
                continue
            for ai in inner.slots[pi]:
                cons += infer_constraints(site.ev, p.type, _arg_actual(site, sub_args[ai], sub_types[ai], p), SUBTYPE, own)
        solved = solve(site.ev, actual.type_vars, cons)
        for tv in actual.type_vars:
            sol = solved.get(tv_key(tv))
            if sol is None or isinstance(sol, (AnyType, NeverType)):
                continue
            if tv.kind == "typevartuple" or tv.kind == "typevar" and fits_type_var(site.ev, sol, tv, own):
                mapping[tv_key(tv)] = sol
    for tv in actual.type_vars:
        mapping.setdefault(tv_key(tv), AnyType("special"))
    inst = substitute(actual.with_params(actual.params), mapping)
    return dataclasses.replace(inst, type_vars=()) if isinstance(inst, CallableType) else actual
