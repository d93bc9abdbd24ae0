"""Function definitions to callable types: parameters, returns, decorators, overloads.

Signatures come from annotations or from a PEP 484 signature type comment.
An unannotated function has an all-Any signature (mypy's default).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.scopes import Scope
from veritype.semantic.symbols import Symbol
from veritype.syntax.walk import walk_own_body  # noqa: F401  (re-exported: the body walk lives with the other walks)
from veritype.types.model import (
    KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, AnyType, CallableType, Instance, NeverType, NoneType,
    Overloaded, Param, Type, TypedDictType, TypeType, TypeVarType, callable_owner,
)
from veritype.evaluate.deprecation import mark_function
from veritype.evaluate.type_comments import argument_comment_signature, has_argument_comments, signature_from_comment
from veritype.evaluate.type_context import KeptReports
from veritype.evaluate.type_expr import TypeContext
from veritype.types.substitute import type_vars_in

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.type_context import Reporter

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def decorator_names(ev: "Evaluator", node: FuncDef | ast.ClassDef, scope: Scope) -> list[str]:
    """Fully qualified names of the decorators (best effort), e.g. 'builtins.property'.
    A new list each time: callers may change it."""
    if not node.decorator_list:
        return []
    if isinstance(node, ast.ClassDef):
        return _decorator_names(ev, node, scope)
    return list(_def_decorator_names(ev, node, scope))


def _def_decorator_names(ev: "Evaluator", node: FuncDef, scope: Scope) -> "tuple[str, ...] | list[str]":
    """`decorator_names` of a def, not copied: for readers here, which only read it."""
    # Asked again and again of a def (its kind, whether it is an overload, its
    # type, the checks of its class): kept on the node with the scope asked in,
    # once final (no lazy evaluation in progress: the names are found through
    # imports, final once the modules they name are loaded). Only a def's: the
    # engine drops what is kept on those (workspace._drop_evaluations).
    cache = node.__dict__.get("_veritype_cache")
    kept = cache.get("decorators") if cache is not None else None
    if kept is not None and kept[0] is scope:
        return kept[1]  # type: ignore[no-any-return]
    out = _decorator_names(ev, node, scope)
    if not ev.lazy_depth:
        if cache is None:
            cache = node._veritype_cache = {}  # type: ignore[union-attr]
        cache["decorators"] = (scope, tuple(out))
    return out


def _decorator_names(ev: "Evaluator", node: FuncDef | ast.ClassDef, scope: Scope) -> list[str]:
    out: list[str] = []
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        ref = ev.resolve_expr(target, scope) if isinstance(target, (ast.Name, ast.Attribute)) else None
        if ref is not None and ref.kind == "symbol" and ref.sym is not None and ref.scope is not None:
            # An alias of a decorator class (`_magic_enum_attr = property`).
            from veritype.evaluate.declarations import alias_info

            alias = alias_info(ev, ref.sym, ref.scope)
            if alias is not None and isinstance(alias[0], Instance):
                out.append(alias[0].info.fullname)
                continue
        if ref is not None and ref.fullname:
            out.append(ref.fullname)
        elif isinstance(target, ast.Attribute):
            out.append("." + target.attr)  # e.g. `@x.setter`
        else:
            out.append("?")
    return out


OVERLOAD = ("typing.overload", "typing_extensions.overload")
PROPERTY = ("builtins.property", "functools.cached_property", "abc.abstractproperty", "types.DynamicClassAttribute", "enum.property")
STATIC = ("builtins.staticmethod",)
CLASSMETHOD = ("builtins.classmethod",)
# Decorators that leave the function's type as it is.
TRANSPARENT = (
    "typing.final", "typing_extensions.final", "typing.override", "typing_extensions.override",
    "abc.abstractmethod", "typing.no_type_check", "typing_extensions.deprecated", "warnings.deprecated",
    "typing.type_check_only", "typing_extensions.type_check_only", "functools.total_ordering",
    "typing.runtime_checkable", "typing_extensions.runtime_checkable", "enum.unique", "enum.member", "enum.nonmember",
)


# The groups above as sets, for the tests of a def's decorator names below: a
# set's `isdisjoint` tests them in C, where `any()` over a generator made one,
# resumed it for each name and, stopping early, closed it by raising
# GeneratorExit in it (Python 3.11: ~1 us a test; 15k tests on the bench corpus).
_STATIC_SET, _CLASSMETHOD_SET = frozenset(STATIC), frozenset(CLASSMETHOD)
_PROPERTY_SET, _OVERLOAD_SET = frozenset(PROPERTY), frozenset(OVERLOAD)
_ACCESSOR_SUFFIXES = (".setter", ".getter", ".deleter")


def method_kind(ev: "Evaluator", node: FuncDef, scope: Scope) -> str:
    """'static', 'class', 'property' or 'instance' for a function in a class body."""
    names = _def_decorator_names(ev, node, scope) if node.decorator_list else ()
    if names:  # (most defs have no decorator: no scans of an empty list)
        if not _STATIC_SET.isdisjoint(names):
            return "static"
        if not _CLASSMETHOD_SET.isdisjoint(names):
            return "class"
    if node.name == "__new__":
        return "static"
    if node.name in ("__init_subclass__", "__class_getitem__"):
        return "class"
    if names:
        if not _PROPERTY_SET.isdisjoint(names):
            return "property"
        for n in names:
            if n.endswith(_ACCESSOR_SUFFIXES):
                return "property"
    return "instance"


def is_overload(ev: "Evaluator", node: FuncDef, scope: Scope) -> bool:
    if not node.decorator_list:
        return False
    return not _OVERLOAD_SET.isdisjoint(_def_decorator_names(ev, node, scope))


def function_symbol_type(ev: "Evaluator", sym: Symbol, scope: Scope) -> Type:
    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not defs:
        return AnyType("special")
    overloads = [d for d in defs if d.decorator_list and is_overload(ev, d, scope)]  # (most defs: no decorator, no call)
    if overloads:
        items = [function_type(ev, d, scope) for d in overloads]
        callables = [i for i in items if isinstance(i, CallableType)]
        if len(callables) == 1:
            return callables[0]
        if callables:
            return Overloaded(tuple(callables), sym.name)
    first = defs[0]
    if scope.kind == "class" and method_kind(ev, first, scope) == "property":
        return function_type(ev, first, scope, apply_decorators=False)
    return decorated_type(ev, first, scope)


def decorated_type(ev: "Evaluator", node: FuncDef, scope: Scope) -> Type:
    base: Type = function_type(ev, node, scope)
    if not node.decorator_list:
        return base  # (most defs: nothing to apply)
    names = _def_decorator_names(ev, node, scope)
    for dec, name in reversed(list(zip(node.decorator_list, names))):
        if name in TRANSPARENT or name in STATIC or name in CLASSMETHOD or name in OVERLOAD:
            continue
        if name in PROPERTY or name.endswith((".setter", ".getter", ".deleter")):
            continue
        if name == "typing.no_type_check":
            return AnyType("special")
        from veritype.evaluate.expressions import ExprEvaluator

        exprs = ExprEvaluator(ev, scope)
        dec_type = exprs.infer(dec)
        if isinstance(dec_type, AnyType):
            return AnyType("special")
        result = exprs.call_with_types(dec_type, [base], dec)
        if result is None:
            return AnyType("special")
        base = result
        owner = scope.cls.name if scope.kind == "class" and scope.cls is not None else None
        if isinstance(base, (CallableType, Overloaded)) and (base.name != node.name or callable_owner(base) != owner):
            # The decorated function keeps its name in messages (mypy's
            # set_callable_name): 'Argument 1 to "add"', not 'to function';
            # a method's, with its class: 'to "add" of "C"'.
            import dataclasses

            if isinstance(base, Overloaded):
                base = dataclasses.replace(base, name=node.name, items=tuple(dataclasses.replace(i, name=node.name, owner=owner) for i in base.items))
            else:
                base = dataclasses.replace(base, name=node.name, owner=owner)
    return base


def function_scope(ev: "Evaluator", node: FuncDef | ast.Lambda, parent: Scope) -> Scope:
    """The scope of a function's body, with its parameter types filled in."""
    key = "scope"
    cache = getattr(node, "_veritype_cache", None)
    if cache is None:
        cache = {}
        node._veritype_cache = cache  # type: ignore[union-attr]
    cached = cache.get((key, id(parent)))
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    binder = ev.program.binder_for(parent.module)
    table = binder.bind_function(node)
    name = getattr(node, "name", "<lambda>")
    scope = Scope("function", table, parent.module, parent, f"{parent.fullname}.{name}", function=node)
    cache[(key, id(parent))] = scope
    if isinstance(node, ast.Lambda):
        return scope
    # (`function_type`'s kept answer read first: the checker built it for this def.)
    sig = cache.get(("sig", id(parent)))
    if sig is None:
        sig = function_type(ev, node, parent)
    if isinstance(sig, CallableType):
        for tv in sig.type_vars:
            scope.type_vars[tv.fullname] = tv
        for p in sig.params:
            if p.name is None:
                continue
            if p.kind == VAR_POS:
                scope.param_types[p.name] = _star_args_tuple(ev, p.type)
            elif p.kind == VAR_KW:
                scope.param_types[p.name] = ev.builtin("dict", ev.builtin("str"), p.type)
            else:
                scope.param_types[p.name] = p.type
        kwarg = node.args.kwarg
        if kwarg is not None and kwarg.arg not in scope.param_types:
            td = _unpacked_kwargs(ev, kwarg.annotation, TypeContext(parent))
            if td is not None:
                scope.param_types[kwarg.arg] = td  # inside the body, `kwargs` is the TypedDict
        # (Every positional parameter is in `sig.params` under its own name,
        # whether its type came from an annotation or a type comment: `_build`
        # names them after the def's arguments.)
    if getattr(node, "type_params", None):  # (none before Python 3.12, and on most defs)
        # The same owner as the signature's (see `_build`), so that `V` in the body is
        # the parameter's `V`.
        scope.type_params.update(ev.pep695_params(node, f"{parent.fullname}.{node.name}@{node.lineno}", parent))
    return scope


def _unpacked_kwargs(ev: "Evaluator", annotation: ast.expr | None, ctx: object) -> "TypedDictType | None":
    """The TypedDict of a `**kwargs: Unpack[TD]` annotation, else None."""
    inner = _unpack_inner(ev, annotation, ctx)
    if inner is None:
        return None
    td = ev.type_exprs.eval(inner, ctx)  # type: ignore[arg-type]
    return td if isinstance(td, TypedDictType) else None


def _star_args_tuple(ev: "Evaluator", t: Type) -> Type:
    """The tuple `*args` collects inside the body: `tuple[X, ...]` for `*args: X`;
    for `*args: *Ts` / `*args: *tuple[int, *Ts]` (PEP 646), that tuple."""
    from veritype.types.model import TupleType, UnpackType

    if isinstance(t, UnpackType):
        if isinstance(t.item, TupleType):
            return t.item
        info = ev.named_class("builtins.tuple")
        if info is not None:
            from veritype.types.tuples import make_tuple

            return make_tuple([t], info)
        return ev.builtin("tuple", AnyType("special"))
    return ev.builtin("tuple", t)


def _unpack_inner(ev: "Evaluator", annotation: ast.expr | None, ctx: object) -> ast.expr | None:
    """X of an `Unpack[X]` annotation."""
    if not isinstance(annotation, ast.Subscript) or not isinstance(annotation.value, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(annotation.value, ctx.scope, True)  # type: ignore[attr-defined]
    if ref is None or ref.kind != "special" or not ref.fullname.endswith(".Unpack"):
        return None
    return annotation.slice


def function_type(ev: "Evaluator", node: FuncDef, scope: Scope, *, report: "Reporter | None" = None, apply_decorators: bool = False) -> CallableType:
    """The undecorated signature of `node`, defined in `scope`."""

    cache = getattr(node, "_veritype_cache", None)
    if cache is None:
        cache = {}
        node._veritype_cache = cache  # type: ignore[union-attr]
    key = ("sig", id(scope))
    if report is None:
        if key in cache:
            # (Marked when built: `mark_function` keeps its answer on the node.)
            return cache[key]  # type: ignore[no-any-return]
        mark_function(ev, node, scope)
        if scope.module.checked:
            # A def of a module this run checks is built once more, with a
            # reporter, when the checker reaches it: keep what that build would
            # report instead, for the checker to take (`_take_reported`). 1,952
            # of the 6,934 builds on the bench corpus were such a second build.
            # Bound checks of type arguments are left to that build (see
            # KeptReports): most such builds run inside a lazy evaluation.
            kept = KeptReports()
            sig = _build(ev, node, scope, kept)
            cache[key] = sig
            if not kept.bounds_deferred:
                cache[("reported", id(scope))] = kept.messages
            return sig
        sig = _build(ev, node, scope, None)
        cache[key] = sig
        return sig
    taken = _take_reported(cache, id(scope), key, report)
    if taken is not None:
        return taken
    mark_function(ev, node, scope)
    sig = _build(ev, node, scope, report)
    # A build that reports gives the same signature as one that does not: the
    # reporter only receives messages (type_expr's `_error`, `_check_bounds`,
    # `_report_bare_generic` return the same type either way). So it serves
    # later questions too: 1,776 of the 8,710 builds on the bench corpus were a
    # silent build after the reporting one.
    cache.setdefault(key, sig)
    return sig


def _take_reported(cache: dict, scope_id: int, key: object, report: "Reporter") -> CallableType | None:
    """The signature built earlier with its messages kept, those messages given
    to `report`; None when there is none. Taken once: a def checked again (an
    edit's re-check) is built again."""
    reported = cache.pop(("reported", scope_id), None)
    if reported is None or key not in cache:
        return None
    for at, msg, code in reported:
        report(at, msg, code)
    return cache[key]  # type: ignore[no-any-return]


def _build(ev: "Evaluator", node: FuncDef, scope: Scope, report: "Reporter | None") -> CallableType:
    owner = f"{scope.fullname}.{node.name}@{node.lineno}"
    cls = scope.cls if scope.kind == "class" else None
    kind = method_kind(ev, node, scope) if cls is not None else "function"
    type_scope = scope
    pep695 = ev.pep695_params(node, owner, scope) if getattr(node, "type_params", None) else _NO_PARAMS
    if pep695:
        type_scope = Scope("function", scope.table, scope.module, scope, owner)
        type_scope.type_params.update(pep695)
    ctx = TypeContext(type_scope, bind_to=owner, report=report, self_class=cls)

    def ann(expr: ast.expr | None, star: str | None = None) -> Type | None:
        if expr is None:
            return None
        if star is not None:
            return ev.type_exprs.eval_star(expr, ctx, star)
        return ev.type_exprs.eval(expr, ctx)

    args = node.args
    comment_sig = None
    if node.type_comment:
        comment_sig = signature_from_comment(ev, node, ctx, report)
    elif has_argument_comments(node):
        comment_sig = argument_comment_signature(ev, node, ctx)
    posonly = args.posonlyargs
    n_posonly = len(posonly)
    positional = [*posonly, *args.args] if posonly else args.args  # (read only)
    defaults_start = len(positional) - len(args.defaults)
    params: list[Param] = []
    annotated_any = node.returns is not None or comment_sig is not None
    evaluate = ev.type_exprs.eval
    for i, a in enumerate(positional):
        annotation = a.annotation
        if i < n_posonly:
            kind_ = POS_ONLY
        else:
            kind_ = POS_OR_KW
            # Parameters named with a leading double underscore are positional-only (PEP 484).
            if not n_posonly and a.arg.startswith("__") and not a.arg.endswith("__"):
                kind_ = POS_ONLY
        if comment_sig is not None:
            t = comment_sig.param_type(i, a.arg)
        elif annotation is not None:
            t = evaluate(annotation, ctx)
        else:
            t = None
        if annotation is not None:
            annotated_any = True
        if t is None:
            if i == 0 and cls is not None and kind in ("instance", "property"):
                t = cls.self_instance()
            elif i == 0 and cls is not None and kind == "class" or (i == 0 and cls is not None and node.name == "__new__"):
                t = TypeType(cls.self_instance())
            else:
                t = AnyType("unannotated")
        params.append(Param(a.arg, t, kind_, i >= defaults_start))
    if args.vararg is not None:
        ctx.star_param = True  # `*args: *Ts` / `*args: *tuple[...]` (PEP 646)
        try:
            t = comment_sig.star_type() if comment_sig is not None else ann(args.vararg.annotation, "*")
        finally:
            ctx.star_param = False
        if args.vararg.annotation is not None:
            annotated_any = True
        params.append(Param(args.vararg.arg, t if t is not None else AnyType("unannotated"), VAR_POS))
    for a, default in zip(args.kwonlyargs, args.kw_defaults):
        t = comment_sig.kw_type(a.arg) if comment_sig is not None else ann(a.annotation)
        if a.annotation is not None:
            annotated_any = True
        params.append(Param(a.arg, t if t is not None else AnyType("unannotated"), KW_ONLY, default is not None))
    kwargs_unpacked = False
    if args.kwarg is not None:
        unpacked = _unpacked_kwargs(ev, args.kwarg.annotation, ctx) if comment_sig is None else None
        t = comment_sig.star2_type() if comment_sig is not None else ann(args.kwarg.annotation, "**") if unpacked is None else None
        if args.kwarg.annotation is not None:
            annotated_any = True
        if unpacked is None and report is not None and comment_sig is None and _unpack_inner(ev, args.kwarg.annotation, ctx) is not None:
            report(args.kwarg.annotation, 'Unpack item in ** argument must be a TypedDict', "misc")  # type: ignore[arg-type]
        kwargs_unpacked = unpacked is not None
        if unpacked is not None:
            # `**kwargs: Unpack[TD]` (spec, "Unpack for keyword arguments"): one
            # keyword-only parameter per item, with a default when not required.
            taken = {p.name for p in params if p.kind != POS_ONLY}
            clash = [k for k, _ in unpacked.items if k in taken]
            if clash and report is not None:
                report(args.kwarg.annotation, f'Overlap between argument names and ** TypedDict items: "{clash[0]}"', "misc")  # type: ignore[arg-type]
            params.extend(Param(k, v, KW_ONLY, k not in unpacked.required) for k, v in unpacked.items)
            if unpacked.extra is not None and not isinstance(unpacked.extra, NeverType):
                # PEP 728: "Unpack[SomeTypedDict] with extra items should be treated as
                # its equivalent in regular parameters" - the extra items are **kwargs.
                params.append(Param(args.kwarg.arg, unpacked.extra, VAR_KW))
        else:
            params.append(Param(args.kwarg.arg, t if t is not None else AnyType("unannotated"), VAR_KW))
    ctx.guard = None
    if comment_sig is not None and node.type_comment:
        ret: Type | None = comment_sig.ret
    else:
        ret = ann(node.returns) if node.returns is not None else None
    guard = ctx.guard
    if ret is None:
        if node.name == "__init__" and annotated_any:
            ret = NoneType()
        else:
            ret = AnyType("unannotated")
    if isinstance(node, ast.AsyncFunctionDef) and not _is_generator(node):
        ret = ev.instance("typing.Coroutine", (AnyType("implicit"), AnyType("implicit"), ret))
    type_vars = tuple(ctx.bound.values()) + tuple(pep695.values())
    # A `Self` in the signature is bound to this method.
    self_vars = _self_vars(params, ret)
    type_vars = type_vars + tuple(self_vars)
    if self_vars and params and cls is not None and positional and positional[0].annotation is None and comment_sig is None:
        # `def copy(self) -> Self`: the unannotated self is Self too (spec, "Self").
        first = params[0]
        self_tv = self_vars[0]
        is_cls = kind == "class" or node.name == "__new__"
        params[0] = Param(first.name, TypeType(self_tv) if is_cls else self_tv, first.kind, first.has_default)
    return CallableType(
        tuple(params), ret, type_vars, node.name, definition=node,
        type_guard=guard[1] if guard and guard[0] == "TypeGuard" else None,
        type_is=guard[1] if guard and guard[0] == "TypeIs" else None,
        is_untyped=not annotated_any, is_async=isinstance(node, ast.AsyncFunctionDef),
        kwargs_unpacked=kwargs_unpacked, owner=cls.name if cls is not None else None,
    )


_NO_PARAMS: dict[str, TypeVarType] = {}  # (read only: a def without PEP 695 parameters)


def _self_vars(params: list[Param], ret: Type) -> list[TypeVarType]:
    found: dict[object, TypeVarType] = {}
    for p in params:
        t = p.type
        if type(t) is Instance and not t.args:  # type: ignore[attr-defined]
            continue  # (most parameters: a plain class mentions no type variable)
        for k, v in type_vars_in(t).items():
            if v.kind == "self":
                found[k] = v
    for k, v in type_vars_in(ret).items():
        if v.kind == "self":
            found[k] = v
    return list(found.values())


def _is_generator(node: FuncDef) -> bool:
    # Asked for the same def by several rules (and the method walker): the
    # answer is kept on the node rather than walking the body each time. The
    # binder sets it to False beforehand on every def whose lines hold no
    # `yield` (semantic/binder.py, yield_lines).
    known = getattr(node, "_vt_is_generator", None)
    if known is None:
        # (A loop over the walk, not `any()` over a second generator on top of it.)
        known = False
        for sub in walk_own_body(node):
            if isinstance(sub, (ast.Yield, ast.YieldFrom)):
                known = True
                break
        node._vt_is_generator = known  # type: ignore[union-attr]
    return known


def is_generator(node: FuncDef) -> bool:
    return _is_generator(node)
