"""Edits against a checker that stays up: veritype's daemon against dmypy.

`veritype daemon check` answers from the engine workspace that `veritype
watch` and the language server use too (veritype/engine/workspace.py), so
its time after an edit is the time `watch` takes for that edit, plus one
client process start, as for `dmypy check`. Both servers are started and
primed on the whole corpus, then each repeat makes a new edit and times one
check of each (interleaved, alternating which goes first):

body       a new statement at the end of a function body in the corpus's
           leaf module (the one bench.py's "edit" scenario edits);
interface  a new function at the end of the corpus module the most other
           modules import.

    python bench/edits.py [--repeats 3] [--veritype-rev worktree] [--json out.json]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import corpus
import machine
from checkers import Veritype, add_veritype_options, veritype_from_args
from measure import Measurement, run_measured


def _body_anchor(path: Path) -> tuple[int, int]:
    """(line after which to insert, indentation) inside a function body whose
    edit is a body edit: the last statement of the largest function that
    assigns no attribute, has no `yield`, and sits at module or class level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    best: tuple[int, int, int] | None = None
    for owner in [tree, *[n for n in tree.body if isinstance(n, ast.ClassDef)]]:
        for fn in owner.body:
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(fn.body) < 2:
                continue
            if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal))
                   or (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)) for n in ast.walk(fn)):
                continue
            size = (fn.end_lineno or fn.lineno) - fn.lineno
            last = fn.body[-1]
            if best is None or size > best[0]:
                best = (size, last.end_lineno or last.lineno, fn.body[0].col_offset)
    if best is None:
        raise SystemExit(f"no function body to edit in {path}")
    return best[1], best[2]


def _most_imported(tree: Path, pkg: corpus.Package) -> Path:
    counts: dict[str, int] = {}
    for path in tree.rglob("*.py"):
        for name in corpus._imported_modules(tree, path):
            counts[name] = counts.get(name, 0) + 1
    best = max((counts.get(corpus._module_name(tree, p), 0), str(p), p)
               for p in corpus.source_files(tree, pkg) if p.suffix == ".py" and p.stem != "__init__")
    return best[2]


class Server:
    name: str
    env: dict[str, str] | None = None

    def check(self, paths: list[str], python: Path) -> list[str]:
        raise NotImplementedError

    def stop(self) -> list[str]:
        raise NotImplementedError


class VeritypeDaemon(Server):
    name = "veritype"

    def __init__(self, v: Veritype) -> None:
        self.base = v.base
        # -P for the server too: the corpus holds a snapshot of veritype's source.
        self.env = {**(v.env or os.environ), "PYTHONSAFEPATH": "1"}

    def check(self, paths, python):
        return self.base + ["daemon", "check", *paths, "--no-error-summary", "--python-executable", str(python)]

    def stop(self):
        return self.base + ["daemon", "stop"]


class Dmypy(Server):
    name = "dmypy"

    def __init__(self, status: Path) -> None:
        self.base = [str(corpus.venv_python(corpus.PEERS_VENV)), "-P", "-m", "mypy.dmypy", "--status-file", str(status)]

    def check(self, paths, python):
        return self.base + ["run", "--", "--no-error-summary", "--python-executable", str(python), *paths]

    def stop(self):
        return self.base + ["stop"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", "-n", type=int, default=3)
    add_veritype_options(ap)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    corpus.ensure_peers_venv()
    python = corpus.ensure_deps_venv()
    packages = corpus.all_packages()
    tree = corpus.build_tree(packages)
    servers: list[Server] = [VeritypeDaemon(veritype_from_args(args)), Dmypy(corpus.WORK / "dmypy.json")]
    paths = [top for p in packages for top in p.roots]
    lines = sum(corpus.count_lines(tree, p) for p in packages)
    rich = next(p for p in packages if p.name == "rich")
    leaf = corpus.pick_leaf_module(tree, rich)
    hub = _most_imported(tree, rich)
    print(machine.header("veritype edits against a server", machine.describe(mypy_version=corpus.mypy_version())))
    print(f"corpus: {lines:,} lines; body edit in {leaf.relative_to(tree)}, interface edit in {hub.relative_to(tree)}")

    def run(server: Server, cmd: list[str]) -> Measurement:
        m = run_measured(cmd, tree, server.env)
        if m.returncode not in (0, 1):
            raise SystemExit(f"{server.name} failed ({m.returncode}): {(m.stderr or m.stdout)[-800:]}")
        return m

    for s in servers:
        subprocess.run(s.stop(), cwd=tree, env=s.env, capture_output=True)
    results: dict[str, dict[str, list[Measurement]]] = {}
    originals = {leaf: leaf.read_text(encoding="utf-8"), hub: hub.read_text(encoding="utf-8")}
    try:
        prime = {s.name: run(s, s.check(paths, python)) for s in servers}
        print("priming (server start + first check): " + ", ".join(f"{n} {m.wall:.1f} s" for n, m in prime.items()))
        after, indent = _body_anchor(leaf)
        for scenario in ("body", "interface"):
            results[scenario] = {s.name: [] for s in servers}
            for i in range(args.repeats):
                if scenario == "body":
                    lines_ = originals[leaf].splitlines(keepends=True)
                    lines_.insert(after, " " * indent + f"_bench_body_{i} = {i}\n")
                    leaf.write_text("".join(lines_), encoding="utf-8")
                else:
                    hub.write_text(originals[hub] + f"\n\ndef _bench_added_{i}(x: int) -> int:\n    return x + {i}\n", encoding="utf-8")
                for s in (servers if i % 2 == 0 else servers[::-1]):
                    results[scenario][s.name].append(run(s, s.check(paths, python)))
            for path, text in originals.items():
                path.write_text(text, encoding="utf-8")
            for s in servers:  # back to the original text before the next scenario
                run(s, s.check(paths, python))
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")
        for s in servers:
            subprocess.run(s.stop(), cwd=tree, env=s.env, capture_output=True)

    print(f"\n{args.repeats} edit(s) per scenario, medians; ratio = veritype / dmypy\n")
    print("| scenario | veritype daemon (= watch) | dmypy | ratio |")
    print("|---|---|---|---|")
    doc = {}
    for scenario, by in results.items():
        v = statistics.median(m.wall for m in by["veritype"])
        d = statistics.median(m.wall for m in by["dmypy"])
        label = f"{scenario} ({(leaf if scenario == 'body' else hub).relative_to(tree)})"
        print(f"| {label} | {v:.2f} s | {d:.2f} s | {v / d:.2f}x |")
        doc[scenario] = {"veritype": [m.wall for m in by["veritype"]], "dmypy": [m.wall for m in by["dmypy"]]}
    if args.json:
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
