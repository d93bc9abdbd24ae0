"""The language server's guarded input (issue #19): a frame with a huge or
malformed Content-Length is refused cleanly, never a MemoryError, a
traceback or a server holding gigabytes while it waits."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from veritype.server.lsp_input import MAX_HEADER, MAX_MESSAGE, GuardedInput


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _guarded(data: bytes) -> tuple[GuardedInput, io.StringIO]:
    log = io.StringIO()
    return GuardedInput(io.BufferedReader(io.BytesIO(data)), log), log  # type: ignore[arg-type]


def test_huge_content_length_ends_the_session_with_one_line() -> None:
    stream, log = _guarded(b"Content-Length: 99999999999999\r\n\r\n{}")
    assert stream.readline() == b""  # refused at the header: nothing is allocated for the body
    assert stream.read(10) == b""  # and the session stays closed
    assert log.getvalue() == (
        f"veritype lsp: message of 99999999999999 bytes refused (the limit is {MAX_MESSAGE}); closing the session\n"
    )
    direct, _ = _guarded(b"")
    assert direct.read(MAX_MESSAGE + 1) == b"" and direct.closed_reason is not None


def test_endless_header_line_is_bounded() -> None:
    stream, log = _guarded(b"a" * (MAX_HEADER * 4))
    assert stream.readline() == b""
    assert "header line longer than" in log.getvalue()


def test_malformed_content_length_is_logged_and_reading_goes_on() -> None:
    good = _frame({"jsonrpc": "2.0", "method": "exit"})
    stream, log = _guarded(b"Content-Length: abc\r\n\r\n" + good)
    assert stream.readline() == b"Content-Length: abc\r\n"
    assert "malformed header b'Content-Length: abc' ignored" in log.getvalue()
    assert stream.readline() == b"\r\n"
    assert stream.readline().startswith(b"Content-Length: ")  # the next frame is read as usual
    assert stream.closed_reason is None


def _server(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "veritype", "lsp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root,
    )


def test_server_refuses_a_huge_frame_and_exits_cleanly(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    proc = _server(tmp_path)
    out, err = proc.communicate(b"Content-Length: 99999999999999\r\n\r\n{}", timeout=60)
    assert proc.returncode == 0
    assert b"message of 99999999999999 bytes refused" in err
    assert b"Traceback" not in err and b"MemoryError" not in err


def test_server_keeps_serving_after_a_malformed_frame(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    proc = _server(tmp_path)
    initialize = _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
    stop = _frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + _frame({"jsonrpc": "2.0", "method": "exit"})
    # A bad header, a body that is not JSON-RPC, then a real session.
    data = b"Content-Length: abc\r\n\r\n{}\r\n" + _frame({"not": "rpc"}) + initialize + stop
    out, err = proc.communicate(data, timeout=60)
    assert b'"id": 1' in out and b'"capabilities"' in out  # initialize was answered
    assert b"malformed header" in err and b"Traceback" not in err
