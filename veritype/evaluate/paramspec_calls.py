"""Calls that pass `*args: P.args, **kwargs: P.kwargs` (spec, "ParamSpec Variables").

Two rules, checked after the ordinary argument checks of `calls.check_signature`:

- A callee's own ParamSpec `P`, solved from another argument (`twice(f, 1, "A")`
  for `def twice(f: Callable[P, int], *args: P.args, **kwargs: P.kwargs)`):
  the arguments for `*args` / `**kwargs` must fit the signature P was solved
  to ("the arguments ... must be valid for the signature of f").
- A ParamSpec of an enclosing function (a callable typed `Callable[P, R]`
  called inside a `*args: P.args, **kwargs: P.kwargs` function): "the only
  arguments allowed there are exactly `*args` and `**kwargs`" of that P, and
  a `*args: P.args` spread into an ordinary parameter gives only `object`s.

Inside the function, `args` is `tuple[P, ...]` and `kwargs` `dict[str, P]`
(functions.function_scope); these are recognized here as P.args / P.kwargs.
Messages follow mypy's.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from veritype.types.model import VAR_KW, VAR_POS, AnyType, CallableType, Instance, Type, TypeVarType
from veritype.types.substitute import paramspec_tail, substitute, tv_key
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.calls import Arg, CallSite, Matching, Report


def component(t: Type) -> tuple[str, TypeVarType] | None:
    """("args", P) for the type of `args` in a `*args: P.args` function, ("kwargs", P) for `kwargs`."""
    if isinstance(t, Instance):
        name = t.info.fullname
        if name == "builtins.tuple" and len(t.args) == 1 and _is_spec(t.args[0]):
            return ("args", t.args[0])  # type: ignore[return-value]
        if name == "builtins.dict" and len(t.args) == 2 and _is_spec(t.args[1]):
            return ("kwargs", t.args[1])  # type: ignore[return-value]
    return None


def _is_spec(t: Type) -> bool:
    return isinstance(t, TypeVarType) and t.kind == "paramspec"


def check_paramspec_arguments(site: "CallSite", callee: CallableType, args: "list[Arg]", arg_types: list[Type],
                              matching: "Matching", mapping: dict, targets: set, report: "Report") -> None:  # type: ignore[type-arg]
    from veritype.evaluate.calls import ARG_STAR

    ev = site.ev
    spec = paramspec_tail(callee)
    tail = {i for i, p in enumerate(callee.params) if p.kind in (VAR_POS, VAR_KW) and _is_spec(p.type)} if spec is not None else set()
    # `*args: P.args` spread into ordinary parameters: its items are only `object`s.
    obj = ev.builtin("object")

    for pi, p in enumerate(callee.params):
        if pi in tail:
            continue
        for ai in matching.slots[pi]:
            comp = component(arg_types[ai])
            if args[ai].kind == ARG_STAR and comp is not None and comp[0] == "args":
                expected = substitute(p.type, mapping) if mapping else p.type
                if not is_subtype(ev, obj, expected):
                    report(args[ai].node or site.node, _message(callee, args, ai, f"*{comp[1].name}.args", expected), "arg-type")
    if spec is None:
        return
    if tv_key(spec) in targets:
        _check_solved(site, callee, args, arg_types, matching, mapping, tail, report)
    else:
        _check_forwarded(site, callee, spec, args, arg_types, matching, tail, report)


def _check_forwarded(site: "CallSite", callee: CallableType, spec: TypeVarType, args: "list[Arg]", arg_types: list[Type],
                     matching: "Matching", tail: set[int], report: "Report") -> None:
    from veritype.evaluate.calls import ARG_STAR, ARG_STAR2
    from veritype.types.format import format_type
    from veritype.types.join import widen_literals

    for pi in sorted(tail):
        want = "args" if callee.params[pi].kind == VAR_POS else "kwargs"
        for ai in matching.slots[pi]:
            arg, t = args[ai], arg_types[ai]
            star = ARG_STAR if want == "args" else ARG_STAR2
            if isinstance(t, AnyType) or (arg.kind == star and _any_items(t)):
                # `func(*args, **kwargs)` with `*args: Any, **kwargs: Any`: mypy
                # accepts Any items for P.args / P.kwargs (pytest.raises' body).
                continue
            comp = component(t)
            if arg.kind == star and comp is not None and comp[0] == want and tv_key(comp[1]) == tv_key(spec):
                continue
            if comp is not None and arg.kind in (ARG_STAR, ARG_STAR2):
                shown = ("*" if arg.kind == ARG_STAR else "**") + f"{comp[1].name}.{comp[0]}"
            elif arg.kind in (ARG_STAR, ARG_STAR2):
                shown = ("*" if arg.kind == ARG_STAR else "**") + format_type(t)
            else:
                shown = format_type(widen_literals(t))
            report(arg.node or site.node, _message(callee, args, ai, shown, f"{spec.name}.{want}"), "arg-type")


def _any_items(t: Type) -> bool:
    """`tuple[Any, ...]` / `dict[str, Any]`: a star argument whose items are Any."""
    return isinstance(t, Instance) and t.info.fullname in ("builtins.tuple", "builtins.dict") and bool(t.args) and isinstance(t.args[-1], AnyType)


def _check_solved(site: "CallSite", callee: CallableType, args: "list[Arg]", arg_types: list[Type],
                  matching: "Matching", mapping: dict, tail: set[int], report: "Report") -> None:  # type: ignore[type-arg]
    from veritype.evaluate.calls import Arg, Collect, check_signature

    spec = paramspec_tail(callee)
    assert spec is not None
    in_tail = {ai for pi in tail for ai in matching.slots[pi]}
    elsewhere = {ai for pi, slot in enumerate(matching.slots) if pi not in tail for ai in slot}
    if in_tail & elsewhere:
        return  # a star argument spread over both: not judged (silence)
    # The whole call again with the solved signature and the argument types already
    # inferred; only what concerns the arguments for P is reported (the others had
    # their check). No argument for P at all is checked too: `twice(f)` for
    # `f(x: int)` is mypy's `Missing positional argument "x"`.
    fixed = [Arg(a.kind, a.name, a.node, arg_types[i]) for i, a in enumerate(args)]
    tail_nodes = {id(args[ai].node) for ai in in_tail if args[ai].node is not None}

    def tail_errors(value: CallableType) -> list:  # type: ignore[type-arg]
        solved = substitute(dataclasses.replace(callee, type_vars=()), {**mapping, tv_key(spec): value})
        if not isinstance(solved, CallableType):
            return []
        collect = Collect()
        check_signature(site, solved, fixed, collect)
        return [(node, msg, code) for node, msg, code in collect.errors
                if (node is not None and id(node) in tail_nodes) or (node is site.node and code == "call-arg")]

    value = mapping.get(tv_key(spec))
    if isinstance(value, CallableType) and not value.is_ellipsis:
        for node, msg, code in tail_errors(value):
            report(node, msg, code)
        return
    _check_overloaded_source(site, callee, spec, args, arg_types, matching, tail_errors, report)


def _check_overloaded_source(site: "CallSite", callee: CallableType, spec: TypeVarType, args: "list[Arg]", arg_types: list[Type],
                             matching: "Matching", tail_errors, report: "Report") -> None:  # type: ignore[no-untyped-def]
    """P taken from an overloaded function or a class object with an overloaded
    constructor (`raises(TypeError, int, "3")`): mypy infers P from the
    arguments given for it and then asks whether the function fits
    `Callable[P, R]`, so the call is good when some item of the overload accepts
    those arguments, and else the function's argument is an `arg-type` error."""
    from veritype.types.model import Overloaded, TypeType

    for pi, p in enumerate(callee.params):
        if not (isinstance(p.type, CallableType) and paramspec_tail(p.type) == spec):
            continue
        for ai in matching.slots[pi]:
            source = arg_types[ai]
            if isinstance(source, TypeType):
                source = site.ev.constructor_type(source) or source
            if not isinstance(source, Overloaded):
                continue
            # `Callable[Concatenate[X, P], R]`: P is what follows the prefix.
            prefix = len(p.type.params) - 2
            if any(len(item.params) >= prefix and not tail_errors(item.with_params(item.params[prefix:])) for item in source.items):
                return
            from veritype.types.format import format_type

            shown = "overloaded function" if not isinstance(arg_types[ai], TypeType) else f'"{format_type(arg_types[ai])}"'
            want = _wanted_callable(site, callee, args, arg_types, matching, spec, p.type)
            n = f'"{args[ai].name}"' if args[ai].name else str(ai + 1)
            from veritype.evaluate.calls import to_function

            report(args[ai].node or site.node, f'Argument {n}{to_function(callee)} has incompatible type {shown}; expected "{format_type(want)}"', "arg-type")
        return


def _wanted_callable(site: "CallSite", callee: CallableType, args: "list[Arg]", arg_types: list[Type],
                     matching: "Matching", spec: TypeVarType, formal: CallableType) -> Type:
    """`Callable[P, R]` with P made of the types of the arguments given for it (mypy's expected type)."""
    from veritype.types.join import widen_literals
    from veritype.types.model import POS_ONLY, Param

    tail = [i for i, q in enumerate(callee.params) if q.kind in (VAR_POS, VAR_KW) and q.type == spec]
    params = tuple(Param(None, widen_literals(arg_types[ai]), POS_ONLY) for pi in tail for ai in matching.slots[pi])
    return dataclasses.replace(formal, params=(*formal.params[:-2], *params), type_vars=())


def _message(callee: CallableType, args: "list[Arg]", ai: int, shown: str, expected: Type | str) -> str:
    from veritype.evaluate.calls import ARG_KW, to_function
    from veritype.types.format import format_type

    se = expected if isinstance(expected, str) else format_type(expected)
    arg = args[ai]
    where = to_function(callee)
    if arg.kind == ARG_KW:
        return f'Argument "{arg.name}"{where} has incompatible type "{shown}"; expected "{se}"'
    return f'Argument {ai + 1}{where} has incompatible type "{shown}"; expected "{se}"'

