"""Questions about a position in an open document: its type, its definition.

The query API the language server calls (DESIGN.md: server above engine).
Every function takes a `Snapshot`, a path and an engine position (0-based
line, character in the line's str) and answers in the same units. They
answer None or [] where they do not understand a construct, and never raise
on bad positions (principle 4: silence where unsure).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.scopes import Scope
from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol
from veritype.types.format import format_revealed
from veritype.types.model import (
    AnyType, CallableType, Instance, LiteralType, ModuleType, Overloaded, TupleType, Type, TypeType, UnionType,
)

from veritype.engine.locate import Span, name_span, node_chain, span_of
from veritype.engine.probe import _body_scope, probe
from veritype.engine.workspace import Snapshot

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo


@dataclass(frozen=True)
class Location:
    path: str
    span: Span


@dataclass(frozen=True)
class Hover:
    text: str  # Markdown
    span: Span


@dataclass
class Cursor:
    """The syntax under a position of an open document, and its module."""

    snap: Snapshot
    path: str
    info: "ModuleInfo"
    lines: list[str]
    chain: list[ast.AST]

    @property
    def node(self) -> ast.AST | None:
        return self.chain[-1] if self.chain else None

    def scope(self) -> Scope:
        from veritype.engine.locate import enclosing_bodies

        return _body_scope(self.snap.program, self.info, enclosing_bodies(self.chain))[0]

    def type_of(self, node: ast.expr) -> Type | None:
        """`node`'s type at this point, narrowed (see engine.probe)."""
        index = next((i for i, n in enumerate(self.chain) if n is node), None)
        chain = self.chain[: index + 1] if index is not None else self.chain + [node]
        result = probe(self.snap.program, self.info, chain)
        t = result.types.get(id(node))
        if t is None and isinstance(node, (ast.Name, ast.Attribute)):
            # Not inferred by the walk: an assignment target (its type after the
            # statement, as `reveal_type` on the next line says it), or a bare
            # name the statement rules do not evaluate.
            load: ast.expr = ast.Name(node.id, ast.Load()) if isinstance(node, ast.Name) else ast.Attribute(node.value, node.attr, ast.Load())
            ast.copy_location(load, node)
            try:
                t = ExprEvaluator(result.checker.ev, result.scope, result.flow, None).infer(load)
            except Exception:  # noqa: BLE001 - a query never takes the server down
                t = None
        return t


def cursor(snap: Snapshot, path: str, line: int, char: int) -> Cursor | None:
    path = os.path.abspath(path)
    info = snap.module_of(path)
    doc = snap.document(path)
    if info is None or info.tree is None or doc is None:
        return None
    return Cursor(snap, path, info, doc.lines, node_chain(info.tree, doc.lines, line, char))


# -- what a name refers to ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A declaration: a symbol's declaring node in a module (node None: the module itself)."""

    module: "ModuleInfo"
    node: ast.AST | None
    symbol: Symbol | None = None


def _decl_targets(sym: Symbol, module: "ModuleInfo") -> list[Target]:
    nodes = [d for d in sym.decls if hasattr(d, "lineno")] or ([sym.node] if sym.node is not None else [])
    return [Target(module, n, sym) for n in nodes]


def _follow(snap: Snapshot, sym: Symbol, scope: Scope) -> list[Target]:
    """The declarations `sym` names after imports are followed."""
    ev = snap.program.evaluator
    ref = ev.resolve_symbol(sym, scope)
    if ref.kind == "module" and ref.module is not None:
        return [Target(ref.module, None)]
    if ref.kind == "class" and ref.info is not None and ref.info.node is not None:
        return [Target(ref.info.module, ref.info.node, ref.sym)]
    if ref.sym is not None and ref.scope is not None:
        return _decl_targets(ref.sym, ref.scope.module)
    return []


def _members(snap: Snapshot, t: Type, attr: str) -> list[Target]:
    """Where attribute `attr` of a value of type `t` is declared (first class of the MRO)."""
    ev = snap.program.evaluator
    out: list[Target] = []
    for item in (t.items if isinstance(t, UnionType) else (t,)):
        if isinstance(item, TypeType):
            item = item.item
        if isinstance(item, (LiteralType, TupleType)):
            item = item.fallback
        if isinstance(item, ModuleType):
            mod = snap.program.get_module(item.name)
            sym = snap.program.lookup_in_module(mod, attr, from_import=True) if mod is not None else None
            if sym is not None and mod is not None:
                out += _follow(snap, sym, ev.module_scope_of_symbol(mod, sym))
            elif mod is not None and snap.program.get_module(f"{mod.name}.{attr}") is not None:
                sub = snap.program.get_module(f"{mod.name}.{attr}")
                out.append(Target(sub, None))  # type: ignore[arg-type]
            continue
        if not isinstance(item, Instance):
            continue
        for cls in item.info.mro:
            sym = cls.symbols.get(attr)
            if sym is not None:
                out += _follow(snap, sym, cls.scope)
                break
    unique: dict[tuple[str, int], Target] = {}
    for tgt in out:
        unique.setdefault((tgt.module.path, id(tgt.node)), tgt)
    return list(unique.values())


def targets_at(cur: Cursor, follow_imports: bool = True) -> list[Target]:
    """What the name under the cursor is declared as."""
    node = cur.node
    if node is None:
        return []
    ev = cur.snap.program.evaluator
    scope = cur.scope()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        sym = scope.table.get(node.name)
        return [Target(cur.info, node, sym)]
    if isinstance(node, ast.arg):
        return [Target(cur.info, node)]
    if isinstance(node, ast.alias):
        return _alias_targets(cur, node)
    if isinstance(node, ast.keyword) and node.arg is not None and len(cur.chain) >= 2 and isinstance(cur.chain[-2], ast.Call):
        return _keyword_targets(cur, cur.chain[-2], node.arg)
    if isinstance(node, ast.Name):
        hit = ev.lookup(node.id, scope)
        if hit is None:
            return []
        sym, where = hit
        if not follow_imports or sym.kind not in (S.MODULE_REF, S.FROM_IMPORT):
            return _decl_targets(sym, where.module)
        return _follow(cur.snap, sym, where)
    if isinstance(node, ast.Attribute):
        base = cur.type_of(node.value)
        return _members(cur.snap, base, node.attr) if base is not None else []
    return []


def _alias_targets(cur: Cursor, node: ast.alias) -> list[Target]:
    program = cur.snap.program
    stmt = next((n for n in reversed(cur.chain) if isinstance(n, (ast.Import, ast.ImportFrom))), None)
    if isinstance(stmt, ast.Import):
        mod = program.get_module(node.name)
        return [Target(mod, None)] if mod is not None else []
    if isinstance(stmt, ast.ImportFrom):
        base = _absolute_module(cur, stmt)
        mod = program.get_module(base) if base else None
        if mod is None:
            return []
        sub = program.get_module(f"{mod.name}.{node.name}")
        sym = program.lookup_in_module(mod, node.name, from_import=True)
        if sym is not None:
            return _follow(cur.snap, sym, program.evaluator.module_scope_of_symbol(mod, sym))
        return [Target(sub, None)] if sub is not None else []
    return []


def _absolute_module(cur: Cursor, stmt: ast.ImportFrom) -> str:
    if not stmt.level:
        return stmt.module or ""
    parts = cur.info.name.split(".")
    if not cur.info.is_package:
        parts = parts[:-1]
    if stmt.level > 1:
        parts = parts[: len(parts) - (stmt.level - 1)]
    return ".".join(parts + ([stmt.module] if stmt.module else []))


def _keyword_targets(cur: Cursor, call: ast.Call, name: str) -> list[Target]:
    func = call.func
    chain = cur.chain[:-2] + [call, func]
    sub = Cursor(cur.snap, cur.path, cur.info, cur.lines, chain)
    out: list[Target] = []
    for tgt in targets_at(sub):
        node = tgt.node
        if isinstance(node, ast.ClassDef):
            init = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"), None)
            node = init
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = node.args
            for arg in a.posonlyargs + a.args + a.kwonlyargs:
                if arg.arg == name:
                    out.append(Target(tgt.module, arg))
    return out


def location_of(snap: Snapshot, tgt: Target) -> Location | None:
    if tgt.module.path is None or not os.path.isfile(tgt.module.path):
        return None
    if tgt.node is None or not hasattr(tgt.node, "lineno"):
        return Location(os.path.abspath(tgt.module.path), Span((0, 0), (0, 0)))
    doc = snap.document(tgt.module.path)
    lines = doc.lines if doc is not None else []
    node = tgt.node
    if tgt.symbol is not None and isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        # `x = ...`, `for x in`, `import x`: the name the statement binds, not the statement.
        node = _bound_name(node, tgt.symbol.name) or node
    return Location(os.path.abspath(tgt.module.path), name_span(node, lines))


def _bound_name(stmt: ast.stmt, name: str) -> ast.AST | None:
    for sub in ast.walk(stmt):
        if isinstance(sub, ast.Name) and sub.id == name and isinstance(sub.ctx, ast.Store):
            return sub
        if isinstance(sub, ast.Attribute) and sub.attr == name and isinstance(sub.ctx, ast.Store):
            return _attr_name(sub)
        if isinstance(sub, ast.alias) and (sub.asname or sub.name.split(".")[0]) == name and hasattr(sub, "lineno"):
            return sub
    return None


class _attr_name(ast.AST):
    """The `attr` part of `a.attr`, located (for ranges)."""

    def __init__(self, node: ast.Attribute) -> None:
        super().__init__()
        self.lineno = node.end_lineno or node.lineno
        self.end_lineno = self.lineno
        self.end_col_offset = node.end_col_offset or 0
        self.col_offset = self.end_col_offset - len(node.attr.encode("utf-8"))


# -- the queries ---------------------------------------------------------------------------------------


def definition(snap: Snapshot, path: str, line: int, char: int) -> list[Location]:
    cur = cursor(snap, path, line, char)
    if cur is None:
        return []
    return [loc for t in targets_at(cur) if (loc := location_of(snap, t)) is not None]


def declaration(snap: Snapshot, path: str, line: int, char: int) -> list[Location]:
    """Where the name is bound in its own scope (an import stays an import)."""
    cur = cursor(snap, path, line, char)
    if cur is None:
        return []
    return [loc for t in targets_at(cur, follow_imports=False) if (loc := location_of(snap, t)) is not None]


def type_definition(snap: Snapshot, path: str, line: int, char: int) -> list[Location]:
    cur = cursor(snap, path, line, char)
    if cur is None or not isinstance(cur.node, ast.expr):
        return []
    t = cur.type_of(cur.node)
    out: list[Location] = []
    for item in (t.items if isinstance(t, UnionType) else (t,)) if t is not None else ():
        if isinstance(item, TypeType):
            item = item.item
        if isinstance(item, (LiteralType, TupleType)):
            item = item.fallback
        if isinstance(item, Instance) and item.info.node is not None:
            loc = location_of(snap, Target(item.info.module, item.info.node))
            if loc is not None:
                out.append(loc)
    return out


def _signature_text(name: str, node: ast.AST, t: Type | None) -> str:
    if isinstance(node, ast.ClassDef):
        return f"class {name}"
    items = t.items if isinstance(t, Overloaded) else ((t,) if isinstance(t, CallableType) else ())
    if not items:
        return f"{name}: {format_revealed(t)}" if t is not None else f"def {name}(...)"
    lines = []
    for c in items:
        shown = format_revealed(c)  # `def (x: int) -> str`
        prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) and shown.startswith("def ") else "def"
        lines.append(prefix + " " + name + shown[len("def ") :] if shown.startswith("def ") else f"{name}: {shown}")
    return "\n".join(lines)


def hover(snap: Snapshot, path: str, line: int, char: int) -> Hover | None:
    cur = cursor(snap, path, line, char)
    if cur is None or cur.node is None:
        return None
    node = cur.node
    doc: str | None = None
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        span = name_span(node, cur.lines)
        if not (span.start <= (line, char) <= span.end):
            return None
        sym = cur.scope().table.get(node.name)
        t = cur.snap.program.evaluator.symbol_type(sym, cur.scope()) if sym is not None and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
        text = _signature_text(node.name, node, t)
        doc = ast.get_docstring(node)
    elif isinstance(node, ast.arg):
        t = _param_type(cur, node)
        span = name_span(node, cur.lines)
        text = f"{node.arg}: {format_revealed(t)}" if t is not None else node.arg
    elif isinstance(node, ast.alias):
        return _declared_hover(cur, node)
    elif isinstance(node, (ast.Name, ast.Attribute)) or isinstance(node, ast.expr) and not isinstance(node, ast.Constant):
        t = cur.type_of(node)
        if t is None:
            return _declared_hover(cur, node)
        span = span_of(node, cur.lines)
        label = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        text = format_revealed(t)
        declared = targets_at(cur) if label is not None else []
        decl_node = declared[0].node if declared else None
        if label is not None and isinstance(decl_node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = _signature_text(label, decl_node, t)
            doc = ast.get_docstring(decl_node)
        elif label is not None and isinstance(t, ModuleType):
            text = f"module {t.name}"
            doc = ast.get_docstring(declared[0].module.tree) if declared and declared[0].module.tree is not None else None
        elif label is not None:
            text = f"{label}: {text}"
        if isinstance(node, ast.Attribute):
            # The cursor is on the attribute name: the range is that name, not `a.b`.
            end = span.end
            span = Span((end[0], max(end[1] - len(node.attr), 0)), end)
    else:
        return None
    body = f"```python\n{text}\n```"
    if doc:
        body += "\n---\n" + doc
    return Hover(body, span)


def _declared_hover(cur: Cursor, node: ast.AST) -> Hover | None:
    """A name the walk did not infer (in an annotation, a decorator of a
    skipped body): what it is declared as."""
    if not isinstance(node, (ast.Name, ast.Attribute, ast.alias)):
        return None
    label = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else node.name.rpartition(".")[2]
    found = targets_at(cur)
    if not found:
        return None
    tgt = found[0]
    span = name_span(node, cur.lines) if isinstance(node, ast.alias) else span_of(node, cur.lines)
    doc = None
    if tgt.node is None:
        text = f"module {tgt.module.name}"
    elif isinstance(tgt.node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        t = None
        if tgt.symbol is not None and not isinstance(tgt.node, ast.ClassDef):
            t = cur.snap.program.evaluator.symbol_type(tgt.symbol, cur.snap.program.evaluator.module_scope(tgt.module))
        text = _signature_text(label, tgt.node, t)
        doc = ast.get_docstring(tgt.node)
    elif tgt.symbol is not None and tgt.symbol.kind == S.VAR and tgt.module.name in ("typing", "typing_extensions"):
        text = f"{tgt.module.name}.{label}"  # a special form
    else:
        return None
    body = f"```python\n{text}\n```" + (f"\n---\n{doc}" if doc else "")
    return Hover(body, span)


def _param_type(cur: Cursor, node: ast.arg) -> Type | None:
    from veritype.evaluate.functions import function_scope

    func = next((n for n in reversed(cur.chain) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if func is None:
        return None
    parent_chain = cur.chain[: cur.chain.index(func)]
    from veritype.engine.locate import enclosing_bodies

    parent = _body_scope(cur.snap.program, cur.info, enclosing_bodies(parent_chain + [func]))[0]
    scope = function_scope(cur.snap.program.evaluator, func, parent)
    t = scope.param_types.get(node.arg)
    if t is None and node.annotation is None:
        return AnyType("unannotated")
    return t if isinstance(t, Type) else None
