"""Checking a module: walk every statement of the module, its classes and functions.

Statement rules live here; expression rules in `evaluate.expressions`. The
walk keeps a flow state (narrowing, reachability) per body; unreachable
statements are not checked (mypy's behaviour), and are reported only with
`--warn-unreachable`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from veritype.check.flow import Flow, State, merge
from veritype.check.unreachable_rules import is_noop_for_reachability
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.evaluate.expressions import ExprEvaluator, expr_key
from veritype.evaluate.functions import function_scope, is_generator
from veritype.evaluate.scopes import Scope
from veritype.modules.finder import MissingModule
from veritype.semantic import symbols as S
from veritype.syntax.shapes import elif_branch
from veritype.types.format import format_pair, format_type
from veritype.types.model import (
    AnyType, CallableType, Instance, LiteralType, NeverType, NoneType, TupleType, Type, TypedDictType,
    TypeType, UnionType, flatten_union, make_union, union_items,
)
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program


def check_module(program: "Program", info: "ModuleInfo") -> list[Diagnostic]:
    checker = ModuleChecker(program, info)
    try:
        checker.run()
    except RecursionError:
        checker.diags.append(Diagnostic(info.path, 1, 1, "error", "Internal error: the module is too deeply nested to check", "misc"))
    return checker.diags


class FunctionContext:
    def __init__(self, node: ast.AST | None, ret: Type | None, is_generator: bool, is_async: bool) -> None:
        self.node = node
        self.ret = ret
        self.is_generator = is_generator
        self.is_async = is_async
        self.yield_types: tuple[Type, Type] | None = None  # set for annotated generators


class ModuleChecker:
    def __init__(self, program: "Program", info: "ModuleInfo") -> None:
        self.program = program
        self.ev = program.evaluator
        self.info = info
        self.options = program.options.for_module(info.name)
        self.diags: list[Diagnostic] = []
        self.flow = Flow()
        self.func: FunctionContext | None = None
        self.scope: Scope = self.ev.module_scope(info)
        self._loop_exits: list[State] = []  # states at `break`s of the innermost loop
        # Inside `if TYPE_CHECKING:` (or a version check that holds): declarations only.
        self.type_checking_depth = 0
        self.silent_passes = 0  # nesting of silent first passes over loop bodies
        # Set while looking ahead for the statement completing `x = []` (check.partial_types).
        self.partial_watch: dict[int, Callable[[], None]] | None = None
        # Unannotated variables: the type their first assignment declared (check.inferred_decls).
        self.inferred: dict[int, Type] = {}

    # -- reporting ----------------------------------------------------------------

    def report(self, node: ast.AST | None, msg: str, code: str, severity: str = "error") -> None:
        line = getattr(node, "lineno", 1) or 1
        col = (getattr(node, "col_offset", 0) or 0) + 1
        end_line = getattr(node, "end_lineno", None)
        end_col = getattr(node, "end_col_offset", None)
        self.diags.append(Diagnostic(self.info.path, line, col, severity, msg, code if severity == "error" else (None if code == "note" else code), end_line, (end_col + 1) if end_col is not None else None, _ignore_span(node, line)))

    def error(self, node: ast.AST | None, msg: str, code: str) -> None:
        self.report(node, msg, code)

    def note(self, node: ast.AST | None, msg: str) -> None:
        self.report(node, msg, "note", "note")

    def explain_protocol(self, node: ast.AST | None, actual: Type, expected: Type) -> None:
        """mypy's notes on the members making `actual` fail protocol `expected`."""
        from veritype.evaluate.protocol_notes import protocol_notes

        for n in protocol_notes(self.ev, actual, expected):
            self.note(node, n)

    def exprs(self) -> ExprEvaluator:
        e = ExprEvaluator(self.ev, self.scope, self.flow, self.report)
        e.in_async = bool(self.func and self.func.is_async)
        e.yield_types = self.func.yield_types if self.func is not None else None
        return e

    def infer(self, node: ast.expr, expected: Type | None = None) -> Type:
        t = self.exprs().infer(node, expected)
        if isinstance(node, ast.Call) and isinstance(t, NeverType):
            self.flow.state.unreachable = True
        return t

    def type_report(self):  # type: ignore[no-untyped-def]
        def report(node: ast.AST, msg: str, code: str) -> None:
            self.error(node, msg, code)

        return report

    # -- walk -------------------------------------------------------------------------

    def run(self) -> None:
        tree = self.info.tree
        assert tree is not None
        self.block(tree.body)

    def block(self, body: list[ast.stmt]) -> None:
        prev: ast.stmt | None = None
        for stmt in body:
            if self.flow.state.unreachable:
                # After `assert sys.platform == "win32"` on another platform the rest is skipped silently.
                platform_skip = isinstance(prev, ast.Assert) and self.program.binder_for(self.info).static_branch(prev.test) is False
                if self.options.warn_unreachable and not platform_skip and not is_noop_for_reachability(self, stmt):
                    self.error(stmt, "Statement is unreachable", "unreachable")
                return
            self.stmt(stmt)
            prev = stmt

    def stmt(self, stmt: ast.stmt) -> None:
        if self.partial_watch is not None:
            if id(stmt) in self.partial_watch:
                self.partial_watch[id(stmt)]()
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return  # the lookahead needs no nested bodies
        method = getattr(self, "_" + type(stmt).__name__, None)
        if method is not None:
            method(stmt)

    # -- simple statements ---------------------------------------------------------------

    def _Expr(self, stmt: ast.Expr) -> None:
        if self._alias_specialization(stmt.value):
            return
        t = self.infer(stmt.value)
        is_reveal = isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in ("reveal_type", "assert_type")
        if isinstance(stmt.value, ast.Call) and not is_reveal and isinstance(t, Instance) and t.info.fullname == "typing.Coroutine":
            self.error(stmt, 'Value of type "Coroutine[Any, Any, %s]" must be used' % format_type(t.args[2] if len(t.args) == 3 else AnyType()), "unused-coroutine")
            self.note(stmt, 'Are you missing an await?')
        # Calls do not forget narrowed attributes: mypy and pyright keep them
        # too (unsound but what users expect).

    def _alias_specialization(self, value: ast.expr) -> bool:
        """`Alias[int]` as a statement: checked as the type expression it is (its
        arguments against the alias's parameters, e.g. an unpacked `*Ts` where no
        TypeVarTuple parameter takes it)."""
        if not (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)):
            return False
        from veritype.evaluate.declarations import alias_info

        ref = self.ev.resolve_expr(value.value, self.scope)
        if ref is None or ref.sym is None or ref.scope is None or ref.kind == "class":
            return False
        if alias_info(self.ev, ref.sym, ref.scope) is None:
            return False
        self.ev.type_exprs.evaluate(value, self.scope, report=self.type_report())
        return True

    def _Pass(self, stmt: ast.Pass) -> None:
        pass

    def _Break(self, stmt: ast.Break) -> None:
        self._loop_exits.append(self.flow.fork())
        self.flow.state.unreachable = True

    def _Continue(self, stmt: ast.Continue) -> None:
        self.flow.state.unreachable = True

    def _Delete(self, stmt: ast.Delete) -> None:
        for target in stmt.targets:
            if isinstance(target, ast.Subscript):
                base = self.infer(target.value)
                self.infer(target.slice)
                if not isinstance(base, AnyType) and self.ev.bound_member(base, "__delitem__") is None and not isinstance(base, UnionType):
                    self.error(target, f'"{format_type(base)}" has no attribute "__delitem__"', "attr-defined")
                elif isinstance(base, TypedDictType) and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                    # Typing spec ("Typed dictionaries"): a required or read-only key cannot be deleted.
                    name = target.slice.value
                    if name in base.required or name in base.readonly:
                        self.error(target, f'Key "{name}" of TypedDict "{format_type(base)}" cannot be deleted', "misc")
            elif isinstance(target, ast.Attribute):
                owner = self.infer(target.value)
                if isinstance(owner, Instance) and any(c.is_namedtuple and target.attr in c.symbols for c in owner.info.mro):
                    # Spec, "Named Tuples": "named tuple fields cannot be overwritten or deleted".
                    self.error(target, f'Cannot delete attribute "{target.attr}" of NamedTuple "{owner.info.name}"', "misc")
            key = expr_key(target)
            if key is not None:
                self.flow.invalidate(key)

    def _Global(self, stmt: ast.Global) -> None:
        pass

    def _Nonlocal(self, stmt: ast.Nonlocal) -> None:
        pass

    def _Assert(self, stmt: ast.Assert) -> None:
        if self.program.binder_for(self.info).static_branch(stmt.test) is False:
            # A platform/version assert that fails here (spec, "Version and Platform
            # Checking"): what follows is not checked, like a skipped `if` branch.
            self.flow.state.unreachable = True
            return
        self.infer(stmt.test)
        if stmt.msg is not None:
            self.infer(stmt.msg)
        if isinstance(stmt.test, ast.Constant) and not stmt.test.value:
            self.flow.state.unreachable = True
            return
        self.flow.apply(self.exprs().narrow_for(stmt.test, True))

    def _Raise(self, stmt: ast.Raise) -> None:
        if stmt.exc is not None:
            t = self.infer(stmt.exc)
            self._check_exception(stmt.exc, t)
        if stmt.cause is not None:
            t = self.infer(stmt.cause)
            # `raise X from None` (or from an Optional exception) is allowed.
            cause = make_union([i for i in union_items(t) if not isinstance(i, NoneType)])
            if not isinstance(cause, NeverType):
                self._check_exception(stmt.cause, cause)
        self.flow.state.unreachable = True

    def _check_except_type(self, node: ast.expr, t: Type) -> None:
        """`except 1:`: only values that are plainly not classes are reported
        (mypy's message); classes, type[...] and tuples of them pass."""
        from veritype.types.model import LiteralType

        items = list(union_items(t))
        while items:
            item = items.pop()
            if isinstance(item, TupleType):
                items.extend(item.items)
                continue
            if isinstance(item, LiteralType) or (isinstance(item, (Instance, NoneType)) and _plain_value(self.ev, item)):
                self.error(node, "Exception type must be derived from BaseException (or be a tuple of exception classes)", "misc")
                return

    def _check_exception(self, node: ast.expr, t: Type) -> None:
        base = self.ev.instance("builtins.BaseException")
        if not isinstance(base, Instance):
            return
        for item in union_items(t):
            if isinstance(item, AnyType):
                continue
            ok = is_subtype(self.ev, item, base) or is_subtype(self.ev, item, TypeType(base))
            if not ok:
                self.error(node, "Exception must be derived from BaseException", "misc")
                return

    def _Return(self, stmt: ast.Return) -> None:
        func = self.func
        if func is None:
            if stmt.value is not None:
                self.infer(stmt.value)
            self.flow.state.unreachable = True
            return
        expected = func.ret
        if stmt.value is None:
            if expected is not None and not _accepts_none(self.ev, expected) and not func.is_generator:
                self.error(stmt, "Return value expected", "return-value")
        else:
            t = self.infer(stmt.value, expected)
            if expected is not None and not isinstance(expected, AnyType):
                if isinstance(expected, NeverType):
                    self.error(stmt, 'Return statement in function which does not return', "misc")
                elif not is_subtype(self.ev, t, expected) and not _fits_a_constraint(self.ev, t, expected):
                    if isinstance(expected, NoneType):
                        self.error(stmt, "No return value expected", "return-value")
                    else:
                        got, exp = format_pair(t, expected)
                        self.error(stmt.value, f'Incompatible return value type (got "{got}", expected "{exp}")', "return-value")
                        self.explain_protocol(stmt.value, t, expected)
                elif isinstance(t, AnyType) and self.options.warn_return_any and t.reason not in ("error",) and not _is_object(expected) and not _declares_any(expected):
                    self.error(stmt, f'Returning Any from function declared to return "{format_type(expected)}"', "no-any-return")
        self.flow.state.unreachable = True

    # -- assignment ----------------------------------------------------------------------

    def _Assign(self, stmt: ast.Assign) -> None:
        from veritype.evaluate.special_assignments import special_assignment

        if special_assignment(self, stmt):
            return
        declared = None
        if len(stmt.targets) == 1:
            declared = self._declared_for_target(stmt.targets[0])
            if stmt.type_comment and isinstance(stmt.targets[0], ast.Name):
                from veritype.evaluate.type_comments import parse_type_comment_expr

                expr = parse_type_comment_expr(stmt.type_comment)
                if expr is not None:
                    declared = self.ev.type_exprs.evaluate(expr, self.scope, report=self.type_report(), allow_qualifiers=True)
                elif not stmt.type_comment.strip().startswith("ignore"):
                    self.error(stmt, f'Syntax error in type comment "{stmt.type_comment.strip()}"', "syntax")
        if declared is not None and self.info.is_stub and isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis:
            return  # `x = ...  # type: int` in a stub (spec, "Module Level Attributes")
        t = self._infer_redisplay(stmt) if declared is None else None
        if t is None:
            t = self.infer(stmt.value, declared if declared is not None else self._setitem_context(stmt.targets))
        from veritype.check.partial_types import maybe_complete

        t = maybe_complete(self, stmt, t, declared)
        for target in stmt.targets:
            self.assign(target, t, stmt.value)
        if declared is None and not stmt.type_comment:
            self._check_var_annotated(stmt, t)
        # Calls do not forget narrowed attributes: mypy and pyright keep them
        # too (unsound but what users expect).

    def _setitem_context(self, targets: list[ast.expr]) -> Type | None:
        """`d[k] = value`: the value type `d.__setitem__` takes, as the context the
        value is inferred in (`[1, 2]` for a `dict[str, list[float]]`)."""
        if len(targets) != 1 or not isinstance(targets[0], ast.Subscript):
            return None
        base = ExprEvaluator(self.ev, self.scope, self.flow, None).infer(targets[0].value)
        if not isinstance(base, Instance):
            return None
        setitem = self.ev.bound_member(base, "__setitem__")
        if isinstance(setitem, CallableType) and not setitem.type_vars and len(setitem.params) == 2:
            return setitem.params[1].type
        return None

    def _check_var_annotated(self, stmt: ast.Assign, t: Type) -> None:
        from veritype.check import var_annotated as va

        attr = va.attribute_needs_annotation(self, stmt, t)
        if attr is not None:
            self.error(stmt.targets[0], va.message(*attr), "var-annotated")
            return
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or self.info.is_stub:
            return
        kind = va.empty_display_kind(stmt.value)
        if kind is None or not (isinstance(t, Instance) and t.info.fullname == f"builtins.{kind}"):
            return
        if self.scope.kind == "module":
            body = self.info.tree.body if self.info.tree is not None else None
        elif self.scope.kind == "function" and self.func is not None and isinstance(self.func.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = self.func.node.body
        else:
            return
        name = stmt.targets[0].id
        if body is not None and va.needs_annotation(body, name, stmt):
            self.error(stmt.targets[0], va.message(name, kind), "var-annotated")

    def _infer_redisplay(self, stmt: ast.Assign) -> Type | None:
        """`xs = [Styled(x) for x in xs]` re-binding an unannotated list variable: the
        display is inferred in the context of the variable's current type, which it
        keeps if the items fit (mypy's inference from the first assignment), so a
        later `xs.append(other_item)` still works."""
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        if not isinstance(target, ast.Name) or not isinstance(stmt.value, _DISPLAYS):
            return None
        prior = self.flow.lookup(target.id)
        if not isinstance(prior, Instance) or prior.info.fullname not in ("builtins.list", "builtins.set", "builtins.dict"):
            return None
        if any(isinstance(a, AnyType) for a in prior.args):
            return None
        silent = ExprEvaluator(self.ev, self.scope, self.flow, None)
        t = silent.infer(stmt.value, prior)
        if not is_subtype(self.ev, t, prior):
            return None
        return self.infer(stmt.value, prior)

    def _declared_for_target(self, target: ast.expr) -> Type | None:
        if isinstance(target, ast.Name):
            hit = self._local_symbol(target.id)
            if hit is None:
                return None
            sym, scope = hit
            d = self.ev.declared_type(sym, scope)
            if d is not None:
                return d
            if sym.kind == S.PARAM:
                return _annotated_param_type(sym, scope)
            # An unannotated variable: the type its first assignment declared (mypy's rule).
            from veritype.check.inferred_decls import declared

            return declared(self, target)
        if isinstance(target, ast.Attribute):
            return self._attribute_declared(target)
        return None

    def _attribute_declared(self, target: ast.Attribute) -> Type | None:
        silent = ExprEvaluator(self.ev, self.scope, self.flow, None)
        base = silent.infer(target.value)
        from veritype.check.attribute_targets import PLAIN, written_type

        through = written_type(self.ev, base, target.attr)
        if through is not PLAIN:
            return through  # type: ignore[return-value]  # a property setter or a data descriptor
        if isinstance(base, Instance):
            hit = base.info.get(target.attr)
            if hit is None:
                return None
            sym, cls = hit
            if sym.kind != S.VAR:
                return None
            declared = self.ev.declared_type(sym, cls.scope)
            if declared is None:
                return None
            return self.ev.members.get(base, target.attr)
        return None

    def _local_symbol(self, name: str):  # type: ignore[no-untyped-def]
        return self.ev.lookup(name, self.scope) if self.scope.table.get(name) is not None or self.scope.kind == "module" else _nonlocal_lookup(self, name)

    def assign(self, target: ast.expr, t: Type, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            from veritype.check.attribute_targets import check_final_name

            check_final_name(self, target)
            from veritype.check import inferred_decls

            if inferred_decls.check_module_name(self, target, t, value):
                return
            inferred_decls.before_assign(self, target, value, t)
            declared = self._declared_for_target(target)
            if declared is not None and inferred_decls.declared(self, target) is not None and inferred_decls.lenient(self, target, t, value, declared):
                declared = None  # an inferred declaration mypy would not enforce here
            if declared is not None:
                if not is_subtype(self.ev, t, declared):
                    from veritype.check.display_items import report_display_items

                    if value is None or not report_display_items(self, value, declared):
                        got, exp = format_pair(t, declared)
                        self.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                        self.explain_protocol(value if value is not None else target, t, declared)
                    self.flow.invalidate(target.id)
                    return
                self.flow.bind(target.id, _narrow_on_reassign(self.ev, declared, t))
            else:
                keep = value is not None and _declared_literal_source(self, value)
                # No value expression (a `for` target, `with ... as`, an unpacked item):
                # the item's literals written in a type stay (`for s in styles`, with
                # `styles: tuple[Style, ...]`), as mypy widens only literal expressions.
                bound = t if keep else _widen_for_variable(self.ev, t, self, target, keep_declared=value is None)
                self.flow.bind(target.id, bound)
                inferred_decls.record(self, target, bound)
        elif isinstance(target, ast.Attribute):
            self.infer(target.value)
            declared = self._attribute_declared(target)
            enforced = declared
            if enforced is None:
                # An unannotated attribute: the type its first assignment declared.
                from veritype.check.inferred_attrs import inferred_attribute_type

                enforced = inferred_attribute_type(self, target, ExprEvaluator(self.ev, self.scope, self.flow, None).infer(target.value))
                from veritype.check.inferred_decls import lenient

                if enforced is not None and lenient(self, target, t, value, enforced):
                    enforced = None
            if enforced is not None and not is_subtype(self.ev, t, enforced):
                got, exp = format_pair(t, enforced)
                self.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                return
            from veritype.check.attribute_rules import check_attribute_assignment
            from veritype.check.attribute_targets import PLAIN, check_written_attribute, written_type

            check_attribute_assignment(self, target, t)
            base_t = ExprEvaluator(self.ev, self.scope, self.flow, None).infer(target.value)
            refused = check_written_attribute(self, target, base_t)
            self._record_self_assignment(target, t, value)
            key = expr_key(target)
            if key is not None:
                if refused or written_type(self.ev, base_t, target.attr) is not PLAIN:
                    # Through a setter or `__set__`: reading goes through the getter, not narrowed.
                    self.flow.invalidate(key)
                else:
                    self.flow.bind(key, _narrow_on_assign(self.ev, declared, t) if declared is not None else t)
        elif isinstance(target, ast.Subscript):
            base = self.infer(target.value)
            self._setitem(target, base, t, value)
            key = expr_key(target)
            if key is not None:
                self.flow.invalidate(key)
        elif isinstance(target, (ast.Tuple, ast.List)):
            exprs = self.exprs()
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts) and isinstance(t, TupleType):
                items = list(t.items)
            else:
                items = exprs.unpack(t, len(target.elts), target)
            for sub, item in zip(target.elts, items):
                if isinstance(sub, ast.Starred):
                    self.assign(sub.value, self.ev.builtin("list", _widen_lit(item)), None)
                else:
                    self.assign(sub, item, None)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, t, value)

    def _record_self_assignment(self, target: ast.Attribute, t: Type, value: ast.expr | None) -> None:
        """Remember the type assigned to `self.x` here, narrowing included, for the
        inference of unannotated instance attributes (declarations._flow_assigned)."""
        if value is None or not isinstance(target.value, ast.Name):
            return
        cls = self.scope.method_class()
        fn = self.scope.function
        if cls is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        params = [*fn.args.posonlyargs, *fn.args.args]
        if not params or params[0].arg != target.value.id:
            return
        sym = cls.symbols.get(target.attr)
        if sym is not None and sym.is_instance_attr and (sym.annotation is None or self.ev.declared_type(sym, cls.scope) is None):
            # Unannotated, or a bare `Final` whose type comes from the value.
            sym.cache.setdefault("assigned", {})[id(value)] = t  # type: ignore[index]

    def _setitem(self, target: ast.Subscript, base: Type, value_t: Type, value: ast.expr | None) -> None:
        from veritype.evaluate.calls import ARG_POS, Arg

        for item in union_items(base):
            if isinstance(item, AnyType):
                self.infer(target.slice)
                continue
            if isinstance(item, Instance) or isinstance(item, (TupleType,)) or True:
                from veritype.types.model import TypedDictType

                if isinstance(item, TypedDictType):
                    key_t = self.infer(target.slice)
                    if isinstance(key_t, LiteralType) and isinstance(key_t.value, str):
                        m = item.item_map()
                        if key_t.value not in m:
                            self.error(target.slice, f'TypedDict "{format_type(item)}" has no key "{key_t.value}"', "typeddict-item")
                        elif not is_subtype(self.ev, value_t, m[key_t.value]):
                            self.error(value or target, f'Value of "{key_t.value}" has incompatible type "{format_type(value_t)}"; expected "{format_type(m[key_t.value])}"', "typeddict-item")
                        elif key_t.value in item.readonly:
                            self.error(target, f'ReadOnly TypedDict key "{key_t.value}" TypedDict is mutated', "typeddict-readonly-mutated")
                    continue
                setitem = self.ev.bound_member(item, "__setitem__")
                if setitem is None:
                    self.infer(target.slice)
                    self.error(target, f'Unsupported target for indexed assignment ("{format_type(item)}")', "index")
                    continue
                if isinstance(setitem, CallableType) and not setitem.type_vars and len(setitem.params) == 2:
                    # mypy's wording for `d["a"] = "b"` when only the value is wrong.
                    key_p, val_p = setitem.params
                    if is_subtype(self.ev, self.infer(target.slice), key_p.type) and not is_subtype(self.ev, value_t, val_p.type):
                        got, exp = format_pair(value_t, val_p.type)
                        self.error(value or target, f'Incompatible types in assignment (expression has type "{got}", target has type "{exp}")', "assignment")
                        continue
                exprs = self.exprs()
                exprs._call_node(setitem, [Arg(ARG_POS, node=target.slice), Arg(ARG_POS, type=value_t, node=value)], target, method="__setitem__", receiver=item)

    def _AnnAssign(self, stmt: ast.AnnAssign) -> None:
        from veritype.evaluate.type_expr import TypeContext

        from veritype.evaluate.special_assignments import special_annassign

        if special_annassign(self, stmt):
            return
        ctx = TypeContext(self.scope, report=self.type_report(), allow_qualifiers=True, self_class=self.scope.enclosing_class())
        declared = self.ev.type_exprs.eval(stmt.annotation, ctx)
        if "TypeAlias" not in ctx.qualifiers:
            from veritype.check.typevar_scope_rules import check_unbound_in_annotation

            check_unbound_in_annotation(self, stmt.annotation, declared)
        bare_qualifier = ctx.qualifiers & {"Final", "ClassVar"} and isinstance(stmt.annotation, (ast.Name, ast.Attribute))
        from veritype.check.qualifier_rules import check_qualifier_declaration

        check_qualifier_declaration(self, stmt, ctx.qualifiers, declared)
        if "TypeAlias" in ctx.qualifiers:
            if stmt.value is None and not self.info.is_stub:
                self.error(stmt, "A type alias declared with TypeAlias needs a value", "valid-type")
            if stmt.value is not None:
                from veritype.check.alias_rules import report_circular

                sym = self.scope.table.get(stmt.target.id) if isinstance(stmt.target, ast.Name) else None
                if sym is None or sym.node is not stmt or not report_circular(self, sym, stmt):
                    self.ev.type_exprs.evaluate(stmt.value, self.scope, report=self.type_report())
            return
        if "ClassVar" in ctx.qualifiers and self.scope.kind != "class":
            self.error(stmt.annotation, "ClassVar can only be used for assignments in class body", "misc")
        if stmt.value is None:
            if "Final" in ctx.qualifiers and self.scope.kind != "class" and not self.info.is_stub:
                self.error(stmt, "Final name must be initialized with a value", "misc")
            return
        if bare_qualifier:
            t = self.infer(stmt.value)
            self.assign_literal_ok(stmt.target, t)
            if isinstance(stmt.target, ast.Attribute):
                # `self.scope: Final = scope` after `scope` was narrowed: mypy infers the
                # attribute from the value's type here, narrowing included.
                self._record_self_assignment(stmt.target, t, stmt.value)
            return
        if self.info.is_stub and isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis:
            return  # `x: int = ...` in a stub: the value is elided, not an EllipsisType
        t = self.infer(stmt.value, declared)
        if not is_subtype(self.ev, t, declared):
            from veritype.check.display_items import report_display_items

            if not report_display_items(self, stmt.value, declared):
                got, exp = format_pair(t, declared)
                self.error(stmt.value, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                self.explain_protocol(stmt.value, t, declared)
            return
        if isinstance(stmt.target, ast.Name):
            # mypy 2.4 does not narrow a name by the value of its own annotated
            # declaration: after `x: int | str = 10` x is `int | str` (a later plain
            # assignment narrows). Attributes are narrowed, below.
            self.flow.bind(stmt.target.id, declared)
        elif isinstance(stmt.target, ast.Attribute):
            self.infer(stmt.target.value)
            key = expr_key(stmt.target)
            if key is not None:
                # `self.s: Sequence[str] = []` narrows `self.s` to the list (mypy does, for
                # attributes though not for plain names), so `self.s.append(x)` follows.
                self.flow.bind(key, _narrow_on_reassign(self.ev, declared, t))
        else:
            self.infer(stmt.target)

    def assign_literal_ok(self, target: ast.expr, t: Type) -> None:
        if isinstance(target, ast.Name):
            self.flow.bind(target.id, t)

    def _AugAssign(self, stmt: ast.AugAssign) -> None:
        target_t = self.infer(stmt.target)
        if isinstance(stmt.op, ast.Add) and isinstance(stmt.value, ast.List) and isinstance(target_t, Instance) and target_t.info.fullname == "builtins.list":
            # `l += ["a"]` on a list[int]: mypy checks the display's items against the list's.
            from veritype.check.display_items import report_display_items

            if report_display_items(self, stmt.value, target_t):
                return
            value_t = self.infer(stmt.value, target_t)
        else:
            value_t = self.infer(stmt.value)
        result = self.exprs().binary(stmt, target_t, value_t, stmt.op, augmented=True)
        from veritype.check.attribute_targets import check_final_name, check_written_attribute

        if isinstance(stmt.target, ast.Name):
            check_final_name(self, stmt.target)
        elif isinstance(stmt.target, ast.Attribute):
            check_written_attribute(self, stmt.target, ExprEvaluator(self.ev, self.scope, self.flow, None).infer(stmt.target.value))
        if isinstance(stmt.target, ast.Name):
            declared = self._declared_for_target(stmt.target)
            if declared is not None and not is_subtype(self.ev, result, declared):
                got, exp = format_pair(result, declared)
                self.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                return
            self.flow.bind(stmt.target.id, _narrow_on_assign(self.ev, declared, result) if declared is not None else result)
        elif isinstance(stmt.target, ast.Subscript):
            base = self.infer(stmt.target.value)
            self._setitem(stmt.target, base, result, stmt.value)
        else:
            key = expr_key(stmt.target)
            if key is not None:
                # `node.count -= 1` keeps the narrowing of `node.count` as the result.
                self.flow.bind(key, result)

    # -- imports ---------------------------------------------------------------------------

    def _Import(self, stmt: ast.Import) -> None:
        for alias in stmt.names:
            self._check_import(stmt, alias.name)

    def _ImportFrom(self, stmt: ast.ImportFrom) -> None:
        binder = self.program.binder_for(self.info)
        source = binder.resolve_relative(stmt.module, stmt.level)
        if stmt.module == "__future__":
            return
        if not self._check_import(stmt, source):
            return
        mod = self.program.get_module(source)
        if mod is None:
            return
        for alias in stmt.names:
            if alias.name == "*":
                continue
            sym = self.program.lookup_in_module(mod, alias.name, from_import=True)
            if sym is not None:
                if self.program.hidden_reexport(mod, alias.name):
                    self.error(stmt, f'Module "{source}" does not explicitly export attribute "{alias.name}"', "attr-defined")
                continue
            if self.program.get_module(f"{source}.{alias.name}") is not None:
                continue
            if mod.symbols.get("__getattr__") is not None or mod.origin == "namespace":
                continue
            if isinstance(self.program.find(f"{source}.{alias.name}"), MissingModule) and mod.origin == "source" and mod.is_package:
                pass
            self.error(stmt, f'Module "{source}" has no attribute "{alias.name}"', "attr-defined")

    def _check_import(self, stmt: ast.stmt, name: str) -> bool:
        found = self.program.find(name)
        if not isinstance(found, MissingModule):
            return True
        if getattr(found, "ignored", False) or self.program.options.for_module(name).ignore_missing_imports or self.options.ignore_missing_imports:
            return False
        # A parent package that is itself missing is reported once, for the full name.
        # Like mypy, a missing module is reported at its first import in a file only.
        reported: set[str] = self.__dict__.setdefault("_missing_reported", set())
        if name in reported:
            return False
        reported.add(name)
        self.error(stmt, found.message, found.code)
        for n in found.notes:
            self.note(stmt, n)
        return False

    # -- compound statements ---------------------------------------------------------------

    def _If(self, stmt: ast.If) -> None:
        # An elif chain is walked as a loop (syntax.shapes.elif_branch), not by
        # recursion through `orelse`: the state after the whole statement is the
        # merge of each branch's end state, as the nested walk would give.
        binder = self.program.binder_for(self.info)
        ends: list[State] = []
        node = stmt
        while True:
            static = binder.static_branch(node.test)
            if static is True:
                self.type_checking_depth += 1
                try:
                    self.block(node.body)
                finally:
                    self.type_checking_depth -= 1
                break
            nxt = elif_branch(node)
            if static is False:
                if nxt is None:
                    self.block(node.orelse)
                    break
                if self._unreachable_elif(nxt):
                    break
                node = nxt
                continue
            self.infer(node.test)
            exprs = self.exprs()
            before = self.flow.fork()
            self.flow.apply(exprs.narrow_for(node.test, True))
            if _is_never_narrowed(self.flow, exprs.narrow_for(node.test, True)):
                self.flow.state.unreachable = True
            self.block(node.body)
            ends.append(self.flow.fork())
            self.flow.set(before.copy())
            neg = exprs.narrow_for(node.test, False)
            self.flow.apply(neg)
            if _is_never_narrowed(self.flow, neg):
                self.flow.state.unreachable = True
            if nxt is None:
                self.block(node.orelse)
                break
            if self._unreachable_elif(nxt):
                break
            node = nxt
        if ends:
            ends.append(self.flow.fork())
            self.flow.set(merge(ends))

    def _unreachable_elif(self, nxt: ast.If) -> bool:
        """What `block([nxt])` does first: an elif after an unreachable point is skipped (and reported)."""
        if not self.flow.state.unreachable:
            return False
        if self.options.warn_unreachable and not is_noop_for_reachability(self, nxt):
            self.error(nxt, "Statement is unreachable", "unreachable")
        return True

    def _loop(self, body: list[ast.stmt], orelse: list[ast.stmt], assigned: set[str], test: ast.expr | None, infinite: bool, before_body=None) -> None:  # type: ignore[no-untyped-def]
        saved_exits = self._loop_exits
        entry = self.flow.fork()
        if self.silent_passes < 2:
            # A silent first pass finds what the body assigns; the loop head is
            # the join of the entry state and the state at the end of the body,
            # so `p = Path(p)` before `while ...: p = p.parent` keeps `Path`.
            self.silent_passes += 1
            mark = len(self.diags)
            self._loop_exits = []
            self.flow.set(entry.copy())
            try:
                if before_body is not None:
                    before_body()
                if test is not None:
                    self.flow.apply(self.exprs().narrow_for(test, True))
                self.block(body)
            finally:
                del self.diags[mark:]
                self.silent_passes -= 1
            head = merge([entry, self.flow.fork()])
        else:
            head = entry.copy()
            for key in assigned:
                head.types.pop(key, None)
        self._loop_exits = []
        self.flow.set(head.copy())
        if before_body is not None:
            before_body()
        if test is not None:
            self.flow.apply(self.exprs().narrow_for(test, True))
        self.block(body)
        body_end = self.flow.fork()
        exits = self._loop_exits
        self._loop_exits = saved_exits
        # After the loop: it ran zero or more times (or broke out).
        after = merge([head, body_end])
        if infinite:
            after.unreachable = True
        self.flow.set(after)
        if test is not None and not infinite:
            self.flow.apply(self.exprs().narrow_for(test, False))
        self.block(orelse)
        normal = self.flow.fork()
        self.flow.set(merge([normal] + exits))

    def _While(self, stmt: ast.While) -> None:
        self.infer(stmt.test)
        infinite = isinstance(stmt.test, ast.Constant) and bool(stmt.test.value)
        self._loop(stmt.body, stmt.orelse, _assigned_keys(stmt.body), stmt.test, infinite)

    def _For(self, stmt: ast.For | ast.AsyncFor) -> None:
        it = self.infer(stmt.iter)
        is_async = isinstance(stmt, ast.AsyncFor)
        item = self.exprs().iterate(it, stmt.iter, is_async=is_async)
        # `for x in xs:  # type: T` declares the one-name target (bound by name
        # in bind_target, a closure that no isinstance narrowing reaches).
        declared: Type | None = None
        declared_name = ""
        if stmt.type_comment and isinstance(stmt.target, ast.Name):
            from veritype.evaluate.type_comments import parse_type_comment_expr

            expr = parse_type_comment_expr(stmt.type_comment)
            if expr is not None:
                declared = self.ev.type_exprs.evaluate(expr, self.scope, report=self.type_report())
                declared_name = stmt.target.id
        assigned = _assigned_keys(stmt.body) | _target_keys(stmt.target)

        def bind_target() -> None:
            if declared is not None:
                if not is_subtype(self.ev, item, declared):
                    got, exp = format_pair(item, declared)
                    self.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                self.flow.bind(declared_name, declared)
            else:
                self.assign(stmt.target, item, None)

        self._loop(stmt.body, stmt.orelse, assigned, None, False, before_body=bind_target)

    _AsyncFor = _For

    def _With(self, stmt: ast.With | ast.AsyncWith) -> None:
        is_async = isinstance(stmt, ast.AsyncWith)
        for item in stmt.items:
            ctx = self.infer(item.context_expr)
            entered = self.exprs().enter(ctx, item.context_expr, is_async=is_async)
            if item.optional_vars is not None:
                if stmt.type_comment and isinstance(item.optional_vars, ast.Name):
                    from veritype.evaluate.type_comments import parse_type_comment_expr

                    expr = parse_type_comment_expr(stmt.type_comment)
                    if expr is not None:
                        declared = self.ev.type_exprs.evaluate(expr, self.scope, report=self.type_report())
                        if not is_subtype(self.ev, entered, declared):
                            got, exp = format_pair(entered, declared)
                            self.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                        entered = declared
                self.assign(item.optional_vars, entered, None)
        self.block(stmt.body)
        # A context manager whose __exit__ returns bool may swallow exceptions.
        if self.flow.state.unreachable and _may_swallow(self, stmt):
            self.flow.state.unreachable = False

    _AsyncWith = _With

    def _Try(self, stmt: ast.Try) -> None:
        assigned = _assigned_keys(stmt.body)
        entry = self.flow.fork()
        self.block(stmt.body)
        self.block(stmt.orelse)
        after_body = self.flow.fork()
        ends = [after_body]
        for handler in stmt.handlers:
            state = entry.copy()
            for key in assigned:
                state.types.pop(key, None)
            state.unreachable = False
            self.flow.set(state)
            if handler.type is not None:
                t = self.infer(handler.type)
                self._check_except_type(handler.type, t)
                exc = self.exprs().exception_instance(t)
                if type(stmt).__name__ == "TryStar":
                    group = self.ev.instance("builtins.ExceptionGroup", (exc,))
                    exc = group if isinstance(group, Instance) else exc
                if handler.name:
                    self.flow.bind(handler.name, exc)
            elif handler.name:
                self.flow.bind(handler.name, AnyType("special"))
            self.block(handler.body)
            if handler.name:
                self.flow.invalidate(handler.name)
            ends.append(self.flow.fork())
        merged = merge(ends)
        if stmt.finalbody:
            # The finally block runs on every path; check it from a state that forgets try-body narrowing.
            fin_state = merged.copy() if not merged.unreachable else entry.copy()
            for key in assigned:
                fin_state.types.pop(key, None)
            was_unreachable = merged.unreachable
            fin_state.unreachable = False
            self.flow.set(fin_state)
            self.block(stmt.finalbody)
            if was_unreachable:
                self.flow.state.unreachable = True
            else:
                after = self.flow.fork()
                if not after.unreachable:
                    self.flow.set(merged if not after.types else State({**merged.types}, False))
        else:
            self.flow.set(merged)

    _TryStar = _Try

    def _Match(self, stmt: ast.Match) -> None:
        from veritype.check.patterns import check_match

        check_match(self, stmt)

    def _TypeAlias(self, stmt: ast.AST) -> None:
        from veritype.check.alias_rules import check_type_statement

        check_type_statement(self, stmt)

    # -- definitions -------------------------------------------------------------------------

    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        from veritype.check.function_rules import check_function

        check_function(self, node)

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, node: ast.ClassDef) -> None:
        from veritype.check.class_rules import check_class

        check_class(self, node)

    def in_scope(self, scope: Scope, func: FunctionContext | None):  # type: ignore[no-untyped-def]
        """Context for checking a nested body with its own scope and flow."""
        return _ScopeSwitch(self, scope, func)


class _ScopeSwitch:
    def __init__(self, checker: ModuleChecker, scope: Scope, func: FunctionContext | None) -> None:
        self.checker = checker
        self.scope = scope
        self.func = func

    def __enter__(self) -> None:
        c = self.checker
        self.saved = (c.scope, c.func, c.flow, c._loop_exits)
        c.scope = self.scope
        c.func = self.func
        outer = c.flow
        c.flow = Flow()
        # Narrowing of enclosing names does not carry into a nested function body
        # (it may run later), except for names the enclosing scope never rebinds.
        from veritype.check.closures import carried_narrowings

        if not outer.state.unreachable:
            c.flow.apply(carried_narrowings(c.ev, outer.state.types, self.scope))
        c._loop_exits = []

    def __exit__(self, *exc: object) -> None:
        c = self.checker
        c.scope, c.func, c.flow, c._loop_exits = self.saved


# -- helpers ------------------------------------------------------------------------------------


def _annotated_param_type(sym, scope) -> Type | None:  # type: ignore[no-untyped-def]
    """An annotated parameter's declared type: assigning to it must fit (spec,
    "Type annotations": a parameter annotation declares the name's type for the
    whole body). Unannotated ones (and `self`/`cls`, whose type is inferred) are free.
    An annotated `Any` is kept: mypy does not narrow it by assignment (binder.assign_type)."""
    node = sym.node
    func = scope.function
    if not isinstance(node, ast.arg) or func is None:
        return None
    if node.annotation is None and getattr(func, "type_comment", None) is None:
        return None
    t = scope.param_types.get(sym.name)
    if isinstance(t, AnyType):
        return t if t.reason == "explicit" else None
    return t if isinstance(t, Type) else None


def _nonlocal_lookup(checker: ModuleChecker, name: str):  # type: ignore[no-untyped-def]
    return checker.ev.lookup(name, checker.scope)


def _narrow_on_assign(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    if isinstance(value, AnyType):
        # mypy's rule (binder.assign_type): an Any value does not narrow a declared
        # type, so `x: bytes = d["k"]` stays bytes; except that an Optional's None
        # becomes Any (a fallback replacing None), and a union with an Any item or
        # a declared Any takes the Any.
        if isinstance(declared, UnionType):
            items = flatten_union(declared.items)
            if any(isinstance(i, NoneType) for i in items):
                return make_union([value if isinstance(i, NoneType) else i for i in items])
            if any(isinstance(i, AnyType) for i in items):
                return value
        return declared
    if isinstance(declared, AnyType):
        return declared
    if isinstance(declared, UnionType):
        from veritype.types.join import widen_literals

        kept = [i for i in union_items(value)]
        if all(is_subtype(ev, i, declared) for i in kept):
            # Literal values keep their literal type only when declared as such.
            out = []
            for i in kept:
                if isinstance(i, LiteralType) and not any(isinstance(d, LiteralType) for d in declared.items):
                    out.append(widen_literals(i))
                else:
                    out.append(i)
            return make_union(out)
    if isinstance(declared, Instance) and isinstance(value, (TupleType,)) and declared.info.fullname == "builtins.tuple":
        return value
    return declared


def _narrow_on_reassign(ev, declared: Type, value: Type) -> Type:  # type: ignore[no-untyped-def]
    """A later assignment to a declared name (or annotated parameter) narrows it to the
    value's class, as mypy does: `v: Sequence[int]` then `v = tuple(v)` is a tuple."""
    narrowed = _narrow_on_assign(ev, declared, value)
    if narrowed is not declared or not isinstance(declared, Instance) or declared.info.is_protocol:
        return narrowed
    from veritype.types.join import widen_literals

    v = widen_literals(value)
    if isinstance(v, (Instance, TupleType)) and v != declared and is_subtype(ev, v, declared):
        return v
    return narrowed


def _widen_lit(t: Type) -> Type:
    if isinstance(t, LiteralType):
        return t.fallback
    return t


def _widen_for_variable(ev, t: Type, checker: ModuleChecker, target: ast.Name, keep_declared: bool = False) -> Type:  # type: ignore[no-untyped-def]
    from veritype.evaluate.declarations import qualifiers
    from veritype.types.join import widen_literals

    hit = checker.ev.lookup(target.id, checker.scope)
    if hit is not None and "Final" in qualifiers(ev, *hit):
        return t
    return widen_literals(t, keep_declared=keep_declared)


_DISPLAYS = (ast.List, ast.ListComp, ast.Set, ast.SetComp, ast.Dict, ast.DictComp)


def _declared_literal_source(checker: ModuleChecker, value: ast.expr) -> bool:
    """Whether a literal type of `value` comes from a declaration (`align = self.align`
    where `align: Literal[...]`, a call returning a Literal), not from a literal
    expression: mypy widens only the latter when inferring a variable's type."""
    if isinstance(value, (ast.Attribute, ast.Subscript, ast.Call, ast.Await)):
        return True
    if isinstance(value, ast.BoolOp):
        return all(_declared_literal_source(checker, v) for v in value.values)
    if isinstance(value, ast.IfExp):
        return _declared_literal_source(checker, value.body) and _declared_literal_source(checker, value.orelse)
    if isinstance(value, ast.Name):
        hit = checker.ev.lookup(value.id, checker.scope)
        if hit is None:
            return False
        sym = hit[0]
        if sym.kind == S.PARAM:
            return True
        ann = sym.annotation
        if ann is None:
            return False
        # `X: Final = 1` infers `Literal[1]` from the value: that one widens.
        bare_final = isinstance(ann, (ast.Name, ast.Attribute)) and (ann.id if isinstance(ann, ast.Name) else ann.attr) == "Final"
        return not bare_final
    return False


def _fits_a_constraint(ev, t: Type, expected: Type) -> bool:  # type: ignore[no-untyped-def]
    """`t` fits `expected` with its value-constrained type variable (AnyStr) read as
    one of the values, or their union. mypy checks such a function once per value
    (`return value if isinstance(m, str) else value.encode()` for `-> AnyStr`);
    veritype checks the body once, so it accepts what some value would."""
    from veritype.types.substitute import substitute, tv_key, type_vars_in

    tvs = [v for v in type_vars_in(expected).values() if v.kind == "typevar" and v.values]
    if not tvs:
        return False
    tries = [{tv_key(v): make_union(list(v.values)) for v in tvs}]
    if len(tvs) == 1:
        tries += [{tv_key(tvs[0]): value} for value in tvs[0].values]
    return any(is_subtype(ev, t, substitute(expected, m)) for m in tries)


def _accepts_none(ev, t: Type) -> bool:  # type: ignore[no-untyped-def]
    return isinstance(t, (NoneType, AnyType)) or is_subtype(ev, NoneType(), t)


def _ignore_span(node: ast.AST | None, line: int) -> tuple[int, int] | None:
    """Where a `# type: ignore` silences an error reported at `node`, as mypy
    (messages.span_from_context): any line of an expression (an argument's line
    in a call written over several lines), a decorator line of a def or class;
    a statement's first line only. None: the error's own line."""
    if isinstance(node, ast.expr):
        end = getattr(node, "end_lineno", None) or line
        return (line, end) if end > line else None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
        first = min(d.lineno for d in node.decorator_list)
        return (first, line) if first < line else None
    return None


def _is_object(t: Type) -> bool:
    return isinstance(t, Instance) and t.info.fullname == "builtins.object"


def _declares_any(t: Type) -> bool:
    # mypy warns about returning Any only where Any is not a proper subtype of the
    # declared type: a union with an Any item (`-> Any | None`) accepts it quietly.
    return isinstance(t, UnionType) and any(isinstance(item, AnyType) for item in t.items)


def _assigned_keys(body: list[ast.stmt]) -> set[str]:
    # A loop is checked again for every pass of each enclosing loop: the walk
    # of its body is done once and kept on the body's first statement.
    known = getattr(body[0], "_vt_assigned_keys", None) if body else None
    if known is None:
        known = frozenset(_walk_assigned_keys(body))
        if body:
            body[0]._vt_assigned_keys = known  # type: ignore[attr-defined]
    return set(known)


def _walk_assigned_keys(body: list[ast.stmt]) -> set[str]:
    keys: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    keys |= _target_keys(t)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                keys |= _target_keys(node.target)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        keys |= _target_keys(item.optional_vars)
            elif isinstance(node, ast.NamedExpr):
                keys |= _target_keys(node.target)
            elif isinstance(node, ast.Delete):
                for t in node.targets:
                    keys |= _target_keys(t)
            elif isinstance(node, ast.Call):
                # A call in the loop may mutate attributes narrowed before it.
                keys.add("\0calls")
    return keys


def _target_keys(target: ast.expr) -> set[str]:
    """Keys rebound by assigning to `target`.

    Only the target itself (and the elements of a tuple/list/starred target):
    assigning to `s.attr[0]` rebinds that item, never `s` or `s.attr`, so a
    narrowing of `s` survives it.
    """
    if isinstance(target, (ast.Tuple, ast.List)):
        out: set[str] = set()
        for elt in target.elts:
            out |= _target_keys(elt)
        return out
    if isinstance(target, ast.Starred):
        return _target_keys(target.value)
    if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
        k = expr_key(target)
        if k is not None:
            return {k}
    return set()


def _is_never_narrowed(flow: Flow, narrowed: dict[str, Type]) -> bool:
    return any(isinstance(t, NeverType) for t in narrowed.values())


def _may_swallow(checker: ModuleChecker, stmt: ast.With | ast.AsyncWith) -> bool:
    for item in stmt.items:
        silent = ExprEvaluator(checker.ev, checker.scope, checker.flow, None)
        t = silent.infer(item.context_expr)
        for i in union_items(t):
            exit_m = checker.ev.bound_member(i, "__aexit__" if isinstance(stmt, ast.AsyncWith) else "__exit__")
            if isinstance(exit_m, CallableType):
                ret = exit_m.ret
                if isinstance(stmt, ast.AsyncWith) and isinstance(ret, Instance) and ret.args:
                    ret = ret.args[-1]
                if isinstance(ret, Instance) and ret.info.fullname == "builtins.bool":
                    return True
                # Spec (exceptions): an `__exit__` returning `Literal[True]` also suppresses.
                if isinstance(ret, LiteralType) and ret.value is True:
                    return True
            elif isinstance(i, AnyType):
                return False
    return False


def walk_method_silently(program: "Program", method: ast.FunctionDef | ast.AsyncFunctionDef, class_scope: Scope) -> None:
    """Walk a method body without reporting, to record `self.x = value` types.

    Registered as `Evaluator.method_walker`; each method is walked at most once
    this way (the flag guards against a walk asking for its own attribute).
    """
    cache = getattr(method, "_veritype_cache", None)
    if cache is None:
        cache = {}
        method._veritype_cache = cache  # type: ignore[union-attr]
    if cache.get("walked"):
        return
    cache["walked"] = True
    checker = ModuleChecker(program, class_scope.module)
    checker.scope = class_scope
    scope = function_scope(program.evaluator, method, class_scope)
    ctx = FunctionContext(method, None, is_generator(method), isinstance(method, ast.AsyncFunctionDef))
    try:
        with checker.in_scope(scope, ctx):
            checker.block(method.body)
    except RecursionError:
        pass


def _plain_value(ev: object, item: Type) -> bool:
    """An instance of a builtin value class (int, str, ...) that cannot be an exception class."""
    if isinstance(item, NoneType):
        return True
    assert isinstance(item, Instance)
    return item.info.fullname in ("builtins.int", "builtins.str", "builtins.bytes", "builtins.float", "builtins.bool", "builtins.list", "builtins.dict", "builtins.set")
