"""PEP 696 defaults of type parameters: the type arguments a generic class or
alias gets for the parameters it was not given (`list` alone, `C[int]` of a
class with two parameters), where a default may name an earlier parameter
(`_StopT_co = TypeVar(default=_StartT_co)`)."""

from __future__ import annotations

from veritype.types.model import AnyType, Type, TypeVarType
from veritype.types.substitute import substitute, tv_key


def fill_defaults(params: tuple[TypeVarType, ...], given: list[Type]) -> tuple[Type, ...]:
    """Type arguments for `params`: those given, then each default (or Any)."""
    out = list(given)
    for p in params[len(given):]:
        out.append(AnyType("implicit") if p.default is None else default_after(p, params, out))
    return tuple(out)


def default_after(tv: TypeVarType, params: tuple[TypeVarType, ...], earlier: list[Type]) -> Type:
    """`tv`'s default with the earlier parameters it names replaced by their
    arguments (`earlier`, in the order of `params`). Asked only of a parameter
    with a default."""
    assert tv.default is not None
    mapping: dict = {}
    for param, value in zip(params, earlier):
        mapping[(param.fullname, "")] = value
        mapping[tv_key(param)] = value
    return substitute(tv.default, mapping)


def type_var_default(tv: TypeVarType) -> Type:
    """The argument a parameter given nothing stands for: its default, or Any."""
    return tv.default if tv.default is not None else AnyType("implicit")
