"""mypy's optional `possibly-undefined`: a name read where some path has not bound it.

With the code enabled, mypy 2.4.1 reports `Name "x" may be undefined` at the
first read of a name of the current scope (function, class body or module)
that some path to the read binds and another does not: `if b: x = 1` then
`print(x)`; a read on the same path after it is not reported again, one where
paths meet again is. Unreachable paths do not count (a branch ended by `return` or
`raise`, or ruled out by narrowing), nor do reads in nested functions and
lambdas (they run later). A name that no path binds yet is not this code's
(mypy's `used-before-def`). As in mypy, a `for` loop's target and a bare
annotation `x: int` count as bound. Unannotated functions are not looked
at without --check-untyped-defs, in mypy (2.4.1) as here.

The flow state (check.flow.State) carries a `Definedness`: the names every
path so far binds (`must`) and those some path binds (`may`); branches merge
them by intersection and union. The checker marks bindings as statements run
(`Flow.define`, and every `Flow.bind` of a plain name); expression inference
asks `UndefinedNames.read` at each name it reads. Tracked only when the code
is enabled for the module, so it costs nothing otherwise.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.syntax.walk import walk as walk_nodes
from veritype.diagnostics.enabled import code_enabled

if TYPE_CHECKING:
    from veritype.check.flow import Flow
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.scopes import Scope


class Definedness:
    """The names bound on every path so far (`must`) and on some path (`may`)."""

    __slots__ = ("must", "may")

    def __init__(self, must: set[str], may: set[str]) -> None:
        self.must = must
        self.may = may

    def copy(self) -> "Definedness":
        return Definedness(set(self.must), set(self.may))

    def add(self, name: str) -> None:
        self.must.add(name)
        self.may.add(name)


def merged(parts: "list[Definedness | None]") -> "Definedness | None":
    """Where paths meet: bound on each of them, or on any."""
    if not parts or any(p is None for p in parts):
        return None
    first = parts[0]
    assert first is not None
    must, may = set(first.must), set(first.may)
    for p in parts[1:]:
        assert p is not None
        must &= p.must
        may |= p.may
    return Definedness(must, may)


class UndefinedNames:
    """The tracking of one scope's walk: which names are its own."""

    def __init__(self, checker: "ModuleChecker", scope: "Scope", flow: "Flow") -> None:
        self.checker = checker
        self.scope = scope
        self.flow = flow  # the scope's own flow (the checker's changes in nested scopes)
        table = scope.table
        # `global x` / `nonlocal x`: the name is another scope's.
        self.foreign = set(getattr(table, "globals_declared", ())) | set(getattr(table, "nonlocals_declared", ()))
        # `except E as e` names: read after the handler they are mypy's `[misc]`.
        self.deleted: set[str] = set()

    def own(self, name: str) -> bool:
        return name not in self.foreign

    def read(self, node: ast.Name) -> None:
        defined = self.flow.state.defined
        name = node.id
        if defined is None or name in defined.must or name not in defined.may or name in self.deleted:
            return
        if self.checker.silent_passes:
            return  # a loop's first, silent pass: its reports are dropped
        if self.scope.kind != "function" and self._found_outside(name):
            return  # a class body or module falls back to the enclosing names / builtins
        defined.add(name)  # on this path; where it meets an unbound one, it is reported again
        self.checker.error(node, f'Name "{name}" may be undefined', "possibly-undefined")

    def _found_outside(self, name: str) -> bool:
        ev = self.checker.ev
        if self.scope.parent is not None:
            return ev.lookup(name, self.scope.parent) is not None
        builtins = ev.program.get_module("builtins")
        return builtins is not None and ev.program.lookup_in_module(builtins, name) is not None


def start(checker: "ModuleChecker", scope: "Scope", args: "ast.arguments | None" = None) -> None:
    """Track the scope the checker has just entered (its flow is fresh), if
    enabled; `args`: the parameters of the function entered."""

    if not code_enabled(checker.options, "possibly-undefined"):
        return
    checker.flow.undefined = UndefinedNames(checker, scope, checker.flow)
    names = {a.arg for a in walk_nodes(args) if isinstance(a, ast.arg)} if args is not None else set()
    checker.flow.state.defined = Definedness(set(names), set(names))


def statement_bindings(checker: "ModuleChecker", stmt: ast.stmt, before: bool) -> None:
    """The names a statement binds (or, `before` its body runs, reads) for the tracking."""
    flow = checker.flow
    tracker = flow.undefined
    if tracker is None:
        return
    if before:
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            tracker.read(stmt.target)
        elif isinstance(stmt, ast.Delete):
            for t in stmt.targets:
                if isinstance(t, ast.Name):
                    tracker.read(t)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            _define_targets(flow, stmt.target)  # mypy: a loop's target counts as bound
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    _define_targets(flow, item.optional_vars)
        return
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            _define_targets(flow, target)
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        _define_targets(flow, stmt.target)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        flow.define(stmt.name)
    elif isinstance(stmt, ast.Import):
        for alias in stmt.names:
            flow.define(alias.asname or alias.name.partition(".")[0])
    elif isinstance(stmt, ast.ImportFrom):
        for alias in stmt.names:
            if alias.name != "*":
                flow.define(alias.asname or alias.name)
    elif type(stmt).__name__ == "TypeAlias":
        name = getattr(stmt, "name", None)
        if isinstance(name, ast.Name):
            flow.define(name.id)


def _define_targets(flow, target: ast.expr) -> None:  # type: ignore[no-untyped-def]
    """The names an assignment target binds (`a`, `a, *b`), not those it reads (`d[k]`, `o.x`)."""
    if isinstance(target, ast.Name):
        flow.define(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _define_targets(flow, elt)
    elif isinstance(target, ast.Starred):
        _define_targets(flow, target.value)
