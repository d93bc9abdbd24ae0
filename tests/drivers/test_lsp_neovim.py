"""The language server in a real editor: Neovim, headless, reads back diagnostics and a hover.

Skipped where `nvim` is not installed (Debian: `apt-get install neovim`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

NVIM = shutil.which("nvim")


@pytest.mark.skipif(NVIM is None, reason="nvim is not installed")
def test_neovim_shows_diagnostics_and_hover(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    source = tmp_path / "m.py"
    source.write_text("def f(x: int) -> str:\n    return str(x)\n\n\ny: int = f(1)\n")
    out = tmp_path / "out.json"
    probe = Path(__file__).with_name("nvim_probe.lua")
    cmd = json.dumps([sys.executable, "-m", "veritype", "lsp"])
    setup = (
        f"lua VT_CMD = vim.fn.json_decode([=[{cmd}]=]); VT_ROOT = [=[{tmp_path}]=]; VT_FILE = [=[{source}]=];"
        f" VT_OUT = [=[{out}]=]; VT_LINE = 4; VT_COL = 9"
    )
    assert NVIM is not None
    subprocess.run([NVIM, "--headless", "--clean", "--cmd", setup, "-c", f"luafile {probe}", "-c", "qa!"], cwd=tmp_path, timeout=120, check=True, capture_output=True, stdin=subprocess.DEVNULL)
    result = json.loads(out.read_text())
    [diag] = result["diagnostics"]
    assert diag["line"] == 4 and diag["code"] == "assignment"
    assert 'expression has type "str", variable has type "int"' in diag["message"]
    assert "def f(x: int) -> str" in result["hover"]
