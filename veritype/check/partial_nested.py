"""An empty collection of a function completed inside a nested function or class.

mypy checks a nested function's body where its `def` stands in the enclosing
function, so `rec = []` followed by

    def configure(config: Config) -> None:
        rec.append(make_recorder(config))

completes `rec` to `list[Recorder]` there, as an `append` in the enclosing
body would (pytest's `Pytester.inline_run`, a plugin class whose method
appends; mypy 2.4.1 reveals the completed type after the `def`). A
module-level collection is not completed from a function (mypy asks for an
annotation), nor is one read before the nested definition.

Only the sure shape is modelled: the first mention of the variable after the
assignment is a `def` or `class` in the same block, and inside it (through
nested classes and their methods) the first mention is a completing statement
at the top of a function body, after nothing but expression statements, so no
narrowing inside the nested function can change the argument's type. The
argument is evaluated in the nested function's own scope. Anything else
leaves the collection as it was (`list[Any]`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.partial_types import Completion, _completing, _find_block, _first_use, _mentions, argument_of

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.scopes import Scope
    from veritype.types.model import Type

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def nested_completion(checker: "ModuleChecker", body: list[ast.stmt], assign: ast.stmt, key: tuple[str, ...], kind: str) -> "tuple[str, Type | tuple[Type, Type]] | None":
    """(role, argument type) of the completing statement in a nested definition, or None."""
    if len(key) != 1 or checker.scope.kind != "function":
        return None
    hit = _find_block(body, assign)
    if hit is None:
        return None
    block, i = hit
    for stmt in block[i + 1:]:
        r = _first_use([stmt], key, kind)
        if r is None:
            continue
        if r is not False or not isinstance(stmt, (*_FUNCS, ast.ClassDef)):
            return None
        found = _inside(checker, stmt, checker.scope, key, kind)
        if found is None:
            return None
        scope, comp = found
        from veritype.evaluate.expressions import ExprEvaluator

        try:
            return comp.role, argument_of(ExprEvaluator(checker.ev, scope, None, None), kind, comp)
        except RecursionError:
            return None
    return None


def _inside(checker: "ModuleChecker", node: ast.stmt, parent: "Scope", key: tuple[str, ...], kind: str) -> "tuple[Scope, Completion] | None":
    """The scope and completion where `node` (a def or class mentioning the variable) completes it."""
    ev = checker.ev
    if isinstance(node, ast.ClassDef):
        if any(_mentions(n, key) for n in [*node.decorator_list, *node.bases, *node.keywords]):
            return None
        sym = parent.table.get(node.name)
        if sym is None or sym.node is not node:
            return None
        scope = ev.class_info_of(sym, parent).scope
        for stmt in node.body:
            if isinstance(stmt, (*_FUNCS, ast.ClassDef)) and _mentions(stmt, key):
                return _inside(checker, stmt, scope, key, kind)
            if _mentions(stmt, key):
                return None
        return None
    assert isinstance(node, _FUNCS)
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, *([args.vararg] if args.vararg else []), *([args.kwarg] if args.kwarg else [])]
    if any(p.arg == key[0] for p in params):
        return None  # a parameter of that name: another variable
    header = [*node.decorator_list, *args.defaults, *[d for d in args.kw_defaults if d is not None]]
    if any(_mentions(n, key) for n in header):
        return None
    for stmt in node.body:
        comp = _completing(stmt, key, kind)
        if comp is not None:
            from veritype.evaluate.functions import function_scope

            return function_scope(ev, node, parent), comp
        if not isinstance(stmt, (ast.Expr, ast.Pass)) or _mentions(stmt, key):
            return None
    return None
