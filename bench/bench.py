"""Benchmark veritype against mypy on the fixed corpus (see corpus.py).

For each scenario both checkers run N times (default 3), interleaved and
alternating which goes first, and the median wall time and median peak
memory of each are printed with the veritype/mypy ratio:

cold    no cache (mypy gets a freshly emptied ``--cache-dir``; so does
        veritype if it has ``--cache-dir``, and its default cache dir and its
        shared stub cache, kept under ``bench/.work/cache/veritype-shared``,
        are removed);
cold, shared stub cache
        the same, but veritype's shared stub cache is warm (filled by a run
        before): a new project on a machine where veritype ran before;
cold -n 2
        the same, both checkers with ``--num-workers 2`` (worker processes);
warm    the cache from the previous run is present and nothing changed;
edit    a one-line edit in a leaf module (a module nothing else imports),
        made to the working copy in ``bench/.work/tree``, then a run on the
        warm cache. Each repeat makes a new, different edit.

Then lines checked per second (cold) and scaling: cold runs on the first
1, the first 2 and all corpus packages.

    python bench/bench.py              # full run, 3 repeats
    python bench/bench.py --quick      # smoke test: 1 repeat, smallest package
    python bench/bench.py --json out.json

Run it with the project's venv python: veritype runs as
``sys.executable -m veritype``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from pathlib import Path

import corpus
import machine
from checkers import add_veritype_options, veritype_from_args, Checker, CheckerError, Mypy, Veritype, check_output
from measure import Measurement, Summary, run_measured

CACHE_ROOT = corpus.WORK / "cache"


@dataclass
class Result:
    """One scenario for one checker."""

    checker: str
    scenario: str
    runs: list[Measurement] = field(default_factory=list)
    diagnostics: int = 0
    failure: str = ""
    note: str = ""

    @property
    def summary(self) -> Summary | None:
        return Summary.of(self.runs) if self.runs and not self.failure else None


class Bench:
    def __init__(self, checkers: list[Checker], tree: Path, paths: list[str],
                 repeats: int, deps_python: Path) -> None:
        self.checkers = checkers
        self.tree = tree
        self.paths = paths
        self.repeats = repeats
        self.deps_python = deps_python

    def cache_dir(self, checker: Checker) -> Path:
        return CACHE_ROOT / checker.name

    def run_once(self, checker: Checker, result: Result, paths: list[str] | None = None,
                 extra: list[str] = ()) -> None:
        if result.failure:
            return
        cmd = checker.command(paths or self.paths, cache_dir=self.cache_dir(checker),
                              python_executable=self.deps_python, extra=extra)
        m = run_measured(cmd, self.tree, checker.env)
        try:
            diags = check_output(checker, m.returncode, m.stdout, m.stderr, self.tree)
        except CheckerError as exc:
            result.failure = str(exc)
            return
        result.runs.append(m)
        result.diagnostics = sum(1 for d in diags if d.severity == "error")

    def ordered(self, i: int) -> list[Checker]:
        """Alternate which checker goes first, so neither always runs on a warmer machine."""
        return self.checkers if i % 2 == 0 else self.checkers[::-1]

    def cold(self, paths: list[str] | None = None, label: str = "cold", extra: list[str] = (),
             shared: bool = False) -> dict[str, Result]:
        """No cache at all; with `shared`, veritype's shared stub cache is
        warm (a project's first run on a machine that ran veritype before)."""
        results = {c.name: Result(c.name, label) for c in self.checkers}
        if shared:
            for c in self.checkers:
                self.run_once(c, Result(c.name, "prime"), paths, extra)  # fills the shared cache
        for i in range(self.repeats):
            for c in self.ordered(i):
                c.clear_cache(self.tree, self.cache_dir(c), shared=not shared)
                self.run_once(c, results[c.name], paths, extra)
        for c in self.checkers:
            if isinstance(c, Veritype) and not c.has_cache:
                if (self.tree / ".veritype_cache").exists():
                    c.has_cache = True  # it keeps one in its default place
        return results

    def warm(self) -> dict[str, Result]:
        results = {c.name: Result(c.name, "warm") for c in self.checkers}
        for c in self.checkers:
            self.run_once(c, Result(c.name, "prime"))  # make sure a cache is there
            if not c.has_cache:
                results[c.name].note = "no cache yet: this is a cold run"
        for i in range(self.repeats):
            for c in self.ordered(i):
                self.run_once(c, results[c.name])
        return results

    def edit(self, leaf: Path) -> dict[str, Result]:
        rel = leaf.relative_to(self.tree).as_posix()
        results = {c.name: Result(c.name, f"edit {rel}") for c in self.checkers}
        for c in self.checkers:
            if not c.has_cache:
                results[c.name].note = "no cache yet: this is a cold run"
        original = leaf.read_text(encoding="utf-8")
        try:
            for i in range(self.repeats):
                # A new line each time, so every run sees a fresh one-line change.
                leaf.write_text(original + f"\n_bench_edit_{i} = {i}\n", encoding="utf-8")
                for c in self.ordered(i):
                    self.run_once(c, results[c.name])
        finally:
            leaf.write_text(original, encoding="utf-8")
        return results


# --------------------------------------------------------------------------
# Output


def _fmt_time(s: Summary | None) -> str:
    return f"{s.wall:8.2f} s" if s else "       n/a"


def _fmt_mem(s: Summary | None) -> str:
    return f"{s.max_rss_mib:7.0f} MiB" if s else "        n/a"


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:6.2f}x" if a and b else "    n/a"


def print_table(rows: list[dict[str, Result]], lines: int | None = None) -> None:
    print(f"{'scenario':<28} {'veritype':>10} {'mem':>11} {'mypy':>10} {'mem':>11}"
          f" {'time ratio':>11} {'mem ratio':>10}")
    for row in rows:
        v, m = row.get("veritype"), row["mypy"]
        vs = v.summary if v else None
        ms = m.summary
        print(f"{m.scenario:<28} {_fmt_time(vs)} {_fmt_mem(vs)} {_fmt_time(ms)} {_fmt_mem(ms)}"
              f" {_ratio(vs and vs.wall, ms and ms.wall):>11}"
              f" {_ratio(vs and vs.max_rss_mib, ms and ms.max_rss_mib):>10}")
        for r in (v, m):
            if r and r.failure:
                print(f"    {r.checker} FAILED: " + r.failure.replace("\n", "\n    "))
            elif r and r.note:
                print(f"    {r.checker}: {r.note}")


def print_scaling(steps: list[tuple[str, int, dict[str, Result]]]) -> None:
    print(f"{'packages':<44} {'lines':>7} {'veritype':>10} {'lines/s':>9}"
          f" {'mypy':>10} {'lines/s':>9} {'ratio':>7}")
    for label, lines, row in steps:
        v, m = row.get("veritype"), row["mypy"]
        vs = v.summary if v else None
        ms = m.summary
        vls = f"{lines / vs.wall:9.0f}" if vs else "      n/a"
        mls = f"{lines / ms.wall:9.0f}" if ms else "      n/a"
        print(f"{label:<44} {lines:>7} {_fmt_time(vs)} {vls} {_fmt_time(ms)} {mls}"
              f" {_ratio(vs and vs.wall, ms and ms.wall):>7}")
        for r in (v, m):
            if r and r.failure:
                print(f"    {r.checker} FAILED: " + r.failure.splitlines()[-1])


def _result_json(r: Result) -> dict:
    s = r.summary
    return {
        "scenario": r.scenario, "failure": r.failure, "note": r.note,
        "errors_reported": r.diagnostics,
        "median_wall_s": s.wall if s else None,
        "median_max_rss_mib": s.max_rss_mib if s else None,
        "runs": [{"wall_s": m.wall, "max_rss_kib": m.max_rss_kib, "user_s": m.user,
                  "sys_s": m.system, "returncode": m.returncode} for m in r.runs],
    }


# --------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", "-n", type=int, default=3, help="runs per scenario (default 3)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke test: 1 repeat, smallest package, no scaling")
    ap.add_argument("--no-scaling", action="store_true", help="skip the 1 → 2 → all runs")
    add_veritype_options(ap)
    ap.add_argument("--json", type=Path, help="also write all figures to this JSON file")
    args = ap.parse_args(argv)
    corpus.use_veritype_rev(args.veritype_rev)
    if args.quick:
        args.repeats = 1
        args.no_scaling = True

    corpus.ensure_peers_venv()
    deps_python = corpus.ensure_deps_venv()
    packages = corpus.all_packages()
    selected = packages[:1] if args.quick else packages
    tree = corpus.build_tree(packages)  # all of them: scaling uses every package
    CACHE_ROOT.mkdir(parents=True, exist_ok=True)

    veritype = veritype_from_args(args)
    mypy = Mypy()
    checkers: list[Checker] = [veritype, mypy]
    ok, why = veritype.runnable()
    if not ok:
        print(f"WARNING: veritype cannot run, measuring mypy alone ({why})\n")
        checkers = [mypy]

    def paths_of(pkgs) -> list[str]:
        return [top for p in pkgs for top in p.roots]

    lines = sum(corpus.count_lines(tree, p) for p in selected)
    bench = Bench(checkers, tree, paths_of(selected), args.repeats, deps_python)

    info = machine.describe(mypy_version=corpus.mypy_version())
    print(machine.header("veritype benchmark", info))
    print(f"corpus: {', '.join(p.label for p in selected)} ({lines:,} lines)")
    print(f"{args.repeats} run(s) per scenario, interleaved; medians shown;"
          f" ratio = veritype / mypy (below 1 means veritype is better)")
    if not veritype.has_cache:
        print("veritype has no --cache-dir: its cold run is its only mode for now")
    print()

    rows = [bench.cold()]
    # The project cache empty, veritype's shared stub cache warm (mypy: cold again).
    rows.append(bench.cold(label="cold, shared stub cache", shared=True))
    # Both checkers' parallel mode, same flag (mypy 2.x: -n/--num-workers).
    rows.append(bench.cold(label="cold -n 2", extra=["--num-workers", "2"]))
    rows.append(bench.warm())
    leaf_pkg = max((p for p in selected if p is not corpus.SELF),
                   key=lambda p: corpus.count_lines(tree, p), default=selected[0])
    rows.append(bench.edit(corpus.pick_leaf_module(tree, leaf_pkg)))
    print_table(rows)

    cold = rows[0]
    print()
    for name, r in cold.items():
        s = r.summary
        speed = f"{lines / s.wall:,.0f} lines/s" if s else "n/a"
        print(f"{name:<9} cold: {speed} ({r.diagnostics} errors reported)")

    steps: list[tuple[str, int, dict[str, Result]]] = []
    if not args.no_scaling:
        print("\nscaling (cold runs):")
        n = len(packages)
        for k in sorted({1, 2, n}):
            subset = packages[:k]
            label = " + ".join(p.name for p in subset) if k < n else f"all {n} packages"
            sub_lines = sum(corpus.count_lines(tree, p) for p in subset)
            if k == n:
                steps.append((label, sub_lines, cold))  # already measured above
                continue
            steps.append((label, sub_lines, bench.cold(paths_of(subset), f"cold {label}")))
        print_scaling(steps)

    if args.json:
        doc = {
            "machine": info, "corpus": [p.label for p in selected], "lines": lines,
            "repeats": args.repeats,
            "scenarios": {row["mypy"].scenario: {name: _result_json(r) for name, r in row.items()}
                          for row in rows},
            "scaling": [{"packages": label, "lines": n_lines,
                         **{name: _result_json(r) for name, r in row.items()}}
                        for label, n_lines, row in steps],
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
