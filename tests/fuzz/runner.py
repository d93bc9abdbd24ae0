"""Check one in-memory program in-process, with a hang guard.

The fuzz tests only ask that a check ends, and ends without an exception
(an internal error); `check_source` returns the diagnostics for tests that
also know the answer. The guard is a generous join timeout on a thread, not
a speed assertion: a run that exceeds it is a hang.
"""

from __future__ import annotations

import os
import tempfile
import threading

from veritype.diagnostics.diagnostic import Diagnostic

HANG_GUARD = 120.0  # seconds


def check_source(source: str, *flags: str, timeout: float = HANG_GUARD) -> list[Diagnostic]:
    from veritype.engine.build import run as build_run
    from veritype.cli.flags import options_from_argv
    from veritype.modules.sources import BuildSource

    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "main.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        options = options_from_argv(list(flags), root, search_config=False)
        options.site_packages = []
        outcome: dict[str, object] = {}

        def work() -> None:
            try:
                outcome["result"] = build_run([BuildSource(path, "main", root)], options)
            except BaseException as exc:  # reported to the test below
                outcome["error"] = exc

        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            raise AssertionError(f"no answer in {timeout:.0f} s (a hang) for:\n{source[:2000]}")
        if "error" in outcome:
            raise AssertionError(f"internal error {outcome['error']!r} for:\n{source[:2000]}") from outcome["error"]  # type: ignore[misc]
        return list(outcome["result"].diagnostics)  # type: ignore[attr-defined]


def errors(diags: list[Diagnostic]) -> list[str]:
    return [f"{d.line}:{d.column}: {d.message} [{d.code}]" for d in diags if d.severity == "error"]
