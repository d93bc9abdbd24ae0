"""Special forms inside type expressions: bare and subscripted typing specials (Optional,
Union, Annotated, Required, ClassVar, Final, TypeGuard...), Callable[...] parameter
lists, tuple[...] and Literal[...].
"""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING

from veritype.evaluate.literal_messages import invalid_parameter_message
from veritype.evaluate.special import CLASS_ALIASES
from veritype.evaluate.type_context import VARIABLE_NOTE, TypeContext, unpacking
from veritype.types.model import POS_ONLY, VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, NeverType, NoneType, Param, TupleType, Type, TypeFormType, TypeType, TypeVarType, UnionType, UnpackType, flatten_union, make_union, NONE
from veritype.types.tuples import make_tuple

# The type qualifiers: valid only at the top of an annotation that allows them.
QUALIFIERS = frozenset(("Final", "ClassVar", "Required", "NotRequired", "ReadOnly"))
# Special forms that are a type only with type arguments (`Union[int, str]`).
NEEDS_ARGUMENTS = frozenset(("Union", "Optional", "Literal", "Annotated", "Concatenate", "TypeGuard", "TypeIs", "Unpack"))
# Special forms that are never a type bare (`Bare "Protocol" is not valid as a type`).
NEVER_BARE = frozenset(("Protocol", "Generic"))

if TYPE_CHECKING:
    from veritype.evaluate.type_expr import TypeExprEvaluator


def _class_body_alias(ctx: TypeContext, top: bool) -> bool:
    """The whole value of `M = X` in a class body: mypy makes no alias there, so
    nothing about X is reported (`A = X` at module level is an alias)."""
    return top and ctx.alias_value and ctx.scope.kind == "class"


def report_bare_tuple(te: "TypeExprEvaluator", ctx: TypeContext, node: ast.expr, top: bool) -> None:
    """--disallow-any-generics: a bare `tuple`/`Tuple`. mypy reads it as
    `tuple[Any, ...]` even as the whole value of an alias (`A = tuple`, unlike
    `A = list`), so it reports it there too, under the name as written
    (`typing.Tuple`, `TT` for `Tuple as TT`)."""
    te._report_bare_generic(ctx, node, _written(node, "tuple"), _class_body_alias(ctx, top))


def _written(node: ast.expr, name: str) -> str:
    """A bare special form's name as mypy shows it: as written (`typing.Callable`,
    `C` for `Callable as C`)."""
    return ast.unparse(node) if type(node) in (ast.Name, ast.Attribute) else name


def bare_special(te: "TypeExprEvaluator", name: str, node: ast.expr, ctx: TypeContext, top: bool) -> Type:
    if name == "Any":
        return AnyType("explicit")
    if name in ("NoReturn", "Never"):
        return NeverType(name)
    if name == "Self":
        return te._self_type(node, ctx)
    if name == "LiteralString":
        return te.ev.builtin("str")
    if name == "Tuple":
        report_bare_tuple(te, ctx, node, top)
        return te.ev.builtin("tuple", AnyType("implicit"))
    if name == "Callable":
        te._report_bare_generic(ctx, node, _written(node, name), _class_body_alias(ctx, top))  # `A = Callable` too (mypy)
        return CallableType((), AnyType("implicit"), is_ellipsis=True)
    if name == "Type":
        te._report_bare_generic(ctx, node, _written(node, name), top)
        return TypeType(AnyType("implicit"))
    if name in CLASS_ALIASES:
        info = te.ev.named_class(CLASS_ALIASES[name])
        if info is None:
            return AnyType("special")
        if any(tv.default is None for tv in info.type_vars):
            te._report_bare_generic(ctx, node, name, top)
        return Instance(info, tuple(AnyType("implicit") for _ in info.type_vars))
    if name in QUALIFIERS:
        if top and ctx.allow_qualifiers:
            ctx.qualifiers.add(name)
            return AnyType("special")  # the caller infers the type from the value
        return te._error(ctx, node, *misplaced_qualifier(name))
    if name in ("TypeAlias",):
        if top and ctx.allow_qualifiers:
            ctx.qualifiers.add(name)
            return AnyType("special")
        # Spec, "Type aliases": TypeAlias only annotates the variable an alias is
        # assigned to (not a parameter, a return, or a part of a type).
        return te._error(ctx, node, '"TypeAlias" is only valid as the annotation of a type alias assignment')
    if name in NEEDS_ARGUMENTS:
        return te._error(ctx, node, f'"{name}" must be used with type arguments' if name != "Union" else "Union requires two or more type arguments")
    if name in NEVER_BARE:
        return te._error(ctx, node, f'Bare "{name}" is not valid as a type')
    if name == "TypeForm":
        # Spec, "TypeForm": "TypeForm, with no type argument provided, is
        # equivalent to TypeForm[Any]".
        return TypeFormType(AnyType("explicit"))
    if name == "TypedDict":
        # Spec, "TypedDict": `TypedDict` itself is no type ("it is not valid as a
        # type"; mypy: 'Variable "typing.TypedDict" is not valid as a type'). The
        # value stays `Mapping[str, object]`, what any TypedDict is assignable to.
        ref = te.ev.resolve_expr(node, ctx.scope) if isinstance(node, (ast.Name, ast.Attribute)) and ctx.scope is not None else None
        te._error(ctx, node, f'Variable "{ref.fullname if ref is not None else "typing.TypedDict"}" is not valid as a type', note=VARIABLE_NOTE)
        return te.ev.instance("typing.Mapping", (te.ev.builtin("str"), te.ev.builtin("object")))
    if name == "NamedTuple":
        return te.ev.builtin("tuple", AnyType("implicit"))
    return AnyType("special")


def param_list(te: "TypeExprEvaluator", node: ast.expr, ctx: TypeContext) -> CallableType | None:
    """A parameter list given for a ParamSpec (`[int, str]`, `...`, `P`,
    `Concatenate[int, P]`) as a callable holding those parameters (its return
    type is meaningless), or None when `node` is none of these."""
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return CallableType((), AnyType("special"), is_ellipsis=True)
    if isinstance(node, ast.List):
        if any(isinstance(p, ast.Starred) or (isinstance(p, ast.Subscript) and _is_unpack(te, p, ctx)) for p in node.elts):
            return CallableType((), AnyType("special"), is_ellipsis=True)
        return CallableType(tuple(Param(None, te._eval(p, ctx), POS_ONLY) for p in node.elts), AnyType("special"))
    if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)):
        ref = te.ev.resolve_expr(node.value, ctx.scope, True)
        if ref is None or ref.kind != "special" or not ref.fullname.endswith(".Concatenate"):
            return None
        elts = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if not elts:
            return None
        prefix = tuple(Param(None, te._eval(e, ctx), POS_ONLY) for e in elts[:-1])
        last = elts[-1]
        if isinstance(last, ast.Constant) and last.value is Ellipsis:
            tail = (Param(None, AnyType("special"), VAR_POS), Param(None, AnyType("special"), VAR_KW))
            return CallableType(prefix + tail, AnyType("special"))
        spec = te._spec_name(last, ctx)
        if isinstance(spec, TypeVarType) and spec.kind == "paramspec":
            return CallableType(prefix + (Param(None, spec, VAR_POS), Param(None, spec, VAR_KW)), AnyType("special"))
        return CallableType((), AnyType("special"), is_ellipsis=True)
    if isinstance(node, (ast.Name, ast.Attribute)):
        spec = te._spec_name(node, ctx)
        if isinstance(spec, TypeVarType) and spec.kind == "paramspec":
            return CallableType((Param(None, spec, VAR_POS), Param(None, spec, VAR_KW)), AnyType("special"))
    return None


def tuple_form(te: "TypeExprEvaluator", node: ast.Subscript, args: list[ast.expr], ctx: TypeContext) -> Type:
    if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
        if te._unpack_node(args[0], ctx) is not None:
            # Spec, "Tuples": `tuple[X, ...]` takes one type; `*tuple[...]` is no type.
            te._unpacked(te._unpack_node(args[0], ctx), args[0], ctx)  # type: ignore[arg-type]
            return te._error(ctx, args[0], "Unpack is only valid in a variadic position")
        return te.ev.builtin("tuple", te._eval(args[0], ctx))
    if len(args) == 1 and isinstance(args[0], ast.Tuple) and not args[0].elts:
        return te.ev.tuple_of([])
    for a in args:
        if isinstance(a, ast.Constant) and a.value is Ellipsis:
            return te._error(ctx, a, 'Unexpected "..."', "misc")  # (at the `...`, as mypy)
    unpacked = False
    for a in args:  # (a loop, not `any()` over a generator: asked for each `tuple[...]`)
        if te._unpack_node(a, ctx) is not None:
            unpacked = True
            break
    if unpacked:
        info = te.ev.named_class("builtins.tuple")
        items = te._variadic_items(args, node, ctx)
        if items is None or info is None:
            return te.ev.builtin("tuple", AnyType("special"))
        return make_tuple(items, info)
    return te.ev.tuple_of([te._eval(a, ctx) for a in args])


def type_of(te: "TypeExprEvaluator", item: Type) -> Type:
    if isinstance(item, UnionType):
        return make_union([TypeType(i) for i in item.items])
    return TypeType(item)


def special_subscript(te: "TypeExprEvaluator", name: str, node: ast.Subscript, args: list[ast.expr], ctx: TypeContext, top: bool) -> Type:
    if name == "Union":
        return make_union([te._eval(a, ctx) for a in args])
    if name == "Optional":
        if len(args) != 1:
            return te._error(ctx, node, "Optional[...] must have exactly one type argument")
        return make_union([te._eval(args[0], ctx), NONE])
    if name == "Tuple":
        return te._tuple(node, args, ctx)
    if name == "Type":
        if len(args) != 1:
            return te._error(ctx, node, "Type[...] must have exactly one type argument")
        return te._type_of(te._eval(args[0], ctx))
    if name in CLASS_ALIASES:
        info = te.ev.named_class(CLASS_ALIASES[name])
        if info is None:
            return AnyType("special")
        return te._generic(info, node, args, ctx)
    if name == "Callable":
        return te._callable(node, args, ctx)
    if name == "Literal":
        return te._literal(node, args, ctx)
    if name == "Annotated":
        if len(args) < 2:
            return te._error(ctx, node, "Annotated[...] must have exactly one type argument and at least one annotation")
        return te._eval(args[0], ctx, top)
    if name in QUALIFIERS:
        if not (top and ctx.allow_qualifiers):
            return te._error(ctx, node, *misplaced_qualifier(name))
        if len(args) != 1:
            return te._error(ctx, node, f"{name}[...] takes exactly one type argument")
        ctx.qualifiers.add(name)
        return te._eval(args[0], ctx, top=True)
    if name == "TypeForm":
        if len(args) != 1:
            return te._error(ctx, node, "TypeForm[...] must have exactly one type argument")
        return TypeFormType(te._eval(args[0], ctx))
    if name in ("TypeGuard", "TypeIs"):
        if len(args) != 1:
            return te._error(ctx, node, f"{name}[...] takes exactly one type argument")
        inner = te._eval(args[0], ctx)
        if top or ctx.guard_node is node:
            ctx.guard = (name, inner)
        return te.ev.builtin("bool")
    if name == "Unpack":
        if top and ctx.star_param and len(args) == 1:
            return te._star_annotation(args[0], node, ctx)
        if len(args) == 1:
            te._eval(args[0], unpacking(ctx))
        return AnyType("special")
    if name == "Concatenate":
        # Spec, "ParamSpec": Concatenate is valid only where a ParamSpec is (its
        # legal places are read by `_param_list`).
        for a in args:
            te._eval_arg(a, ctx, spec_ok=True)
        return te._error(ctx, node, "Invalid location for Concatenate")
    if name in ("Protocol", "Generic"):
        return te._error(ctx, node, f'"{name}[...]" is not valid as a type' if True else "")
    if name in ("Any", "NoReturn", "Never", "Self", "LiteralString", "TypeAlias"):
        return te._error(ctx, node, f'"{name}" expects no type arguments' if name != "Any" else "Any expects no type arguments")
    return AnyType("special")


def callable_form(te: "TypeExprEvaluator", node: ast.Subscript, args: list[ast.expr], ctx: TypeContext) -> Type:
    if len(args) != 2:
        return te._error(ctx, node, 'Please use "Callable[[<parameters>], <return type>]" or "Callable"')
    saved = ctx.guard, ctx.guard_node
    ctx.guard, ctx.guard_node = None, args[1]
    try:
        ret = te._eval(args[1], ctx)
        guard = ctx.guard
    finally:
        ctx.guard, ctx.guard_node = saved
    t = _callable_parts(te, args[0], ret, ctx)
    if guard is not None and isinstance(t, CallableType):
        t = dataclasses.replace(t, type_guard=guard[1]) if guard[0] == "TypeGuard" else dataclasses.replace(t, type_is=guard[1])
    return t


def _callable_parts(te: "TypeExprEvaluator", params_node: ast.expr, ret: Type, ctx: TypeContext) -> Type:
    if isinstance(params_node, ast.Constant) and params_node.value is Ellipsis:
        return CallableType((), ret, is_ellipsis=True)
    if isinstance(params_node, ast.List):
        if any(te._unpack_node(p, ctx) is not None for p in params_node.elts):
            return te._variadic_callable(params_node.elts, params_node, ret, ctx)
        params = []
        for i, p in enumerate(params_node.elts):
            params.append(Param(None, te._eval(p, ctx), POS_ONLY))
        return CallableType(tuple(params), ret)
    plist = te._param_list(params_node, ctx)
    if plist is not None:
        # A ParamSpec or Concatenate[X, P]: the parameters are that list.
        return CallableType(plist.params, ret, is_ellipsis=plist.is_ellipsis)
    first = te._eval_arg(params_node, ctx)
    if isinstance(first, (Instance, NoneType, UnionType, TupleType, LiteralType, CallableType)):
        # Spec, "Callable": the first argument is a list of types, `...`, a
        # ParamSpec or Concatenate; `Callable[int, str]` is none of these.
        return te._error(ctx, params_node, 'The first argument to Callable must be a list of types, parameter specification, or "..."')
    return CallableType((), ret, is_ellipsis=True)


def variadic_callable(te: "TypeExprEvaluator", elts: list[ast.expr], node: ast.AST, ret: Type, ctx: TypeContext) -> Type:
    """`Callable[[int, *Ts], R]` (spec, "TypeVarTuple", "Type Variable Tuples with
    Callable"): the parameters from the unpacked part on are one `*args` whose
    type is the unpacked rest (`*args: *tuple[*Ts, T]`), spelled out where fixed."""
    from veritype.types.tuples import expand_star_params

    items = te._variadic_items(elts, node, ctx)
    info = te.ev.named_class("builtins.tuple")
    if items is None or info is None:
        return CallableType((), ret, is_ellipsis=True)
    k = next((i for i, t in enumerate(items) if isinstance(t, UnpackType)), len(items))
    params = [Param(None, t, POS_ONLY) for t in items[:k]]
    if k < len(items):
        rest = make_tuple(items[k:], info)
        star: Type = rest.args[0] if isinstance(rest, Instance) else UnpackType(rest)
        params.append(Param(None, star, VAR_POS))
    return expand_star_params(CallableType(tuple(params), ret))


def literal_form(te: "TypeExprEvaluator", node: ast.Subscript, args: list[ast.expr], ctx: TypeContext) -> Type:
    sl = node.slice
    if isinstance(sl, ast.Tuple) and sl.elts and (sl.lineno, sl.col_offset) != (sl.elts[0].lineno, sl.elts[0].col_offset):
        # `Literal[(1, "a")]`: the tuple is written in parentheses, so it is one (tuple)
        # parameter, which Literal does not accept (spec, "Legal parameters for Literal").
        return te._error(ctx, sl, "Parameter 1 of Literal[...] is invalid")
    items: list[Type] = []
    for i, a in enumerate(args, 1):
        item = te._literal_item(a, ctx)
        if item is None:
            return te._error(ctx, node, invalid_parameter_message(te.ev, ctx.scope, a, i))  # (at the Literal, as mypy)
        items.append(item)
    return make_union([_declared(i) for i in flatten_union(items)])


def literal_item(te: "TypeExprEvaluator", a: ast.expr, ctx: TypeContext) -> Type | None:
    if isinstance(a, ast.Constant):
        if a.value is None:
            return NONE
        if isinstance(a.value, (bool, int, str, bytes)):
            return te.ev.literal(a.value)
        return None
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.USub) and isinstance(a.operand, ast.Constant) and type(a.operand.value) is int:
        return te.ev.literal(-a.operand.value)
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.UAdd) and isinstance(a.operand, ast.Constant) and type(a.operand.value) is int:
        # Spec ("Literal"): `Literal[+5]` is the int literal 5 (a unary + on an int).
        return te.ev.literal(a.operand.value)
    if isinstance(a, ast.Subscript):
        inner = te._eval(a, ctx)
        if isinstance(inner, (LiteralType, NoneType)) or (isinstance(inner, UnionType) and all(isinstance(i, (LiteralType, NoneType)) for i in inner.items)):
            return inner
        return None
    if isinstance(a, ast.Attribute):
        ref = te.ev.resolve_expr(a.value, ctx.scope)
        if ref is not None and ref.kind == "class" and ref.info is not None and ref.info.is_enum_class():
            member = te.ev.members.enum_member(ref.info, a.attr)
            if member is None and a.attr in ref.info.symbols and ref.info.functional_enum_members is None:
                # Spec, "Enums": methods, descriptors, nested classes (and
                # `nonmember(...)`) "are not treated as enum members".
                return None
            return member or LiteralType(a.attr, Instance(ref.info, ()), is_enum=True)
        if ref is not None and ref.kind == "missing":
            return AnyType("special")
        return te._literal_alias(a, ctx)
    if isinstance(a, ast.Name):
        return te._literal_alias(a, ctx)
    return None


def literal_alias(te: "TypeExprEvaluator", a: ast.expr, ctx: TypeContext) -> Type | None:
    """Spec, "Literal": "Literal may also be parameterized by other literal
    types, or type aliases to other literal types" - `Literal[Mode, "c"]`
    with `Mode = Literal["a", "b"]`. Evaluated silently: anything that is not
    a literal alias stays invalid here, with the Literal error only."""
    from dataclasses import replace

    inner = te._eval(a, replace(ctx, report=None, qualifiers=set()))
    if isinstance(inner, AnyType) and inner.reason not in ("error", "explicit"):  # `Literal[Any]` stays invalid
        return inner  # an unresolved import or the like: unknown, not wrong
    if isinstance(inner, (LiteralType, NoneType)) or (isinstance(inner, UnionType) and all(isinstance(i, (LiteralType, NoneType)) for i in inner.items)):
        return inner
    return None


def _declared(t: Type) -> Type:
    """A literal written in a type expression (see `LiteralType.declared`)."""
    return dataclasses.replace(t, declared=True) if isinstance(t, LiteralType) and not t.declared else t


def _is_unpack(te: TypeExprEvaluator, node: ast.Subscript, ctx: TypeContext) -> bool:
    ref = te.ev.resolve_expr(node.value, ctx.scope) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
    return ref is not None and ref.kind == "special" and ref.fullname.endswith(".Unpack")


def misplaced_qualifier(name: str) -> tuple[str, str]:
    """mypy's message and code for a qualifier where none may be (a parameter,
    a return, inside another type)."""
    if name in ("Required", "NotRequired", "ReadOnly"):
        return f"{name}[] can be only used in a TypedDict definition", "valid-type"
    if name == "ClassVar":
        return "ClassVar can only be used for assignments in class body", "misc"
    if name == "Final":
        return "Final can be only used as an outermost qualifier in a variable annotation", "valid-type"
    return f'"{name}" is not allowed in this context', "valid-type"
