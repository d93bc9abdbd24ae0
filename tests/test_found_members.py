"""Member lookups on instances keep their final answers (evaluate/found_members.py):
asked again, the same question is answered from the table; a question asked
while a lazy evaluation is in progress is not kept; and types that compare equal
while differing in a field outside their equality (an Any's reason) are not
taken for one another."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from veritype.cli.main import run
from veritype.evaluate.found_members import FoundConstructors, FoundMembers
from veritype.evaluate.members import Members
from veritype.types.model import AnyType, Instance, LiteralType, ModuleType, NoneType, TupleType, TypeType, UnionType


class _Info:
    fullname = "builtins.list"


def _counting() -> tuple[list[tuple[object, str, object]], object]:
    asked: list[tuple[object, str, object]] = []

    def lookup(inst, name, receiver):  # type: ignore[no-untyped-def]
        asked.append((inst, name, receiver))
        return AnyType("special")

    return asked, lookup


def test_a_plain_instance_is_answered_from_the_table() -> None:
    asked, lookup = _counting()
    found = FoundMembers()
    info = _Info()
    a = Instance(info, (Instance(info),))  # type: ignore[arg-type]
    b = Instance(info, (Instance(info),))  # type: ignore[arg-type]  # equal, not the same object
    assert found.answer(a, "pop", a, lookup) is found.answer(b, "pop", b, lookup)  # type: ignore[arg-type]
    assert len(asked) == 1
    found.answer(a, "append", a, lookup)  # type: ignore[arg-type]
    assert len(asked) == 2


def test_equal_types_with_different_any_reasons_are_asked_separately() -> None:
    asked, lookup = _counting()
    found = FoundMembers()
    info = _Info()
    explicit = Instance(info, (AnyType("explicit"),))  # type: ignore[arg-type]
    unannotated = Instance(info, (AnyType("unannotated"),))  # type: ignore[arg-type]
    assert explicit == unannotated  # the reason takes no part in equality
    found.answer(explicit, "pop", explicit, lookup)  # type: ignore[arg-type]
    found.answer(unannotated, "pop", unannotated, lookup)  # type: ignore[arg-type]
    assert [a[0] for a in asked] == [explicit, unannotated]
    assert asked[1][0] is unannotated
    found.answer(unannotated, "pop", unannotated, lookup)  # type: ignore[arg-type]  # the same object: kept
    assert len(asked) == 2


def test_none_unions_and_tuples_of_plain_parts_are_plain() -> None:
    """`Generator[int, None, None]`, `list[int | None]`, `list[tuple[int, str]]`:
    every field of each part counts in equality, so equal values are one question."""
    asked, lookup = _counting()
    found = FoundMembers()
    info = _Info()
    plain = Instance(info)  # type: ignore[arg-type]

    def made() -> list[Instance]:
        return [
            Instance(info, (plain, NoneType(), NoneType())),  # type: ignore[arg-type]
            Instance(info, (UnionType((plain, NoneType())),)),  # type: ignore[arg-type]
            Instance(info, (TupleType((plain, plain), Instance(info, (plain,))),)),  # type: ignore[arg-type]
        ]

    for a, b in zip(made(), made()):
        assert a is not b
        assert found.answer(a, "send", a, lookup) is found.answer(b, "send", b, lookup)  # type: ignore[arg-type]
    assert len(asked) == 3


def test_a_literal_inside_a_union_is_not_plain() -> None:
    """A literal's `declared` flag takes no part in equality: a union holding one
    is asked again for another object (kept by identity)."""
    asked, lookup = _counting()
    found = FoundMembers()
    info = _Info()
    declared = Instance(info, (UnionType((LiteralType(1, Instance(info), declared=True), NoneType())),))  # type: ignore[arg-type]
    inferred = Instance(info, (UnionType((LiteralType(1, Instance(info)), NoneType())),))  # type: ignore[arg-type]
    assert declared == inferred
    found.answer(declared, "pop", declared, lookup)  # type: ignore[arg-type]
    found.answer(inferred, "pop", inferred, lookup)  # type: ignore[arg-type]
    assert [a[0] for a in asked] == [declared, inferred] and asked[1][0] is inferred


def test_an_instance_without_arguments_is_one_question_whatever_the_object() -> None:
    asked, lookup = _counting()
    found = FoundMembers()
    info, other = _Info(), _Info()
    a, b = Instance(info), Instance(info)  # type: ignore[arg-type]
    assert found.answer(a, "x", a, lookup) is found.answer(b, "x", b, lookup)  # type: ignore[arg-type]
    found.answer(Instance(other), "x", Instance(other), lookup)  # type: ignore[arg-type]  # another class
    found.answer(a, "y", a, lookup)  # type: ignore[arg-type]
    assert [(i.info, n) for i, n, _ in asked] == [(info, "x"), (other, "x"), (info, "y")]  # type: ignore[attr-defined]


@pytest.mark.parametrize("entry", ["instance_member", "get"])
def test_nothing_is_kept_while_a_lazy_evaluation_is_in_progress(monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    # `get` asks the table itself for an instance receiver: the same rule holds there.
    class Ev:
        lazy_depth = 1

    members = Members(Ev())  # type: ignore[arg-type]
    asked, lookup = _counting()
    monkeypatch.setattr(members, "_instance_member", lookup)
    inst = Instance(_Info())  # type: ignore[arg-type]

    def ask() -> None:
        if entry == "get":
            members.get(inst, "x")
        else:
            members.instance_member(inst, "x", inst)

    ask()
    ask()
    assert len(asked) == 2
    Ev.lazy_depth = 0
    ask()
    ask()
    assert len(asked) == 3


def test_a_repeated_member_is_looked_up_once_in_a_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(
        "class Box:\n"
        "    def size(self) -> int:\n"
        "        return 1\n"
        "\n"
        "b = Box()\n"
        + "".join(f"n{i} = b.size()\n" for i in range(20))
        + "reveal_type(n19)\n"
    )
    calls: list[str] = []
    original = Members._instance_member

    def spy(self, inst, name, receiver):  # type: ignore[no-untyped-def]
        if name == "size":
            calls.append(name)
        return original(self, inst, name, receiver)

    monkeypatch.setattr(Members, "_instance_member", spy)
    out = io.StringIO()
    run(["check", "m.py", "--no-incremental"], out, str(tmp_path))
    assert 'Revealed type is "int"' in out.getvalue()
    assert len(calls) == 1


# -- constructors (FoundConstructors) ------------------------------------------------


def _constructing() -> tuple[list[object], object]:
    asked: list[object] = []

    def construct(receiver):  # type: ignore[no-untyped-def]
        asked.append(receiver)
        return AnyType("special")

    return asked, construct


def test_a_class_object_is_constructed_once_and_told_from_explicit_any() -> None:
    asked, construct = _constructing()
    found = FoundConstructors()
    info = _Info()
    bare = TypeType(Instance(info, (AnyType("bare"),)))  # type: ignore[arg-type]  # `list` as written
    again = TypeType(Instance(info, (AnyType("bare"),)))  # type: ignore[arg-type]
    explicit = TypeType(Instance(info, (AnyType("explicit"),)))  # type: ignore[arg-type]  # `list[Any]`
    assert bare == explicit  # equal by value: the reason is no part of it
    assert found.answer(bare, construct, True) is found.answer(again, construct, True)  # type: ignore[arg-type]
    assert len(asked) == 1
    found.answer(explicit, construct, True)  # type: ignore[arg-type]
    found.answer(explicit, construct, True)  # type: ignore[arg-type]  # never kept: not plain
    assert asked[1:] == [explicit, explicit] and asked[1] is explicit


def test_a_plain_class_object_is_kept_only_when_final() -> None:
    asked, construct = _constructing()
    found = FoundConstructors()
    info = _Info()
    plain = TypeType(Instance(info, (Instance(info),)))  # type: ignore[arg-type]  # `type[list[list]]`
    found.answer(plain, construct, False)  # type: ignore[arg-type]
    found.answer(plain, construct, False)  # type: ignore[arg-type]
    assert len(asked) == 2
    found.answer(plain, construct, True)  # type: ignore[arg-type]
    found.answer(plain, construct, False)  # type: ignore[arg-type]
    assert len(asked) == 3


# -- module members (Members.module_member) -------------------------------------------


def test_a_module_member_is_kept_for_the_module_it_was_read_from(monkeypatch: pytest.MonkeyPatch) -> None:
    class Program:
        modules: dict[str, object] = {}

    class Ev:
        lazy_depth = 0
        program = Program()

    members = Members(Ev())  # type: ignore[arg-type]
    asked: list[str] = []

    def lookup(receiver, name):  # type: ignore[no-untyped-def]
        asked.append(name)
        return AnyType("special")

    monkeypatch.setattr(members, "_module_member", lookup)
    m = ModuleType("m")
    Program.modules["m"] = object()
    assert members.module_member(m, "x") is members.module_member(m, "x")
    assert asked == ["x"]
    Program.modules["m"] = object()  # another module under that name (a query's variant, a reload)
    members.module_member(m, "x")
    assert asked == ["x", "x"]
    Ev.lazy_depth = 1  # not final: asked each time
    members.module_member(m, "y")
    members.module_member(m, "y")
    assert asked == ["x", "x", "y", "y"]
    Ev.lazy_depth = 0
    members.forget()
    members.module_member(m, "x")
    assert asked == ["x", "x", "y", "y", "x"]
