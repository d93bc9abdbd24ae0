"""The workspace: one long-lived `Program` over the editor's open documents.

Loading typeshed and a project's modules is most of the cost of a first
query (parsing builtins.pyi alone takes tens of milliseconds), so the
program lives across edits. An edit replaces the edited module and forgets
every loaded project module that imports it, directly or not (their cached
types may mention the old one); the standard library and installed packages
never import project code, so they and everything evaluated in them stay.
A forgotten module is loaded again, from the editor's text or the disk, when
a query next needs it (DESIGN.md principle 2).
"""

from __future__ import annotations

import ast
import dataclasses
import os
from dataclasses import dataclass

from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options
from veritype.semantic.binder import absolute_import_name

# Modules of these origins never import project code: they survive every edit.
_STABLE_ORIGINS = frozenset({"stdlib", "site", "stub-package"})


@dataclass
class Document:
    """A file with its text (the editor's, possibly unsaved) and its lines."""

    path: str
    module: str
    text: str

    def line(self, n: int) -> str:
        lines = self.lines
        return lines[n] if 0 <= n < len(lines) else ""

    @property
    def lines(self) -> list[str]:
        cached = self.__dict__.get("_lines")
        if cached is None:
            cached = self.text.splitlines()
            self.__dict__["_lines"] = cached
        return cached


class Snapshot:
    """The program and the open documents, at the latest version of their text."""

    def __init__(self, documents: dict[str, str], root: str, options: Options) -> None:
        from veritype.engine.checking import lend_method_walker
        from veritype.evaluate.program import Program

        self.root = root
        self.options = options
        self.documents: dict[str, Document] = {}
        self.program = Program(options, ModuleFinder(options, [root]))
        # As engine.checking.check_sources does: the evaluator infers `self.x = v`
        # attributes by walking methods silently, for queries too.
        lend_method_walker(self.program)
        for path, text in sorted(documents.items()):
            self.update(path, text)

    # -- edits ------------------------------------------------------------------------

    def update(self, path: str, text: str | None) -> None:
        """The editor's text of `path` changed (None: closed, the disk's text again)."""
        from veritype.modules.discover import module_for_path

        path = os.path.abspath(path)
        if not path.endswith((".py", ".pyi")):
            return
        module, base_dir = module_for_path(path, self.options, self.root)
        old = self.documents.get(path)
        if text is None:
            self.documents.pop(path, None)
            self.program.sources.pop(module, None)
        else:
            if old is not None and old.text == text:
                return
            self.documents[path] = Document(path, module, text)
            self.program.sources[module] = BuildSource(path, module, base_dir, text)
            roots = self.program.finder.source_roots
            if os.path.abspath(base_dir) not in roots:
                roots.append(os.path.abspath(base_dir))
        self.__dict__.pop("_variants", None)
        self._forget(module)

    def _forget(self, module: str) -> None:
        """Drop `module` and every loaded project module importing it, with the
        evaluator's caches that belong to them."""
        program = self.program
        loaded = {name: info for name, info in program.modules.items() if info is not None and info.origin not in _STABLE_ORIGINS}
        gone = {module}
        changed = True
        while changed:
            changed = False
            for name, info in loaded.items():
                if name not in gone and _imports_any(info, gone):
                    gone.add(name)
                    changed = True
        ev = program.evaluator
        for name in gone:
            program.modules.pop(name, None)
            ev._module_scopes.pop(name, None)
        # ClassInfos of modules no longer loaded (forgotten now, or a query's
        # variant): keyed by their ClassDef's id, and the info keeps the node
        # alive, so the id stays unique while the entry exists.
        def stale(c) -> bool:  # type: ignore[no-untyped-def]
            return program.modules.get(c.module.name) is not c.module

        for key in [k for k, c in ev._classes.items() if stale(c)]:
            del ev._classes[key]
        named = getattr(ev, "_named", None)
        if named:
            for key in [k for k, c in named.items() if stale(c)]:
                del named[key]
        ev._subtype_checker = None  # its cache holds pairs of the forgotten classes' types

    def warm(self, path: str) -> None:
        """Load an open document's module and what it imports (the parsing a
        first query would otherwise pay for), without evaluating anything."""
        info = self.module_of(path)
        if info is None or info.tree is None:
            return
        program = self.program
        program.get_module("builtins")
        for node in info.tree.body:
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [absolute_import_name(info.name, info.is_package, node.module, node.level)]
            for name in names:
                if name:
                    program.get_module(name)

    # -- lookups ----------------------------------------------------------------------

    def module_of(self, path: str):  # type: ignore[no-untyped-def]
        """The loaded `ModuleInfo` of an open document (or a loaded file), or None."""
        path = os.path.abspath(path)
        doc = self.documents.get(path)
        if doc is not None:
            return self.program.get_module(doc.module)
        for info in list(self.program.modules.values()):
            if info is not None and info.path and os.path.abspath(info.path) == path:
                return info
        return None

    def document(self, path: str) -> Document | None:
        """An open document, or the file of a loaded module as read from disk."""
        path = os.path.abspath(path)
        doc = self.documents.get(path)
        if doc is not None:
            return doc
        info = self.module_of(path)
        if info is None or info.parsed is None:
            return None
        return Document(path, info.name, info.parsed.source)


def _imports_any(info, names: set[str]) -> bool:  # type: ignore[no-untyped-def]
    """Does the module's source import one of `names` (or a module inside one)?"""
    tree = info.tree
    if tree is None:
        return False
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute_import_name(info.name, info.is_package, node.module, node.level)
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            if any(t == n or t.startswith(n + ".") for n in names):
                return True
    return False


class Variant:
    """An open document's module loaded from other text (a repaired copy of
    half-typed code), swapped in for a query and out again after it.

    Only that module is swapped: modules importing it keep what they had
    evaluated. Types they evaluate during the query may mention the
    variant's classes; that lasts until the next edit forgets them, and a
    variant differs from the document only at the cursor.
    """

    def __init__(self, snap: Snapshot, path: str, text: str) -> None:
        self.snap = snap
        self.path = os.path.abspath(path)
        self.text = text
        self._saved: tuple[object, object, object] | None = None
        self.info = None

    def __enter__(self):  # type: ignore[no-untyped-def]
        snap, program = self.snap, self.snap.program
        doc = snap.documents.get(self.path)
        if doc is None:
            return None
        name = doc.module
        src = program.sources.get(name)
        ev = program.evaluator
        cache = snap.__dict__.setdefault("_variants", {})
        self._saved = (program.modules.get(name), ev._module_scopes.get(name), src)
        hit = cache.get((name, self.text))
        if src is not None:
            program.sources[name] = BuildSource(src.path, name, src.base_dir, self.text)
        if hit is not None:
            program.modules[name], ev._module_scopes[name] = hit
        else:
            program.modules.pop(name, None)
            ev._module_scopes.pop(name, None)
            program.get_module(name)
        self.info = program.modules.get(name)
        return self.info

    def __exit__(self, *exc: object) -> None:
        if self._saved is None:
            return
        program = self.snap.program
        ev = program.evaluator
        name = self.snap.documents[self.path].module
        # Kept for the next keystroke: `a.b|` and `a.bc|` repair to the same text.
        cache = self.snap.__dict__.setdefault("_variants", {})
        cache.clear()
        if program.modules.get(name) is not None and ev._module_scopes.get(name) is not None:
            cache[(name, self.text)] = (program.modules[name], ev._module_scopes[name])
        module, scope, src = self._saved
        program.modules[name] = module  # type: ignore[assignment]
        if scope is None:
            ev._module_scopes.pop(name, None)
        else:
            ev._module_scopes[name] = scope  # type: ignore[assignment]
        if src is not None:
            program.sources[name] = src  # type: ignore[assignment]


def diagnostics(snap: Snapshot, path: str, text: str) -> list | None:  # type: ignore[type-arg]
    """The diagnostics `veritype check` reports for an open document with
    `text`, from the workspace's program. The same text answers what it
    answered before; an edit inside one function body checks only that body
    in the module as loaded (`engine.body_edits`); text that does not parse
    reports its syntax error and leaves the program as it was (the next text
    that parses is compared with the last that did); any other edit loads
    the module again (`Snapshot.update`) and checks it whole. None for a
    document veritype cannot place."""
    from veritype.diagnostics import ignores
    from veritype.engine.body_edits import body_edit, recheck
    from veritype.engine.checking import check_sources
    from veritype.syntax.parse import parse_source

    path = os.path.abspath(path)
    memo: dict[str, _Checked] = snap.__dict__.setdefault("_checked", {})
    hit = memo.get(path)
    current = hit is not None and snap.program.modules.get(hit.module) is hit.loaded and path in snap.documents
    if hit is not None and current and hit.text == text:
        return hit.diags
    if hit is not None and current:
        parsed = parse_source(path, text)
        out = None
        if parsed.tree is None:
            # mypy reports only the syntax error of a file that does not parse.
            opts = snap.program.options.for_module(hit.module)
            out = ignores.apply_ignores(path, list(parsed.diagnostics), ignores.parse_ignores(None, text), opts)
            memo[path] = dataclasses.replace(hit, text=text, diags=out)
            return out
        lines = text.splitlines()
        edit = body_edit(hit.tree, hit.lines, parsed.tree, lines) if hit.tree is not None else None
        if edit is not None:
            out = recheck(snap.program, hit.loaded, edit, hit.good, parsed.tree, text)  # type: ignore[arg-type]
        if out is not None:
            # The program keeps the loaded module (same interface); the
            # document's text moves on, for the next load if one is needed.
            old_doc = snap.documents[path]
            snap.documents[path] = Document(path, old_doc.module, text)
            src = snap.program.sources.get(old_doc.module)
            if src is not None:
                snap.program.sources[old_doc.module] = BuildSource(src.path, src.module, src.base_dir, text)
            memo[path] = _Checked(text, hit.module, hit.loaded, parsed.tree, lines, out, out)
            return out
    snap.update(path, text)
    doc = snap.documents.get(path)
    if doc is None:
        return None
    program = snap.program
    info = program.get_module(doc.module)
    src = program.sources.get(doc.module)
    if src is None or info is None:
        return []
    result = check_sources(program, [src]).diagnostics
    out = [d for d in result if os.path.abspath(d.path) == path]
    memo[path] = _Checked(text, doc.module, info, info.tree, text.splitlines(), out, out)
    return out


@dataclass
class _Checked:
    """The last check of a document: its text and diagnostics, and of the
    last text that parsed, the tree, lines and diagnostics, with the module
    as the program has it loaded."""

    text: str
    module: str
    loaded: object
    tree: ast.Module | None  # of the last text that parsed
    lines: list[str]  # of the last text that parsed
    diags: list  # type: ignore[type-arg]  # for `text`
    good: list  # type: ignore[type-arg]  # for the last text that parsed
