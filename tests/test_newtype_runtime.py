"""The NewType cases of tests/cases/pep484_2016/newtype.md, run against the
stdlib's own `typing.NewType`: which of the statically reported errors also
fail at run time, and which are static-only.

At run time a NewType is a plain callable returning its argument, so
`UserId("user")` succeeds (the checker's arg-type error is a static promise),
while isinstance/issubclass, subclassing, subscripting and a two-argument call
raise TypeError.
"""

from __future__ import annotations

import typing
from typing import NewType

import pytest
import typing_extensions

UserId = NewType("UserId", int)


def test_call_returns_the_argument_unchanged() -> None:
    assert UserId(5) == 5 and type(UserId(5)) is int
    assert UserId(5) + 1 == 6


def test_wrong_argument_type_is_static_only() -> None:
    assert UserId("user") == "user"  # type: ignore[arg-type]


def test_two_arguments_fail() -> None:
    with pytest.raises(TypeError):
        UserId(5, 6)  # type: ignore[call-arg]


def test_isinstance_and_issubclass_fail() -> None:
    with pytest.raises(TypeError):
        isinstance(5, UserId)  # type: ignore[misc]
    with pytest.raises(TypeError):
        isinstance(5, (str, UserId))  # type: ignore[misc]
    with pytest.raises(TypeError):
        issubclass(int, UserId)  # type: ignore[misc]


def test_subclassing_fails() -> None:
    with pytest.raises(TypeError):
        class D(UserId):  # type: ignore[misc]
            pass


def test_subscript_fails() -> None:
    with pytest.raises(TypeError):
        UserId[int]  # type: ignore[index]


def test_newtype_of_newtype_works() -> None:
    ProUserId = NewType("ProUserId", UserId)
    assert ProUserId(UserId(1)) == 1


def test_invalid_bases_are_static_only() -> None:
    # The run time does not check the second argument: valid-newtype is static.
    for base in (typing.Union[int, str], typing.Literal[1], typing.Any, int | None):
        NewType("Bad", base)  # type: ignore[valid-newtype]


def test_wrong_name_is_static_only() -> None:
    assert NewType("Wrong", int).__name__ == "Wrong"


def test_typing_extensions_behaves_the_same() -> None:
    Name = typing_extensions.NewType("Name", str)
    assert Name("a") == "a"
    with pytest.raises(TypeError):
        isinstance("a", Name)  # type: ignore[misc]


def test_static_cases_agree(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The checker reports exactly the run-time failures above (plus the static-only ones)."""
    from veritype.engine.build import run
    from veritype.modules.sources import BuildSource
    from veritype.options import Options

    src = tmp_path / "m.py"
    src.write_text(
        "from typing import NewType\n"
        "UserId = NewType('UserId', int)\n"
        "UserId(5, 6)\n"
        "isinstance(5, UserId)\n"
        "issubclass(int, UserId)\n"
        "class D(UserId): ...\n"
        "UserId(5) + 1\n"
    )
    result = run([BuildSource(str(src), "m", str(tmp_path))], Options())
    lines = sorted(d.line for d in result.diagnostics if d.severity == "error")
    assert lines == [3, 4, 5, 6]
