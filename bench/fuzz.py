"""A long fuzz run: generated programs checked in child processes, bounded.

`python bench/fuzz.py --programs 10000` draws programs from a generator
(`typed`: tests/fuzz/typed_programs.py; `strict`: the same checked with
`--strict --python-version 3.13 --warn-unreachable`; `grammar` and `nodes`:
hypothesmith) and checks each in a worker process that stays up between
programs. The worker runs niced under an address-space limit, and the parent
watches it: a program that takes longer than `--time-limit` seconds, or makes
the worker's resident memory pass `--mem-limit` MiB, kills the worker (it is
restarted for the next program) and is recorded with its text. An exception
from the check, or an "Internal error" diagnostic, is an internal error.

Programs are named `KIND:SEED:INDEX`: a batch of `--batch` programs is drawn
from hypothesis seeded with SEED, so a batch is drawn again identically (same
hypothesis version) and the run can stop and resume: every outcome is appended
to `--out` (JSON lines, one per program), and programs already there are
skipped. `--summary` prints the totals of an output file and the failures.
`--replay FILE` checks one program file in the same bounded worker.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import subprocess
import sys
import time
from collections.abc import Iterator

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "tests")

KINDS = ("typed", "strict", "grammar", "nodes")
FLAGS = {"strict": ["--strict", "--python-version", "3.13", "--warn-unreachable"]}


# --- the worker: reads one JSON request a line, answers one JSON line -------------------------

def worker() -> int:
    import tempfile
    import warnings

    from veritype.cli.flags import options_from_argv
    from veritype.engine.build import run as build_run
    from veritype.modules.sources import BuildSource

    warnings.simplefilter("ignore")  # generated code may hold constructs the compiler warns about
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the channel
    for line in sys.stdin:
        request = json.loads(line)
        start = time.perf_counter()
        answer: dict[str, object] = {"id": request["id"]}
        with tempfile.TemporaryDirectory() as root:
            path = os.path.join(root, "main.py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(request["source"])
            try:
                options = options_from_argv(list(request["flags"]), root, search_config=False)
                options.site_packages = []
                result = build_run([BuildSource(path, "main", root)], options)
                internal = [d.message for d in result.diagnostics if d.message.startswith("Internal error")]
                answer["status"] = "internal" if internal else "ok"
                if internal:
                    answer["error"] = internal[0]
            except Exception as exc:  # the thing being looked for
                answer["status"] = "internal"
                answer["error"] = f"{type(exc).__name__}: {exc}"[:500]
        answer["seconds"] = round(time.perf_counter() - start, 3)
        answer["max_rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


# --- the parent: one worker at a time, watched ------------------------------------------------

def _rss_mib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


class Worker:
    """A `bench/fuzz.py --worker` child, niced and under an address-space limit."""

    def __init__(self, as_limit_mib: int) -> None:
        def limit() -> None:
            os.nice(10)
            cap = as_limit_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, preexec_fn=limit)

    def check(self, pid: str, source: str, flags: list[str], time_limit: float, mem_limit: int) -> dict[str, object]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps({"id": pid, "source": source, "flags": flags}) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return {"id": pid, "status": "crash", "error": "the worker died before the program was sent"}
        start = time.perf_counter()
        peak = 0
        while True:
            # The limits first, then wait for an answer a tenth of a second.
            peak = max(peak, _rss_mib(self.proc.pid))
            elapsed = time.perf_counter() - start
            if peak > mem_limit or elapsed > time_limit:
                self.kill()
                return {"id": pid, "status": "memory" if peak > mem_limit else "timeout",
                        "seconds": round(elapsed, 3), "max_rss_mib": peak}
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.1)
            if ready:
                line = self.proc.stdout.readline()
                if line:
                    return json.loads(line)  # type: ignore[no-any-return]
                code = self.proc.wait()
                return {"id": pid, "status": "crash", "error": f"the worker exited with status {code}",
                        "seconds": round(time.perf_counter() - start, 3), "max_rss_mib": peak}

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def _strategy(kind: str):  # type: ignore[no-untyped-def]
    if kind in ("typed", "strict"):
        sys.path.insert(0, TESTS)
        from fuzz.typed_programs import typed_programs
        return typed_programs()
    import hypothesmith
    return hypothesmith.from_grammar() if kind == "grammar" else hypothesmith.from_node()


def draw_batch(kind: str, seed: int, count: int) -> list[str]:
    """`count` programs of `kind` drawn by hypothesis seeded with `seed` (the same on every call)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hseed

    import warnings

    warnings.simplefilter("ignore", SyntaxWarning)  # hypothesmith compiles what it draws
    programs: list[str] = []

    @settings(max_examples=count, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @hseed(seed)
    @given(_strategy(kind))
    def collect(source: str) -> None:
        programs.append(source)

    collect()
    return programs[:count]


def programs(kinds: list[str], total: int, batch: int, first_seed: int) -> Iterator[tuple[str, str, list[str]]]:
    """(id, source, flags) for `total` programs, the kinds taking turns batch by batch."""
    made, seed = 0, first_seed
    while made < total:
        for kind in kinds:
            for index, source in enumerate(draw_batch(kind, seed, min(batch, total - made))):
                yield f"{kind}:{seed}:{index}", source, FLAGS.get(kind, [])
                made += 1
            if made >= total:
                return
        seed += 1


def load(path: str) -> dict[str, dict[str, object]]:
    done: dict[str, dict[str, object]] = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    record = json.loads(line)
                    done[record["id"]] = record
    return done


def summary(path: str) -> int:
    done = load(path)
    counts: dict[str, int] = {}
    for record in done.values():
        counts[str(record["status"])] = counts.get(str(record["status"]), 0) + 1
    seconds = [float(r.get("seconds", 0)) for r in done.values()]  # type: ignore[arg-type]
    rss = [int(r.get("max_rss_mib", 0)) for r in done.values()]  # type: ignore[call-overload]
    print(f"{len(done)} programs: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if seconds:
        print(f"slowest {max(seconds):.2f} s, mean {sum(seconds) / len(seconds):.3f} s; worker peak RSS {max(rss)} MiB")
    for record in done.values():
        if record["status"] != "ok":
            print(f"  {record['id']}: {record['status']} {record.get('error', '')} ({record.get('seconds')} s,"
                  f" {record.get('max_rss_mib')} MiB)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--programs", type=int, default=1000, help="how many programs in all (default 1000)")
    ap.add_argument("--kind", action="append", choices=KINDS, help="generator (repeatable; default typed)")
    ap.add_argument("--batch", type=int, default=100, help="programs drawn per seed (default 100)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per program (default 30)")
    ap.add_argument("--mem-limit", type=int, default=1000, help="resident MiB per program (default 1000)")
    ap.add_argument("--as-limit", type=int, default=3000,
                    help="the worker's address-space limit in MiB, a backstop (default 3000; the check's"
                         " thread reserves a 512 MiB stack)")
    ap.add_argument("--out", default=os.path.join(HERE, ".work", "fuzz.jsonl"), help="JSON-lines results (appended)")
    ap.add_argument("--save", default=os.path.join(HERE, ".work", "fuzz-failures"),
                    help="directory for the text of each failing program")
    ap.add_argument("--summary", action="store_true", help="print the totals of --out and stop")
    ap.add_argument("--replay", help="check one program file in the bounded worker and print the outcome")
    ap.add_argument("--flags", default="", help="with --replay: veritype flags, space-separated")
    args = ap.parse_args(argv)
    if args.worker:
        return worker()
    if args.summary:
        return summary(args.out)
    if args.replay:
        with open(args.replay, encoding="utf-8") as f:
            source = f.read()
        w = Worker(args.as_limit)
        print(json.dumps(w.check(args.replay, source, args.flags.split(), args.time_limit, args.mem_limit)))
        w.close()
        return 0
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    os.makedirs(args.save, exist_ok=True)
    done = load(args.out)
    w: Worker | None = None
    bad = checked = 0
    with open(args.out, "a") as out:
        for pid, source, flags in programs(args.kind or ["typed"], args.programs, args.batch, args.seed):
            if pid in done:
                continue
            if w is None:
                w = Worker(args.as_limit)
            record = w.check(pid, source, flags, args.time_limit, args.mem_limit)
            if record["status"] in ("timeout", "memory", "crash"):
                w = None  # killed or dead: a fresh one for the next program
            checked += 1
            if record["status"] != "ok":
                bad += 1
                name = os.path.join(args.save, pid.replace(":", "-") + ".py")
                with open(name, "w", encoding="utf-8") as f:
                    f.write(source)
                record["saved"] = name
                print(f"{pid}: {record['status']} {record.get('error', '')} -> {name}", flush=True)
            out.write(json.dumps(record) + "\n")
            out.flush()
            if checked % 100 == 0:
                print(f"... {checked} checked, {bad} failing", flush=True)
    if w is not None:
        w.close()
    print(f"{checked} checked this run, {bad} failing; totals:")
    return summary(args.out)


if __name__ == "__main__":
    sys.exit(main())
