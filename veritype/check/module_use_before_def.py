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

_Pos = tuple[int, int]


def check_module_uses(checker: "ModuleChecker") -> None:
    tree = checker.info.tree
    if tree is None or checker.info.is_stub:
        return
    if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names) for n in tree.body):
        return
    # `global` is a statement: no need to visit the expressions (nor the
    # statements, in a source without the word).
    parsed = checker.info.parsed
    declared_global = ({name for n in walk_statements(tree) if isinstance(n, ast.Global) for name in n.names}
                       if parsed is None or "global" in parsed.source else set())
    first = _first_bindings(tree.body, parsed.word_lines(":=", "for") if parsed is not None else None)
    builtins = checker.program.get_module("builtins")
    for name_node in _immediate_reads(checker, tree.body):
        name = name_node.id
        bound = first.get(name)
        if bound is None or bound <= (name_node.lineno, name_node.col_offset):
            continue
        if name in declared_global or (name.startswith("__") and name.endswith("__")):
            continue
        if builtins is not None and name in builtins.symbols:
            continue
        checker.error(name_node, f'Name "{name}" is used before definition', "used-before-def")


def _first_bindings(body: list[ast.stmt], binding_lines: list[int] | None) -> dict[str, _Pos]:
    """The earliest position at which each module-level name is bound anywhere in
    module scope (any branch, loop or handler; walrus targets in comprehensions).

    `binding_lines`: the lines holding `:=` or `for` (None: not known). A name
    is bound inside an expression read (a statement's value, test, call...)
    only by a walrus or a comprehension's `for`, written in its span: one
    whose lines hold neither is not walked (syntax/word_lines.py)."""
    out: dict[str, _Pos] = {}

    def bind(name: str, node: ast.AST) -> None:
        pos = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if name not in out or pos < out[name]:
            out[name] = pos

    # An explicit stack, not recursion: a module may nest expressions thousands deep.
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, node)
            stack.extend(node.decorator_list)
            continue  # the body is another scope
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                bind(node.id, node)
            continue  # (nothing under it but its context)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                bind((a.asname or a.name).split(".")[0], node)
            continue  # (nothing under it but its names, bound here)
        if type(node) in CHILDLESS:  # (no name under it; most of a module's immediate code: a table's items)
            continue
        if isinstance(node, ast.ExceptHandler) and node.name:
            bind(node.name, node)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name, node)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bind(node.rest, node)
        if binding_lines is not None and isinstance(node, ast.stmt):
            # (Only a statement's own expressions are skipped: their positions
            # are exact; those inside an f-string may not be on Python < 3.12.)
            stack.extend(n for n in child_nodes(node)
                         if not (isinstance(n, ast.expr) and not isinstance(getattr(n, "ctx", None), (ast.Store, ast.Del))
                                 and not any_in_span(binding_lines, n.lineno, n.end_lineno)))
            continue
        stack.extend(child_nodes(node))
    return out


def _immediate_reads(checker: "ModuleChecker", body: list[ast.stmt]) -> list[ast.Name]:
    """The names read by module-level code that runs straight through, in order."""
    out: list[ast.Name] = []
    binder = checker.program.binder_for(checker.info)

    def expr(root: ast.AST | None) -> None:
        stack = [root] if root is not None else []
        while stack:  # explicit stack: expressions may nest thousands deep
            node = stack.pop()
            if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                continue
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    out.append(node)
                continue
            if type(node) in CHILDLESS or isinstance(node, (ast.Import, ast.ImportFrom)):
                continue  # (no name is read in these)
            stack.extend(child_nodes(node))

    def stmts(block: list[ast.stmt]) -> None:
        for stmt in block:
            if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match)) or type(stmt).__name__ == "TryStar":
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
