"""typeshed's standard-library stubs, as bundled by the `typeshed_client` package.

The stubs cover every Python version; typeshed's `VERSIONS` file says in
which versions each module exists (`distutils: 3.0-3.11`, `tomllib: 3.11-`).
A module is in the stdlib for a target version when the longest listed prefix
of its name covers that version.
"""

from __future__ import annotations

import functools
import os
import sys

Version = tuple[int, int]


@functools.cache
def stdlib_dir() -> str:
    return os.path.join(package_dir(), "typeshed")


@functools.cache
def package_dir() -> str:
    """Where the typeshed_client package is installed: the first sys.path
    entry holding it, as `import` would find a plain package. Found, not
    imported: veritype reads its files and never needs its code (importing
    it cost a tenth of a warm run)."""
    for entry in sys.path:
        candidate = os.path.join(entry or os.curdir, "typeshed_client")
        if os.path.isfile(os.path.join(candidate, "__init__.py")):
            return os.path.abspath(candidate)
    import typeshed_client  # installed some other way (a zip, an import hook): ask the import

    return os.path.dirname(typeshed_client.__file__)


def bundled_stubs_dir() -> str:
    """Stubs veritype ships for third-party packages that mypy bundles stubs for."""
    return os.path.join(os.path.dirname(__file__), "bundled_stubs")


def _parse_version(text: str) -> Version:
    major, minor = text.strip().split(".")
    return int(major), int(minor)


@functools.cache
def stdlib_versions() -> dict[str, tuple[Version, Version | None]]:
    """module -> (first version, last version or None) from the VERSIONS file."""
    table: dict[str, tuple[Version, Version | None]] = {}
    path = os.path.join(stdlib_dir(), "VERSIONS")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError:
        return table
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line or ":" not in line:
            continue
        name, span = (part.strip() for part in line.split(":", 1))
        low, _, high = span.partition("-")
        try:
            table[name] = (_parse_version(low), _parse_version(high) if high.strip() else None)
        except ValueError:
            continue
    return table


def version_range(module: str) -> tuple[Version, Version | None] | None:
    """The version span of the longest listed prefix of `module`, or None if unlisted."""
    table = stdlib_versions()
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        span = table.get(".".join(parts[:n]))
        if span is not None:
            return span
    return None


def in_stdlib(module: str, version: Version) -> bool:
    span = version_range(module)
    if span is None:
        return False
    low, high = span
    return low <= version and (high is None or version <= high)


def stdlib_availability_note(module: str, version: Version) -> str | None:
    """Why a stdlib module is missing for this version (e.g. removed in 3.12), if it is one."""
    span = version_range(module)
    if span is None:
        return None
    low, high = span
    top = module.split(".")[0]
    v = f"{version[0]}.{version[1]}"
    if version < low:
        return f'"{module}" is in the standard library only from Python {low[0]}.{low[1]} (checking for Python {v})'
    if high is not None and version > high:
        nxt = (high[0], high[1] + 1)
        what = f'"{module}"' if module == top else f'"{module}"'
        return f"{what} was removed from the standard library in Python {nxt[0]}.{nxt[1]} (checking for Python {v})"
    return None
