"""Where `await`, `async for` and `async with` may stand.

mypy reports these while binding names (so also in unannotated and
unreachable code), and so does this pass, over the whole syntax tree:

* `await` whose innermost enclosing scope is the module or a class body:
  `"await" outside function` [top-level-await] (a code of its own, so that
  notebook-style code can disable it);
* `await` in a plain `def` or a lambda (a comprehension or generator
  expression belongs to its enclosing function): `"await" outside coroutine
  ("async def")` [await-not-async];
* an `async for`/`async with` statement, or an asynchronous list, set or
  dict comprehension, outside an `async def`: `"async for" outside async
  function` [syntax] (Python refuses to compile it). An asynchronous
  generator expression is allowed anywhere, as in Python.

A default value, decorator or annotation of a function is evaluated in the
scope around it, so it is judged by that scope.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.syntax.walk import CHILDLESS, child_nodes
from veritype.syntax.word_lines import any_in_span, span_start

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.syntax.parse import ParsedFile

_STATEMENTS = frozenset(ast.stmt.__subclasses__())
_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
_LIST_COMPREHENSIONS = frozenset({ast.ListComp, ast.SetComp, ast.DictComp})
_CHILDLESS = CHILDLESS | {ast.Name}
# The kinds of scope an expression can be evaluated in.
_MODULE, _CLASS, _DEF, _ASYNC = "module", "class", "def", "async"


def check_await_placement(checker: "ModuleChecker", tree: ast.Module, parsed: "ParsedFile") -> None:
    # Most modules use neither keyword: they need no walk at all.
    source = parsed.source
    if "await" not in source and "async" not in source:
        return
    _Walker(checker, parsed.word_lines("await", "async")).visit_body(tree.body, _MODULE)


class _Walker:
    def __init__(self, checker: "ModuleChecker", lines: list[int] | None) -> None:
        self.checker = checker
        # The lines holding either keyword (None: not known): every node
        # reported here has one in its span, so a statement whose lines hold
        # neither is not walked (syntax/word_lines.py).
        self.lines = lines

    def visit_body(self, body: list[ast.stmt], scope: str) -> None:
        for stmt in body:
            self.visit(stmt, scope)

    def visit(self, node: ast.AST, scope: str) -> None:
        # An explicit stack: deeply nested expressions must not exhaust recursion.
        stack: list[tuple[ast.AST, str]] = [(node, scope)]
        lines = self.lines
        while stack:
            node, scope = stack.pop()
            # One branch by the node's class (a parse's nodes are never of a subclass).
            kind = type(node)
            if kind in _CHILDLESS:
                continue  # (a name, a constant: neither is reported nor holds anything)
            if lines is not None and kind in _STATEMENTS and not any_in_span(lines, span_start(node), node.end_lineno):  # type: ignore[arg-type, attr-defined]
                continue
            if kind in _DEFS:
                self._outer_parts(node, stack, scope)  # type: ignore[arg-type]
                inner = _ASYNC if kind is ast.AsyncFunctionDef else _DEF
                stack.extend((s, inner) for s in reversed(node.body))  # type: ignore[attr-defined]
                continue
            if kind is ast.Lambda:
                stack.extend((d, scope) for d in _defaults(node.args))  # type: ignore[attr-defined]
                stack.append((node.body, _DEF))  # type: ignore[attr-defined]
                continue
            if kind is ast.ClassDef:
                stack.extend((e, scope) for e in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)])  # type: ignore[attr-defined]
                stack.extend((s, _CLASS) for s in reversed(node.body))  # type: ignore[attr-defined]
                continue
            if kind is ast.Await:
                if scope in (_MODULE, _CLASS):
                    self.checker.error(node, '"await" outside function', "top-level-await")
                elif scope == _DEF:
                    self.checker.error(node, '"await" outside coroutine ("async def")', "await-not-async")
            elif scope != _ASYNC:
                if kind is ast.AsyncFor:
                    self.checker.error(node, '"async for" outside async function', "syntax")
                elif kind is ast.AsyncWith:
                    self.checker.error(node, '"async with" outside async function', "syntax")
                elif kind in _LIST_COMPREHENSIONS and any(g.is_async for g in node.generators):  # type: ignore[attr-defined]
                    self.checker.error(node, '"async for" outside async function', "syntax")
            stack.extend((child, scope) for child in reversed(child_nodes(node)))

    def _outer_parts(self, node: ast.FunctionDef | ast.AsyncFunctionDef, stack: list[tuple[ast.AST, str]], scope: str) -> None:
        """What of a `def` runs in the scope around it: decorators, defaults, annotations."""
        outer: list[ast.AST] = [*node.decorator_list, *_defaults(node.args)]
        args = node.args
        for a in [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []), *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]:
            if a.annotation is not None:
                outer.append(a.annotation)
        if node.returns is not None:
            outer.append(node.returns)
        stack.extend((e, scope) for e in outer)


def _defaults(args: ast.arguments) -> list[ast.expr]:
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
