"""A module-level name read before the module binds it: `used-before-def`.

Module code runs top to bottom; a global name read by a statement that runs
before the first statement binding it raises NameError (Python's execution
model, "Resolution of names"). mypy reports it as `Name "x" is used before
definition` [used-before-def]; so does veritype, for the sure cases only:

- only reads that run when the module is imported, at module level: not in
  function or lambda bodies, class bodies, comprehensions, annotations (a
  forward reference there is fine for a type checker), loops (a later
  iteration may see the binding), `try` statements (a NameError handler is a
  known idiom), `match` statements, or branches that cannot run
  (`if TYPE_CHECKING:`, a version check that fails);
- a def's decorators and defaults and a class's decorators, bases and
  keywords run with the statement, so they count;
- every binding of the name at module level comes after the read; the name
  is not a builtin, not a dunder, not declared `global` anywhere, and the
  module has no star import (any of those may bind it earlier).

Function scopes are not checked here (veritype does not report
`used-before-def` there yet).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.syntax.statements import walk_statements
from veritype.syntax.walk import CHILDLESS, child_nodes
from veritype.syntax.word_lines import any_in_span

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.syntax.parse import ParsedFile

_Pos = tuple[int, int]
_Name, _Lambda, _Load = ast.Name, ast.Lambda, ast.Load
_STORE_CONTEXTS = frozenset({ast.Store, ast.Del})
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_IMPORTS = frozenset({ast.Import, ast.ImportFrom})
# The nodes binding the name in a field of their own (`except E as name`, `case
# [*name]`, `case {**name}`; `MatchMapping`'s field is `rest`).
_NAMED = frozenset({ast.ExceptHandler, ast.MatchAs, ast.MatchStar, ast.MatchMapping})
_STATEMENTS = frozenset(ast.stmt.__subclasses__())
_EXPRESSIONS = frozenset(ast.expr.__subclasses__())
# What `_immediate_reads` does not look into: scopes of their own, which do not
# run with the statement (comprehensions too), and nodes holding no name.
_NOT_READ = frozenset({ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                       ast.Import, ast.ImportFrom, *CHILDLESS})
# Module-level statements whose reads are not checked (see the module docstring).
_SKIPPED = frozenset({ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match}
                     | ({ast.TryStar} if hasattr(ast, "TryStar") else set()))


def check_module_uses(checker: "ModuleChecker") -> None:
    tree = checker.info.tree
    if tree is None or checker.info.is_stub:
        return
    for n in tree.body:  # (loops, not `any()` over generators: one per module statement)
        if type(n) is ast.ImportFrom:
            for a in n.names:
                if a.name == "*":
                    return
    parsed = checker.info.parsed
    declared_global: set[str] | None = None  # (found when first needed: most modules read nothing early)
    first = _first_bindings(tree.body, parsed.binding_expression_lines() if parsed is not None else None)
    builtins = checker.program.get_module("builtins")
    for name_node in _immediate_reads(checker, tree.body):
        name = name_node.id
        bound = first.get(name)
        if bound is None or bound <= (name_node.lineno, name_node.col_offset):
            continue
        if name.startswith("__") and name.endswith("__"):
            continue
        if declared_global is None:
            declared_global = _declared_global(tree, parsed)
        if name in declared_global:
            continue
        if builtins is not None and name in builtins.symbols:
            continue
        checker.error(name_node, f'Name "{name}" is used before definition', "used-before-def")


def _declared_global(tree: ast.Module, parsed: "ParsedFile | None") -> set[str]:
    """The names declared `global` anywhere in the module. `global` is a
    statement: no need to visit the expressions (nor the statements, in a
    source whose lines hold no such keyword)."""
    lines = parsed.keyword_lines("global") if parsed is not None else None
    if lines is not None and not lines:
        return set()
    return {name for n in walk_statements(tree) if type(n) is ast.Global for name in n.names}  # type: ignore[attr-defined]


def _first_bindings(body: list[ast.stmt], binding_lines: list[int] | None) -> dict[str, _Pos]:
    """The earliest position at which each module-level name is bound anywhere in
    module scope (any branch, loop or handler; walrus targets in comprehensions).

    `binding_lines`: the lines holding `:=` or the keyword `for` (None: not
    known). A name is bound inside an expression read (a statement's value,
    test, call...) only by a walrus or a comprehension's `for`, written in its
    span: one whose lines hold neither is not walked (syntax/word_lines.py)."""
    out: dict[str, _Pos] = {}

    def bind(name: str, node: ast.AST) -> None:
        pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if name not in out or pos < out[name]:
            out[name] = pos

    # An explicit stack, not recursion: a module may nest expressions thousands deep.
    # One branch by the node's class (a parse's nodes are never of a subclass).
    stack: list[ast.AST] = list(reversed(body))
    pop, extend = stack.pop, stack.extend
    childless, stores = CHILDLESS, _STORE_CONTEXTS
    while stack:
        node = pop()
        kind = type(node)
        if kind is _Name:
            if type(node.ctx) in stores:  # type: ignore[attr-defined]
                bind(node.id, node)  # type: ignore[attr-defined]
            continue  # (nothing under it but its context)
        if kind in childless:  # (no name under it; most of a module's immediate code: a table's items)
            continue
        if kind in _DEFINITIONS:
            bind(node.name, node)  # type: ignore[attr-defined]
            extend(node.decorator_list)  # type: ignore[attr-defined]
            continue  # the body is another scope
        if kind is _Lambda:
            continue
        if kind in _IMPORTS:
            for a in node.names:  # type: ignore[attr-defined]
                bind((a.asname or a.name).split(".")[0], node)
            continue  # (nothing under it but its names, bound here)
        if kind in _NAMED:
            name = node.rest if kind is ast.MatchMapping else node.name  # type: ignore[attr-defined]
            if name:
                bind(name, node)
        if binding_lines is not None and kind in _STATEMENTS:
            # (Only a statement's own expressions are skipped: their positions
            # are exact; those inside an f-string may not be on Python < 3.12.)
            for n in child_nodes(node):
                if (type(n) in _EXPRESSIONS and type(getattr(n, "ctx", None)) not in stores
                        and not any_in_span(binding_lines, n.lineno, n.end_lineno)):  # type: ignore[attr-defined]
                    continue
                stack.append(n)
            continue
        extend(child_nodes(node))
    return out


def _immediate_reads(checker: "ModuleChecker", body: list[ast.stmt]) -> list[ast.Name]:
    """The names read by module-level code that runs straight through, in order."""
    out: list[ast.Name] = []
    binder = checker.program.binder_for(checker.info)

    def expr(root: ast.AST | None) -> None:
        stack = [root] if root is not None else []
        while stack:  # explicit stack: expressions may nest thousands deep
            node = stack.pop()
            kind = type(node)
            if kind is _Name:
                if type(node.ctx) is _Load:  # type: ignore[attr-defined]
                    out.append(node)  # type: ignore[arg-type]
                continue
            if kind in _NOT_READ:
                continue  # (no name is read in these, or not now)
            stack.extend(child_nodes(node))

    def stmts(block: list[ast.stmt]) -> None:
        for stmt in block:
            if type(stmt) in _SKIPPED:
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for d in stmt.decorator_list:
                    expr(d)
                for default in [*stmt.args.defaults, *stmt.args.kw_defaults]:
                    expr(default)
                continue
            if isinstance(stmt, ast.ClassDef):
                for d in stmt.decorator_list:
                    expr(d)
                # PEP 695: the bases and keywords of `class C[T](Base[T])` are read in
                # the type parameters' scope, where T is the parameter.
                own = {p.name for p in getattr(stmt, "type_params", None) or []}
                start = len(out)
                for d in [*stmt.bases, *(k.value for k in stmt.keywords)]:
                    expr(d)
                out[start:] = [n for n in out[start:] if n.id not in own]
                continue
            if isinstance(stmt, ast.If):
                # A condition the checker decides statically (TYPE_CHECKING, a version
                # or platform check) may go the other way at run time: skipped whole.
                if binder.static_branch(stmt.test) is None:
                    expr(stmt.test)
                    stmts(stmt.body)
                    stmts(stmt.orelse)
                continue
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    expr(item.context_expr)
                stmts(stmt.body)
                continue
            if isinstance(stmt, ast.AnnAssign):
                expr(stmt.value)  # the annotation is a type expression, read lazily
                continue
            if type(stmt).__name__ == "TypeAlias":
                continue  # `type X = ...` is evaluated lazily
            expr(stmt)

    stmts(body)
    return out
