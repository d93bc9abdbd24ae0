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

from veritype.syntax.walk import child_nodes
from veritype.syntax.word_lines import any_in_span, span_start

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.syntax.parse import ParsedFile

# The kinds of scope an expression can be evaluated in.
_MODULE, _CLASS, _DEF, _ASYNC = "module", "class", "def", "async"


def check_await_placement(checker: "ModuleChecker", tree: ast.Module, parsed: "ParsedFile") -> None:
    # Most modules use neither keyword: they need no walk at all.
    source = parsed.source
    if "await" not in source and "async" not in source:
        return
    _Walker(checker, parsed.keyword_lines("await", "async")).visit_body(tree.body, _MODULE)


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
            if lines is not None and isinstance(node, ast.stmt) and not any_in_span(lines, span_start(node), node.end_lineno):
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._outer_parts(node, stack, scope)
                inner = _ASYNC if isinstance(node, ast.AsyncFunctionDef) else _DEF
                stack.extend((s, inner) for s in reversed(node.body))
                continue
            if isinstance(node, ast.Lambda):
                stack.extend((d, scope) for d in _defaults(node.args))
                stack.append((node.body, _DEF))
                continue
            if isinstance(node, ast.ClassDef):
                stack.extend((e, scope) for e in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)])
                stack.extend((s, _CLASS) for s in reversed(node.body))
                continue
            if isinstance(node, ast.Await):
                if scope in (_MODULE, _CLASS):
                    self.checker.error(node, '"await" outside function', "top-level-await")
                elif scope == _DEF:
                    self.checker.error(node, '"await" outside coroutine ("async def")', "await-not-async")
            elif scope != _ASYNC:
                if isinstance(node, ast.AsyncFor):
                    self.checker.error(node, '"async for" outside async function', "syntax")
                elif isinstance(node, ast.AsyncWith):
                    self.checker.error(node, '"async with" outside async function', "syntax")
                elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp)) and any(g.is_async for g in node.generators):
                    self.checker.error(node, '"async for" outside async function', "syntax")
            stack.extend((child, scope) for child in reversed(list(child_nodes(node))))

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
