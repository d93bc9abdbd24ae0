"""Fixtures shared by the driver tests: spies that record which modules a run checks."""

from __future__ import annotations

import pytest


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules actually checked in this process (not taken
    from the cache; a worker process's checks are not seen here)."""
    import veritype.check.module_checker as mc

    names: list[str] = []
    real = mc.check_module

    def spy(program, info):  # type: ignore[no-untyped-def]
        names.append(info.name)
        return real(program, info)

    monkeypatch.setattr(mc, "check_module", spy)
    return names


@pytest.fixture
def checked_by_engine(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the modules the engine checks whole (engine.checking.check_one)."""
    import veritype.engine.checking as checking

    names: list[str] = []
    real = checking.check_one

    def spy(program, info):  # type: ignore[no-untyped-def]
        names.append(info.name)
        return real(program, info)

    monkeypatch.setattr(checking, "check_one", spy)
    return names
