"""Exact wording of call messages where a case file's substring match cannot
tell mypy's text from a longer one: a callable without a name (a lambda, a
`Callable[...]` value) is not named at all (mypy 2.4.1: `Too few arguments`,
not `Too few arguments for function`)."""

from __future__ import annotations

from pathlib import Path

from veritype.cli.main import main

PROGRAM = '''\
from typing import Callable

def f(cb: Callable[[int], None]) -> None:
    cb()
    cb(1, 2)
    cb("a")
    cb(x=1)

lam = lambda x: x
lam()
lam(1, 2)
'''

EXPECTED = [
    "m.py:4: error: Too few arguments  [call-arg]",
    "m.py:5: error: Too many arguments  [call-arg]",
    'm.py:6: error: Argument 1 has incompatible type "str"; expected "int"  [arg-type]',
    'm.py:7: error: Unexpected keyword argument "x"  [call-arg]',
    "m.py:10: error: Too few arguments  [call-arg]",
    "m.py:11: error: Too many arguments  [call-arg]",
]


def test_nameless_callables_are_not_named(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "m.py").write_text(PROGRAM)
    monkeypatch.chdir(tmp_path)
    code = main(["m.py", "--no-incremental", "--hide-column-numbers"])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[:-1] == EXPECTED
