"""Re-checking only the function whose body an edit changed.

While typing, most edits stay inside one function body. What such an edit
can change is that body's own diagnostics: the module's other statements
see the function only through its signature, which is unchanged (mypy's
rule too: an unannotated function's inferred body type is not used
outside it). So the module stays loaded as it was - its classes, and the
types other modules cached from it, stay valid - and only the new body is
checked, in the scope of the function it replaces; its old body's
diagnostics are replaced and those after it move by the number of lines
the edit added or removed.

Where a body can be seen from outside, this does not hold, and the whole
module is loaded and checked again: a body assigning `self.x` (instance
attributes are inferred from method bodies), a generator's body (`yield`
changes the signature), `global`/`nonlocal`, a placeholder body (`...`: an
unimplemented protocol member), a function under `if`/`try`
at module level, and `--warn-unused-ignores` (whose verdict is over the
whole file).
"""

from __future__ import annotations

import ast
import dataclasses
from typing import TYPE_CHECKING

from veritype.diagnostics.diagnostic import Diagnostic

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
# A definition's place: (name, index among the same-named definitions of its body), outermost first.
QualPath = tuple[tuple[str, int], ...]


@dataclasses.dataclass(frozen=True)
class BodyEdit:
    """An edit inside one function's body."""

    path: QualPath  # the function, by names (the same in the old and new trees)
    new: FuncDef  # the function in the new tree
    old_body: tuple[int, int]  # its body's first and last line in the old text (1-based)
    delta: int  # lines added (negative: removed)


def changed_lines(old: list[str], new: list[str]) -> tuple[int, int, int]:
    """(first differing line, end of the change in old, end in new), 0-based, ends exclusive."""
    a = 0
    while a < len(old) and a < len(new) and old[a] == new[a]:
        a += 1
    b = 0
    while b < len(old) - a and b < len(new) - a and old[-1 - b] == new[-1 - b]:
        b += 1
    return a, len(old) - b, len(new) - b


def _defs(body: list[ast.stmt]) -> list[tuple[ast.stmt, tuple[str, int]]]:
    counts: dict[str, int] = {}
    out: list[tuple[ast.stmt, tuple[str, int]]] = []
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            n = counts.get(stmt.name, 0)
            counts[stmt.name] = n + 1
            out.append((stmt, (stmt.name, n)))
    return out


def _outermost_function(body: list[ast.stmt], first: int, last: int, path: QualPath) -> tuple[FuncDef, QualPath] | None:
    """The outermost def (under classes only) whose body holds lines [first, last] (1-based)."""
    for stmt, key in _defs(body):
        end = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, ast.ClassDef) and stmt.lineno < first and last <= end:
            return _outermost_function(stmt.body, first, last, path + (key,))
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.body and stmt.body[0].lineno <= first and last <= end:
            return stmt, path + (key,)
    return None


def find(tree: ast.Module, path: QualPath) -> list[ast.stmt] | None:
    """The definitions along `path` in `tree` (classes, then the function)."""
    body: list[ast.stmt] = tree.body
    out: list[ast.stmt] = []
    for key in path:
        hit = next((stmt for stmt, k in _defs(body) if k == key), None)
        if hit is None:
            return None
        out.append(hit)
        body = hit.body  # type: ignore[attr-defined]
    return out


def _opaque(func: FuncDef) -> bool:
    """Can the body be seen from outside the function (see the module doc)?"""
    from veritype.syntax.bodies import is_trivial_body

    if is_trivial_body(func.body):
        return True  # a placeholder body: a protocol member or abstract method is not implemented
    for node in ast.walk(func):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
    return False


def _header(func: FuncDef) -> str:
    """The def without its body: decorators, name, parameters, annotations."""
    return ast.dump(ast.FunctionDef(func.name, func.args, [], func.decorator_list, func.returns, func.type_comment), include_attributes=False)  # type: ignore[call-arg]


def body_edit(old_tree: ast.Module, old_lines: list[str], new_tree: ast.Module, new_lines: list[str]) -> BodyEdit | None:
    a, old_end, new_end = changed_lines(old_lines, new_lines)
    if a == old_end == new_end:
        return None
    # The changed lines, 1-based and inclusive. Lines only inserted touch the
    # old line after them, or else the one before them: a line added after a
    # body's last line (the common case while typing) is in the body of the
    # function that ends just before it, if the new tree says so.
    old_hit = _outermost_function(old_tree.body, a + 1, min(max(old_end, a + 1), len(old_lines)), ())
    if old_hit is None and old_end == a and a >= 1:
        old_hit = _outermost_function(old_tree.body, a, a, ())
    new_hit = _outermost_function(new_tree.body, a + 1, min(max(new_end, a + 1), len(new_lines)), ())
    if old_hit is None or new_hit is None or old_hit[1] != new_hit[1]:
        return None
    old, new = old_hit[0], new_hit[0]
    if old.lineno != new.lineno or old.body[0].lineno != new.body[0].lineno or _header(old) != _header(new):
        return None  # the signature changed: its users must be checked again
    if _opaque(old) or _opaque(new):
        return None
    return BodyEdit(new_hit[1], new, (old.body[0].lineno, old.end_lineno or old.lineno), len(new_lines) - len(old_lines))


def recheck(program: "Program", loaded: "ModuleInfo", edit: BodyEdit, old_diags: list[Diagnostic], new_tree: ast.Module, new_source: str) -> list[Diagnostic] | None:
    """The module's diagnostics after `edit`, from the old ones and a check of
    the new body in the loaded module; None where the whole module must be
    checked."""
    from veritype.diagnostics import ignores
    from veritype.engine.checking import sorted_unique

    opts = program.options.for_module(loaded.name)
    if opts.warn_unused_ignores or opts.ignore_errors or loaded.tree is None:
        return None
    chain = find(loaded.tree, edit.path)
    if chain is None or not isinstance(chain[-1], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    old_start, old_end = edit.old_body
    kept: list[Diagnostic] = []
    for d in old_diags:
        if d.line < old_start:
            kept.append(d)
        elif d.line > old_end:
            kept.append(dataclasses.replace(d, line=d.line + edit.delta, end_line=None if d.end_line is None else d.end_line + edit.delta))
    checker = _PathChecker(program, loaded, chain, edit.new)
    try:
        checker.block(loaded.tree.body)
    except _Done:
        pass
    except RecursionError:
        return None
    if not checker.reached:
        return None
    new_start, new_end = edit.new.body[0].lineno, edit.new.end_lineno or edit.new.lineno
    fresh = [d for d in checker.diags if new_start <= d.line <= new_end]
    # The new text's ignore comments (the loaded module's are the old text's).
    from veritype.engine.checking import skipped_lines

    fresh = ignores.apply_ignores(loaded.path, fresh, ignores.parse_ignores(new_tree, new_source), opts, skipped_lines(program, loaded.name, new_tree))
    return sorted_unique(kept + fresh)


class _Done(Exception):
    """The edited function has been checked."""


def _PathChecker(program: "Program", info: "ModuleInfo", path: list[ast.stmt], new: FuncDef):  # type: ignore[no-untyped-def]
    from veritype.check.module_checker import ModuleChecker

    class PathChecker(ModuleChecker):
        """Walks the loaded module as the full check does, but only along the
        path to the edited function: the statements before it at each level
        run (so the flow carried into its body - narrowed module names - is
        the same), other definitions are skipped, and the walk stops after
        checking the new function in the old one's place."""

        def __init__(self) -> None:
            super().__init__(program, info)
            self.path = list(path)
            self.reached = False

        def stmt(self, stmt: ast.stmt) -> None:
            if self.path and stmt is self.path[0]:
                self.path = self.path[1:]
                if isinstance(stmt, ast.ClassDef):
                    sym = self.scope.table.get(stmt.name)
                    if sym is None or not isinstance(sym.node, ast.ClassDef):
                        raise _Done
                    cls = self.ev.class_info_of(sym, self.scope)
                    if cls.node is not stmt:
                        raise _Done
                    with self.in_scope(cls.scope, None):
                        self.block(stmt.body)
                    raise _Done
                super().stmt(new)
                self.reached = True
                raise _Done
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return
            super().stmt(stmt)

    return PathChecker()
