"""Where and when a measurement was taken: date, machine, versions."""

from __future__ import annotations

import datetime
import os
import platform
import sys

import corpus


def describe(mypy_version: str = "") -> dict[str, str]:
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "uname": " ".join(platform.uname()),
        "cpu": cpu_model(),
        "cores": str(os.cpu_count()),
        "python": sys.version.split()[0],
        "veritype": corpus.veritype_rev_label(),
        "mypy": mypy_version,
    }


def cpu_model() -> str:
    """The processor's model name, where Linux tells it: the ratio of veritype
    (CPython) to mypy (compiled to C) moves with the CPU, so a figure names it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def header(title: str, info: dict[str, str]) -> str:
    lines = [f"{title} — {info['date']}",
             f"machine: {info['uname']} ({info.get('cpu', 'unknown')}, {info['cores']} cores), Python {info['python']}",
             f"veritype {info['veritype']}" + (f" vs {info['mypy']}" if info.get("mypy") else "")]
    return "\n".join(lines)
