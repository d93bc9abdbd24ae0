"""The type variables of a generic call solved from its return context first.

mypy (checkexpr `infer_function_type_arguments_using_context`) solves a
generic callee's variables from the type its call is expected to have before
it looks at the arguments, and applies those solutions to the callee: the
arguments are then inferred and checked against the applied parameters. So
`a: Strategy[int] = sampled(strs)` is an `[arg-type]` error on `strs`
("expected Sequence[int]"), not an `[assignment]` error on the call, and an
overload item whose context solution the arguments do not fit is no match
(`[call-overload]`). A project's `# type: ignore[arg-type]` there depends on it.

mypy's limits, kept here:
- where both the return type and the context may be None, None is taken out
  of both (`Optional[T]` against `Optional[int]` solves T as int);
- a return type that is a bare variable takes the context only when that is a
  generic instance or a literal (`y: str = ident(1)` is an assignment error);
- a solution holding Never (or, here, Any: the erased variables of an outer
  call are Any) is not applied, nor one the variable's bound or values refuse.
Only plain type variables are applied: a ParamSpec or TypeVarTuple would
change the parameter list the arguments were matched to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.evaluate.typevar_values import fits_type_var
from veritype.types.model import (
    AnyType, CallableType, Instance, LiteralType, NeverType, NoneType, TupleType, Type,
    TypeVarType, UnionType, holds_any, holds_kind, is_optional, remove_none,
)
from veritype.types.solve import SUBTYPE, SUPERTYPE, Constraint, infer_constraints, solve
from veritype.types.substitute import TVKey, erase_to_any, tv_key
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def solve_from_context(ev: "Evaluator", callee: CallableType, expected: Type, targets: set[TVKey]) -> dict[TVKey, Type]:
    """The solutions of `callee`'s variables that its return context gives, to
    apply to it before its arguments are inferred ({} where there are none).
    `targets` are the keys of `callee`'s own variables (its one caller's), so the
    answer is one of the callee and the context: kept on the evaluator's members
    when final (no lazy evaluation in progress, whose placeholders it may have
    read). 1,103 questions for 532 distinct ones on the bench corpus. The
    caller reads the answer and does not change it."""
    if isinstance(expected, AnyType):
        return {}
    kept = ev.members.context_solutions
    key = (callee, expected)
    fixed = kept.get(key)
    if fixed is None:
        fixed = _solve_from_context(ev, callee, expected, targets)
        if not ev.lazy_depth:
            kept[key] = fixed
    return fixed


def _solve_from_context(ev: "Evaluator", callee: CallableType, expected: Type, targets: set[TVKey]) -> dict[TVKey, Type]:
    ret = callee.ret
    if _may_be_none(ret) and _may_be_none(expected):
        ret, expected = remove_none(ret), remove_none(expected)
    if isinstance(ret, TypeVarType) and not _generic_or_literal(expected):
        return {}
    plain = {tv_key(tv) for tv in callee.type_vars if tv.kind == "typevar"} & targets
    if not plain:
        return {}
    cons = _constraints(ev, ret, expected, plain)
    if not cons:
        return {}
    solved = solve(ev, callee.type_vars, cons)
    keys = {c.key for c in cons}
    fixed: dict[TVKey, Type] = {}
    for tv in callee.type_vars:
        key = tv_key(tv)
        sol = solved.get(key)
        if key not in keys or sol is None or holds_any(sol) or holds_kind(sol, NeverType):
            continue
        if fits_type_var(ev, sol, tv, targets):
            fixed[key] = sol
    return fixed


def _constraints(ev: "Evaluator", template: Type, actual: Type, targets: set[TVKey], depth: int = 0) -> list[Constraint]:
    """What `template` (the return type) being a subtype of `actual` (the
    context) asks of the variables, with mypy's reading of unions: each item of
    a union returned must fit; of a union expected, the items the template
    could fit at all are the options, used where they agree."""
    if isinstance(template, UnionType):
        return [c for item in template.items for c in _constraints(ev, item, actual, targets, depth + 1)]
    if isinstance(actual, UnionType):
        erased = erase_to_any(template, targets)
        options = [_constraints(ev, template, item, targets, depth + 1) for item in actual.items if is_subtype(ev, erased, item)]
        if not options:
            return []
        if all(o == options[0] for o in options[1:]):
            return options[0]
        return []  # options that disagree: mypy deduces nothing
    if isinstance(actual, TupleType) and isinstance(template, Instance) and template.info.fullname == "builtins.tuple":
        # `tuple[T, ...]` expected to be a `tuple[int, int]` learns nothing (mypy:
        # `a: tuple[int, int] = tuple(untyped_iter)` stays a tuple[Any, ...]).
        return []
    if isinstance(template, Instance) and isinstance(actual, Instance) and depth < 8:
        # A union inside (`Coroutine[Any, Any, Value[R] | Error]` awaited as an
        # `Outcome[str] | None`): the covariant arguments are read the same way.
        mapped = map_instance_to_supertype(template, actual.info)
        if mapped is not None and any(isinstance(x, UnionType) for x in (*mapped.args, *actual.args)):
            out: list[Constraint] = []
            for tv, x, y in zip(actual.info.type_vars, mapped.args, actual.args):
                if tv.variance == "covariant":
                    out += _constraints(ev, x, y, targets, depth + 1)
                else:
                    out += infer_constraints(ev, x, y, SUBTYPE if tv.variance == "contravariant" else SUPERTYPE, targets)
            return out
    return infer_constraints(ev, template, actual, SUPERTYPE, targets)


def _may_be_none(t: Type) -> bool:
    return isinstance(t, NoneType) or is_optional(t)


def _generic_or_literal(t: Type) -> bool:
    if isinstance(t, Instance):
        return bool(t.args)
    if isinstance(t, LiteralType):
        return True
    return isinstance(t, UnionType) and any(isinstance(i, LiteralType) for i in t.items)
