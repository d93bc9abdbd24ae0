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

The body edit is also made in veritype's language server (`veritype lsp`
over stdio, driven as bench/lsp_bench.py does, with the leaf module open):
its time is from the didChange carrying the edited text to the
publishDiagnostics that answers it, debounce included, and it is compared
with dmypy's check of the same edit.

Each timed request starts when every server is idle (its process asleep
and its CPU time still), so that one server's work after its answer (a
garbage collection) does not land on the next request of another, nor on
its own; that work is counted in the CPU column instead: the client's CPU
time plus the server's from the request until it is idle again.

    python bench/edits.py [--repeats 3] [--veritype-rev worktree] [--json out.json]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import corpus
import lsp_bench
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


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_and_state(pid: int) -> tuple[float, str]:
    """A process's CPU seconds (user + system) and its state letter, from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / _TICK, fields[0]


def wait_idle(pid: int | None, timeout: float = 60.0) -> float:
    """Wait until the process sleeps with its CPU time unchanged over 50 ms; its CPU seconds then (0.0 without a pid)."""
    if pid is None:
        return 0.0
    deadline = time.monotonic() + timeout
    last, _ = _cpu_and_state(pid)
    while time.monotonic() < deadline:
        time.sleep(0.05)
        cpu, state = _cpu_and_state(pid)
        if cpu == last and state in "SI":
            return cpu
        last = cpu
    return last


class Server:
    name: str
    env: dict[str, str] | None = None

    def check(self, paths: list[str], python: Path) -> list[str]:
        raise NotImplementedError

    def stop(self) -> list[str]:
        raise NotImplementedError

    def pid(self, cwd: Path) -> int | None:
        """The server process, once started (None: unknown)."""
        return None


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

    def pid(self, cwd):
        out = subprocess.run(self.base + ["daemon", "status"], cwd=cwd, env=self.env, capture_output=True, text=True).stdout
        found = re.search(r"pid (\d+)", out)
        return int(found.group(1)) if found else None


class Dmypy(Server):
    name = "dmypy"

    def __init__(self, status: Path) -> None:
        self.status = status
        self.base = [str(corpus.venv_python(corpus.PEERS_VENV)), "-P", "-m", "mypy.dmypy", "--status-file", str(status)]

    def pid(self, cwd):
        try:
            return int(json.loads(self.status.read_text())["pid"])
        except (OSError, ValueError, KeyError):
            return None

    def check(self, paths, python):
        return self.base + ["run", "--", "--no-error-summary", "--python-executable", str(python), *paths]

    def stop(self):
        return self.base + ["stop"]


class VeritypeLsp:
    """`veritype lsp` over stdio with one document open (the body edit's module)."""

    name = "veritype lsp"

    def __init__(self, v: Veritype, tree: Path, path: Path, deps_venv: Path) -> None:
        # The deps venv as the active one: the server checks against the packages the daemons see.
        env = {**(v.env or os.environ), "PYTHONSAFEPATH": "1", "VIRTUAL_ENV": str(deps_venv)}
        self.server = lsp_bench.Server(v.base + ["lsp"], str(tree), env)
        self.uri = path.resolve().as_uri()
        self.version = 1
        root = tree.resolve().as_uri()
        self.server.request("initialize", {
            "processId": os.getpid(), "rootUri": root, "workspaceFolders": [{"uri": root, "name": tree.name}],
            "capabilities": {"textDocument": {"publishDiagnostics": {}}},
        })
        self.server.notify("initialized", {})
        self.server.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": "python", "version": self.version, "text": path.read_text(encoding="utf-8")}})
        self.server.wait_diagnostics(self.uri, lambda d: True)

    @property
    def pid(self) -> int:
        return self.server.proc.pid

    def change(self, text: str) -> Measurement:
        """didChange to the publishDiagnostics that answers it: wall seconds, and the server's CPU until idle."""
        cpu0 = wait_idle(self.pid)
        self.version += 1
        start = time.perf_counter()
        self.server.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": [{"text": text}]})
        self.server.wait_diagnostics(self.uri, lambda d: True)
        wall = time.perf_counter() - start
        cpu = wait_idle(self.pid) - cpu0
        return Measurement(wall, 0, cpu, 0.0, 0, "", "")

    def close(self) -> None:
        self.server.close()


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
    veritype = veritype_from_args(args)
    servers: list[Server] = [VeritypeDaemon(veritype), Dmypy(corpus.WORK / "dmypy.json")]
    paths = [top for p in packages for top in p.roots]
    lines = sum(corpus.count_lines(tree, p) for p in packages)
    rich = next(p for p in packages if p.name == "rich")
    leaf = corpus.pick_leaf_module(tree, rich)
    hub = _most_imported(tree, rich)
    print(machine.header("veritype edits against a server", machine.describe(mypy_version=corpus.mypy_version())))
    print(f"corpus: {lines:,} lines; body edit in {leaf.relative_to(tree)}, interface edit in {hub.relative_to(tree)}")

    pids: dict[str, int | None] = {}
    lsp: VeritypeLsp | None = None

    def all_idle() -> None:
        for pid in [*pids.values(), lsp.pid if lsp is not None else None]:
            wait_idle(pid)

    def run(server: Server, cmd: list[str], timed: bool = False) -> Measurement:
        """One check; timed: started with every server idle, and its CPU is
        the client's plus the server's until it is idle again."""
        if timed:
            all_idle()
        before = wait_idle(pids.get(server.name)) if timed else 0.0
        m = run_measured(cmd, tree, server.env)
        if m.returncode not in (0, 1):
            raise SystemExit(f"{server.name} failed ({m.returncode}): {(m.stderr or m.stdout)[-800:]}")
        if timed:
            server_cpu = wait_idle(pids.get(server.name)) - before
            m = Measurement(m.wall, m.max_rss_kib, m.user + m.system + server_cpu, 0.0, m.returncode, m.stdout, m.stderr)
        return m

    for s in servers:
        subprocess.run(s.stop(), cwd=tree, env=s.env, capture_output=True)
    results: dict[str, dict[str, list[Measurement]]] = {}
    originals = {leaf: leaf.read_text(encoding="utf-8"), hub: hub.read_text(encoding="utf-8")}
    try:
        prime = {s.name: run(s, s.check(paths, python)) for s in servers}
        pids.update({s.name: s.pid(tree) for s in servers})
        start = time.perf_counter()
        lsp = VeritypeLsp(veritype, tree, leaf, python.parent.parent)
        print("priming (server start + first check): " + ", ".join(f"{n} {m.wall:.1f} s" for n, m in prime.items())
              + f", {lsp.name} (open {leaf.relative_to(tree)}) {time.perf_counter() - start:.1f} s")
        after, indent = _body_anchor(leaf)
        for scenario in ("body", "interface"):
            results[scenario] = {s.name: [] for s in servers}
            if scenario == "body":
                results[scenario][lsp.name] = []
            for i in range(args.repeats):
                if scenario == "body":
                    lines_ = originals[leaf].splitlines(keepends=True)
                    lines_.insert(after, " " * indent + f"_bench_body_{i} = {i}\n")
                    text = "".join(lines_)
                    leaf.write_text(text, encoding="utf-8")
                else:
                    hub.write_text(originals[hub] + f"\n\ndef _bench_added_{i}(x: int) -> int:\n    return x + {i}\n", encoding="utf-8")
                for s in (servers if i % 2 == 0 else servers[::-1]):
                    results[scenario][s.name].append(run(s, s.check(paths, python), timed=True))
                if scenario == "body":
                    all_idle()
                    results[scenario][lsp.name].append(lsp.change(text))
            for path, text in originals.items():
                path.write_text(text, encoding="utf-8")
            for s in servers:  # back to the original text before the next scenario
                run(s, s.check(paths, python))
            if scenario == "body":
                lsp.change(originals[leaf])
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")
        for s in servers:
            subprocess.run(s.stop(), cwd=tree, env=s.env, capture_output=True)
        if lsp is not None:
            lsp.close()

    print(f"\n{args.repeats} edit(s) per scenario, medians; ratio = veritype / dmypy; CPU = client + server until idle\n")
    print("| scenario | veritype daemon (= watch) | dmypy | ratio | CPU veritype | CPU dmypy | CPU ratio |")
    print("|---|---|---|---|---|---|---|")
    doc = {}
    for scenario, by in results.items():
        d = statistics.median(m.wall for m in by["dmypy"])
        dc = statistics.median(m.user for m in by["dmypy"])
        where = (leaf if scenario == "body" else hub).relative_to(tree)
        for name in [n for n in by if n != "dmypy"]:
            v = statistics.median(m.wall for m in by[name])
            vc = statistics.median(m.user for m in by[name])
            label = f"{scenario} ({where})" if name == "veritype" else f"{scenario}, {name} ({where})"
            print(f"| {label} | {v:.2f} s | {d:.2f} s | {v / d:.2f}x | {vc:.2f} s | {dc:.2f} s | {vc / dc:.2f}x |")
        doc[scenario] = {name: [m.wall for m in ms] for name, ms in by.items()}
        doc[scenario + " cpu"] = {name: [m.user for m in ms] for name, ms in by.items()}
    if args.json:
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
