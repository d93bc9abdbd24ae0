"""Which types a kept assignability answer may be about (types/kept_answers.py):
`final_now` says yes only for types of settled classes, remembers those it
said yes to (an equal type is then found among them), and remembers nothing
for a type whose class is still being evaluated, which it answers again once
the class is settled."""

from __future__ import annotations

from veritype.types.kept_answers import final, final_now
from veritype.types.model import NONE, AnyType, Instance, Type, UnionType


class _Info:
    """The part of ClassInfo `_settled` reads: bases, the MRO, the flags."""

    def __init__(self, fullname: str, settled: bool = True) -> None:
        self.fullname = fullname
        self.is_protocol = False
        self.is_namedtuple = False
        self._tuple_type = None
        self._resolving = False
        self._bases: tuple[Instance, ...] | None = () if settled else None
        self._mro: tuple[_Info, ...] | None = (self,) if settled else None

    def settle(self) -> None:
        self._bases = ()
        self._mro = (self,)


def test_a_final_type_is_remembered_and_an_equal_one_found() -> None:
    box, num = _Info("m.Box"), _Info("m.Int")
    finals: set[Type] = set()
    t = UnionType((Instance(box, (Instance(num),)), NONE))  # type: ignore[arg-type]
    assert final_now(t, finals)
    assert t in finals
    assert UnionType((Instance(box, (Instance(num),)), NONE)) in finals  # type: ignore[arg-type]  # equal, not the same object


def test_a_type_of_a_class_being_evaluated_is_not_remembered() -> None:
    box, num = _Info("m.Box"), _Info("m.Int", settled=False)
    finals: set[Type] = set()
    t = Instance(box, (Instance(num),))  # type: ignore[arg-type]
    assert not final_now(t, finals)
    assert not finals
    num.settle()
    assert final_now(t, finals)
    assert finals == {t}


def test_the_answer_is_finals() -> None:
    """`final_now` answers as `final` does (it only remembers the yes)."""
    settled, busy = _Info("m.A"), _Info("m.B", settled=False)
    for t in (Instance(settled), Instance(busy), AnyType(), UnionType((Instance(settled), Instance(busy)))):  # type: ignore[arg-type]
        assert final_now(t, set()) == final(t)
