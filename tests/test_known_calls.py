"""Silent calls with known argument types keep their final answers
(evaluate/known_calls.py), and a callable's parameters by kind are worked out
once (types/param_shape.py): the same question is answered from the table; a
question asked while a lazy evaluation is in progress is not kept; an equal
callee that is another object, an argument that is not a plain type, and a
literal that differs only in its `declared` flag are asked again."""

from __future__ import annotations

from veritype.evaluate import known_calls
from veritype.types.model import (
    KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, AnyType, CallableType, Instance, LiteralType, NoneType, Param,
    TypeVarType, UnpackType,
)
from veritype.types.param_shape import shape_of


class _Info:
    fullname = "builtins.int"


class _Members:
    def __init__(self) -> None:
        self.known_calls: dict = {}  # type: ignore[type-arg]


class _Ev:
    def __init__(self) -> None:
        self.lazy_depth = 0
        self.members = _Members()


def _counting() -> tuple[list[int], object]:
    asked: list[int] = []

    def call():  # type: ignore[no-untyped-def]
        asked.append(1)
        return NoneType()

    return asked, call


def _callee() -> CallableType:
    return CallableType((Param("x", AnyType()),), NoneType(), name="f")


def test_a_question_asked_again_is_answered_from_the_table() -> None:
    ev, callee, (asked, call) = _Ev(), _callee(), _counting()
    info = _Info()
    a = Instance(info, (Instance(info),))  # type: ignore[arg-type]
    b = Instance(info, (Instance(info),))  # type: ignore[arg-type]  # equal, another object
    first = known_calls.answer(ev, callee, [a], call)  # type: ignore[arg-type]
    assert known_calls.answer(ev, callee, [b], call) is first  # type: ignore[arg-type]
    assert len(asked) == 1
    known_calls.answer(ev, callee, [], call)  # type: ignore[arg-type]
    assert len(asked) == 2


def test_an_equal_callee_that_is_another_object_is_asked_again() -> None:
    ev, (asked, call) = _Ev(), _counting()
    one, other = _callee(), _callee()
    assert one == other  # (name and definition take no part in equality)
    known_calls.answer(ev, one, [], call)  # type: ignore[arg-type]
    known_calls.answer(ev, other, [], call)  # type: ignore[arg-type]
    assert len(asked) == 2


def test_nothing_is_kept_during_a_lazy_evaluation() -> None:
    ev, callee, (asked, call) = _Ev(), _callee(), _counting()
    ev.lazy_depth = 1
    known_calls.answer(ev, callee, [], call)  # type: ignore[arg-type]
    known_calls.answer(ev, callee, [], call)  # type: ignore[arg-type]
    assert len(asked) == 2
    assert not ev.members.known_calls


def test_arguments_that_are_not_plain_are_not_kept() -> None:
    ev, callee, (asked, call) = _Ev(), _callee(), _counting()
    for arg in (AnyType("explicit"), TypeVarType("T", "m.T")):
        known_calls.answer(ev, callee, [arg], call)  # type: ignore[arg-type]
        known_calls.answer(ev, callee, [arg], call)  # type: ignore[arg-type]
    assert len(asked) == 4


def test_literals_differing_in_declared_are_asked_separately() -> None:
    ev, callee, (asked, call) = _Ev(), _callee(), _counting()
    fallback = Instance(_Info())  # type: ignore[arg-type]
    inferred = LiteralType(1, fallback)
    declared = LiteralType(1, fallback, declared=True)
    assert inferred == declared
    known_calls.answer(ev, callee, [inferred], call)  # type: ignore[arg-type]
    known_calls.answer(ev, callee, [declared], call)  # type: ignore[arg-type]
    known_calls.answer(ev, callee, [LiteralType(1, fallback)], call)  # type: ignore[arg-type]
    assert len(asked) == 2


def test_param_shape() -> None:
    a = AnyType()
    callee = CallableType((
        Param("p", a, POS_ONLY), Param("x", a, POS_OR_KW), Param("args", UnpackType(TypeVarType("Ts", "m.Ts", kind="typevartuple")), VAR_POS),
        Param("k", a, KW_ONLY), Param("x", a, KW_ONLY), Param("kw", a, VAR_KW),
    ), a)
    shape = shape_of(callee)
    assert shape is shape_of(callee)
    assert shape.positional == (0, 1)
    assert shape.kw_only == (3, 4)
    assert (shape.star_index, shape.kw_index) == (2, 5)
    assert shape.unpacked_star
    assert shape.keywords == {"x": 1, "k": 3}  # the first parameter of a name; not a positional-only one
    assert shape.together == (2,)  # `*args: *Ts`: its arguments are one tuple
    plain = CallableType((Param("args", a, VAR_POS),), a)
    assert not shape_of(plain).unpacked_star and shape_of(plain).keywords == {} and shape_of(plain).together == ()
    p = TypeVarType("P", "m.P", kind="paramspec")
    forwarding = CallableType((Param("x", p, POS_OR_KW), Param("args", p, VAR_POS), Param("kwargs", p, VAR_KW)), a)
    assert shape_of(forwarding).together == (1, 2)  # `*args: P.args, **kwargs: P.kwargs`; not `x`
