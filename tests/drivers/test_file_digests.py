"""Content digests kept by stat (cache/file_digests.py): an unchanged file is
not read again, and any change the stat can show is seen."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from veritype.cache import file_digests
from veritype.cache.file_digests import FileDigests
from veritype.cache.fingerprint import UNREADABLE, digest_bytes
from veritype.cli.flags import options_from_argv
from veritype.engine.build import run
from veritype.modules.sources import BuildSource


@pytest.fixture
def not_racy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files written by the test count as old enough to be remembered."""
    monkeypatch.setattr(file_digests, "RACY_NS", -(10**18))


def test_an_unchanged_file_is_not_read_again(tmp_path: Path, not_racy: None) -> None:
    path = tmp_path / "a.py"
    path.write_text("a = 1\n")
    first = FileDigests()
    assert first.digest(str(path)) == digest_bytes(b"a = 1\n") and first.hashed == 1
    second = FileDigests(first.used)
    assert second.digest(str(path)) == digest_bytes(b"a = 1\n") and second.hashed == 0
    assert not second.changed()


def test_a_same_size_edit_that_keeps_the_mtime_is_seen(tmp_path: Path, not_racy: None) -> None:
    # `cp -p`, `rsync -t`, a tool restoring mtimes: the ctime still moves.
    path = tmp_path / "a.py"
    path.write_text("a = 1\n")
    first = FileDigests()
    first.digest(str(path))
    stamp = path.stat()
    path.write_text("a = 2\n")
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    second = FileDigests(first.used)
    assert second.digest(str(path)) == digest_bytes(b"a = 2\n") and second.hashed == 1


def test_a_file_replaced_by_rename_is_seen(tmp_path: Path, not_racy: None) -> None:
    path = tmp_path / "a.py"
    path.write_text("a = 1\n")
    first = FileDigests()
    first.digest(str(path))
    new = tmp_path / "new.py"
    new.write_text("a = 2\n")
    os.replace(new, path)
    assert FileDigests(first.used).digest(str(path)) == digest_bytes(b"a = 2\n")


def test_a_just_written_file_is_not_remembered(tmp_path: Path) -> None:
    # git's "racily clean" rule: a second write in the same timestamp tick
    # would keep the stat; so a file this fresh is hashed again next time.
    path = tmp_path / "a.py"
    path.write_text("a = 1\n")
    digests = FileDigests()
    assert digests.digest(str(path)) == digest_bytes(b"a = 1\n")
    assert digests.used == {}


def test_a_missing_file_is_unreadable(tmp_path: Path) -> None:
    assert FileDigests().digest(str(tmp_path / "nope.py")) == UNREADABLE


def test_a_warm_run_reads_no_unchanged_file(tmp_path: Path, not_racy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "main.py").write_text("import helper\n\nn: int = helper.value\n")
    (root / "helper.py").write_text("value = ''\n")
    opts = options_from_argv([], str(root))
    opts.site_packages = []
    opts.cache_dir = str(root / ".veritype_cache")
    srcs = [BuildSource(str(root / "main.py"), "main", str(root))]
    cold = run(srcs, opts)
    hashed: list[int] = []
    real = file_digests.digest_bytes
    monkeypatch.setattr(file_digests, "digest_bytes", lambda data: hashed.append(1) or real(data))
    warm = run(srcs, opts)
    assert warm.diagnostics == cold.diagnostics and len(warm.diagnostics) == 1 and hashed == []
    (root / "helper.py").write_text("value = 12\n")  # the same size: the stat still differs
    assert run(srcs, opts).diagnostics == [] and hashed == [1]
