"""A callable's parameters sorted by kind, worked out once per callable value.

Every call matches its arguments to the callee's parameters (`evaluate.calls.
match_arguments`), once per overload item in the arity filter and once per
check, first asks whether the callee has an unpacked `*args` to spell out
(`evaluate.variadic_calls.expand`), and then which parameters take their
arguments together (`evaluate.calls`): each time a walk of the parameters
by kind. The answer depends on the parameters alone, which never change
(types are immutable), so it is kept in the callable's `_shape` slot (not a
dataclass field: not compared, hashed, pickled or copied by `replace`).
"""

from __future__ import annotations

from veritype.types.model import KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, CallableType, Param, TypeVarType, UnpackType, _CallableBase


def checks_arguments_together(p: Param) -> bool:
    """Whether the arguments for `p` are not checked one by one against its type
    (so never inferred again in its context): an unpacked `*args: *Ts`, whose
    arguments together are one tuple (evaluate.variadic_calls), and `*args: P.args`
    / `**kwargs: P.kwargs`, where P stands for a whole signature (evaluate.paramspec_calls)."""
    t = p.type
    return isinstance(t, UnpackType) or (p.kind in (VAR_POS, VAR_KW) and isinstance(t, TypeVarType) and t.kind == "paramspec")


class ParamShape:
    __slots__ = ("positional", "kw_only", "star_index", "kw_index", "unpacked_star", "keywords", "together", "arity")

    def __init__(self, callee: CallableType) -> None:
        positional: list[int] = []
        kw_only: list[int] = []
        star_index: int | None = None
        kw_index: int | None = None
        # A keyword argument's parameter: the first positional-or-keyword or
        # keyword-only parameter of that name.
        keywords: dict[str, int] = {}
        unpacked_star = False
        together: list[int] = []
        for i, p in enumerate(callee.params):
            kind = p.kind
            if kind == POS_OR_KW or kind == POS_ONLY:
                positional.append(i)
            elif kind == KW_ONLY:
                kw_only.append(i)
            elif kind == VAR_POS:
                if star_index is None:
                    star_index = i
                if isinstance(p.type, UnpackType):
                    unpacked_star = True
            elif kind == VAR_KW:
                if kw_index is None:
                    kw_index = i
            if (kind == POS_OR_KW or kind == KW_ONLY) and p.name is not None and p.name not in keywords:
                keywords[p.name] = i
            t = p.type
            if type(t) is UnpackType or type(t) is TypeVarType:  # (`checks_arguments_together`'s kinds, tested first: no call for most parameters)
                if checks_arguments_together(p):
                    together.append(i)
        self.positional: tuple[int, ...] = tuple(positional)
        self.kw_only: tuple[int, ...] = tuple(kw_only)
        self.star_index = star_index
        self.kw_index = kw_index
        # A `*args: *Ts` (or `*tuple[...]`) parameter (PEP 646).
        self.unpacked_star = unpacked_star
        self.keywords = keywords
        # The parameters for which checks_arguments_together (mostly none).
        self.together: tuple[int, ...] = tuple(together)
        # evaluate.overload_calls' arity filter: the last argument shape and its slots (None: an arity error).
        self.arity: tuple[tuple[tuple[str, str | None], ...], list[list[int]] | None] | None = None


def shape_of(callee: CallableType) -> ParamShape:
    # (The slot is read directly: every way a callable is made or restored sets
    # it, to None at first (model._fast_methods). 107k questions on the bench corpus.)
    shape: ParamShape | None = callee._shape
    if shape is None:
        shape = ParamShape(callee)
        _set_shape(callee, shape)
    return shape


_set_shape = _CallableBase._shape.__set__  # type: ignore[union-attr]  # (the slot's descriptor, past the frozen __setattr__)
