"""PEP 696 defaults of type parameters: the type arguments a generic class or
alias gets for the parameters it was not given (`list` alone, `C[int]` of a
class with two parameters), where a default may name an earlier parameter."""

from __future__ import annotations

from veritype.types.model import AnyType, Type, TypeVarType
from veritype.types.substitute import substitute, tv_key


def fill_defaults(params: tuple[TypeVarType, ...], given: list[Type]) -> tuple[Type, ...]:
    """Type arguments for `params`: those given, then each default (PEP 696), where a
    default may refer to earlier parameters (`_StopT_co = TypeVar(default=_StartT_co)`)."""
    out = list(given)
    for p in params[len(given):]:
        if p.default is None:
            out.append(AnyType("implicit"))
            continue
        mapping = {}
        for earlier, value in zip(params, out):
            mapping[(earlier.fullname, "")] = value
            mapping[tv_key(earlier)] = value
        out.append(substitute(p.default, mapping))
    return tuple(out)


def type_var_default(tv: TypeVarType) -> Type:
    """The argument a parameter given nothing stands for: its default, or Any."""
    return tv.default if tv.default is not None else AnyType("implicit")
