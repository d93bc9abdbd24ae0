"""Semantic tokens: names classified by what they are declared as.

Classes, functions, methods, parameters, type variables, modules and
variables, told apart by the symbol each name resolves to (imports
followed), not by spelling. Attributes are classified by the declaration
found in the receiver's class only where that is a plain lookup; the rest
stay unclassified (the editor's syntax colouring shows them).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S

from veritype.engine.locate import name_span
from veritype.engine.workspace import Snapshot

if TYPE_CHECKING:
    from veritype.evaluate.scopes import Scope

# The legend the server advertises; a token's type is an index into it.
TOKEN_TYPES = ["namespace", "class", "function", "method", "parameter", "typeParameter", "variable", "property"]
TOKEN_MODIFIERS = ["declaration", "readonly", "defaultLibrary"]
NAMESPACE, CLASS, FUNCTION, METHOD, PARAMETER, TYPE_PARAMETER, VARIABLE, PROPERTY = range(8)
DECLARATION, READONLY, DEFAULT_LIBRARY = 1, 2, 4

_TYPEVAR_MAKERS = {"TypeVar", "ParamSpec", "TypeVarTuple"}

Token = tuple[int, int, int, int, int]  # line, start char, length, type, modifiers


def semantic_tokens(snap: Snapshot, path: str) -> list[Token]:
    info = snap.module_of(path)
    doc = snap.document(path)
    if info is None or info.tree is None or doc is None:
        return []
    ev = snap.program.evaluator
    lines = doc.lines
    tokens: list[Token] = []

    def add(node: ast.AST, kind: int, mods: int = 0) -> None:
        span = name_span(node, lines)
        if span.start[0] == span.end[0] and span.end[1] > span.start[1]:
            tokens.append((span.start[0], span.start[1], span.end[1] - span.start[1], kind, mods))

    def classify(sym: S.Symbol, scope: "Scope", depth: int = 0) -> tuple[int, int] | None:
        if sym.kind in (S.MODULE_REF, S.FROM_IMPORT) and depth < 10:
            ref = ev.resolve_symbol(sym, scope)
            if ref.kind == "module":
                return NAMESPACE, 0
            if ref.kind == "class":
                return CLASS, DEFAULT_LIBRARY if ref.info is not None and ref.info.module.origin == "stdlib" else 0
            if ref.sym is not None and ref.scope is not None and ref.sym is not sym:
                return classify(ref.sym, ref.scope, depth + 1)
            return None
        if sym.kind == S.CLASS:
            return CLASS, 0
        if sym.kind == S.FUNC:
            return (METHOD if scope.kind == "class" else FUNCTION), 0
        if sym.kind == S.PARAM:
            return PARAMETER, 0
        if sym.kind == S.TYPE_PARAM:
            return TYPE_PARAMETER, 0
        if sym.kind == S.TYPE_ALIAS:
            return CLASS, 0
        node = sym.node
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            func = node.value.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in _TYPEVAR_MAKERS:
                return TYPE_PARAMETER, 0
        if sym.kind == S.VAR:
            return (PROPERTY if scope.kind == "class" else VARIABLE), (READONLY if sym.name.isupper() else 0)
        return None

    def visit(node: ast.AST, scope: "Scope", body_only: bool = False) -> None:
        from veritype.evaluate.functions import function_scope

        children = list(node.body) if body_only else ast.iter_child_nodes(node)  # type: ignore[attr-defined]
        for child in children:
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                add(child, METHOD if scope.kind == "class" else FUNCTION, DECLARATION)
                for dec in child.decorator_list:
                    visit_expr(dec, scope)
                a = child.args
                for arg in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]:
                    add(arg, PARAMETER, DECLARATION)
                    if arg.annotation is not None:
                        visit_expr(arg.annotation, scope)
                for default in a.defaults + [d for d in a.kw_defaults if d is not None]:
                    visit_expr(default, scope)
                if child.returns is not None:
                    visit_expr(child.returns, scope)
                try:
                    inner = function_scope(ev, child, scope)
                except Exception:  # noqa: BLE001 - a body we cannot scope is left uncoloured
                    continue
                visit(child, inner, body_only=True)
                continue
            if isinstance(child, ast.ClassDef):
                add(child, CLASS, DECLARATION)
                for expr in child.decorator_list + child.bases + [k.value for k in child.keywords]:
                    visit_expr(expr, scope)
                sym = scope.table.get(child.name)
                if sym is not None and isinstance(sym.node, ast.ClassDef):
                    cls = ev.class_info_of(sym, scope)
                    if cls.node is child:
                        visit(child, cls.scope, body_only=True)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for alias in child.names:
                    bound = alias.asname or (alias.name.split(".")[0] if isinstance(child, ast.Import) else alias.name)
                    sym = scope.table.get(bound)
                    kind = classify(sym, scope) if sym is not None and hasattr(alias, "lineno") else None
                    if kind is not None:
                        add(alias, kind[0], kind[1])
                continue
            if isinstance(child, ast.expr):
                visit_expr(child, scope)
            else:
                visit(child, scope)

    def visit_expr(expr: ast.AST, scope: "Scope") -> None:
        for sub in ast.walk(expr):
            if isinstance(sub, ast.Name):
                hit = ev.lookup(sub.id, scope)
                if hit is None:
                    continue
                kind = classify(*hit)
                if kind is not None:
                    mods = kind[1]
                    if hit[1].module.name == "builtins":
                        mods |= DEFAULT_LIBRARY
                    add(sub, kind[0], mods)

    try:
        visit(info.tree, ev.module_scope(info))
    except RecursionError:
        pass
    tokens.sort()
    # Tokens must not overlap: keep the first of any two at one place.
    unique: list[Token] = []
    for tok in tokens:
        if unique and unique[-1][0] == tok[0] and unique[-1][1] + unique[-1][2] > tok[1]:
            continue
        unique.append(tok)
    return unique


def encode(tokens: list[Token]) -> list[int]:
    """LSP's relative encoding: (delta line, delta start, length, type, modifiers) per token."""
    data: list[int] = []
    prev_line = prev_start = 0
    for line, start, length, kind, mods in tokens:
        delta_line = line - prev_line
        delta_start = start - prev_start if delta_line == 0 else start
        data += [delta_line, delta_start, length, kind, mods]
        prev_line, prev_start = line, start
    return data
