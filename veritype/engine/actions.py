"""Code actions: quick fixes for diagnostics, as text edits.

- `# type: ignore[code]` on the diagnostic's line (merged into an ignore
  comment already there);
- `from module import Name` for a `Name "X" is not defined` where the
  project's files define `X` at top level.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass

from veritype.engine.locate import Span
from veritype.engine.workspace import Snapshot

_IGNORE = re.compile(r"#\s*type:\s*ignore(\[(?P<codes>[^\]]*)\])?")
_UNDEFINED = re.compile(r'Name "(?P<name>\w+)" is not defined')


@dataclass(frozen=True)
class Edit:
    span: Span
    text: str


@dataclass(frozen=True)
class Action:
    title: str
    edits: list[Edit]
    diagnostic: int  # index of the diagnostic it fixes, in the request's list
    preferred: bool = False


def ignore_action(line_text: str, line: int, code: str, index: int) -> Action | None:
    """Add `code` to the line's `# type: ignore[...]`, or append one."""
    m = _IGNORE.search(line_text)
    if m is not None:
        if m.group(1) is None:
            return None  # a bare ignore covers every code already
        codes = [c.strip() for c in m.group("codes").split(",") if c.strip()]
        if code in codes:
            return None
        new = f"# type: ignore[{', '.join(codes + [code])}]"
        return Action(f"Add `{code}` to the `# type: ignore`", [Edit(Span((line, m.start()), (line, m.end())), new)], index)
    end = len(line_text)
    body = line_text.rstrip()
    sep = "  " if body else ""
    return Action(
        f"Add `# type: ignore[{code}]`",
        [Edit(Span((line, len(body)), (line, end)), f"{sep}# type: ignore[{code}]")],
        index,
    )


def import_actions(snap: Snapshot, path: str, message: str, index: int, limit: int = 5) -> list[Action]:
    """`from m import X` for an undefined name X that a project module defines."""
    m = _UNDEFINED.search(message)
    doc = snap.documents.get(os.path.abspath(path))
    if m is None or doc is None:
        return []
    name = m.group("name")
    from veritype.engine.outline import _project_files
    from veritype.modules.discover import module_for_path

    out: list[Action] = []
    for file in _project_files(snap):
        if os.path.abspath(file) == os.path.abspath(path):
            continue
        other = snap.documents.get(file)
        try:
            text = other.text if other is not None else open(file, encoding="utf-8").read()
        except (OSError, UnicodeDecodeError):
            continue
        if name not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        if not any(_defines(stmt, name) for stmt in tree.body):
            continue
        module, _ = module_for_path(file, snap.options, snap.root)
        line = _import_line(doc.text)
        edit = Edit(Span((line, 0), (line, 0)), f"from {module} import {name}\n")
        out.append(Action(f"Import `{name}` from `{module}`", [edit], index, preferred=not out))
        if len(out) >= limit:
            break
    return out


def _defines(stmt: ast.stmt, name: str) -> bool:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt.name == name
    if isinstance(stmt, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    if isinstance(stmt, ast.AnnAssign):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == name
    return False


def _import_line(text: str) -> int:
    """The line after the module's leading docstring, `__future__` and other imports."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return 0
    line = 0
    for i, stmt in enumerate(tree.body):
        is_doc = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
        if is_doc or isinstance(stmt, (ast.Import, ast.ImportFrom)):
            line = stmt.end_lineno or stmt.lineno
        else:
            break
    return line
