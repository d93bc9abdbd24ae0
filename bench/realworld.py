"""The false-positive hunt: veritype and mypy on real packages.

Each corpus package (see corpus.py) is checked on its own by mypy (default
flags) and by veritype, both with ``--python-executable`` pointing at
``bench/.work/deps-venv``, where the packages' own dependencies are
installed. Errors are matched on (path, line, error code). The table shows,
per package, the errors each checker reports and those only one of them
reports; then the first few veritype-only errors of each package.

Every veritype-only error is either a real bug in the package (rare; say
why) or a veritype bug to fix. mypy-only errors are things veritype misses
(or mypy false positives) and matter less.

    python bench/realworld.py
    python bench/realworld.py --package rich --show 50
    python bench/realworld.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from pathlib import Path

import corpus
import machine
from checkers import add_veritype_options, veritype_from_args, Checker, CheckerError, Diagnostic, Mypy, check_output

CACHE_ROOT = corpus.WORK / "cache" / "realworld"


def key(d: Diagnostic) -> tuple[str, int, str]:
    return (d.path, d.line, d.code)


def run(checker: Checker, tree: Path, pkg: corpus.Package, deps_python: Path) -> list[Diagnostic]:
    cmd = checker.command(list(pkg.roots), cache_dir=CACHE_ROOT / checker.name,
                          python_executable=deps_python)
    proc = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, timeout=1800,
                          env=checker.env)
    diags = check_output(checker, proc.returncode, proc.stdout, proc.stderr, tree)
    return sorted(d for d in diags if d.severity == "error")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--package", action="append", help="only this corpus package (repeatable)")
    ap.add_argument("--show", type=int, default=5,
                    help="veritype-only errors to print per package (default 5)")
    add_veritype_options(ap)
    ap.add_argument("--json", type=Path, help="also write every error to this JSON file")
    args = ap.parse_args(argv)
    corpus.use_veritype_rev(args.veritype_rev)

    corpus.ensure_peers_venv()
    deps_python = corpus.ensure_deps_venv()
    tree = corpus.build_tree()
    packages = [p for p in corpus.all_packages()
                if not args.package or p.name in args.package]
    if not packages:
        raise SystemExit(f"no such corpus package: {', '.join(args.package)}")

    veritype, mypy = veritype_from_args(args), Mypy()
    ok, why = veritype.runnable()
    if not ok:
        raise SystemExit(f"veritype cannot run: {why}")

    info = machine.describe(corpus.mypy_version())
    print(machine.header("veritype real-world check", info))
    print("errors matched on path + line + code; 'veritype only' = likely false positives\n")
    print(f"{'package':<18} {'lines':>7} {'mypy':>6} {'veritype':>9} {'veritype only':>14}"
          f" {'mypy only':>10}")

    report: dict[str, dict] = {}
    shown: list[tuple[str, list[Diagnostic]]] = []
    totals = [0, 0, 0, 0, 0]
    for pkg in packages:
        lines = corpus.count_lines(tree, pkg)
        try:
            m = run(mypy, tree, pkg, deps_python)
        except CheckerError as exc:
            print(f"{pkg.label:<18} {lines:>7}  mypy failed: {exc}")
            continue
        try:
            v = run(veritype, tree, pkg, deps_python)
            crash = ""
        except CheckerError as exc:
            v, crash = [], str(exc)
        m_keys, v_keys = {key(d) for d in m}, {key(d) for d in v}
        v_only = [d for d in v if key(d) not in m_keys]
        m_only = [d for d in m if key(d) not in v_keys]
        if crash:
            print(f"{pkg.label:<18} {lines:>7} {len(m):>6}   veritype CRASHED: "
                  + crash.splitlines()[-1])
        else:
            print(f"{pkg.label:<18} {lines:>7} {len(m):>6} {len(v):>9} {len(v_only):>14}"
                  f" {len(m_only):>10}")
            for i, n in enumerate((lines, len(m), len(v), len(v_only), len(m_only))):
                totals[i] += n
        shown.append((pkg.label, v_only))
        report[pkg.label] = {
            "lines": lines, "crash": crash,
            "mypy": [d.__dict__ for d in m], "veritype": [d.__dict__ for d in v],
            "veritype_only": [d.__dict__ for d in v_only],
            "mypy_only": [d.__dict__ for d in m_only],
        }
    print(f"{'total (ran)':<18} {totals[0]:>7} {totals[1]:>6} {totals[2]:>9} {totals[3]:>14}"
          f" {totals[4]:>10}")

    for label, v_only in shown:
        if not v_only:
            continue
        print(f"\n{label}: {len(v_only)} veritype-only error(s)"
              + (f", first {args.show}:" if len(v_only) > args.show else ":"))
        for d in v_only[: args.show]:
            print(f"  {d.render()}")

    by_code = Counter(d.code for _, v_only in shown for d in v_only)
    if by_code:
        print("\nveritype-only errors by code:")
        for code, n in by_code.most_common(12):
            print(f"  {n:>5}  {code or '(no code)'}")

    if args.json:
        args.json.write_text(json.dumps({"machine": info, "packages": report}, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
