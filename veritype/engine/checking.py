"""Checking loaded modules: the check stage over each, then its ignores and options.

The one path from a `Program` (evaluate/program.py: the loaded modules and
their evaluator) to a module's reported diagnostics. `engine.build.run`
(one `veritype check`), the incremental cache, the worker processes (`-n N`)
and the workspace of the language server and daemon all check through it,
so a module gets the same diagnostics whichever driver asked.

This lives in the engine, above `check`, so that `evaluate` does not know
the check stage exists (DESIGN.md, the pipeline).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from veritype.diagnostics.diagnostic import Diagnostic

if TYPE_CHECKING:
    import ast

    from veritype.engine.early_workers import EarlyWorkers
    from veritype.evaluate.program import ModuleInfo, Program
    from veritype.modules.sources import BuildSource

# Checks a list of loaded modules: module name -> its diagnostics, as
# `check_one` gives them (engine/workers.py checks them in worker processes).
# The second argument, if any, is work of the caller's that the check cannot
# change: done while the workers check, when this process would wait idle.
CheckMany = Callable[["list[ModuleInfo]", "Callable[[], None] | None"], "dict[str, list[Diagnostic]]"]


@dataclass
class BuildResult:
    """What a run found: the diagnostics and how many files were checked."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0
    reused: int = 0  # of files_checked, how many had their diagnostics from the cache
    # What the cache held and what was done about it, for --verbose (cache/store.py).
    cache_notes: list[str] = field(default_factory=list)
    # The run's Program, for `--stats` (counted on demand: see Program.statistics).
    program: object | None = field(default=None, repr=False, compare=False)
    # What worker processes forked before parsing loaded and this process did
    # not (engine/early_workers.py), for the cache's entries: each non-stdlib
    # module's static imports (None: no tree), and interface digests
    # ("file:<digest>" -> digest) computed from their parse.
    loaded_elsewhere: "dict[str, tuple[set[str], set[str]] | None]" = field(default_factory=dict, repr=False, compare=False)
    digests_elsewhere: dict[str, str] = field(default_factory=dict, repr=False, compare=False)


def lend_method_walker(program: "Program") -> None:
    """Let the evaluator infer `self.x = value` attributes from narrowed
    values, by walking their methods silently with the check stage (see
    evaluate/declarations.py). Imported on first use: a run that takes every
    module from the cache never loads the check stage."""

    def walk_method(method, scope):  # type: ignore[no-untyped-def]
        from veritype.check.module_checker import walk_method_silently

        return walk_method_silently(program, method, scope)

    program.evaluator.method_walker = walk_method


def check_sources(
    program: "Program",
    sources: "list[BuildSource]",
    reuse: dict[str, list[Diagnostic]] | None = None,
    on_checked: "Callable[[BuildSource, list[Diagnostic]], None] | None" = None,
    check_many: CheckMany | None = None,
    release: bool = False,
    before_release: "Callable[[ModuleInfo], None] | None" = None,
    meanwhile: "Callable[[], None] | None" = None,
    early: "EarlyWorkers | None" = None,
) -> BuildResult:
    """Check `sources` in `program`. The incremental cache (veritype/cache)
    passes `reuse` (module -> diagnostics kept from an earlier run: that
    module is not loaded for checking, nor checked) and `on_checked(src,
    diags)`, told each freshly checked module's diagnostics. `check_many`
    checks the modules (worker processes); by default one after the other,
    here. `release`: a one-shot run, where nothing asks about a module after
    the run but the cache: each module's function bodies are released once
    it is checked (engine/release.py); `before_release(info)` is called just
    before, while the module's tree is whole (the incremental cache takes its
    interface digest then, from the check's parse: after, it would have to
    parse the file again). `meanwhile`: work the caller will do after the
    check and that the check cannot change (the cache's syntactic digests);
    `check_many` may do it while its workers check. It is the caller's to do
    if it was not done: a serial check never calls it. `early`: worker
    processes forked before parsing; once started (by the import walk), they
    load and check the modules, this process never loads them."""
    reuse = reuse or {}
    if early is not None and early.started:
        return _check_early(program, sources, reuse, on_checked, early)
    if any(src.module not in reuse for src in sources):
        lend_method_walker(program)  # (not on a warm run: it makes the evaluator)
    for src in sources:
        program.sources[src.module] = src
    result = BuildResult()
    if check_many is None and release:
        checked = _check_as_loaded(program, [src.module for src in sources if src.module not in reuse], before_release)
    else:
        for src in sources:
            info = None if src.module in reuse else program.get_module(src.module)
            if info is None:
                continue
            info.checked = True
        todo = [info for src in sources if src.module not in reuse
                for info in (program.modules.get(src.module),) if info is not None and info.parsed is not None]
        checked = check_many(todo, meanwhile) if check_many is not None else _check_serially(program, todo, release, before_release)
    for src in sources:
        if src.module in reuse:
            result.diagnostics.extend(reuse[src.module])
            result.files_checked += 1
            continue
        if src.module not in checked:
            continue
        diags = checked[src.module]
        result.diagnostics.extend(diags)
        result.files_checked += 1
        if on_checked is not None:
            on_checked(src, diags)
    return result


def _check_early(program: "Program", sources: "list[BuildSource]", reuse: dict[str, list[Diagnostic]],
                 on_checked: "Callable[[BuildSource, list[Diagnostic]], None] | None", early: "EarlyWorkers") -> BuildResult:
    """check_sources with the modules loaded and checked in `early`'s workers."""
    for src in sources:
        program.sources[src.module] = src
    checked = early.check(sources, [src.module for src in sources if src.module not in reuse])
    result = BuildResult(loaded_elsewhere=early.imports, digests_elsewhere=early.digests)
    for src in sources:
        diags = reuse.get(src.module)
        if diags is None:
            diags = checked.get(src.module)
            if diags is None:
                continue
            if on_checked is not None:
                on_checked(src, diags)
        result.diagnostics.extend(diags)
        result.files_checked += 1
    return result


def _check_as_loaded(program: "Program", names: list[str],
                     before_release: "Callable[[ModuleInfo], None] | None") -> dict[str, list[Diagnostic]]:
    """A one-shot serial check: each module loaded when its turn comes (or
    when a check before asks for it), not all before the first check. Its
    function bodies go once it is checked (engine/release.py), so the whole
    trees of all the modules are never held at once: they were the peak of a
    run's memory (the 200k-line scale program, cold: 535 -> 409 MiB). The modules
    are marked `checked` as they load (Program.checking), as worker processes
    mark them (engine/early_workers.py), so a check meets the same marks as
    when all were loaded first."""
    checking = program.checking
    program.checking = checking | frozenset(names)
    try:
        for name in names:
            info = program.modules.get(name)
            if info is not None:
                info.checked = True
        loaded = (info for name in names for info in (program.get_module(name),) if info is not None and info.parsed is not None)
        return _check_serially(program, loaded, True, before_release)
    finally:
        program.checking = checking


def _check_serially(program: "Program", todo: "Iterable[ModuleInfo]", release: bool,
                    before_release: "Callable[[ModuleInfo], None] | None" = None) -> dict[str, list[Diagnostic]]:
    checked: dict[str, list[Diagnostic]] = {}
    for info in todo:
        checked[info.name] = check_one(program, info)
        if release:
            from veritype.engine.release import release_bodies

            if before_release is not None:
                before_release(info)
            release_bodies(info)
    return checked


def check_one(program: "Program", info: "ModuleInfo") -> list[Diagnostic]:
    """The diagnostics of one loaded module of the run, filtered and ordered."""
    from veritype.check.module_checker import check_module

    assert info.parsed is not None
    diags: list[Diagnostic] = list(info.parsed.diagnostics)
    if info.tree is not None:
        diags.extend(check_module(program, info))
    return sorted_unique(_filter(program, info, diags))


def _filter(program: "Program", info: "ModuleInfo", diags: list[Diagnostic]) -> list[Diagnostic]:
    from veritype.diagnostics import ignores

    opts = program.options.for_module(info.name)
    if opts.ignore_errors:
        return []
    assert info.parsed is not None
    ignore_map = ignores.parse_ignores(info.tree, info.parsed.source)
    return ignores.apply_ignores(info.path, diags, ignore_map, opts, skipped_lines(program, info.name, info.tree))


def skipped_lines(program: "Program", module: str, tree: "ast.Module | None") -> frozenset[int]:
    """Lines a version/platform condition rules out, for the unused-ignore and ignore-without-code reports."""
    from veritype.semantic.conditions import evaluate_condition
    from veritype.semantic.static_skips import skipped_lines as static_skipped

    from veritype.diagnostics.enabled import code_enabled

    opts = program.options.for_module(module)
    if tree is None or not (opts.warn_unused_ignores or code_enabled(opts, "ignore-without-code")):
        return frozenset()
    always = (frozenset(opts.always_true), frozenset(opts.always_false)) if opts.always_true or opts.always_false else None
    version, platform = program.options.python_version, program.options.platform
    return frozenset(static_skipped(tree, lambda test: evaluate_condition(test, version, platform, always)))


def sorted_unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics by position, duplicates (from expressions inferred twice) dropped.

    An error and the notes reported right after it on its line (mypy's
    explanations, e.g. of a protocol's members) stay together and in order:
    they are sorted and deduplicated as one group."""
    groups: list[list[Diagnostic]] = []
    for d in diags:
        # An indented note ("    a: int" after "Revealed local types are:")
        # continues the note before it.
        # So does a note reported right after a note at the same position (the
        # reason after an unchecked function's "Revealed type is "Any"").
        continues = d.severity == "note" and (d.message.startswith("    ") or bool(groups) and groups[-1][-1].severity == "note" and groups[-1][-1].column == d.column)
        if d.severity == "note" and groups and (groups[-1][0].severity == "error" or continues) and groups[-1][0].line == d.line:
            groups[-1].append(d)
        else:
            groups.append([d])
    # Sorted stably, a group keeps its place among groups with the same head;
    # drop_line_repeats then keeps the first of them (a repeat of an identical
    # head, from an expression inferred twice, is one of mypy's line repeats).
    groups.sort(key=lambda g: (g[0].line, g[0].column, g[0].severity != "error", g[0].message))
    from veritype.diagnostics.line_duplicates import drop_line_repeats

    return [d for g in drop_line_repeats(groups) for d in g]
