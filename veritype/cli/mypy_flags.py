"""mypy's flags that veritype accepts without acting on them.

Every NOT_ENFORCED row of `veritype.config.mypy_table` becomes a hidden
argparse flag here (its mypy spelling, with its inverse), so a command line
written for mypy never fails with "unrecognized arguments". A value other
than mypy's default lands in `Options.not_enforced`, which the driver names
in one warning line per run. A flag veritype already defines (implemented,
e.g. by another part of the CLI) is left alone.
"""

from __future__ import annotations

import argparse
from typing import Any

from veritype.config.mypy_table import MYPY_OPTIONS, NOT_ENFORCED, MypyOption
from veritype.options import Options

_DEST = "mypy_not_enforced__"


def _rows() -> list[MypyOption]:
    return [o for o in MYPY_OPTIONS if o.status == NOT_ENFORCED]


def add_not_enforced_flags(parser: argparse.ArgumentParser) -> None:
    defined = parser._option_string_actions  # noqa: SLF001 - argparse has no public query
    for opt in _rows():
        dest = _DEST + opt.key
        if opt.kind == "bool":
            for flags, value in ((opt.on, True), (opt.off, False)):
                flags = tuple(f for f in flags if f not in defined)
                if flags:
                    parser.add_argument(*flags, dest=dest, action="store_const", const=value, help=argparse.SUPPRESS)
            continue
        flags = tuple(f for f in opt.on if f not in defined)
        if not flags:
            continue
        if opt.key == "num_workers":
            flags = ("-n", *flags) if "-n" not in defined else flags
        action = "append" if opt.kind == "list" else "store"
        nargs = opt.nargs if opt.nargs != 1 else None
        parser.add_argument(*flags, dest=dest, action=action, nargs=nargs, help=argparse.SUPPRESS)


def apply_not_enforced_flags(options: Options, given: dict[str, Any]) -> None:
    for opt in _rows():
        dest = _DEST + opt.key
        if dest not in given:
            continue
        value = given[dest]
        if opt.kind == "list":
            value = [part.strip() for v in value for part in str(v).split(",") if part.strip()]
        if value != opt.default:
            options.not_enforced[opt.key] = value
        else:
            options.not_enforced.pop(opt.key, None)
