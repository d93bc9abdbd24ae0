"""Re-checking only the top-level definitions an edit changed.

An edit that adds, removes or rewrites whole top-level `def`s and `class`es
(a new function at the end of a module, say) changes the module's
interface: the module is loaded again and its importers that use a changed
name are checked again (engine.workspace, engine.fine_deps). Within the
module itself, a statement the edit did not touch can see the difference
only through a changed definition's name: it is checked in a scope where
that name's binding changed, and in nothing else - a `def` or `class`
statement neither narrows nor makes anything unreachable for the
statements after it. So when no unchanged statement mentions a changed
name (as a word anywhere in its text: string annotations, `__all__` and
comments included, which is conservative), its diagnostics stand (moved
by the lines the edit added or removed), and only the changed definitions
are checked, in the module as loaded from the new text.

The whole module is checked instead when that does not hold or is not
known: a changed statement that is not a `def`/`class`, a changed line
outside the changed definitions that is not blank or a plain comment,
`--warn-unused-ignores` and `ignore-without-code` (verdicts over the whole
file), an `unreachable` error (it names the first statement after a point
the flow cannot pass, which may be a new one), inline
configuration, diagnostics from parsing, a module some other edit made
stale, or a changed name of another module that this one uses (an import
cycle brings the change back).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import TYPE_CHECKING

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.engine.body_edits import changed_lines
from veritype.syntax.word_lines import span_start

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclasses.dataclass(frozen=True)
class TopEdit:
    """Whole top-level definitions changed, and how the other statements moved."""

    old_spans: tuple[tuple[int, int], ...]  # lines (1-based, inclusive) of the changed definitions in the old text
    new_spans: tuple[tuple[int, int], ...]  # ... and in the new text
    names: frozenset[str]  # the names they define (old and new)
    first: int  # first changed line (1-based)
    old_end: int  # last changed line in the old text (first - 1: none)
    delta: int  # lines added (negative: removed)


def _span(stmt: ast.stmt) -> tuple[int, int]:
    return span_start(stmt), stmt.end_lineno or stmt.lineno


def _touched(body: list[ast.stmt], first: int, end: int) -> list[ast.stmt]:
    """The statements overlapping lines [first, end] (1-based; end = first - 1:
    an insertion before line `first`, which touches a statement around it)."""
    out = []
    for stmt in body:
        s, e = _span(stmt)
        if (s <= end and e >= first) if end >= first else (s < first <= e):
            out.append(stmt)
    return out


def _quiet_lines(lines: list[str], first: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Are the lines [first, end] (1-based) outside `spans` blank or plain comments?"""
    for n in range(first, end + 1):
        if any(s <= n <= e for s, e in spans):
            continue
        text = lines[n - 1].strip() if n - 1 < len(lines) else ""
        if text and not (text.startswith("#") and "type:" not in text and "mypy:" not in text):
            return False
    return True


def top_edit(old_tree: ast.Module, old_lines: list[str], new_tree: ast.Module, new_lines: list[str]) -> TopEdit | None:
    """The edit, if it changes only whole top-level definitions that nothing
    else in the module mentions (see the module doc)."""
    a, old_end, new_end = changed_lines(old_lines, new_lines)
    if a == old_end == new_end:
        return None
    first = a + 1
    old_hit = _touched(old_tree.body, first, old_end)
    new_hit = _touched(new_tree.body, first, new_end)
    if not new_hit:
        return None  # definitions removed only: their names' users are elsewhere (kept simple: check it all)
    if not all(isinstance(s, _DEFS) for s in (*old_hit, *new_hit)):
        return None
    old_spans = [_span(s) for s in old_hit]
    new_spans = [_span(s) for s in new_hit]
    if not _quiet_lines(old_lines, first, old_end, old_spans) or not _quiet_lines(new_lines, first, new_end, new_spans):
        return None
    names = frozenset(s.name for s in (*old_hit, *new_hit))  # type: ignore[attr-defined]
    # The changed region may reach into a definition before or after the
    # changed lines: what is outside every changed definition is unchanged text.
    word = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")\b")
    for n, line in enumerate(new_lines, 1):
        if not any(s <= n <= e for s, e in new_spans) and word.search(line):
            return None
    return TopEdit(tuple(old_spans), tuple(new_spans), names, first, old_end, len(new_lines) - len(old_lines))


def recheck(program: "Program", loaded: "ModuleInfo", edit: TopEdit, old_diags: list[Diagnostic], new_source: str) -> list[Diagnostic] | None:
    """The module's diagnostics after `edit`, from the old ones and a check of
    the changed definitions in the module loaded from the new text; None
    where the whole module must be checked."""
    from veritype.diagnostics import ignores
    from veritype.engine.checking import skipped_lines, sorted_unique

    from veritype.diagnostics.enabled import code_enabled

    opts = program.options.for_module(loaded.name)
    if opts.warn_unused_ignores or opts.ignore_errors or loaded.tree is None or loaded.parsed is None or loaded.parsed.diagnostics:
        return None
    if code_enabled(opts, "ignore-without-code") or any(d.code == "unreachable" for d in old_diags):
        return None  # verdicts over the whole file, or over the statements after an unreachable point
    kept: list[Diagnostic] = []
    for d in old_diags:
        if any(s <= d.line <= e for s, e in edit.old_spans):
            continue  # a changed definition's: checked again below
        if d.line < edit.first:
            kept.append(d)
        elif d.line > edit.old_end:
            kept.append(dataclasses.replace(d, line=d.line + edit.delta, end_line=None if d.end_line is None else d.end_line + edit.delta))
        else:
            return None  # on a changed line outside the changed definitions: not placed
    changed = [s for s in loaded.tree.body if _span(s) in edit.new_spans]
    if len(changed) != len(edit.new_spans):
        return None
    checker = _TopChecker(program, loaded, changed)
    try:
        checker.run()
    except RecursionError:
        return None
    fresh = [d for d in checker.diags if any(s <= d.line <= e for s, e in edit.new_spans)]
    fresh = ignores.apply_ignores(loaded.path, fresh, ignores.parse_ignores(loaded.tree, new_source), opts, skipped_lines(program, loaded.name, loaded.tree))
    return sorted_unique(kept + fresh)


def _TopChecker(program: "Program", info: "ModuleInfo", changed: list[ast.stmt]):  # type: ignore[no-untyped-def]
    from veritype.check.module_checker import ModuleChecker

    assert info.tree is not None
    # Top-level definitions not to check: the unchanged ones.
    skip = {id(s) for s in info.tree.body if isinstance(s, _DEFS)} - {id(s) for s in changed}

    class TopChecker(ModuleChecker):
        """The full check's walk of the module, with its module-wide passes,
        that checks no top-level definition but the changed ones (the other
        statements run, for the flow they carry)."""

        def stmt(self, stmt: ast.stmt) -> None:
            if id(stmt) in skip:
                return
            super().stmt(stmt)

    return TopChecker(program, info)
