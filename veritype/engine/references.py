"""Find references and rename, across the project's files.

A reference is an occurrence of the name whose declaration (after imports
are followed, `queries.targets_at`) is the one under the cursor. Candidate
files are the open documents and the workspace's Python files that contain
the name's text; each occurrence is resolved by the same query as
go-to-definition, so an unrelated `x` in another scope is not counted.

Rename refuses (returns a reason) where it cannot be made safe: a name
declared outside the workspace (typeshed, site-packages), a dunder, a
keyword or non-identifier as the new name, or a new name already bound in
the declaring scope.
"""

from __future__ import annotations

import ast
import keyword
import os
import re
from dataclasses import dataclass

from veritype.engine.locate import Span
from veritype.engine.queries import Location, Target, cursor, location_of, targets_at
from veritype.engine.workspace import Snapshot


def _key(snap: Snapshot, t: Target) -> tuple[str, int, int] | None:
    loc = location_of(snap, t)
    if loc is None:
        return None
    return (loc.path, loc.span.start[0], loc.span.start[1])


def _identifier_at(snap: Snapshot, path: str, line: int, char: int) -> str | None:
    doc = snap.document(path)
    if doc is None:
        return None
    text = doc.line(line)
    for m in re.finditer(r"\w+", text):
        if m.start() <= char <= m.end():
            return m.group(0)
    return None


def references(snap: Snapshot, path: str, line: int, char: int, include_declaration: bool = True) -> list[Location]:
    return _scan(snap, path, line, char, include_declaration)[0]


def _scan(snap: Snapshot, path: str, line: int, char: int, include_declaration: bool = True) -> tuple[list[Location], int]:
    """The references, and how many `x.name` occurrences had a receiver of
    unknown type (they may be references too: a rename must not guess)."""
    name = _identifier_at(snap, path, line, char)
    cur = cursor(snap, path, line, char)
    if name is None or cur is None:
        return [], 0
    wanted = {k for t in targets_at(cur) if (k := _key(snap, t)) is not None}
    if not wanted:
        return [], 0
    unknown = 0
    from veritype.engine.outline import _project_files

    out: list[Location] = []
    seen: set[tuple[str, int, int]] = set()
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    for file in _project_files(snap):
        file = os.path.abspath(file)
        doc = snap.documents.get(file)
        try:
            text = doc.text if doc is not None else open(file, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        if name not in text:
            continue
        if doc is None and not _load(snap, file):
            continue
        for n, line_text in enumerate(text.splitlines()):
            for m in pattern.finditer(line_text):
                c = cursor(snap, file, n, m.start())
                if c is None or not _names_identifier(c.node, name):
                    continue
                keys = {k for t in targets_at(c) if (k := _key(snap, t)) is not None}
                if not keys and isinstance(c.node, ast.Attribute):
                    unknown += 1
                if keys & wanted:
                    key = (file, n, m.start())
                    is_decl = key in wanted
                    if key not in seen and (include_declaration or not is_decl):
                        seen.add(key)
                        out.append(Location(file, Span((n, m.start()), (n, m.end()))))
    return out, unknown


def _names_identifier(node: ast.AST | None, name: str) -> bool:
    """Is the cursor on an occurrence of `name` as a name (not in a string or comment)?"""
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.Attribute):
        return node.attr == name
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.arg):
        return node.arg == name
    if isinstance(node, ast.alias):
        return name in (node.asname, node.name.split(".")[-1])
    if isinstance(node, ast.keyword):
        return node.arg == name
    return False


def _load(snap: Snapshot, file: str) -> bool:
    """Make the workspace's program load `file` (a project module not open in the editor)."""
    from veritype.modules.discover import module_for_path

    if snap.module_of(file) is not None:
        return True
    module, _ = module_for_path(file, snap.options, snap.root)
    info = snap.program.get_module(module)
    return info is not None and os.path.abspath(info.path) == file


@dataclass(frozen=True)
class RenameResult:
    edits: dict[str, list[tuple[Span, str]]]
    refused: str | None = None


def prepare_rename(snap: Snapshot, path: str, line: int, char: int) -> Span | str:
    """The span of the name to rename, or why it cannot be renamed."""
    cur = cursor(snap, path, line, char)
    name = _identifier_at(snap, path, line, char)
    if cur is None or name is None or not _names_identifier(cur.node, name):
        return "No symbol to rename here"
    targets = targets_at(cur)
    if not targets:
        return "The name's declaration is not known"
    root = os.path.abspath(snap.root) + os.sep
    for t in targets:
        if t.module.path is None or not os.path.abspath(t.module.path).startswith(root) or t.module.origin in ("stdlib", "site", "stub-package"):
            return f'"{name}" is declared outside the workspace ({t.module.name})'
    if name.startswith("__") and name.endswith("__"):
        return f'"{name}" is a special name the language gives meaning to'
    doc = snap.document(path)
    text = doc.line(line) if doc else ""
    m = next(m for m in re.finditer(r"\w+", text) if m.start() <= char <= m.end())
    return Span((line, m.start()), (line, m.end()))


def rename(snap: Snapshot, path: str, line: int, char: int, new_name: str) -> RenameResult:
    prepared = prepare_rename(snap, path, line, char)
    if isinstance(prepared, str):
        return RenameResult({}, prepared)
    if not new_name.isidentifier() or keyword.iskeyword(new_name):
        return RenameResult({}, f'"{new_name}" is not a valid Python name')
    cur = cursor(snap, path, line, char)
    assert cur is not None
    for t in targets_at(cur):
        if _bound_in_scope_of(snap, t, new_name):
            return RenameResult({}, f'"{new_name}" is already bound where the name is declared')
    found, unknown = _scan(snap, path, line, char)
    if unknown and any(_is_member(t) for t in targets_at(cur)):
        return RenameResult({}, f'{unknown} use(s) of ".{_identifier_at(snap, path, line, char)}" have a receiver of unknown type; renaming would miss or wrongly change them')
    edits: dict[str, list[tuple[Span, str]]] = {}
    for loc in found:
        edits.setdefault(loc.path, []).append((loc.span, new_name))
    return RenameResult(edits)


def _is_member(t: Target) -> bool:
    """Is the declaration a class member (reached as `x.name`)?"""
    tree = t.module.tree
    if tree is None or t.node is None:
        return False
    return any(isinstance(c, ast.ClassDef) and any(s is t.node for s in ast.walk(c)) and t.node is not c for c in ast.walk(tree))


def _bound_in_scope_of(snap: Snapshot, t: Target, new_name: str) -> bool:
    """Is `new_name` bound in the scope that declares the target (a collision)?"""
    tree = t.module.tree
    node = t.node
    if tree is None or node is None:
        return False
    # The innermost def or class whose body holds the declaration.
    owner: ast.AST = tree
    for cand in ast.walk(tree):
        if isinstance(cand, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) and cand is not node:
            if any(sub is node for sub in ast.walk(cand)) and _deeper(cand, owner):
                owner = cand
    body = owner.body if hasattr(owner, "body") and isinstance(owner.body, list) else []
    names: set[str] = set()
    if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = owner.args
        names |= {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs + [v for v in (a.vararg, a.kwarg) if v]}
    for stmt in body:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                names.add(sub.id)
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(sub.name)
            elif isinstance(sub, ast.alias):
                names.add(sub.asname or sub.name.split(".")[0])
    return new_name in names


def _deeper(a: ast.AST, b: ast.AST) -> bool:
    return isinstance(b, ast.Module) or any(sub is a for sub in ast.walk(b))

