"""Checking a module: walk every statement of the module, its classes and functions.

Simple statements, imports and definitions live here; assignments in
`check.assignment_statements`, compound statements (if, loops, with, try,
match) in `check.compound_statements`, whose functions are the checker's
methods; expression rules in `evaluate.expressions`. The
walk keeps a flow state (narrowing, reachability) per body; unreachable
statements are not checked (mypy's behaviour), and are reported only with
`--warn-unreachable`.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

from veritype.check.flow import Flow, State, forget_joins
from veritype.evaluate.narrowing import forget_narrowings
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.check.display_items import report_display_items
from veritype.check.typeddict_rules import check_typeddict_delete
from veritype.check.import_over_binding import check_from_import_over_binding, check_module_import_over_binding
from veritype.evaluate.returns_value import allow_none_value
from veritype.evaluate.truthiness import never_true
from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.reference_keys import expr_key
from veritype.evaluate.functions import function_scope, is_generator
from veritype.evaluate.scopes import Scope
from veritype.modules.finder import MissingModule
from veritype.types.format import format_pair, format_type
from veritype.types.model import (
    AnyType, Instance, NeverType, NoneType, TupleType, Type, TypedDictType,
    TypeType, UnionType, make_union, union_items,
)
from veritype.types.subtype import is_subtype
from veritype.check import assignment_statements, inferred_decls, unimported_any
from veritype.check import compound_statements
from veritype.check import possibly_undefined
from veritype.check import deleted_names
from veritype.check import merge_declared
from veritype.check.unreachable_rules import is_false_literal, is_noop_for_reachability, static_assert_skip
from veritype.check.var_annotated_reach import judge_deferred, note_unreached
from veritype.check.await_placement import check_await_placement
from veritype.check.class_rules import check_class
from veritype.check.function_context import FunctionContext
from veritype.check.function_rules import check_function
from veritype.check.closures import carried_narrowings
from veritype.check.deprecated_imports import check_deprecated_import
from veritype.check.explicit_any import check_statement
from veritype.check.module_use_before_def import check_module_uses
from veritype.check.redefinitions import check_redefinitions, report_missing_import_over_binding
from veritype.check.runtime_annotations import check_statement as check_run_annotations
from veritype.check.unused_awaitable import check_unused_awaitable
from veritype.evaluate.truthy_function import infer_condition
from veritype.types.model import ANY_UNBOUND_NAME, LiteralType
from veritype.check.unbound_returns import unbound_return_any

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program
    from veritype.semantic.symbols import Symbol


def check_module(program: "Program", info: "ModuleInfo") -> list[Diagnostic]:
    checker = ModuleChecker(program, info)
    try:
        checker.run()
    except RecursionError:
        checker.diags.append(Diagnostic(info.path, 1, 1, "error", "Internal error: the module is too deeply nested to check", "misc"))
    finally:
        # The memos keyed by type ids: no module's types kept alive past its check.
        forget_joins()
        forget_narrowings()
    checker._exprs = None  # (see ModuleChecker.__init__)
    return checker.diags


class ModuleChecker:
    # Whether a loop's silent first pass may stand for its second
    # (compound_statements._first_pass_stands); the editor's probe and hints act
    # only outside silent passes, so they walk both.
    reuses_loop_passes = True

    def __init__(self, program: "Program", info: "ModuleInfo") -> None:
        self.program = program
        self.ev = program.evaluator
        self.info = info
        self.options = program.options.for_module(info.name)
        # Whether a rule on the Any written in statements is on (off by default: one test per statement).
        self.any_rules = self.options.disallow_any_explicit or self.options.disallow_any_unimported
        self.diags: list[Diagnostic] = []
        self.flow = Flow()
        self.func: FunctionContext | None = None
        self.scope: Scope = self.ev.module_scope(info)
        self._loop_exits: list[State] = []  # states at `break`s of the innermost loop
        # Inside `if TYPE_CHECKING:` (or a version check that holds): declarations only.
        self.type_checking_depth = 0
        self.silent_passes = 0  # nesting of silent first passes over loop bodies
        # Loops walked once at the depth limit of silent passes (compound_statements.loop).
        self.loop_caps = 0
        # Set while looking ahead for the statement completing `x = []` (check.partial_types).
        self.partial_watch: dict[int, Callable[[], None]] | None = None
        # Unannotated variables: the type their first assignment declared (check.inferred_decls).
        self.inferred: dict[int, Type] = {}
        # Targets of `x = []` completed with Any (`x.append(any_value)`): `list[Any]` declared (check.partial_types).
        self.any_completed: set[int] = set()
        # The evaluator `exprs` hands out. It refers back to the checker (its
        # reporter): `check_module` and the end of a nested scope drop it, so
        # that no reference cycle outlives a check or a silent walk of a
        # method (a one-shot run has no cyclic collector).
        self._exprs: ExprEvaluator | None = None
        self._handlers = _handlers_of(type(self))
        # Answers the rules ask for again and again in a row, each kept for the
        # last question asked (the module named holds the reasoning).
        self.local_symbol_kept: "tuple[str, Scope, Any] | None" = None  # assignment_statements.local_symbol
        self.decls_enabled_kept: tuple[Scope, bool] | None = None  # inferred_decls.enabled
        self.declaration_kept: "tuple[ast.Name, Scope, Symbol | None, bool] | None" = None  # inferred_decls.declaration
        # The lines naming ImportError (None: any line may), once asked (inferred_decls).
        self.import_error_lines: list[int] | None = None
        self.import_error_lines_read = False
        # Statements checked by explicit_any / unimported_any (a body may be walked
        # twice), and the missing modules reported (once a file, as mypy): marks
        # that stop a report from being made again, insertion-ordered (dicts) so
        # that a silent walk's can be taken back with its reports (drop_reports).
        self.explicit_any_done: dict[int, None] = {}
        self.unimported_any_done: dict[int, None] = {}
        self.missing_reported: dict[str, None] = {}
        self.decl_paths: dict[int, Any] = {}  # function bodies' indexed paths (inferred_decls._paths)
        # The current scope's deleted names, once it deletes one (check.deleted_names).
        self.deleted_watch: deleted_names.DeletedWatch | None = None
        # What var_annotated_reach keeps for judging `x = []` at the end of a
        # scope's walk: the ids of the statements the walk did not reach, and the
        # judgements waiting (the owner's node, its body, judge, report).
        self.unreached: set[int] = set()
        self.deferred_var_annotated: list[tuple[object, list[ast.stmt], Callable[[list[ast.stmt]], bool], Callable[[], None]]] = []

    # -- reporting ----------------------------------------------------------------

    def report(self, node: ast.AST | None, msg: str, code: str, severity: str = "error") -> None:
        line = getattr(node, "lineno", 1) or 1
        col = (getattr(node, "col_offset", 0) or 0) + 1
        end_line = getattr(node, "end_lineno", None)
        end_col = getattr(node, "end_col_offset", None)
        self.diags.append(Diagnostic(self.info.path, line, col, severity, msg, code if severity == "error" else (None if code == "note" else code), end_line, (end_col + 1) if end_col is not None else None, _ignore_span(node, line)))

    def error(self, node: ast.AST | None, msg: str, code: str) -> None:
        self.report(node, msg, code)

    def report_mark(self) -> tuple[int, int, int, int]:
        """Where the reports stand, for `drop_reports` after a walk whose
        reports do not count (a loop's first pass, the `x = []` lookahead)."""
        return len(self.diags), len(self.explicit_any_done), len(self.unimported_any_done), len(self.missing_reported)

    def drop_reports(self, mark: tuple[int, int, int, int]) -> None:
        """Take back what was reported since `mark`, with the marks that stopped
        a report from being made twice: the walk that counts makes it again
        (mypy reports a missing module, or an explicit Any, in a loop body
        whose first walk is thrown away)."""
        del self.diags[mark[0]:]
        for done, size in ((self.explicit_any_done, mark[1]), (self.unimported_any_done, mark[2]), (self.missing_reported, mark[3])):
            while len(done) > size:
                done.popitem()  # (the last added: dicts pop in reverse insertion order)

    def note(self, node: ast.AST | None, msg: str) -> None:
        self.report(node, msg, "note", "note")

    def explain_protocol(self, node: ast.AST | None, actual: Type, expected: Type) -> None:
        """mypy's notes on the members making `actual` fail protocol `expected`,
        and its `Maybe you forgot to use "await"?`."""
        from veritype.evaluate.await_hint import subtype_notes

        for n in subtype_notes(self.ev, actual, expected):
            self.note(node, n)

    def exprs(self) -> ExprEvaluator:
        # One evaluator serves the questions asked in the same scope and flow
        # (one per question was 73k on the bench corpus): see `reusable`.
        # One reused was made in this very body (`func` and the flow change only
        # together, in `in_scope`, which also drops it): its `in_async` and
        # `yield_types` are still this body's, set when it was made.
        e = self._exprs
        report = self.report
        if e is None or not e.reusable(self.scope, self.flow, report):
            e = self._exprs = ExprEvaluator(self.ev, self.scope, self.flow, report)
            e.on_walrus = self.walrus_bound
            func = self.func
            e.in_async = bool(func and func.is_async)
            e.yield_types = func.yield_types if func is not None else None
        return e

    def walrus_bound(self, target: ast.Name, t: Type) -> None:
        inferred_decls.record(self, target, t)  # a walrus binding first declares (mypy)

    def infer(self, node: ast.expr, expected: Type | None = None, condition: bool = False, exprs: ExprEvaluator | None = None) -> Type:
        """The type of `node`; `condition`: its value is tested for truth (if, while, assert);
        `exprs`: the evaluator to infer it with (by default the checker's, `exprs()`)."""
        if exprs is None:
            # (`exprs()`'s reuse test made here first: the evaluator is reused for
            # most of the 47k questions on the bench corpus, so they cost no call
            # of `exprs`; `exprs` makes a new one, asking `reusable` once more,
            # which has changed nothing where it said no.)
            exprs = self._exprs
            if exprs is None or not exprs.reusable(self.scope, self.flow, self.report):
                exprs = self.exprs()
        if condition:
            t = infer_condition(exprs, node)
        else:
            t = exprs.infer(node, expected)
        # A call, or an await of one, that returns Never ends the flow (mypy marks
        # both unreachable: `await serve_forever()` in a NoReturn coroutine).
        # (The type first: few are Never. Exact class: the model's have no subclasses.)
        if type(t) is NeverType and isinstance(node, (ast.Call, ast.Await)):
            self.flow.state.unreachable = True
        return t

    def type_report(self):  # type: ignore[no-untyped-def]
        def report(node: ast.AST, msg: str, code: str) -> None:
            if code == "note":  # (type_context.Reporter: a note on the error before it)
                self.note(node, msg)
            else:
                self.error(node, msg, code)

        return report

    # -- walk -------------------------------------------------------------------------

    def run(self) -> None:
        tree = self.info.tree
        assert tree is not None

        check_redefinitions(self, tree)
        possibly_undefined.start(self, self.scope)

        if self.info.parsed is not None:
            check_await_placement(self, tree, self.info.parsed)
        self.block(tree.body)
        judge_deferred(self, None)  # the module's `x = []` needing an annotation
        check_module_uses(self)

    def block(self, body: list[ast.stmt], after_each: Callable[[ast.stmt], None] | None = None) -> None:
        prev: ast.stmt | None = None
        for i, stmt in enumerate(body):
            if self.flow.state.unreachable:
                note_unreached(self, body, i)  # (what `x = []` needing an annotation does not read)
                if self.options.warn_unreachable and not static_assert_skip(self, prev):
                    # mypy passes over no-ops (`raise`, a NoReturn call) and reports the first other statement.
                    first = next((s for s in body[i:] if not is_noop_for_reachability(self, s)), None)
                    if first is not None:
                        self.error(first, "Statement is unreachable", "unreachable")
                return
            self.stmt(stmt)
            if after_each is not None:
                after_each(stmt)  # the try statement's watch of the states its handlers may see
            prev = stmt

    def stmt(self, stmt: ast.stmt) -> None:
        if self.partial_watch is not None:
            if id(stmt) in self.partial_watch:
                self.partial_watch[id(stmt)]()
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return  # the lookahead needs no nested bodies
        if self.any_rules:
            if self.options.disallow_any_explicit:
                check_statement(self, stmt)
            if self.options.disallow_any_unimported:
                unimported_any.check_statement(self, stmt)
        kind = type(stmt)
        if kind in _ANNOTATING:
            check_run_annotations(self, stmt)
        # The handler `_<kind>` of this checker's class, looked up once per kind.
        handlers = self._handlers
        method = handlers.get(kind, _UNKNOWN)
        if method is _UNKNOWN:
            method = handlers[kind] = getattr(type(self), "_" + kind.__name__, None)
        tracked = self.flow.undefined is not None
        if tracked:
            possibly_undefined.statement_bindings(self, stmt, before=True)
        # (mypy's deleted variables: only in a scope that has deleted one.)
        deleted = deleted_names.before(self, stmt) if self.deleted_watch is not None else None
        if method is not None:
            method(self, stmt)
        if deleted is not None:
            deleted_names.after(self, stmt, deleted)
        if tracked and not self.flow.state.unreachable:
            possibly_undefined.statement_bindings(self, stmt, before=False)

    # -- simple statements ---------------------------------------------------------------

    def _Expr(self, stmt: ast.Expr) -> None:
        # (Only a subscript may be one: tested here, for each of the 7k expression statements.)
        if type(stmt.value) is ast.Subscript and self._alias_specialization(stmt.value):
            return
        allow_none_value(stmt.value)  # the statement does not use the value
        t = self.infer(stmt.value)
        is_reveal = isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in ("reveal_type", "assert_type")
        # Any expression statement (mypy's type_requires_usage): `await run(async_fn)` too.
        if not is_reveal and isinstance(t, Instance) and t.info.fullname == "typing.Coroutine":
            self.error(stmt, 'Value of type "Coroutine[Any, Any, %s]" must be used' % format_type(t.args[2] if len(t.args) == 3 else AnyType()), "unused-coroutine")
            self.note(stmt, 'Are you missing an await?')
        elif not is_reveal and isinstance(t, Instance):
            check_unused_awaitable(self, stmt, t)
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
                delitem = self.ev.bound_member(base, "__delitem__") if not isinstance(base, (AnyType, UnionType)) else None
                if not isinstance(base, AnyType) and delitem is None and not isinstance(base, UnionType):
                    self.infer(target.slice)
                    self.error(target, f'"{format_type(base)}" has no attribute "__delitem__"', "attr-defined")
                elif delitem is not None and not isinstance(base, TypedDictType):
                    # `del d[k]` is `d.__delitem__(k)`: mypy reports a wrong key as
                    # that call's `Argument 1 to "__delitem__" of "D"`  [arg-type].
                    from veritype.evaluate.calls import ARG_POS, Arg

                    self.exprs()._call_node(delitem, [Arg(ARG_POS, node=target.slice)], target, method="__delitem__", receiver=base)
                else:
                    key_type = self.infer(target.slice)
                    if isinstance(base, TypedDictType):
                        check_typeddict_delete(self, base, target, key_type)
            elif isinstance(target, ast.Attribute):
                owner = self.infer(target.value)
                # mypy looks a deleted attribute up as a read (`__getattr__` counts), bypassing
                # what an earlier assignment narrowed it to.
                self.exprs().member_access(owner, target.attr, target)
                if isinstance(owner, Instance) and any(c.is_namedtuple and target.attr in c.symbols for c in owner.info.mro):
                    # Spec, "Named Tuples": "named tuple fields cannot be overwritten or deleted".
                    self.error(target, f'Cannot delete attribute "{target.attr}" of NamedTuple "{owner.info.name}"', "misc")
            key = expr_key(target)
            if key is not None:
                self.flow.invalidate(key)
        deleted_names.delete(self, stmt)

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
        tested = self.infer(stmt.test, condition=True)
        if stmt.msg is not None:
            self.infer(stmt.msg)
        if is_false_literal(stmt.test):
            self.flow.state.unreachable = True
            return
        if never_true(self.ev, tested):
            # A test no value of whose type is true (`assert f()` with `f() ->
            # None`, a `Literal[False]`): mypy's true_only is Never, so what
            # follows cannot run, whatever the expression is.
            self.flow.state.unreachable = True
            return
        narrowed = self.exprs().narrow_for(stmt.test, True)
        self.flow.apply(narrowed)
        if any(isinstance(t, NeverType) for t in narrowed.values()):
            # As for an `if` whose test narrows a reference to Never: what follows
            # cannot run (mypy: `assert result.stderr is None` with a `bytes`
            # stderr makes the rest of the test unreachable).
            self.flow.state.unreachable = True

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
            mark = len(self.diags)
            if expected is None or isinstance(expected, (NoneType, AnyType)) or func.is_generator:
                allow_none_value(stmt.value)  # mypy lets `return f()` pass there
            t = self.infer(stmt.value, expected)
            if expected is not None and not isinstance(expected, AnyType):
                if isinstance(expected, NeverType):
                    self.error(stmt, 'Return statement in function which does not return', "misc")
                elif not is_subtype(self.ev, t, expected) and not _fits_a_constraint(self.ev, t, expected):
                    if isinstance(expected, NoneType):
                        self.error(stmt, "No return value expected", "return-value")
                    elif report_display_items(self, stmt.value, expected):
                        pass  # mypy: a returned display's bad items (`Dict entry 0 ...` [dict-item])
                    else:
                        got, exp = format_pair(t, expected)
                        self.error(stmt.value, f'Incompatible return value type (got "{got}", expected "{exp}")', "return-value")
                        self.explain_protocol(stmt.value, t, expected)
                elif isinstance(t, AnyType) and self.options.warn_return_any and _returned_any(t, self.diags[mark:]) and not _is_object(expected) and not _declares_any(expected):
                    self.error(stmt, f'Returning Any from function declared to return "{format_type(expected)}"', "no-any-return")
            elif expected is ANY_UNBOUND_NAME and isinstance(t, AnyType) and self.options.warn_return_any and _returned_any(t, self.diags[mark:]):
                unbound_return_any(self, stmt, func.node)
        self.flow.state.unreachable = True

    # -- assignment ----------------------------------------------------------------------

    _Assign = assignment_statements.check_assign
        # Calls do not forget narrowed attributes: mypy and pyright keep them
        # too (unsound but what users expect).

    _setitem_context = assignment_statements.setitem_context
    _check_var_annotated = assignment_statements.check_var_annotated
    _infer_redisplay = assignment_statements.infer_redisplay
    _declared_for_target = assignment_statements.declared_for_target
    merge_declared = merge_declared.merge_declared
    _attribute_declared = assignment_statements.attribute_declared
    _local_symbol = assignment_statements.local_symbol
    assign = assignment_statements.assign
    _record_self_assignment = assignment_statements.record_self_assignment
    _setitem = assignment_statements.setitem
    _AnnAssign = assignment_statements.check_ann_assign
    assign_literal_ok = assignment_statements.assign_literal_ok
    _AugAssign = assignment_statements.check_aug_assign
    # -- imports ---------------------------------------------------------------------------

    def _Import(self, stmt: ast.Import) -> None:
        for alias in stmt.names:
            if self._check_import(stmt, alias.name):
                check_module_import_over_binding(self, stmt, alias)

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
            check_from_import_over_binding(self, stmt, source, alias)
            sym = self.program.lookup_in_module(mod, alias.name, from_import=True)
            if sym is not None:
                if self.program.hidden_reexport(mod, alias.name):
                    self.error(stmt, f'Module "{source}" does not explicitly export attribute "{alias.name}"', "attr-defined")

                check_deprecated_import(self, stmt, mod, sym)
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
        report_missing_import_over_binding(self, stmt, name)
        if getattr(found, "ignored", False) or self.program.options.for_module(name).ignore_missing_imports or self.options.ignore_missing_imports:
            return False
        # A parent package that is itself missing is reported once, for the full name.
        # Like mypy, a missing module is reported at its first import in a file only.
        reported = self.missing_reported
        if name in reported:
            return False
        reported[name] = None
        self.error(stmt, found.message, found.code)
        for n in found.notes:
            self.note(stmt, n)
        return False

    # -- compound statements ---------------------------------------------------------------

    _If = compound_statements.check_if
    _loop = compound_statements.loop
    _While = compound_statements.check_while
    _For = compound_statements.check_for
    _AsyncFor = _For

    _With = compound_statements.check_with
    _AsyncWith = _With

    def _Try(self, stmt: ast.Try) -> None:
        deleted_names.around_try(self, stmt, compound_statements.check_try)

    _TryStar = _Try

    _Match = compound_statements.check_match
    def _TypeAlias(self, stmt: ast.AST) -> None:
        from veritype.check.alias_rules import check_type_statement

        check_type_statement(self, stmt)

    # -- definitions -------------------------------------------------------------------------

    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        check_function(self, node)

    _AsyncFunctionDef = _FunctionDef

    def _ClassDef(self, node: ast.ClassDef) -> None:
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
        self.saved_watch = c.deleted_watch
        c.deleted_watch = None
        c.scope = self.scope
        c.func = self.func
        outer = c.flow
        c.flow = Flow()
        # Narrowing of enclosing names does not carry into a nested function body
        # (it may run later), except for names the enclosing scope never rebinds.
        if not outer.state.unreachable:
            c.flow.apply(carried_narrowings(c.ev, outer.state.types, self.scope))
        c._loop_exits = []
        node = self.func.node if self.func is not None else None
        args = node.args if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else None
        possibly_undefined.start(c, self.scope, args)  # (walks the parameters only when enabled)
        if self.saved_watch is not None:
            deleted_names.enter_nested(c, self.saved_watch, self.saved[0])

    def __exit__(self, *exc: object) -> None:
        c = self.checker
        c.scope, c.func, c.flow, c._loop_exits = self.saved
        c.deleted_watch = self.saved_watch
        c._exprs = None  # the inner scope's (a cycle through the checker, see __init__)


# -- helpers ------------------------------------------------------------------------------------


_ANNOTATING = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign})
_Handler = Callable[[ModuleChecker, Any], None]


def _UNKNOWN(checker: ModuleChecker, stmt: Any) -> None:
    """The marker of a statement class not looked up yet (never called)."""


def _handlers_of(cls: type) -> dict[type, _Handler | None]:
    """A checker class's statement handlers by statement class, filled as met
    (`ModuleChecker.stmt`); kept on the class itself, so a class made for one
    edit (engine/toplevel_edits.py) takes its table with it."""
    table: dict[type, _Handler | None] | None = cls.__dict__.get("_vt_handlers")
    if table is None:
        table = {}
        setattr(cls, "_vt_handlers", table)
    return table


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


def _returned_any(t: AnyType, reported: list[Diagnostic]) -> bool:
    """mypy's no-any-return counts an Any from an error too (`return o.__code__`
    on an `object`); veritype's error Any counts only when the returned
    expression reported an error here (else it may be an Any for a construct
    veritype does not understand: silent). Only the errors after which mypy
    has an Any count: an unknown attribute or name, no matching overload, a
    value that cannot be called or indexed; not a failed binary operator
    (typed by its method's return type in mypy) nor an argument or type
    variable error (the declared return type stays). An Any made where an
    attribute was reported missing counts wherever it flows (urllib3's
    `chunk = self._fp._safe_read(n)`, then `return chunk`)."""
    binary = ("Unsupported operand types for", "Unsupported left operand type for")
    codes = ("attr-defined", "name-defined", "call-overload", "operator", "index")
    return t.reason != "error" or t.reported or any(d.severity == "error" and d.code in codes and not d.message.startswith(binary) for d in reported)


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
