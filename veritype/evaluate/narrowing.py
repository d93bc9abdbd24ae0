"""Type narrowing: what a condition being true (or false) says about names.

The forms of the typing spec's "Type narrowing" chapter and mypy's
conventions: `isinstance`/`issubclass` (`isinstance_narrowing`), `is None`, `==` against literals (`equality_narrowing`)
and enum members, truthiness (`truthiness`), `callable()`, `type(x) is C`, TypeGuard and
TypeIs functions, `in` against literal containers, and `and`/`or`/`not`.
The result maps reference keys (`x`, `x.attr`, `x[0]`) to narrowed types.
"""

from __future__ import annotations

import ast
from itertools import chain
from typing import TYPE_CHECKING

from veritype.types.alias_ref import MAY_HOLD_REF, expand_top
from veritype.types.model import (
    AnyType, Instance, LiteralType, ModuleType, NeverType, NoneType, TupleType, Type,
    TypedDictType, TypeType, make_union, union_items,
)
from veritype.types.subtype import is_subtype
from veritype.evaluate.truthiness import falsy_part, truthy_part
from veritype.evaluate.in_narrowing import class_objects, narrow_in_container
from veritype.evaluate.parent_narrowing import refine_parents
from veritype.evaluate.reference_keys import expr_key
from veritype.evaluate.narrowing_calls import call_pair, forget_isinstance
from veritype.evaluate.equality_narrowing import MEMO_MAX, equal_pair, forget_equal_pairs
from veritype.evaluate.len_narrowing import FLIPPED, compare_len, is_len_call, narrow_len

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.infer_memo import InferMemo
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.evaluate.flow_view import FlowView


def narrow_names(exprs: "ExprEvaluator", test: ast.expr, positive: bool) -> dict[str, Type]:
    try:
        return _narrow(exprs, _silent(exprs), test, positive)
    except RecursionError:
        return {}


def narrow_pair(exprs: "ExprEvaluator", test: ast.expr) -> tuple[dict[str, Type], dict[str, Type]]:
    """What `test` says when true and when false, asked at one flow state (an
    `if` asks both before its body changes the state): one silent evaluator
    serves both, so each operand is inferred once (see `_Once`). Asked of the
    evaluator that inferred `test`, its epoch still open (`InferMemo.held`), the
    operands are not inferred again at all (see `_Once.shared`), and both ways
    are found at once (`_both`)."""
    silent = _silent(exprs)
    shared: "InferMemo | None" = silent.shared  # type: ignore[attr-defined]
    if shared is not None:
        try:
            return _both(exprs, silent, test, shared, False)
        except RecursionError:
            pass  # (each way asked alone below, as without `shared`)
    out: list[dict[str, Type]] = []
    for positive in (True, False):
        try:
            out.append(_narrow(exprs, silent, test, positive))
        except RecursionError:
            out.append({})
    return out[0], out[1]


_key = expr_key  # the reference key of a node (`x`, `x.attr`, `x[0]`), or None

_EQUALITY = frozenset((ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
# The operands whose narrowing may refine a parent (refine_parents): a member
# access, or a walrus (whose target may be one). Exact classes: ast nodes are never subclassed.
_MAY_HAVE_PARENT = frozenset((ast.Attribute, ast.Subscript, ast.NamedExpr))


def _silent(exprs: "ExprEvaluator") -> "ExprEvaluator":
    # While the asker's epoch is `shared` (the flow as its memo saw it), the
    # questions asked in it share one (19.6k were made on the bench corpus, one
    # per question): `_Once` keeps answers by overlay, and the flow is the same.
    memo = exprs._memo  # (the `memo` property's slot, and `InferMemo.shared` written out: 19.5k questions)
    shared = memo.depth > 0 and memo.binds == 0
    if shared:
        kept = memo.silent
        if type(kept) is _Once and kept.stands_as(exprs):
            return kept  # type: ignore[return-value]
    once = _Once(exprs, memo if shared else None)
    if shared:
        memo.silent = once
        memo._layers.append(once)  # (so that the epoch's end drops it: see ExprEvaluator.infer)
    return once  # type: ignore[return-value]


class _ReadOnlyFlow:
    """The flow as a narrowing question sees it: a walrus in the test
    (`isinstance(e := xs[0], type)`) is bound by the checker's own inference of
    the test; asking the question again must not bind it back over the
    narrowing already applied."""

    def __init__(self, flow: "FlowView") -> None:
        self._flow = flow
        # Read by `_Name` for every name (an attribute, not `__getattr__`'s call).
        self.undefined = flow.undefined

    def lookup(self, key: str) -> Type | None:
        return self._flow.lookup(key)

    def may_hold_members(self) -> bool:
        return self._flow.may_hold_members()

    def bind(self, key: str, t: Type) -> None:
        pass

    def __getattr__(self, name: str) -> object:
        return getattr(self._flow, name)


class _Once:
    """A silent evaluator that infers each operand once: one narrowing test asks
    for the same operands again (`x is None` reads x and None for both sides,
    its parent keys read them again, an `if` asks both ways), and nothing it
    asks changes the flow state between the questions. One serves a whole
    condition, both ways. What a node is depends on the overlay too (`b` in
    `a and b` sees what `a` says; a synthesized test reuses a node: `x is A or
    x is B` for `case A | B`, `a < b < c`), so an answer is kept with the
    overlay it was inferred under and used only under that very overlay: the
    same layers holding the same values, compared by identity (kept alive
    here, so no id is reused). Only inference without context is kept;
    nested expressions are inferred as usual.

    The evaluator asking (`asker`) has usually just inferred the condition
    itself (an `if` test, an operand of `and`/`or`, a conditional expression's
    test), its memo still open: when `shared`, what it memoized is taken from
    there (read from `InferMemo._table`), and what each part of the condition says is
    memoized there too (`_narrow`), so that `a` in `if a and b:` is narrowed
    once for the `and`'s value, and the `if` takes it from there. This
    evaluator infers what the asker would (`_silent`), so its answers are
    the same while no walrus has bound a name since (`InferMemo.shared`)."""

    def __init__(self, asker: "ExprEvaluator", shared: "InferMemo | None") -> None:
        self.asker = asker
        self._exprs: "ExprEvaluator | None" = None
        self._memo: dict[tuple[int, tuple[object, ...]], tuple[ast.expr, Type, list[object]]] = {}
        self.shared = shared
        # Whether a name the asker inferred with no overlay is what this one
        # would infer (`InferMemo.leaves`: kept only outside class-body nesting).
        self.plain = not asker.nested_in_class
        # Where the asker stands: what `ExprEvaluator.silent` copies (and
        # `stands_where` compares), read by `stands_as` until `exprs` is made.
        self.where = (asker.scope, asker.overlay, asker.nested_in_class, asker.in_lambda, asker.in_async, asker.yield_types)

    @property
    def exprs(self) -> "ExprEvaluator":
        """The silent evaluator that infers what is not found elsewhere, made
        when first needed: most questions take every answer from the asker's
        memo (of the 12.7k made on the bench corpus, one per `if` test and per
        epoch that asks, 4.6k need one).
        It is made where the asker stands, as when the question began: a
        question does not move its asker (`stands_as` was asked before it)."""
        exprs = self._exprs
        if exprs is None:
            # (`silent` asks where the asker stands: in a class-body comprehension, whose
            # names skip the class's; in a lambda, with no possibly-undefined there...)
            exprs = self._exprs = self.asker.silent(_ReadOnlyFlow(self.asker.flow))
        return exprs

    def infer(self, node: ast.expr, expected: Type | None = None) -> Type:
        if expected is not None:
            return self.exprs.infer(node, expected)
        overlay = self.asker.overlay  # (the very list the silent evaluator's is)
        cls = type(node)
        if cls is ast.Constant:
            # Inferred, not memoized, where that costs less (timed side by side on the
            # bench corpus): a constant (74 vs 106 ms), by its handler itself (what
            # `infer` does for one: the type of a constant is no alias to expand and
            # names nothing deprecated, and it infers nothing nested).
            return self.asker._Constant(node, None)  # type: ignore[arg-type]  # (it reads `ev` only)
        if cls is ast.Name:
            # A name is read as `_Name` reads it, with no silent evaluator made
            # for it (4.7k of the 12.8k questions on the bench corpus made one,
            # most for names only): in a layer, as the asker inferred it, as the
            # flow narrowed it, else by the asker's own `_Name`, which reports
            # only a name it does not find (looked up first here) and reads
            # possibly-undefined names only where they are tracked (then it is
            # not asked). As `ExprEvaluator.infer` gives it: a reference to a
            # recursive alias at its top expanded (`_finish`; the deprecated
            # name it also reports, a silent evaluator does not).
            name = node.id  # type: ignore[attr-defined]
            if overlay:
                for layer in reversed(overlay):
                    if name in layer:
                        t = layer[name]
                        return expand_top(t) if type(t) in MAY_HOLD_REF else t
            elif self.shared is not None and self.plain:
                # (the `if` test's names the asker kept: InferMemo.leaves; 15k names on the bench corpus)
                leaves = self.shared.leaves
                seen = leaves.get(node) if leaves is not None else None  # (what the asker inferred)
                if seen is not None:
                    return seen
            asker = self.asker
            if asker.flow.undefined is None:
                if self.plain:
                    narrowed = asker.flow.lookup(name)
                    if narrowed is not None:
                        return expand_top(narrowed) if type(narrowed) in MAY_HOLD_REF else narrowed
                scope = asker.scope
                if scope is not None and asker.ev.lookup(name, scope) is not None:
                    t = asker._Name(node, None)  # type: ignore[arg-type]
                    return expand_top(t) if type(t) in MAY_HOLD_REF else t
            if overlay:
                # Else inferred, not memoized, under an overlay, which keys it
                # (56 vs 122 ms); not without one (244 vs 102 ms).
                return self.exprs.infer(node)
        elif self.shared is not None:
            # (the asker's memo table read directly: 12k questions on the bench corpus)
            found = self.shared._table.get((node, None, tuple(map(id, overlay))) if overlay else (node, None))
            if found is not None:
                return found[0]
        if overlay:
            alive: list[object] = list(overlay)
            for layer in overlay:
                alive.extend(layer.values())
            key = (id(node), tuple(map(id, alive)) + tuple(chain.from_iterable(overlay)) + tuple(map(len, overlay)))
        else:
            alive = []
            key = (id(node), ())
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = (node, self.exprs.infer(node), alive)  # the node and overlay keep their ids
        return hit[1]

    def stands_as(self, asker: "ExprEvaluator") -> bool:
        """Whether this one, made for `asker` in its epoch, still asks where it
        stands (a lambda or comprehension inferred since may have moved it)."""
        exprs = self._exprs
        if exprs is not None:
            return exprs.scope is asker.scope and exprs.stands_where(asker)
        scope, overlay, nested_in_class, in_lambda, in_async, yield_types = self.where
        return (scope is asker.scope and overlay is asker.overlay and nested_in_class == asker.nested_in_class
                and in_lambda == asker.in_lambda and in_async == asker.in_async and yield_types is asker.yield_types)

    def __getattr__(self, name: str) -> object:
        return getattr(self.exprs, name)


def _narrow(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.expr, positive: bool) -> dict[str, Type]:
    shared: "InferMemo | None" = silent.shared  # type: ignore[attr-defined]
    if shared is None:
        pair = _pair(exprs, silent, test)
        if pair is not None:
            return pair[0] if positive else pair[1]
        return _narrow_uncached(exprs, silent, test, positive, None)
    overlay = exprs.overlay
    # The memo's table is read directly (54k questions on the bench corpus); its
    # key is (node, positive, overlay layers), which `put_narrowed` keeps alive.
    key = (id(test), positive, *map(id, overlay)) if overlay else (id(test), positive)
    hit = shared._narrowed.get(key)
    if hit is not None:
        return hit[1]
    # (the overlay is as it was after each question: parts pop what they push)
    pair = _pair(exprs, silent, test)
    if pair is None:
        narrowed = _narrow_uncached(exprs, silent, test, positive, shared)
        shared.put_narrowed(key, test, overlay, narrowed)
        return narrowed
    # A test that is no `and`/`or`/`not` is answered both ways at once, and both
    # are kept: most are asked both ways at one state, under one overlay (an `if`
    # and its `else`; the parts of an `and` each way, under the parts before
    # them; a part of an `and`/`or` inferred, then its `if`: 10k of 15k
    # comparisons and calls on the bench corpus).
    narrowed, other = pair if positive else (pair[1], pair[0])
    shared.put_narrowed(key, test, overlay, narrowed)
    shared.put_narrowed((key[0], not positive, *key[2:]), test, overlay, other)  # (the other way's key)
    return narrowed


def _pair(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.expr) -> tuple[dict[str, Type], dict[str, Type]] | None:
    """What `test` says when true and when false (two new dicts), for a test
    that is neither `and`/`or`, `not` nor a walrus (None: `_narrow_uncached`
    composes those of their parts' answers). Both ways read the same keys and
    operand types, which are found once."""
    ev = exprs.ev
    # Exact node classes (ast nodes are never subclassed), the commonest tests first;
    # a parent is refined only where something was narrowed (most questions: nothing).
    if type(test) is ast.Compare:
        if len(test.ops) != 1:
            return None  # a chain: its conjunction is asked
        pos, neg = _compare(exprs, silent, test)
        if (pos or neg) and (type(test.left) in _MAY_HAVE_PARENT or type(test.comparators[0]) in _MAY_HAVE_PARENT):
            refine_parents(ev, silent, [test.left, test.comparators[0]], pos, neg)
        return pos, neg
    if type(test) is ast.Call:
        pos, neg = call_pair(exprs, silent, test)
        if (pos or neg) and type(test.args[0]) in _MAY_HAVE_PARENT:
            refine_parents(ev, silent, test.args[:1], pos, neg)
        return pos, neg
    cls = type(test)
    if cls is ast.BoolOp or cls is ast.NamedExpr or cls is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
        return None
    key = _key(test)
    if key is None:
        return {}, {}
    t = silent.infer(test)
    hit = _TRUTH_PAIRS.get(id(t))
    if hit is None:
        if len(_TRUTH_PAIRS) >= MEMO_MAX:
            _TRUTH_PAIRS.clear()
        hit = _TRUTH_PAIRS[id(t)] = (t, truthy_part(ev, t, True), falsy_part(ev, t, True, branch=True))
    return {key: hit[1]}, {key: hit[2]}


def _both(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.expr, shared: "InferMemo", keep: bool) -> tuple[dict[str, Type], dict[str, Type]]:
    """What `test` says when true and when false, under the overlay as it
    stands, in the epoch of `shared`: each as `_narrow` answers it, found
    together. An `and`/`or` asks each of its parts both ways once, under the
    layers of the parts before it (`_bool_pair`), where `_narrow` asked each
    part once per way, again each way (an `if a and b:` asked 7 questions, 4
    of them answered by the memo: 48.5k questions for 9.3k `if` tests on the
    bench corpus, 13.9k now). `keep`: memoize both answers (as `_narrow` does); the
    whole test of an `if`, asked last in its epoch, is not (nothing reads it)."""
    overlay = exprs.overlay
    if overlay:
        ids = tuple(map(id, overlay))
        key_t: tuple[object, ...] = (id(test), True, *ids)
        key_f: tuple[object, ...] = (id(test), False, *ids)
    else:
        key_t = (id(test), True)
        key_f = (id(test), False)
    table = shared._narrowed
    hit_t = table.get(key_t)
    hit_f = table.get(key_f)
    if hit_t is not None and hit_f is not None:
        return hit_t[1], hit_f[1]
    if hit_t is None and hit_f is None:
        cls = type(test)
        pair: tuple[dict[str, Type], dict[str, Type]] | None
        if cls is ast.BoolOp:
            pair = _bool_pair(exprs, silent, test, shared)  # type: ignore[arg-type]
        elif cls is ast.UnaryOp and type(test.op) is ast.Not:  # type: ignore[attr-defined]
            neg, pos = _both(exprs, silent, test.operand, shared, True)  # type: ignore[attr-defined]
            pair = pos, neg  # (the very answers `_narrow` gives: the operand's, other way)
        else:
            pair = _pair(exprs, silent, test)  # (None: a walrus or a chain, asked each way below)
        if pair is not None:
            if keep:
                shared.put_narrowed(key_t, test, overlay, pair[0])
                shared.put_narrowed(key_f, test, overlay, pair[1])
            return pair
    # One way memoized (a part of an `and`/`or` its inference asked one way), a
    # walrus or a comparison chain: each way as `_narrow` answers it.
    return _narrow(exprs, silent, test, True), _narrow(exprs, silent, test, False)


def _bool_pair(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.BoolOp, shared: "InferMemo") -> tuple[dict[str, Type], dict[str, Type]]:
    """What an `and`/`or` says when true and when false: the way all its parts
    hold (true for `and`, false for `or`) applies their answers in order; the
    other way joins theirs (`_join_parts`). Each part is asked both ways under
    the layers of the parts before it holding, as `_narrow_uncached` asks each
    way (the very layers: the memoized answers, which the `and`'s own
    inference pushed too)."""
    holds = type(test.op) is ast.And  # the way all parts hold: True for `and`
    held: list[dict[str, Type]] = []
    other: list[dict[str, Type]] = []
    overlay = exprs.overlay
    try:
        for value in test.values:
            pos, neg = _both(exprs, silent, value, shared, True)
            part, fails = (pos, neg) if holds else (neg, pos)
            held.append(part)
            other.append(fails)
            overlay.append(part)
    finally:
        for _ in held:
            overlay.pop()
    result: dict[str, Type] = {}
    for part in held:
        result.update(part)
    joined = _join_parts(other)
    return (result, joined) if holds else (joined, result)


def _join_parts(parts: list[dict[str, Type]]) -> dict[str, Type]:
    """What the parts of an `and`/`or` say where at least one holds: the join
    of their answers, on the keys they all narrow. A part that narrows
    something to Never cannot be the one that holds (`state[0] is not None or
    not isinstance(state[1], dict)` with `state[1]` a TypedDict): the others
    decide, as in mypy's join of maps."""
    possible = [p for p in parts if not _to_never(p)]
    if possible and len(possible) < len(parts):
        parts = possible
    keys = set(parts[0])
    for p in parts[1:]:
        keys &= set(p)
    return {k: make_union([p[k] for p in parts]) for k in keys}


def _narrow_uncached(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.expr, positive: bool, shared: "InferMemo | None") -> dict[str, Type]:
    """What an `and`/`or`, a `not`, a walrus or a comparison chain says (the
    tests `_pair` leaves), one way, from what its parts say."""
    ev = exprs.ev
    if type(test) is ast.Compare:
        from veritype.evaluate.compare_chains import chain_as_conjunction

        return _narrow(exprs, silent, chain_as_conjunction(test), positive)
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        return _narrow(exprs, silent, test.operand, not positive)
    if type(test) is ast.BoolOp:
        is_and = type(test.op) is ast.And
        if is_and == positive:
            # All parts hold: apply them in order. Shared, each part is its own
            # overlay layer, the very one the `and`'s own inference pushed
            # (`infer_bool_op`), so that what it inferred under it is found again;
            # else one layer gathers them (a walrus in a part writes there).
            result: dict[str, Type] = {}
            pushed = 0
            if shared is None:
                exprs.overlay.append(result)
                pushed = 1
            try:
                for value in test.values:
                    part = _narrow(exprs, silent, value, positive)
                    result.update(part)
                    if shared is not None:
                        exprs.overlay.append(part)
                        pushed += 1
            finally:
                for _ in range(pushed):
                    exprs.overlay.pop()
            return result
        # At least one part holds: join what each part says (only keys all agree on).
        # The keys the parts so far that may hold agree on (`agreed`) bound the
        # join's: once none is left, the join is empty whatever the other parts
        # say (each such part stays among those joined below), so they are not
        # asked (1.3k of 3.2k such questions on the bench corpus, most with a
        # part that narrows nothing). The last part is asked under no layer.
        parts: list[dict[str, Type]] = []
        agreed: set[str] | None = None
        last = len(test.values) - 1
        pushed = 0
        try:
            for i, value in enumerate(test.values):
                part = _narrow(exprs, silent, value, positive)
                parts.append(part)
                if not _to_never(part):
                    agreed = set(part) if agreed is None else agreed.intersection(part)
                    if not agreed:
                        return {}
                if i == last:
                    break
                exprs.overlay.append(_narrow(exprs, silent, value, not positive))
                pushed += 1
        finally:
            for _ in range(pushed):
                exprs.overlay.pop()
        return _join_parts(parts)
    if type(test) is ast.NamedExpr:
        inner = dict(_narrow(exprs, silent, test.value, positive))  # (a memoized one stays as it is)
        key = _key(test.target)
        if key is not None:
            t = silent.infer(test.value)
            inner[key] = truthy_part(ev, t, True) if positive else falsy_part(ev, t, True, branch=True)
        return inner
    return {}  # (`_pair` answers the others)


def _to_never(narrowed: dict[str, Type]) -> bool:
    """Whether `narrowed` makes some key Never (the part of an `or` that says so cannot hold)."""
    for t in narrowed.values():
        if isinstance(t, NeverType):
            return True
    return False


def _compare(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.Compare) -> tuple[dict[str, Type], dict[str, Type]]:
    """What the one-operator comparison `test` says when true and when false
    (each a new dict). Both ways read the same keys and operand types: they are
    found once, and what differs (equality_narrowing.equal_pair) is asked each way."""
    ev = exprs.ev
    op = test.ops[0]
    left, right = test.left, test.comparators[0]
    # Exact node classes (ast nodes are never subclassed): 15k comparisons on the bench corpus.
    op_cls = type(op)
    if op_cls in _EQUALITY:
        # What the operands being equal (`eq`) and unequal (`ne`) say: the test's
        # true way is the first for `is`/`==`, the second for `is not`/`!=`.
        straight = op_cls is ast.Is or op_cls is ast.Eq
        identity = op_cls is ast.Is or op_cls is ast.IsNot
        if identity and type(right) is ast.Constant and right.value is None:
            # `x is None` / `x is not None` (6.7k of 15k comparisons on the bench corpus):
            # of the forms below only the first pair narrows against a None (the
            # others want a key on the right, a literal or a class there).
            a = left.target if type(left) is ast.NamedExpr else left
            key = _key(a)
            if key is None:
                return {}, {}
            equal, unequal = equal_pair(ev, silent.infer(a), silent.infer(right), True)
            eq = {} if equal is None else {key: equal}
            ne = {} if unequal is None else {key: unequal}
            return (eq, ne) if straight else (ne, eq)
        eq, ne = {}, {}
        for a, b in ((left, right), (right, left)):
            if type(a) is ast.NamedExpr:
                a = a.target  # `(x := f()) is not None` narrows x
            key = _key(a)
            if key is None:
                continue
            equal, unequal = equal_pair(ev, silent.infer(a), silent.infer(b), identity)
            if equal is not None:
                eq[key] = equal
            if unequal is not None:
                ne[key] = unequal
        # `len(x) == 2` (or `2 == len(x)`) on a tuple (mypy and pyright narrow tuples by length).
        for call, other in ((left, right), (right, left)):
            if not identity and type(call) is ast.Call and is_len_call(exprs, call):
                n = other.value if isinstance(other, ast.Constant) and type(other.value) is int else None
                key = _key(call.args[0])
                if key is not None and n is not None and 0 <= n <= 16:
                    subject_t = silent.infer(call.args[0])
                    for way, out in ((True, eq), (False, ne)):
                        narrowed = narrow_len(ev, subject_t, n, way)
                        if narrowed is not None:
                            out[key] = narrowed
        # `td["kind"] == "a"` on a union of TypedDicts (a tagged union: mypy and
        # pyright keep the members whose tag can equal the literal).
        if type(left) is ast.Subscript and type(left.slice) is ast.Constant and isinstance(left.slice.value, str):
            base_key = _key(left.value)
            lit = silent.infer(right)
            if base_key is not None and isinstance(lit, LiteralType):
                base_t = silent.infer(left.value)
                for way, out in ((True, eq), (False, ne)):
                    narrowed = _narrow_tagged(ev, base_t, left.slice.value, lit, way)
                    if narrowed is not None:
                        out[base_key] = narrowed
        # `x.kind == "a"` on a union of classes with literal-typed `kind`.
        if type(left) is ast.Attribute:
            base_key = _key(left.value)
            lit = silent.infer(right)
            if base_key is not None and isinstance(lit, LiteralType):
                base_t = silent.infer(left.value)
                for way, out in ((True, eq), (False, ne)):
                    narrowed = _narrow_tagged_attr(ev, base_t, left.attr, lit, way)
                    if narrowed is not None:
                        out[base_key] = narrowed
        # `type(x) is C`, and `x.__class__ is C`, which mypy narrows the same way
        # (when they are equal only)
        subject = None
        if type(left) is ast.Call and _is_type_call(exprs, left) and left.args:
            subject = left.args[0]
        elif type(left) is ast.Attribute and left.attr == "__class__":
            subject = left.value
        if subject is not None:
            key = _key(subject)
            if key is not None:
                ct = silent.infer(right)
                if isinstance(ct, TypeType) and isinstance(ct.item, Instance):
                    if isinstance(silent.infer(subject), ModuleType) and ct.item.info.fullname == "types.ModuleType":
                        pass  # a module stays itself, with its own names (mypy: `type(mod) is ModuleType`)
                    else:
                        eq[key] = ct.item
        return (eq, ne) if straight else (ne, eq)
    if op_cls in FLIPPED:  # <, <=, >, >=
        return compare_len(exprs, silent, op, left, right, True), compare_len(exprs, silent, op, left, right, False)
    if op_cls is ast.In or op_cls is ast.NotIn:
        key = _key(left)
        if key is None:
            return {}, {}
        lt = silent.infer(left)
        rt = silent.infer(right)
        container_items = _literal_items(rt)
        if container_items is None and isinstance(right, (ast.List, ast.Set)) and right.elts and not any(isinstance(e, ast.Starred) for e in right.elts):
            # A list or set display of classes: its items, as a tuple's (mypy reads a display's items).
            shown = [silent.infer(e) for e in right.elts]
            container_items = shown if class_objects(shown) else None
        inside = _in(ev, key, lt, rt, container_items, True)
        outside = _in(ev, key, lt, rt, container_items, False)
        return (inside, outside) if op_cls is ast.In else (outside, inside)
    return {}, {}


def _in(ev: "Evaluator", key: str, lt: Type, rt: Type, container_items: list[Type] | None, is_positive: bool) -> dict[str, Type]:
    """What `x in c` says of `x` when it holds (`is_positive`) or not: `lt` is the
    type of `x`, `rt` the container's, `container_items` its items where known."""
    if container_items is not None and is_positive:
        keep = [i for i in union_items(lt) if isinstance(i, AnyType) or _overlaps_any(ev, i, container_items)]
        if not keep and class_objects(container_items):
            return {}  # an `int` in `(str, bytes)`: mypy keeps it (no unreachable branch)
        # `x in ("a", "b")` narrows a str to those literals (and drops None);
        # `t in (tuple, list)` a `type[Sequence]` to those classes (in_narrowing).
        narrowed_items: list[Type] = []
        for item in keep:
            matches = [c for c in container_items if is_subtype(ev, c, item)]
            if isinstance(item, (Instance, TypeType)) and matches and (all(isinstance(c, LiteralType) for c in matches) or class_objects(matches)):
                narrowed_items.extend(matches)
            else:
                narrowed_items.append(item)
        return {key: make_union(narrowed_items)}
    if container_items is not None and any(isinstance(c, NoneType) for c in container_items) and any(isinstance(i, NoneType) for i in union_items(lt)):
        # `x not in ("a", None)`: not None (mypy removes the None only; the
        # other items are equal-compared values a str may still be).
        return {key: make_union([i for i in union_items(lt) if not isinstance(i, NoneType)])}
    if is_positive:
        narrowed = narrow_in_container(ev, lt, rt)
        if narrowed is not None:
            return {key: narrowed}
    return {}


def _overlaps_any(ev: "Evaluator", item: Type, container_items: list[Type]) -> bool:
    """Whether `item` is a subtype or a supertype of one of `container_items` (a
    loop, not `any()` over a generator: asked for each item of each `x in c`)."""
    for c in container_items:
        if is_subtype(ev, c, item) or is_subtype(ev, item, c):
            return True
    return False


def _literal_items(t: Type) -> list[Type] | None:
    if isinstance(t, TupleType):
        return list(t.items)
    if isinstance(t, Instance) and t.args and t.info.fullname in ("builtins.list", "builtins.set", "builtins.frozenset", "builtins.tuple"):
        inner = t.args[0]
        if all(isinstance(i, (LiteralType, NoneType)) for i in union_items(inner)):
            return union_items(inner)
    return None


# The true and the false part of a reference tested for truth (`if x:`), by the
# id of its type (`_pair`), each entry holding it (so that no id is reused
# while it is kept): bounded, and emptied with the other memos of narrowing
# answers by type (`forget_narrowings`).
_TRUTH_PAIRS: dict[int, tuple[Type, Type, Type]] = {}


def forget_narrowings() -> None:
    """Empty the memos of narrowing answers by type (`_TRUTH_PAIRS`,
    equality_narrowing's `_EQUAL_PAIRS`, narrowing_calls' `_ISINSTANCE`): after
    each module's check (check.module_checker.check_module), so that they keep no
    module's types alive past it."""
    _TRUTH_PAIRS.clear()
    forget_equal_pairs()
    forget_isinstance()


def _is_type_call(exprs: "ExprEvaluator", node: ast.Call) -> bool:
    if len(node.args) != 1 or not isinstance(node.func, ast.Name) or node.func.id != "type":
        return False
    ref = exprs.ev.resolve_expr(node.func, exprs.scope) if exprs.scope is not None else None
    return ref is not None and ref.fullname == "builtins.type"


def _narrow_tagged(ev: "Evaluator", t: Type, tag: str, lit: LiteralType, positive: bool) -> Type | None:
    items = union_items(t)
    if len(items) < 2 or not all(isinstance(i, TypedDictType) for i in items):
        return None
    kept: list[Type] = []
    for item in items:
        assert isinstance(item, TypedDictType)
        vt = item.item_map().get(tag)
        if vt is None:
            return None  # a member without the tag: no narrowing
        if _tag_may_match(union_items(vt), lit, positive):
            kept.append(item)
    return make_union(kept)


def _tag_may_match(values: list[Type], lit: LiteralType, positive: bool) -> bool:
    """Whether a member whose tag has these types survives `tag == lit`
    (positive) or `tag != lit`: a non-literal tag always may."""
    if positive:
        return any(not isinstance(v, LiteralType) or v == lit for v in values)
    return not (len(values) == 1 and values[0] == lit)


def _narrow_tagged_attr(ev: "Evaluator", t: Type, attr: str, lit: LiteralType, positive: bool) -> Type | None:
    """mypy's "tagged unions": members whose `attr` is a literal other than `lit` are dropped."""
    items = union_items(t)
    if len(items) < 2 or not all(isinstance(i, Instance) for i in items):
        return None
    kept = []
    for item in items:
        vt = ev.members.get(item, attr)
        if vt is None:
            return None
        if _tag_may_match(union_items(vt), lit, positive):
            kept.append(item)
    return make_union(kept)


