"""Compound statements: if/elif chains, loops, with, try and match, with the flow state
merged at their joins and unreachable branches found as mypy finds them.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from veritype.check.flow import State, merge
from veritype.check.unreachable_rules import is_noop_for_reachability
from veritype.evaluate.expressions import ExprEvaluator, rules_out
from veritype.evaluate.narrowing import narrow_pair
from veritype.check.assigned_keys import body_keys, stmt_keys, target_keys
from veritype.evaluate.truthiness import never_false, never_true
from veritype.syntax.shapes import elif_branch
from veritype.types.format import format_pair
from veritype.types.model import AnyType, CallableType, Instance, LiteralType, Type, union_items
from veritype.types.subtype import is_subtype
from veritype.types.join import widen_literals

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def check_if(mc: "ModuleChecker", stmt: ast.If) -> None:
    # An elif chain is walked as a loop (syntax.shapes.elif_branch), not by
    # recursion through `orelse`: the state after the whole statement is the
    # merge of each branch's end state, as the nested walk would give.
    binder = mc.program.binder_for(mc.info)
    ends: list[State] = []
    node = stmt
    while True:
        static = binder.static_branch(node.test)
        literal = static is not None and _literal_condition(node.test)
        if static is True:
            mc.type_checking_depth += 1
            try:
                mc.block(node.body)
            finally:
                mc.type_checking_depth -= 1
            if literal and node.orelse:
                _unreachable_block(mc, node.orelse)
            break
        if static is False:
            if literal:
                _unreachable_block(mc, node.body)
            following = _next_branch(mc, node)
            if following is None:
                break
            node = following
            continue
        # One evaluator infers the test and then asks what it narrows, its memo
        # kept between (`InferMemo.held`): the narrowing takes the operands' types
        # and the `and`/`or` parts' narrowings from the inference.
        exprs = mc.exprs()
        with exprs.memo.held():
            tested = mc.infer(node.test, condition=True, exprs=exprs)
            if mc.options.warn_unreachable and not mc.flow.state.unreachable:
                from veritype.check.impossible_isinstance import report_impossible_isinstance

                report_impossible_isinstance(mc, node.test)
            before = mc.flow.fork()
            # One narrowing, applied and tested: asked again after it is applied, the
            # question sees its own answer (`a is b` makes both Never, and Never
            # against Never says nothing). Both ways are asked here, at one state
            # (the `else` starts from this state again), each operand inferred once.
            pos, neg = narrow_pair(exprs, node.test)
        # (An empty narrowing applies and rules out nothing.)
        if pos:
            mc.flow.apply(pos)
        if (pos and rules_out(pos)) or never_true(mc.ev, tested):
            mc.flow.state.unreachable = True
        mc.block(node.body)
        # The states are handed over, not copied: the flow leaves each one
        # here for another (`before`, then the merge), and nothing else holds
        # a flow's state (whoever keeps one forks it).
        ends.append(mc.flow.state)
        mc.flow.set(before)
        if neg:
            mc.flow.apply(neg)
        if (neg and rules_out(neg)) or never_false(mc.ev, tested):
            mc.flow.state.unreachable = True
        following = _next_branch(mc, node)
        if following is None:
            break
        node = following
    if ends:
        ends.append(mc.flow.state)
        mc.flow.set(merge(ends, mc.merge_declared, handed_over=True))


def _literal_condition(test: ast.expr) -> bool:
    """`if False:`, `if 0:`, `if not True:`: for mypy a condition on a literal is no
    version or platform check; the branch it rules out is unreachable code that
    `--warn-unreachable` reports (mypy 2.4.1: `if False: pass` is "Statement is
    unreachable"), not a block skipped on purpose."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return isinstance(test, ast.Constant)


def _unreachable_block(mc: "ModuleChecker", body: list[ast.stmt]) -> None:
    """Walk `body` as unreachable (reported if asked), leaving the flow state as it was."""
    saved = mc.flow.fork()
    mc.flow.state.unreachable = True
    mc.block(body)
    mc.flow.set(saved)


def _next_branch(mc: "ModuleChecker", node: ast.If) -> ast.If | None:
    """The elif to walk after `node`'s branch, or None where the chain ends: `node`
    has no elif (its else block is walked here), or the elif follows an
    unreachable point, where it is skipped (and reported), as `block([nxt])` would."""
    nxt = elif_branch(node)
    if nxt is None:
        mc.block(node.orelse)
        return None
    if not mc.flow.state.unreachable:
        return nxt
    if mc.options.warn_unreachable and not is_noop_for_reachability(mc, nxt):
        mc.error(nxt, "Statement is unreachable", "unreachable")
    return None


def loop(mc: "ModuleChecker", body: list[ast.stmt], orelse: list[ast.stmt], assigned: Callable[[], set[str]], test: ast.expr | None, infinite: bool, before_body=None) -> None:  # type: ignore[no-untyped-def]
    # (`assigned` gives the keys the loop assigns: only a loop past the depth of
    # silent passes asks for them, so most loops never walk their body for them.)
    saved_exits = mc._loop_exits
    entry = mc.flow.fork()
    first_pass: tuple[State, list[State]] | None = None
    # The depth of silent passes bounds the walks of nested loops whose first
    # passes do not stand (each level walks the levels below twice). A loop
    # holding no loop takes its first pass one level deeper too: its passes
    # walk no loop, so the bound holds (at most two walks of its body where
    # there was one), and the loop around it, whose first pass met no capped
    # loop, may stand (`loop_caps`): 72 of the 93 loops whose second pass was
    # walked on the bench corpus were capped at depth 2 (22 are walked twice
    # now; statement walks 51,200 -> 50,227).
    if mc.silent_passes < 2 or (mc.silent_passes == 2 and not _holds_loop(body)):
        # A silent first pass finds what the body assigns; the loop head is
        # the join of the entry state and the state at the end of the body,
        # so `p = Path(p)` before `while ...: p = p.parent` keeps `Path`.
        mc.silent_passes += 1
        mark = mc.report_mark()
        caps = mc.loop_caps
        mc._loop_exits = []
        mc.flow.set(entry.copy())
        try:
            if before_body is not None:
                before_body()
            if test is not None:
                mc.flow.apply(mc.exprs().narrow_for(test, True))
            mc.block(body)
        except BaseException:
            mc.drop_reports(mark)
            raise
        finally:
            mc.silent_passes -= 1
        # The states at the ends of the passes and of the loop are taken, not
        # forked: the flow is set anew before anything else is walked, and the
        # merges below are their last users (each is handed over to one).
        first_end = mc.flow.state
        head = merge([entry, first_end], mc.merge_declared)
        if _first_pass_stands(mc, entry, head, caps):
            # The head is the entry: the second pass would start where the
            # first did and walk the body again to the same end, so the
            # first pass's reports are the loop's (see _first_pass_stands).
            first_pass = (first_end, mc._loop_exits)
        else:
            mc.drop_reports(mark)
    else:
        # A loop this deep in silent passes is walked once, from a head that
        # forgets what the body assigns.
        mc.loop_caps += 1
        head = entry.copy()
        for key in assigned():
            head.types.pop(key, None)
    if first_pass is not None:
        body_end, exits = first_pass
    else:
        mc._loop_exits = []
        mc.flow.set(head.copy())
        if before_body is not None:
            before_body()
        if test is not None:
            mc.flow.apply(mc.exprs().narrow_for(test, True))
        mc.block(body)
        body_end = mc.flow.state
        exits = mc._loop_exits
    mc._loop_exits = saved_exits
    # After the loop: it ran zero or more times (or broke out).
    after = merge([head, body_end], mc.merge_declared, handed_over=True)
    if infinite:
        after.unreachable = True
    mc.flow.set(after)
    if test is not None and not infinite:
        mc.flow.apply(mc.exprs().narrow_for(test, False))
    mc.block(orelse)
    mc.flow.set(merge([mc.flow.state] + exits, mc.merge_declared, handed_over=True))


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_BLOCK_NODES = (ast.stmt, ast.excepthandler, ast.match_case)


def _holds_loop(body: list[ast.stmt]) -> bool:
    """Whether a loop statement is nested anywhere in `body`, nested definitions
    included. Only statements are walked (no expression holds one), and nothing
    is kept: a loop is asked at depth 2 only (some fifty on the bench corpus)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if type(node) in _LOOPS:
            return True
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _BLOCK_NODES):
                todo.append(child)
    return False


def _first_pass_stands(mc: "ModuleChecker", entry: State, head: State, caps: int) -> bool:
    """Whether a loop's silent first pass is what its second pass would be.

    The second pass starts from the head, the merge of the entry and the first
    pass's end; when that is the entry itself (nothing the body did widened a
    narrowed type), it starts where the first pass started and walks the same
    statements again. (mypy repeats a loop body until its binder frame stops
    changing: here the frame did not change after one walk.) What the silent
    level changes, the first pass must not have met:
    - a nested loop past the depth of silent passes (`loop_caps` moved), which
      the second pass, one level shallower, would have walked twice;
    - the checkers that act only outside silent passes: possibly-undefined
      (state.defined) and the editor's probe and hints (`reuses_loop_passes`).
    The lookahead completing `x = []` (partial_watch) may take the first pass:
    its watch sees the same state at the completing statement in both passes
    (checked by running both and comparing the argument types it recorded: no
    difference on the bench corpus and the case files).
    """
    if not mc.reuses_loop_passes or mc.loop_caps != caps:
        return False
    if entry.defined is not None or head.unreachable != entry.unreachable:
        return False
    return head.types == entry.types


def check_while(mc: "ModuleChecker", stmt: ast.While) -> None:
    tested = mc.infer(stmt.test, condition=True)
    # A test whose type is never false (`while True`, a `Literal[True]`, a
    # function) loops until a break; one never true skips the body (mypy's
    # false_only/true_only of the test's type, for any expression).
    infinite = (isinstance(stmt.test, ast.Constant) and bool(stmt.test.value)) or never_false(mc.ev, tested)
    if never_true(mc.ev, tested) and not infinite:
        _unreachable_block(mc, stmt.body)
        mc.flow.apply(mc.exprs().narrow_for(stmt.test, False))
        mc.block(stmt.orelse)
        return
    mc._loop(stmt.body, stmt.orelse, lambda: body_keys(stmt, _walrus(mc)), stmt.test, infinite)


def _keep_item_literals(mc: "ModuleChecker", target: ast.expr, item: Type) -> None:
    """`for theme in ("light", "dark"): return theme` in a function returning
    `Literal["light", "dark", "unknown"]`: mypy's loop variable keeps the items'
    inferred literals (`Literal['light']? | Literal['dark']?`) in its narrowed
    type, while the variable is declared `str`. The assignment bound the widened
    type; bind the item itself where that is all that happened."""

    if not isinstance(target, ast.Name):
        return
    widened = widen_literals(item, keep_declared=True)
    if widened == item or mc.flow.lookup(target.id) != widened:
        return
    mc.flow.bind(target.id, item)


def check_for(mc: "ModuleChecker", stmt: ast.For | ast.AsyncFor) -> None:
    it = mc.infer(stmt.iter)
    is_async = isinstance(stmt, ast.AsyncFor)
    item = mc.exprs().iterate(it, stmt.iter, is_async=is_async)
    # `for x in xs:  # type: T` declares the one-name target (bound by name
    # in bind_target, a closure that no isinstance narrowing reaches).
    declared: Type | None = None
    declared_name = ""
    if stmt.type_comment and isinstance(stmt.target, ast.Name):
        from veritype.evaluate.type_comments import parse_type_comment_expr

        expr = parse_type_comment_expr(stmt.type_comment)
        if expr is not None:
            declared = mc.ev.type_exprs.evaluate(expr, mc.scope, report=mc.type_report())
            declared_name = stmt.target.id

    def bind_target() -> None:
        if declared is not None:
            if not is_subtype(mc.ev, item, declared):
                got, exp = format_pair(item, declared)
                mc.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
            mc.flow.bind(declared_name, declared)
        else:
            mc.assign(stmt.target, item, None, stmt)
            _keep_item_literals(mc, stmt.target, item)

    mc._loop(stmt.body, stmt.orelse, lambda: body_keys(stmt, _walrus(mc)) | target_keys(stmt.target), None, False, before_body=bind_target)


def check_with(mc: "ModuleChecker", stmt: ast.With | ast.AsyncWith) -> None:
    is_async = isinstance(stmt, ast.AsyncWith)
    for item in stmt.items:
        ctx = mc.infer(item.context_expr)
        entered = mc.exprs().enter(ctx, item.context_expr, is_async=is_async)
        if item.optional_vars is not None:
            if stmt.type_comment and isinstance(item.optional_vars, ast.Name):
                from veritype.evaluate.type_comments import parse_type_comment_expr

                expr = parse_type_comment_expr(stmt.type_comment)
                if expr is not None:
                    declared = mc.ev.type_exprs.evaluate(expr, mc.scope, report=mc.type_report())
                    if not is_subtype(mc.ev, entered, declared):
                        got, exp = format_pair(entered, declared)
                        mc.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                    entered = declared
            mc.assign(item.optional_vars, entered, None)
    mc.block(stmt.body)
    # A context manager whose __exit__ returns bool may swallow exceptions.
    if mc.flow.state.unreachable and _may_swallow(mc, stmt):
        mc.flow.state.unreachable = False


def check_try(mc: "ModuleChecker", stmt: ast.Try) -> None:
    walrus = _walrus(mc)
    assigned = body_keys(stmt, walrus)
    entry = mc.flow.fork()
    # A handler may start after any statement of the body: mypy joins the states
    # it could start from. A name assigned by a simple statement of the body
    # takes the join of its types before and after each statement (`retries =
    # retries.increment(...)` keeps `Retry`); one assigned inside a nested block
    # falls back to its declared type.
    # (A `try` with no handler, only `finally`, needs none of these states.)
    points = [entry.copy()]
    nested: set[str] = set()
    if stmt.handlers:
        for s in stmt.body:
            if not isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)):
                nested |= stmt_keys(s, walrus)
        mc.block(stmt.body, after_each=lambda _s: points.append(mc.flow.fork()))
    else:
        mc.block(stmt.body)
    mc.block(stmt.orelse)
    after_body = mc.flow.fork()
    ends = [after_body]
    # Every handler may start from the same points: their join is made once
    # (each handler copies what it takes from it).
    joined = merge(points) if stmt.handlers else None
    for handler in stmt.handlers:
        assert joined is not None
        state = entry.copy()
        for key in assigned:
            state.types.pop(key, None)
        for key in assigned - nested:
            if key in joined.types and "." not in key and "[" not in key:
                state.types[key] = joined.types[key]
        state.unreachable = False
        if joined.defined is not None:
            state.defined = joined.defined.copy()  # what the try body may have bound
        mc.flow.set(state)
        if handler.type is not None:
            t = mc.infer(handler.type)
            mc._check_except_type(handler.type, t)
            exc = mc.exprs().exception_instance(t)
            if type(stmt).__name__ == "TryStar":
                group = mc.ev.instance("builtins.ExceptionGroup", (exc,))
                exc = group if isinstance(group, Instance) else exc
            if handler.name:
                mc.flow.bind(handler.name, exc)
        elif handler.name:
            mc.flow.bind(handler.name, AnyType("special"))
        mc.block(handler.body)
        if handler.name:
            mc.flow.invalidate(handler.name)
            if mc.flow.undefined is not None:
                # Read after the handler, the name is deleted: mypy's `[misc]`, not possibly-undefined.
                mc.flow.undefined.deleted.add(handler.name)
        ends.append(mc.flow.fork())
    merged = merge(ends, mc.merge_declared)
    if stmt.finalbody:
        # The finally block runs on every path; check it from a state that forgets try-body narrowing.
        fin_state = merged.copy() if not merged.unreachable else entry.copy()
        for key in assigned:
            fin_state.types.pop(key, None)
        was_unreachable = merged.unreachable
        fin_state.unreachable = False
        mc.flow.set(fin_state)
        mc.block(stmt.finalbody)
        if was_unreachable:
            mc.flow.state.unreachable = True
        else:
            after = mc.flow.fork()
            if not after.unreachable:
                # (a copy of the table keeps its member keys: no scan of every key for them)
                mc.flow.set(merged if not after.types else State.made(merged.types.copy(), False, None))  # type: ignore[arg-type]  # (a KeyTable: every state's is)
                mc.flow.state.defined = after.defined  # the finally block's bindings too
    else:
        mc.flow.set(merged)


def check_match(mc: "ModuleChecker", stmt: ast.Match) -> None:
    from veritype.check.patterns import check_match

    check_match(mc, stmt)


def _walrus(mc: "ModuleChecker") -> bool:
    """Whether the module's source may hold a `:=` (check/assigned_keys.py)."""
    return mc.program.binder_for(mc.info).has_walrus


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
