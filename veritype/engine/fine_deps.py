"""Fine-grained dependencies: which names of which modules a module uses, and
which of its own names an edit changed.

Read from the syntax tree alone, so that they are known for every module
the engine has seen, checked or not:

- a module's *uses*: each (module, name) its source can reach - the names
  of `from m import n`, the attribute chains on an imported module
  (`m.n`, `pkg.sub.n`), the same inside string annotations and type
  comments; a module object used as a value (`f(m)`) or a star import uses
  all of that module's names;
- its *interface*: per top-level name, a fingerprint of what other modules
  can see of it. A function is seen through its signature (decorators,
  parameters, annotations, defaults) - an unannotated function's body
  type is not used outside it, as in mypy - unless its body shows through:
  `yield` makes it a generator, `self.x = ...` declares attributes,
  `global`/`nonlocal` bind module names, and a placeholder body (`...`)
  leaves a protocol member or abstract method unimplemented. A class is
  seen through its header and the interfaces of its body's statements;
  any other statement is seen whole. Line numbers are not part of it.
- per top-level name, the names its interface mentions (of other modules,
  and of its own module), so a change can be followed through declarations:
  `def make() -> Thing` changes when the `Thing` it imports does.

An edit changes the names whose fingerprint changed (added and removed
ones too). A module whose uses meet a changed name must be checked again,
and its own names that mention one change in turn; a module whose uses
meet none keeps its diagnostics. mypy's own fine-grained mode works from
the same idea with semantic triggers; this is a syntactic, conservative
version: a use it cannot place (a name in a docstring that happens to be
an imported name) only costs a re-check.
"""

from __future__ import annotations

import ast
import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from veritype.semantic.binder import absolute_import_name
from veritype.syntax.bodies import is_trivial_body
from veritype.syntax.shapes import attribute_chain

# A module name in a `changed` map: every name of that module changed (it
# appeared, vanished, or changed what decides all its names: `__all__`,
# a module `__getattr__`, a star import, inline configuration).
ALL = "*"
# The name standing for "the module itself" in uses (`import m`).
MODULE = ""

Pair = tuple[str, str]
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_FuncDef = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class ModuleDeps:
    name: str
    fingerprints: dict[str, str] = field(default_factory=dict)  # top-level name -> interface fingerprint
    mentions_ext: dict[str, set[Pair]] = field(default_factory=dict)  # name -> (module, name) its interface mentions
    mentions_local: dict[str, set[str]] = field(default_factory=dict)  # name -> own names its interface mentions
    uses: set[Pair] = field(default_factory=set)  # (module, name) the whole source can reach
    imports: set[str] = field(default_factory=set)  # modules imported anywhere (and their parents)
    star_from: set[str] = field(default_factory=set)  # modules star-imported at top level
    directives: str = ""  # `# mypy:` lines: they can change what others see (implicit_reexport)


def module_deps(name: str, is_package: bool, tree: ast.Module | None, source: str) -> ModuleDeps:
    deps = ModuleDeps(name)
    deps.directives = "\n".join(line for line in source.splitlines() if line.lstrip().startswith("# mypy:"))
    if tree is None:
        deps.fingerprints[ALL] = hashlib.sha1(source.encode("utf-8", "replace")).hexdigest()
        return deps
    aliases = _aliases(name, is_package, tree, deps)
    resolver = _Resolver(aliases, name, is_package)
    # The whole source's uses.
    for node in ast.walk(tree):
        resolver.visit(node, deps.uses, None)
    # The interface, per top-level name.
    parts: dict[str, list[str]] = {}
    for stmt in _split_imports(tree.body):
        bound = _bound_names(stmt)
        views = list(_interface_view(stmt))
        text = "\n".join(_dump(v) for v in views)
        ext: set[Pair] = set()
        local: set[str] = set()
        for v in views:
            for node in _walk_view(v):
                resolver.visit(node, ext, local)
        for n in bound:
            parts.setdefault(n, []).append(text)
            deps.mentions_ext.setdefault(n, set()).update(ext)
            deps.mentions_local.setdefault(n, set()).update(local)
        if isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names):
            deps.star_from.add(absolute_import_name(name, is_package, stmt.module, stmt.level))
    for n, texts in parts.items():
        deps.fingerprints[n] = hashlib.sha1("\n".join(texts).encode()).hexdigest()
    return deps


def changed_names(old: ModuleDeps | None, new: ModuleDeps | None) -> set[str]:
    """The top-level names whose interface differs between two versions of a
    module ({ALL} when the module appeared or vanished, or when what decides
    all of its names changed)."""
    if old is None or new is None:
        return {ALL}
    if old.directives != new.directives or old.star_from != new.star_from or ALL in old.fingerprints or ALL in new.fingerprints:
        return {ALL}
    out = {n for n in old.fingerprints.keys() | new.fingerprints.keys() if old.fingerprints.get(n) != new.fingerprints.get(n)}
    if out & {"__all__", "__getattr__"}:
        return {ALL}
    return out


def _hit(changed: dict[str, set[str]], pair: Pair) -> bool:
    names = changed.get(pair[0])
    if not names:
        return False
    return ALL in names or pair[1] == ALL or pair[1] in names


def uses_changed(deps: ModuleDeps, changed: dict[str, set[str]]) -> bool:
    """Does a module with `deps` use one of the `changed` names (module -> names)?"""
    return any(_hit(changed, p) for p in deps.uses)


def propagate(changed: dict[str, set[str]], known: dict[str, ModuleDeps]) -> tuple[set[str], dict[str, set[str]]]:
    """The modules that must be checked again after `changed` (module -> its
    changed names), and the changed names of every module, followed through
    the declarations that mention them until nothing more changes."""
    changed = {m: set(ns) for m, ns in changed.items()}
    affected: set[str] = set()
    while True:
        grown = False
        for name, deps in known.items():
            if not any(_hit(changed, p) for p in deps.uses):
                continue
            affected.add(name)
            mine = changed.setdefault(name, set())
            if ALL in mine:
                continue
            new = {n for n, ext in deps.mentions_ext.items() if n not in mine and any(_hit(changed, p) for p in ext)}
            for star in deps.star_from:
                if changed.get(star):
                    new |= {ALL} if ALL in changed[star] else changed[star]
            # Within the module: a name whose declaration mentions a changed one.
            frontier = set(new)
            while frontier:
                frontier = {n for n, loc in deps.mentions_local.items() if n not in mine and n not in new and loc & (new | mine)}
                new |= frontier
            new -= mine
            if new:
                mine |= new
                grown = True
        if not grown:
            return affected, changed


# -- reading the tree -------------------------------------------------------------------


def _aliases(module: str, is_package: bool, tree: ast.Module, deps: ModuleDeps) -> dict[str, set[Pair]]:
    """Local names bound by imports anywhere in the module -> what they stand for:
    (module, MODULE) for a module, (module, name) for a name imported from one.
    The uses of the import statements themselves are recorded on `deps`."""
    out: dict[str, set[Pair]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                parts = a.name.split(".")
                for i in range(1, len(parts) + 1):
                    deps.imports.add(".".join(parts[:i]))
                    deps.uses.add((".".join(parts[:i]), MODULE))
                    if i > 1:
                        deps.uses.add((".".join(parts[: i - 1]), parts[i - 1]))
                if a.asname:
                    out.setdefault(a.asname, set()).add((a.name, MODULE))
                else:
                    out.setdefault(parts[0], set()).add((parts[0], MODULE))
        elif isinstance(node, ast.ImportFrom):
            base = absolute_import_name(module, is_package, node.module, node.level)
            if not base:
                continue
            parts = base.split(".")
            for i in range(1, len(parts) + 1):
                deps.imports.add(".".join(parts[:i]))
                deps.uses.add((".".join(parts[:i]), MODULE))
            for a in node.names:
                if a.name == "*":
                    deps.uses.add((base, ALL))
                    continue
                # The name may be a submodule of the package.
                deps.uses.add((base, a.name))
                deps.uses.add((f"{base}.{a.name}", MODULE))
                deps.imports.add(f"{base}.{a.name}")
                out.setdefault(a.asname or a.name, set()).update({(base, a.name), (f"{base}.{a.name}", MODULE)})
    return out


class _Resolver:
    """Turns names and attribute chains into the (module, name) pairs they reach."""

    def __init__(self, aliases: dict[str, set[Pair]], module: str, is_package: bool) -> None:
        self.aliases = aliases
        self.module = module
        self.is_package = is_package
        self._roots: set[int] = set()  # ids of Names that are the root of an attribute chain

    def visit(self, node: ast.AST, ext: set[Pair], local: set[str] | None) -> None:
        """Record what `node` reaches in `ext` (and, for an interface, the
        module's own names it mentions in `local`)."""
        if local is not None and isinstance(node, (ast.Import, ast.ImportFrom)):
            # A name bound by an import is what it imports: it changes with it
            # (a whole module with any of its names).
            if isinstance(node, ast.Import):
                ext.update((a.name, ALL) for a in node.names)
            else:
                base = absolute_import_name(self.module, self.is_package, node.module, node.level)
                for a in node.names:
                    ext.update({(base, a.name), (f"{base}.{a.name}", ALL)} if a.name != "*" else {(base, ALL)})
        if isinstance(node, ast.Name):
            # The root of an attribute chain was recorded with its chain (walks
            # visit a chain before its root).
            self._chain([node.id], ext, local, whole=id(node) not in self._roots)
        elif isinstance(node, ast.Attribute):
            chain = attribute_chain(node)
            if chain is not None:
                self._chain(chain, ext, local, whole=False)
                root: ast.expr = node
                while isinstance(root, ast.Attribute):
                    root = root.value
                self._roots.add(id(root))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            self._text(node.value, ext, local)
        comment = getattr(node, "type_comment", None)
        if isinstance(comment, str):
            self._text(comment, ext, local)

    def _text(self, text: str, ext: set[Pair], local: set[str] | None) -> None:
        # A string annotation or type comment, read as the dotted names in it.
        if len(text) > 2000:
            text = text[:2000]
        for m in _DOTTED.finditer(text):
            chain = [p.strip() for p in m.group(0).split(".")]
            self._chain(chain, ext, local, whole=True)
            for i in range(1, len(chain)):
                self._chain(chain[: i], ext, local, whole=False)

    def _chain(self, chain: list[str], ext: set[Pair], local: set[str] | None, whole: bool) -> None:
        """`whole`: the chain is used as it is (a bare name, or a module object
        as a value); else it is the prefix of a longer attribute chain, whose
        own pairs are recorded when the full chain is visited."""
        targets = self.aliases.get(chain[0])
        if local is not None:
            local.add(chain[0])
        if not targets:
            return
        for mod, name in targets:
            if name != MODULE:
                ext.add((mod, name))
                continue
            if len(chain) == 1:
                if whole:
                    ext.add((mod, ALL))  # the module object itself, as a value
                continue
            prefix = mod
            for part in chain[1:]:
                ext.add((prefix, part))
                prefix = f"{prefix}.{part}"


def _split_imports(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements, an import of several names as one import per
    name (each name changes only with what it imports)."""
    for stmt in body:
        if isinstance(stmt, ast.ImportFrom) and len(stmt.names) > 1:
            for a in stmt.names:
                yield ast.ImportFrom(stmt.module, [a], stmt.level)
        elif isinstance(stmt, ast.Import) and len(stmt.names) > 1:
            for a in stmt.names:
                yield ast.Import([a])
        else:
            yield stmt


def _bound_names(stmt: ast.stmt) -> set[str]:
    """The module-level names a top-level statement binds (at any depth of a
    compound statement, not inside a def or class)."""
    out: set[str] = set()
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (*_FuncDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                if a.name != "*":
                    out.add(a.asname or a.name.split(".")[0])
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)  # (a `type X = ...` statement's name is a Store Name too)
        stack.extend(ast.iter_child_nodes(node))
    if not out:
        out.add("<module code>")  # an expression statement: seen by no other module
    return out


def _body_shows(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Does a function's body change what other modules see of it (see the module doc)?"""
    if is_trivial_body(func.body):
        return True
    for node in _own_nodes(func):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal)):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
    return False


def _own_nodes(func: ast.AST) -> Iterator[ast.AST]:
    stack = list(ast.iter_child_nodes(func))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (*_FuncDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


def _interface_view(stmt: ast.stmt) -> "Iterable[ast.AST | _Header]":
    """The parts of a statement other modules can see (see the module doc)."""
    if isinstance(stmt, _FuncDef):
        if _body_shows(stmt):
            yield stmt
        else:
            yield _Header(stmt)
    elif isinstance(stmt, ast.ClassDef):
        yield _Header(stmt)
        for sub in stmt.body:
            yield from _interface_view(sub)
    else:
        yield stmt


class _Header:
    """A def or class without its body."""

    def __init__(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.node = node


def _header_parts(h: _Header) -> list[ast.AST]:
    node = h.node
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords, *getattr(node, "type_params", [])]
    return [*node.decorator_list, node.args, *([node.returns] if node.returns else []), *getattr(node, "type_params", [])]


def _dump(view: "ast.AST | _Header") -> str:
    if isinstance(view, _Header):
        node = view.node
        head = f"{type(node).__name__} {node.name} {getattr(node, 'type_comment', None)}"
        return head + "\n" + "\n".join(ast.dump(p, include_attributes=False) for p in _header_parts(view))
    return ast.dump(view, include_attributes=False)


def _walk_view(view: "ast.AST | _Header") -> Iterator[ast.AST]:
    if isinstance(view, _Header):
        node = view.node
        comment = getattr(node, "type_comment", None)
        if comment:
            yield ast.Constant(comment)
        for p in _header_parts(view):
            yield from ast.walk(p)
    else:
        yield from ast.walk(view)
