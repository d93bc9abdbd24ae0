"""The type values of types/model.py: frozen, hashable, compared by value.

Their `__init__`, `__setstate__` and `__eq__` are made by `_fast_methods`, not
by dataclasses; these tests hold them to what the dataclass-made ones do:
assignment raises FrozenInstanceError, defaults, keywords, `replace`,
`__match_args__`, pickling and copying keep working, and `==` answers what
comparing the tuples of compared fields answers.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import pickle

import pytest

from veritype.types import model as m
from veritype.types.param_shape import shape_of


class _Info:
    """A stand-in for ClassInfo that pickles (and then compares by name)."""

    def __init__(self, fullname: str) -> None:
        self.fullname = fullname

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Info) and other.fullname == self.fullname

    def __hash__(self) -> int:
        return hash(self.fullname)


_INT = _Info("builtins.int")
_STR = _Info("builtins.str")


def _samples() -> list[m.Type | m.Param]:
    i = m.Instance(_INT)  # type: ignore[arg-type]
    s = m.Instance(_STR, ())  # type: ignore[arg-type]
    t = m.TypeVarType("T", "m.T", scope="m.f", upper_bound=i)
    p = m.Param("x", i, m.POS_ONLY)
    c = m.CallableType((p, m.Param("y", s, has_default=True)), m.NONE, (t,), name="f", is_async=True)
    return [
        m.ANY, m.AnyType("error", reported=True), m.NONE, m.NEVER, m.NeverType("NoReturn"),
        i, s, m.Instance(_INT, (s,)),  # type: ignore[arg-type]
        m.LiteralType(1, i), m.LiteralType(True, i), m.LiteralType(1, i, declared=True), m.LiteralType("a", s, is_enum=True),
        m.TupleType((i, s), m.Instance(_INT, (m.UnionType((i, s)),))),  # type: ignore[arg-type]
        m.UnpackType(t), m.UnionType((i, s)), m.UnionType((s, i)), p, m.Param("x", i), t,
        m.TypeVarType("T", "m.T", scope="m.f", upper_bound=i, narrowed=True),
        c, m.CallableType((p,), m.NONE, name="g"), m.Overloaded((c, c), name="f"),
        m.TypeType(i), m.TypeFormType(s), m.ModuleType("os", info="anything"),
        m.TypedDictType((("k", i),), frozenset({"k"}), frozenset(), s, extra=m.NEVER),
        m.SpecialForm("Union"), m.UninhabitedUnbound(s),
    ]


def _type_classes() -> list[type]:
    return [c for c in vars(m).values() if isinstance(c, type) and dataclasses.is_dataclass(c)]


def test_every_type_class_is_sampled() -> None:
    assert {type(v) for v in _samples()} == set(_type_classes())


@pytest.mark.parametrize("value", _samples(), ids=lambda v: type(v).__name__)
def test_fields_cannot_be_assigned(value: object) -> None:
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, f.name, getattr(value, f.name))
    # (A name that is no field raises too: TypeError from the dataclass-made
    # `__setattr__` of a slotted class on Python 3.11, FrozenInstanceError later.)
    with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
        value.new_attribute = 1  # type: ignore[attr-defined]


def test_defaults_keywords_and_match_args() -> None:
    i = m.Instance(info=_INT)  # type: ignore[arg-type]
    assert i.args == ()
    c = m.CallableType(params=(), ret=i)
    for f in dataclasses.fields(c):
        if f.default is not dataclasses.MISSING:
            assert getattr(c, f.name) is f.default, f.name
    assert m.Instance.__match_args__ == ("info", "args")
    match m.LiteralType(2, i):
        case m.LiteralType(value, fallback):
            assert (value, fallback) == (2, i)
        case _:
            pytest.fail("no match")
    with pytest.raises(TypeError):
        m.Instance()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        m.Param("x", i, m.POS_ONLY, False, "extra")  # type: ignore[call-arg]


def _by_fields(a: object, b: object) -> bool:
    """What the dataclass-made `__eq__` answers."""
    if type(a) is not type(b):
        return False
    compared = [f.name for f in dataclasses.fields(a) if f.compare]  # type: ignore[arg-type]
    return tuple(getattr(a, n) for n in compared) == tuple(getattr(b, n) for n in compared)


def test_equality_is_by_compared_fields() -> None:
    values = _samples()
    twins = [copy.copy(v) for v in values]
    for a, b in itertools.product(values, values + twins):
        assert (a == b) is _by_fields(a, b), (a, b)
        assert (a != b) is not _by_fields(a, b), (a, b)
        if a == b:
            assert hash(a) == hash(b), (a, b)
    # Fields that are not compared: every Any is equal, so are `declared` literals.
    assert m.AnyType("error", reported=True) == m.ANY
    assert m.LiteralType(1, values[5], declared=True) == m.LiteralType(1, values[5])  # type: ignore[arg-type]


@pytest.mark.parametrize("value", _samples(), ids=lambda v: type(v).__name__)
def test_pickle_copy_and_replace_keep_the_value(value: object) -> None:
    h = hash(value)
    for other in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value), dataclasses.replace(value)):  # type: ignore[type-var]
        assert type(other) is type(value) and other == value and hash(other) == h
        for f in dataclasses.fields(other):  # type: ignore[arg-type]
            assert getattr(other, f.name) == getattr(value, f.name), f.name
        for f in dataclasses.fields(other):  # type: ignore[arg-type]
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(other, f.name, None)


def test_cached_parts_are_not_copied() -> None:
    """The kept hash and a callable's parameter shape start empty in a copy
    (string hashes differ between processes) and are computed there again."""
    c = [v for v in _samples() if type(v) is m.CallableType][0]
    assert isinstance(c, m.CallableType)
    shape = shape_of(c)
    assert c._hash is None  # type: ignore[attr-defined]
    h = hash(c)
    assert c._hash == h  # type: ignore[attr-defined]
    restored = pickle.loads(pickle.dumps(c))
    assert restored._hash is None and restored._shape is None  # type: ignore[attr-defined]
    assert hash(restored) == h and shape_of(restored).positional == shape.positional
    changed = c.with_ret(m.ANY)
    assert changed._hash is None and changed._shape is None and changed.params == c.params  # type: ignore[attr-defined]


def test_with_params_and_with_ret_keep_every_other_field() -> None:
    """`with_params`/`with_ret` make the callable field by field: each other
    field, compared or not, is the one `dataclasses.replace` would keep."""
    c = m.CallableType(
        (m.Param("x", m.ANY),), m.NONE, (), name="f", definition=object(), is_ellipsis=True, is_type_obj=True,
        type_guard=m.NONE, type_is=m.ANY, is_untyped=True, is_async=True, kwargs_unpacked=True, owner="C",
    )
    params = (m.Param("y", m.NEVER, m.KW_ONLY),)
    for made, expected in ((c.with_params(params), dataclasses.replace(c, params=params)), (c.with_ret(m.NEVER), dataclasses.replace(c, ret=m.NEVER))):
        for f in dataclasses.fields(c):
            assert getattr(made, f.name) is getattr(expected, f.name), f.name


def test_make_union_simplifies() -> None:
    """Each simplification of make_union, on the path with none (a new union
    of the deduplicated items) and on the paths with one."""
    i, s = m.Instance(_INT), m.Instance(_STR)  # type: ignore[arg-type]
    one, t = m.LiteralType(1, i), m.TypeVarType("T", "m.T", "m.f")
    assert m.make_union([i]) is i and m.make_union((i, i)) is i and m.make_union([]) is m.NEVER
    u = m.make_union([i, s, m.Instance(_INT)])  # type: ignore[arg-type]
    assert type(u) is m.UnionType and u.items == (i, s) and u.items[0] is i
    assert m.make_union((m.UnionType((i, s)), m.NEVER, m.NONE, s)) == m.UnionType((i, s, m.NONE))
    assert m.make_union([m.UnionType((i,)), m.NEVER]) is i
    assert m.make_union([one, i, s]) == m.UnionType((i, s))  # the literal goes beside its fallback
    assert m.make_union([one, s]) == m.UnionType((one, s))
    narrowed = m.TypeVarType("T", "m.T", "m.f", narrowed=True)
    assert m.make_union([narrowed, t]) is t and m.make_union([narrowed, s]) == m.UnionType((narrowed, s))
    merged = m.make_union([m.ANY_ERROR, s, m.ANY_REPORTED])
    assert type(merged) is m.UnionType and merged.items[0].reported and merged.items[1] is s  # type: ignore[attr-defined]


def test_make_union_of_a_union_and_an_equal_one() -> None:
    """A union joined with itself or an equal union is that union (the first);
    not where it holds Any, of which the second may hold the reported one."""
    i, s = m.Instance(_INT), m.Instance(_STR)  # type: ignore[arg-type]
    u = m.make_union([i, s, m.NONE])
    assert m.make_union([u, u]) is u and m.make_union((u, m.make_union([m.Instance(_INT), s, m.NONE]))) is u  # type: ignore[arg-type]
    assert m.make_union([u, m.make_union([s, i, m.NONE])]) == m.UnionType((i, s, m.NONE))  # another order: not equal
    assert m.make_union([u, m.make_union([i, s])]) == u
    plain, reported = m.make_union([m.ANY_ERROR, s]), m.make_union([m.ANY_REPORTED, s])
    assert plain == reported
    assert m.make_union([plain, reported]).items[0].reported  # type: ignore[attr-defined]


def test_substitute_keeps_what_it_does_not_change() -> None:
    from veritype.types.substitute import substitute, tv_key

    i = m.Instance(_INT)  # type: ignore[arg-type]
    t, u = m.TypeVarType("T", "m.T", "m.f"), m.TypeVarType("U", "m.U", "m.g")
    c = m.CallableType((m.Param("x", i), m.Param("y", t)), t, (t,), name="f")
    assert substitute(c, {tv_key(u): i}) is c
    s = substitute(c, {tv_key(t): i})
    assert isinstance(s, m.CallableType) and s.params[0] is c.params[0]
    assert s == m.CallableType((m.Param("x", i), m.Param("y", i)), i, (), name="f")
