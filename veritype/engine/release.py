"""Releasing the function bodies of a module once a one-shot check is done with it.

A `veritype check` keeps every loaded module to the end of the run: another
module checked later may ask for a declaration of this one (DESIGN.md
principle 2). What it may ask for is the module's interface: signatures,
class bodies, module-level declarations. The statements inside a checked
module's functions are read only while that module is checked, and they are
most of a run's syntax trees (bench/RESULTS.md, "Memory notes"). So after a
module's check (engine/checking.py, one-shot runs only: a watch, daemon or
language server keeps its trees for queries and edits) each function body
nobody else can read is replaced by one placeholder statement, and the scope
the evaluator bound for it (kept on the def node) is dropped with it.

A body stays when something outside the module's check may still read it:
- a method storing to an attribute of its first parameter (`self.x = ...`):
  the class's instance attributes are declared there, inferred in that
  method's scope and walked by the method walker (evaluate/declarations.py);
- `global` (the module symbol's declaration is inside), an import (the
  incremental cache's dependency walk reads function-level imports after
  every check: cache/closures.py; not in a worker process of
  engine/early_workers.py, which sends each module's imports to the parent
  when it loads it, before any release), a nested class (its ClassInfo and
  scope hang on the function's scope);
- a placeholder body (`...`, `pass`, `raise NotImplementedError`): the spec
  gives those meaning (protocol members, `[safe-super]`), and there is
  nothing to gain.
The facts other modules read from a released body are kept true: whether it
is a generator is settled on the node before (evaluate/functions.py), and
the placeholder is not a trivial body (syntax/bodies.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from veritype.syntax.bodies import is_trivial_body
from veritype.syntax.param_stores import first_param_stores, forget_param_stores
from veritype.syntax.statements import SIMPLE_STATEMENTS, block_fields
from veritype.syntax.word_lines import NOWHERE, any_in_span, span_start
from veritype.evaluate.functions import is_generator

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
# Statements that keep a body (see the module docstring).
_KEEPING = (ast.Global, ast.Import, ast.ImportFrom, ast.ClassDef)
_KEEPING_NO_IMPORTS = (ast.Global, ast.ClassDef)


def release_bodies(info: "ModuleInfo", keep_imports: bool = True) -> int:
    """Replace the releasable function bodies of a checked module; how many.
    `keep_imports`: a body with an import stays (see the module docstring)."""

    tree = info.tree
    if tree is None or info.is_stub:
        return 0
    released = 0
    keeping = _KEEPING if keep_imports else _KEEPING_NO_IMPORTS
    lines = _walk_lines(info, keep_imports)
    for node, in_class in _defs(tree.body, False):
        nested = _releasable(node, in_class, keeping, lines)
        # The stores to `self.x` were walked for the binder, the interface
        # digest and the test above, all done with this module: dropped, a
        # kept body's too (asked again, they are walked again).
        forget_param_stores(node)
        if nested is None:
            continue
        is_generator(node)  # settled on the node while the body is there
        # The end position stays on the node: the placeholder claims none.
        line, col = node.lineno, node.col_offset
        node.body = [ast.Expr(ast.Constant(None, lineno=line, col_offset=col), lineno=line, col_offset=col)]
        _forget_scope(node)
        for inner in nested:
            # Freed with the body unless something still holds them; a
            # signature kept on one is keyed by the id of a scope now gone.
            inner.__dict__.pop("_veritype_cache", None)
        released += 1
    return released


def _defs(body: list[ast.stmt], in_class: bool) -> Iterator[tuple[FuncDef, bool]]:
    """The defs of a module or class body, also under `if`/`try`/`with`/loops,
    with whether they are a class's; not those inside functions."""
    for stmt in body:
        if isinstance(stmt, _DEFS):
            yield stmt, in_class
        elif isinstance(stmt, ast.ClassDef):
            yield from _defs(stmt.body, True)
        elif type(stmt) not in SIMPLE_STATEMENTS and isinstance(stmt, ast.stmt):
            for name in ("body", "orelse", "finalbody"):
                yield from _defs(getattr(stmt, name, None) or [], in_class)
            for holder in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or []:
                yield from _defs(holder.body, in_class)


def _walk_lines(info: "ModuleInfo", keep_imports: bool) -> tuple[list[int], ...] | None:
    """The lines of the module's source that may hold a statement the walk
    of a body looks for (syntax/word_lines.py), by word: a nested `def` or
    `class`, a `global`, an import (where imports keep a body); None: not
    known. Found once for the file by its parse, and already by the check
    (redefinitions and module_use_before_def ask for the keywords; the
    cache's import graph asks for `import` after the run). Not merged into
    one list: sorting their union took longer than the walks it spared."""
    parsed = info.parsed
    if parsed is None:
        return None
    words = (parsed.keyword_lines("def", "class"), parsed.keyword_lines("global"),
             parsed.word_lines("import") if keep_imports else NOWHERE)
    return None if None in words else words  # type: ignore[return-value]


def _assigns_first_param(node: FuncDef) -> bool:
    """Whether a method stores to an attribute of its first parameter (a `del`
    is no store). A loop, not `any()` over a generator closed early: asked for
    each method body that may be released."""
    for stmt, _ in first_param_stores(node):
        if type(stmt) is not ast.Delete:
            return True
    return False


def _releasable(node: FuncDef, in_class: bool, keeping: tuple[type[ast.stmt], ...],
                lines: tuple[list[int], ...] | None = None) -> list[FuncDef] | None:
    """The defs nested in `node`'s body when the body may be released, else
    None. `lines`: `_walk_lines` of the module (None: not known)."""
    body = node.body
    if is_trivial_body(body):
        return None
    # A method assigning to `self.attr` (any target position, as the
    # walk shared with the binder and the interface digest found them:
    # syntax/param_stores.py; a `del` is no assignment) keeps its body. Wider
    # than the binder's instance attributes (semantic/binder.py): keeping a
    # body too many costs memory, releasing one too many would lose a declaration.
    if in_class and _assigns_first_param(node):
        return None
    # A body whose lines hold none of the keywords has no statement the walk
    # below looks for (each is written within its own lines, inside the
    # body's; most bodies): released, with no nested def.
    if lines is not None:
        first, last = span_start(body[0]), node.end_lineno
        for words in lines:
            if words and any_in_span(words, first, last):
                break
        else:
            return []
    # Every statement of the body at any depth (and the handlers and match
    # cases holding some), by an explicit stack: the answer does not depend
    # on the order, and a generator step for each was a third of the walk.
    nested: list[FuncDef] = []
    stack: list[ast.AST] = list(body)
    pop, extend, simple = stack.pop, stack.extend, SIMPLE_STATEMENTS
    while stack:
        sub = pop()
        kind = type(sub)
        if kind in simple:
            if kind in keeping:
                return None  # (an import or `global`)
            continue
        if kind in keeping:
            return None  # (a class)
        if kind in _DEFS:
            nested.append(sub)  # type: ignore[arg-type]
        for name in block_fields(kind):
            value = getattr(sub, name, None)
            if value:
                extend(value)
    return nested


def _forget_scope(node: FuncDef) -> None:
    """Drop the function scope the evaluator bound for the body (it holds the
    body's symbols and their nodes); the signatures stay."""
    cache = node.__dict__.get("_veritype_cache")
    if cache:
        for key in [k for k in cache if isinstance(k, tuple) and k[0] == "scope"]:
            del cache[key]
