"""The dependencies a cache entry records, in space linear in the program.

A checked module's result depends on every module in its import closure
(interface digests are syntactic: a change two imports away can change what
a module sees). Recording the whole closure in every entry costs the sum of
the closures: quadratic in a large program (2,000 modules importing each
other: ~10^6 recorded states, hundreds of MB of JSON, and a Python walk per
module over the whole closure). Instead an entry records:

- `deps`: the state of each module its walk reached, as before, except that
  the walk stops at a module that is itself checked afresh in the same run
  (it records that module's state and its parent packages, walked in turn:
  its own walk did not go through them);
- `refs`: each such module, with a digest of the `deps` its own entry records
  (written by the same run, over the same loaded modules, so its closure is
  what this module's walk would have found past it). Referred entries are
  inlined (their states copied in) while the entry stays under
  `INLINE_LIMIT` states: a program of a few dozen modules keeps whole
  closures in every entry, each entry standing alone as before.

An entry is valid when the recorded states of every entry reachable through
`refs` (itself included) are still the states now, and each ref still finds
the entry it was written with (same digest of its `deps`). Import cycles make
refs cyclic: validity is decided per strongly connected component. Only
entries checked in this run are referred to, never reused ones (their walks
were over an earlier run's loaded modules).
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from itertools import chain
from typing import TYPE_CHECKING

from veritype.cache.fingerprint import digest_text, loaded_static_imports
from veritype.modules.import_cycles import strongly_connected

if TYPE_CHECKING:
    from veritype.cache.store import Entry
    from veritype.evaluate.program import ModuleInfo, Program


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


#: The mark of a recorded name that the run never loaded (`ImportGraph.dependencies`):
#: its state is where it resolves, without its contents (cache/incremental.py).
#: Never the start of a module name.
UNLOADED = "?"


class ImportGraph:
    """The run's static imports, read once per module, and its dependency walks."""

    def __init__(self, program: "Program") -> None:
        self.program = program
        self._imports: dict[str, tuple[set[str], set[str]]] = {}
        self._below: dict[str, list[str]] | None = None
        # Non-stdlib modules loaded in worker processes and not here, with
        # their static imports (None: no tree, a namespace package; see
        # engine/early_workers.py): loaded modules too.
        self._elsewhere: dict[str, tuple[set[str], set[str]] | None] = {}
        # Name -> UNLOADED + name, made once per name: the walks of many
        # modules record it, all kept until the entries are written.
        self._marked: dict[str, str] = {}

    def add_loaded_elsewhere(self, imports: Mapping[str, "tuple[set[str], set[str]] | None"]) -> None:
        """Modules another process loaded (and read the static imports of):
        the walks go through them as through this program's loaded modules."""
        for name, found in imports.items():
            if self.program.modules.get(name) is None:
                self._elsewhere[name] = found
        self._below = None

    def _loaded_below(self) -> dict[str, list[str]]:
        """package name -> the loaded (non-stdlib) modules anywhere below it
        (computed once: the loaded modules do not change while entries are written)."""
        if self._below is None:
            below: dict[str, list[str]] = {}
            for name, info in self.program.modules.items():
                if info is None or info.origin == "stdlib":
                    continue
                for parent in _parents(name):
                    below.setdefault(parent, []).append(name)
            for name in self._elsewhere:
                if self.program.modules.get(name) is None:
                    for parent in _parents(name):
                        below.setdefault(parent, []).append(name)
            self._below = below
        return self._below

    def _static_imports(self, info: "ModuleInfo") -> tuple[set[str], set[str]]:
        if info.name not in self._imports:
            found = loaded_static_imports(info)
            assert found is not None  # (the callers' condition: a tree)
            self._imports[info.name] = found
        return self._imports[info.name]

    def direct_dependencies(self, module: str) -> set[str]:
        """What `dependencies(module, ...)` finds in any case, whatever else is
        loaded: the modules `module` imports, its parent packages; empty
        unless it is loaded with a tree and not stdlib."""
        info = self.program.modules.get(module)
        if info is None or info.tree is None or info.origin == "stdlib":
            return set()
        return (self._static_imports(info)[0] | set(_parents(module))) - {module}

    def dependencies(self, module: str, fresh: Container[str]) -> tuple[set[str], set[str]]:
        """The import closure of `module` over the modules this run loaded, and
        the modules of `fresh` (checked afresh in this run) where it stopped.

        Static imports, plus, for each module bound as a value (`import pkg`),
        its submodules that this run loaded: the checker resolves `pkg.sub.x`
        even where no import names `pkg.sub`. A module this run never loaded
        cannot have influenced any result, so the walk does not go through it
        (it is still recorded, by where it resolves: `UNLOADED`). typeshed's
        stdlib is not walked: it imports only itself, and is keyed as a whole.
        """
        program = self.program
        modules, elsewhere = program.modules, self._elsewhere
        seen = set(_parents(module))
        # A name no check of this run loaded (here or in a worker) is recorded
        # as `UNLOADED + name`: only where it resolves counts (its contents
        # were never read, so they decided nothing), not its interface, which
        # would be parsed for the digest alone (a library's lazily imported
        # submodules: 13 files of the bench corpus). Told as the walk meets
        # it (the parents it starts with, below), not by a pass over the names.
        unloaded = [name for name in seen if name not in modules and name not in elsewhere]
        stack = [module]
        refs: set[str] = set()
        while stack:
            name = stack.pop()
            if name != module and name in fresh:
                # Its own entry records what lies past it; not its parent
                # packages (its walk starts with them seen): walk those here.
                refs.add(name)
                for parent in _parents(name):
                    if parent not in seen:
                        seen.add(parent)
                        stack.append(parent)
                continue
            info = modules.get(name)
            if info is not None and info.tree is not None and info.origin != "stdlib":
                names, bound = self._static_imports(info)
            elif (found := elsewhere.get(name)) is not None:
                names, bound = found
            else:
                if name not in modules and name not in elsewhere:
                    unloaded.append(name)
                continue
            deps = set(names)
            if bound:
                below = self._loaded_below()
                for b in bound:
                    deps.update(below.get(b, ()))
            for dep in deps:
                if dep not in seen:
                    seen.add(dep)
                    stack.append(dep)
        seen.discard(module)
        refs.discard(module)
        if unloaded:
            seen.difference_update(unloaded)
            marked = self._marked
            for name in unloaded:
                mark = marked.get(name)
                if mark is None:
                    mark = marked[name] = UNLOADED + name
                seen.add(mark)
        return seen, refs


#: Up to this many recorded states an entry holds its whole closure (refs
#: inlined), so that in a small program each entry stands alone: a lost or
#: corrupt entry costs only its own module's check. Past it, the entry refers
#: to others, and the cache grows linearly with the program: ~20 kB an entry
#: at most. (Each imported module counts with its from-imported names, which
#: are recorded as possible submodules: 200 states is ~40 modules.) At 1000
#: the generated program's cache still grew 3.9x from 100k to 200k lines.
INLINE_LIMIT = 200


def expand(walks: Mapping[str, tuple[set[str], set[str]]], limit: int | None = None) -> dict[str, tuple[set[str], set[str]]]:
    """Each module's recorded names and refs: its walk (`ImportGraph.dependencies`),
    with the walks of the modules it refers to inlined, transitively, while
    the names stay within `limit` (default `INLINE_LIMIT`); the rest stay refs."""
    if limit is None:
        limit = INLINE_LIMIT
    # Each module's refs in order, sorted once: a module is reached by the
    # walks of many (the order decides which refs fit under the limit).
    ordered = {module: sorted(refs) for module, (_, refs) in walks.items()}
    out: dict[str, tuple[set[str], set[str]]] = {}
    for module, (names, refs) in walks.items():
        deps = set(names)
        kept: set[str] = set()
        done = {module}
        pending = ordered[module].copy()
        while pending:
            ref = pending.pop()
            if ref in done:
                continue
            done.add(ref)
            ref_names = walks[ref][0]
            if len(deps) + len(ref_names) > limit:
                kept.add(ref)
                continue
            deps |= ref_names
            pending.extend(ordered[ref])
        deps.discard(module)
        out[module] = (deps, kept)
    return out


def deps_digest(deps: Mapping[str, str]) -> str:
    """What a ref records of the entry it refers to: a digest of its sorted
    (name, state) pairs, joined by NUL (which neither a module name nor a
    state holds: states are made of names, paths and digests). A join in C,
    not json.dumps: the corpus's entries record 51k states, 4.5 MB of text
    (3x faster; a cache written by another veritype is not read: veritype_key)."""
    return digest_text("\0".join(chain.from_iterable(sorted(deps.items()))))


def pairs_digest(pairs: Iterable[str]) -> str:
    """`deps_digest` of deps given as their (name, state) pairs sorted by
    name, each written `f"{name}\\0{state}"`: the same text digested."""
    return digest_text("\0".join(pairs))


def valid_entries(entries: Mapping[str, "Entry | None"], states: Mapping[str, str]) -> set[str]:
    """The modules whose entry is valid now: its recorded states and those of
    every entry reachable through its refs match `states` (the state now of
    every name an entry records), and every ref finds the entry it was written
    with. `entries`: each source module's entry."""
    digests: dict[str, str] = {}
    now = states.items()

    def digest_of(name: str) -> str | None:
        entry = entries.get(name)
        if entry is None:
            return None
        if name not in digests:
            digests[name] = entry.digest or deps_digest(entry.deps)
        return digests[name]

    def locally_valid(name: str) -> bool:
        entry = entries.get(name)
        if entry is None:
            return False
        if any(digest_of(ref) != recorded for ref, recorded in entry.refs.items()):
            return False
        # A set comparison of (name, state) pairs, in C: tens of thousands of them.
        return entry.deps.items() <= now

    # The import cycles of the refs (modules/import_cycles.py); a component is
    # valid when each member is, and each component it refers to is (found before it).
    # Listed once per module: the search asks for a node's successors again
    # each time it comes back to it. A ref that is no longer a source fails
    # locally_valid on its digest.
    refs = {name: sorted(r for r in entry.refs if r in entries) if entry is not None else []
            for name, entry in entries.items()}

    valid: dict[str, bool] = {}
    for members in strongly_connected(entries, refs.__getitem__):
        group = set(members)
        ok = all(locally_valid(m) for m in members)
        if ok:
            for m in members:
                entry = entries[m]
                assert entry is not None  # locally valid
                if any(not valid.get(ref, False) for ref in entry.refs if ref not in group):
                    ok = False
                    break
        for m in members:
            valid[m] = ok
    return {name for name, ok in valid.items() if ok}
