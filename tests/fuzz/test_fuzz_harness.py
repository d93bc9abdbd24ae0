"""bench/fuzz.py, the long fuzz run: its worker reports each outcome, and the
parent's limits turn a slow or greedy check into a recorded failure, not a
hang of the run."""

from __future__ import annotations

import importlib.util
import json
import os

# Loaded by path: the name `fuzz` is this test package's.
_spec = importlib.util.spec_from_file_location("bench_fuzz", os.path.join(os.path.dirname(__file__), "..", "..", "bench", "fuzz.py"))
assert _spec is not None and _spec.loader is not None
harness = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(harness)

PROGRAM = "def f(x: int) -> str:\n    return x\n"


def test_worker_checks_programs_and_the_limits_stop_it() -> None:
    worker = harness.Worker(as_limit_mib=3000)
    try:
        ok = worker.check("p1", PROGRAM, [], time_limit=120, mem_limit=1000)
        assert ok["status"] == "ok" and ok["id"] == "p1"
        # The same worker answers again (it stays up between programs).
        assert worker.check("p2", "x: int = 1\n", ["--strict"], time_limit=120, mem_limit=1000)["status"] == "ok"
        # A resident-memory limit below what any check needs: killed and recorded.
        greedy = worker.check("p3", PROGRAM, [], time_limit=120, mem_limit=1)
        assert greedy["status"] == "memory"
        assert worker.proc.poll() is not None
    finally:
        worker.kill()
    worker = harness.Worker(as_limit_mib=3000)
    try:
        slow = worker.check("p4", PROGRAM, [], time_limit=0, mem_limit=1000)
        assert slow["status"] == "timeout"
    finally:
        worker.kill()


def test_batches_are_drawn_again_identically() -> None:
    first = harness.draw_batch("typed", 7, 5)
    assert len(first) == 5
    assert harness.draw_batch("typed", 7, 5) == first


def test_a_run_resumes_and_sums_up(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "run.jsonl"
    argv = ["--programs", "3", "--batch", "3", "--seed", "5", "--out", str(out), "--save", str(tmp_path / "f")]
    assert harness.main(argv) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["typed:5:0", "typed:5:1", "typed:5:2"]
    assert all(r["status"] == "ok" for r in records)
    capsys.readouterr()
    assert harness.main(argv) == 0  # nothing left to check: nothing appended
    assert len(out.read_text().splitlines()) == 3
    assert "3 programs: ok 3" in capsys.readouterr().out
