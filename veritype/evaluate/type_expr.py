"""Type expressions: annotations (and other places the spec allows types) to types.

Follows the typing spec's grammar of type expressions ("Type annotations",
"Special types in annotations"): names of classes, aliases and type
variables; subscripted generics and special forms; `X | Y`; string forward
references. Anything else is a `valid-type` error and evaluates to Any.
Special forms (Callable, tuple, Literal, qualifiers) are in
`type_expr_special`, the context of an evaluation in `type_context`.
"""

from __future__ import annotations

import ast
import dataclasses
import keyword
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.syntax.walk import walk as walk_nodes
from veritype.evaluate.scopes import Scope
from veritype.evaluate.scoped_aliases import variable_not_alias
from veritype.evaluate.bare_generic_aliases import report_bare_alias_use
from veritype.evaluate.type_context import CALLABLE_NOTE, VARIABLE_NOTE, KeptReports, TypeContext, unpacking
from veritype.semantic import symbols as S
from veritype.types.model import (
    ANY_ERROR, ANY_UNBOUND_NAME, POS_ONLY, AnyType, CallableType, Instance, LiteralType,
    NoneType, Param, TupleType, Type, TypeType, TypeVarType, UnionType, UnpackType, make_union, NONE,
)
from veritype.types.alias_ref import AliasRef, expand_top
from veritype.types.substitute import substitute, tv_key
from veritype.types.type_var_defaults import fill_defaults, type_var_default
from veritype.types.tuples import make_tuple, splice
from veritype.evaluate import kept_type_names, type_expr_special
from veritype.evaluate.kept_type_names import KEPT
from veritype.evaluate.type_expr_special import _is_unpack
from veritype.evaluate.classes import ClassInfo
from veritype.evaluate.functional_classes import functional_class
from veritype.evaluate.newtype import newtype_info
from veritype.evaluate.type_expr_variables import computed_value
from veritype.evaluate.ellipsis_args import BRACKETED, BRACKETED_NOTE, report_ellipsis_args
from veritype.types.format import format_type
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.semantic.symbols import Symbol
    from veritype.evaluate.evaluator import Evaluator, Ref

class TypeExprEvaluator:
    def __init__(self, ev: "Evaluator") -> None:
        self.ev = ev

    def evaluate(self, node: ast.expr, scope: Scope, **kw: object) -> Type:
        return self.eval(node, TypeContext(scope, **kw))  # type: ignore[arg-type]

    def evaluate_default(self, node: ast.expr, scope: Scope, kind: str, **kw: object) -> Type:
        """A type variable's `default=` (PEP 696): for a ParamSpec, a parameter list
        (`[int, str]`, `...`, another ParamSpec)."""
        ctx = TypeContext(scope, **kw)  # type: ignore[arg-type]
        if kind == "paramspec":
            plist = self._param_list(node, ctx)
            if plist is not None:
                return plist
        return self.eval(node, ctx)

    def eval(self, node: ast.expr, ctx: TypeContext) -> Type:
        try:
            if type(node) is ast.Name:
                # The commonest type expression (`int`, `str`, a project's class,
                # most often kept for the scope): `_eval`'s first branch, without its call.
                return self._name_type(node, ctx, True)
            return self._eval(node, ctx, top=True)
        except RecursionError:
            from veritype.diagnostics import bounds

            bounds.hit("recursion limit in a type expression", f"line {getattr(node, 'lineno', '?')}")
            return AnyType("special")

    def eval_star(self, node: ast.expr, ctx: TypeContext, star: str) -> Type:
        """The annotation of `*args` (star "*") or `**kwargs` (star "**")."""
        saved, ctx.star = ctx.star, star
        try:
            return self.eval(node, ctx)
        finally:
            ctx.star = saved

    # -- reporting ------------------------------------------------------------

    def _error(self, ctx: TypeContext, node: ast.AST, msg: str, code: str = "valid-type", note: str | None = None) -> Type:
        """Report `msg` (and mypy's `note` after it: a reporter takes code "note" as a note)."""
        if ctx.report is not None:
            ctx.report(node, msg, code)
            if note is not None:
                ctx.report(node, note, "note")
        return ANY_ERROR

    # -- the grammar ----------------------------------------------------------

    def _eval(self, node: ast.expr, ctx: TypeContext, top: bool = False) -> Type:
        tp = type(node)
        if tp is ast.Name or tp is ast.Attribute:
            # The commonest annotation (`int`, `Foo`, `mod.Cls`), tested first
            # by exact class (the parser makes no subclasses of these nodes).
            return self._name_type(node, ctx, top)
        if tp is ast.Subscript:
            t = self._subscript(node, ctx, top)  # type: ignore[arg-type]  # (as below, without the tests before it)
            # (`expand_top` asked only of what may hold an alias reference at the top.)
            return expand_top(t) if type(t) is AliasRef or type(t) is UnionType else t
        if isinstance(node, ast.Constant):
            if node.value is None:
                return NONE
            if isinstance(node.value, str):
                return self._forward_ref(node, ctx, top)
            if node.value is Ellipsis:
                return self._error(ctx, node, 'Unexpected "..."', "misc")
            return self._error(ctx, node, "Invalid type: try using Literal[%r] instead?" % (node.value,))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return make_union([self._eval(node.left, ctx), self._eval(node.right, ctx)])
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self._name_type(node, ctx, top)
        if isinstance(node, ast.Subscript):
            return expand_top(self._subscript(node, ctx, top))
        if isinstance(node, (ast.List, ast.Tuple)):
            if isinstance(node, ast.List):
                return self._error(ctx, node, BRACKETED, note=BRACKETED_NOTE)
            return self._error(ctx, node, "Syntax error in type annotation")
        if isinstance(node, ast.Call):
            return self._error(ctx, node, "Invalid type comment or annotation")
        if isinstance(node, ast.Starred):
            # `*args: *Ts` / `*args: *tuple[int, ...]` (PEP 646; Python allows the star
            # only there, and inside subscripts, which handle it themselves).
            if top and ctx.star_param:
                return self._star_annotation(node.value, node, ctx)
            self._eval(node.value, unpacking(ctx))
            return AnyType("special")
        return self._error(ctx, node, "Invalid type comment or annotation")

    def _name_type(self, node: ast.expr, ctx: TypeContext, top: bool) -> Type:
        """A name or dotted name used as a type."""
        if type(node) is ast.Name and not self.ev.type_params_seen:
            # A bare name kept for the scope (`int`, `str`, a project's class).
            known = ctx.scope.__dict__.get(KEPT)  # (see kept_type_names)
            hit = known.get(node.id) if known is not None else None
            if hit is None:
                hit = kept_type_names.kept_outside(ctx.scope, node.id, node.id)
            if hit is not None:
                return hit  # type: ignore[return-value]
        t = self._named(node, ctx, top)
        if type(t) is AliasRef or type(t) is UnionType:
            t = expand_top(t)  # an alias's value may start with another alias
        if isinstance(t, TypeVarType) and t.kind == "paramspec" and not _is_component(node):
            # Spec, "ParamSpec": a ParamSpec is valid only as the first argument of
            # Callable, the last of Concatenate, or a type argument for a ParamSpec
            # parameter; those places read it through `_spec_name`, not here.
            self._error(ctx, node, f'Invalid location for ParamSpec "{t.name}"')
        return t

    # -- unpacked variadics (PEP 646) ------------------------------------------

    def _unpack_node(self, node: ast.expr, ctx: TypeContext) -> ast.expr | None:
        """X of `*X` or `Unpack[X]`, else None."""
        if isinstance(node, ast.Starred):
            return node.value
        if isinstance(node, ast.Subscript) and _is_unpack(self, node, ctx):
            return node.slice
        return None

    def _unpacked(self, inner: ast.expr, at: ast.AST, ctx: TypeContext) -> Type:
        """`*X`: an UnpackType for a TypeVarTuple, an unbounded tuple, or a fixed tuple
        (which its surroundings splice); Any when X is unknown or invalid."""
        t = self._eval(inner, unpacking(ctx))
        if isinstance(t, TypeVarType) and t.kind == "typevartuple":
            return UnpackType(t)
        if isinstance(t, TupleType) and t.fallback.info.fullname == "builtins.tuple":
            return UnpackType(t)
        if isinstance(t, Instance) and t.info.fullname == "builtins.tuple" and len(t.args) == 1:
            return UnpackType(t)
        if isinstance(t, AnyType):
            return t
        from veritype.types.format import format_type

        return self._error(ctx, at, f'"{format_type(t)}" cannot be unpacked (must be tuple or TypeVarTuple)')

    def _star_annotation(self, inner: ast.expr, at: ast.AST, ctx: TypeContext) -> Type:
        """`*args: *X` (or `Unpack[X]`): the parameter's type, an UnpackType (see
        model.UnpackType); `*tuple[X, ...]` is plain `*args: X`."""
        u = self._unpacked(inner, at, ctx)
        if not isinstance(u, UnpackType):
            return u
        if isinstance(u.item, Instance):
            return u.item.args[0]
        if isinstance(u.item, TupleType):
            flat = make_tuple(u.item.items, u.item.fallback.info)
            if isinstance(flat, Instance):
                return flat.args[0]
            return UnpackType(flat)
        return u

    def _variadic_items(self, args: list[ast.expr], node: ast.AST, ctx: TypeContext) -> list[Type] | None:
        """Type arguments where unpacked parts are allowed (a tuple's items, a variadic
        class's or alias's arguments): normalized, at most one unbounded part; None
        (after reporting) when invalid or unknown."""
        items: list[Type] = []
        for a in args:
            inner = self._unpack_node(a, ctx)
            if inner is None:
                items.append(self._eval(a, ctx))
                continue
            u = self._unpacked(inner, a, ctx)
            if not isinstance(u, UnpackType):
                return None
            items.append(u)
        flat = splice(items)
        if flat is None:
            # Spec, "Tuples" ("Unpacked tuple form"): "Only one unbounded tuple can
            # be used within another tuple" (an unpacked TypeVarTuple counts as one).
            self._error(ctx, node, "More than one variadic Unpack in a type is not allowed")
            return None
        return flat

    def _forward_ref(self, node: ast.Constant, ctx: TypeContext, top: bool) -> Type:
        text = str(node.value).strip()
        expr: ast.expr | None
        try:
            expr = _parse_forward(text)
        except SyntaxError:
            try:
                # Spec ("String annotations"): a triple-quoted annotation "should be parsed as
                # though it is implicitly surrounded by parentheses" (newlines allowed).
                expr = ast.parse(f"({text})", mode="eval").body if "\n" in text else None
            except SyntaxError:
                expr = None
            if expr is None:
                return self._error(ctx, node, f'Syntax error in forward reference "{text}"', "valid-type")
        # Positions inside the string map to the string's own position.
        for sub in walk_nodes(expr):
            if hasattr(sub, "lineno"):
                sub.lineno = node.lineno  # type: ignore[attr-defined]
                sub.col_offset = node.col_offset  # type: ignore[attr-defined]
                sub.end_lineno = node.end_lineno  # type: ignore[attr-defined]
                sub.end_col_offset = node.end_col_offset  # type: ignore[attr-defined]
        saved, ctx.in_string = ctx.in_string, True
        try:
            return self._eval(expr, ctx, top)
        finally:
            ctx.in_string = saved

    def _named(self, node: ast.expr, ctx: TypeContext, top: bool) -> Type:
        if isinstance(node, ast.Attribute) and node.attr in ("args", "kwargs") and isinstance(node.value, ast.Name):
            spec = self._paramspec_named(node.value, ctx)
            if spec is not None:
                # `*args: P.args, **kwargs: P.kwargs`: the parameter's type is P itself
                # (see substitute.paramspec_tail).
                self._check_component(node, spec, ctx, top)
                return spec
        ref = self.ev.resolve_expr(node, ctx.scope, True)
        if ref is None:
            if isinstance(node, ast.Name):
                return self._error(ctx, node, f'Name "{node.id}" is not defined', "name-defined")
            return self._error(ctx, node, f'Name "{ast.unparse(node)}" is not defined', "name-defined")
        return self._from_ref(ref, node, ctx, top)

    def _check_component(self, node: ast.Attribute, spec: TypeVarType, ctx: TypeContext, top: bool) -> None:
        """Spec, "The components of a ParamSpec": `P.args` annotates only `*args` and
        `P.kwargs` only `**kwargs` (messages as mypy's)."""
        if not top or ctx.star is None:
            self._error(ctx, node, "ParamSpec components are not allowed here")
        elif ctx.star == "*" and node.attr != "args":
            self._error(ctx, node, f'Use "{spec.name}.args" for variadic "*" parameter')
        elif ctx.star == "**" and node.attr != "kwargs":
            self._error(ctx, node, f'Use "{spec.name}.kwargs" for variadic "**" parameter')

    def _spec_name(self, node: ast.expr, ctx: TypeContext) -> Type:
        """A name where a ParamSpec is allowed (no location check)."""
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self._named(node, ctx, False)
        return self._eval(node, ctx)

    def _paramspec_named(self, node: ast.Name, ctx: TypeContext) -> TypeVarType | None:
        ref = self.ev.resolve_expr(node, ctx.scope, True)
        if ref is None or ref.kind not in ("typeparam", "var") and ref.sym is None:
            return None
        if ref.kind == "typeparam":
            tv = ctx.scope.lookup_type_param(node.id)
            return tv if isinstance(tv, TypeVarType) and tv.kind == "paramspec" else None
        if ref.sym is None or ref.scope is None:
            return None
        from veritype.evaluate import declarations as D

        tv = D.typevar_declaration(self.ev, ref.sym, ref.scope)
        if tv is None or tv.kind != "paramspec":
            return None
        bound = self._bind_typevar(tv, ctx)
        return bound if isinstance(bound, TypeVarType) else None

    def _from_ref(self, ref: "Ref", node: ast.expr, ctx: TypeContext, top: bool) -> Type:
        if ref.kind == "missing":
            return AnyType("unimported" if ref.unimported else "special")
        if ref.kind == "typeparam":
            tv = ctx.scope.lookup_type_param(node.id) if isinstance(node, ast.Name) else None
            if isinstance(tv, TypeVarType) and tv.kind == "typevartuple" and not ctx.unpacking:
                return self._bare_variadic(tv, node, ctx)
            return tv if tv is not None else AnyType("special")
        if ref.kind == "module":
            return self._error(ctx, node, f'Module "{ref.fullname}" is not valid as a type')
        if ref.kind == "class" and ref.info is not None:
            info = ref.info
            if info.fullname == "types.NoneType":
                # mypy (on by default): the spec spells this type `None`; read as None.
                self._error(ctx, node, "NoneType should not be used as a type, please use None instead", "nonetype-type")
                return NoneType()
            if not info.type_vars and info.fullname != "builtins.tuple":
                # Most classes named (`str`, `int`, a project's own): nothing to
                # report bare nor to fill, as below with no type variables.
                if info.is_typeddict:
                    return _typeddict_or(self.ev, info.no_args_instance())
                if type(node) is ast.Name:
                    return kept_type_names.keep_plain_class(self.ev, node.id, info, ctx.scope)
                return info.no_args_instance()
            if info.fullname == "builtins.tuple":
                type_expr_special.report_bare_tuple(self, ctx, node, top)
            elif any(tv.default is None for tv in info.type_vars):  # all defaulted: not "missing" (mypy)
                self._report_bare_generic(ctx, node, info.name, top)
            if info.fullname == "builtins.tuple":
                return Instance(info, (AnyType("implicit"),))
            return _typeddict_or(self.ev, Instance(info, fill_defaults(info.type_vars, [])))
        if ref.kind == "special":
            return self._bare_special(ref.fullname.rpartition(".")[2], node, ctx, top)
        if ref.sym is not None and ref.scope is not None:
            return self._from_symbol(ref, node, ctx)
        return AnyType("special")

    def _report_bare_generic(self, ctx: TypeContext, node: ast.expr, name: str, top: bool) -> None:
        """--disallow-any-generics: a generic class (or Callable) used without arguments."""
        if ctx.report is not None and not (top and ctx.alias_value) and (ctx.disallow_any_generics or self._any_generics_disallowed(ctx)):
            ctx.report(node, f'Missing type arguments for generic type "{name}"', "type-arg")

    def _any_generics_disallowed(self, ctx: TypeContext) -> bool:
        """--disallow-any-generics for the module the annotation is in (per-module overrides apply)."""
        module = getattr(ctx.scope.module, "name", None)
        if module is None:
            return False
        return bool(self.ev.program.options.for_module(module).disallow_any_generics)

    def _from_symbol(self, ref: "Ref", node: ast.expr, ctx: TypeContext) -> Type:
        from veritype.evaluate import declarations as D

        sym, scope = ref.sym, ref.scope
        assert sym is not None and scope is not None
        tv = D.typevar_declaration(self.ev, sym, scope)
        if tv is not None:
            if tv.kind == "typevartuple" and not ctx.unpacking:
                self._bind_typevar(tv, ctx)
                return self._bare_variadic(tv, node, ctx)
            return self._bind_typevar(tv, ctx)

        newtype = newtype_info(self.ev, sym, scope)
        if newtype is not None:
            return Instance(newtype, ())

        made = functional_class(self.ev, sym, scope)
        if made is not None:
            return _typeddict_or(self.ev, Instance(made, ()))
        if D.alias_busy(sym):
            return self._recursive_use(sym, scope, (), ctx)
        info = D.alias_info(self.ev, sym, scope)
        if info is not None:
            alias, params = info
            report_bare_alias_use(self, ctx, node, sym, scope)  # (`x: C` after `C = tuple`: --disallow-any-generics)
            if params:
                return substitute(alias, {tv_key(p): type_var_default(p) for p in params})
            return alias
        if sym.kind == S.FUNC:
            return self._error(ctx, node, f'Function "{ref.fullname}" is not valid as a type', note=CALLABLE_NOTE)
        if sym.kind in (S.VAR, S.PARAM):
            decl = sym.node
            computed = computed_value(self.ev, decl, scope)
            if isinstance(decl, (ast.Assign, ast.AnnAssign)) and isinstance(decl.value, ast.Call) and not computed:
                # Made by a call we do not model (a NewType-like factory, a sentinel,
                # a TypeVarTuple from another module): unknown, so silent.
                return AnyType("special")
            if scope.module.is_stub or scope.module.name in ("typing", "typing_extensions"):
                return AnyType("special")
            value = self.ev.symbol_type(sym, scope)
            computed = computed or isinstance(decl, ast.For) or variable_not_alias(decl, scope)  # (a loop's target, `loc = int` in a function: no alias, mypy reports it)
            if isinstance(value, AnyType) and not computed:
                return AnyType("special")
            if isinstance(value, TypeType) and sym.annotation is None and not computed:
                return value.item
            # mypy names a function's local by its bare name, a module's variable in full.
            shown = sym.name if scope.kind == "function" else ref.fullname
            self._error(ctx, node, f'Variable "{shown}" is not valid as a type', note=VARIABLE_NOTE)
            return ANY_UNBOUND_NAME
        return AnyType("special")

    def _bare_variadic(self, tv: TypeVarType, node: ast.AST, ctx: TypeContext) -> Type:
        # Spec, "TypeVarTuple" ("Type Variable Tuples Must Always be Unpacked"):
        # `tuple[Ts]` or `*args: Ts` is an error; `*Ts` / `Unpack[Ts]` is required.
        return self._error(ctx, node, f'TypeVarTuple "{tv.name}" is only valid with an unpack')

    def _recursive_use(self, sym: "Symbol", scope: Scope, args: tuple[Type, ...], ctx: TypeContext) -> Type:
        """The alias `sym` named in its own value: a recursive reference where the
        name is not looked up at run time when the value is made - in a string, or
        anywhere in a (lazy) `type` statement, or an alias object TypeAliasType made.
        Elsewhere the name means an earlier binding or a builtin (`ExceptionGroup =
        ExceptionGroup`): unknown, so Any."""
        from veritype.evaluate import declarations as D

        if ctx.in_string or sym.kind == S.TYPE_ALIAS or D.type_alias_type_call(self.ev, sym, scope) is not None:
            return D.alias_ref(self.ev, sym, scope, args)  # (a TypeAliasType object exists once made)
        return AnyType("special")

    def _bind_typevar(self, tv: TypeVarType, ctx: TypeContext) -> Type:
        if ctx.outer and tv.fullname in ctx.outer:
            return ctx.outer[tv.fullname]
        bound = ctx.scope.bound_type_vars()
        if tv.fullname in bound:
            return bound[tv.fullname]
        if tv.fullname in ctx.bound:
            return ctx.bound[tv.fullname]
        if ctx.bind_to is not None:
            new = TypeVarType(tv.name, tv.fullname, ctx.bind_to, tv.upper_bound, tv.values, tv.variance, tv.default, tv.kind)
            ctx.bound[tv.fullname] = new
            return new
        return tv

    _bare_special = type_expr_special.bare_special
    def _self_type(self, node: ast.AST, ctx: TypeContext) -> Type:
        cls = ctx.self_class if ctx.self_class is not None else ctx.scope.enclosing_class()
        if cls is None:
            return self._error(ctx, node, 'Self type is only allowed in annotations within class definition', "misc")
        inst = cls.self_instance()
        if ctx.bind_to is None:
            # In a method's body (`x: Self = self`), the method's own Self: the one its
            # signature bound, not a second Self that would not match it.
            bound = ctx.scope.bound_type_vars().get(f"{cls.fullname}.Self")
            if bound is not None:
                return bound
        return TypeVarType("Self", f"{cls.fullname}.Self", ctx.bind_to or cls.fullname, inst, kind="self")

    # -- subscripts -----------------------------------------------------------

    def _subscript(self, node: ast.Subscript, ctx: TypeContext, top: bool) -> Type:
        head = node.value
        if type(head) is ast.Name:
            ref: Ref | None = None
            if not self.ev.type_params_seen:  # (else a type parameter may shadow the name: not kept)
                known = ctx.scope.__dict__.get(KEPT)  # (see kept_type_names)
                ref = known.get("[" + head.id) if known is not None else None
                if ref is None:
                    ref = kept_type_names.kept_outside(ctx.scope, "[" + head.id, head.id)  # type: ignore[assignment]
            if ref is None:
                ref = kept_type_names.head_ref(self.ev, head, ctx.scope)
        else:
            ref = self.ev.resolve_expr(head, ctx.scope, True) if type(head) is ast.Attribute else None
        if ref is None:
            if isinstance(node.value, (ast.Name, ast.Attribute)):
                return self._named(node.value, ctx, top)
            return self._error(ctx, node, "Invalid type comment or annotation")
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if ref.kind == "special":
            return self._special_subscript(ref.fullname.rpartition(".")[2], node, args, ctx, top)
        if ref.kind == "class" and ref.info is not None:
            return self._generic(ref.info, node, args, ctx)
        if ref.kind == "missing":
            for a in args:
                self._eval_arg(a, ctx)
            return AnyType("unimported" if ref.unimported else "special")
        if ref.sym is not None and ref.scope is not None:
            from veritype.evaluate import declarations as D

            if D.alias_busy(ref.sym):
                # A recursive use inside the alias's own value (`list["Tree[T]"]`).
                return self._recursive_use(ref.sym, ref.scope, tuple(self._eval_arg(a, ctx) for a in args), ctx)
            ainfo = D.alias_info(self.ev, ref.sym, ref.scope)
            if ainfo is not None:
                alias, params = ainfo
                if any(p.kind == "paramspec" for p in params):
                    return self._paramspec_alias(alias, params, node, args, ctx)
                variadic = [p for p in params if p.kind == "typevartuple"]
                if len(variadic) == 1:
                    packed = self._pack_variadic(params, args, node, ctx, "Bad number of arguments for type alias, expected", "type-arg")
                    if packed is None:
                        return substitute(alias, {tv_key(p): AnyType("special") for p in params})
                    return substitute(alias, {tv_key(p): v for p, v in zip(params, packed)})
                if not variadic and self._rejected_unpack(args, ctx):
                    return substitute(alias, {tv_key(p): AnyType("error") for p in params})
                values = [self._eval_arg(a, ctx) for a in args]
                if params:
                    report_ellipsis_args(self, args, ctx)
                if not params:
                    if isinstance(alias, AnyType):
                        return alias
                    return self._error(ctx, node, "Bad number of arguments for type alias, expected 0, given %d" % len(values), "type-arg")
                if len(values) != len(params):
                    if not any(p.kind == "typevartuple" or p.kind == "paramspec" for p in params):
                        self._error(ctx, node, f"Bad number of arguments for type alias, expected {len(params)}, given {len(values)}", "type-arg")
                    return substitute(alias, {tv_key(p): AnyType("special") for p in params})
                self._check_bounds(_AliasName(ast.unparse(node.value)), params, values, args, ctx)
                return substitute(alias, {tv_key(p): v for p, v in zip(params, values)})
            newtype_or_class = self._from_symbol(ref, node.value, ctx)
            if isinstance(newtype_or_class, AnyType):
                return newtype_or_class
            return self._error(ctx, node, f'"{ast.unparse(node.value)}" is not subscriptable' if not isinstance(newtype_or_class, Instance) else f'"{newtype_or_class.info.name}" expects no type arguments, but {len(args)} given', "valid-type" if not isinstance(newtype_or_class, Instance) else "type-arg")
        return AnyType("special")

    _param_list = type_expr_special.param_list
    def _paramspec_alias(self, alias: Type, params: tuple[TypeVarType, ...], node: ast.Subscript, args: list[ast.expr], ctx: TypeContext) -> Type:
        """Specialize an alias with a ParamSpec parameter (spec, "ParamSpec"): its argument
        is a parameter list, `...`, a ParamSpec or Concatenate; with the ParamSpec as the
        only parameter, `Alias[int, str]` means `Alias[[int, str]]`."""
        if len(params) == 1 and not (len(args) == 1 and self._param_list(args[0], ctx) is not None):
            plists: list[CallableType | None] = [CallableType(tuple(Param(None, self._eval(a, ctx), POS_ONLY) for a in args), AnyType("special"))]
            args = [node.slice]
        else:
            plists = [self._param_list(a, ctx) if p.kind == "paramspec" else None for p, a in zip(params, args)]
        if len(args) != len(params) or any(p.kind == "typevartuple" for p in params):
            if not any(p.kind == "typevartuple" for p in params):
                self._error(ctx, node, f"Bad number of arguments for type alias, expected {len(params)}, given {len(args)}", "type-arg")
            for a in args:
                self._eval_arg(a, ctx, spec_ok=True)  # the alias has a ParamSpec parameter
            # The parameters before a TypeVarTuple take one argument each: their bounds hold.
            first_variadic = next((i for i, p in enumerate(params) if p.kind == "typevartuple"), None)
            if first_variadic is not None and len(args) >= first_variadic:
                lead = [(p, a) for p, a in list(zip(params, args))[:first_variadic] if p.kind == "typevar"]
                silent = dataclasses.replace(ctx, report=None)
                self._check_bounds(_AliasName(ast.unparse(node.value)), tuple(p for p, _ in lead), [self._eval_arg(a, silent) for _, a in lead], [a for _, a in lead], ctx)
            return substitute(alias, {tv_key(p): AnyType("special") for p in params})
        mapping: dict = {}
        for p, a, plist in zip(params, args, plists):
            if p.kind == "paramspec":
                if plist is None:
                    self._eval_arg(a, ctx)
                    self._error(ctx, a, f'Can only replace ParamSpec with a parameter types list or another ParamSpec, got "{ast.unparse(a)}"', "valid-type")
                    mapping[tv_key(p)] = AnyType("error")
                else:
                    mapping[tv_key(p)] = plist
            elif self._param_list(a, ctx) is not None and not isinstance(a, (ast.Name, ast.Attribute)):
                mapping[tv_key(p)] = self._error(ctx, a, 'Bracketed expression "[...]" is not valid as a type' if isinstance(a, ast.List) else 'Unexpected "..."', "valid-type")
            else:
                mapping[tv_key(p)] = self._eval(a, ctx)
        self._check_bounds(_AliasName(ast.unparse(node.value)), params, [mapping[tv_key(p)] for p in params], args, ctx)
        return substitute(alias, mapping)

    def _eval_arg(self, node: ast.expr, ctx: TypeContext, spec_ok: bool = False) -> Type:
        tp = type(node)
        if not spec_ok and (tp is ast.Name or tp is ast.Subscript or tp is ast.Attribute):
            return self._eval(node, ctx)  # (most arguments: none of the cases below)
        if isinstance(node, ast.List):
            # A parameter list (for a ParamSpec argument); not modelled yet.
            return AnyType("special")
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return AnyType("special")
        if isinstance(node, ast.Starred):
            return AnyType("special")
        if spec_ok:
            # A type argument for a class with a ParamSpec parameter: `P` and
            # `Concatenate[int, P]` may stand there (read again by `_param_list`).
            if isinstance(node, ast.Subscript) and _is_concatenate(self, node, ctx):
                return AnyType("special")
            return self._spec_name(node, ctx)
        return self._eval(node, ctx)

    def _generic(self, info: object, node: ast.Subscript, args: list[ast.expr], ctx: TypeContext) -> Type:
        assert isinstance(info, ClassInfo)
        if info.fullname == "builtins.tuple":
            return self._tuple(node, args, ctx)
        if info.fullname == "builtins.type":
            if len(args) != 1:
                return self._error(ctx, node, "type[...] must have exactly one type argument")
            return self._type_of(self._eval(args[0], ctx))
        if info.fullname == "dataclasses.InitVar" and len(args) == 1:
            # `InitVar[T]` declares an `__init__`-only parameter of type T (dataclasses reads the annotation).
            return self._eval(args[0], ctx)
        params = info.type_vars
        # (The kinds looked at once: most classes have plain type variables only.)
        has_tvt = has_spec = False
        for p in params:
            if p.kind == "typevartuple":
                has_tvt = True
            elif p.kind == "paramspec":
                has_spec = True
        has_variadic = has_tvt or has_spec
        if has_tvt and has_spec:
            mixed = self._variadic_with_paramspec(info, params, args, node, ctx)
            if mixed is not None:
                return mixed
        if has_tvt and not has_spec:
            packed = self._pack_variadic(params, args, node, ctx, f'"{info.name}" expects', "type-arg")
            if packed is None:
                return Instance(info, tuple(AnyType("special") for _ in params))
            self._check_bounds(info, params, packed, args, ctx)
            return Instance(info, tuple(packed))
        if not has_variadic and self._rejected_unpack(args, ctx):
            return Instance(info, tuple(AnyType("error") for _ in params))
        values = [self._eval_arg(a, ctx, spec_ok=has_spec) for a in args]
        if not has_variadic:
            report_ellipsis_args(self, args, ctx)  # (`list[...]`: no type)
        if has_variadic:
            if len(params) == 1 and params[0].kind == "paramspec":
                # Spec, "ParamSpec": with only a ParamSpec parameter, `C[int, str]` is `C[[int, str]]`.
                if len(args) == 1 and self._param_list(args[0], ctx) is not None:
                    plist: Type | None = self._param_list(args[0], ctx)
                else:
                    plist = CallableType(tuple(Param(None, v, POS_ONLY) for v in values), AnyType("special"))
                return Instance(info, (plist if plist is not None else AnyType("special"),))
            if len(values) == len(params) and not any(p.kind == "typevartuple" for p in params):
                spec_values = [self._param_list(a, ctx) if p.kind == "paramspec" else v for p, a, v in zip(params, args, values)]
                for p, a, v, sv in zip(params, args, values, spec_values):
                    if p.kind == "paramspec" and sv is None and isinstance(v, (Instance, NoneType, UnionType, TupleType, LiteralType)):
                        # Spec, "ParamSpec": its argument is a parameter list, `...`, a ParamSpec or Concatenate.
                        self._error(ctx, a, f'Can only replace ParamSpec with a parameter types list or another ParamSpec, got "{ast.unparse(a)}"')
                return Instance(info, tuple(v if v is not None else AnyType("special") for v in spec_values))
            return Instance(info, tuple(AnyType("special") for _ in params))
        if len(values) != len(params):
            if not params:
                return self._error(ctx, node, f'"{info.name}" expects no type arguments, but {len(values)} given', "type-arg")
            min_needed = sum(1 for p in params if p.default is None)
            if not (min_needed <= len(values) <= len(params)):
                expected = len(params)
                self._error(ctx, node, f'"{info.name}" expects {expected} type argument{"s" if expected != 1 else ""}, but {len(values)} given', "type-arg")
                return Instance(info, tuple(AnyType("error") for _ in params))
            values = list(fill_defaults(params, values))
        self._check_bounds(info, params, values, args, ctx)
        return _typeddict_or(self.ev, Instance(info, tuple(values)))

    def _variadic_with_paramspec(self, info: "ClassInfo", params: tuple[TypeVarType, ...], args: list[ast.expr], node: ast.AST, ctx: TypeContext) -> Type | None:
        """A class generic over a TypeVarTuple and ParamSpecs (`class M[T, *Ts, **P]`):
        the ParamSpecs at either end of the parameter list take the parameter lists
        at the same end of the arguments, and the other arguments are packed as for
        a TypeVarTuple alone. None when the arguments do not split that way."""
        lead = 0
        while lead < len(params) and params[lead].kind == "paramspec":
            lead += 1
        trail = 0
        while trail < len(params) - lead and params[len(params) - 1 - trail].kind == "paramspec":
            trail += 1
        middle = params[lead:len(params) - trail]
        if any(p.kind == "paramspec" for p in middle) or len(args) < lead + trail:
            return None
        head = [self._param_list(a, ctx) for a in args[:lead]]
        tail = [self._param_list(a, ctx) for a in args[len(args) - trail:]]
        rest = args[lead:len(args) - trail]
        trailing = params[len(params) - trail:]
        if trail and all(lst is None for lst in tail) and all(p.default is not None for p in trailing):
            # Spec, "Defaults for type parameters": trailing ParamSpecs with defaults may
            # be left out (`Foo[int, str]` for `Generic[*Ts, P]`): Ts takes every argument.
            tail = [p.default for p in trailing]  # type: ignore[misc]
            rest = args[lead:]
        if any(lst is None for lst in head + tail):
            return None
        packed = self._pack_variadic(middle, rest, node, ctx, f'"{info.name}" expects', "type-arg")
        if packed is None:
            return Instance(info, tuple(AnyType("special") for _ in params))
        values: list[Type] = [lst for lst in head if lst is not None] + packed + [lst for lst in tail if lst is not None]
        return Instance(info, tuple(values))

    def _pack_variadic(self, params: tuple[TypeVarType, ...], args: list[ast.expr], node: ast.AST, ctx: TypeContext, expects: str, code: str) -> list[Type] | None:
        """Arguments for `params`, one of which is a TypeVarTuple: the arguments at its
        position are packed into one tuple type (model.UnpackType's note), e.g.
        `Array2[float, int, str]` for `Array2[DType, *Shape]` is `(float, tuple[int, str])`.
        Spec, "TypeVarTuple" ("Type Variable Tuples with Callable"... and "Aliases"):
        an unpacked unbounded tuple may also supply the plain parameters around the
        TypeVarTuple (`tuple[*Ts, T][*tuple[int, ...]]` is `tuple[*tuple[int, ...], int]`).
        None after an error."""
        from veritype.types.tuples import is_unbounded_tuple

        k = next(i for i, p in enumerate(params) if p.kind == "typevartuple")
        prefix, suffix = k, len(params) - k - 1
        if len(args) == 1 and isinstance(args[0], ast.Tuple) and not args[0].elts:
            items: list[Type] = []  # `Array[()]`
        else:
            got = self._variadic_items(args, node, ctx)
            if got is None:
                return None
            items = got
        info = self.ev.named_class("builtins.tuple")
        if info is None:
            return None
        u = next((i for i, t in enumerate(items) if isinstance(t, UnpackType)), None)
        before = items if u is None else items[:u]
        after = [] if u is None else items[u + 1:]
        if u is None:
            if len(items) < prefix + suffix:
                need = prefix + suffix
                self._error(ctx, node, f'{expects} at least {need} type argument{"s" if need != 1 else ""}, but {len(items)} given', code)
                return None
            return items[:prefix] + [make_tuple(items[prefix:len(items) - suffix], info)] + items[len(items) - suffix:]
        if len(before) >= prefix and len(after) >= suffix:
            return items[:prefix] + [make_tuple(items[prefix:len(items) - suffix], info)] + items[len(items) - suffix:]
        unpack = items[u]
        assert isinstance(unpack, UnpackType)
        if not is_unbounded_tuple(unpack.item):
            self._error(ctx, node, "Unpack is only valid in a variadic position")
            return None
        elem = unpack.item.args[0]  # type: ignore[attr-defined]
        head = before[:prefix] + [elem] * (prefix - len(before[:prefix]))
        tail_given = after[max(0, len(after) - suffix):]
        tail = [elem] * (suffix - len(tail_given)) + tail_given
        middle = before[prefix:] + [unpack] + after[:max(0, len(after) - suffix)]
        return head + [make_tuple(middle, info)] + tail

    def _check_bounds(self, info: object, params: tuple[TypeVarType, ...], values: list[Type], nodes: list[ast.expr], ctx: TypeContext) -> None:
        if ctx.report is None:
            return
        if type(ctx.report) is KeptReports:
            for p, v in zip(params, values):  # (a loop, not `any()` over a generator)
                if not isinstance(v, (AnyType, TypeVarType)) and (p.upper_bound is not None or p.values):
                    ctx.report.bounds_deferred = True  # the def's own reporting build checks them
                    break
            return

        for p, v, n in zip(params, values, nodes):
            if isinstance(v, (AnyType, TypeVarType)):
                continue
            if p.upper_bound is not None and not is_subtype(self.ev, v, p.upper_bound):
                ctx.report(n, f'Type argument "{format_type(v)}" of "{info.name}" must be a subtype of "{format_type(p.upper_bound)}"', "type-var")  # type: ignore[attr-defined]
            elif p.values and not any(is_subtype(self.ev, v, c) and is_subtype(self.ev, c, v) for c in p.values):
                ctx.report(n, f'Value of type variable "{p.name}" of "{info.name}" cannot be "{format_type(v)}"', "type-var")  # type: ignore[attr-defined]

    def _rejected_unpack(self, args: list[ast.expr], ctx: TypeContext) -> bool:
        """Report the first unpacked argument given to a class or alias without a
        TypeVarTuple parameter (spec, "TypeVarTuple": an unpacked argument needs one
        to bind to); True when there was one."""
        for a in args:
            inner = self._unpack_node(a, ctx)
            if inner is not None:
                self._unpacked(inner, a, ctx)
                self._error(ctx, a, "Unpack is only valid in a variadic position")
                return True
        return False

    _tuple = type_expr_special.tuple_form
    _type_of = type_expr_special.type_of
    _special_subscript = type_expr_special.special_subscript
    _callable = type_expr_special.callable_form
    _variadic_callable = type_expr_special.variadic_callable
    _literal = type_expr_special.literal_form
    _literal_item = type_expr_special.literal_item
    _literal_alias = type_expr_special.literal_alias


def _is_component(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in ("args", "kwargs")


def _is_concatenate(te: TypeExprEvaluator, node: ast.Subscript, ctx: TypeContext) -> bool:
    ref = te.ev.resolve_expr(node.value, ctx.scope) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
    return ref is not None and ref.kind == "special" and ref.fullname.endswith(".Concatenate")


def _parse_forward(text: str) -> ast.expr:
    """`ast.parse(text, mode="eval").body`. Most forward references are one
    plain name ("Evaluator"): that is the Name the parser would make, made
    without compiling (ASCII only: the parser NFKC-normalizes other names)."""
    if text.isascii() and text.isidentifier() and not keyword.iskeyword(text):
        # (Positions as the parser's: the caller maps them to the string's.)
        return ast.Name(text, ast.Load(), lineno=1, col_offset=0, end_lineno=1, end_col_offset=len(text))
    return ast.parse(text, mode="eval").body


@dataclass(frozen=True)
class _AliasName:
    """What a type-argument bound message names for an alias (`_check_bounds`)."""

    name: str


def _typeddict_or(ev: "Evaluator", inst: Instance) -> Type:
    """A TypedDict class named as a type means its TypedDict type."""
    if inst.info.is_typeddict:
        from veritype.evaluate.typeddicts import typeddict_type

        return typeddict_type(ev, inst)
    return inst

