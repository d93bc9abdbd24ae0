"""One incremental run: reuse the cached diagnostics of unchanged modules,
check the rest, and store entries for what was checked.

See the package docstring for what a fingerprint covers and its limits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.cache.file_digests import FileDigests
from veritype.cache.fingerprint import (
    MISSING,
    UNREADABLE,
    digest_bytes,
    digest_text,
    options_key,
    typeshed_key,
    veritype_key,
)
from veritype.cache.closures import UNLOADED, ImportGraph, expand, pairs_digest, valid_entries
from veritype.cache.run_summary import RunSummary, run_key
from veritype.cache.shared import SharedCache
from veritype.cache.store import CacheStore, Entry, json_string
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.modules.finder import MissingModule
from veritype.modules.sources import BuildSource
from veritype.syntax.read_files import read_bytes

if TYPE_CHECKING:
    from collections.abc import Callable

    from veritype.engine.checking import BuildResult
    from veritype.evaluate.program import ModuleInfo, Program
    from veritype.syntax.parse import ParsedFile

    # The engine's check of some sources (engine/checking.check_sources):
    # (sources, reuse, on_checked, before_release, meanwhile) -> the run's
    # result. Passed in: the cache sits below the engine and does not import it.
    # before_release(info): a module is about to have its bodies released;
    # meanwhile(): work to do while worker processes check, if they do.
    Check = Callable[[list[BuildSource], dict[str, list[Diagnostic]], Callable[[BuildSource, list[Diagnostic]], None],
                      Callable[[ModuleInfo], None], Callable[[], None]], BuildResult]


class _States:
    """Where each module name resolves now, with a digest of its interface
    (cache/interface.py: what an importer's check can observe of it);
    memoized per run. A checked module's own source is digested in full
    (`source_digest`), by `_module_key`."""

    def __init__(self, program: Program, interfaces: dict[str, str] | None = None, shared: SharedCache | None = None,
                 files: FileDigests | None = None) -> None:
        self.program = program
        self.files = files or FileDigests()  # content digests, by stat where unchanged
        self.shared = shared  # library files' digests, shared by every project (cache/shared.py)
        self._memo: dict[str, str] = {}
        # source digest -> interface digest: `known` from the store (parsing
        # every dependency is most of a warm run), `used` by this run.
        self.known = interfaces or {}
        self.used: dict[str, str] = {}
        # module -> (its source, newlines normalized; the interface digest of
        # that text), taken from the check's parse before the module's function
        # bodies were released (`keep_interface`); used if the state is asked.
        self._early: dict[str, tuple[str, str]] = {}
        # module -> the digest of the bytes that text was decoded from (the
        # parse read them: ParsedFile.digest), where known: a file whose
        # digest is that now has that interface, without a read to tell.
        self._early_bytes: dict[str, str] = {}
        # Interface digests computed by worker processes from their own parse
        # (engine/early_workers.py, `LoadedDigests`): the same function of the
        # same bytes, taken instead of parsing here. Unlike `known`, consulted
        # only where a digest is computed: the shared cache is asked first.
        self.computed: dict[str, str] = {}

    def keep_interface(self, name: str) -> None:
        """Digest the interface of the checked source module `name` now, while
        its tree is whole: engine/release.py empties its function bodies next,
        and a digest asked after (for its importers' entries) would parse the
        file again. Not when the digest of its bytes is known already."""
        info = self.program.modules.get(name)
        src = self.program.sources.get(name)
        if info is None or src is None or info.parsed is None or info.parsed.tree is None or info.path != src.path:
            return
        if name in self._memo:
            return
        full = "text:" + digest_text(src.text) if src.text is not None else "file:" + self.files.digest(src.path)
        if full in self.used or full in self.known:
            return
        from veritype.cache.interface import interface_digest, normalized_newlines

        text = normalized_newlines(info.parsed.source)
        self._early[name] = (text, interface_digest(text, info.parsed))
        if info.parsed.digest is not None:
            self._early_bytes[name] = info.parsed.digest

    def source_digest(self, src: BuildSource) -> str:
        return digest_text(src.text) if src.text is not None else self.files.digest(src.path)

    def state(self, name: str) -> str:
        if name not in self._memo:
            self._memo[name] = self._compute(name)
        return self._memo[name]

    def _compute(self, name: str) -> str:
        """Where `name` resolves, with its interface's digest; for a module the run
        did not load (closures.UNLOADED and its name), where it resolves only."""
        loaded = not name.startswith(UNLOADED)
        if not loaded:
            name = name[len(UNLOADED):]
        src = self.program.sources.get(name)
        if src is not None:
            if not loaded:
                return f"source:{src.path}"
            parsed = self._parsed(name, src.path)
            early = self._early.pop(name, None)
            early_bytes = self._early_bytes.pop(name, None)
            iface = (self.interface_of_text(src.text, parsed, early) if src.text is not None
                     else self.interface_of_file(src.path, parsed=parsed, early=early, early_bytes=early_bytes))
            return f"source:{src.path}:{iface}"
        found = self.program.find(name)
        if isinstance(found, MissingModule):
            return f"{MISSING}:{found.code}:{found.ignored}"
        if found.origin == "stdlib":
            return f"stdlib:{found.path}"  # contents: covered by typeshed_key()
        if found.is_namespace:
            return f"namespace:{'|'.join(found.portions or (found.path,))}"
        if not loaded:
            return f"{found.origin}:{found.path}"
        iface = self.interface_of_file(found.path, library=found.origin != "source", parsed=self._parsed(name, found.path))  # not the project's: shared
        return f"{found.origin}:{found.path}:{iface}"

    def _parsed(self, name: str, path: str) -> ParsedFile | None:
        """The run's parse of the module, if it loaded it from `path`: its
        digest then needs no second parse (interface_digest checks the text)."""
        info = self.program.modules.get(name)
        return info.parsed if info is not None and info.path == path else None

    def interface_of_text(self, text: str, parsed: ParsedFile | None = None, early: tuple[str, str] | None = None) -> str:
        """`early`: a digest taken before the bodies were released (`keep_interface`)."""
        full = "text:" + digest_text(text)  # not a file's key: a file decodes by its coding cookie
        if full not in self.used:
            known = self.known.get(full)
            if known is None:
                known = self.computed.get(full)
            if known is None:
                from veritype.cache.interface import interface_digest  # imports the evaluate stage: not on a warm run

                known = interface_digest(text, parsed, early)
            self.used[full] = known
        return self.used[full]

    def interface_of_file(self, path: str, library: bool = False, parsed: ParsedFile | None = None,
                          early: tuple[str, str] | None = None, early_bytes: str | None = None) -> str:
        """`early_bytes`: the digest of the bytes `early`'s text was decoded from."""
        content = self.files.digest(path)
        if content == UNREADABLE:
            return UNREADABLE
        full = "file:" + content
        if full in self.used:
            return self.used[full]
        value = self.known.get(full)
        if value is None and early is not None and early_bytes == content:
            # The check's parse read these very bytes (a cold run's every
            # checked source): the digest taken from it then stands, as
            # interface_digest_of_bytes would find reading them again.
            value = early[1]
        if value is None:
            # Not known by its digest: read it (the digest is then that of
            # the bytes read, should the file have changed since its stat).
            try:
                data = read_bytes(path)
            except OSError:
                return UNREADABLE
            content = digest_bytes(data)
            full = "file:" + content
            if full in self.used:
                return self.used[full]
            value = self.known.get(full)
            from veritype.cache.interface import interface_digest_of_bytes  # imports the evaluate stage: not on a warm run

            if value is None and library and self.shared is not None:
                value = self.shared.interface(content, path)
                if value is None:
                    value = self.computed.get(full) or interface_digest_of_bytes(data, parsed)
                    self.shared.store_interface(content, value)
            if value is None:
                value = self.computed.get(full) or interface_digest_of_bytes(data, parsed, early)
        self.used[full] = value
        return value


class LoadedDigests:
    """In a worker process (engine/early_workers.py): the interface digests of
    modules it loaded, from its own parse, as `_States` computes them (no
    cache read: `known` is empty, no shared cache), for the parent's
    `_States.computed`. `take(name)` while the module's tree is whole."""

    def __init__(self, program: Program) -> None:
        self._states = _States(program)
        self._sent = 0

    def take(self, name: str) -> None:
        self._states.state(name)

    def new(self) -> dict[str, str]:
        """The digests computed since the last call."""
        used = self._states.used
        items = list(used.items())[self._sent:]
        self._sent = len(used)
        return dict(items)


def _module_key(base: str, src: BuildSource, states: _States) -> str:
    return digest_text(f"{base}\n{src.module}\n{src.path}\n{states.source_digest(src)}")


def check_incrementally(program: Program, sources: list[BuildSource], store: CacheStore, check: "Check",
                        shared: SharedCache | None = None, files: FileDigests | None = None,
                        settle: "Callable[[], None] | None" = None) -> BuildResult:
    """`files`: the run's content digests (cache/file_digests.py), if the
    caller already made them from `store.load_files()`. `settle`: what the
    caller saves once the run is checked (engine/build.py: the import memo),
    called before the store commits the run's rows (`CacheStore.flush`: one
    transaction), so that `--verbose` counts every row not written."""
    try:
        # Its working state (the entries' closures and states) is gone once it
        # returns, before settle's and the commit's: they would add to the peak.
        result, reused = _check_and_save(program, sources, store, check, shared, files)
        if settle is not None:
            settle()
    finally:
        store.flush()
    result.reused = reused
    result.cache_notes = store.summary(reused) + (shared.summary() if shared is not None else [])
    return result


def _check_and_save(program: Program, sources: list[BuildSource], store: CacheStore, check: "Check",
                    shared: SharedCache | None, files: FileDigests | None) -> tuple[BuildResult, int]:
    """Check what the cache cannot answer and save the entries (and memos)
    of the run; the result and how many modules were reused."""
    options = program.options
    base = "\n".join((veritype_key(), typeshed_key(), options_key(options)))
    for src in sources:  # so that dependency states see the run's own sources
        program.sources[src.module] = src
    if files is None:
        files = FileDigests(store.load_files())
    states = _States(program, store.load_interfaces(veritype_key()), shared, files)
    store.remove_stale_temps()

    reuse: dict[str, list[Diagnostic]] = {}
    keys = {src.module: _module_key(base, src, states) for src in sources}
    paths = {src.module: src.path for src in sources}
    key = run_key(base, [(src.module, src.path, keys[src.module]) for src in sources])
    entries: dict[str, Entry | None] = {}
    summary = store.load_run(key)
    if (summary is not None and summary.modules.keys() == keys.keys()
            and summary.answers(states.state, lambda m: store.entry_stat(m, paths[m]))):
        # The last run's answer, over the same entries (cache/run_summary.py).
        reuse = {src.module: summary.modules[src.module][1] for src in sources}
    else:
        summary = None
        for src in sources:
            entries[src.module] = store.load(src.module, src.path)
        # An entry's closure goes on in the entries it refers to (cache/closures.py),
        # whatever their own keys: a body edit leaves the importers' entries valid.
        # The state now of every name an entry records: each is needed (to reuse
        # the entry, or to record it again when the module is checked afresh).
        recorded_names = set().union(*(entry.deps for entry in entries.values() if entry is not None))
        valid = valid_entries(entries, {name: states.state(name) for name in sorted(recorded_names)})
        for src in sources:
            entry = entries[src.module]
            if entry is not None and entry.key == keys[src.module] and src.module in valid:
                reuse[src.module] = entry.diagnostics

    fresh: dict[str, list[Diagnostic]] = {}

    def remember(src: BuildSource, diagnostics: list[Diagnostic]) -> None:
        fresh[src.module] = diagnostics

    def before_release(info: ModuleInfo) -> None:
        # A checked module's state (its interface digest) is asked after the
        # run, for its importers' entries; taken now, from the check's parse,
        # while its function bodies are there (engine/release.py empties them
        # once it is checked; the digest would then parse the file again).
        states.keep_interface(info.name)

    graph = ImportGraph(program)

    def meanwhile() -> None:
        """What writing the entries below computes in any case and the check
        cannot change, done while worker processes check (engine/workers.py;
        this process would wait idle): each module to check has its own
        static imports read, and the sources among them, which its entry
        records, their interface digests (both syntactic, over the trees
        loaded now). Nothing more is computed than below: the interface
        memo saved holds the same digests."""
        for src in sources:
            if src.module in reuse:
                continue
            for name in graph.direct_dependencies(src.module):
                if name in program.sources:
                    states.state(name)

    result = check(sources, reuse, remember, before_release, meanwhile)
    # What worker processes loaded and this one did not (engine/early_workers.py).
    graph.add_loaded_elsewhere(result.loaded_elsewhere)
    states.computed.update(result.digests_elsewhere)

    # Entries are written after the whole run: only then has every module
    # that any check needed been loaded, so the closures are complete.
    # An entry refers to the entries of this run's other fresh modules rather
    # than repeating their closures (cache/closures.py: linear, not quadratic).
    walks = expand({src.module: graph.dependencies(src.module, fresh) for src in sources if src.module in fresh})
    # The state of each name once (a name is recorded by many entries), then
    # each entry's states by dict look-ups in C.
    now = {name: states.state(name) for name in sorted(set().union(*(names for names, _ in walks.values())))}
    # An entry's deps are its names' states, by name: written as the JSON
    # text of that dict and digested (closures.pairs_digest) from each
    # (name, state) pair's text made once, not once per entry recording it
    # (51k pairs of 1.8k names on the corpus), joined in C.
    as_json = {name: f"{json_string(name)}: {json_string(state)}" for name, state in now.items()}
    as_text = {name: f"{name}\0{state}" for name, state in now.items()}
    ordered = {module: sorted(names) for module, (names, _) in walks.items()}
    # The walks' name sets (a set of ~120 names for each of the 431 modules
    # of the bench corpus) go before the rows below are made: this is the
    # run's peak of memory (1 MB lower so).
    refs_of = {module: refs for module, (_, refs) in walks.items()}
    del walks
    digests = {module: pairs_digest(map(as_text.__getitem__, names)) for module, names in ordered.items()}
    for src in sources:
        if src.module not in fresh:
            continue
        refs = {ref: digests[ref] for ref in sorted(refs_of[src.module])}
        deps_json = "{" + ", ".join(map(as_json.__getitem__, ordered[src.module])) + "}"
        store.save_encoded(src.module, src.path, keys[src.module], deps_json, refs, digests[src.module], fresh[src.module])
    del as_json, as_text, ordered, refs_of
    if summary is None and all(src.module in reuse or src.module in fresh for src in sources):
        # Every name any of the run's entries records: a reused entry's, or a
        # fresh one's (whose refs are among the fresh: their names are here too).
        names = set().union(now, *(e.deps for m, e in entries.items() if m in reuse and e is not None))
        store.save_run(RunSummary(
            key, {name: states.state(name) for name in sorted(names)},
            {src.module: (store.entry_stat(src.module, src.path), fresh.get(src.module, reuse.get(src.module, [])))
             for src in sources}))
    if states.used.keys() != states.known.keys():
        # Only the digests this run used are kept: the memo does not grow with
        # every version of every file ever seen.
        store.save_interfaces(veritype_key(), states.used)
    if files.changed():
        store.save_files(files.used)
    return result, len(reuse)
