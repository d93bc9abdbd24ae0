"""The last run's answer in one file, so that a warm run need not read every entry.

A warm run (nothing changed) read every module's entry (on the bench corpus
387 files, 5 MB of JSON, a third of its time) only to find each of them
valid. After a run, one file (`v1/run.json`, store.py) records:

- `key`: a digest of the run's base key (veritype, typeshed, options) and of
  each source's module name, path and module key, in order;
- `states`: the state now of every name that any of the run's entries
  records. That is their whole closure: every entry reachable through refs
  is one of the run's own sources (cache/closures.py);
- for each source, its diagnostics and the stat of its entry file (or
  row: its size and the writing run's stamp, cache/database.py).

The next run with the same key reuses every module's diagnostics from it
when each recorded state is still the state now, and each entry file is
still the one the summary was written beside. So it answers only where each
entry would: the states are theirs, and an entry lost, corrupt or written
by another run since (an entry's stat changed) sends the run down the
per-entry path, which reads, reports and rewrites as before (`--verbose`).

One file, the last run's: a different invocation (other files named) uses
the entries, then replaces it. Its shape is checked on reading; a checksum
line guards it like every memo (store.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from veritype.cache.fingerprint import digest_text
from veritype.diagnostics.diagnostic import Diagnostic

# An entry file's stat as recorded: [size, mtime_ns, inode]; a database row's
# [size, stamp of the run that wrote it, 0] (cache/database.py); or None (none written).
EntryStat = list[int] | None


@dataclass
class RunSummary:
    """The last run's answer: its key, the states it read and each module's diagnostics."""
    key: str
    states: dict[str, str]
    # module -> (its entry file's stat, its diagnostics)
    modules: dict[str, tuple[EntryStat, list[Diagnostic]]]

    def answers(self, state: Callable[[str], str], entry_stat: Callable[[str], EntryStat]) -> bool:
        """Whether every recorded state is the state now and every entry file
        is the one it was written beside."""
        for module, (stat, _) in self.modules.items():
            if stat is None or entry_stat(module) != stat:
                return False
        now = {name: state(name) for name in sorted(self.states)}
        return self.states.items() <= now.items()


def run_key(base: str, modules: list[tuple[str, str, str]]) -> str:
    """The key of a run: its base key and (module, path, module key) of each source."""
    return digest_text(base + "\n" + "\n".join("\0".join(m) for m in modules))


def to_json(summary: RunSummary, diag_to_json: Callable[[Diagnostic], dict[str, object]]) -> dict[str, object]:
    return {
        "states": summary.states,
        "modules": {m: [stat, [diag_to_json(d) for d in diags]] for m, (stat, diags) in summary.modules.items()},
    }


def from_json(key: str, raw: Mapping[str, object], diag_from_json: Callable[[object], Diagnostic]) -> RunSummary:
    """Raises TypeError, ValueError or KeyError where the shape is wrong."""
    states, modules = raw["states"], raw["modules"]
    if not isinstance(states, dict) or not isinstance(modules, dict):
        raise TypeError("summary has the wrong shape")
    if not {*map(type, states), *map(type, states.values())} <= {str}:
        raise TypeError("states have the wrong shape")
    out: dict[str, tuple[EntryStat, list[Diagnostic]]] = {}
    for module, value in modules.items():
        stat, diags = value
        if stat is not None and not (isinstance(stat, list) and len(stat) == 3 and {*map(type, stat)} <= {int}):
            raise TypeError("entry stat has the wrong shape")
        if not isinstance(diags, list):
            raise TypeError("diagnostics have the wrong shape")
        out[str(module)] = (stat, [diag_from_json(d) for d in diags])
    return RunSummary(key, states, out)
