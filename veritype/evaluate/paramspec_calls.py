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
    from veritype.types.subtype import is_subtype

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
    value = mapping.get(tv_key(spec))
    if not isinstance(value, CallableType) or value.is_ellipsis:
        return
    in_tail = {ai for pi in tail for ai in matching.slots[pi]}
    elsewhere = {ai for pi, slot in enumerate(matching.slots) if pi not in tail for ai in slot}
    if not in_tail or in_tail & elsewhere:
        return  # a star argument spread over both: not judged (silence)
    solved = substitute(dataclasses.replace(callee, type_vars=()), mapping)
    if not isinstance(solved, CallableType):
        return
    # The whole call again with the solved signature and the argument types already
    # inferred; only what concerns the arguments for P is reported (the others had
    # their check).
    fixed = [Arg(a.kind, a.name, a.node, arg_types[i]) for i, a in enumerate(args)]
    collect = Collect()
    check_signature(site, solved, fixed, collect)
    tail_nodes = {id(args[ai].node) for ai in in_tail if args[ai].node is not None}
    for node, msg, code in collect.errors:
        if (node is not None and id(node) in tail_nodes) or (node is site.node and code == "call-arg"):
            report(node, msg, code)


def _message(callee: CallableType, args: "list[Arg]", ai: int, shown: str, expected: Type | str) -> str:
    from veritype.evaluate.calls import ARG_KW, callable_name
    from veritype.types.format import format_type

    se = expected if isinstance(expected, str) else format_type(expected)
    arg = args[ai]
    where = f" to {callable_name(callee)}" if callee.name else ""
    if arg.kind == ARG_KW:
        return f'Argument "{arg.name}"{where} has incompatible type "{shown}"; expected "{se}"'
    return f'Argument {ai + 1}{where} has incompatible type "{shown}"; expected "{se}"'

