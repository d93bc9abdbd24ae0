"""An instance mapped to a base class (types/supertypes.py): the answer for a
class whose MRO is settled is kept and given again for an equal instance; an
instance whose arguments differ from an equal one in a field outside equality
(an Any's reason) gets its own answer; nothing is kept for a class whose MRO is
not final yet."""

from __future__ import annotations

import pytest

from veritype.types import supertypes
from veritype.types.model import AnyType, Instance, TypeVarType


class _Checker:
    def __init__(self) -> None:
        self.supertypes: dict[object, object] = {}
        self.settled: set[object] = set()


class _Ev:
    def __init__(self) -> None:
        self._subtype_checker = _Checker()


class _Info:
    """The part of ClassInfo the mapping reads: bases, type variables, the MRO."""

    def __init__(self, ev: _Ev, fullname: str, bases: tuple[Instance, ...], type_vars: tuple[TypeVarType, ...]) -> None:
        self.ev = ev
        self.fullname = fullname
        self._bases = bases
        self._type_vars = type_vars
        self._resolving = False
        self._mro: tuple[_Info, ...] | None = None

    @property
    def bases(self) -> tuple[Instance, ...]:
        return self._bases

    @property
    def type_vars(self) -> tuple[TypeVarType, ...]:
        return self._type_vars

    @property
    def mro(self) -> tuple[_Info, ...]:
        assert self._mro is not None
        return self._mro


def _classes() -> tuple[_Info, _Info, _Info]:
    """`class Seq(Generic[T])`, `class Lst(Seq[T])` and `class Int`, settled."""
    ev = _Ev()
    t_seq = TypeVarType("T", "m.T", "m.Seq")
    t_lst = TypeVarType("T", "m.T", "m.Lst")
    seq = _Info(ev, "m.Seq", (), (t_seq,))
    lst = _Info(ev, "m.Lst", (Instance(seq, (t_lst,)),), (t_lst,))  # type: ignore[arg-type]
    num = _Info(ev, "m.Int", (), ())
    for info, mro in ((seq, (seq,)), (lst, (lst, seq)), (num, (num,))):
        info._mro = mro
    return seq, lst, num


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[Instance]:
    """The instances `_map` walked up from."""
    walked: list[Instance] = []
    original = supertypes._map

    def spy(inst, target):  # type: ignore[no-untyped-def]
        walked.append(inst)
        return original(inst, target)

    monkeypatch.setattr(supertypes, "_map", spy)
    return walked


def test_an_equal_instance_gets_the_kept_answer(walks: list[Instance]) -> None:
    seq, lst, num = _classes()
    a = Instance(lst, (Instance(num),))  # type: ignore[arg-type]
    b = Instance(lst, (Instance(num),))  # type: ignore[arg-type]  # equal, not the same object
    first = supertypes.map_instance_to_supertype(a, seq)  # type: ignore[arg-type]
    assert first == Instance(seq, (Instance(num),))  # type: ignore[arg-type]
    assert supertypes.map_instance_to_supertype(b, seq) is first  # type: ignore[arg-type]
    assert walks == [a]
    assert supertypes.map_instance_to_supertype(a, num) is None  # type: ignore[arg-type]  # not a base
    assert supertypes.map_instance_to_supertype(b, num) is None  # type: ignore[arg-type]
    assert walks == [a, a]


def test_arguments_equal_but_for_an_any_reason_get_their_own_answers(walks: list[Instance]) -> None:
    seq, lst, _ = _classes()
    explicit = Instance(lst, (AnyType("explicit"),))  # type: ignore[arg-type]
    unannotated = Instance(lst, (AnyType("unannotated"),))  # type: ignore[arg-type]
    assert explicit == unannotated  # the reason takes no part in equality
    for inst, reason in ((explicit, "explicit"), (unannotated, "unannotated")):
        mapped = supertypes.map_instance_to_supertype(inst, seq)  # type: ignore[arg-type]
        assert mapped is not None and mapped.info is seq
        assert mapped.args[0].reason == reason  # type: ignore[attr-defined]
    assert len(walks) == 2


def test_nothing_is_kept_for_a_class_whose_mro_is_not_final(walks: list[Instance]) -> None:
    seq, lst, num = _classes()
    inst = Instance(lst, (Instance(num),))  # type: ignore[arg-type]
    seq._resolving = True  # a base being evaluated
    supertypes.map_instance_to_supertype(inst, seq)  # type: ignore[arg-type]
    supertypes.map_instance_to_supertype(inst, seq)  # type: ignore[arg-type]
    assert len(walks) == 2
    seq._resolving = False
    supertypes.map_instance_to_supertype(inst, seq)  # type: ignore[arg-type]
    supertypes.map_instance_to_supertype(inst, seq)  # type: ignore[arg-type]
    assert len(walks) == 3
