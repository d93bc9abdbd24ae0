"""Completion: what may be typed at the cursor, with its type where known.

Four contexts, told apart by the text before the cursor:
- after `import ` / `from `: module names (typeshed, the project, site-packages);
- after `from m import `: the names module `m` exports;
- after `expr.`: the attributes of `expr`'s type, narrowed at that point;
- elsewhere: the names in scope, builtins included, and the keyword
  arguments of the call being written.

Half-typed code does not parse (`user.`), so the query runs on a repaired
copy (the `.partial` blanked, brackets the line left open closed), loaded
as a `workspace.Variant` of the document.
"""

from __future__ import annotations

import ast
import functools
import keyword
import os
import re
import time
from dataclasses import dataclass

from veritype.semantic import symbols as S
from veritype.types.format import format_revealed
from veritype.types.model import (
    CallableType, Instance, LiteralType, ModuleType, Overloaded, TupleType, Type, TypeType, UnionType,
)

from veritype.engine.locate import byte_column, enclosing_bodies, node_chain
from veritype.engine.probe import _body_scope
from veritype.engine.queries import Cursor
from veritype.engine.workspace import Snapshot, Variant
from veritype.evaluate.scopes import Scope

# LSP CompletionItemKind numbers (the spec's).
METHOD, FUNCTION, FIELD, VARIABLE, CLASS, MODULE, PROPERTY, KEYWORD = 2, 3, 5, 6, 7, 9, 10, 14

# Types of members are computed for this long; the rest are listed without one.
DETAIL_BUDGET = 0.06

_IMPORT = re.compile(r"^\s*(?:import|from)\s+([\w.]*)$")
_IMPORT_LIST = re.compile(r"^\s*from\s+(\.*[\w.]*)\s+import\s+(?:\(?\s*)?(?:[\w]+(?:\s+as\s+\w+)?\s*,\s*)*(\w*)$")
_MEMBER = re.compile(r"\.(\w*)$")


@dataclass(frozen=True)
class Item:
    label: str
    kind: int
    detail: str = ""
    sort: str = ""  # sortText: public names first, dunders last
    insert: str | None = None


def complete(snap: Snapshot, path: str, line: int, char: int) -> list[Item]:
    doc = snap.documents.get(os.path.abspath(path))
    if doc is None:
        return []
    before = doc.line(line)[:char]
    m = _IMPORT.match(before)
    if m:
        return _modules(snap, m.group(1))
    m = _IMPORT_LIST.match(before)
    if m:
        return _module_names(snap, path, m.group(1))
    m = _MEMBER.search(before)
    if m and _after_expression(before[: m.start()]):
        dot = m.start()
        text = _repair(doc.lines, line, dot, char)
        return _with_variant(snap, path, text, lambda cur: _members_of(cur, line, dot))
    word = re.search(r"\w*$", before)
    start = char - len(word.group(0)) if word else char
    # A placeholder name where the word is, so the position is inside a
    # statement of the right body even on an otherwise empty line.
    text = _repair(doc.lines, line, start, char, fill="_")
    return _with_variant(snap, path, text, lambda cur: _names(cur, line, start))


def _after_expression(text: str) -> bool:
    """Does `text` end with something a `.` makes an attribute access of (not `1.` or `...`)?"""
    stripped = text.rstrip()
    if not stripped or stripped != text:
        return False
    if re.search(r"(^|[^\w.])\d+$", stripped):
        return False  # a float being written
    return stripped[-1] in ")]}'\"" or stripped[-1].isalnum() or stripped[-1] == "_"


def _repair(lines: list[str], line: int, start: int, end: int, fill: str = "") -> str:
    """The document with the characters [start, end) of `line` replaced by
    `fill` (blanks by default) and the brackets left open before them on the
    line closed (if it then parses)."""
    text = lines[line] if 0 <= line < len(lines) else ""
    head, tail = text[:start], text[end:]
    candidates = [head + (fill or " " * (end - start)) + tail]
    closers = _closers(head)
    candidates.append(head + fill + closers)
    if not head.strip():
        candidates.append(head + "pass")
    else:
        candidates.append(head.rstrip().rstrip(",=(") + closers if closers else head + "pass")
    for candidate in candidates:
        new = lines[:line] + [candidate] + lines[line + 1 :]
        source = "\n".join(new) + "\n"
        if _parses(source):
            return source
    return "\n".join(lines[:line] + [candidates[0]] + lines[line + 1 :]) + "\n"


@functools.lru_cache(maxsize=8)
def _parses(source: str) -> bool:
    """Memoized: successive keystrokes of one name repair to the same text."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return True


def _closers(head: str) -> str:
    stack: list[str] = []
    pairs = {"(": ")", "[": "]", "{": "}"}
    quote: str | None = None
    for ch in head:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}" and stack:
            stack.pop()
    return "".join(reversed(stack))


def _with_variant(snap: Snapshot, path: str, text: str, query):  # type: ignore[no-untyped-def]
    with Variant(snap, path, text) as info:
        if info is None or info.tree is None:
            return []
        return query(Cursor(snap, os.path.abspath(path), info, text.splitlines(), []))


# -- attributes ----------------------------------------------------------------------------------------


def _members_of(cur: Cursor, line: int, dot: int) -> list[Item]:
    assert cur.info.tree is not None
    chain = node_chain(cur.info.tree, cur.lines, line, dot)
    text = cur.lines[line] if line < len(cur.lines) else ""
    pos = (line + 1, byte_column(text, dot))
    target = next((n for n in reversed(chain) if isinstance(n, ast.expr) and (n.end_lineno, n.end_col_offset) == pos), None)
    if target is None:
        return []
    cur.chain = chain
    t = cur.type_of(target)
    return members(cur, t) if t is not None else []


def members(cur: Cursor, t: Type) -> list[Item]:
    """The attributes of a value of type `t`, with their types (within the budget)."""
    ev = cur.snap.program.evaluator
    items = t.items if isinstance(t, UnionType) else (t,)
    names: dict[str, int] | None = None
    for item in items:
        found = _member_names(cur, item)
        names = found if names is None else {k: v for k, v in names.items() if k in found}
    deadline = time.perf_counter() + DETAIL_BUDGET
    out: list[Item] = []
    for name, kind in sorted((names or {}).items(), key=lambda kv: _sort_key(kv[0])):
        detail = ""
        if time.perf_counter() < deadline:
            try:
                mt = ev.bound_member(t, name) if not isinstance(t, ModuleType) else ev.members.module_member(t, name)
            except Exception:  # noqa: BLE001 - a member the evaluator cannot type is still listed
                mt = None
            if mt is not None:
                detail = format_revealed(mt)
                if isinstance(mt, (CallableType, Overloaded)) and kind == FIELD:
                    kind = METHOD
        out.append(Item(name, kind, detail, _sort_key(name)))
    return out


def _sort_key(name: str) -> str:
    rank = 2 if name.startswith("__") else 1 if name.startswith("_") else 0
    return f"{rank}{name.lower()}"


def _member_names(cur: Cursor, t: Type) -> dict[str, int]:
    program = cur.snap.program
    if isinstance(t, (LiteralType, TupleType)):
        t = t.fallback
    if isinstance(t, ModuleType):
        mod = program.get_module(t.name)
        if mod is None:
            return {}
        out = {}
        for name, sym in mod.symbols.items():
            if program.lookup_in_module(mod, name) is sym and not (name.startswith("_") and not name.startswith("__")):
                out[name] = _kind_of(sym, in_class=False)
        return out
    on_class = isinstance(t, TypeType)
    if isinstance(t, TypeType):
        t = t.item
    if not isinstance(t, Instance):
        return {}
    out = {}
    for cls in t.info.mro:
        for name, sym in cls.symbols.items():
            if name not in out and not (on_class and sym.is_instance_attr):
                out[name] = _kind_of(sym, in_class=True)
        for name in cls.synthesized:
            out.setdefault(name, FIELD)
    return out


def _kind_of(sym: S.Symbol, in_class: bool) -> int:
    if sym.kind == S.FUNC:
        node = sym.node
        if in_class and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(d, ast.Name) and d.id == "property" or isinstance(d, ast.Attribute) and d.attr in ("setter", "getter") for d in node.decorator_list
        ):
            return PROPERTY
        return METHOD if in_class else FUNCTION
    if sym.kind == S.CLASS:
        return CLASS
    if sym.kind == S.MODULE_REF:
        return MODULE
    return FIELD if in_class else VARIABLE


# -- names in scope, keyword arguments ---------------------------------------------------------------


def _names(cur: Cursor, line: int, start: int) -> list[Item]:
    assert cur.info.tree is not None
    chain = node_chain(cur.info.tree, cur.lines, line, start)
    cur.chain = chain
    ev = cur.snap.program.evaluator
    out: list[Item] = []
    out += _keyword_arguments(cur, chain)
    seen: set[str] = {i.label.rstrip("=") for i in out if i.label.endswith("=")}
    scope = _body_scope(cur.snap.program, cur.info, enclosing_bodies(chain))[0]
    s: Scope | None = scope
    deadline = time.perf_counter() + DETAIL_BUDGET
    first = True
    while s is not None:
        if s.kind != "class" or first:  # a class body's names are not visible in its methods
            for name, sym in s.table.items():
                if name in seen:
                    continue
                seen.add(name)
                detail = ""
                if time.perf_counter() < deadline and sym.kind in (S.VAR, S.PARAM):
                    hit = ev.lookup(name, scope)
                    if hit is not None:
                        try:
                            detail = format_revealed(ev.symbol_type(*hit))
                        except Exception:  # noqa: BLE001
                            detail = ""
                out.append(Item(name, _kind_of(sym, False), detail, "1" + _sort_key(name)))
        first = False
        s = s.parent
    builtins = cur.snap.program.get_module("builtins")
    if builtins is not None:
        for name, sym in builtins.symbols.items():
            if name not in seen and not name.startswith("_") and cur.snap.program.lookup_in_module(builtins, name) is sym:
                seen.add(name)
                out.append(Item(name, _kind_of(sym, False), "", "2" + _sort_key(name)))
    for kw in keyword.kwlist:
        if kw not in seen:
            out.append(Item(kw, KEYWORD, "", "3" + kw))
    return out


def _keyword_arguments(cur: Cursor, chain: list[ast.AST]) -> list[Item]:
    """`name=` for each parameter of the call being written that can be passed by keyword."""
    call = next((n for n in reversed(chain) if isinstance(n, ast.Call)), None)
    if call is None:
        return []
    t = cur.type_of(call.func)
    sigs: list[CallableType] = []
    if isinstance(t, TypeType):
        t = cur.snap.program.evaluator.constructor_type(t)
    if isinstance(t, Overloaded):
        sigs = list(t.items)
    elif isinstance(t, CallableType):
        sigs = [t]
    given = {k.arg for k in call.keywords}
    out: list[Item] = []
    seen: set[str] = set()
    from veritype.types.model import KW_ONLY, POS_OR_KW

    for sig in sigs:
        for p in sig.params:
            if p.name and p.kind in (POS_OR_KW, KW_ONLY) and p.name not in given and p.name not in seen and p.name != "self":
                seen.add(p.name)
                out.append(Item(f"{p.name}=", VARIABLE, format_revealed(p.type), "0" + p.name, insert=f"{p.name}="))
    return out


# -- modules --------------------------------------------------------------------------------------------


def _modules(snap: Snapshot, typed: str) -> list[Item]:
    """Module names completing `typed` (`os.pa` -> `path`): the submodules of
    the package before the last dot, or the top-level modules."""
    finder = snap.program.finder
    package, _, _ = typed.rpartition(".")
    dirs: list[str] = []
    if package:
        mod = snap.program.get_module(package)
        if mod is None or not mod.is_package:
            return []
        dirs = [os.path.dirname(mod.path)] if mod.path and os.path.isfile(mod.path) else ([mod.path] if mod.path else [])
    else:
        dirs = [finder.stdlib, *finder.user_roots()]
        try:
            dirs += list(finder.environment.site_dirs)
        except Exception:  # noqa: BLE001 - no environment: the others still complete
            pass
    names: set[str] = set()
    for d in dirs:
        try:
            entries = os.listdir(d)
        except OSError:
            continue
        for e in entries:
            stem = e[:-4] if e.endswith(".pyi") else e[:-3] if e.endswith(".py") else e
            if e.endswith("-stubs"):
                stem = e[:-6]
            if stem.isidentifier() and stem != "__init__" and (e.endswith((".py", ".pyi")) or os.path.isdir(os.path.join(d, e))):
                names.add(stem)
    return [Item(n, MODULE, "", _sort_key(n)) for n in sorted(names)]


def _module_names(snap: Snapshot, path: str, module: str) -> list[Item]:
    if module.startswith("."):
        doc = snap.documents.get(os.path.abspath(path))
        if doc is None:
            return []
        level = len(module) - len(module.lstrip("."))
        info = snap.module_of(path)
        parts = doc.module.split(".")
        if info is None or not info.is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
        module = ".".join(parts + ([module.lstrip(".")] if module.lstrip(".") else []))
    mod = snap.program.get_module(module)
    if mod is None:
        return []
    items = {i.label: i for i in _modules(snap, module + ".")} if mod.is_package else {}
    for name, kind in _member_names(Cursor(snap, path, mod, [], []), ModuleType(mod.name)).items():
        items[name] = Item(name, kind, "", _sort_key(name))
    return sorted(items.values(), key=lambda i: i.sort)
