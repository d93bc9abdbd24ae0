"""An instance seen as one of its classes' bases: `list[int]` as `Sequence[int]`.

The walk up the bases (with the type arguments substituted at each step), and
its answers kept for classes whose bases are final. `subtype` asks it for
every instance checked against another class; the solver and member access too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import Instance, NoneType, TupleType, Type, TypeVarType, UnionType
from veritype.types.substitute import substitute, tv_key

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo


def map_instance_to_supertype(inst: Instance, target: "ClassInfo") -> Instance | None:
    """`list[int]` seen as `Sequence` -> `Sequence[int]`; None if not a subclass."""
    info = inst.info
    if info is target:
        return inst
    # The answers are kept (15k questions about 3.2k pairs on the bench corpus,
    # each a walk up the bases with a substitution; a pair asked again gets the
    # same object) once the class's whole MRO is settled, by the evaluator's
    # subtype checker, which the engine drops with the classes it forgets. Only
    # arguments equal in every field (`_all_exact`) are keys: an Any's reason,
    # say, is not compared, yet the answer holds the arguments themselves.
    args = inst.args
    if args and not _all_exact(args):
        return _map(inst, target)
    ev = info.ev
    checker = ev._subtype_checker
    if checker is None:
        checker = ev.subtype_checker()
    settled = checker.settled
    if info not in settled:
        if not _settled(info):  # (tested before the walk, which may settle it)
            return _map(inst, target)
        settled.add(info)
    memo = checker.supertypes
    key = (info, args, target)
    hit = memo.get(key, _NOT_KEPT)
    if hit is _NOT_KEPT:
        hit = memo[key] = _map(inst, target)
    return hit  # type: ignore[return-value]


_NOT_KEPT = object()


def _settled(info: "ClassInfo") -> bool:
    """Whether the bases and MRO of `info` and of every class in it are final
    (computed, none being computed): then `_map`'s answers never change."""
    mro = info._mro
    if mro is None:
        return False
    for c in mro:
        if c._bases is None or c._resolving or c._mro is None or (len(c._mro) == 1 and c._bases):
            return False
    return True


def _all_exact(types: tuple[Type, ...]) -> bool:
    """Whether every field of each of `types` takes part in equality (so an
    equal value is the same in every respect): instances, None, type variables,
    unions and tuples built of such. Not Any (its reason), literals
    (`declared`), callables, Never (its spelling)."""
    for t in types:
        tp = type(t)
        if tp is Instance:
            if t.args and not _all_exact(t.args):  # type: ignore[attr-defined]
                return False
        elif tp is TypeVarType:
            tv: TypeVarType = t  # type: ignore[assignment]  # (narrowed by the exact class test)
            if (tv.upper_bound is not None and not _all_exact((tv.upper_bound,)) or tv.values and not _all_exact(tv.values)
                    or tv.default is not None and not _all_exact((tv.default,))):
                return False
        elif tp is UnionType or tp is TupleType:
            if not _all_exact(t.items) or tp is TupleType and not _all_exact((t.fallback,)):  # type: ignore[attr-defined]
                return False
        elif tp is not NoneType:
            return False
    return True


def _map(inst: Instance, target: "ClassInfo") -> Instance | None:
    # Every base that has `target` in its MRO leads to it, so one path is
    # followed, base to base, with no backtracking: a search that gave up at a
    # fixed depth and backtracked was exponential in a diamond hierarchy and
    # wrong for a class chain deeper than its limit (issue #19). The steps are
    # bounded by the MRO's length, so a cyclic hierarchy cannot loop.
    steps = len(inst.info.mro) + 1
    current = inst
    while steps > 0:
        steps -= 1
        info = current.info
        # (Loops rather than generators: this runs for every subclass check.)
        base = None
        for candidate in info.bases:
            if candidate.info is target or target in candidate.info.mro:
                base = candidate
                break
        if base is None:
            return None
        mapping = {}
        for tv, arg in zip(info.type_vars, current.args):
            mapping[tv_key(tv)] = arg
        b = substitute(base, mapping) if mapping else base
        assert isinstance(b, Instance)
        if b.info is target:
            return b
        current = b
    return None
