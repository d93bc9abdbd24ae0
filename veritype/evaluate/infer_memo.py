"""The inference memo: each expression is inferred once per expected type.

A call infers its arguments once without context, then again with each
parameter's type as context (and an overload does so for every candidate).
Without a memo, `f(f(f(...)))` re-infers the innermost argument 2**depth times
(issue #19: 190 nested calls did not finish in a minute). The memo makes every
(expression, expected type) pair cost one inference, so the work is linear in
the nesting depth times the number of distinct contexts.

A memo lives for one outermost `infer` on one `ExprEvaluator` (an *epoch*):
between two statements the flow state changes, so nothing is kept across
them. Inside an epoch the answer for a node depends only on the expected
type and on the comprehension/lambda/narrowing overlay it is inferred under
(a lambda body is inferred once with Any parameters and again with the
solved ones), so the overlay's layers are part of the key. The layers are
kept alive until the epoch ends so that their ids cannot be reused.

What an inference reported (errors and notes, through the evaluator) is kept
with its type and reported again on a hit: a caller may be recording them (an
overload item is tried with its arguments' errors held back, and fails if
they have any), so a hit must look exactly like the inference it replaces.
Duplicates reaching the checker are dropped by the report stage, but a
memo entry keeps each report once: an expression inferred under two expected
types, one miss and one hit each, re-reports its sub-expressions' errors four
times, and kept as a list they multiplied by four a level (issue #19:
`abs(abs(...(None)))` 16 deep took over 2 GB and a minute).
"""

from __future__ import annotations

import ast

from veritype.types.alias_ref import AliasRef
from veritype.types.model import Type, TypeFormType, UnionType

# Sub-expressions nested deeper than this in one expression are Any: only
# operator chains (`1 + 1 + ...`) and call/attribute/subscript chains get
# there (the parser allows 200 nested brackets), and each level costs a few
# frames of the deep stack (veritype/engine/deep_stack.py).
MAX_EXPRESSION_DEPTH = 2_000

# Leaves cost less to infer than to key; everything with sub-expressions is memoized.
_LEAVES = frozenset((ast.Name, ast.Constant))  # exact classes: ast nodes are never subclassed


Reported = tuple[ast.AST | None, str, str, str]  # node, message, code, severity

# The expected types that are, or may expand to, one asking for a type form
# (type_forms.expects_type_form, after an alias is expanded).
_MAY_BE_TYPE_FORM = frozenset((TypeFormType, UnionType, AliasRef))


class _Held:
    """`InferMemo.held`'s block (a class, not a generator: every `if` opens one)."""

    __slots__ = ("memo",)

    def __init__(self, memo: "InferMemo") -> None:
        self.memo = memo

    def __enter__(self) -> None:
        memo = self.memo
        if memo.depth == 0:
            memo.leaves = {}
        memo.depth += 1

    def __exit__(self, *exc: object) -> None:
        memo = self.memo
        memo.depth -= 1
        if memo.depth == 0:
            memo.end_epoch()


class InferMemo:
    # `ExprEvaluator.infer` keys, reads and writes the table itself (the hottest
    # path), using `depth`, `_table`, `open` and `logged` directly, and skips
    # `end_epoch` when there is nothing to clear; narrowing's `_narrow` reads
    # `_narrowed` directly. Keys hold the node itself (kept alive by the table
    # for the epoch), the overlay's layers by id (kept alive in `_layers`).
    __slots__ = ("depth", "_table", "_layers", "open", "_log", "logged", "_context_free", "held_from", "binds", "_narrowed", "silent", "leaves")

    def __init__(self) -> None:
        self.depth = 0
        self._table: dict[tuple[object, ...], tuple[Type, tuple[Reported, ...]]] = {}
        self._layers: list[object] = []
        # What the memoized inferences in progress report, as one log rather than
        # a set per inference (most report nothing: 71k such inferences for 712
        # reports on the bench corpus): `open` of them are in progress, each
        # knowing where the log stood when it began (`reported`); each entry is
        # kept with the `held_from` of when it was reported, the first of them
        # that may see it.
        self.open = 0
        self._log: list[tuple[Reported, int]] = []
        self.logged = 0  # len(_log), read without a call
        # Keys (expected type None) of calls whose answer is the same under any
        # expected type (see `context_free`).
        self._context_free: set[tuple[object, ...]] = set()
        # While reports are held back (`ExprEvaluator.recording` not forwarding),
        # the number of memoized inferences in progress (`open`) when that began:
        # what is held back is theirs to know only if it is reported again
        # (replayed), so it is recorded for the inferences begun since only.
        self.held_from = 0
        # Walrus targets bound in this epoch: after one, the flow is not what
        # the memoized answers saw (see `shared`). Reset with the epoch (an
        # epoch that memoized nothing keeps the count: questions are then
        # answered afresh, never wrongly).
        self.binds = 0
        # What a condition says, true or false, asked in this epoch (narrowing's
        # `_narrow`): (node, positive, overlay layers) -> (node, names -> types).
        self._narrowed: dict[tuple[object, ...], tuple[ast.expr, dict[str, Type]]] = {}
        # The silent evaluator narrowing asks this epoch's questions with
        # (narrowing._silent: one serves them all while `shared`).
        self.silent: object | None = None
        # While `held`: the names inferred without expected type, overlay or
        # class-body nesting (the type of a name there depends on the flow state
        # only), each kept with its node (alive until the epoch ends), for the
        # narrowing asked in the epoch (`_Once.infer` reads them). Leaves are not memoized
        # otherwise (most inferences are of leaves: keying them costs more),
        # and outside `held` this is None, which ExprEvaluator.infer's leaf path
        # reads; so only an `if` test's names are kept, which its narrowing
        # then asks again (11k names on the bench corpus).
        self.leaves: dict[ast.expr, Type] | None = None

    def held(self) -> "_Held":
        """One epoch for the `with` block, not only one outermost `infer`:
        several questions about the same expressions at the same flow state
        (an `if` infers its test, then asks what it narrows) share the
        answers (narrowing's `_Once.infer` reads them from the table)."""
        return _Held(self)

    def shared(self) -> bool:
        """Whether another evaluator asking about this one's expressions, at
        this very flow state, may take its memoized answers: an epoch is open
        (the answers are kept) and no walrus has bound a name since they were
        inferred (a bind changes the flow, and writes into the top overlay layer,
        possibly a memoized narrowing)."""
        return self.depth > 0 and self.binds == 0

    def put_narrowed(self, key: tuple[object, ...], node: ast.expr, overlay: list[dict[str, Type]], narrowed: dict[str, Type]) -> None:
        """Memoize a narrowing for the epoch under its key, `(id(node), positive,
        *ids of the overlay's layers)` (narrowing._narrow reads `_narrowed` itself);
        `narrowed` must not change from here on (it is the very layer a later
        question pushes, so that the inferences memoized under it are found
        again). The node and the layers are kept alive until the epoch ends,
        so no id is reused."""
        if overlay:
            self._layers.extend(overlay)
        self._layers.append(node)  # (also makes the epoch's end clear the table)
        self._narrowed[key] = (node, narrowed)

    def key(self, node: ast.expr, expected: Type | None, overlay: list[dict[str, Type]]) -> tuple[object, ...]:
        """The memo key of a non-leaf `node` (the caller leaves out leaves, see _LEAVES).
        An expected type may hold something unhashable: the key is then too
        (`ExprEvaluator.infer` finds that out where it looks the key up: hashing
        a type here first was a second hash of every keyed type)."""
        if expected is not None and type(node) is ast.Attribute and type(expected) not in _MAY_BE_TYPE_FORM:
            # An attribute's inference reads its expected type only where that may
            # ask for a type form (ExprEvaluator._infer_uncached): the answer is the
            # one without, and is kept as that (a class in `isinstance(x, (A.B, C))`
            # is then read back by the narrowing, which asks without).
            expected = None
        if overlay:
            self._layers.extend(overlay)
            return (node, expected, tuple(map(id, overlay)))
        return (node, expected)

    def mark_context_free(self, node: ast.expr, overlay: list[dict[str, Type]]) -> None:
        """The inference of `node` without expected type in progress does not
        read it: inferred under any other it gives the same answer."""
        # (`key`'s answer without expected type, written out: asked for every call inferred.)
        if overlay:
            self._layers.extend(overlay)
            self._context_free.add((node, None, tuple(map(id, overlay))))
        else:
            self._context_free.add((node, None))

    def context_free(self, node: ast.expr, overlay: list[dict[str, Type]]) -> tuple[Type, tuple[Reported, ...]] | None:
        """The answer memoized for `node` without expected type if it holds under
        any: a nested call inferred again with its parameter's type as context
        (`f(g(x))`) need not be checked again."""
        if self.depth < 2:  # (nothing memoized yet: the outermost inference is `node`'s own)
            return None
        if overlay:
            self._layers.extend(overlay)  # (`key`'s answer without expected type, written out)
            key: tuple[object, ...] = (node, None, tuple(map(id, overlay)))
        else:
            key = (node, None)
        return self._table.get(key) if key in self._context_free else None

    def record(self, node: ast.AST | None, msg: str, code: str, severity: str) -> None:
        held_from = self.held_from
        if self.open > held_from:  # (else no inference in progress may see it)
            self._log.append(((node, msg, code, severity), held_from))
            self.logged += 1

    def reported(self, start: int) -> tuple[Reported, ...]:
        """What the memoized inference that has just ended (`open` counted down
        past it) saw reported, each once, in order: the log's entries since
        `start`, where it stood when that inference began, made where it was
        not held back from (its position, the number of those in progress before
        it, is `open` now). The caller asks only where the log grew since
        (`logged` past `start`)."""
        log = self._log
        at = self.open
        seen = tuple(dict.fromkeys([diag for diag, first in log[start:] if first <= at]))
        if not at:
            log.clear()  # (none in progress: no one may see an entry)
            self.logged = 0
        return seen

    def end_epoch(self) -> None:
        """The outermost inference is over: nothing is kept past it."""
        # (Each emptied only if not empty: most epochs fill one or two of them.)
        if self._table:
            self._table.clear()
        if self._layers:
            self._layers.clear()
        if self._context_free:
            self._context_free.clear()
        if self._narrowed:
            self._narrowed.clear()
        self.silent = None
        self.binds = 0
        self.leaves = None
