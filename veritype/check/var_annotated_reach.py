"""`x = []` needing an annotation, judged without the code the checker never reached.

check/var_annotated reads the scope's code after `x = []` syntactically for the
first use of `x`. mypy does not check unreachable code, so a use there neither
completes the partial type nor reads it: after `if isinstance(n, str):` for an
`n: int`, `assert False`, `return`, a NoReturn call... (mypy 2.4.1: `d = {}`,
then `print(d)` only where unreachable, then `d["k"] = 1`, asks for no
annotation; `d["k"] = 1` only where unreachable, then `print(d)`, does; so does
`d["k"] = 1` only where unreachable and nothing else). What is unreachable by
narrowing is known only once the walk got there, so the judgement of each
`x = []` of a scope is made when the walk of that scope ends, over its code
without the statements the walk found unreachable (ModuleChecker.block records
them, in the walk that counts: not a loop's silent first pass nor a lookahead).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.check import var_annotated as va
from veritype.types.model import AnyType, Instance

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.types.model import Type

# The statement fields holding blocks, and the nodes holding one as `body`.
_BLOCK_FIELDS = ("body", "orelse", "finalbody")

Judge = Callable[[list[ast.stmt]], bool]


# Statements after which the rest of their block is unreachable on every walk.
_JUMPS = (ast.Break, ast.Continue, ast.Return, ast.Raise)


def note_unreached(mc: "ModuleChecker", body: list[ast.stmt], i: int) -> None:
    """`body[i:]` were not checked: the walk found them unreachable. Kept from the
    walk that counts; from a silent pass (a loop's first one, a lookahead: the
    walk that counts may come after, from another state) only after a jump."""
    if mc.silent_passes and not (i and type(body[i - 1]) in _JUMPS):
        return
    mc.unreached.update(map(id, body[i:]))


def judge_var_annotated(mc: "ModuleChecker", stmt: ast.Assign, t: "Type", name: str, kind: str, body: list[ast.stmt],
                        local: bool, lines: list[int] | None, params: set[str]) -> None:
    """check_var_annotated's judgement of `name = []` (`stmt`, of type `t`, an
    empty display of `kind`), kept for the end of the scope's walk (see
    `judge_later`)."""
    nested = mc.scope.kind != "module" or not local
    open_args = isinstance(t, Instance) and bool(t.args) and all(isinstance(a, AnyType) for a in t.args)

    def judge(code: list[ast.stmt]) -> bool:
        if va.needs_annotation(code, name, stmt, nested=nested, lines=lines):
            return True
        return open_args and va.read_before_completion(code, name, stmt, params, lines, mc)

    def report() -> None:
        mc.error(stmt.targets[0], va.message(name, kind), "var-annotated")

    judge_later(mc, stmt, body, judge, report)


def judge_later(mc: "ModuleChecker", stmt: ast.Assign, body: list[ast.stmt], judge: Judge, report: Callable[[], None]) -> None:
    """`judge` kept for the end of the scope's walk (`defer`), or asked at once
    in a silent pass, where nothing is kept (its report is dropped with the pass)."""
    if not defer(mc, stmt, body, judge, report) and judge(body):
        report()


def defer(mc: "ModuleChecker", stmt: ast.Assign, body: list[ast.stmt], judge: Judge, report: Callable[[], None]) -> bool:
    """Keep `judge` (does the scope's code `body` need the annotation of `stmt`'s
    target?) for the end of the walk of the scope (`judge_deferred`), which
    reports it then. False in a silent pass, where nothing is kept (the caller
    judges at once: its report is dropped with the pass)."""
    if mc.silent_passes:
        return False
    owner = mc.func.node if mc.func is not None else None
    mc.deferred_var_annotated.append((owner, body, judge, report))
    return True


def judge_deferred(mc: "ModuleChecker", owner: object) -> None:
    """At the end of the walk of a function (`owner`, its node) or of the module
    (None): judge each `x = []` kept for it, over its code without what the walk
    did not reach."""
    pending = mc.deferred_var_annotated
    if not pending:
        return
    mine = [p for p in pending if p[0] is owner]
    if not mine:
        return
    pending[:] = [p for p in pending if p[0] is not owner]
    unreached = mc.unreached
    for _, body, judge, report in mine:
        if judge(pruned(body, unreached) if unreached else body):
            report()


def pruned(stmts: list[ast.stmt], unreached: set[int]) -> list[ast.stmt]:
    """`stmts` without the statements in `unreached`, at any depth: the
    statements holding one are shallow copies (the others, and the `x = []`
    itself, stay the same nodes); `stmts` itself where nothing is left out."""
    out: list[ast.stmt] = []
    changed = False
    for s in stmts:
        if id(s) in unreached:
            changed = True
            continue
        new = _pruned_stmt(s, unreached)
        changed = changed or new is not s
        out.append(new)
    return out if changed else stmts


def _pruned_stmt(s: ast.stmt, unreached: set[int]) -> ast.stmt:
    new = s
    for field in _BLOCK_FIELDS:
        block = getattr(s, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            kept = pruned(block, unreached)
            if kept is not block:
                if new is s:
                    new = copy.copy(s)
                setattr(new, field, kept)
    for field in ("handlers", "cases"):
        parts = getattr(s, field, None)
        if not parts:
            continue
        new_parts = []
        for part in parts:
            kept = pruned(part.body, unreached)
            if kept is not part.body:
                part = copy.copy(part)
                part.body = kept
            new_parts.append(part)
        if any(a is not b for a, b in zip(new_parts, parts)):
            if new is s:
                new = copy.copy(s)
            setattr(new, field, new_parts)
    return new
