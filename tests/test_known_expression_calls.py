"""Overloaded calls written in the code keep their answers (known_calls.expression_key,
Members.known_expr_calls): the same callee with arguments of the same plain types
is resolved once; an item that reads an argument expression (a TypeForm
parameter, read as a type expression in the call's scope) is never kept; a
call whose resolution reports (a deprecated item) is resolved each time;
arguments whose type depends on their context (a display, a call that reads
it) are not keyed, a nested call that does not read it is; a kept
answer that read the expected type says so again on a hit."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from veritype.cli.main import run
from veritype.evaluate import overload_calls


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], *flags: str) -> tuple[str, list[int]]:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.chdir(tmp_path)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    resolved: list[int] = []
    original = overload_calls._resolve

    def spy(site, callee, args, arg_types, own_errors, clean):  # type: ignore[no-untyped-def]
        if callee.name == "pick":
            resolved.append(1)
        return original(site, callee, args, arg_types, own_errors, clean)

    monkeypatch.setattr(overload_calls, "_resolve", spy)
    out = io.StringIO()
    run(["check", *files, "--no-incremental", *flags], out, str(tmp_path))
    return out.getvalue(), resolved


_PICK = (
    "from typing import overload, TypeVar\n"
    "T = TypeVar('T')\n"
    "@overload\n"
    "def pick(x: int, y: T) -> list[T]: ...\n"
    "@overload\n"
    "def pick(x: str, y: T) -> set[T]: ...\n"
    "def pick(x: object, y: object) -> object: ...\n"
)


def test_a_repeated_overloaded_call_is_resolved_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _PICK + "".join(f"a{i} = pick(1, 'b')\n" for i in range(10)) + "reveal_type(a9)\nreveal_type(pick('s', 2))\n"
    out, resolved = _check(tmp_path, monkeypatch, {"m.py": text})
    assert 'm.py:18:1: note: Revealed type is "list[str]"' in out
    assert 'm.py:19:1: note: Revealed type is "set[int]"' in out
    assert "error" not in out
    assert len(resolved) == 2  # `pick(1, 'b')` once, `pick('s', 2)` once


def test_a_display_argument_is_resolved_each_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (A display's type depends on the item it is inferred for: not keyed.)
    text = _PICK + "".join("a = pick(1, [1])\n" for _ in range(3))
    out, resolved = _check(tmp_path, monkeypatch, {"m.py": text})
    assert "error" not in out
    assert len(resolved) == 3


def test_a_nested_call_that_reads_no_context_is_keyed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `num()` is inferred the same under any context (the memo knows): keyed by its
    # type. `box()`, generic in its return only, reads the item's parameter type.
    text = _PICK + (
        "def num() -> int: return 1\n"
        "def box() -> list[T]: return []\n"
        "def f() -> None:\n"
    ) + "".join(f"    a{i} = pick(1, num())\n" for i in range(3)) + "".join(f"    b{i} = pick(1, box())\n" for i in range(3)) + "    reveal_type(a2)\n"
    out, resolved = _check(tmp_path, monkeypatch, {"m.py": text})
    assert 'm.py:17:5: note: Revealed type is "list[int]"' in out
    assert "error" not in out
    assert len(resolved) == 1 + 3


def test_a_type_form_argument_is_read_in_its_own_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same call with the same argument type in two scopes: "C" names another
    # class in each, so the first answer must not serve the second.
    m1 = (
        "from typing import overload, TypeVar, Any\n"
        "from typing_extensions import TypeForm\n"
        "import m2\n"
        "T = TypeVar('T')\n"
        "@overload\n"
        "def conv(t: TypeForm[T]) -> T: ...\n"
        "@overload\n"
        "def conv(t: int) -> int: ...\n"
        "def conv(t: Any) -> Any: ...\n"
        "class C:\n"
        "    a: int = 0\n"
        "reveal_type(conv('C').a)\n"
    )
    m2 = (
        "def g() -> None:\n"
        "    from m1 import conv\n"
        "    class C:\n"
        "        a: str = ''\n"
        "    reveal_type(conv('C').a)\n"
    )
    out, _ = _check(tmp_path, monkeypatch, {"m1.py": m1, "m2.py": m2})
    assert 'm1.py:12:1: note: Revealed type is "int"' in out
    assert 'm2.py:5:5: note: Revealed type is "str"' in out


def test_a_deprecated_item_is_reported_at_each_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        "from typing import overload\n"
        "from typing_extensions import deprecated\n"
        "@overload\n"
        "@deprecated('use a str')\n"
        "def pick(x: int) -> int: ...\n"
        "@overload\n"
        "def pick(x: str) -> str: ...\n"
        "def pick(x: object) -> object: ...\n"
        "pick(1)\n"
        "pick(1)\n"
    )
    out, _ = _check(tmp_path, monkeypatch, {"m.py": text}, "--enable-error-code", "deprecated")
    assert "m.py:9:1: error:" in out and "m.py:10:1: error:" in out


def test_a_kept_answer_that_read_the_expected_type_says_so_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `pick(1, 2)` solves T from its context: answered from the table inside `take(...)`,
    # it must still say it read the context (CallSite.context_free), or `take`'s item
    # would reuse its context-free `list[int]` instead of inferring it as `list[float]`.
    text = _PICK + (
        "@overload\n"
        "def take(x: list[float]) -> int: ...\n"
        "@overload\n"
        "def take(x: str) -> str: ...\n"
        "def take(x: object) -> object: ...\n"
        "a = pick(1, 2)\n"
        "reveal_type(take(pick(1, 2)))\n"
    )
    out, resolved = _check(tmp_path, monkeypatch, {"m.py": text})
    assert 'm.py:14:1: note: Revealed type is "int"' in out
    assert "error" not in out
    assert len(resolved) == 2  # `pick(1, 2)` without context (once), and in `list[float]`'s
