"""pytest hooks: collect every `tests/cases/**/*.md` as case-file tests (see case_runner)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import case_runner  # noqa: E402

CASES_DIR = Path(__file__).parent / "cases"

# The shared stub cache (veritype/cache/shared.py) of every CLI run in the
# tests, in-process or a subprocess (they inherit the environment): a fresh
# directory of this session, never the user's own cache directory.
_SHARED_CACHE = tempfile.TemporaryDirectory(prefix="veritype-shared-cache-")
os.environ["VERITYPE_SHARED_CACHE_DIR"] = _SHARED_CACHE.name


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".md" and CASES_DIR in file_path.parents:
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFile(pytest.File):
    def collect(self):  # type: ignore[no-untyped-def]
        rel = self.path.relative_to(CASES_DIR.parent).as_posix()
        try:
            cases = case_runner.parse_case_file(rel, self.path.read_text(encoding="utf-8"))
        except case_runner.CaseSyntaxError as exc:
            raise self.CollectError(str(exc)) from None
        for case in cases:
            yield CaseItem.from_parent(self, name=case.name, case=case)


class CaseItem(pytest.Item):
    def __init__(self, *, case: case_runner.Case, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.case = case
        # pytest-lsp's runtest_call wrapper returns without yielding for an
        # item that has no funcargs (pytest then fails the item); a case has
        # no fixtures, so it gets an empty mapping.
        self.funcargs: dict[str, object] = {}
        if case.python and not case_runner.python_matches(case.python, sys.version_info[:2]):
            self.add_marker(pytest.mark.skip(reason=f"needs Python {case.python}"))
        if case.xfail:
            self.add_marker(pytest.mark.xfail(reason=case.xfail, strict=True))

    def runtest(self) -> None:
        with tempfile.TemporaryDirectory(prefix="veritype-case-") as tmp:
            case_runner.run_case(self.case, os.path.realpath(tmp))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None) -> str:  # type: ignore[override]
        if isinstance(excinfo.value, case_runner.CaseFailure):
            return f"{self.case.md_path}:{self.case.line}: case '{self.case.name}' failed\n{excinfo.value}"
        if isinstance(excinfo.value, case_runner.CaseSyntaxError):
            return f"{self.case.md_path}: {excinfo.value}"
        return super().repr_failure(excinfo)  # type: ignore[arg-type]

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case.line - 1, f"case: {self.case.name}"


@pytest.fixture(autouse=True)
def _not_under_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under GitHub Actions the CLI's default output is annotations
    (report/formats.py); the tests expect the text format unless they ask."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
