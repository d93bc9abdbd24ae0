"""Rules for function definitions: annotations, defaults, returns, empty bodies, untyped defs."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from veritype.evaluate.functions import (
    function_scope, function_type, is_generator, is_overload, decorator_names, method_kind as _method_kind,
)
from veritype.types.format import format_pair
from veritype.types.model import AnyType, Instance, NeverType, NoneType, Overloaded, Type, TypeVarType, CallableType
from veritype.types.subtype import is_subtype
from veritype.check.var_annotated_reach import judge_deferred
from veritype.syntax.walk import child_nodes, walk as walk_nodes
from veritype.syntax.word_lines import any_in_span
from veritype.check.conditional_variants import check_conditional_variant
from veritype.check.any_decorated import check_any_decorated
from veritype.check.constructor_rules import check_init_self_annotation
from veritype.check.covariant_params import check_covariant_params
from veritype.check.decorator_rules import check_decorator_calls
from veritype.check.disjoint_base_rules import check_function_decorators
from veritype.check.guard_rules import check_guard_function
from veritype.check.function_context import FunctionContext
from veritype.check.overload_rules import check_overload_definition
from veritype.check.paramspec_rules import check_paramspec_components
from veritype.check.positional_only_rules import check_historical_positional
from veritype.check.property_decorators import check_property_decorators
from veritype.check.self_rules import check_self_in_method
from veritype.check.singledispatch_rules import check_singledispatch_definition
from veritype.check.type_param_rules import check_pep695_params, check_undeclared_type_vars

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_function(checker: "ModuleChecker", node: FuncDef) -> None:
    ev = checker.ev
    parent = checker.scope
    dec_types: list[tuple[ast.expr, Type]] = []
    for dec in node.decorator_list:
        if isinstance(dec, ast.Attribute) and dec.attr in ("setter", "getter", "deleter"):
            continue  # `@prop.setter`: the property object, not the getter's type
        dec_types.append((dec, checker.infer(dec)))

    check_overload_definition(checker, node)
    if parent.kind != "class":
        _final_outside_class(checker, node)
    sig = function_type(ev, node, parent, report=checker.type_report())

    # (Each rule below returns at once where its first test fails; the tests
    # made here instead are those of the 4k defs on the bench corpus with no
    # decorator, no PEP 695 parameter, no TypeGuard/TypeIs, no `*args` or
    # `**kwargs`, no parameter typed with a type variable, outside a class or
    # named otherwise: most rules cost them no call.)
    if node.args.vararg is not None or node.args.kwarg is not None:
        check_paramspec_components(checker, node, sig)

    if getattr(node, "_vt_variant_of", None) is not None:
        check_conditional_variant(checker, node, sig)

    if parent.kind == "class":
        check_self_in_method(checker, node, sig)

    if sig.type_guard is not None or sig.type_is is not None:
        check_guard_function(checker, node, sig)

    if node.name == "__init__":
        check_init_self_annotation(checker, node, sig)

    if dec_types:
        check_decorator_calls(checker, node, sig, dec_types)

    type_params = getattr(node, "type_params", None)  # (none before Python 3.12, and on most defs)
    if type_params:
        check_pep695_params(checker, node)

    check_historical_positional(checker, node)

    if node.decorator_list:
        names = decorator_names(ev, node, parent)
        check_function_decorators(checker, node, names, sig)
        check_singledispatch_definition(checker, node, names, sig)
        check_property_decorators(checker, node, names)

    for p in sig.params:
        if type(p.type) is TypeVarType:  # (only a parameter typed with a type variable may be one it reports)
            check_covariant_params(checker, node, sig, parent.kind == "class" and _method_kind(ev, node, parent) not in ("static",))
            break

    if type_params:
        check_undeclared_type_vars(checker, node, list(sig.type_vars), f"{parent.fullname}.{node.name}@{node.lineno}")
    opts = checker.options
    if opts.disallow_untyped_defs or opts.disallow_incomplete_defs:
        _check_untyped_flags(checker, node, sig)
    untyped_dec = next((d for d, t in dec_types if _is_untyped_decorator(t)), None) if dec_types else None
    if checker.options.disallow_untyped_decorators and not sig.is_untyped and untyped_dec is not None:
        checker.error(untyped_dec, f'Untyped decorator makes function "{node.name}" untyped', "untyped-decorator")
    if opts.disallow_any_decorated and untyped_dec is not None and not checker.info.is_stub:
        # mypy's --disallow-any-decorated: the decorated function is Any once an
        # untyped decorator applies, reported at the `def`; an Any inside the
        # decorated type is its other message (check.any_decorated).
        checker.error(_def_line(node), "Function is untyped after decorator transformation", "misc")
    elif opts.disallow_any_decorated and not checker.info.is_stub and node.decorator_list:
        check_any_decorated(checker, node, parent, _def_line(node))
    _check_defaults(checker, node, sig)
    if sig.is_untyped and not opts.check_untyped_defs:
        _note_unchecked_annotations(checker, node.body)
        return
    scope = function_scope(ev, node, parent)
    gen = is_generator(node)
    is_async = isinstance(node, ast.AsyncFunctionDef)
    declared_ret: Type | None = None
    if node.returns is not None or node.type_comment:
        declared_ret = _return_for_body(checker, sig.ret, gen, is_async)

    ctx = FunctionContext(node, declared_ret, gen, is_async)
    if gen and (node.returns is not None or node.type_comment):
        ctx.yield_types = _yield_types(checker, sig.ret)
        _check_generator_return(checker, node, sig.ret, is_async)
    with checker.in_scope(scope, ctx):
        checker.block(node.body)
        falls_off = not checker.flow.state.unreachable
        judge_deferred(checker, node)  # its `x = []` needing an annotation
    if gen and not is_async and declared_ret is not None and falls_off and not checker.info.is_stub:
        # A generator's value when it ends is its Generator's third argument: falling
        # off the end returns None (mypy's rule, as for a plain function).
        gen_ret = declared_ret
        if not isinstance(gen_ret, (AnyType, NoneType, NeverType)) and not is_subtype(ev, NoneType(), gen_ret):
            checker.error(node, "Missing return statement", "return")
        return
    if declared_ret is None or checker.info.is_stub or gen:
        return
    if _is_empty_body(node.body):
        # (A stub's, an overload's or a protocol member's body: asked only of an empty body.)
        stubby = checker.info.is_stub or is_overload(ev, node, parent) or _in_protocol(checker)
        if stubby or checker.type_checking_depth or _is_abstract(checker, node) or isinstance(declared_ret, (AnyType, NoneType)):
            return
        if is_subtype(ev, NoneType(), declared_ret):
            return
        checker.error(node, "Missing return statement", "empty-body")
        return
    if falls_off:
        if isinstance(declared_ret, NeverType):
            checker.error(node, "Implicit return in function which does not return", "misc")
        elif not isinstance(declared_ret, (AnyType, NoneType)) and not is_subtype(ev, NoneType(), declared_ret):
            checker.error(node, "Missing return statement", "return")
        elif isinstance(declared_ret, Instance) and declared_ret.info.fullname == "builtins.object":
            pass


def _final_outside_class(checker: "ModuleChecker", node: FuncDef) -> None:
    # Spec, "@final": "it is an error to use @final on a non-method function".
    for dec in node.decorator_list:
        ref = checker.ev.resolve_expr(dec, checker.scope) if isinstance(dec, (ast.Name, ast.Attribute)) else None
        if ref is not None and ref.fullname in ("typing.final", "typing_extensions.final"):
            checker.error(dec, "@final cannot be used with non-method functions", "misc")


def _yield_types(checker: "ModuleChecker", ret: Type) -> tuple[Type, Type] | None:
    """(yield, send) types of a generator's declared return; None when unknown."""
    if not isinstance(ret, Instance):
        return None
    name = ret.info.fullname
    if name in ("typing.Generator", "typing.AsyncGenerator") and len(ret.args) >= 2:
        return ret.args[0], ret.args[1]
    if name in ("typing.Iterator", "typing.Iterable", "typing.AsyncIterator", "typing.AsyncIterable") and len(ret.args) == 1:
        return ret.args[0], NoneType()
    return None


def _check_generator_return(checker: "ModuleChecker", node: FuncDef, ret: Type, is_async: bool) -> None:
    """A generator's declared return must be a supertype of Generator (AsyncGenerator)."""
    if isinstance(ret, (AnyType, TypeVarType)):
        return
    name = "AsyncGenerator" if is_async else "Generator"
    info = checker.ev.named_class(f"typing.{name}")
    if info is None:
        return
    gen_type = Instance(info, tuple(AnyType("special") for _ in info.type_vars))
    if is_subtype(checker.ev, gen_type, ret):
        return
    kind = "an async generator" if is_async else "a generator"
    checker.error(node.returns or node, f'The return type of {kind} function should be "{name}" or one of its supertypes', "misc")


def _return_for_body(checker: "ModuleChecker", ret: Type, gen: bool, is_async: bool) -> Type | None:
    ev = checker.ev
    if is_async and not gen and isinstance(ret, Instance) and ret.info.fullname == "typing.Coroutine" and len(ret.args) == 3:
        ret = ret.args[2]
    if gen:
        if isinstance(ret, Instance):
            info = ev.named_class("typing.Generator")
            if info is not None and ret.info is info and len(ret.args) == 3:
                return ret.args[2]
            gen_info = ev.named_class("typing.AsyncGenerator" if is_async else "typing.Generator")
            if gen_info is not None and is_subtype(ev, Instance(gen_info, tuple(AnyType("special") for _ in gen_info.type_vars)), ret):
                # Iterator[X], Iterable[X], object: nothing to return (mypy's
                # get_generator_return_type), so `return 1` is "No return value expected".
                return NoneType()
            return AnyType("special")
        return AnyType("special")
    return ret


def _check_untyped_flags(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    opts = checker.options
    if not (opts.disallow_untyped_defs or opts.disallow_incomplete_defs):
        return
    args = node.args
    all_args = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg:
        all_args.append(args.vararg)
    if args.kwarg:
        all_args.append(args.kwarg)
    is_method = checker.scope.kind == "class"
    relevant = all_args[1:] if is_method and all_args and all_args[0] in [*args.posonlyargs, *args.args][:1] else all_args
    # Per-parameter `# type:` comments annotate too; a `(...) -> R` signature comment only the return.
    annotated = [a for a in relevant if a.annotation is not None or a.type_comment]
    has_ret = node.returns is not None or node.type_comment is not None
    if node.type_comment and not re.match(r"\s*\(\s*\.\.\.\s*\)", node.type_comment):
        return
    if not annotated and not has_ret:
        if opts.disallow_untyped_defs:
            if not relevant:
                checker.error(node, 'Function is missing a return type annotation', "no-untyped-def")
                if not _returns_value(node.body) and not is_generator(node):
                    checker.note(node, 'Use "-> None" if function does not return a value')
            else:
                checker.error(node, "Function is missing a type annotation", "no-untyped-def")
        return
    if not has_ret and not (node.name == "__init__" and annotated):
        checker.error(node, "Function is missing a return type annotation", "no-untyped-def")
    if len(annotated) < len(relevant):
        checker.error(node, "Function is missing a type annotation for one or more parameters", "no-untyped-def")


def _note_unchecked_annotations(checker: "ModuleChecker", body: list[ast.stmt]) -> None:
    """mypy's note at each annotated assignment of a body that is not checked.

    Nested untyped functions are not checked either; typed ones and classes are left alone.
    Its imports are resolved all the same (mypy's semantic analysis reports a
    missing module there too), but not in a branch a platform or version check
    rules out.
    """
    todo: list[ast.AST] = list(reversed(body))
    binder = checker.program.binder_for(checker.info)
    # An expression whose lines do not hold the word holds no `reveal_type`
    # call: not walked (syntax/word_lines.py; None: not known, walk it). ASCII
    # sources only: elsewhere a name may be spelled otherwise (the parser
    # NFKC-normalizes it: `ｒeveal_type` is reveal_type).
    parsed = checker.info.parsed
    reveal_lines = parsed.word_lines("reveal_type") if parsed is not None and parsed.source.isascii() else None
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Import):
            for alias in n.names:
                checker._check_import(n, alias.name)
            continue
        if isinstance(n, ast.ImportFrom):
            if n.module != "__future__":
                checker._check_import(n, binder.resolve_relative(n.module, n.level))
            continue
        if isinstance(n, ast.If) and binder.static_branch(n.test) is not None:
            todo.extend(reversed(n.body if binder.static_branch(n.test) else n.orelse))
            continue
        if isinstance(n, ast.AnnAssign):
            msg = "By default the bodies of untyped functions are not checked, consider using --check-untyped-defs"
            checker.report(n, msg, "annotation-unchecked", "note")
            continue
        if isinstance(n, ast.ClassDef) or isinstance(n, ast.Lambda) or not isinstance(n, ast.stmt):
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and (n.returns is not None or n.type_comment or any(a.annotation is not None for a in [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs])):
            continue
        children: list[ast.AST] = []
        for c in child_nodes(n):
            if isinstance(c, ast.stmt):
                children.append(c)
            elif isinstance(c, (ast.ExceptHandler, ast.match_case)):
                children.extend(c.body)  # `except` and `case` bodies
            elif (isinstance(c, ast.expr) and not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and (reveal_lines is None or any_in_span(reveal_lines, c.lineno, c.end_lineno))):
                _note_unchecked_reveals(checker, c)
        todo.extend(reversed(children))


def _note_unchecked_reveals(checker: "ModuleChecker", expr: ast.expr) -> None:
    """mypy's notes for a `reveal_type(...)` in a body that is not checked: its
    value is Any there, and a second note says why."""
    for n in walk_nodes(expr):
        if isinstance(n, ast.Call) and len(n.args) == 1 and (
                isinstance(n.func, ast.Name) and n.func.id == "reveal_type" or isinstance(n.func, ast.Attribute) and n.func.attr == "reveal_type"):
            checker.report(n, 'Revealed type is "Any"', "note", "note")
            checker.report(n, "'reveal_type' always outputs 'Any' in unchecked functions", "note", "note")


def _def_line(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """Where mypy puts an error about the function itself: its `def` line (the
    node's own position), not the first decorator's."""
    marker = ast.Pass()
    marker.lineno, marker.col_offset = node.lineno, node.col_offset
    marker.end_lineno, marker.end_col_offset = node.lineno, node.col_offset
    return marker


def _is_untyped_decorator(t: Type) -> bool:
    """mypy's rule: Any, or a callable whose parameters and return are all unannotated."""
    if isinstance(t, AnyType):
        return t.reason != "error"
    if isinstance(t, CallableType):
        return t.is_untyped
    if isinstance(t, Overloaded):
        return any(i.is_untyped for i in t.items)
    return False


def _returns_value(body: list[ast.stmt]) -> bool:
    """A `return X` (X not None) in the function itself, not in nested defs (mypy's ReturnSeeker)."""
    todo: list[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        todo.extend(child_nodes(n))
    return False


def _check_defaults(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    args = node.args
    if not args.defaults and not args.kwonlyargs:
        return  # (no default at all, as on most defs: no lists and no map of the parameters made)
    positional = [*args.posonlyargs, *args.args]
    pairs: list[tuple[ast.arg, ast.expr]] = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    params = {p.name: p for p in sig.params}
    for arg, default in pairs:
        if isinstance(default, ast.Constant) and default.value is Ellipsis:
            continue
        p = params.get(arg.arg)
        expected = p.type if p is not None and (arg.annotation is not None or node.type_comment) else None
        t = _infer_default(checker, node, default, expected)
        if expected is None or isinstance(expected, AnyType):
            continue
        if not is_subtype(checker.ev, t, expected):
            got, exp = format_pair(t, expected)
            checker.error(default, f'Incompatible default for parameter "{arg.arg}" (default has type "{got}", parameter has type "{exp}")', "assignment")


def _infer_default(checker: "ModuleChecker", node: FuncDef, default: ast.expr, expected: "Type | None") -> "Type":
    """A default is evaluated where the `def` runs, before the def binds its name:
    in a class body, `def socket(self, family=socket.AF_INET)` reads the module
    `socket`, not the method (trio's SocketFactory). Such a default, naming the
    function it belongs to, is inferred in the scope around the class."""
    scope = checker.scope
    if scope.kind == "class" and scope.parent is not None:
        for n in walk_nodes(default):  # (a loop, not `any()` over a generator)
            if isinstance(n, ast.Name) and n.id == node.name:
                from veritype.evaluate.expressions import ExprEvaluator

                return ExprEvaluator(checker.ev, scope.parent, None, checker.report).infer(default, expected)
    return checker.infer(default, expected)


def _is_empty_body(body: list[ast.stmt]) -> bool:
    stmts = list(body)
    if stmts and isinstance(stmts[0], ast.Expr) and isinstance(stmts[0].value, ast.Constant) and isinstance(stmts[0].value.value, str):
        stmts = stmts[1:]
    if not stmts:
        return True
    for s in stmts:
        if isinstance(s, ast.Pass):
            continue
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and s.value.value is Ellipsis:
            continue
        if isinstance(s, ast.Raise) and _raises_not_implemented(s):
            return False
        return False
    return True


def _raises_not_implemented(s: ast.Raise) -> bool:
    exc = s.exc
    if isinstance(exc, ast.Call):
        exc = exc.func
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def _is_abstract(checker: "ModuleChecker", node: FuncDef) -> bool:
    names = decorator_names(checker.ev, node, checker.scope)
    return any(n in ("abc.abstractmethod", "abc.abstractproperty") for n in names)


def _in_protocol(checker: "ModuleChecker") -> bool:
    cls = checker.scope.cls if checker.scope.kind == "class" else None
    return bool(cls is not None and cls.is_protocol)
