"""Calling any callee: dispatch on what is called (function, overloads, class object,
TypedDict, union, Any, __call__ owner), star-argument expansion, instantiation rules;
and calls made with bare types (call_types).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.calls import ARG_KW, ARG_POS, ARG_STAR, Arg, CallSite, Collect, has_star_arg, check_signature, initial_type
from veritype.evaluate.known_calls import answer as known_call
from veritype.evaluate.overload_calls import check_overloaded
from veritype.evaluate.variadic_calls import expand
from veritype.types.param_shape import shape_of
from veritype.types.tuples import expand_star_params
from veritype.types.format import format_type
from veritype.types.model import AnyType, CallableType, Instance, LiteralType, ModuleType, NeverType, NoneType, Overloaded, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnpackType, UnionType, make_union
from veritype.types.subtype import is_subtype
from veritype.evaluate import deprecation
from veritype.evaluate.special_values import SHOWN, not_callable

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def call_type(site: CallSite, callee: Type, args: list[Arg], plain: list[Type] | bool | None = None) -> Type:
    """The type of calling `callee` with `args`; `plain`: check_signature's, for a callable."""
    ev = site.ev
    kind = type(callee)  # (exact classes: the type model has no subclasses of these)
    if kind is CallableType:
        # The common case first (what the tests below do for it, without them).
        for a in args:
            if a.kind == ARG_STAR:
                args = expand_star_tuples(site, args)
                plain = None  # (of other arguments)
                break
        # (variadic_calls.expand, written out: almost no signature has an unpacked `*args`.)
        if shape_of(callee).unpacked_star:  # type: ignore[arg-type]
            callee = expand_star_params(callee)  # type: ignore[arg-type]
            plain = None  # (of another callee)
        return check_signature(site, callee, args, site.report, plain=plain)  # type: ignore[arg-type]
    if kind is Overloaded:
        args = expand_star_tuples(site, args)
        return check_overloaded(site, expand(callee), args)  # type: ignore[arg-type]
    if kind is TypeType:
        return _call_class(site, callee, args)  # type: ignore[arg-type]
    if kind is AnyType:
        for a in args:
            if a.type is None and a.node is not None:
                site.infer(a.node, None)
        return AnyType("implicit") if callee.reason != "error" else callee  # type: ignore[attr-defined]

    if not_callable(callee):
        # "An attempt to call Annotated (whether parameterized or not) should be
        # treated as a type error" (spec); mypy: any special form object.
        for a in args:
            initial_type(site, a)
        site.report(site.node, f'"{SHOWN}" not callable', "operator")
        return AnyType("error")
    if isinstance(callee, Instance):
        if callee.info.fullname == "builtins.type":
            return AnyType("special")
        call = ev.members.instance_member(callee, "__call__", callee) if callee.info.get("__call__") is not None else None
        if call is None:
            if any(c.has_any_base for c in callee.info.mro):
                return AnyType("special")
            site.report(site.node, f'"{format_type(callee)}" not callable', "operator")
            return AnyType("error")

        if deprecation.enabled(ev):
            msg = deprecation.method_message(call)
            if msg is not None:
                site.report(site.node, msg, "deprecated")
        return call_type(site, call, args)
    if isinstance(callee, UnionType):
        results = [call_type(site, item, args) for item in callee.items]
        return make_union(results)
    if isinstance(callee, TypeVarType):
        bound = callee.upper_bound
        if bound is not None:
            return call_type(site, bound, args)
        return AnyType("special")
    if isinstance(callee, NoneType):
        site.report(site.node, '"None" not callable', "misc")
        return AnyType("error")
    if isinstance(callee, (LiteralType, TupleType)):
        site.report(site.node, f'"{format_type(callee)}" not callable', "operator")
        return AnyType("error")
    for a in args:
        if a.type is None and a.node is not None:
            site.infer(a.node, None)
    return AnyType("special")


def expand_star_tuples(site: CallSite, args: list[Arg]) -> list[Arg]:
    """`f(*t)` with `t: tuple[A, B]` is the call `f(a, b)`: one positional argument per item."""
    if not has_star_arg(args):
        return args
    out: list[Arg] = []
    for a in args:
        if a.kind == ARG_STAR:
            from veritype.evaluate.expr_access import as_tuple

            # A NamedTuple instance (`f(*tok)`, tok: TokenInfo) spreads its fields too.
            t = as_tuple(initial_type(site, a))
            if isinstance(t, TupleType) and any(isinstance(i, UnpackType) for i in t.items):
                # `f(*t)` with `t: tuple[int, *tuple[str, ...]]`: the fixed prefix is
                # positional arguments, the rest (of unknown length) stays a `*` argument.
                from veritype.types.tuples import make_tuple, tuple_info, unpack_index

                k = unpack_index(t) or 0
                info = tuple_info(t)
                out.extend(Arg(ARG_POS, node=a.node, type=item) for item in t.items[:k])
                out.append(Arg(ARG_STAR, node=a.node, type=make_tuple(t.items[k:], info) if info is not None else t))
                continue
            if isinstance(t, TupleType):
                out.extend(Arg(ARG_POS, node=a.node, type=item) for item in t.items)
                continue
            tuples = [i for i in t.items if isinstance(i, TupleType)] if isinstance(t, UnionType) else []
            if isinstance(t, UnionType) and tuples and len(tuples) == len(t.items) and len({len(i.items) for i in tuples}) == 1:
                # Fixed tuples of one length (`tuple[str, int] | tuple[Any, Any]`):
                # each position takes the union of the items there.
                out.extend(Arg(ARG_POS, node=a.node, type=make_union([i.items[k] for i in tuples])) for k in range(len(tuples[0].items)))
                continue
            out.append(Arg(ARG_STAR, node=a.node, type=t))
            continue
        out.append(a)
    return out


def _call_class(site: CallSite, callee: TypeType, args: list[Arg]) -> Type:
    ev = site.ev
    item = callee.item
    if type(item) is Instance and not item.info.is_typeddict:
        # A class (the common case), without the tests below for the other items.
        node = site.node
        if _names_class(node, item.info.name):
            _check_instantiable(site, item)
        elif type(node) is ast.Call and type(node.func) is ast.Subscript:
            _subscripted_class_call(site, item)
    elif isinstance(item, AnyType):
        for a in args:
            if a.type is None and a.node is not None:
                site.infer(a.node, None)
        return AnyType("implicit")
    elif isinstance(item, TypeVarType):
        bound = item.upper_bound
        if bound is None and item.kind == "typevar" and not item.values:
            # Spec ("Constructor Calls for type[T]"): evaluated "as if it is being
            # made on" T's bound - `object` when there is none (mypy: "Too many
            # arguments for "object"").
            bound = ev.builtin("object")
        if isinstance(bound, Instance):
            _call_class(site, TypeType(bound), args)
        return item
    elif isinstance(item, UnionType):
        return make_union([_call_class(site, TypeType(i), args) for i in item.items])
    else:
        if isinstance(item, Instance):  # (a TypedDict class: the others are above)
            from veritype.evaluate.typeddicts import typeddict_type

            item = typeddict_type(ev, item)
        if isinstance(item, TypedDictType):
            return _call_typeddict(site, item, args)
        if isinstance(item, Instance) and item.info.is_typeddict:
            for a in args:
                if a.type is None and a.node is not None:
                    site.infer(a.node, None)
            return item
    ctor = ev.constructor_type(callee)
    if ctor is None:
        for a in args:
            if a.type is None and a.node is not None:
                site.infer(a.node, None)
        return AnyType("special")
    if type(item) is Instance and item.info.fullname == "builtins.type" and len(args) == 1 and args[0].kind == ARG_POS:
        return _type_of_value(ev, initial_type(site, args[0]))
    return call_type(site, ctor, args)


def plain_constructor(ev: "Evaluator", callee: TypeType, node: ast.Call) -> CallableType | None:
    """The constructor of the class object `callee` called by `node` where calling
    it is checking a call of that constructor and nothing else (_call_class, for a
    plain class: no TypedDict, not `type` itself, named without type arguments,
    nothing abstract to report, asked before) and the constructor has no type
    variables; else None. Most class instantiations (`C(a, b)`)."""
    item = callee.item
    if type(item) is not Instance:
        return None
    info = item.info
    if info.is_typeddict or type(node.func) is ast.Subscript or info.fullname == "builtins.type":
        return None
    if _names_class(node, info.name) and (info.abstract_names != [] or info.is_protocol):
        return None  # (_check_instantiable's question, not known to need no answer)
    ctor = ev.constructor_type(callee)
    return ctor if type(ctor) is CallableType and not ctor.type_vars else None  # type: ignore[return-value]


def _subscripted_class_call(site: CallSite, item: Instance) -> None:
    """`C[int](...)`: the class's own rules about its type arguments."""
    _unbound_type_application(site, item)
    from veritype.evaluate.constructor_binding import binding_error

    bad = binding_error(site.ev, item)
    if bad is not None:
        site.report(site.node, bad, "misc")


def _call_typeddict(site: CallSite, td: TypedDictType, args: list[Arg]) -> Type:
    """`TD(k=v, ...)` checks each keyword against its item and reports missing
    required keys (spec: the call "is equivalent to" a dict display of the type);
    `TD({...})` and `TD(**other)` check the argument against the TypedDict itself."""
    if any(a.kind != ARG_KW for a in args):
        for a in args:
            if a.type is None and a.node is not None:
                site.infer(a.node, td if a.kind == ARG_POS else None)
        return td
    items = td.item_map()
    name = format_type(td)
    for a in args:
        expected = items.get(a.name or "")
        if expected is None and td.extra is not None and not isinstance(td.extra, NeverType):
            expected = td.extra  # PEP 728: "also allow arbitrary keyword arguments of this type"
        if expected is None:
            initial_type(site, a)
            site.report(a.node or site.node, f'Unexpected keyword argument "{a.name}" for "{name}"', "call-arg")
            continue
        t = a.type if a.type is not None else site.infer(a.node, expected)  # type: ignore[arg-type]
        if not is_subtype(site.ev, t, expected):
            from veritype.types.format import format_pair

            got, exp = format_pair(t, expected)
            site.report(a.node or site.node, f'Incompatible types (expression has type "{got}", TypedDict item "{a.name}" has type "{exp}")', "typeddict-item")
    given = {a.name for a in args}
    missing = [k for k, _ in td.items if k in td.required and k not in given]
    if missing:
        keys = ", ".join(f'"{k}"' for k in missing)
        site.report(site.node, f'Missing key{"s" if len(missing) > 1 else ""} {keys} for TypedDict "{name}"', "typeddict-item")
    return td


def _names_class(node: ast.AST | None, name: str) -> bool:
    """The call spells the class by name (`C()`, `mod.C()`), not through a `type[C]` value."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == name) or (isinstance(func, ast.Attribute) and func.attr == name)


def _unbound_type_application(site: CallSite, item: Instance) -> None:
    """`list[T]()` where nothing binds T (spec, "Scoping rules for type
    variables": a type variable at module level is bound by nothing); mypy's
    message. Type variables bound by an enclosing function or class have a scope."""
    from veritype.types.substitute import type_vars_in

    for tv in type_vars_in(item).values():
        if tv.kind in ("typevar", "paramspec", "typevartuple") and tv.scope == "":
            site.report(site.node.func, f'Type variable "{tv.fullname}" is unbound', "valid-type")  # type: ignore[union-attr]
            return


def _check_instantiable(site: CallSite, item: Instance) -> None:
    info = item.info
    if info.abstract_names == [] and not info.is_protocol:
        # Asked before and nothing is abstract (most classes instantiated): no
        # error whichever branch below answers. (Reading the MRO again does
        # nothing: abstract_members read it after setting the names.)
        return
    if any(c.has_any_base for c in info.mro):
        return
    if info.is_protocol:
        site.report(site.node, f'Cannot instantiate protocol class "{info.name}"', "misc")
        return
    abstract = sorted(site.ev.abstract_members(info))
    if not abstract:
        return
    quoted = [f'"{a}"' for a in abstract]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) <= 5:
        listed = ", ".join(quoted[:-1]) + " and " + quoted[-1]
    else:
        listed = ", ".join(quoted[:2]) + f", ... and {quoted[-1]} ({len(quoted) - 3} methods suppressed)"
    plural = "s" if len(quoted) > 1 else ""
    site.report(site.node, f'Cannot instantiate abstract class "{info.name}" with abstract attribute{plural} {listed}', "abstract")


def _type_of_value(ev: "Evaluator", t: Type) -> Type:
    if isinstance(t, LiteralType):
        return TypeType(t.fallback)
    if isinstance(t, Instance):
        return TypeType(t)
    if isinstance(t, TupleType):
        return TypeType(t.fallback)
    if isinstance(t, UnionType):
        return make_union([_type_of_value(ev, i) for i in t.items])
    if isinstance(t, NoneType):
        return TypeType(ev.instance("types.NoneType"))
    if isinstance(t, TypeVarType):
        return TypeType(t)
    if isinstance(t, AnyType):
        # mypy: `type(x)` of an Any value is `type[Any]`, whose attributes are
        # looked up on `type` (members.class_member).
        return TypeType(t)
    if isinstance(t, ModuleType):
        # `type(os)` is `type[types.ModuleType]`, as mypy: `type(os)("name")` makes a module.
        mod = ev.instance("types.ModuleType")
        return TypeType(mod) if isinstance(mod, Instance) else AnyType("special")
    return AnyType("special")


def call_types(ev: "Evaluator", callee: Type, arg_types: list[Type]) -> Type | None:
    """Call with already-known positional argument types, silently (None on error)."""
    return known_call(ev, callee, arg_types, lambda: _call_types(ev, callee, arg_types))


def _call_types(ev: "Evaluator", callee: Type, arg_types: list[Type]) -> Type | None:
    collect = Collect()

    def infer(node: ast.expr, expected: Type | None) -> Type:
        return AnyType("special")

    def iterate(t: Type, node: ast.AST | None) -> Type:
        from veritype.evaluate.expressions import ExprEvaluator

        return ExprEvaluator(ev, None).iterate(t, None)  # type: ignore[arg-type]

    site = CallSite(ev, infer, collect, None, iterate)
    result = call_type(site, callee, [Arg(ARG_POS, type=t) for t in arg_types])
    if collect.errors:
        return None
    return result
