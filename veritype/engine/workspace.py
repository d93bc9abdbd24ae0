"""The workspace: one long-lived `Program` over the editor's open documents
(or, for `watch` and the daemon, every file of the run).

Loading typeshed and a project's modules is most of the cost of a first
query (parsing builtins.pyi alone takes tens of milliseconds), so the
program lives across edits. An edit replaces the edited module and forgets
every loaded project module that imports it, directly or not (their cached
types may mention the old one); the standard library and installed packages
never import project code, so they and everything evaluated in them stay.
A forgotten module is loaded again, from the editor's text or the disk, when
a query next needs it (DESIGN.md principle 2).

Forgetting a module is not checking it again: a document keeps its
diagnostics unless the edit changed a name it uses (`engine.fine_deps`:
which names of which module each module uses, and which names an edit
changed, followed through the declarations that mention them). So an edit
inside a function body, or a new function in a widely imported module,
re-checks only the modules that could see a difference; in the edited
module itself, only that body (`engine.body_edits`) or those whole
top-level definitions (`engine.toplevel_edits`) where nothing else in it
can see the change.
"""

from __future__ import annotations

import ast
import dataclasses
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.config.inline import PREFIX
from veritype.engine.fine_deps import ALL, ModuleDeps, changed_names, module_deps, propagate, uses_changed
from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options
from veritype.semantic.binder import absolute_import_name

if TYPE_CHECKING:
    from veritype.syntax.parse import ParsedFile

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
        # Modules whose remembered diagnostics an edit may have changed.
        self.stale: set[str] = set()
        # Fine-grained dependencies of every project module seen, by name
        # (kept when a module is forgotten: its text has not changed).
        self._deps: dict[str, ModuleDeps] = {}
        # Project modules read from disk (not documents): path and the text read.
        self._disk: dict[str, tuple[str, str]] = {}
        # The names the last edit changed, per module (followed through declarations).
        self.last_changed: dict[str, set[str]] = {}
        self.program = Program(options, ModuleFinder(options, [root]))
        # As engine.checking.check_sources does: the evaluator infers `self.x = v`
        # attributes by walking methods silently, for queries too.
        lend_method_walker(self.program)
        for path, text in sorted(documents.items()):
            self.update(path, text)

    # -- edits ------------------------------------------------------------------------

    def update(self, path: str, text: str | None, parsed: "ParsedFile | None" = None) -> None:
        """The editor's text of `path` changed (None: closed, the disk's text again).
        `parsed`: that text parsed already, untouched by any evaluation."""
        from veritype.modules.discover import module_for_path

        path = os.path.abspath(path)
        if not path.endswith((".py", ".pyi")):
            return
        module, base_dir = module_for_path(path, self.options, self.root)
        old = self.documents.get(path)
        if old is not None and text is not None and old.text == text:
            return
        self._know_loaded()
        before = self._deps_of(module)
        if text is None:
            self.documents.pop(path, None)
            self.program.sources.pop(module, None)
        else:
            self.documents[path] = Document(path, module, text)
            self.program.sources[module] = BuildSource(path, module, base_dir, text)
            roots = self.program.finder.source_roots
            if os.path.abspath(base_dir) not in roots:
                roots.append(os.path.abspath(base_dir))
        self.__dict__.pop("_variants", None)
        self._deps.pop(module, None)
        self.program.parsed_ahead.pop(module, None)
        if before is None or text is None:
            # The module appeared or vanished (to this workspace): all its names changed.
            self.program.finder.forget_files()
            self._invalidate(module, {ALL})
        else:
            self._invalidate(module, changed_names(before, self._deps_of(module, keep_tree=True, parsed=parsed)))
        self._forget(module)

    def disk_edits(self) -> None:
        """A project module read from disk (imported, not a document) whose
        file changed or vanished since: an edit like a document's."""
        from veritype.syntax.parse import parse_source
        from veritype.syntax.read_files import read_source

        for module, (path, source) in list(self._disk.items()):
            try:
                text: str | None = read_source(path)
            except (OSError, UnicodeDecodeError, SyntaxError):
                text = None
            if text == source:
                continue
            del self._disk[module]
            before = self._deps.pop(module, None)
            self.program.parsed_ahead.pop(module, None)
            if text is None or before is None:
                self.program.finder.forget_files()
                self._invalidate(module, {ALL})
            else:
                after = module_deps(module, os.path.basename(path).startswith("__init__."), parse_source(path, text).tree, text)
                self._invalidate(module, changed_names(before, after))
            self._forget(module)

    def _invalidate(self, module: str, names: set[str]) -> None:
        """Mark stale the modules that use a changed name of `module` (and,
        through their declarations, names of theirs that changed with it)."""
        self.stale.add(module)
        self.last_changed = {module: set(names)}
        if not names:
            return  # the interface is the same: nothing else can see a difference
        changed = {module: set(names)}
        if ALL in names and "." in module:
            # The module appeared or vanished: its package's attribute too.
            parent, _, last = module.rpartition(".")
            changed[parent] = {last}
        known = {name: deps for name, deps in self._deps.items() if name != module}
        affected, self.last_changed = propagate(changed, known)
        self.stale |= affected

    def _know_loaded(self) -> None:
        """Read the dependencies of every loaded project module not read yet
        (before an edit forgets them, while their trees are at hand)."""
        for name, info in self.program.modules.items():
            if info is not None and info.origin not in _STABLE_ORIGINS and name not in self._deps:
                self._deps_of(name)

    def _deps_of(self, module: str, keep_tree: bool = False, parsed: "ParsedFile | None" = None) -> ModuleDeps | None:
        """The module's dependencies, from its latest text: an open document's,
        else the loaded module's (None: a module never seen). `keep_tree`:
        a tree parsed here is handed to the program for its next load."""
        hit = self._deps.get(module)
        if hit is not None:
            return hit
        from veritype.syntax.parse import parse_source

        info = self.program.modules.get(module)
        src = self.program.sources.get(module)
        text = src.text if src is not None and src.text is not None else None
        if info is not None and info.parsed is not None and (text is None or info.parsed.source == text):
            deps = module_deps(module, info.is_package, info.tree, info.parsed.source)
            if src is None and info.path:
                self._disk[module] = (info.path, info.parsed.source)  # read from disk: watched by disk_edits
        elif text is not None and src is not None:
            if parsed is None or parsed.source != text:
                parsed = parse_source(src.path, text)
            deps = module_deps(module, os.path.basename(src.path).startswith("__init__."), parsed.tree, text)
            if keep_tree and PREFIX not in text:  # (inline configuration adds to a parse's diagnostics)
                self.program.parsed_ahead[module] = parsed
        else:
            return None
        self._deps[module] = deps
        return deps

    def _forget(self, module: str) -> None:
        """Drop `module` and every loaded project module importing it, with the
        evaluator's caches that belong to them."""
        program = self.program
        loaded = {name: info for name, info in program.modules.items() if info is not None and info.origin not in _STABLE_ORIGINS}
        gone = {module}
        changed = True
        while changed:
            changed = False
            for name in loaded:
                if name in gone:
                    continue
                deps = self._deps_of(name)
                if deps is None or _imports_any(deps.imports, gone):
                    gone.add(name)
                    changed = True
        ev = program.evaluator
        for name in gone:
            was = program.modules.pop(name, None)
            ev._module_scopes.pop(name, None)
            # Loaded again with the same text, a forgotten module need not be parsed again.
            src = program.sources.get(name)
            parsed = was.parsed if was is not None else None
            program._source_facts.pop(name, None)  # of the text it was bound from
            if name != module and parsed is not None and PREFIX not in parsed.source and (src is None or src.text is None or src.text == parsed.source):
                _drop_evaluations(parsed.tree)
                program.parsed_ahead[name] = parsed
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
        ev.members.forget()  # (so do the members' tables, and they would keep them alive)

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


def _drop_evaluations(tree: ast.Module | None) -> None:
    """Forget what the evaluator kept on a tree's nodes (a function's scope and
    signature, keyed by the id of a scope that is gone and whose id may be
    reused), so that the tree can be bound and evaluated afresh. The syntactic
    facts kept on nodes (`_vt_*`) stay true."""
    if tree is None:
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            node.__dict__.pop("_veritype_cache", None)


def _imports_any(imports: set[str], names: set[str]) -> bool:
    """Does a module importing `imports` import one of `names` (or a module inside one)?"""
    for t in imports:
        if t in names:
            return True
        while "." in t:
            t = t.rpartition(".")[0]
            if t in names:
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
    the module again (`Snapshot.update`) and checks it whole, or only the
    top-level definitions it changed (`engine.toplevel_edits`). None for a
    document veritype cannot place."""
    from veritype.diagnostics import ignores
    from veritype.engine import toplevel_edits
    from veritype.engine.body_edits import body_edit, recheck
    from veritype.engine.checking import check_sources
    from veritype.syntax.parse import parse_source

    path = os.path.abspath(path)
    memo: dict[str, _Checked] = snap.__dict__.setdefault("_checked", {})
    hit = memo.get(path)
    current = hit is not None and snap.program.modules.get(hit.module) is hit.loaded and path in snap.documents
    top: toplevel_edits.TopEdit | None = None  # an edit of whole top-level definitions
    fresh = None  # the text parsed here, for the program's next load of it
    if hit is not None and hit.text == text and path in snap.documents and hit.module not in snap.stale:
        # Unchanged, and no edit since changed a name it uses (even if the
        # edit made the program forget the module: see the module doc).
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
            snap._deps.pop(hit.module, None)  # the body's uses changed, not the interface
            snap.stale.discard(hit.module)
            return out
        if edit is None and hit.tree is not None and hit.module not in snap.stale and PREFIX not in text:
            top = toplevel_edits.top_edit(hit.tree, hit.lines, parsed.tree, lines)
        if edit is None:
            fresh = parsed  # (no body edit walked it: the program may load this tree)
    snap.update(path, text, fresh)
    doc = snap.documents.get(path)
    if doc is None:
        return None
    program = snap.program
    info = program.get_module(doc.module)
    src = program.sources.get(doc.module)
    if src is None or info is None:
        return []
    out = None
    if top is not None and hit is not None:
        # Only the changed definitions are checked again, unless a change of
        # another module (an import cycle) reaches this one's uses.
        deps = snap._deps_of(doc.module)
        others = {m: ns for m, ns in snap.last_changed.items() if m != doc.module}
        if deps is not None and not uses_changed(deps, others):
            program.sources[doc.module] = src
            info.checked = True
            out = toplevel_edits.recheck(program, info, top, hit.good, text)
    if out is None:
        result = check_sources(program, [src]).diagnostics
        out = [d for d in result if os.path.abspath(d.path) == path]
    memo[path] = _Checked(text, doc.module, info, info.tree, text.splitlines(), out, out)
    snap.stale.discard(doc.module)
    snap._know_loaded()  # read now, from the trees at hand, for the next edit
    return out


def check_documents(snap: Snapshot, texts: dict[str, str]) -> dict[str, list]:  # type: ignore[type-arg]
    """The diagnostics of every file of a run (`texts`: path -> its text),
    the way `watch` and the daemon ask: files no longer in the run are
    dropped, edits are applied before anything is checked (so a file is not
    checked against another's old text), and then each file answers from
    memory unless an edit changed what it uses. A single edited file is
    checked first, where an edit inside one function body re-checks only
    that body."""
    texts = {os.path.abspath(p): t for p, t in texts.items()}
    snap.disk_edits()
    for path in [p for p in snap.documents if p not in texts]:
        snap.update(path, None)
    edited = [p for p, t in texts.items() if p in snap.documents and snap.documents[p].text != t]
    for path, text in texts.items():
        if path not in snap.documents:
            snap.update(path, text)
    if len(edited) == 1:
        diagnostics(snap, edited[0], texts[edited[0]])
    else:
        for path in edited:
            snap.update(path, texts[path])
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for path in sorted(texts):
        diags = diagnostics(snap, path, texts[path])
        if diags is not None:
            out[path] = diags
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
