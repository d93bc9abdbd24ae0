"""The work bounds a run hit (issue #19), for `--verbose`.

Where veritype stops on purpose (an expression nested past its depth bound,
a recursion caught in an inference, an overload argument expansion past its
size bound), it infers Any and reports nothing, never a false error and
never a hang. `--verbose` names each bound the run hit, how often, and the
first place, so a user who sees an unexpected Any knows why. One recorder
per process, reset by the build at the start of each run; with `-n N` the
workers' hits stay in the workers (only the main process's are shown).
"""

from __future__ import annotations

_hits: dict[str, list[object]] = {}  # bound -> [count, first place or None]


def hit(bound: str, where: str | None = None) -> None:
    entry = _hits.get(bound)
    if entry is None:
        _hits[bound] = [1, where]
    else:
        entry[0] = int(entry[0]) + 1  # type: ignore[call-overload]
        if entry[1] is None:
            entry[1] = where


def reset() -> None:
    _hits.clear()


def summary() -> list[str]:
    """One line per bound hit: `bound hit N time(s) (first at PLACE); inferred as Any`."""
    lines = []
    for bound, (count, where) in _hits.items():
        first = f" (first at {where})" if where else ""
        lines.append(f"bound hit: {bound}, {count} time(s){first}; inferred as Any, nothing reported")
    return lines
