"""Whether a solved type variable respects its bound or its constraints.

A solution may mention the caller's own constrained type variables
(`out = snap() if self.out else ""` is `AnyStr | str` inside a method of a
`Generic[AnyStr]` class). mypy checks such a body once per constraint of the
caller's variable ("checking of a function with a constrained type variable
is done once for each of its values"), so the solution is judged the same way
here: substituted with each combination of the caller's constraints, it must
fit one of the callee's values every time.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from veritype.types.model import Type, TypeVarType
from veritype.types.substitute import TVKey, substitute, tv_key, type_vars_in
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

# The caller's constrained variables expanded at most this many ways (AnyStr
# twice is 4); past it the solution is judged as it is.
_MAX_EXPANSIONS = 16


def outer_expansions(sol: Type, targets: set[TVKey]) -> list[Type]:
    """`sol` with each combination of the values of the constrained variables
    it mentions that are not being solved (`targets`); `[sol]` when none."""
    outer = [tv for k, tv in type_vars_in(sol).items() if k not in targets and tv.kind == "typevar" and tv.values]
    if not outer:
        return [sol]
    combos = list(itertools.islice(itertools.product(*(tv.values for tv in outer)), _MAX_EXPANSIONS + 1))
    if len(combos) > _MAX_EXPANSIONS:
        return [sol]
    return [substitute(sol, {tv_key(tv): v for tv, v in zip(outer, combo)}) for combo in combos]


def fits_type_var(ev: "Evaluator", sol: Type, tv: TypeVarType, targets: set[TVKey]) -> bool:
    """Whether `sol` is an allowed value of `tv` (within its bound, or a subtype of
    one of its constraints), for every expansion of the caller's constrained variables."""
    for t in outer_expansions(sol, targets):
        if tv.upper_bound is not None and not is_subtype(ev, t, tv.upper_bound):
            return False
        if tv.values and not any(is_subtype(ev, t, v) for v in tv.values):
            return False
    return True
