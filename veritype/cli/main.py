"""`veritype` / `veritype check`: the command-line driver.

Reads the config and flags, finds the sources, runs `veritype.engine.build.run`,
prints the diagnostics. Exit status: 0 no errors, 1 errors found, 2 bad
input or a fatal problem. Bad input (unknown flag, missing path, broken
config) is one line on stderr, never a traceback.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import TextIO

from veritype.cli.plugins import plugin_error
from veritype.cli.flags import UsageError, options_from_args, parse_args, set_default_cache_dir, version_text
from veritype.config.loader import ConfigError
from veritype.config.mypy_table import describe
from veritype.modules.discover import DiscoveryError, sources_from_targets
from veritype.modules.environment import TargetEnvironmentError, environment_cache_clear, environment_for
from veritype.modules.sources import BuildSource
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options
from veritype.report.formats import machine_readable, output_format, write_output
from veritype.report.limit import apply_soft_limit
from veritype.report.order import ordered
from veritype.report.text import text_lines

EXIT_CLEAN = 0
EXIT_ERRORS = 1
EXIT_USAGE = 2

# Set by console_main: this process exits when `main` returns (see run).
_exits_after_run = False


def _stderr_line(prefix: str, message: str) -> None:
    sys.stderr.write(f"veritype: {prefix}: {message}\n")


def _warn(message: str) -> None:
    _stderr_line("warning", message)


def _warn_not_enforced(options: Options) -> None:
    """The one line naming every mypy option given that this run does not act on."""
    named = options.not_enforced
    if named:
        _warn("not enforced: " + ", ".join(describe(key, value) for key, value in named.items()))


def _describe(options: Options, sources: list[BuildSource]) -> None:
    """--verbose: what this run is going to do."""
    env = environment_for(options)
    lines = [
        f"config file: {options.config_file or '(none)'}",
        f"python version: {options.python_version[0]}.{options.python_version[1]}, platform: {options.platform}",
        f"site-packages: {', '.join(env.site_dirs) or '(none)'}",
        f"{len(sources)} source file(s)",
    ]
    for line in lines:
        _stderr_line("info", line)


def _collect_sources(ns: object, options: Options, cwd: str) -> list[BuildSource]:
    paths = list(getattr(ns, "paths", []) or [])
    modules = list(getattr(ns, "modules", []) or [])
    packages = list(getattr(ns, "packages", []) or [])
    commands = list(getattr(ns, "commands", []) or [])
    # `-c PROGRAM_TEXT`: checked as mypy does, module __main__ in file "<string>".
    programs = [BuildSource("<string>", "__main__", cwd, text) for text in commands]
    if programs and not (paths or modules or packages):
        return programs
    if not (paths or modules or packages):
        modules, packages = list(options.modules), list(options.packages)
    if not (paths or modules or packages):
        if not options.files:
            raise UsageError(
                "nothing to check: give files or directories (veritype check PATH...), "
                "or list them as `files` in [tool.veritype] in pyproject.toml"
            )
        paths = list(options.files)
    return programs + sources_from_targets(paths, modules, packages, options, cwd)


def _watch(argv: list[str], ns: object, stdout: TextIO, cwd: str) -> int:
    """`--watch`: the ordinary run, again after each change (veritype/server/watch.py).

    The runs share one engine workspace, the daemon's (cli/daemon.py), kept in
    this process: a change re-checks the changed files and the files that use
    a name the change touched, not the whole program. Flags the daemon does
    not take (`--stats`, `-c`, `--install-types`) re-run the ordinary check."""
    from veritype.server.watch import WatchUnavailable, file_events, watch_loop, watch_roots

    options = options_from_args(ns, cwd, _warn)  # type: ignore[arg-type]
    set_default_cache_dir(options, cwd)
    # A path that does not exist is bad input now, not a change to wait for.
    _collect_sources(ns, options, cwd)
    roots = watch_roots(list(getattr(ns, "paths", []) or options.files), cwd, options.config_file)
    try:
        events = file_events(roots)
    except WatchUnavailable as exc:
        raise UsageError(str(exc)) from None
    once = [a for a in (argv[1:] if argv[:1] == ["watch"] else argv) if a != "--watch"]
    from veritype.cli.daemon import Engine

    engine = Engine() if not (getattr(ns, "stats", False) or getattr(ns, "commands", None) or getattr(ns, "install_types", False)) else None

    def check() -> int:
        try:
            if engine is not None:
                reply = engine.check(once, cwd)
                stdout.write(reply["stdout"])
                sys.stderr.write(reply["stderr"])
                stdout.flush()
                engine.idle()  # the user has the answer: now collect what the edit left behind
                return int(reply["status"])
            return run(once, stdout, cwd)
        except (UsageError, ConfigError, DiscoveryError) as exc:  # e.g. a config mid-edit: wait for the next change
            _stderr_line("error", str(exc))
            return EXIT_USAGE
        except Exception as exc:  # an internal error must not end the watch
            _stderr_line("internal error", f"{type(exc).__name__}: {exc}")
            return EXIT_USAGE
        finally:
            stdout.flush()

    ignore = (options.cache_dir,) if options.cache_dir else ()
    return watch_loop(check, events, stdout, ignore)


def _lsp() -> int:
    """`veritype lsp`: the language server on stdin/stdout (veritype/server/lsp.py)."""
    from veritype.server.lsp import LspUnavailable, serve_stdio

    try:
        serve_stdio()
    except LspUnavailable as exc:
        raise UsageError(str(exc)) from None
    return EXIT_CLEAN


def stats_line(stats: dict[str, int]) -> str:
    return (
        f"Stats: {stats['modules_loaded']} modules loaded, {stats['symbols_evaluated']} symbols evaluated, "
        f"{stats['declarations']} declarations in loaded modules"
    )


def _write_stats(result: object, stdout: TextIO) -> None:
    """`--stats`: one line after the summary (with a JSON or SARIF output, on stderr, to keep stdout one document)."""
    program = getattr(result, "program", None)
    if program is None:
        return
    line = stats_line(program.statistics())
    stream = sys.stderr if machine_readable(output_format(program.options)) else stdout
    stream.write(line + "\n")


def write_report(
    found: list[Diagnostic],
    sources: list[BuildSource],
    files_checked: int,
    options: Options,
    stdout: TextIO,
    started: float,
    cwd: str | None = None,
) -> list[Diagnostic]:
    """Print a run's diagnostics in the asked format (and the JUnit file);
    returns them as printed (ordered, after the soft limit). Shared with
    `veritype daemon check`, whose output must be the same."""
    diagnostics = apply_soft_limit(ordered(found, [s.path for s in sources]), options.many_errors_threshold)
    texts = {s.path: s.text for s in sources if s.text is not None}
    root = os.path.abspath(cwd or os.getcwd())
    write_output(output_format(options), diagnostics, files_checked, options, stdout, texts, root)
    if options.junit_xml:
        from veritype.report.junit import write_junit

        try:
            write_junit(options.junit_xml, text_lines(diagnostics, options, False, texts), options, started)
        except OSError as exc:
            raise UsageError(f"--junit-xml: cannot write '{options.junit_xml}': {exc.strerror or exc}") from None
    return diagnostics


def run(argv: list[str], stdout: TextIO, cwd: str | None = None) -> int:
    if argv[:1] == ["lsp"]:
        if argv[1:]:
            raise UsageError("veritype lsp takes no arguments (it speaks LSP on stdin/stdout)")
        return _lsp()
    if argv[:1] == ["daemon"]:
        from veritype.cli.daemon import main as daemon_main

        return daemon_main(argv[1:], os.path.abspath(cwd or os.getcwd()), stdout, sys.stderr)
    ns = parse_args(argv)
    if getattr(ns, "version", False):
        stdout.write(version_text() + "\n")
        return EXIT_CLEAN
    if getattr(ns, "list_codes", False):
        _list_codes(stdout)
        return EXIT_CLEAN
    cwd = os.path.abspath(cwd or os.getcwd())
    if getattr(ns, "watch", False):
        return _watch(argv, ns, stdout, cwd)
    started = time.monotonic()
    options = options_from_args(ns, cwd, _warn)
    if getattr(ns, "commands", None):
        options.incremental = False  # a program given as text has no file for the cache to key on
    set_default_cache_dir(options, cwd)
    try:
        environment_for(options)  # fail early, and once, if the interpreter cannot be asked
    except TargetEnvironmentError as exc:
        raise UsageError(str(exc)) from None
    plugin_failure = plugin_error(options, cwd)
    if plugin_failure is not None:
        # mypy's blocking error: on stderr, its summary on stdout, exit 2.
        sys.stderr.write(plugin_failure + "\n")
        if not machine_readable(output_format(options)):
            stdout.write("Found 1 error in 1 file (errors prevented further checking)\n")
        return EXIT_USAGE
    sources = _collect_sources(ns, options, cwd)
    if options.verbose:
        _describe(options, sources)

    from veritype.engine.build import run as build_run

    install_types, interactive = _install_types_mode(options)
    # Only the diagnostics are read after the run, unless --stats counts the
    # trees' declarations: function bodies may go once checked (engine/release.py).
    release = not getattr(ns, "stats", False)
    # A check allocates millions of long-lived objects (syntax trees, symbols,
    # types) and almost no cyclic garbage (a few hundred objects on the bench
    # corpus). Even at mypy's thresholds (200,000, 30, 30) the collector still
    # walked every one of them once, in its young collections, for nothing:
    # 6-7% of the CPU of a cold run (bench corpus 10.7 -> 10.0 s, pytest 11.2
    # -> 10.5 s, trio 6.9 -> 6.4 s, the 200k-line scale program 31.4 -> 29.9 s)
    # with peak memory unchanged within 1% on all four. So a one-shot check
    # runs without it; the long-lived processes have their own policy
    # (engine/heap.py). Restored after the run for a caller in the same process,
    # but not for the `veritype` program, which exits once the report is
    # written (console_main): every object the run made is still in the
    # youngest generation, so the first allocation after `gc.enable()` would
    # start a collection that walks them all, for nothing (py-spy: 6% of a
    # cold run's samples, on the report's first line).
    collecting = gc.isenabled()
    gc.disable()
    try:
        result = build_run(sources, options, release_bodies=release)
    finally:
        if collecting and not _exits_after_run:
            gc.enable()
    if install_types and not interactive:
        from veritype.cli.install_types import install, install_command, missing_stub_packages

        packages = missing_stub_packages(result.diagnostics)
        if packages:
            install(install_command(options, packages), stdout, interactive=False)
            stdout.write("\n")
            environment_cache_clear()
            result = build_run(sources, options, release_bodies=release)  # mypy shows only this second run
    _warn_not_enforced(options)  # after the run: inline `# mypy:` comments may add to it
    if options.verbose:
        _stderr_line("info", f"{result.reused} of {result.files_checked} file(s) reused from the cache")
        for line in result.cache_notes:
            _stderr_line("info", line)
        from veritype.diagnostics import bounds

        for line in bounds.summary():
            _stderr_line("info", line)
    diagnostics = write_report(result.diagnostics, sources, result.files_checked, options, stdout, started, cwd)
    if getattr(ns, "stats", False):
        _write_stats(result, stdout)
    has_errors = any(d.severity == "error" for d in diagnostics)
    if install_types and interactive:
        from veritype.cli.install_types import install, install_command, missing_stub_packages

        packages = missing_stub_packages(result.diagnostics)
        if packages:
            stdout.write("\n")
            if not install(install_command(options, packages), stdout, interactive=True):
                return EXIT_USAGE
            stdout.write("\nnote: Run veritype again for up-to-date results with installed types\n")
            return EXIT_USAGE
    return EXIT_ERRORS if has_errors else EXIT_CLEAN


def _list_codes(stdout: TextIO) -> None:
    """`--list-codes`: the table of docs/error_codes.md, aligned for a terminal."""
    from veritype.diagnostics.codes_doc import table_rows

    rows = [("code", "enabled", "checked", "meaning"), *table_rows()]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3] + "\n")


def _install_types_mode(options: Options) -> tuple[bool, bool]:
    """(--install-types, interactive): see veritype/cli/install_types.py."""
    install_types, non_interactive = options.install_types, options.non_interactive
    if non_interactive and not install_types:
        raise UsageError("--non-interactive is only supported with --install-types")
    return install_types, not non_interactive


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return run(args, sys.stdout)
    except (UsageError, ConfigError, DiscoveryError) as exc:
        _stderr_line("error", str(exc))
        return EXIT_USAGE
    except KeyboardInterrupt:
        _stderr_line("error", "interrupted")
        return EXIT_USAGE
    except BrokenPipeError:
        # `veritype check . | head`: the reader went away; that is not our failure.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        except OSError:
            pass
        return EXIT_ERRORS
    except Exception as exc:  # an internal error: say so in one line, details with --verbose
        verbose = "-v" in args or "--verbose" in args
        if verbose:
            import traceback

            traceback.print_exc()
        hint = "" if verbose else " (run with --verbose for the traceback)"
        _stderr_line("internal error", f"{type(exc).__name__}: {exc}{hint}")
        return EXIT_USAGE


def console_main() -> None:
    """The `veritype` program (the console script and `python -m veritype`):
    `main`, then exit at once, as mypy does (its `--fast-exit`, on by default).

    A check leaves millions of objects (syntax trees, symbols, types) with
    reference cycles between them; a normal interpreter exit collects and
    frees them all, ~10% of a cold run's CPU time on the bench corpus (1.5 s
    of 14.7) and, with `-n N`, after the workers are done: time on nobody's
    behalf. Everything the run writes is written by then (cache and report
    files are closed by `with` blocks; veritype registers no atexit hook), so
    only the standard streams need a flush. `main` itself returns, for
    callers in the same process (tests, the daemon)."""
    global _exits_after_run
    _exits_after_run = True
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (see main): not our failure
        code = code or EXIT_ERRORS
    except ValueError:  # closed already (the language server closes its stdout)
        pass
    except OSError:
        code = EXIT_USAGE
    try:
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    console_main()
