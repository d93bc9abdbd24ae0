"""How checking time and memory grow with the size of a program (issue #15, item 5).

For each size (lines) the program of bench/scale_program.py is generated
(same seed), then veritype and mypy 2.4.1 each check it cold, once, with an
empty cache directory. The machine is shared, so the time measured is CPU
time (user + system of the checker's process tree, from `os.wait4`), not
wall time; memory is the peak resident set size. For each checker the table
gives the time and peak memory, both per 100k lines, and the ratio of the
per-100k figures to those of the smallest size (linear growth: ~1.0).
The diagnostics of both are compared with the program's planned errors.

    python bench/scale.py                              # 100k, 200k, 500k, 1M
    python bench/scale.py --sizes 100000,200000 --checkers veritype
    python bench/scale.py --json bench/.work/scale.json   # then bench/results.py
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import corpus
import machine
from checkers import (Checker, CheckerError, Mypy, add_veritype_options, check_output,
                      veritype_from_args)
from measure import run_measured
from scale_program import generate

SCALE_DIR = corpus.WORK / "scale"


def _run(checker: Checker, root: Path, planned: set[tuple[str, int, str]]) -> dict:
    cache = SCALE_DIR / f"cache-{checker.name}"
    checker.clear_cache(root, cache)
    m = run_measured(checker.command(["scaleprog"], cache_dir=cache, python_executable=None),
                     root, env=checker.env)
    # What the cold run wrote to its cache (it must grow linearly too).
    cache_bytes = sum(f.stat().st_size for f in cache.rglob("*") if f.is_file()) if cache.exists() else 0
    checker.clear_cache(root, cache)
    row = {"cpu_s": m.user + m.system, "wall_s": m.wall, "max_rss_mib": m.max_rss_mib,
           "cache_mib": cache_bytes / 2**20}
    try:
        found = {(d.path, d.line, d.code)
                 for d in check_output(checker, m.returncode, m.stdout, m.stderr, root)
                 if d.severity == "error"}
    except CheckerError as exc:
        row["failure"] = str(exc)[:300]
        return row
    row["errors"] = len(found)
    row["as_planned"] = found == planned
    return row


def _per100k(value: float, lines: int) -> float:
    return value * 100_000 / lines


def _cache(row: dict) -> str:
    size = row.get("cache_mib")
    return "n/a" if size is None else f"{size:.1f} MiB"


def table(doc: dict) -> list[str]:
    """The markdown table of a run (also used by bench/results.py)."""
    out = ["| lines | modules | checker | CPU | per 100k | growth | peak memory | per 100k | growth"
           " | cache written | errors as planned |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    first: dict[str, dict] = {}
    for step in doc["steps"]:
        for name, row in step["checkers"].items():
            if row.get("failure"):
                out.append(f"| {step['lines']:,} | {step['modules']:,} | {name} | failed"
                           " | | | | | | | |")
                continue
            t = _per100k(row["cpu_s"], step["lines"])
            mem = _per100k(row["max_rss_mib"], step["lines"])
            base = first.setdefault(name, {"t": t, "mem": mem})
            planned = "yes" if row["as_planned"] else f"no ({row['errors']} found)"
            out.append(f"| {step['lines']:,} | {step['modules']:,} | {name} | {row['cpu_s']:.1f} s"
                       f" | {t:.1f} s | {t / base['t']:.2f}x | {row['max_rss_mib']:.0f} MiB"
                       f" | {mem:.0f} MiB | {mem / base['mem']:.2f}x | {_cache(row)} | {planned} |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100000,200000,500000,1000000",
                    help="comma-separated program sizes in lines")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checkers", default="veritype,mypy", help="veritype, mypy or both")
    ap.add_argument("--json", type=Path, help="write the figures here (for bench/results.py)")
    add_veritype_options(ap)
    args = ap.parse_args(argv)
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        ap.error(f"--sizes: not a list of integers: {args.sizes!r}")
    names = args.checkers.split(",")
    if not sizes or any(s < 1000 for s in sizes) or not set(names) <= {"veritype", "mypy"}:
        ap.error("sizes must be at least 1000 lines; checkers are veritype and mypy")

    checkers: list[Checker] = []
    mypy_version = ""
    if "veritype" in names:
        veritype = veritype_from_args(args)
        ok, why = veritype.runnable()
        if not ok:
            print(f"veritype does not run: {why}", file=sys.stderr)
            return 2
        checkers.append(veritype)
    if "mypy" in names:
        corpus.ensure_peers_venv()
        mypy_version = corpus.mypy_version()
        checkers.append(Mypy())

    doc = {"machine": machine.describe(mypy_version), "seed": args.seed, "steps": []}
    print(machine.header("scale", doc["machine"]))
    for size in sizes:
        root = SCALE_DIR / "program"
        program = generate(root, size, args.seed)
        planned = set(program.errors)
        step = {"lines": program.lines, "modules": program.modules, "checkers": {}}
        for checker in checkers:
            row = _run(checker, root, planned)
            step["checkers"][checker.name] = row
            print(f"{program.lines:>9,} lines  {checker.name:<9} "
                  + (row["failure"] if row.get("failure") else
                     f"cpu {row['cpu_s']:7.1f} s  wall {row['wall_s']:7.1f} s  "
                     f"peak {row['max_rss_mib']:6.0f} MiB  cache {row['cache_mib']:6.1f} MiB  "
                     f"as planned: {row['as_planned']}"),
                  flush=True)
        doc["steps"].append(step)
        shutil.rmtree(root, ignore_errors=True)
    print()
    print("\n".join(table(doc)))
    if args.json:
        args.json.write_text(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
