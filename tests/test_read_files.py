"""syntax/read_files.py reads as `open(...).read()` and `tokenize.open` do;
modules/atomic_files.py replaces a file whole and leaves no temporary file."""

from __future__ import annotations

import os
import threading
import tokenize
from pathlib import Path

import pytest

from veritype.modules import atomic_files
from veritype.modules.atomic_files import write_atomically
from veritype.syntax.read_files import read_bytes, read_source

SOURCES = [
    b"x = 1\n",
    b"",
    b"\xef\xbb\xbfx = 1\r\ny = 2\r",  # BOM, CRLF and a lone CR
    b"# -*- coding: latin-1 -*-\nx = '\xe9'\r\n",
    b"a = 1\nb = 2\nx = '\xff'\n",  # undecodable on line 3
    b"# coding: ascii\na = 1\nx = '\xc3('\n",
    b"# coding: no-such-codec\nx = 1\n",
    b"\xef\xbb\xbf# coding: latin-1\nx = 1\n",  # BOM against the cookie
    b"a\r\n" * 20000 + b"\xff",  # past any buffer size
]


def _outcome(read, path: str) -> object:
    try:
        return read(path)
    except UnicodeDecodeError as exc:
        return ("decode", exc.encoding, exc.start, exc.reason)
    except SyntaxError as exc:
        return ("cookie", exc.msg, exc.lineno)


@pytest.mark.parametrize("data", SOURCES)
def test_read_source_is_tokenize_open(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "m.py"
    path.write_bytes(data)

    def with_tokenize(p: str) -> str:
        with tokenize.open(p) as f:
            return f.read()

    assert _outcome(read_source, str(path)) == _outcome(with_tokenize, str(path))
    assert read_bytes(str(path)) == data


def test_read_bytes_errors_as_open(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_bytes(str(tmp_path / "missing.py"))
    with pytest.raises(IsADirectoryError):
        read_bytes(str(tmp_path))


def test_read_bytes_of_a_file_without_a_size(tmp_path: Path) -> None:
    # A FIFO's stat has no size: read to its end.
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:  # (opens once the reader has)
            f.write(b"x" * 100_000)

    # A thread, not a fork: forking a process with threads (pytest's) is deprecated.
    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert read_bytes(str(fifo)) == b"x" * 100_000
    finally:
        writer.join()


def test_write_atomically_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "entry.json"
    write_atomically(str(target), "é" * 70_000)
    assert target.read_text(encoding="utf-8") == "é" * 70_000
    write_atomically(str(target), b"{}")
    assert target.read_bytes() == b"{}"
    assert [p.name for p in tmp_path.iterdir()] == ["entry.json"]
    assert target.stat().st_mode & 0o777 == 0o600  # as tempfile.mkstemp made it


def test_write_atomically_passes_over_a_taken_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools

    monkeypatch.setattr(atomic_files, "_COUNTER", itertools.count())
    left = tmp_path / f".tmp-{os.getpid()}-0.json"  # a killed run's, by a process with this id
    left.write_text("old")
    write_atomically(str(tmp_path / "entry.json"), "new")
    assert (tmp_path / "entry.json").read_text() == "new" and left.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [left.name, "entry.json"]


def test_write_atomically_failure_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "entry.json"
    target.write_text("old")

    def broken(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomically(str(target), "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["entry.json"]
    with pytest.raises(FileNotFoundError):
        write_atomically(str(tmp_path / "gone" / "entry.json"), "x")
