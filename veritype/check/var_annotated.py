"""`x = []` with nothing that fixes the item type: [var-annotated].

mypy gives an empty display a "partial" type and completes it from a later
`x.append(1)`, `x[k] = v`, `x += [...]` or reassignment in the same scope;
when nothing completes it, it reports `Need type annotation for "x" (hint:
"x: list[<type>] = ...")`. We do not track partial types: we report only
the plainly unfixable case, where the scope (nested scopes included) never
touches the name except by plain reads. Any attribute access, subscript,
store, `del`, `global`/`nonlocal` of the name keeps us silent.
"""

from __future__ import annotations

import ast

_HINTS = {"list": "list[<type>]", "dict": "dict[<type>, <type>]", "set": "set[<type>]"}


def empty_display_kind(value: ast.expr) -> str | None:
    """'list' / 'dict' / 'set' for `[]`, `{}`, `set()`, else None."""
    if isinstance(value, ast.List) and not value.elts:
        return "list"
    if isinstance(value, ast.Dict) and not value.keys:
        return "dict"
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("set", "list", "dict") and not value.args and not value.keywords:
        return value.func.id
    return None


def needs_annotation(body: list[ast.stmt], name: str, assign: ast.Assign) -> bool:
    """True when nothing in `body` (outside `assign`) could complete the type of `name`."""
    for stmt in body:
        for node in ast.walk(stmt):
            if node is assign:
                continue
            if isinstance(node, ast.Name) and node.id == name:
                if not isinstance(node.ctx, ast.Load):
                    if node in assign.targets:
                        continue
                    return False
            elif isinstance(node, (ast.Attribute, ast.Subscript)):
                if isinstance(node.value, ast.Name) and node.value.id == name:
                    return False
            elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return False
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
                return False
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                return False
            elif isinstance(node, ast.arg) and node.arg == name:
                return False
            elif getattr(node, "name", None) == name or getattr(node, "rest", None) == name:
                return False  # match-pattern captures, except-handler names
            elif isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name for a in node.names):
                return False
    return True


def message(name: str, kind: str) -> str:
    return f'Need type annotation for "{name}" (hint: "{name}: {_HINTS[kind]} = ...")'
