"""Calls to a function whose `*args` is unpacked (PEP 646): `*args: *Ts`,
`*args: *tuple[int, *Ts, str]`.

The positional arguments that land on such a `*args` are taken together as one
tuple (spec, "TypeVarTuple", "*args as a Type Variable Tuple": "the types of the
individual arguments become the types in the type variable tuple"), which
solves the TypeVarTuple and is then checked against the solved tuple. Simpler
forms (`*args: *tuple[int, str]`, `*args: *tuple[int, ...]`) were spelled out
as plain parameters before matching (`tuples.expand_star_params`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, CallableType, Instance, Overloaded, Param, TupleType, Type, UnpackType
from veritype.types.param_shape import shape_of
from veritype.types.solve import SUBTYPE, Constraint, infer_constraints
from veritype.types.subtype import is_subtype
from veritype.types.substitute import TVKey, substitute
from veritype.types.tuples import align, expand_star_params, star_tuple

if TYPE_CHECKING:
    from veritype.evaluate.calls import Arg, CallSite, Report

ARG_STAR = "star"  # calls.ARG_STAR (calls imports this module, so it is not imported from there)


def _template(site: "CallSite", p: Param) -> Type | None:
    info = site.ev.named_class("builtins.tuple")
    if info is None or not isinstance(p.type, UnpackType):
        return None
    return star_tuple(p.type, info)


def _actual(site: "CallSite", args: "list[Arg]", types: list[Type]) -> Type | None:
    """The tuple of the arguments, or None when one is `*xs` (its length is unknown)."""
    if any(a.kind == ARG_STAR for a in args):
        return None
    return site.ev.tuple_of(list(types))


def variadic_constraints(site: "CallSite", p: Param, args: "list[Arg]", types: list[Type], targets: set[TVKey]) -> list[Constraint]:
    template = _template(site, p)
    if template is None:
        return []
    actual = _actual(site, args, types)
    return infer_constraints(site.ev, template, actual if actual is not None else AnyType("special"), SUBTYPE, targets)


def check_variadic_args(site: "CallSite", callee: "CallableType", p: Param, arg_indices: list[int], all_args: "list[Arg]", all_types: list[Type], mapping: dict, report: "Report") -> None:  # type: ignore[type-arg]
    from veritype.evaluate.calls import _arg_message, for_function

    template = _template(site, p)
    args = [all_args[i] for i in arg_indices]
    types = [all_types[i] for i in arg_indices]
    actual = _actual(site, args, types)
    if template is None or actual is None:
        return
    expected = substitute(template, mapping) if mapping else template
    if isinstance(expected, AnyType) or is_subtype(site.ev, actual, expected):
        return
    if isinstance(expected, Instance):
        per: list[Type] | None = [expected.args[0] if expected.args else AnyType("special")] * len(types)
    elif isinstance(expected, TupleType):
        per = align(expected, len(types))
        if per is None and any(isinstance(i, UnpackType) and not isinstance(i.item, Instance) for i in expected.items):
            return  # an unsolved TypeVarTuple part: unknown
    else:
        return
    if per is None:
        assert isinstance(expected, TupleType)
        fixed = sum(1 for i in expected.items if not isinstance(i, UnpackType))
        few = len(types) < fixed
        report(site.node, f"{'Too few' if few else 'Too many'} arguments{for_function(callee)}", "call-arg")
        return
    for ai, t, want in zip(arg_indices, types, per):
        if not is_subtype(site.ev, t, want):
            report(all_args[ai].node or site.node, _arg_message(callee, all_args, ai, p, t, want), "arg-type")
            return


def expand(callee: Type) -> Type:
    """The callee with its unpacked `*args` spelled out where it can be."""
    # (This runs for every call, and almost no signature has an unpacked `*args`:
    # the callable's shape knows. Only a `*args` parameter is spelled out, see
    # expand_star_params.)
    if type(callee) is CallableType:
        return expand_star_params(callee) if shape_of(callee).unpacked_star else callee  # type: ignore[arg-type]
    if type(callee) is Overloaded:
        for c in callee.items:
            if shape_of(c).unpacked_star:
                return Overloaded(tuple(expand_star_params(c) for c in callee.items), callee.name)
    return callee

