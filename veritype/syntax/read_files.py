"""Reading a whole file, and a Python source's text, in few system calls.

A cold run reads each checked source several times over (its content digest,
its imports, its parse, its interface digest) and each cache entry it finds.
`open(path, "rb").read()` costs nine system calls a file (the buffered file
object asks whether it is a terminal, where it is, its size twice);
`read_bytes` costs four: open, fstat, one read of the whole size (a short
read of a regular file is its end), close. `read_source` decodes those bytes
exactly as `tokenize.open` does: the PEP 263 coding cookie or BOM, strict
errors, universal newlines.
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import tokenize

_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def read_bytes(path: str) -> bytes:
    """The file's bytes (raises OSError as `open` does: a missing file, a directory)."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory", path)
        want = st.st_size + 1  # one more: a file grown since its stat is read on
        data = os.read(fd, want)
        if len(data) < want and stat.S_ISREG(st.st_mode):
            return data
        parts = [data]
        while data:
            data = os.read(fd, 1 << 16)
            parts.append(data)
        return b"".join(parts)
    finally:
        os.close(fd)


def read_source(path: str) -> str:
    """Read a file as Python source (PEP 263 encoding declarations honoured):
    `tokenize.open(path).read()`, with its errors (UnicodeDecodeError, or
    SyntaxError for an unknown or inconsistent coding cookie, naming the file)."""
    return decode_source(read_bytes(path), path)


def decode_source(data: bytes, path: str) -> str:
    """`read_source` of a file whose bytes are `data`."""
    lines = io.BytesIO(data)
    lines.name = path  # (detect_encoding names the file in its errors, as tokenize.open's file object)
    encoding, _ = tokenize.detect_encoding(lines.readline)
    # What TextIOWrapper's read() does with the whole file: decoded in one call
    # (the error's offsets are the file's), newlines translated.
    decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder(encoding)(), translate=True)
    return decoder.decode(data, final=True)
