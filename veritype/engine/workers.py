"""Checking a program's modules in worker processes (`-n N`, `num_workers`).

The parent loads (parses and binds) every module of the run, as a serial
run does, then forks N workers (fewer for a small program: see
CHARS_PER_WORKER). Each inherits that state and checks whole
import cycles (strongly connected components of the import graph between
the checked modules: mypy keeps a cycle in one process too), largest first,
taken from a shared queue; a worker keeps what it evaluated for the next
component it takes. A module's diagnostics come from its own check
(`engine.checking.check_one`), so they are the same as in a serial run; the parent
puts them back in the order of the sources.

Each task also returns the names of the non-stdlib modules the worker had to
load for it. The parent loads them too, so that after the run its program
holds every module any check needed, as after a serial run (the incremental
cache records dependencies from it; stdlib is keyed as a whole there).

Workers need `fork` (Linux, macOS): the evaluated state is inherited, never
pickled. Where there is no fork, the check runs serially.
"""

from __future__ import annotations

import gc
import multiprocessing
import warnings
from typing import TYPE_CHECKING

from veritype.cache.fingerprint import loaded_static_imports
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.engine.checking import check_one
from veritype.engine.release import release_bodies
from veritype.modules.import_cycles import strongly_connected

if TYPE_CHECKING:
    from collections.abc import Callable

    from veritype.engine.checking import CheckMany
    from veritype.evaluate.program import ModuleInfo, Program

# The program the forked workers inherit (set by the parent just before the fork).
_PROGRAM: "Program | None" = None
_RELEASE = False  # whether workers release checked modules' bodies (see runner)


def runner(program: Program, workers: int, release: bool = False) -> "CheckMany | None":
    """What checks `program`'s modules in `workers` processes (when there are
    at least two workers, two modules to check, and fork is available), for
    engine.checking.check_sources; None: check them serially. `release`: a
    one-shot run, where a worker releases each module's function bodies once
    it has checked it, as a serial run does (engine/release.py); the
    parent's trees are its own and stay whole."""
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return None

    def check_many(infos: list[ModuleInfo], meanwhile: Callable[[], None] | None = None) -> dict[str, list[Diagnostic]]:
        return check_in_workers(program, infos, workers, release, meanwhile)

    return check_many


# Source characters per worker, at least: a worker has a fixed cost (the fork,
# and loading and evaluating builtins, typing and the shared dependencies again:
# ~0.1-0.2 s CPU; a 2-module program took 0.30 s longer with -n 2 than
# serially) while checking runs at ~270,000 characters per CPU second (the
# bench corpus: 3.5M characters in ~13 s). Below ~100,000 characters (~3,000
# lines, ~0.4 s of checking) a second worker costs more than it saves, so
# `-n auto` on a many-core machine and a small project forks only as many
# workers as the program is large, and none for a small one.
CHARS_PER_WORKER = 100_000


def worker_count(workers: int, tasks: int, chars: int) -> int:
    """How many processes check `tasks` import cycles of `chars` source
    characters when `workers` were asked for (below 2: check serially)."""
    return min(workers, tasks, chars // CHARS_PER_WORKER)


def check_in_workers(program: Program, infos: list[ModuleInfo], workers: int, release: bool = False,
                     meanwhile: "Callable[[], None] | None" = None) -> dict[str, list[Diagnostic]]:
    """`meanwhile`: the caller's work that the check cannot change, done here
    while the workers check (this process would only wait: on 2 cores it
    takes a share of the workers' time but leaves the serial tail after
    them; engine.checking.CheckMany); not called when the check is serial."""
    groups = import_cycles(infos)
    weight = {info.name: len(info.parsed.source) if info.parsed is not None else 0 for info in infos}
    workers = worker_count(workers, len(groups), sum(weight.values()))
    if workers < 2:
        return {info.name: check_one(program, info) for info in infos}
    # Largest first: the long components start early and the short ones fill in.
    tasks = sorted(groups, key=lambda g: -sum(weight[n] for n in g))
    global _PROGRAM, _RELEASE
    _PROGRAM, _RELEASE = program, release
    results: dict[str, list[Diagnostic]] = {}
    loaded: set[str] = set()
    # What is loaded now is shared with the workers copy-on-write; frozen, the
    # collector never walks (and so never writes to) it in either process.
    gc.freeze()
    try:
        ctx = multiprocessing.get_context("fork")
        with warnings.catch_warnings():
            # Python 3.12+ warns that forking a multi-threaded process may
            # deadlock the child on a lock another thread held. The run is on
            # the deep-stack thread (engine.deep_stack) while the main thread
            # only waits in Thread.join, holding no lock a worker takes; and a
            # worker never returns to the main thread's code.
            warnings.filterwarnings("ignore", category=DeprecationWarning, message=r".*multi-threaded.*fork")
            pool = ctx.Pool(workers)
        with pool:
            results_in = pool.imap_unordered(_check_group, tasks, chunksize=1)  # the workers start now
            if meanwhile is not None:
                meanwhile()
            for checked, names in results_in:
                results.update(checked)
                loaded.update(names)
    finally:
        _PROGRAM = None
        gc.unfreeze()
    for name in sorted(loaded):
        program.get_module(name)
    return results


def _check_group(names: list[str]) -> tuple[list[tuple[str, list[Diagnostic]]], list[str]]:
    """In a worker: check the modules of one import cycle, in source order."""
    program = _PROGRAM
    assert program is not None
    before = set(program.modules)
    checked = []
    for name in names:
        info = program.modules[name]
        assert info is not None
        checked.append((name, check_one(program, info)))
        if _RELEASE:
            release_bodies(info)
    new = [n for n, i in program.modules.items() if n not in before and i is not None and i.origin != "stdlib"]
    return checked, new


def import_cycles(infos: list[ModuleInfo]) -> list[list[str]]:
    """The modules grouped by import cycle (strongly connected components of the
    static imports between them; Tarjan's algorithm, iterative), each group in
    the order of `infos`."""
    order = {info.name: i for i, info in enumerate(infos)}
    edges: dict[str, list[str]] = {}
    for info in infos:
        found = loaded_static_imports(info)
        names = found[0] if found is not None else set()
        edges[info.name] = sorted((n for n in names if n in order and n != info.name), key=order.__getitem__)
    return [sorted(group, key=order.__getitem__) for group in strongly_connected(order, edges.__getitem__)]
