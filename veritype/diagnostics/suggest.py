"""Name suggestions for mypy's hint texts: `maybe "deposit"?`, `Did you mean "title"?`.

mypy's rule, as its messages show it: the candidates whose similarity to the
misspelt name (difflib's SequenceMatcher ratio) is above 0.75, best first
(ties alphabetically), at most three; with 50 or more candidates left after a
cheap upper-bound filter, only those within one character of its length are
compared. Listed as `"a"`, `"a" or "b"`, `"a", "b", or "c"`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

_THRESHOLD = 0.75


def close_matches(name: str, candidates: Iterable[str], n: int = 3) -> list[str]:
    if not name:
        return []
    pool = sorted({c for c in candidates if c != name})
    # real_quick_ratio is an upper bound of ratio: it only drops hopeless ones.
    pool = [c for c in pool if difflib.SequenceMatcher(a=name, b=c).real_quick_ratio() > _THRESHOLD]
    if len(pool) >= 50:
        pool = [c for c in pool if abs(len(c) - len(name)) <= 1]
    ratios = {c: difflib.SequenceMatcher(a=name, b=c).ratio() for c in pool}
    good = [c for c, r in ratios.items() if r > _THRESHOLD]
    return sorted(good, key=lambda c: (-ratios[c], c))[:n]


def quoted_choices(names: list[str], conjunction: str = "or") -> str:
    quoted = [f'"{n}"' for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    if len(quoted) == 2:
        return f"{quoted[0]} {conjunction} {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", {conjunction} {quoted[-1]}"
