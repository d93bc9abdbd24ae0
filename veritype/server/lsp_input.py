"""The language server's input, guarded: a bad frame never costs memory or a traceback.

pygls reads a message as header lines, then `stdin.read(Content-Length)`;
CPython's buffered `read(n)` allocates n bytes up front, so a frame
claiming a huge length (a broken or hostile client) is a MemoryError
traceback, or gigabytes held while the server waits for data that never
comes, and a header line without an end is read into memory whole. This
wrapper bounds both: a body over MAX_MESSAGE or a header line over
MAX_HEADER ends the session with one clear line on stderr (the stream can
no longer be followed, so serving on would misread it); a Content-Length
header that is not a number is logged and its frame dropped, and the server
keeps serving the next one. A message pygls cannot handle is logged in one
line, without its traceback (`quiet_library_logs`).
"""

from __future__ import annotations

import logging
import re
import sys
from typing import BinaryIO, TextIO

MAX_MESSAGE = 64 * 1024 * 1024  # far above any real document (LSP sends whole files)
MAX_HEADER = 8 * 1024
_CONTENT_LENGTH = re.compile(rb"Content-Length:(.*)", re.IGNORECASE | re.DOTALL)
_VALID = re.compile(rb"^Content-Length: (\d+)\r\n$")


class GuardedInput:
    def __init__(self, raw: BinaryIO, log: TextIO | None = None) -> None:
        self.raw = raw
        self.log = log if log is not None else sys.stderr
        self.closed_reason: str | None = None

    def _stop(self, reason: str) -> bytes:
        self.closed_reason = reason
        self.log.write(f"veritype lsp: {reason}; closing the session\n")
        self.log.flush()
        return b""  # pygls ends its loop on an empty read, then shuts the server down

    def readline(self) -> bytes:
        if self.closed_reason is not None:
            return b""
        line = self.raw.readline(MAX_HEADER + 1)
        if len(line) > MAX_HEADER and not line.endswith(b"\n"):
            return self._stop(f"header line longer than {MAX_HEADER} bytes")
        m = _CONTENT_LENGTH.match(line)
        if m is not None and not _VALID.match(line):
            # pygls would skip it silently and read the body as headers.
            self.log.write(f"veritype lsp: malformed header {line.strip()[:80]!r} ignored\n")
            self.log.flush()
        elif m is not None:
            length = int(m.group(1).strip())
            if length > MAX_MESSAGE:
                return self._stop(f"message of {length} bytes refused (the limit is {MAX_MESSAGE})")
        return line

    def read(self, n: int = -1) -> bytes:
        if self.closed_reason is not None:
            return b""
        if n < 0 or n > MAX_MESSAGE:
            return self._stop(f"message of {n} bytes refused (the limit is {MAX_MESSAGE})")
        return self.raw.read(n)


class _OneLine(logging.Formatter):
    """pygls logs a message it cannot handle with its traceback; one line says enough."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"veritype lsp: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f": {type(exc).__name__}: {exc}"
        return text


def quiet_library_logs(stream: TextIO | None = None) -> None:
    """pygls' warnings and errors as one line each on stderr, never a traceback."""
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(_OneLine())
    handler.setLevel(logging.WARNING)
    for name in ("pygls", "lsprotocol"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.propagate = False
