"""The files a run is asked to check, as (path, module name, source root)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BuildSource:
    """A file to check: its path, module name and source root."""
    path: str
    module: str
    base_dir: str  # the source root the module name is relative to
    text: str | None = None  # given directly (tests, editors) instead of read from disk
