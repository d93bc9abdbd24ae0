"""Which assignability answers may be kept: the kinds of type whose answer
depends on nothing but the two values.

`subtype.SubtypeChecker.check` keeps the answer for a pair of types in a table
keyed by the pair; a later question about equal types takes it from there. That
is only right when equal values are the same type in every respect that the
check reads (every field takes part in equality) and when the classes they name
can no longer change (their bases and MRO are final). Three grades:

- `plain`: nominal classes only, never protocols; kept at any time.
- `keyed`: an instance of a protocol too (with plain arguments), kept when
  final: asked with nothing assumed and no lazy evaluation in progress (see
  Evaluator.lazy_depth), as `SubtypeChecker._protocol` keeps its answers.
- `final`: protocols at any depth (`slice[int, None, None]` against
  `slice[SupportsIndex | None, ...]`), and `type[C]` of a class without
  arguments (isinstance's class tuples); kept when final, as `keyed`.

A NamedTuple class is settled once its tuple of fields is made (`_tuple_type`,
set when the class is synthesized, or at once for a functional one): before
that, a question against a tuple would find no fields (read while the class
body's fields are still being evaluated), so no answer about it is kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, LiteralType, NeverType, NoneType, TupleType, Type, TypeType, TypeVarType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo

# The kinds of type a kept answer may be about (the functions below refuse
# every other kind outright).
KEPT_KINDS = frozenset({Instance, AnyType, NoneType, NeverType, LiteralType, UnionType, TupleType, TypeVarType, TypeType})


def plain(t: Type) -> bool:
    """Whether the answer about `t` can be cached: it is built of nominal,
    settled classes only. Not callables (their `is_type_obj` is not part of
    equality), not protocols (their answer depends on member types, which
    may still be in evaluation, and on the assumptions of the check), not
    `type[C]` (metaclass lookups), and no class whose bases are still being
    evaluated (its flags and MRO are not final yet).
    """
    return _kept(t, False)


def keyed(t: Type) -> bool:
    """An instance of a settled class (a protocol too) with plain arguments:
    equal values of it are the same type in every respect (see `plain`)."""
    return type(t) is Instance and _settled(t.info) and _all_kept(t.args, False)  # type: ignore[attr-defined]


def final(t: Type) -> bool:
    """`plain` with protocols allowed at any depth, and `type[C]` of a class
    written without arguments: what a final answer may be kept for. Protocol
    answers found with nothing assumed and no lazy evaluation in progress are
    final (see `keyed`), and so are an outer pair's built of them. A `type[C]`
    with arguments is left out: the check reads whether they are Any written
    bare (`_bare_with_defaults`), and an Any's reason takes no part in equality."""
    return _kept(t, True)


def final_now(t: Type, finals: "set[Type]") -> bool:
    """`final(t)`, with `t` added to `finals` when it is: a type once final stays
    so (a settled class never becomes unsettled; the engine drops the checker
    holding `finals` with the classes it forgets), and equal types have the
    same answer (the walk reads only fields that take part in equality), so
    the caller's `t in finals` answers the question asked again."""
    if _kept(t, True):
        finals.add(t)
        return True
    return False


def _settled(info: "ClassInfo") -> bool:
    """The class's bases, flags and MRO are final (and a NamedTuple's fields made)."""
    if info._bases is None or info._resolving or (info.is_namedtuple and info._tuple_type is None):
        return False
    mro = info._mro
    return not (mro is not None and len(mro) == 1 and info._bases)  # (else the MRO is being computed)


def _kept(t: Type, final_answer: bool) -> bool:
    """`plain` (`final_answer` False) or `final` (True): the two walk the same
    kinds; a final answer also allows protocols and `type[C]` of a bare class."""
    tp = type(t)
    if tp is Instance:
        info = t.info  # type: ignore[attr-defined]
        if info.is_protocol and not final_answer:
            return False
        # (`_settled(info)`, written out: asked of every instance walked, 17k times on the bench corpus.)
        if info._bases is None or info._resolving or (info.is_namedtuple and info._tuple_type is None):
            return False
        mro = info._mro
        if mro is not None and len(mro) == 1 and info._bases:
            return False
        args = t.args  # type: ignore[attr-defined]
        return not args or _all_kept(args, final_answer)  # (most instances have no arguments: no call)
    if tp is AnyType or tp is NoneType or tp is NeverType:
        return True
    if tp is LiteralType:
        return _kept(t.fallback, final_answer)  # type: ignore[attr-defined]
    if tp is UnionType:
        return _all_kept(t.items, final_answer)  # type: ignore[attr-defined]
    if tp is TupleType:
        return _kept(t.fallback, final_answer) and _all_kept(t.items, final_answer)  # type: ignore[attr-defined]
    if tp is TypeVarType:
        return (t.upper_bound is None or _kept(t.upper_bound, final_answer)) and _all_kept(t.values, final_answer)  # type: ignore[attr-defined]
    if tp is TypeType and final_answer:
        item = t.item  # type: ignore[attr-defined]
        return type(item) is Instance and not item.args and _kept(item, True)  # type: ignore[attr-defined]
    return False


def _all_kept(types: tuple[Type, ...], final_answer: bool) -> bool:
    # (A loop, not all() over a generator: asked for every cached subtype question.)
    for t in types:
        if not _kept(t, final_answer):
            return False
    return True
