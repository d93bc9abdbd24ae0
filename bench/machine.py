"""Where and when a measurement was taken: date, machine, versions."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys

import corpus


def _git_rev() -> str:
    try:
        out = subprocess.run(["git", "-C", str(corpus.REPO_ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=30)
    except OSError:
        return "unknown"
    rev = out.stdout.strip() or "no commit"
    dirty = subprocess.run(["git", "-C", str(corpus.REPO_ROOT), "status", "--porcelain",
                            "--", "veritype"], capture_output=True, text=True).stdout.strip()
    return rev + ("+dirty" if dirty else "")


def describe(mypy_version: str = "") -> dict[str, str]:
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "uname": " ".join(platform.uname()),
        "cores": str(os.cpu_count()),
        "python": sys.version.split()[0],
        "veritype": _git_rev(),
        "mypy": mypy_version,
    }


def header(title: str, info: dict[str, str]) -> str:
    lines = [f"{title} — {info['date']}",
             f"machine: {info['uname']} ({info['cores']} cores), Python {info['python']}",
             f"veritype {info['veritype']}" + (f" vs {info['mypy']}" if info.get("mypy") else "")]
    return "\n".join(lines)
