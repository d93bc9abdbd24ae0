"""Run one check: load the sources, check them, collect diagnostics.

This is the pipeline of DESIGN.md end to end, for one `veritype check`.
Drivers (cli, tests, server) call `run`; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.engine.checking import BuildResult, CheckMany, check_sources
from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options

if TYPE_CHECKING:
    from veritype.cache import CacheStore
    from veritype.cache.file_digests import FileDigests
    from veritype.cache.shared import SharedCache
    from veritype.engine.early_workers import EarlyWorkers
    from veritype.engine.followed_imports import Scan
    from veritype.evaluate.program import ModuleInfo, Program

__all__ = ["BuildResult", "run"]


def run(sources: list[BuildSource], options: Options, *, release_bodies: bool = False) -> BuildResult:
    """`release_bodies`: the caller reads only the diagnostics (a one-shot
    `veritype check`), so each module's function bodies may be released once
    it is checked (engine/release.py); the result's program then holds the
    modules' interfaces, not their whole trees."""
    # On a deep stack: legal but deeply nested code must not lose the run (deep_stack).
    from veritype.engine.deep_stack import call_with_deep_stack

    return call_with_deep_stack(lambda: _run(sources, options, release_bodies))


def _run(sources: list[BuildSource], options: Options, release_bodies: bool = False) -> BuildResult:
    from veritype.diagnostics import bounds
    from veritype.evaluate.program import Program

    bounds.reset()  # --verbose names the bounds this run hit (diagnostics/bounds.py)
    roots = [s.base_dir for s in sources]
    finder = ModuleFinder(options, roots)
    program = Program(options, finder)
    # Only the diagnostics are read after a one-shot run: nothing asks about
    # the dead side of a typeshed `if sys.version_info` (semantic/dead_branches.py).
    program.drop_dead_stub_branches = release_bodies
    # Incremental checking (veritype/cache): only when a driver asked for it
    # by setting a cache directory (the CLI does, by default); tests and other
    # callers of `run` get a plain full check.
    store = None
    if options.incremental and options.cache_dir:
        from veritype.cache import CacheStore

        store = CacheStore(options.cache_dir, options.sqlite_cache)
    check_many: CheckMany | None = None
    early: "EarlyWorkers | None" = None
    if options.num_workers > 1:
        from veritype.engine import workers

        check_many = workers.runner(program, options.num_workers, release_bodies)
        if check_many is not None:
            # Forked before parsing, if the import walk has enough to parse
            # (engine/early_workers.py); else the modules load here and
            # check_many forks once they are.
            from veritype.engine.early_workers import EarlyWorkers

            early = EarlyWorkers(program, options.num_workers, release_bodies, workers.CHARS_PER_WORKER, store is not None)
    try:
        return _check(program, sources, options, store, check_many, early, release_bodies)
    finally:
        if early is not None:
            early.close()


def _check(program: "Program", sources: list[BuildSource], options: Options, store: "CacheStore | None",
           check_many: CheckMany | None, early: "EarlyWorkers | None", release_bodies: bool) -> BuildResult:
    def check(srcs: list[BuildSource], reuse: dict[str, list[Diagnostic]] | None = None,
              on_checked: Callable[[BuildSource, list[Diagnostic]], None] | None = None,
              before_release: "Callable[[ModuleInfo], None] | None" = None,
              meanwhile: Callable[[], None] | None = None) -> BuildResult:
        return check_sources(program, srcs, reuse, on_checked, check_many, release_bodies, before_release, meanwhile, early)

    # mypy's follow_imports=normal: the project modules the sources import are
    # checked and reported too, without counting as sources (engine.followed_imports).
    files = None
    if store is not None:
        from veritype.cache.file_digests import FileDigests

        files = FileDigests(store.load_files())  # read once, for both uses below
    followed: list[BuildSource] = []
    settle: Callable[[], None] | None = None
    if options.follow_imports == "normal" or options.overrides:
        followed, settle = _followed(program, sources, store, files, early.scan if early is not None else None,
                                     prefixes=release_bodies and check_many is None)
    if store is not None:
        from veritype.cache import check_incrementally

        # settle (the import memo, only with a store) is saved with the run's
        # other rows, before the store commits them (cache/incremental.py).
        result = check_incrementally(program, sources + followed, store, check, shared_cache(options), files, settle)
    else:
        result = check(sources + followed)
    result.files_checked = max(result.files_checked - len(followed), 0)
    result.reused = min(result.reused, result.files_checked)
    result.program = program
    return result


def shared_cache(options: Options) -> "SharedCache | None":
    """The shared stub cache a driver asked for (options.shared_cache_dir)."""
    if not options.shared_cache_dir:
        return None
    from veritype.cache.fingerprint import veritype_key
    from veritype.cache.shared import SharedCache

    return SharedCache(options.shared_cache_dir, veritype_key())


def _followed(program: "Program", sources: list[BuildSource], store: "CacheStore | None",
              files: "FileDigests | None" = None, scan: "Scan | None" = None,
              prefixes: bool = False) -> "tuple[list[BuildSource], Callable[[], None] | None]":
    """followed_sources, with the cache's import memo when there is a cache;
    and what to do once the run is checked, if anything (save the memo).
    `prefixes`: the check loads each module when its turn comes (a one-shot
    serial run: engine/checking.py), so the walk reads imports from prefixes
    rather than load every source first (engine/followed_imports.py); the
    memo entries made so are kept once their module's whole parse is known."""
    from veritype.engine.followed_imports import followed_sources

    unconfirmed: dict[str, str] | None = {} if prefixes else None
    if store is None:
        return followed_sources(program, sources, scan=scan, unconfirmed=unconfirmed), None
    from veritype.cache.fingerprint import veritype_key

    key = veritype_key()
    memo = store.load_imports(key)
    before = dict(memo)
    found = followed_sources(program, sources, memo, files, scan, unconfirmed)

    def settle() -> None:
        for name, digest in (unconfirmed or {}).items():
            info = program.modules.get(name)
            if info is None or info.tree is None:
                memo.pop(digest, None)  # not loaded after all, or no tree: its imports are not known
        if memo != before:
            store.save_imports(key, memo)

    if not unconfirmed:
        settle()
        return found, None
    return found, settle
