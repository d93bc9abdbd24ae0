"""Profile one veritype run with cProfile and print the top of the profile.

By default the run is the bench's cold run on the fixed corpus (see
``corpus.py``): every corpus package checked with an empty project cache and
no shared stub cache, third-party packages from ``bench/.work/deps-venv``.
Anything after ``--`` replaces the checked paths and options, e.g.::

    python bench/profile_run.py                      # cold corpus run
    python bench/profile_run.py --sort cumulative --top 40
    python bench/profile_run.py --save /tmp/cold.prof
    python bench/profile_run.py -- check some/dir --no-incremental
    python bench/profile_run.py --local-imports 20   # also count function-local imports run

The check normally runs on a deep-stack thread (``engine/deep_stack.py``),
which a profiler started on the main thread does not see; here the profiler
runs on such a thread itself and marks it as deep, so the check runs in
place under it. Call counts are exact on a loaded machine; seconds are not.

cProfile does not see an import statement run inside a function (no function
call is made when the module is already loaded), yet each one costs about a
microsecond: sys.modules, the module spec's initializing check, the from-list.
``--local-imports N`` counts them, by the function running them (a hook on
``builtins.__import__``, which every import statement calls), and prints the
top N.
"""

from __future__ import annotations

import argparse
import builtins
import collections
import contextlib
import cProfile
import io
import os
import pstats
import shutil
import sys
import tempfile
import threading
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import corpus  # noqa: E402  (bench/ is not a package)


def _corpus_argv(cache_dir: Path) -> tuple[list[str], Path]:
    deps_python = corpus.ensure_deps_venv()
    tree = corpus.build_tree()
    paths = [root for p in corpus.all_packages() for root in p.roots]
    argv = ["check", *paths, "--cache-dir", str(cache_dir), "--no-shared-cache",
            "--python-executable", str(deps_python)]
    return argv, tree


def _count_local_imports(counts: collections.Counter[tuple[str, int, str]]):  # type: ignore[no-untyped-def]
    """A `builtins.__import__` that counts the import statements run inside functions."""
    real_import = builtins.__import__

    def counting_import(name, globals=None, locals=None, fromlist=(), level=0):  # type: ignore[no-untyped-def]
        code = sys._getframe(1).f_code
        if code.co_name != "<module>":
            counts[(code.co_filename, code.co_firstlineno, code.co_name)] += 1
        return real_import(name, globals, locals, fromlist, level)

    return real_import, counting_import


def _profile(argv: list[str], cwd: Path, local_imports: collections.Counter[tuple[str, int, str]] | None = None,
             ) -> tuple[cProfile.Profile, int, str]:
    from veritype.cli.main import main
    from veritype.engine import deep_stack

    outcome: dict[str, object] = {}
    profiler = cProfile.Profile()

    def target() -> None:
        deep_stack._local.deep = True
        sys.setrecursionlimit(deep_stack.RECURSION_LIMIT)
        out = io.StringIO()
        old = os.getcwd()
        os.chdir(cwd)
        try:
            real_import = builtins.__import__
            if local_imports is not None:
                real_import, builtins.__import__ = _count_local_imports(local_imports)
            with contextlib.redirect_stdout(out):
                profiler.enable()
                try:
                    outcome["status"] = main(argv)
                finally:
                    profiler.disable()
                    builtins.__import__ = real_import
        except SystemExit as exc:
            outcome["status"] = exc.code
        finally:
            os.chdir(old)
        outcome["stdout"] = out.getvalue()

    threading.stack_size(deep_stack.STACK_BYTES)
    thread = threading.Thread(target=target, name="veritype-profile")
    thread.start()
    thread.join()
    return profiler, int(outcome.get("status") or 0), str(outcome.get("stdout", ""))


def main() -> int:
    own_argv = sys.argv[1:]
    check_argv: list[str] | None = None
    if "--" in own_argv:
        i = own_argv.index("--")
        own_argv, check_argv = own_argv[:i], own_argv[i + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative, calls)")
    parser.add_argument("--top", type=int, default=30, help="rows to print")
    parser.add_argument("--save", help="also write the raw profile to this file (pstats format)")
    parser.add_argument("--local-imports", type=int, metavar="N", default=None,
                        help="also count the import statements run inside functions; print the top N functions")
    args = parser.parse_args(own_argv)

    cache_dir = Path(tempfile.mkdtemp(prefix="veritype-profile-"))
    try:
        if check_argv is None:
            check_argv, cwd = _corpus_argv(cache_dir)
        else:
            cwd = Path.cwd()
        counts: collections.Counter[tuple[str, int, str]] | None = (
            collections.Counter() if args.local_imports is not None else None)
        profiler, status, stdout = _profile(check_argv, cwd, counts)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    stats = pstats.Stats(profiler)
    total_calls = stats.total_calls  # type: ignore[attr-defined]
    print(f"exit status {status}; {stdout.strip().splitlines()[-1] if stdout.strip() else ''}")
    print(f"{total_calls:,} function calls, {stats.total_tt:.2f} s profiled")  # type: ignore[attr-defined]
    if args.save:
        stats.dump_stats(args.save)
    stats.sort_stats(args.sort).print_stats(args.top)
    if counts is not None:
        print(f"{sum(counts.values()):,} import statements run inside functions; by function:")
        for (filename, line, name), n in counts.most_common(args.local_imports):
            print(f"{n:>10,}  {filename}:{line}({name})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
