"""Declarations to types: variables, type variables, type aliases, imports.

These are the lazily evaluated answers behind `Evaluator.symbol_type` and
`Evaluator.declared_type`; each result is cached on its symbol.
"""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING

from veritype.evaluate.scopes import Scope
from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol
from veritype.types.model import (
    AnyType, CallableType, Instance, ModuleType, NoneType, TupleType, Type, TypeType, TypeVarType, UnionType,
    make_union,
)
from veritype.evaluate.type_expr_special import NEEDS_ARGUMENTS, NEVER_BARE, QUALIFIERS
from veritype.types.alias_ref import AliasRef, reaches_itself
from veritype.types.join import keep_context_literals, widen_literals
from veritype.types.substitute import type_vars_in, substitute, tv_key
from veritype.syntax.shapes import is_unannotated_def
from veritype.syntax.walk import walk as walk_nodes
from veritype.evaluate.classes import class_object_type
from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.functional_classes import functional_class
from veritype.evaluate.functions import function_scope, function_symbol_type
from veritype.evaluate.newtype import newtype_info
from veritype.evaluate.scoped_aliases import variable_not_alias
from veritype.evaluate.special_values import alias_special_form
from veritype.evaluate.type_comments import parse_type_comment_expr
from veritype.evaluate.type_expr import TypeContext
from veritype.evaluate.unflowed_values import records_nothing, unflowed_assigned

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

# The calls declaring a type variable, by the callee's name: the kind each makes.
TYPEVAR_KINDS = {"TypeVar": "typevar", "ParamSpec": "paramspec", "TypeVarTuple": "typevartuple"}


def parameter_type(sym: Symbol, scope: Scope) -> Type:
    """A parameter's type, from its function scope's signature (evaluates nothing)."""
    t = scope.param_types.get(sym.name)
    return t if isinstance(t, Type) else AnyType("unannotated")


def compute_symbol_type(ev: "Evaluator", sym: Symbol, scope: Scope) -> Type:
    if sym.kind == S.CLASS:
        return class_object_type(ev.class_info_of(sym, scope))
    if sym.kind == S.FUNC:
        return function_symbol_type(ev, sym, scope)
    if sym.kind in (S.MODULE_REF, S.FROM_IMPORT):
        return ev.ref_value_type(ev.resolve_symbol(sym, scope))
    if sym.kind == S.PARAM:
        return parameter_type(sym, scope)
    if sym.kind == S.TYPE_ALIAS or (sym.kind == S.VAR and len(sym.decls) == 1 and type_alias_type_call(ev, sym, scope) is not None):
        return ev.instance("typing.TypeAliasType")
    declared = ev.declared_type(sym, scope)
    if declared is not None:
        return declared
    tv = typevar_declaration(ev, sym, scope)
    if tv is not None:
        # A TypeVarTuple object is iterable (`*Ts` in a value expression, PEP 646).
        return ev.instance("typing.TypeVarTuple" if tv.kind == "typevartuple" else "typing.TypeVar")

    newtype = newtype_info(ev, sym, scope)
    if newtype is not None:
        return class_object_type(newtype)

    made = functional_class(ev, sym, scope)
    if made is not None:
        if getattr(made, "is_sentinel", False):
            return Instance(made, ())  # the sentinel object, the one value of its type
        return class_object_type(made)
    alias = alias_info(ev, sym, scope)
    if alias is not None:
        target, params = alias
        if isinstance(target, Instance):
            if params and list(target.args) == list(target.info.type_vars):
                return class_object_type(target.info)  # `L = list`: the class itself
            if params:
                target = substitute(target, {tv_key(p): AnyType("implicit") for p in params})  # type: ignore[assignment]
            return TypeType(target)
        value = getattr(sym.node, "value", None)
        if isinstance(target, UnionType) and isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr):
            # `A = int | str` is a types.UnionType at run time (not callable, no class).
            return ev.instance("types.UnionType")

        form = alias_special_form(ev, target, value, scope)
        if form is not None:
            return form
        return AnyType("special")
    return infer_from_declaration(ev, sym, scope)


def compute_declared_type(ev: "Evaluator", sym: Symbol, scope: Scope) -> Type | None:
    if sym.kind != S.VAR:
        return None
    if sym.annotation is not None:
        ctx_scope = scope

        ctx = TypeContext(ctx_scope, allow_qualifiers=True)
        t = ev.type_exprs.eval(sym.annotation, ctx)
        sym.cache["qualifiers"] = frozenset(ctx.qualifiers)
        if "TypeAlias" in ctx.qualifiers:
            return None
        if ("Final" in ctx.qualifiers or "ClassVar" in ctx.qualifiers) and _is_bare_qualifier(sym.annotation):
            return None  # `x: Final = 3`: the type comes from the value
        t = bind_in_callables(t)
        if scope.kind == "class":
            t = _unbound_to_any(t)
        return t
    if sym.type_comment is not None:
        text, _node = sym.type_comment

        expr = parse_type_comment_expr(text)
        if expr is None:
            return None
        return ev.type_exprs.evaluate(expr, scope, allow_qualifiers=True)
    return None


def _unbound_to_any(t: Type) -> Type:
    """A class attribute's type naming a type variable nothing binds (reported where
    it is declared, `Type variable "T" is unbound`) is Any there, as in mypy, so
    each use is not a second error. (One a callable binds is not free.)"""

    if isinstance(t, CallableType):
        return t
    if isinstance(t, (Instance, UnionType, TupleType)):
        parts = t.args if isinstance(t, Instance) else t.items
        new = tuple(_unbound_to_any(p) for p in parts)
        if new == parts:
            return t
        if isinstance(t, Instance):
            return Instance(t.info, new)
        return make_union(list(new)) if isinstance(t, UnionType) else TupleType(new, t.fallback)
    free = {tv_key(v): AnyType("error") for v in type_vars_in(t).values() if v.scope == "" and v.kind in ("typevar", "paramspec", "typevartuple")}
    return substitute(t, free) if free else t


def bind_in_callables(t: Type) -> Type:
    """A callable type in a variable's annotation naming a type variable nothing
    binds is generic in it (`x: Callable[[T], T]`, `dict[Any, Callable[[Any,
    type[T]], T]]`), as mypy reads it: the variable is bound by the callable."""

    if isinstance(t, CallableType):
        own = {tv_key(v) for v in t.type_vars}
        free = [v for k, v in type_vars_in(t).items() if k not in own and v.scope == "" and v.kind in ("typevar", "paramspec", "typevartuple")]
        return dataclasses.replace(t, type_vars=t.type_vars + tuple(free)) if free else t
    if isinstance(t, Instance) and t.args:
        new = tuple(bind_in_callables(a) for a in t.args)
        return t if new == t.args else Instance(t.info, new)
    if isinstance(t, UnionType):
        items = [bind_in_callables(i) for i in t.items]
        return t if tuple(items) == t.items else make_union(items)
    if isinstance(t, TupleType):
        new = tuple(bind_in_callables(i) for i in t.items)
        return t if new == t.items else TupleType(new, t.fallback)
    return t


def _is_bare_qualifier(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    return isinstance(node, (ast.Name, ast.Attribute))


def qualifiers(ev: "Evaluator", sym: Symbol, scope: Scope) -> frozenset[str]:
    ev.declared_type(sym, scope)
    q = sym.cache.get("qualifiers")
    return q if isinstance(q, frozenset) else frozenset()


def infer_from_declaration(ev: "Evaluator", sym: Symbol, scope: Scope) -> Type:
    """The type of an unannotated variable, from its first assignment.

    A variable first assigned None takes the union with its other
    assignments (not its imports; for `self.x = None`, those of the same
    method), as mypy's partial None types do.
    """
    first = _infer_one(ev, sym, scope, sym.node)
    if isinstance(first, ModuleType) and (sym.is_instance_attr or scope.kind == "class"):
        # mypy: an attribute assigned a module (`self.helpers = helpers`) is a plain
        # `types.ModuleType`, whose members are Any; a module alias is a name only.
        return ev.instance("types.ModuleType")
    if not isinstance(first, NoneType) or len(sym.decls) < 2:
        return first
    from veritype.types.model import make_union

    others: list[Type] = [first]
    home = _partial_none_home(ev, sym, scope)
    for node in sym.decls[1:9]:
        if home is not None and (sym.decl_methods.get(id(node)) or sym.method) is not home:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            # mypy: an import over a variable is checked against its type (`Incompatible
            # import of "X"`), it does not widen it (urllib3's `SSLContext = None`, then
            # `from ssl import SSLContext` in a `try`).
            continue
        t = _infer_one(ev, sym, scope, node)
        if isinstance(t, AnyType):
            return AnyType("special")
        others.append(t)
    if home is not None and len(others) == 1 and is_unannotated_def(home):
        # mypy: a partial None left uncompleted in an untyped method (checked under
        # check_untyped_defs) is `Any | None`, which takes any later assignment.
        others.append(AnyType("unannotated"))
    return make_union(others)


def _partial_none_home(ev: "Evaluator", sym: Symbol, scope: Scope) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method whose assignments complete `self.x = None`, an attribute's first
    declaration there: mypy completes a partial None type in its own scope only,
    so `self.x = v` in another method is checked against `None` and does not
    widen it (urllib3's `self.current_buffer = None` in `__init__`, set in
    `_get_next_buffer`). None (every assignment counts, as before) for a method
    mypy does not check (untyped, without `check_untyped_defs`)."""
    if not sym.is_instance_attr or scope.cls is None:
        return None
    method = sym.decl_methods.get(id(sym.node)) or sym.method
    if method is None:
        return None
    if is_unannotated_def(method) and not ev.program.options.for_module(scope.module.name).check_untyped_defs:
        return None
    return method


def _infer_one(ev: "Evaluator", sym: Symbol, scope: Scope, node: ast.AST | None) -> Type:
    eval_scope = scope
    if sym.is_instance_attr and scope.cls is not None:
        method = sym.decl_methods.get(id(node)) or sym.method
        if method is not None:
            eval_scope = function_scope(ev, method, scope)
            # `self.file = file` after `if file is None: file = ...`: the value's
            # type where it is assigned, narrowing included (mypy's inference).
            # The check stage walks the method silently and records it.
            flowed = _flow_assigned(ev, sym, method, scope, node, eval_scope)
            if flowed is not None:
                # Only literals of literal expressions widen: a value whose type was
                # declared Literal (`self.mode = mode`, `mode: Mode`) keeps it, as mypy;
                # a Final attribute keeps every literal.
                if "Final" in qualifiers(ev, sym, scope):
                    return flowed
                return widen_literals(flowed, keep_declared=True)

    exprs = ExprEvaluator(ev, eval_scope)
    final = "Final" in qualifiers(ev, sym, scope)
    if isinstance(node, ast.Assign):
        # The value's type as the check inferred it at the statement, when that is
        # this very question (check/declaring_values.py): taken, not inferred again.
        checked = sym.cache.pop("checked_value", None) if node is sym.node else None
        for target in node.targets:
            t = _type_for_target(ev, exprs, target, node.value, sym, final, checked if isinstance(checked, tuple) else None)
            if t is not None:
                return t
        return AnyType("special")
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        t = exprs.infer(node.value)
        return t if final else widen_literals(t)
    if isinstance(node, (ast.For, ast.AsyncFor)):
        iterable = exprs.infer(node.iter)
        item = exprs.iterate(iterable, node.iter, is_async=isinstance(node, ast.AsyncFor))
        return _pick(ev, exprs, node.target, item, sym) or AnyType("special")
    if isinstance(node, ast.ExceptHandler) and node.type is not None:
        return exprs.exception_instance(exprs.infer(node.type))
    if isinstance(node, (ast.With, ast.AsyncWith)):
        for w in node.items:
            if w.optional_vars is None:
                continue
            ctx = exprs.infer(w.context_expr)
            entered = exprs.enter(ctx, w.context_expr, is_async=isinstance(node, ast.AsyncWith))
            t = _pick(ev, exprs, w.optional_vars, entered, sym)
            if t is not None:
                return t
    if isinstance(node, ast.NamedExpr):
        return widen_literals(exprs.infer(node.value))
    return AnyType("special")


def _flow_assigned(ev: "Evaluator", sym: Symbol, method: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, node: ast.AST | None,
                   eval_scope: Scope) -> Type | None:
    value = getattr(node, "value", None)
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or value is None or ev.method_walker is None:
        return None
    if scope.module.is_stub or isinstance(value, ast.Constant):
        return None
    assigned = sym.cache.get("assigned")
    if not isinstance(assigned, dict) or id(value) not in assigned:
        # The walk records what it meets: not needed where it records nothing for
        # this statement, nor where no flow can matter (the value's own inference
        # is then that answer); evaluate/unflowed_values.py.
        if records_nothing(sym, method, node):
            return None
        unflowed = unflowed_assigned(ev, sym, method, scope.cls, node, eval_scope) if scope.cls is not None else None
        if unflowed is not None:
            return unflowed
        ev.method_walker(method, scope)
        assigned = sym.cache.get("assigned")
    if isinstance(assigned, dict):
        t = assigned.get(id(value))
        return t if isinstance(t, Type) else None
    return None


def _type_for_target(ev: "Evaluator", exprs, target: ast.expr, value: ast.expr, sym: Symbol, final: bool,  # type: ignore[no-untyped-def]
                     checked: "tuple[ast.expr, Type] | None" = None) -> Type | None:
    """`checked`: a value node and its type, already inferred (see `_infer_one`)."""
    if _target_is(target, sym):
        t = checked[1] if checked is not None and checked[0] is value else exprs.infer(value)
        # A tuple display's items keep declared literal types (see
        # check.assignment_statements.assign); literal expressions widen.
        if final:
            return t
        if _declares_literals(value):
            return keep_context_literals(t)
        return widen_literals(t, keep_declared=isinstance(value, ast.Tuple))
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts):
            for sub_t, sub_v in zip(target.elts, value.elts):
                r = _type_for_target(ev, exprs, sub_t, sub_v, sym, final)
                if r is not None:
                    return r
            return None
        return _pick(ev, exprs, target, exprs.infer(value), sym)
    return None


def _declares_literals(value: ast.expr) -> bool:
    """Whether the literal types of `value` come from a declaration (a call's,
    an attribute's or an item's declared type; `kind() or ""` after one), which
    mypy keeps when it infers a variable's type, where a literal expression's
    widens (check.assignment_statements._declared_literal_source, with names)."""
    if isinstance(value, ast.BoolOp):
        return _declares_literals(value.values[0]) and all(
            isinstance(v, ast.Constant) or _declares_literals(v) for v in value.values[1:])
    return isinstance(value, (ast.Attribute, ast.Subscript, ast.Call, ast.Await))


def _target_is(target: ast.expr, sym: Symbol) -> bool:
    if isinstance(target, ast.Name):
        return target.id == sym.name
    if isinstance(target, ast.Attribute) and sym.is_instance_attr:
        return target.attr == sym.name and isinstance(target.value, ast.Name)
    return False


def _pick(ev: "Evaluator", exprs, target: ast.expr, value_type: Type, sym: Symbol) -> Type | None:  # type: ignore[no-untyped-def]
    """The part of `value_type` that lands in `sym` when unpacked into `target`."""
    if _target_is(target, sym):
        # An item's declared literal types stay (see check.assignment_statements._widen_for_variable).
        return widen_literals(value_type, keep_declared=True)
    if isinstance(target, (ast.Tuple, ast.List)):
        items = exprs.unpack(value_type, len(target.elts), target)
        for sub, item in zip(target.elts, items):
            if isinstance(sub, ast.Starred):
                if _target_is(sub.value, sym):
                    return ev.builtin("list", widen_literals(item))
                continue
            r = _pick(ev, exprs, sub, item, sym)
            if r is not None:
                return r
    return None


# -- type variables -----------------------------------------------------------


def typevar_declaration(ev: "Evaluator", sym: Symbol, scope: Scope) -> TypeVarType | None:
    if "typevar" in sym.cache:
        return sym.cache["typevar"]  # type: ignore[return-value]
    sym.cache["typevar"] = None
    with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
        tv = _typevar_declaration(ev, sym, scope)
    if tv is not None:
        sym.cache["typevar"] = tv
    return tv


def _typevar_declaration(ev: "Evaluator", sym: Symbol, scope: Scope) -> TypeVarType | None:
    node = sym.node
    if sym.kind != S.VAR or not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(node.value, ast.Call):
        return None
    call = node.value
    ref = ev.resolve_expr(call.func, scope) if isinstance(call.func, (ast.Name, ast.Attribute)) else None
    if ref is None:
        return None
    kind_name = ref.fullname.rpartition(".")[2]
    if ref.kind not in ("special", "class") or kind_name not in TYPEVAR_KINDS:
        return None
    if ref.kind == "class" and ref.info is not None and ref.info.module.name not in ("typing", "typing_extensions"):
        return None
    kind = TYPEVAR_KINDS[kind_name]
    fullname = f"{scope.fullname}.{sym.name}"
    bound: Type | None = None
    values: tuple[Type, ...] = ()
    variance = "invariant"
    default: Type | None = None
    for arg in call.args[1:]:
        values = values + (ev.type_exprs.evaluate(arg, scope),)
    for kw in call.keywords:
        if kw.arg == "bound":
            bound = ev.type_exprs.evaluate(kw.value, scope)
        elif kw.arg == "covariant" and _is_true(kw.value):
            variance = "covariant"
        elif kw.arg == "contravariant" and _is_true(kw.value):
            variance = "contravariant"
        elif kw.arg == "infer_variance" and _is_true(kw.value):
            variance = "infer"
        elif kw.arg == "default":
            default = ev.type_exprs.evaluate_default(kw.value, scope, kind)
    return TypeVarType(sym.name, fullname, "", bound, values, variance, default, kind)


def _is_true(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


# -- type aliases ---------------------------------------------------------------


def alias_info(ev: "Evaluator", sym: Symbol, scope: Scope) -> tuple[Type, tuple[TypeVarType, ...]] | None:
    """(target, parameters) when `sym` is a type alias, else None."""
    if "alias" in sym.cache:
        return sym.cache["alias"]  # type: ignore[return-value]
    # While the value is evaluated, a reference to the alias in it becomes an
    # AliasRef (see `alias_ref`); other askers see Any.
    sym.cache["alias"] = (AnyType("special"), ())
    sym.cache["alias_busy"] = True
    with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
        try:
            result = _compute_alias(ev, sym, scope)
        finally:
            sym.cache.pop("alias_busy", None)
    if result is not None and reaches_itself(result[0], alias_fullname(sym, scope)):
        # `type A = A`, `A: TypeAlias = Union["A", int]`: no value at all (reported
        # where the alias is defined, see `alias_is_circular`).
        sym.cache["alias_circular"] = True
        result = (AnyType("error"), result[1])
    sym.cache["alias"] = result
    return result


def alias_fullname(sym: Symbol, scope: Scope) -> str:
    return f"{scope.fullname}.{sym.name}"


def alias_busy(sym: Symbol) -> bool:
    """Whether `sym`'s alias value is being evaluated (so a use of it is recursive)."""
    return bool(sym.cache.get("alias_busy"))


def alias_is_circular(ev: "Evaluator", sym: Symbol, scope: Scope) -> bool:
    alias_info(ev, sym, scope)
    return bool(sym.cache.get("alias_circular"))


def alias_ref(ev: "Evaluator", sym: Symbol, scope: Scope, args: tuple[Type, ...]) -> AliasRef:
    """A recursive use of the alias `sym` (inside its own value), with type arguments."""
    return AliasRef(sym.name, alias_fullname(sym, scope), args, _expander(ev, sym, scope))


def _expander(ev: "Evaluator", sym: Symbol, scope: Scope):  # type: ignore[no-untyped-def]
    def expand(args: tuple[Type, ...]) -> Type | None:
        if alias_busy(sym):
            return None
        expansions = sym.cache.setdefault("alias_expansions", {})
        assert isinstance(expansions, dict)
        hit = expansions.get(args)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        info = alias_info(ev, sym, scope)
        if info is None:
            return AnyType("special")
        from veritype.types.substitute import substitute, tv_key

        target, params = info
        if params and len(args) == len(params) and not any(p.kind == "typevartuple" for p in params):
            target = substitute(target, {tv_key(p): a for p, a in zip(params, args)})
        elif params:
            target = substitute(target, {tv_key(p): AnyType("special") for p in params})
        expansions[args] = target
        return target

    return expand


def _compute_alias(ev: "Evaluator", sym: Symbol, scope: Scope) -> tuple[Type, tuple[TypeVarType, ...]] | None:
    node = sym.node
    if sym.kind == S.TYPE_ALIAS and node is not None:
        inner = alias_value_scope(ev, sym, scope)
        target = ev.type_exprs.evaluate(node.value, inner)  # type: ignore[attr-defined]
        return target, tuple(inner.type_params.values())
    if sym.kind != S.VAR or len(sym.decls) != 1:
        return None
    call = type_alias_type_call(ev, sym, scope)
    if call is not None:
        from veritype.evaluate.alias_calls import alias_from_call

        return alias_from_call(ev, sym, scope, call)
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        # (An explicit `A: TypeAlias = ...` is an alias in a function too; an
        # unannotated assignment there is a variable, as in mypy.)
        ann = ev.resolve_expr(node.annotation, scope) if isinstance(node.annotation, (ast.Name, ast.Attribute)) else None
        if ann is None or ann.kind != "special" or not ann.fullname.endswith(".TypeAlias"):
            return None
        return _alias_from(ev, node.value, scope, explicit=True)
    if variable_not_alias(node, scope):  # (`loc = int` in a function or class: a variable, as in mypy)
        return None
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        if node.type_comment is not None or not looks_like_type(ev, node.value, scope) or _bare_form_not_a_type(ev, node.value, scope):
            return None
        return _alias_from(ev, node.value, scope)
    return None


def alias_value_scope(ev: "Evaluator", sym: Symbol, scope: Scope) -> Scope:
    """The scope a `type` statement's value is evaluated in: its own type parameters
    bound to the alias (PEP 695: the value is evaluated lazily, in that scope)."""
    owner = alias_fullname(sym, scope)
    params = ev.pep695_params(sym.node, owner, scope) if sym.node is not None else {}
    # The same table as the defining scope: names in the value are the defining
    # scope's (and an alias named in its own value is the same alias).
    inner = Scope("function", scope.table, scope.module, scope, owner, alias_value=True)
    inner.type_params.update(params)
    return inner


def type_alias_type_call(ev: "Evaluator", sym: Symbol, scope: Scope) -> ast.Call | None:
    """The `TypeAliasType("A", value, ...)` call `sym` is assigned, if it is one."""
    node = sym.node
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
        return None
    value = node.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(value.func, scope)
    if ref is None or not ref.fullname.endswith(".TypeAliasType") or ref.fullname.partition(".")[0] not in ("typing", "typing_extensions"):
        return None
    return value


def _alias_from(ev: "Evaluator", value: ast.expr, scope: Scope, explicit: bool = False) -> tuple[Type, tuple[TypeVarType, ...]]:
    if isinstance(value, (ast.Name, ast.Attribute)) and not explicit:
        # (An explicit `A: TypeAlias = list` is, as in any annotation, `list[Any]`:
        # spec, "Type aliases": anything acceptable as a type hint, with its meaning.)
        ref = ev.resolve_expr(value, scope, True)
        if ref is not None and ref.kind == "class" and ref.info is not None and ref.info.type_vars:
            # `Alias = SomeGenericClass`: the alias takes the class's parameters.
            info = ref.info
            if info.fullname != "builtins.tuple":
                return Instance(info, tuple(info.type_vars)), tuple(info.type_vars)
    target = ev.type_exprs.evaluate(value, scope)
    params = tuple(tv for tv in type_vars_in(target).values() if tv.scope == "")
    return target, _with_variadics(ev, value, scope, params)


def _with_variadics(ev: "Evaluator", value: ast.expr, scope: Scope, params: tuple[TypeVarType, ...]) -> tuple[TypeVarType, ...]:
    """The alias parameters plus the TypeVarTuples its value names (`tuple[int, *Ts]`):
    unpacked variadics are not modelled in the target yet, but they are parameters, so
    `Alias[int, str]` is no wrong-count error. Ordered by first appearance."""
    order: list[str] = []
    found: dict[str, TypeVarType] = {}
    for node in walk_nodes(value):
        if not isinstance(node, ast.Name):
            continue
        ref = ev.resolve_expr(node, scope)
        if ref is None or ref.sym is None or ref.scope is None:
            continue
        tv = typevar_declaration(ev, ref.sym, ref.scope)
        if tv is None:
            continue
        if tv.fullname not in order:
            order.append(tv.fullname)
        if tv.kind == "typevartuple":
            found.setdefault(tv.fullname, tv)
    if not found or any(p.fullname in found for p in params):
        return params
    merged = list(params) + list(found.values())
    merged.sort(key=lambda p: order.index(p.fullname) if p.fullname in order else len(order))
    return tuple(merged)


def looks_like_type(ev: "Evaluator", node: ast.expr, scope: Scope) -> bool:
    """Whether an unannotated assignment's value is a type (so the name is an alias)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left_none = isinstance(node.left, ast.Constant) and node.left.value is None
        right_none = isinstance(node.right, ast.Constant) and node.right.value is None
        return (left_none or looks_like_type(ev, node.left, scope)) and (right_none or looks_like_type(ev, node.right, scope))
    if isinstance(node, ast.Subscript):
        return looks_like_type(ev, node.value, scope)
    if isinstance(node, (ast.Name, ast.Attribute)):
        ref = ev.resolve_expr(node, scope)
        if ref is None:
            return False
        if ref.kind == "class":
            return True
        if ref.kind == "special":
            return not ref.fullname.endswith((".TypeVar", ".ParamSpec", ".TypeVarTuple", ".NewType", ".NamedTuple", ".TypedDict", ".TypeAliasType"))
        if ref.kind == "symbol" and ref.sym is not None and ref.scope is not None:
            return alias_info(ev, ref.sym, ref.scope) is not None
    return False


#: Special forms that are no type without arguments or outside an annotation's
#: top (`Union`, `Final`...): those type_expr_special reports bare.
_NOT_BARE = QUALIFIERS | NEEDS_ARGUMENTS | NEVER_BARE | {"TypeAlias"}


def _bare_form_not_a_type(ev: "Evaluator", node: ast.expr, scope: Scope) -> bool:
    """`P = Protocol`, `U = Union`: the value is no valid type expression, so the
    name is a variable holding the special form, not an alias (mypy reports
    nothing there; trio's `Protocol_ext = Protocol` in an `except ImportError`)."""
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    ref = ev.resolve_expr(node, scope)
    return ref is not None and ref.kind == "special" and ref.fullname.rpartition(".")[2] in _NOT_BARE
