"""Formatting types for messages, the way mypy users read them.

`list[int]`, `int | None`, `tuple[int, str]`, `type[C]`, `Literal['a']`.
Classes are shown by their short name; builtins never get a module prefix.

Two spellings of callables:

- in messages (`format_type`), mypy's: `Callable[[int, str], R]` when every
  parameter is positional, `Callable[..., R]`, `Callable[P, R]`, and
  otherwise the def as written, named when the callable has a name
  (`def f(x: int, *, key: str = ...) -> R`); an overloaded callable is
  `overloaded function` (which `Diagnostic` leaves unquoted, as mypy does);
- in `reveal_type` and the editor (`format_revealed`), always the def form
  without a name: `def (x: int, *, key: str =) -> R`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from veritype.types.alias_ref import AliasRef
from veritype.types.model import (
    POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, KW_ONLY, AnyType, CallableType, Instance, LiteralType, ModuleType, NeverType,
    NoneType, Overloaded, SpecialForm, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType,
    UnpackType,
)
from veritype.types.join import widen_literals


def format_type(t: Type) -> str:
    """`t` as mypy spells it in an error message."""
    return _format(t, False)


def format_revealed(t: Type) -> str:
    """`t` as `reveal_type` and the editor show it (callables in def form)."""
    return _format(t, True)


def _format(t: Type, revealed: bool) -> str:
    def format_type(t: Type) -> str:  # the same spelling all the way down
        return _format(t, revealed)

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
            return f"{name}[{_format_args(t, revealed)}]"
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
        # mypy writes callables in a union without parentheses.
        shown = [_paren_callable(format_type(i), i) if revealed else format_type(i) for i in items]
        parts = parts + shown if len(lits) > 1 else shown
        return " | ".join(parts)
    if isinstance(t, TypeVarType):
        if t.kind == "self":
            return "Self"
        return t.name
    if isinstance(t, CallableType):
        return format_callable(t) if revealed else _message_callable(t)
    if isinstance(t, Overloaded):
        if not revealed:
            return "overloaded function"
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


def _format_args(t: Instance, revealed: bool) -> str:
    """Type arguments, with the tuple packed at a TypeVarTuple's position shown
    spread out as written: `Array[int, str]`, `Array[*Ts]`, `Array[()]`."""
    try:
        tvs = t.info.type_vars
    except Exception:  # the class is still being set up: show the arguments as they are
        tvs = ()
    def format_type(t: Type) -> str:
        return _format(t, revealed)

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
    """The def form without a name: `def [T] (x: T, *, key: str =) -> T`."""
    fmt = format_revealed
    parts: list[str] = []
    if t.is_ellipsis:
        return f"def (*Any, **Any) -> {_format_return(t, fmt)}"
    saw_kw_marker = False
    for p in t.params:
        typ = fmt(p.type)
        default = " =" if p.has_default else ""
        if p.kind in (VAR_POS, VAR_KW) and _is_paramspec(p.type):
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
    return f"def{tvs} ({', '.join(parts)}) -> {_format_return(t, fmt)}"


def format_def(t: CallableType) -> str:
    """mypy's long form of a function, with its name: `def f(x: int, *, k: str = ...) -> int`."""
    return _def_with_name(t, _format_return(t, format_type))


def _message_callable(t: CallableType) -> str:
    """A callable as mypy spells it in a message (see the module docstring)."""
    if t.is_type_obj and isinstance(t.ret, Instance):
        return f"type[{format_type(t.ret)}]"
    ret = _format_return(t, format_type)
    if t.is_ellipsis:
        return f"Callable[..., {ret}]"
    params = t.params
    if len(params) >= 2 and params[-2].kind == VAR_POS and params[-1].kind == VAR_KW \
            and _is_paramspec(params[-2].type) and _is_paramspec(params[-1].type):
        spec = params[-2].type.name  # type: ignore[attr-defined]
        prefix = params[:-2]
        if not prefix:
            return f"Callable[{spec}, {ret}]"
        return f"Callable[[{', '.join(format_type(p.type) for p in prefix)}, **{spec}], {ret}]"
    if all(p.kind in (POS_ONLY, POS_OR_KW) for p in params):
        return f"Callable[[{', '.join(format_type(p.type) for p in params)}], {ret}]"
    return _def_with_name(t, ret)


def _def_with_name(t: CallableType, ret: str) -> str:
    """`def [T: int] name(self, x: int, /, *, key: str = ...) -> R`, mypy's long form."""
    parts: list[str] = []
    star = slash = False
    params = t.params
    for i, p in enumerate(params):
        text = ""
        if p.kind == KW_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind == VAR_POS:
            text = "*"
            star = True
        elif p.kind == VAR_KW:
            text = "**"
        named = p.kind != POS_ONLY and p.name is not None
        if named:
            text += f"{p.name}: "
        text += format_type(p.type)
        if p.has_default:
            text += " = ..."
        parts.append(text)
        if not slash and not named and p.kind in (POS_ONLY, POS_OR_KW):
            following = params[i + 1] if i + 1 < len(params) else None
            if following is None or following.kind not in (POS_ONLY, POS_OR_KW) or \
                    (following.kind != POS_ONLY and following.name is not None):
                parts.append("/")
                slash = True
    first = _bound_first_param(t)
    if first is not None:
        parts.insert(0, first)
    # veritype names a lambda's type "lambda"; mypy shows `<lambda>`.
    name = ("<lambda>" if t.name == "lambda" else t.name.split()[0]) if t.name else ""
    tvs = ""
    if t.type_vars:
        tvs = "[" + ", ".join(_message_tv_decl(v) for v in t.type_vars) + "] "
    return f"def {tvs}{name}({', '.join(parts)}) -> {ret}"


def _bound_first_param(t: CallableType) -> str | None:
    """The name of the `self`/`cls` a bound method has lost, which mypy still
    shows (`def m(self, *, key: str) -> None`); None for a function."""
    node = t.definition
    if t.is_type_obj or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    if len(names) > len(t.params) and names[0]:
        return names[0]
    return None


def _is_paramspec(t: Type) -> bool:
    return isinstance(t, TypeVarType) and t.kind == "paramspec"


def _format_return(t: CallableType, fmt: Callable[[Type], str]) -> str:
    # A guard function returns `bool` at runtime; mypy shows what it narrows to.
    if t.type_guard is not None:
        return f"TypeGuard[{fmt(t.type_guard)}]"
    if t.type_is is not None:
        return f"TypeIs[{fmt(t.type_is)}]"
    return fmt(t.ret)


def _format_tv_decl(v: TypeVarType) -> str:
    return _tv_decl(v, format_revealed, "{} in ({})")


def _message_tv_decl(v: TypeVarType) -> str:
    return _tv_decl(v, format_type, "{}: ({})")


def _tv_decl(v: TypeVarType, fmt: Callable[[Type], str], constrained: str) -> str:
    """A type variable as declared in front of a def: `T: int`, `**P`, `*Ts`, and
    a constrained one in `constrained`'s spelling."""
    if v.kind == "paramspec":
        return f"**{v.name}"
    if v.kind == "typevartuple":
        return f"*{v.name}"
    if v.upper_bound is not None and not (isinstance(v.upper_bound, Instance) and v.upper_bound.info.fullname == "builtins.object"):
        return f"{v.name}: {fmt(v.upper_bound)}"
    if v.values:
        return constrained.format(v.name, ", ".join(fmt(x) for x in v.values))
    return v.name


def format_pair(a: Type, b: Type) -> tuple[str, str]:
    """Format two types for an 'X is not Y' message, qualifying names that collide.

    Like mypy, the actual type is shown widened (`"str"`, not `"Literal['a']"`)
    unless the expected type involves literals, where the literal is the point.
    """
    if not _mentions_literal(b):
        a = widen_literals(a, keep_declared=True)
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

