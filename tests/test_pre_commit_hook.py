""".pre-commit-hooks.yaml: the hook runs the `veritype` console script with
its args and the staged files, the way pre-commit calls mypy's hook."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

from veritype.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def _hook() -> dict[str, str]:
    """The hook's `key: value` lines (flat YAML; no YAML parser needed)."""
    hook: dict[str, str] = {}
    for line in (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        key, _, value = line.strip().removeprefix("- ").partition(":")
        hook[key.strip()] = value.strip()
    return hook


def test_hook_names_the_console_script() -> None:
    hook = _hook()
    assert hook["id"] == "veritype" and hook["language"] == "python"
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts[hook["entry"]] == "veritype.cli.main:console_main"
    assert hook["types_or"] == "[python, pyi]"
    assert hook["require_serial"] == "true"  # one process sees every file, as mypy's hook


def test_hook_args_and_files_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "ok.py").write_text("import nosuchmodule\nx: int = 1\n")
    (tmp_path / "bad.py").write_text('y: int = ""\n')
    monkeypatch.chdir(tmp_path)
    args = ast.literal_eval(_hook()["args"])
    assert main([*args, "ok.py", "--no-incremental"]) == 0  # --ignore-missing-imports, as mirrors-mypy
    assert main([*args, "ok.py", "bad.py", "--no-incremental"]) == 1
    assert "bad.py:1:10: error:" in capsys.readouterr().out
