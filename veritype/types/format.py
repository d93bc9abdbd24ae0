"""Formatting types for messages, the way mypy users read them.

`list[int]`, `int | None`, `tuple[int, str]`, `type[C]`, `Literal['a']`,
`def (x: int) -> str`. Classes are shown by their short name; builtins
never get a module prefix.
"""

from __future__ import annotations

from veritype.types.alias_ref import AliasRef
from veritype.types.model import (
    POS_ONLY, VAR_KW, VAR_POS, KW_ONLY, AnyType, CallableType, Instance, LiteralType, ModuleType, NeverType,
    NoneType, Overloaded, SpecialForm, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType,
    UnpackType,
)


def format_type(t: Type) -> str:
    if isinstance(t, AnyType):
        return "Any"
    if isinstance(t, NoneType):
        return "None"
    if isinstance(t, NeverType):
        return t.spelling
    if isinstance(t, Instance):
        name = t.info.display_name
        if t.info.fullname == "builtins.tuple" and len(t.args) == 1:
            return f"tuple[{format_type(t.args[0])}, ...]"
        if t.args:
            return f"{name}[{_format_args(t)}]"
        return name
    if isinstance(t, LiteralType):
        return f"Literal[{format_literal(t)}]"
    if isinstance(t, TupleType):
        if t.fallback.info.fullname != "builtins.tuple":
            return t.fallback.info.display_name
        if not t.items:
            return "tuple[()]"
        return f"tuple[{', '.join(format_type(i) for i in t.items)}]"
    if isinstance(t, UnionType):
        lits = [i for i in t.items if isinstance(i, LiteralType)]
        others = [i for i in t.items if not isinstance(i, LiteralType)]
        parts: list[str] = []
        if len(lits) > 1:
            parts.append(f"Literal[{', '.join(format_literal(x) for x in lits)}]")
            items = others
        else:
            items = list(t.items)
        # None is shown last, as mypy does (`int | None`).
        items = [i for i in items if not isinstance(i, NoneType)] + [i for i in items if isinstance(i, NoneType)]
        parts = parts + [_paren_callable(format_type(i), i) for i in items] if len(lits) > 1 else [_paren_callable(format_type(i), i) for i in items]
        return " | ".join(parts)
    if isinstance(t, TypeVarType):
        if t.kind == "self":
            return "Self"
        return t.name
    if isinstance(t, CallableType):
        return format_callable(t)
    if isinstance(t, Overloaded):
        return "Overload(" + ", ".join(format_callable(c) for c in t.items) + ")"
    if type(t).__name__ == "TypeFormType":
        return f"TypeForm[{format_type(t.item)}]"  # type: ignore[attr-defined]
    if isinstance(t, TypeType):
        return f"type[{format_type(t.item)}]"
    if isinstance(t, ModuleType):
        return f"Module({t.name})"
    if isinstance(t, TypedDictType):
        if t.fallback.info.fullname not in ("typing._TypedDict", "builtins.dict", "typing.TypedDict"):
            return t.fallback.info.display_name
        inner = ", ".join(f"'{k}'{'' if k in t.required else '?'}: {format_type(v)}" for k, v in t.items)
        return f"TypedDict({{{inner}}})"
    if isinstance(t, SpecialForm):
        return "<typing special form>"  # mypy's name for a special form object
    if isinstance(t, UnpackType):
        return "*" + format_type(t.item)
    if isinstance(t, AliasRef):
        # A recursive alias is shown by its name, as written (`list[Json]`).
        return f"{t.name}[{', '.join(format_type(a) for a in t.args)}]" if t.args else t.name
    return "Any"


def _format_args(t: Instance) -> str:
    """Type arguments, with the tuple packed at a TypeVarTuple's position shown
    spread out as written: `Array[int, str]`, `Array[*Ts]`, `Array[()]`."""
    try:
        tvs = t.info.type_vars
    except Exception:  # the class is still being set up: show the arguments as they are
        tvs = ()
    if len(tvs) != len(t.args) or not any(v.kind == "typevartuple" for v in tvs):
        return ", ".join(format_type(a) for a in t.args)
    parts: list[str] = []
    for v, a in zip(tvs, t.args):
        if v.kind != "typevartuple":
            parts.append(format_type(a))
        elif isinstance(a, TupleType) and a.fallback.info.fullname == "builtins.tuple":
            parts.extend(format_type(i) for i in a.items)
        elif isinstance(a, AnyType):
            parts.append("*tuple[Any, ...]")
        else:
            parts.append("*" + format_type(a))
    return ", ".join(parts) if parts else "()"


def _paren_callable(s: str, t: Type) -> str:
    return f"({s})" if isinstance(t, CallableType) else s


def format_literal(t: LiteralType) -> str:
    if t.is_enum:
        return f"{t.fallback.info.display_name}.{t.value}"
    return repr(t.value)


def format_callable(t: CallableType) -> str:
    parts: list[str] = []
    if t.is_ellipsis:
        return f"def (*Any, **Any) -> {_format_return(t)}"
    saw_kw_marker = False
    for p in t.params:
        typ = format_type(p.type)
        default = " =" if p.has_default else ""
        if p.kind in (VAR_POS, VAR_KW) and isinstance(p.type, TypeVarType) and p.type.kind == "paramspec":
            # `*args: P.args, **kwargs: P.kwargs`, as written (not `*args: P`).
            typ += ".args" if p.kind == VAR_POS else ".kwargs"
        if p.kind == VAR_POS:
            parts.append(f"*{p.name or 'args'}: {typ}")
            saw_kw_marker = True
        elif p.kind == VAR_KW:
            parts.append(f"**{p.name or 'kwargs'}: {typ}")
        elif p.kind == KW_ONLY:
            if not saw_kw_marker:
                parts.append("*")
                saw_kw_marker = True
            parts.append(f"{p.name}: {typ}{default}")
        elif p.kind == POS_ONLY or p.name is None:
            parts.append(f"{typ}{default}")
        else:
            parts.append(f"{p.name}: {typ}{default}")
    tvs = ""
    if t.type_vars:
        tvs = " [" + ", ".join(_format_tv_decl(v) for v in t.type_vars) + "]"
    return f"def{tvs} ({', '.join(parts)}) -> {_format_return(t)}"


def _format_return(t: CallableType) -> str:
    # A guard function returns `bool` at runtime; mypy shows what it narrows to.
    if t.type_guard is not None:
        return f"TypeGuard[{format_type(t.type_guard)}]"
    if t.type_is is not None:
        return f"TypeIs[{format_type(t.type_is)}]"
    return format_type(t.ret)


def _format_tv_decl(v: TypeVarType) -> str:
    if v.kind == "paramspec":
        return f"**{v.name}"
    if v.kind == "typevartuple":
        return f"*{v.name}"
    if v.upper_bound is not None and not (isinstance(v.upper_bound, Instance) and v.upper_bound.info.fullname == "builtins.object"):
        return f"{v.name}: {format_type(v.upper_bound)}"
    if v.values:
        return f"{v.name} in ({', '.join(format_type(x) for x in v.values)})"
    return v.name


def format_pair(a: Type, b: Type) -> tuple[str, str]:
    """Format two types for an 'X is not Y' message, qualifying names that collide.

    Like mypy, the actual type is shown widened (`"str"`, not `"Literal['a']"`)
    unless the expected type involves literals, where the literal is the point.
    """
    if not _mentions_literal(b):
        from veritype.types.join import widen_literals

        a = widen_literals(a)
    sa, sb = format_type(a), format_type(b)
    if sa == sb and isinstance(a, Instance) and isinstance(b, Instance):
        return a.info.fullname, b.info.fullname
    return sa, sb


def _mentions_literal(t: Type) -> bool:
    if isinstance(t, LiteralType):
        return True
    if isinstance(t, UnionType):
        return any(_mentions_literal(i) for i in t.items)
    if isinstance(t, Instance):
        return any(_mentions_literal(x) for x in t.args)
    if isinstance(t, TupleType):
        return any(_mentions_literal(x) for x in t.items)
    return False

