"""mypy's deleted variables: `Trying to read deleted variable "x"` and
`Assignment to variable "x" outside except: block` (both `[misc]`).

The typing spec says nothing of `del`; these are mypy's rules (2.4.1,
checker.visit_del_stmt, visit_try_without_finally and the places that test
for its DeletedType), kept so that a project clean under mypy stays clean
and its `# type: ignore[misc]` comments keep working:

- `del x` narrows the variable x to "deleted" on that path: a read later on
  the same path is reported, until x is bound again (`del x; x = 2; print(x)`
  is fine). Where paths meet, x is deleted only if every path deleted it
  (`if c: del x` leaves x readable after the `if`; so does a loop whose body
  deletes it, at its head and after it). Variables, parameters and classes
  are narrowed; functions and imports are not, nor is a variable declared
  Any (annotated `Any`, a parameter without annotation), which mypy narrows
  to its declared Any instead. It is a narrowing of this scope: a nested
  function does not see it (a lambda, checked where it stands, does).
  `global x; del x` and `nonlocal x; del x` narrow x in the function that
  deletes it only.
- An except variable (`except E as e:`, `except* E as e:`) is deleted after
  its handler for the rest of the scope, in the order mypy checks it, which
  is the order of the source (a `try`'s handlers, then its `else` and
  `finally`): mypy gives the variable itself the deleted type (not a
  narrowing of one path). Every later read is reported, even after `e =
  ...`, which is itself reported as `Assignment to variable "e" outside
  except: block` and leaves e deleted; so are the bindings of `for e in
  ...` (bound once, before the loop's body), `with ... as e`, `(e := ...)`
  and unpacking (`a, e = ...`). A later `except E as e:` binds e again for
  its own handler. A nested function or class body defined after the
  handler sees the enclosing variable deleted too.
- A read is reported only where mypy's checker asks about the value's type:
  a call's argument (unless the callee is Any, whose arguments mypy does not
  check), the object of an attribute or subscript (`x.a`, `x[0]`, also as a
  target: `x.a = 1`, `del x.a`), an operand whose methods are looked up (the
  left of `x + 1`, `x == 1`, `-x`, `await x`, the container of `y in x`) or
  that is passed to them (the right of `1 + x`, the index of `y[x]`, unless
  the object is Any; not `"%s" % x`), an assignment's value (`y = x`, item by
  item in `a, b = x, 1`), the test of `if`/`elif`/`while` when it is the name
  itself, what `for` iterates, `with` enters, `raise` raises (and `from`),
  `match` matches, `+=` updates, an f-string formats, and the item of a
  comprehension (mypy checks it as a call's argument). Not: an expression
  statement (`x`), `return`/`yield`, `assert`, `not x`, `and`/`or`, `x is
  None`, `x in y`, an item of a display (`[x]`), `*x`, a conditional
  expression (`a if x else b`), `del x` again. Calling it (`x()`) is mypy's
  `<deleted> not callable`. A read of a deleted name is Any (mypy: an
  attribute of a deleted value is Any), so nothing else is reported about it.

Where mypy goes beyond what Python does: after `except E as e:` the
statement `e = E()` binds e again at runtime, and reading it is fine; mypy
reports the assignment and every read after it (its tests,
testReuseDefinedTryExceptionVariable, show it is meant). veritype does the
same, to keep mypy's users' code clean under both; the report is right for
a read of e with no new binding (Python deleted it: NameError or
UnboundLocalError).

Left out (a missed report rather than a false one): a read of a module's
except variable in a function defined before the handler (mypy checks the
module's functions after its top-level code), one in a loop's body before
the `try` that deletes it (mypy checks the body twice), one in a `for e in
...:` or `with ... as e:` body that rebinds it; the display and
conditional-expression cases mypy reports through its type context
(`y: object = [x]`, `f(*[x])`, `print(x if x else 1)`); `reveal_type` of a
deleted name says Any, not mypy's `<Deleted 'x'>`.

The state: `del x` binds x to `DELETED` in the flow (an Any whose identity
marks it; check.flow.merge keeps it only where every path has it), and an
except variable is bound to it after its `try` and after each binding. A
scope that deletes anything gets a `DeletedWatch` (`ModuleChecker.deleted_watch`,
None in most scopes, so that the statement hooks cost one test there): it
knows the names `del` deleted and where each except variable's handlers
start and end. `before` finds which names are deleted before a statement,
`after` looks through the statement's own expressions (not its nested
blocks, which are statements of their own) for the reads and bindings above.
"""

from __future__ import annotations

import ast
from bisect import insort
from typing import TYPE_CHECKING, Callable, TypeAlias

from veritype.evaluate.expressions import ExprEvaluator
from veritype.semantic import symbols as S
from veritype.syntax.shapes import elif_branch
from veritype.types.model import KW_ONLY, POS_OR_KW, VAR_KW, AnyType, CallableType, NoneType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.scopes import Scope

# The flow's type of a deleted name. An "error" Any: what mypy makes of a
# deleted value's attributes, and not one `--warn-return-any` counts.
DELETED = AnyType("error")

_READ = "read"
_CALLEE = "callee"
_NONE_RETURN = "return"
_NO_SHADOW: frozenset[str] = frozenset()
_NO_NAMES: set[str] = set()  # (never changed)


class DeletedWatch:
    """The deleted names of one scope, while it is walked."""

    __slots__ = ("names", "handlers")

    def __init__(self) -> None:
        self.names: set[str] = set()  # names some `del` has deleted (deleted where the flow says DELETED)
        # The handlers of each except variable, as the positions where they
        # start (binding it) and end (deleting it), in source order. mypy
        # checks a `try`'s handlers, then its `else` and `finally`: the order
        # of the source, whatever the order veritype walks them in (`else`
        # first), and whether or not a walk runs ahead (check.partial_types).
        self.handlers: dict[str, list[tuple[tuple[int, int], bool]]] = {}

    def except_names_at(self, stmt: ast.stmt) -> set[str]:
        """The except variables deleted where `stmt` starts: the last handler
        event before it is the end of a handler (not the start of one whose
        block holds it)."""
        at = (stmt.lineno, stmt.col_offset)
        out = set()
        for name, events in self.handlers.items():
            deleted = False
            for pos, ends in events:
                if pos >= at:
                    break
                deleted = ends
            if deleted:
                out.add(name)
        return out


def _watch(mc: "ModuleChecker") -> DeletedWatch:
    watch = mc.deleted_watch
    if watch is None:
        watch = mc.deleted_watch = DeletedWatch()
    return watch


def enter_nested(mc: "ModuleChecker", outer: DeletedWatch, outer_scope: "Scope") -> None:
    """Entering a nested function or class body (its flow made, with what it
    carries of the enclosing one) from a scope that has deleted names: a name
    carried in deleted (mypy carries a narrowing into a nested function when
    nothing binds the name after it), and the enclosing except variables the
    body reads as the same variable (the variable's type is deleted)."""
    names = {k for k, t in mc.flow.state.types.items() if t is DELETED}
    inherited = {}
    for name, events in outer.handlers.items():
        here = mc.ev.lookup(name, mc.scope)
        there = mc.ev.lookup(name, outer_scope)
        if here is not None and there is not None and here[0] is there[0]:
            inherited[name] = events  # (the body's statements are placed against the same events)
    if names or inherited:
        watch = _watch(mc)
        watch.names |= names
        watch.handlers.update(inherited)


# -- the statements that delete -----------------------------------------------------


def delete(mc: "ModuleChecker", stmt: ast.Delete) -> None:
    """`del x` (and `del x, y`, `del (x, y)`, `del [x]`): the names mypy narrows to deleted."""
    if mc.flow.state.unreachable:
        return
    names = [t.id for t in _flat_names(stmt.targets)]
    if not names:
        return
    watch = _watch(mc)
    for name in names:
        if _narrowed_by_del(mc, name):
            mc.flow.bind(name, DELETED)
            watch.names.add(name)


def _narrowed_by_del(mc: "ModuleChecker", name: str) -> bool:
    """Whether mypy's `del` narrows `name` (binder.assign_type with the
    variable's declaration): a variable or a class, not a function or an
    import; not one declared Any (narrowed to that Any instead)."""
    hit = mc.ev.lookup(name, mc.scope)
    if hit is None:
        return False
    sym, scope = hit
    if sym.kind == S.CLASS:
        return True
    if sym.kind not in (S.VAR, S.PARAM):
        return False
    if sym.kind == S.PARAM:
        # Annotated `Any`, or not annotated (an implicit Any).
        return not isinstance(scope.param_types.get(name), AnyType)
    return not isinstance(mc.ev.declared_type(sym, scope), AnyType)


def around_try(mc: "ModuleChecker", stmt: ast.Try, check_try: Callable[["ModuleChecker", ast.Try], None]) -> None:
    """Check a `try` statement (`check_try`); its except variables are deleted after it."""
    names = [h.name for h in stmt.handlers if h.name]
    if not names:
        check_try(mc, stmt)
        return
    watch = _watch(mc)
    # mypy deletes each handler's variable at the end of that handler: a
    # later handler sees it deleted (unless it binds it again), and so do the
    # `else` and `finally` blocks, checked after the handlers.
    for h in stmt.handlers:
        if h.name and h.body:
            events = watch.handlers.setdefault(h.name, [])
            start = ((h.lineno, h.col_offset), False)
            if start not in events:  # (a loop's body, or a run ahead, is walked again)
                end = h.body[-1]
                insort(events, start)
                insort(events, ((end.end_lineno or end.lineno, end.end_col_offset or 0), True))
    check_try(mc, stmt)
    if not mc.flow.state.unreachable:
        for name in names:
            mc.flow.bind(name, DELETED)


# -- a statement's reads ------------------------------------------------------------


def before(mc: "ModuleChecker", stmt: ast.stmt) -> "tuple[set[str], set[str]] | None":
    """The names deleted where `stmt` starts, and the except variables among
    them, if any (for `after`: a compound statement's header runs before its
    blocks, which may delete more)."""
    watch = mc.deleted_watch
    assert watch is not None
    lookup = mc.flow.lookup
    deleted = {n for n in watch.names if lookup(n) is DELETED}
    excepts = watch.except_names_at(stmt) if watch.handlers else _NO_NAMES
    if excepts:
        deleted |= excepts
    return (deleted, excepts) if deleted else None


def after(mc: "ModuleChecker", stmt: ast.stmt, before: "tuple[set[str], set[str]]") -> None:
    """Report the reads of the names deleted `before` the statement in its own
    expressions, and its bindings of except variables (which stay deleted)."""
    deleted, excepts = before
    reads: _Reads = []
    binds: list[tuple[str, ast.AST]] = []
    try:
        _statement(mc, stmt, reads, binds)
    except RecursionError:
        return  # an expression nested past the stack (the evaluator stops at its own bound)
    receivers: dict[int, bool] = {}
    for name, at, how in reads:
        if name not in deleted:
            continue
        if how is _CALLEE:
            mc.error(at, "<deleted> not callable", "misc")
            continue
        if how is _NONE_RETURN:
            mc.error(at, "No return value expected", "return-value")
            continue
        if type(how) is _Keyword:
            if not _takes_keyword(mc, how):  # type: ignore[arg-type]
                continue  # mypy checks a keyword argument against the parameter it matches
        elif how is not None and how is not _READ and _is_any(mc, how, receivers):  # type: ignore[arg-type]
            continue  # an argument of an Any callee, an operand of an Any: mypy checks nothing
        mc.error(at, f'Trying to read deleted variable "{name}"', "misc")
    rebound = [name for name, _ in binds if name in excepts]
    for name, at in binds:
        if name in excepts:
            mc.error(at, f'Assignment to variable "{name}" outside except: block', "misc")
    if rebound and not mc.flow.state.unreachable:
        for name in rebound:
            mc.flow.bind(name, DELETED)


class _Keyword:
    """A keyword argument's place: the callee and the keyword."""

    __slots__ = ("func", "name")

    def __init__(self, func: ast.expr, name: str) -> None:
        self.func = func
        self.name = name


def _takes_keyword(mc: "ModuleChecker", kw: _Keyword) -> bool:
    """Whether the callee is a function with a parameter taking the keyword
    (else veritype leaves it unreported: an unknown keyword is mypy's
    `[call-arg]` alone, and an overloaded callee's match is not looked for)."""
    callee = ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(kw.func)
    if type(callee) is not CallableType:
        return False
    return any(p.kind == VAR_KW or (p.name == kw.name and p.kind in (POS_OR_KW, KW_ONLY)) for p in callee.params)


def _is_any(mc: "ModuleChecker", node: ast.expr, known: dict[int, bool]) -> bool:
    found = known.get(id(node))
    if found is None:
        found = known[id(node)] = type(ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(node)) is AnyType
    return found


# How a read is reported: _READ (always), _CALLEE, _NONE_RETURN, an
# expression whose type must not be Any (the callee, the other operand), a
# keyword argument's place, or None (not reported).
_How: TypeAlias = "ast.expr | str | _Keyword | None"
# The reads of a statement: (name, node reported at, how).
_Reads = list[tuple[str, ast.AST, _How]]
_Binds = list[tuple[str, ast.AST]]


def _statement(mc: "ModuleChecker", stmt: ast.stmt, reads: _Reads, binds: _Binds) -> None:
    k = type(stmt)
    if k is ast.Expr:
        _expr(stmt.value, None, reads, binds, _NO_SHADOW)  # type: ignore[attr-defined]
    elif k is ast.Assign:
        _assign(stmt, reads, binds)  # type: ignore[arg-type]
    elif k is ast.AnnAssign:
        _target(stmt.target, reads, binds, None)  # type: ignore[attr-defined]
        if stmt.value is not None:  # type: ignore[attr-defined]
            _value(stmt.value, stmt.target, reads, binds)  # type: ignore[attr-defined]
    elif k is ast.AugAssign:
        target = stmt.target  # type: ignore[attr-defined]
        if type(target) is ast.Name:
            reads.append((target.id, stmt, _READ))
            binds.append((target.id, stmt))
        else:
            _target(target, reads, binds, None)
        _expr(stmt.value, target, reads, binds, _NO_SHADOW, stmt.value)  # type: ignore[attr-defined]
    elif k is ast.If:
        # The elif chain is checked with its `if` (check_if): from the same
        # state, as each test runs where the ones before it were false (and
        # nothing between them runs). mypy places an `elif` test's error at
        # the test, an `if` test's at the statement.
        node: ast.If | None = stmt  # type: ignore[assignment]
        while node is not None:
            _test(node.test, node if node is stmt else node.test, reads, binds)
            node = elif_branch(node)
    elif k is ast.While:
        _test(stmt.test, stmt, reads, binds)  # type: ignore[attr-defined]
    elif k is ast.For or k is ast.AsyncFor:
        _expr(stmt.iter, _READ, reads, binds, _NO_SHADOW, stmt.iter)  # type: ignore[attr-defined]
        _target(stmt.target, reads, binds, stmt)  # type: ignore[attr-defined]
    elif k is ast.With or k is ast.AsyncWith:
        for item in stmt.items:  # type: ignore[attr-defined]
            _expr(item.context_expr, _READ, reads, binds, _NO_SHADOW, item.context_expr)
            if item.optional_vars is not None:
                _target(item.optional_vars, reads, binds, item.context_expr)
    elif k is ast.Raise:
        for part in (stmt.exc, stmt.cause):  # type: ignore[attr-defined]
            if part is not None:
                _expr(part, _READ, reads, binds, _NO_SHADOW, part)
    elif k is ast.Return:
        value = stmt.value  # type: ignore[attr-defined]
        if value is not None:
            func = mc.func
            if type(value) is ast.Name and func is not None and type(func.ret) is NoneType and not func.is_generator:
                # Returned from a `-> None` function, a deleted value (mypy's
                # DeletedType, not Any) is `No return value expected`, as the
                # variable's own type was before it was deleted.
                reads.append((value.id, stmt, _NONE_RETURN))
            _expr(value, None, reads, binds, _NO_SHADOW)
    elif k is ast.Delete:
        for t in stmt.targets:  # type: ignore[attr-defined]
            _target(t, reads, binds, None, deleting=True)
    elif k is ast.Assert:
        _expr(stmt.test, None, reads, binds, _NO_SHADOW)  # type: ignore[attr-defined]
        if stmt.msg is not None:  # type: ignore[attr-defined]
            _expr(stmt.msg, None, reads, binds, _NO_SHADOW)  # type: ignore[attr-defined]
    elif k is ast.Match:
        subject = stmt.subject  # type: ignore[attr-defined]
        if type(subject) is ast.Name:
            reads.append((subject.id, stmt, _READ))
        else:
            _expr(subject, None, reads, binds, _NO_SHADOW)
    elif k is ast.FunctionDef or k is ast.AsyncFunctionDef:
        args = stmt.args  # type: ignore[attr-defined]
        for e in (*stmt.decorator_list, *args.defaults, *(d for d in args.kw_defaults if d is not None)):  # type: ignore[attr-defined]
            _expr(e, None, reads, binds, _NO_SHADOW)
    elif k is ast.ClassDef:
        for e in (*stmt.decorator_list, *stmt.bases, *(kw.value for kw in stmt.keywords)):  # type: ignore[attr-defined]
            _expr(e, None, reads, binds, _NO_SHADOW)


def _test(test: ast.expr, at: ast.AST, reads: _Reads, binds: _Binds) -> None:
    """An `if`/`elif`/`while` test: the name itself is read (mypy tests its type), or what it reads."""
    if type(test) is ast.Name:
        reads.append((test.id, at, _READ))  # type: ignore[attr-defined]
    else:
        _expr(test, None, reads, binds, _NO_SHADOW)


def _assign(stmt: ast.Assign, reads: _Reads, binds: _Binds) -> None:
    value = stmt.value
    last = stmt.targets[-1]
    for target in stmt.targets:
        # mypy checks the last target against the value, the others against
        # its type placed at the statement (an error there is at the statement).
        _target(target, reads, binds, value if target is last else stmt)
    _value(value, last, reads, binds)


def _value(value: ast.expr, target: ast.expr, reads: _Reads, binds: _Binds) -> None:
    """An assignment's value, against its (last) target."""
    if type(target) in (ast.Tuple, ast.List) and type(value) in (ast.Tuple, ast.List):
        for item in value.elts:  # type: ignore[attr-defined]
            # Item by item (mypy's check_multi_assignment of a display).
            _expr(item, _READ if type(item) is not ast.Starred else None, reads, binds, _NO_SHADOW, item)
        return
    # `d[k] = x` is `d.__setitem__(k, x)`: nothing is checked where d is Any.
    how: ast.expr | str = target.value if type(target) is ast.Subscript else _READ  # type: ignore[attr-defined]
    _expr(value, how, reads, binds, _NO_SHADOW, value)


def _target(target: ast.expr, reads: _Reads, binds: _Binds, at: ast.AST | None, deleting: bool = False) -> None:
    """An assignment target: the objects it reads (`x` of `x.a = ...`), and the
    names it binds (reported at `at`, when given)."""
    k = type(target)
    if k is ast.Name:
        if at is not None and not deleting:
            binds.append((target.id, at))  # type: ignore[attr-defined]
    elif k is ast.Attribute or k is ast.Subscript:
        # Its object (and index) are read as an expression's: `x` of `x.a = ...`.
        _expr(target, None, reads, binds, _NO_SHADOW)
    elif k is ast.Starred:
        _target(target.value, reads, binds, at, deleting=deleting)  # type: ignore[attr-defined]
    elif k is ast.Tuple or k is ast.List:
        elts = target.elts  # type: ignore[attr-defined]
        # The value item a target item is checked against, when the value is a
        # display (`a, e = 1, 2`: e's error is at `2`), up to a starred target.
        items = at.elts if type(at) in (ast.Tuple, ast.List) else None  # type: ignore[union-attr]
        for i, elt in enumerate(elts):
            if items is not None and i < len(items) and not any(type(e) is ast.Starred for e in elts[:i + 1]):
                _target(elt, reads, binds, items[i], deleting=deleting)
            else:
                _target(elt, reads, binds, at, deleting=deleting)


def _expr(e: ast.expr, how: _How, reads: _Reads, binds: _Binds, shadow: frozenset[str], at: ast.AST | None = None) -> None:
    """The reads in `e`. `how`: whether a deleted value of `e` itself is
    reported (None: not; _READ: always; an expression: unless its type is
    Any), at `at`."""
    k = type(e)
    if k is ast.Name:
        if how is not None and type(e.ctx) is ast.Load and e.id not in shadow:  # type: ignore[attr-defined]
            reads.append((e.id, at if at is not None else e, how))  # type: ignore[attr-defined]
    elif k is ast.Attribute:
        _expr(e.value, _READ, reads, binds, shadow, e)  # type: ignore[attr-defined]
    elif k is ast.Subscript:
        _expr(e.value, _READ, reads, binds, shadow, e)  # type: ignore[attr-defined]
        _expr(e.slice, e.value, reads, binds, shadow, e.slice)  # type: ignore[attr-defined]
    elif k is ast.Call:
        func = e.func  # type: ignore[attr-defined]
        if type(func) is ast.Name:
            if func.id not in shadow:
                reads.append((func.id, e, _CALLEE))
        else:
            _expr(func, None, reads, binds, shadow)
        for a in e.args:  # type: ignore[attr-defined]
            if type(a) is ast.Starred:
                _expr(a.value, None, reads, binds, shadow)
            else:
                _expr(a, func, reads, binds, shadow, a)
        for kw in e.keywords:  # type: ignore[attr-defined]
            _expr(kw.value, _Keyword(func, kw.arg) if kw.arg is not None else None, reads, binds, shadow, kw.value)
    elif k is ast.BinOp:
        left, right = e.left, e.right  # type: ignore[attr-defined]
        _expr(left, _READ, reads, binds, shadow, e)
        # `"%s" % x` is mypy's string formatting check, which asks nothing of x's type.
        formatting = type(e.op) is ast.Mod and type(left) in (ast.Constant, ast.JoinedStr)  # type: ignore[attr-defined]
        _expr(right, None if formatting else left, reads, binds, shadow, right)
    elif k is ast.UnaryOp:
        _expr(e.operand, None if type(e.op) is ast.Not else _READ, reads, binds, shadow, e)  # type: ignore[attr-defined]
    elif k is ast.Compare:
        first = type(e.ops[0])  # type: ignore[attr-defined]
        left = e.left  # type: ignore[attr-defined]
        # The left operand's methods are looked up, but for `is` and `in` (the container's are).
        _expr(left, None if first in (ast.Is, ast.IsNot, ast.In, ast.NotIn) else _READ, reads, binds, shadow, e)
        for op, right in zip(e.ops, e.comparators):  # type: ignore[attr-defined]
            kind = type(op)
            if kind is ast.Is or kind is ast.IsNot:
                _expr(right, None, reads, binds, shadow)
            elif kind is ast.In or kind is ast.NotIn:
                _expr(right, _READ, reads, binds, shadow, e)
            else:
                _expr(right, left, reads, binds, shadow, right)
            left = right
    elif k is ast.Await:
        _expr(e.value, _READ, reads, binds, shadow, e)  # type: ignore[attr-defined]
    elif k is ast.JoinedStr:
        for v in e.values:  # type: ignore[attr-defined]
            if type(v) is ast.FormattedValue:
                _expr(v.value, _READ, reads, binds, shadow, v.value)
                if v.format_spec is not None:
                    _expr(v.format_spec, None, reads, binds, shadow)
    elif k is ast.NamedExpr:
        value = e.value  # type: ignore[attr-defined]
        _expr(value, _READ, reads, binds, shadow, value)
        if type(e.target) is ast.Name and e.target.id not in shadow:  # type: ignore[attr-defined]
            binds.append((e.target.id, value))  # type: ignore[attr-defined]
    elif k is ast.Lambda:
        args = e.args  # type: ignore[attr-defined]
        for d in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            _expr(d, None, reads, binds, shadow)
        params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None}
        _expr(e.body, None, reads, binds, shadow | params)  # type: ignore[attr-defined]  # (its value is returned)
    elif k in _COMPREHENSIONS:
        inner = shadow
        for gen in e.generators:  # type: ignore[attr-defined]
            _expr(gen.iter, _READ, reads, binds, inner, gen.iter)  # iterated: `__iter__` is looked up
            inner = inner | _bound_names(gen.target)
            for cond in gen.ifs:
                _expr(cond, None, reads, binds, inner)
        if k is ast.DictComp:
            for part in (e.key, e.value):  # type: ignore[attr-defined]
                _expr(part, _READ, reads, binds, inner, part)
        else:
            _expr(e.elt, _READ, reads, binds, inner, e.elt)  # type: ignore[attr-defined]
    else:
        for child in ast.iter_child_nodes(e):
            if isinstance(child, ast.expr):
                _expr(child, None, reads, binds, shadow)


_COMPREHENSIONS = frozenset((ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp))


def _bound_names(target: ast.expr) -> frozenset[str]:
    return frozenset(n.id for n in _flat_names([target]))


def _flat_names(targets: list[ast.expr]) -> list[ast.Name]:
    out: list[ast.Name] = []
    stack = list(reversed(targets))
    while stack:
        t = stack.pop()
        if type(t) is ast.Name:
            out.append(t)  # type: ignore[arg-type]
        elif type(t) in (ast.Tuple, ast.List):
            stack.extend(reversed(t.elts))  # type: ignore[attr-defined]
        elif type(t) is ast.Starred:
            stack.append(t.value)  # type: ignore[attr-defined]
    return out
