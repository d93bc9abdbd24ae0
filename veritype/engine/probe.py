"""The type of an expression at a point of a body, as `reveal_type` would say it.

The checker's own walk computes it: a `ModuleChecker` walks only the
innermost body holding the position (a function's, a class's or the
module's), statements before the position in order, nested definitions
skipped, and stops after the statement holding it. Every type the walk
infers for a node under the cursor is recorded, so the answer carries the
narrowing, the expected-type context and the comprehension variables that
`reveal_type` there would see. Assignment targets (`x = ...`, `for x in`)
are read back after their statement, as `reveal_type(x)` on the next line.

Nothing is reported: the walk's diagnostics are dropped.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.check.flow import Flow
from veritype.check.function_context import FunctionContext
from veritype.check.module_checker import ModuleChecker
from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.functions import function_scope, is_generator
from veritype.evaluate.scopes import Scope
from veritype.types.model import Type

from veritype.engine.locate import Defn, enclosing_bodies, innermost_statement

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program


class _Done(Exception):
    """The statement holding the position has been walked."""


@dataclass
class Probe:
    """What the walk saw at the position."""

    types: dict[int, Type]  # id(node) -> the last type inferred for it
    scope: Scope  # the scope of the innermost body
    checker: ModuleChecker
    flow: Flow  # the state after the statement holding the position


class _RecordingExprs(ExprEvaluator):
    def __init__(self, wanted: set[int], out: dict[int, Type], *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self._wanted = wanted
        self._out = out

    def infer(self, node: ast.expr, expected: Type | None = None) -> Type:
        t = super().infer(node, expected)
        if id(node) in self._wanted:
            self._out[id(node)] = t
        return t


class _ProbeChecker(ModuleChecker):
    reuses_loop_passes = False  # it acts outside silent passes only

    def __init__(self, program: "Program", info: "ModuleInfo", chain: list[ast.AST]) -> None:
        super().__init__(program, info)
        self.wanted = {id(n) for n in chain}
        self.chain_ids = self.wanted
        self.recorded: dict[int, Type] = {}
        self.target = innermost_statement(chain)

    def exprs(self) -> ExprEvaluator:
        e = _RecordingExprs(self.wanted, self.recorded, self.ev, self.scope, self.flow, self.report)
        e.in_async = bool(self.func and self.func.is_async)
        e.yield_types = self.func.yield_types if self.func is not None else None
        return e

    def stmt(self, stmt: ast.stmt) -> None:
        if id(stmt) not in self.chain_ids:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return  # another definition's body: not on the way
            super().stmt(stmt)
            return
        super().stmt(stmt)
        if stmt is self.target and not self.silent_passes and self.partial_watch is None:
            raise _Done


def _body_scope(program: "Program", info: "ModuleInfo", bodies: list[Defn]) -> tuple[Scope, FunctionContext | None]:
    ev = program.evaluator
    scope = ev.module_scope(info)
    func: FunctionContext | None = None
    for node in bodies:
        if isinstance(node, ast.ClassDef):
            sym = scope.table.get(node.name)
            if sym is None or not isinstance(sym.node, ast.ClassDef):
                break
            cls = ev.class_info_of(sym, scope)
            if cls is None or cls.node is not node:
                break
            scope, func = cls.scope, None
        else:
            scope = function_scope(ev, node, scope)
            func = FunctionContext(node, None, is_generator(node), isinstance(node, ast.AsyncFunctionDef))
    return scope, func


def probe(program: "Program", info: "ModuleInfo", chain: list[ast.AST]) -> Probe:
    """Walk to the statement at the end of `chain` (see the module doc)."""
    bodies = enclosing_bodies(chain)
    checker = _ProbeChecker(program, info, chain)
    scope, func = _body_scope(program, info, bodies)
    body: list[ast.stmt] = bodies[-1].body if bodies else (info.tree.body if info.tree else [])
    try:
        with checker.in_scope(scope, func):
            try:
                checker.block(body)
            except _Done:
                pass
            result = Probe(dict(checker.recorded), checker.scope, checker, checker.flow)
    except RecursionError:
        result = Probe({}, scope, checker, Flow())
    checker.diags.clear()
    return result
