"""Inlay hints: the inferred types of unannotated variables and return types.

Each body in the requested range (the module's, each function's) is walked
once by the checker, silently; after each unannotated assignment the
target's type is read as `reveal_type` on the next line would say it, and
the types of a function's `return` values are joined into the return type
the hint shows after an unannotated signature.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.check.module_checker import ModuleChecker
from veritype.evaluate.expressions import ExprEvaluator
from veritype.types.format import format_revealed
from veritype.types.join import join_all
from veritype.types.model import AnyType, NoneType, Type

from veritype.engine.locate import char_column
from veritype.engine.probe import _body_scope
from veritype.engine.workspace import Snapshot

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Hint:
    position: tuple[int, int]
    label: str
    kind: int  # LSP InlayHintKind: 1 type, 2 parameter


class _HintChecker(ModuleChecker):
    reuses_loop_passes = False  # it acts outside silent passes only

    def __init__(self, program: "Program", info: "ModuleInfo", lines: list[str], first: int, last: int) -> None:
        super().__init__(program, info)
        self.lines = lines
        self.first, self.last = first, last  # 1-based line range asked for
        self.hints: list[Hint] = []
        self.returns: list[Type] = []
        self._hinted: set[str] = set()

    def silent(self) -> ExprEvaluator:
        return ExprEvaluator(self.ev, self.scope, self.flow, None)

    def stmt(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return  # walked on its own
        if (stmt.end_lineno or stmt.lineno) < self.first and not isinstance(stmt, ast.Return):
            super().stmt(stmt)
            return
        if stmt.lineno > self.last and not isinstance(stmt, ast.Return) and not self.returns_wanted:
            return
        if isinstance(stmt, ast.Return) and stmt.value is not None and not self.flow.state.unreachable:
            try:
                self.returns.append(self.silent().infer(stmt.value))
            except Exception:  # noqa: BLE001 - no hint rather than no server
                pass
        super().stmt(stmt)
        if isinstance(stmt, ast.Assign) and not stmt.type_comment and self.first <= stmt.lineno <= self.last and not self.silent_passes:
            for target in stmt.targets:
                for name in (n for n in ast.walk(target) if isinstance(n, ast.Name)):
                    self._hint_name(name)

    returns_wanted = False

    def _hint_name(self, name: ast.Name) -> None:
        sym = self.scope.table.get(name.id)
        if sym is None or sym.annotation is not None or sym.type_comment is not None or name.id in self._hinted:
            return  # declared: the annotation says it already
        if name.id.isupper() or name.id == "__all__":
            return  # constants and __all__: the value says it
        self._hinted.add(name.id)
        try:
            t = self.silent().infer(ast.copy_location(ast.Name(name.id, ast.Load()), name))
        except Exception:  # noqa: BLE001
            return
        if isinstance(t, AnyType):
            return
        line = self.lines[name.lineno - 1] if name.lineno <= len(self.lines) else ""
        self.hints.append(Hint((name.lineno - 1, char_column(line, name.end_col_offset or 0)), f": {format_revealed(t)}", 1))


def inlay_hints(snap: Snapshot, path: str, start_line: int, end_line: int) -> list[Hint]:
    """Hints for lines [start_line, end_line] (0-based, inclusive)."""
    info = snap.module_of(path)
    doc = snap.document(path)
    if info is None or info.tree is None or doc is None:
        return []
    first, last = start_line + 1, end_line + 1
    out: list[Hint] = []
    program = snap.program
    out += _walk(program, info, doc.lines, [], info.tree.body, first, last).hints
    for chain, func in _functions(info.tree.body, []):
        if (func.end_lineno or func.lineno) < first or func.lineno > last:
            continue
        checker = _walk(program, info, doc.lines, chain + [func], func.body, first, last, returns=True)
        out += checker.hints
        if func.returns is None and not func.type_comment and first <= func.lineno <= last:
            hint = _return_hint(func, checker.returns, doc.lines, program)
            if hint is not None:
                out.append(hint)
    return sorted(out, key=lambda h: h.position)


def _functions(body: list[ast.stmt], chain: list[ast.AST]) -> list[tuple[list[ast.AST], FuncDef]]:
    out: list[tuple[list[ast.AST], FuncDef]] = []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((chain, stmt))
            out += _functions(stmt.body, chain + [stmt])
        elif isinstance(stmt, ast.ClassDef):
            out += _functions(stmt.body, chain + [stmt])
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)):
            for part in ("body", "orelse", "finalbody"):
                out += _functions(getattr(stmt, part, []) or [], chain)
    return out


def _walk(program: "Program", info: "ModuleInfo", lines: list[str], defs: list[ast.AST], body: list[ast.stmt], first: int, last: int, returns: bool = False) -> _HintChecker:
    from veritype.check.function_context import FunctionContext
    from veritype.evaluate.functions import is_generator

    checker = _HintChecker(program, info, lines, first, last)
    checker.returns_wanted = returns
    # `_body_scope` takes the chain of definitions whose bodies hold the code.
    scope, func = _body_scope(program, info, [d for d in defs if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))])  # type: ignore[misc]
    if defs and isinstance(defs[-1], (ast.FunctionDef, ast.AsyncFunctionDef)):
        func = FunctionContext(defs[-1], None, is_generator(defs[-1]), isinstance(defs[-1], ast.AsyncFunctionDef))
    try:
        with checker.in_scope(scope, func):
            checker.block(body)
    except RecursionError:
        pass
    checker.diags.clear()
    return checker


_HEADER_END = re.compile(r"\)\s*:\s*(#.*)?$")


def _return_hint(func: FuncDef, returns: list[Type], lines: list[str], program: "Program") -> Hint | None:
    from veritype.evaluate.functions import is_generator

    if is_generator(func) or isinstance(func, ast.AsyncFunctionDef):
        return None
    if func.name == "__init__":
        return None  # always None, and mypy knows it
    t: Type = join_all(program.evaluator, returns) if returns else NoneType()  # type: ignore[arg-type]
    if isinstance(t, AnyType):
        return None
    # The `)` closing the parameters: on the line before the body that ends with `):`.
    body_line = func.body[0].lineno if func.body else func.lineno
    for n in range(min(body_line, len(lines)) - 1, func.lineno - 2, -1):
        text = lines[n]
        m = _HEADER_END.search(text)
        if m is not None:
            return Hint((n, m.start() + 1), f" -> {format_revealed(t)}", 1)
    return None
