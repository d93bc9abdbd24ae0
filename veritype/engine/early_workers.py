"""Worker processes forked before parsing (`-n N` on a cold run).

engine/workers.py forks once the parent has loaded every source: the parse
is then serial (~0.8 s on the bench corpus) and every worker inherits all of
the sources' trees (the parent is ~22 MB before parsing, ~164 MB after), so
each one's peak is that plus its own work. Here the parent forks as soon as
it has a round of sources to parse worth a second worker (`scan`, called by
engine.followed_imports while it walks the imports to follow), and never
parses them itself:

- a **scan** loads (parses and binds) a chunk of modules in a worker and
  answers what the parent needs of them: the imports to follow, whether
  they have `# mypy:` lines, their static imports (the import cycles, the
  cache's dependency walks) and their size. The worker keeps what it loaded.
- while it waits for its first check (the other worker still scans, then
  the parent ends the walk: ~0.1 s of the bench corpus's `-n 2` run for the
  worker that scans first), a worker loads the library modules its scan
  found imported, builtins first (`_Worker.idle`, stepped by
  engine/fork_pool.py until a message comes): its checks would load them
  anyway, while the other worker works.
- a **check** takes one import cycle (kept in one worker, as in
  engine/workers.py) to whichever worker is idle, preferably the one that
  scanned most of it (it parsed those already), and answers its modules'
  diagnostics, the static imports of every module the worker had to load,
  and, when the run has a cache, their interface digests, from the worker's
  own parse (cache/incremental.py `LoadedDigests`): the parent records the
  entries without parsing anything. In a one-shot run, a check also tells
  the worker which modules the others checked since its last task: it
  releases their function bodies (engine/release.py), as a serial run
  would have done by then, where it loaded them (scanned, or needed as a
  dependency). They were most of a worker's trees it would never read
  (each module is checked once, by one worker).

A module's diagnostics come from its own check (`engine.checking.check_one`)
as in a serial run. Where the first round is too small (an edit, a small
project) `scan` declines, and the run goes as before: loaded here, checked
by engine/workers.py.
"""

from __future__ import annotations

import os
from collections import Counter
from itertools import islice
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from veritype.cache.fingerprint import loaded_static_imports
from veritype.config.inline import mypy_comments
from veritype.engine.checking import check_one, lend_method_walker
from veritype.engine.fork_pool import ForkPool
from veritype.engine.followed_imports import module_imports
from veritype.engine.release import release_bodies
from veritype.modules.finder import FoundModule
from veritype.modules.import_cycles import strongly_connected
from veritype.modules.sources import BuildSource

if TYPE_CHECKING:
    from veritype.diagnostics.diagnostic import Diagnostic
    from veritype.evaluate.program import Program

# A module's static imports: (names it may import, names it binds) (cache/fingerprint.py);
# None for a loaded module without a tree (a namespace package).
Imports = tuple[set[str], set[str]] | None



class EarlyWorkers:
    """The run's worker processes, forked at the first `scan` worth them.

    `digests`: the run has a cache (workers compute interface digests)."""

    def __init__(self, program: Program, size: int, release: bool, chars_per_worker: int, digests: bool = False) -> None:
        self.program = program
        self.digests_wanted = digests
        self.size = size
        self.release = release
        self.chars_per_worker = chars_per_worker
        self.pool: ForkPool | None = None
        self.declined = False
        self.scanned: set[str] = set()
        self.loaded_by: list[set[str]] = []  # per worker: the modules it loaded
        self.chars: dict[str, int] = {}
        # Every non-stdlib module some worker loaded, with its static imports.
        self.imports: dict[str, Imports] = {}
        # Interface digests workers computed ("file:<digest>" or "text:<digest>" -> digest).
        self.digests: dict[str, str] = {}

    @property
    def started(self) -> bool:
        return self.pool is not None

    def scan(self, sources: list[BuildSource]) -> dict[str, tuple[list[str], bool] | None] | None:
        """engine.followed_imports.Scan: load `sources` in the workers. The
        first call decides: None (declined, load here) when the modules are
        too small for two workers, or when this process loaded sources already."""
        if self.pool is None:
            if self.declined or any(s.module in self.program.modules for s in sources):
                self.declined = True
                return None
            chars = sum(_size(s) for s in sources)
            size = min(self.size, len(sources), chars // self.chars_per_worker)
            if size < 2:
                self.declined = True
                return None
            worker = _Worker(self.program)
            self.pool = ForkPool(size, worker, worker.idle)
            self.loaded_by = [set() for _ in range(size)]
        answers: dict[str, tuple[list[str], bool] | None] = {}
        # One contiguous share of the sources per worker, of about equal size:
        # the modules of a package (which import each other and mostly what
        # is near them) are parsed in one worker, which is then preferred to
        # check them (`check`), and loads less of the rest.
        shares = _shares(sources, len(self.loaded_by))
        tasks = [("scan", share) for share in shares if share]
        for w, (found, loaded) in self._run(tasks, lambda w, pending: _own(w, pending, shares)):
            self.imports.update(loaded)
            self.loaded_by[w].update(loaded)
            self.scanned.update(found)
            for name, answer in found.items():
                if answer is None:
                    answers[name] = None
                else:
                    deps, comments, chars = answer
                    self.chars[name] = chars
                    answers[name] = (deps, comments)
        return answers

    def check(self, sources: list[BuildSource], names: list[str]) -> dict[str, list[Diagnostic]]:
        """The diagnostics of the modules `names` (of the run's `sources`), each
        import cycle checked in one worker."""
        assert self.pool is not None
        program = self.program
        self.pool.broadcast(("begin", sources, names, self.release, self.digests_wanted))
        # Modules no worker scanned (their imports came from the cache's memo): scanned now.
        unknown = [program.sources[n] for n in names if n not in self.scanned and n not in self.imports and n in program.sources]
        if unknown:
            self.scan(unknown)
        order = {name: i for i, name in enumerate(names)}

        # Each module's edges listed once: the search asks for a node's
        # successors again each time it comes back to it (3,425 times for the
        # bench corpus's 426 modules, sorted each time: ~0.02 s).
        edges: dict[str, list[str]] = {}
        for name in names:
            found = self.imports.get(name)
            deps = found[0] if found is not None else set()  # (not loaded: no edges, as import_cycles)
            edges[name] = sorted((n for n in deps if n in order and n != name), key=order.__getitem__)

        groups = [sorted(g, key=order.__getitem__) for g in strongly_connected(order, edges.__getitem__)]
        weight = {tuple(g): sum(self.chars.get(n, 0) for n in g) for g in groups}
        # Largest first: the long components start early and the short ones fill in.
        tasks = [("check", g) for g in sorted(groups, key=lambda g: -weight[tuple(g)])]

        # Each cycle with the modules it imports directly: what its check loads first.
        near = {tuple(g): set(g).union(*(found[0] for n in g if (found := self.imports.get(n)) is not None)) for g in groups}

        def choose(w: int, pending: list[Any]) -> int:
            # The largest cycle this worker loaded most of (it scanned it).
            for i, (_, group) in enumerate(pending):
                if self._preferred(group) == w:
                    return i
            # Else the one that brings most to check per character this worker
            # must load for it first (the cycle and its direct imports that it
            # has not loaded): those it loads are parsed a second time, the
            # other worker having scanned them (it was: the most of them loaded,
            # which for a worker that had loaded none was the largest cycle,
            # whatever it imports). Bench corpus -n 2, the characters of the
            # modules both workers loaded: 0.89-0.95M -> 0.79-0.82M (0.57-0.73M
            # with `_shares`' cuts between packages too).
            loaded = self.loaded_by[w]
            best, most = 0, -1.0
            for i, (_, group) in enumerate(pending):
                key = tuple(group)
                missing = sum(self.chars.get(n, 0) for n in near[key] if n not in loaded)
                score = weight[key] / (missing + 1)
                if score > most:
                    best, most = i, score
            return best

        # The modules checked, in the order their answers came, with the
        # worker that checked them; `told[w]`: how many of them worker w heard of.
        done: list[tuple[str, int]] = []
        told = [0] * len(self.loaded_by)

        def dress(w: int, task: tuple[str, list[str]]) -> tuple[str, list[str], list[str]]:
            elsewhere = [name for name, by in done[told[w]:] if by != w] if self.release else []
            told[w] = len(done)
            return (*task, elsewhere)

        results: dict[str, list[Diagnostic]] = {}
        # Two tasks queued behind the one a worker checks (fork_pool.ForkPool.run):
        # most of the cycles are single modules checked in milliseconds, where a
        # round trip per task left a worker waiting for the next. Bench corpus
        # -n 2 on a loaded machine, a worker's time blocked waiting for its next
        # check: 0.08-1.3 s per run -> 0.00-0.03 s (0.05-0.45 s with one queued).
        for w, (checked, loaded, found_digests) in self._run(tasks, choose, dress, 2):
            done.extend((name, w) for name, _ in checked)
            results.update(checked)
            self.imports.update(loaded)
            self.loaded_by[w].update(loaded)
            self.digests.update(found_digests)
        # The run's last use of the workers: they exit while this process
        # writes the cache and the report (`close` then finds them gone: the
        # wait was ~50 ms of a 2.4 s `-n 2` run).
        self.pool.stop()
        return results

    def _run(self, tasks: list[Any], choose: Callable[[int, list[Any]], int],
             dress: Callable[[int, Any], Any] | None = None, ahead: int = 0) -> Iterator[tuple[int, Any]]:
        """The pool's answers. A module's `# mypy:` comments may name settings
        veritype does not enforce (Program._inline_config): those the workers
        met are named in the run's warning too, as if loaded here."""
        assert self.pool is not None
        for w, _, (answer, not_enforced) in self.pool.run(tasks, choose, dress, ahead):
            self.program.options.not_enforced.update(not_enforced)
            yield w, answer

    def _preferred(self, group: list[str]) -> int | None:
        """The worker that loaded most of `group` (by size), if any did."""
        best, most = None, 0
        for w, loaded in enumerate(self.loaded_by):
            have = sum(self.chars.get(name, 0) + 1 for name in group if name in loaded)
            if have > most:
                best, most = w, have
        return best

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()


def _shares(sources: list[BuildSource], n: int) -> list[list[BuildSource]]:
    """`sources` cut in `n` runs of about equal size, in order. A cut falls
    between two packages (`_package`) where one boundary is within
    `_SNAP` of the even cut: a package's modules import each other, and the
    worker that scans a package is the one preferred to check it
    (EarlyWorkers.check), so a package cut in two had the part the other
    worker scanned parsed again where it was checked (the bench corpus's cut
    fell inside veritype.check, a 74-module import cycle: 0.17M characters
    parsed twice)."""
    sizes = [_size(s) for s in sources]
    total = sum(sizes) or 1
    starts: list[int] = []
    done = 0
    for size in sizes:
        starts.append(done)
        done += size
    boundaries = [i for i in range(1, len(sources)) if _package(sources[i]) != _package(sources[i - 1])]
    cuts = [0]
    for k in range(1, n):
        even = total * k // n
        # (without one: the first source that starts past the even cut, as before)
        exact = next((i for i in range(len(sources)) if starts[i] * n // total >= k), len(sources))
        near = [i for i in boundaries if abs(starts[i] - even) <= total * _SNAP // n]
        cut = min(near, key=lambda i: abs(starts[i] - even)) if near else exact
        cuts.append(max(cut, cuts[-1]))
    cuts.append(len(sources))
    return [sources[cuts[k]:cuts[k + 1]] for k in range(n)]


# How far (a share of one worker's part) a cut may move to fall between packages.
_SNAP = 0.125


def _package(src: BuildSource) -> str:
    """The package a source belongs to (itself for a package's __init__)."""
    if os.path.basename(src.path).startswith("__init__."):
        return src.module
    return src.module.rpartition(".")[0]


def _own(w: int, pending: list[Any], shares: list[list[BuildSource]]) -> int:
    """The index in `pending` of worker `w`'s own share, else the first."""
    for i, (_, share) in enumerate(pending):
        if share is shares[w]:
            return i
    return 0


def _size(src: BuildSource) -> int:
    if src.text is not None:
        return len(src.text)
    try:
        return os.path.getsize(src.path)
    except OSError:
        return 0


_NOT_WARMED = frozenset({"builtins", "__future__"})  # (builtins: put first)


class _Worker:
    """In a worker process: its copy of the program, and what it told the parent."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.noted = 0  # program.modules entries whose imports were sent (in order)
        self.release = False
        self.digests: Any = None  # cache/incremental.py LoadedDigests, when the run has a cache
        self.elsewhere: set[str] = set()  # the modules other workers checked
        self.released: set[str] = set()  # those of them this one released
        # What `idle` loads next (last first): the library modules this one's scan found imported.
        self.warm: list[str] = []

    def __call__(self, message: tuple[Any, ...]) -> Any:
        if message[0] != "begin":
            # (only until the next task, `begin` aside: the parent has yet to
            # order the import cycles then; see `idle`)
            self.warm = []
        if message[0] == "begin":
            return self.begin(*message[1:])
        answer = self.scan(message[1]) if message[0] == "scan" else self.check(message[1], message[2])
        return answer, self.program.options.not_enforced

    def scan(self, sources: list[BuildSource]) -> tuple[dict[str, tuple[list[str], bool, int] | None], dict[str, Imports]]:
        program = self.program
        found: dict[str, tuple[list[str], bool, int] | None] = {}
        for src in sources:
            program.sources[src.module] = src
            info = program.get_module(src.module)
            if info is None or info.tree is None or info.parsed is None:
                found[src.module] = None
                continue
            found[src.module] = (module_imports(program, info), bool(mypy_comments(info.parsed.source)), len(info.parsed.source))
        # The most imported first, builtins (every check reads it) before all;
        # not __future__ (a check reads its imports without loading it).
        counts = Counter(dep for answer in found.values() if answer is not None for dep in answer[0])
        self.warm = [name for name, _ in reversed(counts.most_common()) if name not in _NOT_WARMED] + ["builtins"]
        return found, self._loaded()

    def idle(self) -> bool:
        """While this worker waits for its first check (the other's scan, then
        the parent's walk and its ordering of the import cycles), load one
        more library module its scan found imported: its checks would load
        it, each module being mostly checked where it was scanned. Never a
        source (the run's, or one the walk may yet follow: loaded before
        `begin` registers it, it would not load as one), nor anything once a
        check came. False: nothing more to load."""
        program = self.program
        while self.warm:
            name = self.warm.pop()
            if name in program.modules:
                continue
            found = program.find(name)
            if isinstance(found, FoundModule) and found.origin != "source" and not found.is_namespace:
                program.get_module(name)
                return True
        return False

    def begin(self, sources: list[BuildSource], names: list[str], release: bool, digests: bool) -> None:
        """The check starts: the run's sources as a serial run registers them,
        the modules it checks marked so (engine.checking.check_sources)."""
        program = self.program
        for src in sources:
            program.sources[src.module] = src
        self.release = release
        if digests:
            from veritype.cache.incremental import LoadedDigests

            self.digests = LoadedDigests(program)
        lend_method_walker(program)
        program.checking = frozenset(names)
        for name in names:
            info = program.modules.get(name)
            if info is not None:
                info.checked = True

    def check(self, group: list[str], elsewhere: list[str]) -> tuple[list[tuple[str, list[Diagnostic]]], dict[str, Imports], dict[str, str]]:
        """`elsewhere`: modules the other workers checked since this one's last
        task. Where this one loaded them, their bodies go (`_release`): now,
        or once a task that loads them has taken their digests."""
        program = self.program
        self.elsewhere.update(elsewhere)
        self._release(elsewhere)
        infos = []
        for name in group:
            info = program.get_module(name)
            if info is not None and info.parsed is not None:
                info.checked = True
                infos.append(info)
        checked = []
        loaded: dict[str, Imports] = {}
        for info in infos:
            checked.append((info.name, check_one(program, info)))
            # Before its bodies go: the digests read the whole tree.
            loaded.update(self._loaded())
            if self.digests is not None:
                self.digests.take(info.name)
            if self.release:
                release_bodies(info, keep_imports=False)
        loaded.update(self._loaded())
        found_digests: dict[str, str] = {}
        if self.digests is not None:
            # A module the run checks is digested by the worker that checks
            # it (above): the others that load it would compute it again.
            for name, found in loaded.items():
                if found is not None and name not in program.checking:
                    self.digests.take(name)
            found_digests = self.digests.new()
        self._release([name for name in loaded if name in self.elsewhere])
        return checked, loaded, found_digests

    def _release(self, names: list[str]) -> None:
        """Release the bodies of the modules `names`, checked by another
        worker, where this one loaded them (a one-shot run only). Each
        module is checked by one worker: this one never reads those bodies
        (nor, already sent, their imports and digests); a serial run would
        have released them by now."""
        if not self.release:
            return
        for name in names:
            info = self.program.modules.get(name)
            if info is not None and name not in self.released:
                self.released.add(name)
                release_bodies(info, keep_imports=False)

    def _loaded(self) -> dict[str, Imports]:
        """The static imports of the non-stdlib modules loaded since the last call."""
        modules = self.program.modules
        new: dict[str, Imports] = {}
        for name, info in islice(modules.items(), self.noted, None):
            if info is not None and info.origin != "stdlib":
                new[name] = loaded_static_imports(info)  # (as the cache's import graph reads them)
        self.noted = len(modules)
        return new
