"""An overload whose return type holds type variables, against a plain implementation.

The typing spec ("Overloads", "Implementation consistency"): "the return type
of all overloads should be assignable to the return type of the
implementation". mypy 2.4.1 checks it for a generic overload too: where the
implementation has no type variables of its own, the overload's type
variables stay as they are (a TypeVar is assignable to what its bound, or the
union of its values, is assignable to; only Never and Any are assignable to
it), and as for any overload it accepts either direction. So
`def reg(self, cl: HT) -> HT` (HT bound to a Callable) over an implementation
`-> None` is `Overloaded function implementation cannot produce return type of
signature 1` (cattrs's `register_structure_hook`), while `-> object`, `-> Any`,
`-> str | bytes` for `-> AnyStr` or `-> T | None` are accepted.

overload_consistency keeps every other generic pair silent (their parameters,
and an implementation with type variables of its own, which mypy unifies
first); this says when its return check holds for one.
"""

from __future__ import annotations

from veritype.types.model import CallableType, TypeVarType
from veritype.types.substitute import type_vars_in


def plain_return_check(sig: CallableType, impl: CallableType) -> bool:
    """Whether the return check of `sig` against `impl` is sure though `sig` is
    generic: `impl` has no type variables of its own and every variable in
    either return type is a plain TypeVar (no ParamSpec, TypeVarTuple, Self)."""
    if impl.type_vars:
        return False
    for t in (sig.ret, impl.ret):
        for tv in type_vars_in(t).values():
            if not isinstance(tv, TypeVarType) or tv.kind != "typevar":
                return False
    return True
