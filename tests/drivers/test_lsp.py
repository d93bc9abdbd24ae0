"""The language server: diagnostics from open documents' text, LSP ranges."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.server.lsp_diagnostics import check_documents, options_for, to_lsp


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.delenv("MYPYPATH", raising=False)
    return tmp_path


def test_unsaved_text_is_checked_with_0_based_character_ranges(root: Path) -> None:
    path = root / "m.py"
    path.write_text("x: int = 1\n")  # clean on disk
    text = "s = 'é'\nx: int = 'ü' + s\n"  # the editor's text: an error after non-ASCII characters
    result = check_documents({str(path): text}, str(root))
    [diag] = result[str(path)]
    assert diag.severity == 1 and diag.code == "assignment"
    # `'ü' + s` starts at character 9 of line 1 (0-based) and ends at 16,
    # though in UTF-8 bytes it ends at 17.
    assert diag.start == (1, 9) and diag.end == (1, 16)


def test_open_documents_see_each_others_unsaved_text(root: Path) -> None:
    a, b = root / "a.py", root / "b.py"
    a.write_text("def f() -> int:\n    return 1\n")
    b.write_text("from a import f\nn: int = f()\n")
    docs = {str(a): "def f() -> str:\n    return ''\n", str(b): b.read_text()}
    result = check_documents(docs, str(root))
    assert result[str(a)] == []
    assert [d.code for d in result[str(b)]] == ["assignment"]
    # Saved and fixed again: the markers go.
    docs[str(a)] = a.read_text()
    assert check_documents(docs, str(root))[str(b)] == []


def test_cache_and_config_of_the_workspace_root(root: Path) -> None:
    (root / "pyproject.toml").write_text("[tool.veritype]\ndisallow_untyped_defs = true\n")
    path = root / "m.py"
    path.write_text("def f(x):\n    return x\n")
    options = options_for(str(root))
    assert options.disallow_untyped_defs and options.cache_dir == str(root / ".veritype_cache")
    result = check_documents({str(path): path.read_text()}, str(root))
    assert [d.code for d in result[str(path)]] == ["no-untyped-def"]
    assert (root / ".veritype_cache").is_dir()


def test_to_lsp_ranges() -> None:
    lines = ["abc", "def"]
    d = to_lsp(Diagnostic("p", 2, 2, "note", "n"), lines)
    assert (d.start, d.end, d.severity) == ((1, 1), (1, 2), 3)
    d = to_lsp(Diagnostic("p", 1, 1, "error", "e", "misc", 2, 4), lines)
    assert (d.start, d.end) == ((0, 0), (1, 3))
    d = to_lsp(Diagnostic("p", 9, 50, "error", "past the end"), lines)  # never raises
    assert d.start == (8, 0)


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(stream) -> dict[str, object]:  # type: ignore[no-untyped-def]
    length = 0
    while (line := stream.readline().strip()) != b"":
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


def test_stdio_server_publishes_on_open(root: Path) -> None:
    pytest.importorskip("pygls")
    path = root / "m.py"
    uri = path.as_uri()
    proc = subprocess.Popen(
        [sys.executable, "-m", "veritype", "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=root
    )
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(60, proc.kill)  # a silent server fails the test, never hangs it
    watchdog.start()
    try:
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": "x: int = ''\n"}}}))
        proc.stdin.flush()
        published = None
        for _ in range(20):
            message = _read(proc.stdout)
            if message.get("method") == "textDocument/publishDiagnostics":
                published = message["params"]
                break
        assert published is not None and published["uri"] == uri
        [diag] = published["diagnostics"]
        assert diag["code"] == "assignment" and diag["range"]["start"] == {"line": 0, "character": 9}
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        proc.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        proc.stdin.flush()
        proc.wait(timeout=20)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
