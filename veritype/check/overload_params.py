"""Which parameter of one overload an argument for another overload's parameter
goes to: the pairing that check/overload_consistency and check/overload_any_first
compare parameter types by.

A positional argument goes to the parameter at its position, or past them to
`*args`; a keyword argument to the parameter of its name that takes keywords,
else to `**kwargs`; `*args` and `**kwargs` to their own kind.
"""

from __future__ import annotations

from veritype.types.model import KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, CallableType, Param


def positional(sig: CallableType) -> list[Param]:
    """The parameters of `sig` that take a positional argument at their position."""
    return [p for p in sig.params if p.kind in (POS_ONLY, POS_OR_KW)]


def of_kind(sig: CallableType, kind: int) -> Param | None:
    """`sig`'s `*args` (VAR_POS) or `**kwargs` (VAR_KW), if it has one."""
    return next((p for p in sig.params if p.kind == kind), None)


def positional_pairs(wide: CallableType, narrow: CallableType) -> list[tuple[Param, Param | None]]:
    """Each positional parameter of `narrow`, with the parameter of `wide` its argument goes to (None: none)."""
    wpos = positional(wide)
    wstar = of_kind(wide, VAR_POS)
    return [(n, wpos[k] if k < len(wpos) else wstar) for k, n in enumerate(positional(narrow))]


def by_keyword(wide: CallableType, name: str | None) -> Param | None:
    """The parameter of `wide` named `name` that takes it as a keyword (not `**kwargs`)."""
    return next((p for p in wide.params if p.name == name and p.kind in (POS_OR_KW, KW_ONLY)), None)


def paired(wide: CallableType, narrow: CallableType) -> list[tuple[Param, Param | None]]:
    """Each parameter of `narrow`, in order, with the parameter of `wide` its argument goes to (None: none)."""
    positional_ones = iter(positional_pairs(wide, narrow))
    out: list[tuple[Param, Param | None]] = []
    for n in narrow.params:
        if n.kind == POS_ONLY or n.kind == POS_OR_KW:
            out.append(next(positional_ones))
        elif n.kind == KW_ONLY:
            out.append((n, by_keyword(wide, n.name) or of_kind(wide, VAR_KW)))
        else:  # `*args`, `**kwargs`
            out.append((n, of_kind(wide, n.kind)))
    return out
