"""A project cache's rows in either layout (cache/store.py), for the cache
tests: read them, and damage, forge or remove one as a fault would.

`sqlite`, the default: rows of `v1/cache.db`; `files` (`--no-sqlite-cache`):
files of `v1/`. A row is named as its file would be (`<32 hex>.json` for an
entry, `interfaces.json`, `run.json`, ... for the memos). Changing a row's
text here sets its size, not its stamp: as a damaged file keeps no mark of
which run wrote it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

LAYOUTS = ["sqlite", "files"]


def write_project(root: Path, files: dict[str, str]) -> Path:
    """A new folder `root` holding `files` (name -> text)."""
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def flags(layout: str) -> list[str]:
    return [] if layout == "sqlite" else ["--no-sqlite-cache"]


def database(cache: Path) -> Path:
    return cache / "v1" / "cache.db"


def rows(cache: Path, layout: str) -> dict[str, str]:
    """Every row's text, by name (the cache's own rows: not the interpreter memo)."""
    if layout == "sqlite":
        if not database(cache).exists():
            return {}
        with sqlite3.connect(database(cache)) as conn:
            return dict(conn.execute("SELECT name, data FROM rows"))
    folder = cache / "v1"
    if not folder.is_dir():
        return {}
    return {p.name: p.read_text() for p in folder.iterdir()
            if p.suffix == ".json" and not p.name.startswith(".") and p.name != "interpreters.json"}


def entries(cache: Path, layout: str) -> dict[str, str]:
    """The module entries' rows (not the memos)."""
    return {name: text for name, text in rows(cache, layout).items() if len(name) == len("0" * 32 + ".json")}


def write(cache: Path, layout: str, name: str, text: str | bytes) -> None:
    """Replace a row's text (bytes: as they are, UTF-8 or not)."""
    if layout == "sqlite":
        with sqlite3.connect(database(cache)) as conn:
            conn.execute("UPDATE rows SET data = ?, size = ? WHERE name = ?", (text, len(text), name))
    elif isinstance(text, bytes):
        (cache / "v1" / name).write_bytes(text)
    else:
        (cache / "v1" / name).write_text(text)


def delete(cache: Path, layout: str, name: str) -> None:
    if layout == "sqlite":
        with sqlite3.connect(database(cache)) as conn:
            conn.execute("DELETE FROM rows WHERE name = ?", (name,))
    else:
        (cache / "v1" / name).unlink()
