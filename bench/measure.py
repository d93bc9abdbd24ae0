"""Run one command and measure it: wall time, peak memory, CPU time.

The command runs as a direct child; we reap it with ``os.wait4``, which
returns the resource usage of exactly that child (and of any grandchildren it
waited for), so every measurement is its own and needs no before/after
delta of ``RUSAGE_CHILDREN``. ``ru_maxrss`` is the peak resident set size of
the largest single process in that tree (KiB on Linux), the same number
``/usr/bin/time -v`` prints as "Maximum resident set size".
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measurement:
    wall: float  # seconds
    max_rss_kib: int
    user: float  # CPU seconds in user mode
    system: float  # CPU seconds in the kernel
    returncode: int
    stdout: str
    stderr: str

    @property
    def max_rss_mib(self) -> float:
        return self.max_rss_kib / 1024


def run_measured(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Measurement:
    """Run ``cmd`` in ``cwd`` and return its measurement and output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    return Measurement(wall, usage.ru_maxrss, usage.ru_utime, usage.ru_stime,
                       proc.returncode, stdout, stderr)


@dataclass(frozen=True)
class Summary:
    """Median over repeats (peak memory: the median of the per-run peaks)."""

    wall: float
    max_rss_mib: float
    runs: int

    @classmethod
    def of(cls, runs: list[Measurement]) -> "Summary":
        return cls(
            statistics.median(m.wall for m in runs),
            statistics.median(m.max_rss_mib for m in runs),
            len(runs),
        )
