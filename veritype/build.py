"""Run one check: parse the sources, bind them, check them, collect diagnostics.

This is the pipeline of DESIGN.md end to end. Drivers (cli, tests, server)
call `run`; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options


@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    reused: int = 0  # of files_checked, how many had their diagnostics from the cache
    # What the cache held and what was done about it, for --verbose (cache/store.py).
    cache_notes: list[str] = field(default_factory=list)
    # The run's Program, for `--stats` (counted on demand: see Program.statistics).
    program: object | None = field(default=None, repr=False, compare=False)


def run(sources: list[BuildSource], options: Options) -> BuildResult:
    # On a deep stack: legal but deeply nested code must not lose the run (deep_stack).
    from veritype.deep_stack import call_with_deep_stack

    return call_with_deep_stack(lambda: _run(sources, options))


def _run(sources: list[BuildSource], options: Options) -> BuildResult:
    from veritype.diagnostics import bounds
    from veritype.evaluate.program import Program

    bounds.reset()  # --verbose names the bounds this run hit (diagnostics/bounds.py)
    roots = [s.base_dir for s in sources]
    finder = ModuleFinder(options, roots)
    program = Program(options, finder)
    if options.num_workers > 1:
        from veritype.engine.workers import install

        install(program, options.num_workers)
    # Incremental checking (veritype/cache): only when a driver asked for it
    # by setting a cache directory (the CLI does, by default); tests and other
    # callers of `run` get a plain full check.
    # mypy's follow_imports=normal: the project modules the sources import are
    # checked and reported too, without counting as sources (evaluate.followed_imports).
    from veritype.evaluate.followed_imports import followed_sources

    followed = followed_sources(program, sources) if options.follow_imports == "normal" or options.overrides else []
    if options.incremental and options.cache_dir:
        from veritype.cache import CacheStore, check_incrementally

        result = check_incrementally(program, sources + followed, CacheStore(options.cache_dir))
    else:
        result = program.check_sources(sources + followed)
    result.files_checked = max(result.files_checked - len(followed), 0)
    result.reused = min(result.reused, result.files_checked)
    result.program = program
    return result
