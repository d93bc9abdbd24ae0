"""Fixtures shared by the driver tests: spies that record which modules a run checks."""

from __future__ import annotations

from types import ModuleType

import pytest


def _spy_on(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str) -> list[str]:
    """Replace `module.name(program, info)` by a wrapper recording `info.name`."""
    names: list[str] = []
    real = getattr(module, name)

    def spy(program, info):  # type: ignore[no-untyped-def]
        names.append(info.name)
        return real(program, info)

    monkeypatch.setattr(module, name, spy)
    return names


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules actually checked in this process (not taken
    from the cache; a worker process's checks are not seen here)."""
    import veritype.check.module_checker as mc

    return _spy_on(monkeypatch, mc, "check_module")


@pytest.fixture
def checked_by_engine(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules the engine checks whole (engine.checking.check_one)."""
    import veritype.engine.checking as checking

    return _spy_on(monkeypatch, checking, "check_one")
