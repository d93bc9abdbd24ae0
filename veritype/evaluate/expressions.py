"""Expression inference: the type of every expression form, with expected-type context.

Used two ways: by the checker walking a body (with flow-sensitive narrowed
types and error reporting), and lazily by declarations (no flow, silent).
The atoms, names and iteration protocols live here; calls in `call_expressions`,
await and yield in `expr_generators`, displays and comprehensions in
`expr_displays`, operators in `expr_operators`, attribute and subscript access
in `expr_access`, whose functions are ExprEvaluator's methods (`self` named `ex`).
"""

from __future__ import annotations

import ast

from veritype.evaluate import type_forms
from veritype.types.model import TypeFormType
from collections.abc import Callable
from typing import TYPE_CHECKING, Iterable

from veritype.evaluate.returns_value import allow_none_value
from veritype.evaluate.deprecation import enabled as deprecations_enabled
from veritype.diagnostics import bounds
from veritype.evaluate.infer_memo import _LEAVES, _MAY_BE_TYPE_FORM, MAX_EXPRESSION_DEPTH, InferMemo
from veritype.evaluate.scopes import SYMBOL_IN_PROGRESS, Scope
from veritype.evaluate.special import TYPING
from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.alias_ref import MAY_HOLD_REF, expand_top
from veritype.types.model import (
    ANY_ERROR, POS_OR_KW, AnyType, CallableType, Instance, NeverType, NoneType,
    Param, TupleType, Type, TypeVarType, UnionType,
    make_union, union_items, NEVER, NONE,
)
from veritype.types.subtype import is_subtype
from veritype.evaluate import call_expressions, expr_access, expr_displays, expr_generators, expr_operators, expr_unpacking
from veritype.evaluate.expr_access import as_tuple
from veritype.evaluate.lambda_context import covariant_lambda_params, lambda_context_mismatch
from veritype.evaluate.expr_operators import sibling_context
from veritype.evaluate.flow_view import FlowView, NullFlow
from veritype.evaluate.brace_format import check_fstring
from veritype.evaluate.narrowing import narrow_names
from veritype.evaluate.redundant_expr import check_condition
from veritype.evaluate.truthy_function import infer_condition
from veritype.evaluate.truthiness import never_false, never_true
from veritype.evaluate.walrus_final import check_final_target
from veritype.types.union_simplify import drop_covered_items

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

Reporter = Callable[[ast.AST | None, str, str, str], None]

# The classes of constants inferred as literals (bool, int, str, bytes).
_LITERAL_VALUES = frozenset((bool, int, str, bytes))

# The symbol kinds whose value `Evaluator.symbol_value_type` finds through a
# reference (an import, a class); the others' is their kept type.
_REFERENCE_KINDS = frozenset((S.CLASS, S.FROM_IMPORT, S.MODULE_REF))

# `_Name`'s mark of a name its scope has no kept answer for (None is a kept "not found").
_NOT_KNOWN = object()

# Node class -> unbound `ExprEvaluator._<Class>` method, filled on first use.
_HANDLERS: dict[type, Callable[..., Type]] = {}


class _Recording:
    """An `ExprEvaluator.recording` block (a class, not a generator: ~30k a run)."""
    __slots__ = ("ex", "forward", "seen", "outer", "held_from")

    def __init__(self, ex: "ExprEvaluator", forward: bool) -> None:
        self.ex, self.forward = ex, forward
        self.seen: list[tuple[ast.AST | None, str, str, str]] = []
        self.outer: Reporter | None = None
        self.held_from = 0

    def __enter__(self) -> list[tuple[ast.AST | None, str, str, str]]:
        ex, memo = self.ex, self.ex._memo
        self.outer, ex._report, self.held_from = ex._report, self.record, memo.held_from
        if not self.forward:
            # An inference in progress around this block did not report what
            # is held back here: its memo entry must not replay it (a trial of
            # `"{}".format(getattr(o, n, fn))`'s LiteralString item).
            memo.held_from = memo.open
        return self.seen

    def __exit__(self, *exc: object) -> None:
        self.ex._report = self.outer
        self.ex._memo.held_from = self.held_from

    def record(self, node: ast.AST | None, msg: str, code: str, severity: str) -> None:
        self.seen.append((node, msg, code, severity))
        if self.forward and self.outer is not None:
            self.outer(node, msg, code, severity)


class ExprEvaluator:
    # About 190k are made on the bench corpus (one per checked expression statement
    # and per narrowing question): slots make them smaller and quicker to set up.
    __slots__ = ("ev", "scope", "flow", "_report", "overlay", "conditions", "nested_in_class",
                 "in_lambda", "_memo", "memo", "options", "in_async", "yield_types", "_deprecations", "on_walrus")

    def __init__(self, ev: "Evaluator", scope: Scope | None, flow: FlowView | None = None, report: Reporter | None = None, deprecations: bool | None = None) -> None:
        self.ev = ev
        self.scope = scope
        self.flow: FlowView = flow if flow is not None else NullFlow()
        self._report = report
        self.overlay: list[dict[str, Type]] = []  # comprehension and lambda variables
        self.conditions: set[int] = set()  # ids of expressions tested for truth (truthy_function)
        # Inside a lambda or comprehension (past its first iterable): a class body's
        # names are not visible there (Python's scoping), so lookups skip the class.
        self.nested_in_class = 0
        self.in_lambda = 0  # a lambda's body runs later: no possibly-undefined there
        # The inference memo, as `memo` for narrowing, which reads the answers of the
        # evaluator it asks for (a slot, not a property: asked for each question).
        self._memo = self.memo = InferMemo()
        options = self.options = ev.program.options
        # Hooks the checker sets: special calls (reveal_type...) and await checks.
        self.in_async = False
        # The checker's: told each walrus-bound name and its value's type (check.inferred_decls).
        self.on_walrus: Callable[[ast.Name, Type], None] | None = None
        # (yield type, send type) of the enclosing generator when declared.
        self.yield_types: tuple[Type, Type] | None = None
        # The off-by-default `deprecated` code is on (`deprecations`: known by the maker).
        if deprecations is None:
            # (`deprecation.enabled`'s kept answer, read here: most evaluators are made
            # by the checker, which does not know it.)
            kept = ev.deprecations_enabled
            deprecations = kept[1] if kept is not None and kept[0] is options else deprecations_enabled(ev)
        self._deprecations = deprecations

    def silent(self, flow: FlowView | None = None) -> "ExprEvaluator":
        """A non-reporting evaluator that sees what this one sees where it stands (its flow, or `flow`; its
        overlay; in a class-body comprehension, a lambda, a coroutine, a generator), to ask questions with."""
        silent = ExprEvaluator(self.ev, self.scope, flow if flow is not None else self.flow, None, self._deprecations)
        silent.overlay, silent.nested_in_class, silent.in_lambda = self.overlay, self.nested_in_class, self.in_lambda
        silent.in_async, silent.yield_types = self.in_async, self.yield_types
        return silent

    def stands_where(self, other: "ExprEvaluator") -> bool:
        """Whether this one stands where `other` does, in all that `silent` copies."""
        return (self.overlay is other.overlay and self.nested_in_class == other.nested_in_class and self.in_lambda == other.in_lambda
                and self.in_async == other.in_async and self.yield_types is other.yield_types)

    def reusable(self, scope: Scope | None, flow: FlowView, report: Reporter | None) -> bool:
        """Whether this evaluator can serve as a new one made with `scope`,
        `flow` and `report`, made ready for it if so. It can when idle: no
        inference, recording, lambda or comprehension of its own in progress
        (it may be asked for from inside one). What an idle one keeps is then
        dropped: its memo's last epoch (infer_memo: context-free marks, the
        count of walrus binds that stops sharing, see `InferMemo.shared`) and
        the conditions it marked (truthy_function). Its `in_async` and
        `yield_types` stay: the caller (ModuleChecker.exprs) sets them on a new
        evaluator only, as they change with the function, which makes a new
        flow (so no evaluator is reused across functions)."""
        memo = self._memo
        # (`!=` for the reporter: a bound method is made anew at each access.)
        if (self.scope is not scope or self.flow is not flow or self._report != report
                or memo.depth or self.overlay or self.nested_in_class or self.in_lambda):
            return False
        if memo._context_free or memo.binds:  # (what an epoch that memoized nothing leaves)
            memo.end_epoch()
        if self.conditions:
            self.conditions = set()
        return True

    # -- reporting ------------------------------------------------------------

    def error(self, node: ast.AST | None, msg: str, code: str) -> None:
        self._emit(node, msg, code, "error")

    def note(self, node: ast.AST | None, msg: str) -> None:
        self._emit(node, msg, "note", "note")

    def type_report(self, node: ast.AST | None, msg: str, code: str) -> None:
        """A report of a type expression read here (type_context.Reporter):
        under the code "note", a note on the error before it."""
        self._emit(node, msg, code, "note" if code == "note" else "error")

    def _emit(self, node: ast.AST | None, msg: str, code: str, severity: str) -> None:
        # The inference memo keeps what each memoized inference reported, to
        # report it again on a hit (an overload item's trial records them).
        self._memo.record(node, msg, code, severity)
        if self._report is not None:
            self._report(node, msg, code, severity)

    @property
    def reporting(self) -> bool:
        return self._report is not None

    def recording(self, forward: bool) -> "_Recording":
        """Record what is reported while the block runs, as (node, message,
        code, severity), passing it on only if `forward`: an overload item is
        tried with its arguments' errors held back (mypy's filter_errors), an
        item whose arguments have errors of their own does not match, and the
        matching item's are reported by `replay` (not by checking it again)."""
        return _Recording(self, forward)

    def replay(self, reported: Iterable[tuple[ast.AST | None, str, str, str]]) -> None:
        """Report again what a `recording` block held back, as if it ran again here."""
        for diag in reported:
            self._emit(*diag)

    def _report_deprecated(self, node: ast.Name | ast.Attribute, t: Type) -> None:
        from veritype.evaluate import deprecation

        msg = deprecation.reference_message(t)
        if msg is None and isinstance(node, ast.Attribute):
            msg = deprecation.property_message(self.ev, self.infer(node.value), node.attr, setter=False)
        if msg is None:
            return
        # The name's symbol is looked up only for a deprecated value (this runs
        # for every name and attribute read).
        if isinstance(node, ast.Name) and self.scope is not None:
            hit = self.ev.lookup(node.id, self.scope)
            if hit is not None and hit[0].kind == "from":  # symbols.FROM_IMPORT
                return  # reported once, at the `from` import (as mypy)
        self.error(node, msg, "deprecated")

    # -- entry ------------------------------------------------------------------

    def infer(self, node: ast.expr, expected: Type | None = None) -> Type:
        # Each (expression, expected type) is inferred once per outermost call
        # (evaluate.infer_memo): nested calls would otherwise cost 2**depth.
        memo = self._memo
        cls = type(node)
        if (cls is ast.Name or cls is ast.Constant) and (expected is None or type(expected) not in _MAY_BE_TYPE_FORM) and memo.depth < MAX_EXPRESSION_DEPTH:
            # A leaf (most inferences): never memoized (below), and it infers
            # nothing of this evaluator's itself, so the depth it would count is
            # read by nothing and no epoch ends under it. An outermost one ends
            # the epoch an inference left (what the general path does when it
            # ends: nothing a leaf reads is dropped). A leaf's type is the same
            # under any expected type but one that may ask for a type form (see
            # _infer_uncached): such a one is no other here.
            if not memo.depth and (memo._table or memo._layers):
                memo.end_epoch()
            if cls is ast.Constant:
                # `None`, or a literal made before (`Evaluator.literal`'s kept
                # value, read directly: 54k of the 60k asked are repeats): what
                # `_Constant` gives, with nothing for `_finish` to do (no
                # reference, no alias at its top).
                value = node.value  # type: ignore[attr-defined]
                if value is None:
                    return NONE
                made = self.ev._literals.get((value, type(value)))
                if made is not None:
                    return made
            try:
                if cls is ast.Constant:
                    result = self._Constant(node, None)  # type: ignore[arg-type]
                else:
                    # `_Name`, its overlay and flow written out (most names read are found
                    # there: a comprehension's or narrowed variable, a narrowed parameter).
                    name = node.id  # type: ignore[attr-defined]
                    result = None  # type: ignore[assignment]
                    overlay = self.overlay
                    if overlay:
                        for layer in reversed(overlay):
                            if name in layer:
                                result = layer[name]
                                break
                    if result is None:
                        flow = self.flow
                        undefined = flow.undefined
                        if undefined is not None and not self.in_lambda and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
                            undefined.read(node)  # possibly-undefined (check.possibly_undefined)
                        scope = self.scope
                        if self.nested_in_class and scope is not None and scope.kind == "class" and scope.parent is not None:
                            result = self._scope_name(node, name, scope.parent)  # type: ignore[arg-type]
                        else:
                            result = flow.lookup(name)
                            if result is None:
                                result = self._scope_name(node, name, scope)  # type: ignore[arg-type]
            except RecursionError:
                bounds.hit("recursion limit in an expression's inference", self._where(node))
                return AnyType("special")
            if self._deprecations:
                result = self._finish(node, result)
            elif type(result) in MAY_HOLD_REF:
                result = expand_top(result)  # (`_finish`'s alias test, asked only where it may hold)
            if memo.leaves is not None and cls is ast.Name and expected is None and not self.overlay and not self.nested_in_class:
                memo.leaves[node] = result  # (an `if` test's names, for its narrowing: InferMemo.held)
            return result
        if memo.depth >= MAX_EXPRESSION_DEPTH:
            # A chain like `1 + 1 + ...` 50,000 long: Any past the bound, so that
            # the stack is never exhausted inside some lazy evaluation (issue #19).
            if memo.depth == MAX_EXPRESSION_DEPTH:
                bounds.hit(f"expression nested deeper than {MAX_EXPRESSION_DEPTH}", self._where(node))
            return AnyType("special")
        # Leaves (a name, a constant) are never memoized: tested here, not in memo.key,
        # because most inferences are of leaves. The table is read and written directly,
        # and memo.key's answer where no expected type or overlay is given (most) too.
        key: tuple[object, ...] | None
        if not memo.depth:
            key = None
        elif expected is None:
            # (No leaf: one inferred without context inside another took the path above.)
            overlay = self.overlay
            if not overlay:
                key = (node, None)
            else:
                # (`memo.key`'s answer, written out: the layers kept alive for the epoch.)
                memo._layers.extend(overlay)
                key = (node, None, tuple(map(id, overlay)))
        elif cls in _LEAVES:
            key = None
        else:
            key = memo.key(node, expected, self.overlay)
        if key is not None:
            try:
                hit = memo._table.get(key)
            except TypeError:  # an expected type holding something unhashable: inferred afresh, not kept
                key = hit = None
            if hit is not None:
                t, reported = hit
                for diag in reported:
                    self._emit(*diag)
                return t
        memo.depth += 1
        if key is not None:
            start = memo.logged  # (what it reports is logged from here: InferMemo.reported)
            memo.open += 1
        try:
            if expected is None and cls in _HANDLERS:
                # The common case, without a call of _infer_uncached: no context,
                # a node class seen before.
                result = _HANDLERS[cls](self, node, None)
                if self._deprecations:
                    result = self._finish(node, result)
                elif type(result) in MAY_HOLD_REF:
                    result = expand_top(result)  # (as for a leaf above)
            else:
                result = self._infer_uncached(node, expected)
        except RecursionError:
            bounds.hit("recursion limit in an expression's inference", self._where(node))
            result = AnyType("special")
        finally:
            memo.depth -= 1
            if key is not None:
                memo.open -= 1
                reported = memo.reported(start) if memo.logged > start else ()
            if memo.depth == 0 and (memo._table or memo._layers):
                memo.end_epoch()
        if key is not None and memo.depth:
            memo._table[key] = (result, reported)
        return result

    def _infer_uncached(self, node: ast.expr, expected: Type | None) -> Type:
        # One dict lookup by node class instead of building "_" + class name
        # and a getattr on every inference (the hottest entry of the checker).
        cls = type(node)
        method = _HANDLERS.get(cls)
        if method is None:
            method = getattr(type(self), "_" + cls.__name__, None)
            if method is None:
                return AnyType("special")
            _HANDLERS[cls] = method
        if expected is not None and type(expected) in MAY_HOLD_REF:
            expected = expand_top(expected)
        # (expects_type_form's own first test written out: most expected types are neither.)
        if (type(expected) is TypeFormType or type(expected) is UnionType) and type_forms.expects_type_form(expected, node) and self.scope is not None and isinstance(node, type_forms.SHAPES):
            form = type_forms.implicit_type_form(self.ev, node, self.scope)
            # Inside a union (`Literal["int"] | TypeForm[int]`), only where the
            # type form fits: the value may be the union's other member.
            if form is not None and expected is not None and (type(expected) is TypeFormType or is_subtype(self.ev, form, expected)):
                return form
        result = method(self, node, expected)
        return self._finish(node, result) if self._deprecations or type(result) in MAY_HOLD_REF else result

    def _finish(self, node: ast.expr, result: Type) -> Type:
        """`result` of inferring `node`: its use of a deprecated name reported, and
        an alias reference at its top expanded."""
        cls = type(node)
        if self._deprecations and (cls is ast.Name or cls is ast.Attribute) and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            self._report_deprecated(node, result)  # type: ignore[arg-type]
        # A part of a recursive alias's value (`x[0]` of a `list[Json]`) is a
        # reference to it: what an expression gives is always its value.
        return expand_top(result) if type(result) in MAY_HOLD_REF else result  # (it tests the items itself)

    def _where(self, node: ast.AST) -> str:
        path = self.scope.module.path if self.scope is not None else "?"
        return f"{path}:{getattr(node, 'lineno', '?')}"

    # -- atoms ------------------------------------------------------------------

    def _Constant(self, node: ast.Constant, expected: Type | None) -> Type:
        v = node.value
        if v is None:
            return NONE
        if type(v) in _LITERAL_VALUES:  # exact classes: the parser makes no subclasses
            made = self.ev._literals.get((v, type(v)))  # (`literal`'s kept value, read directly)
            return made if made is not None else self.ev.literal(v)
        if isinstance(v, float):
            return self.ev.builtin("float")
        if isinstance(v, complex):
            return self.ev.builtin("complex")
        if v is Ellipsis:
            t = self.ev.instance("builtins.ellipsis")
            return t if isinstance(t, Instance) else self.ev.instance("types.EllipsisType")
        return AnyType("special")

    def _JoinedStr(self, node: ast.JoinedStr, expected: Type | None) -> Type:
        values: list[tuple[ast.FormattedValue, Type]] = []
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                values.append((v, self.infer(v.value)))
                if v.format_spec is not None:
                    self.infer(v.format_spec)
        if values and self.reporting:
            check_fstring(self, node, values)
        return self.ev.builtin("str")

    def _FormattedValue(self, node: ast.FormattedValue, expected: Type | None) -> Type:
        self.infer(node.value)
        return self.ev.builtin("str")

    def _Name(self, node: ast.Name, expected: Type | None) -> Type:
        # (`infer` reads a leaf name's flow itself, as here: change both together.)
        # Read for every name: locals for what is read more than once.
        name, overlay, flow = node.id, self.overlay, self.flow
        if overlay:
            for layer in reversed(overlay):
                if name in layer:
                    return layer[name]
        undefined = flow.undefined
        if undefined is not None and not self.in_lambda and isinstance(node.ctx, ast.Load):
            undefined.read(node)  # possibly-undefined (check.possibly_undefined)
        scope = self.scope
        if self.nested_in_class and scope is not None and scope.kind == "class" and scope.parent is not None:
            # `time: float = field(default_factory=lambda: time())`: the lambda's
            # `time` is the module's function, not the class attribute.
            scope = scope.parent
        else:
            narrowed = flow.lookup(name)
            if narrowed is not None:
                return narrowed
        return self._scope_name(node, name, scope)

    def _scope_name(self, node: ast.Name, name: str, scope: Scope | None) -> Type:
        """The name `node` read in `scope` where no overlay or flow narrows it."""
        if scope is None:
            return AnyType("special")
        ev = self.ev
        if ev.type_params_seen and scope.lookup_type_param(name) is not None:
            return AnyType("special")
        # `ev.lookup`'s answer kept on the scope, read directly where there is one
        # (most names were read before in their scope): a symbol alone is one
        # found in the scope itself (see Evaluator.lookup).
        known = scope.known
        kept = known[name] if name in known else _NOT_KNOWN
        if type(kept) is Symbol:
            sym = kept
        else:
            hit = kept if kept is not _NOT_KNOWN else ev.lookup(name, scope)
            if hit is None:
                if node.id in ("__name__", "__file__", "__doc__", "__qualname__", "__module__", "__package__"):
                    return self.ev.builtin("str")
                if node.id == "__debug__":
                    return self.ev.builtin("bool")
                if node.id in ("__builtins__", "__spec__", "__loader__", "__path__", "__annotations__", "__dict__", "__class__", "reveal_type", "reveal_locals"):
                    return AnyType("special")
                self.error(node, f'Name "{node.id}" is not defined', "name-defined")
                return ANY_ERROR
            sym, scope = hit  # type: ignore[misc]
        if scope is self.scope and scope.kind == "class" and scope.parent is not None and _all_after(sym.decls, node):
            # A class body runs top to bottom: a name its class binds only later
            # (`json_module = json` before `def json`) is still the enclosing one.
            outer = ev.lookup(name, scope.parent)
            if outer is not None:
                sym, scope = outer
        if sym.kind not in _REFERENCE_KINDS and (scope.kind != "module" or scope.module.name not in TYPING):
            # `symbol_value_type`'s answer for a plain variable, parameter or function
            # evaluated before (most names read): its kept type.
            cached = sym.cache.get("type")
            if cached is not None and cached is not SYMBOL_IN_PROGRESS:
                return cached  # type: ignore[return-value]
        return ev.symbol_value_type(sym, scope)

    # -- displays -------------------------------------------------------------------

    _container_item_context = expr_displays.container_item_context
    _seq_display = expr_displays.seq_display
    _List = expr_displays.infer_list
    _Set = expr_displays.infer_set
    _Tuple = expr_displays.infer_tuple
    _Dict = expr_displays.infer_dict
    _fits_typeddict = expr_displays.fits_typeddict
    _typeddict_display = expr_displays.typeddict_display
    _mapping_kv = expr_displays.mapping_kv
    # -- comprehensions ---------------------------------------------------------------

    _comprehension = expr_displays.comprehension
    def narrow_for(self, test: ast.expr, positive: bool) -> dict[str, Type]:
        return narrow_names(self, test, positive)

    _ListComp = expr_displays.infer_list_comp
    _SetComp = expr_displays.infer_set_comp
    _DictComp = expr_displays.infer_dict_comp
    _dict_context = expr_displays.dict_context
    _GeneratorExp = expr_displays.infer_generator_exp
    # -- lambda ---------------------------------------------------------------------

    def _Lambda(self, node: ast.Lambda, expected: Type | None) -> Type:
        ctx = None
        for item in union_items(expected) if expected is not None else []:
            if isinstance(item, CallableType):
                ctx = item
                break
            if isinstance(item, Instance):
                call = self.ev.instance_call_signature(item)
                if call is not None:
                    ctx = call
                    break
        if ctx is not None and lambda_context_mismatch(node, ctx, expected):
            self.error(node, "Cannot infer type of lambda", "misc")
            ctx = None  # inferred without the context, as mypy
        args = node.args
        all_args = [*args.posonlyargs, *args.args]
        layer: dict[str, Type] = {}
        params: list[Param] = []
        ctx_pos = [p for p in ctx.params if p.kind in (0, 1)] if ctx is not None and not ctx.is_ellipsis else []
        for i, a in enumerate(all_args):
            t: Type = ctx_pos[i].type if i < len(ctx_pos) else AnyType("unannotated")
            if isinstance(t, TypeVarType) and t.scope and ctx is not None and t in ctx.type_vars:
                t = AnyType("special")
            layer[a.arg] = t
            params.append(Param(a.arg, t, POS_OR_KW, i >= len(all_args) - len(args.defaults)))
        for a, default in zip(args.kwonlyargs, args.kw_defaults):
            layer[a.arg] = AnyType("unannotated")
            params.append(Param(a.arg, AnyType("unannotated"), 3, default is not None))
        if args.vararg:
            layer[args.vararg.arg] = self.ev.builtin("tuple", AnyType("unannotated"))
            params.append(Param(args.vararg.arg, AnyType("unannotated"), 2))
        if args.kwarg:
            layer[args.kwarg.arg] = self.ev.builtin("dict", self.ev.builtin("str"), AnyType("unannotated"))
            params.append(Param(args.kwarg.arg, AnyType("unannotated"), 4))
        if ctx is not None and covariant_lambda_params(params):
            self.error(node, "Cannot use a covariant type variable as a parameter", "misc")
        self.overlay.append(layer)
        self.nested_in_class += 1
        self.in_lambda += 1
        try:
            ret_ctx = ctx.ret if ctx is not None and not isinstance(ctx.ret, TypeVarType) else None
            allow_none_value(node.body)  # a lambda's result may be None
            ret = self.infer(node.body, ret_ctx)
        finally:
            self.overlay.pop()
            self.nested_in_class -= 1
            self.in_lambda -= 1
        if ctx is not None and ctx.ret is not None and isinstance(ctx.ret, NoneType):
            pass
        return CallableType(tuple(params), widen_literals(ret), name="lambda")

    # -- operators ---------------------------------------------------------------------

    _BoolOp = expr_operators.infer_bool_op
    _UnaryOp = expr_operators.infer_unary_op
    _BinOp = expr_operators.infer_bin_op
    _is_type_form = expr_operators.is_type_form
    binary = expr_operators.binary
    _binary_one = expr_operators.binary_one
    operand_message = expr_operators.operand_message
    _binary_pair = expr_operators.binary_pair
    _has_any_base = expr_operators.has_any_base
    _try_call = expr_operators.try_call
    _call_known = expr_operators.call_known
    _strict_equality = expr_operators.strict_equality
    _stored_widened = expr_operators.stored_widened
    _Compare = expr_operators.infer_compare
    # -- attribute, subscript ------------------------------------------------------------

    _Attribute = expr_access.infer_attribute
    _hidden_reexport = expr_access.hidden_reexport
    member_access = expr_access.member_access
    _Subscript = expr_access.infer_subscript
    _variadic_subscript = expr_access.variadic_subscript
    subscript = expr_access.subscript
    _Slice = expr_access.infer_slice
    def _Starred(self, node: ast.Starred, expected: Type | None) -> Type:
        self.infer(node.value)
        return AnyType("special")

    # -- conditional, walrus, await, yield ------------------------------------------------

    def _IfExp(self, node: ast.IfExp, expected: Type | None) -> Type:
        tested = infer_condition(self, node.test)
        check_condition(self, node.test, tested, "")
        # mypy's analyze_cond_branch: a branch the test rules out (a name it narrows
        # to Never, or a test with no true / no false value, as `check_if` decides
        # for statements) is Never, and its errors are not reported: `"a" if
        # isinstance(x, str) else None` with `x: int` is None.
        a = self._cond_branch(node.body, node.test, True, never_true(self.ev, tested), expected)
        b_expected = sibling_context(expected, node.orelse, a)
        b = self._cond_branch(node.orelse, node.test, False, never_false(self.ev, tested), b_expected)
        # mypy's make_simplified_union of the two: `v if isinstance(v, tuple) else
        # (v,)` is `tuple[Any, ...]`, the 1-tuple covered (yarl's _query.py).
        return drop_covered_items(make_union([a, b]))

    def _cond_branch(self, branch: ast.expr, test: ast.expr, positive: bool, impossible: bool, expected: Type | None) -> Type:
        """One branch of a conditional expression under the test's narrowing;
        Never, not inferred, where the test rules it out (`impossible`: the test's
        type has no true / no false value)."""
        narrowed = self.narrow_for(test, positive)
        if impossible or rules_out(narrowed):
            return NEVER
        self.overlay.append(narrowed)
        try:
            return self.infer(branch, expected)
        finally:
            self.overlay.pop()

    def _NamedExpr(self, node: ast.NamedExpr, expected: Type | None) -> Type:
        t = self.infer(node.value, expected)
        self._memo.binds += 1  # the flow changes under the memoized answers (InferMemo.shared)
        if isinstance(node.target, ast.Name):
            check_final_target(self, node.target)
            declared = self.declared_of(node.target.id)
            if declared is not None and not is_subtype(self.ev, t, declared):
                self.error(node.value, f'Incompatible types in assignment (expression has type "{format_type(t)}", variable has type "{format_type(declared)}")', "assignment")
            self.flow.bind(node.target.id, t)
            if self.overlay:
                self.overlay[-1][node.target.id] = t
            if self.on_walrus is not None and not self.in_lambda:  # (a lambda's walrus binds in the lambda)
                self.on_walrus(node.target, t)
        return t

    def declared_of(self, name: str) -> Type | None:
        if self.scope is None:
            return None
        hit = self.ev.lookup(name, self.scope)
        if hit is None:
            return None
        return self.ev.declared_type(*hit)

    _Await = expr_generators.infer_await
    awaited = expr_generators.awaited
    _generator_return = expr_generators.generator_return
    _Yield = expr_generators.infer_yield
    _YieldFrom = expr_generators.infer_yield_from

    # -- calls (call_expressions) ---------------------------------------------------------

    _Call = call_expressions.infer_call
    call_args = call_expressions.call_args
    _call_node = call_expressions.call_node
    context_free_call = call_expressions.context_free_call
    call_with_types = call_expressions.call_with_types

    # -- iteration, context managers, unpacking ----------------------------------------

    def iterate(self, t: Type, node: ast.AST | None, is_async: bool = False, unpacking: bool = False) -> Type:
        results: list[Type] = []
        for item in union_items(t):
            item = as_tuple(item)
            if isinstance(item, AnyType):
                results.append(item)
                continue
            if isinstance(item, TupleType) and not is_async:
                from veritype.types.tuples import value_items

                results.append(make_union(value_items(item)) if item.items else NeverType())
                continue
            name, nxt = ("__aiter__", "__anext__") if is_async else ("__iter__", "__next__")
            it = self.ev.bound_member(item, name)
            if it is None and not is_async:
                getitem = self.ev.bound_member(item, "__getitem__")
                if getitem is not None:
                    results.append(self._call_known(getitem, [self.ev.builtin("int")], node or ast.Pass()))
                    continue
            if it is None:
                kind = "async iterable" if is_async else "iterable"
                if unpacking:
                    # `a, b = x` reports under mypy's code for it, so that a
                    # `# type: ignore[misc]` written for mypy covers us too.
                    self.error(node, f'"{format_type(widen_literals(item))}" object is not iterable', "misc")
                else:
                    self.error(node, f'"{format_type(widen_literals(item))}" has no attribute "{name}" (not {kind})', "attr-defined")
                results.append(ANY_ERROR)
                continue
            iterator = self._call_known(it, [], node or ast.Pass())
            nxt_m = self.ev.bound_member(iterator, nxt)
            if nxt_m is None:
                results.append(AnyType("special"))
                continue
            value = self._call_known(nxt_m, [], node or ast.Pass())
            if is_async:
                value = self.awaited(value, None)
            results.append(value)
        return make_union(results)

    def enter(self, t: Type, node: ast.AST | None, is_async: bool = False) -> Type:
        results: list[Type] = []
        name = "__aenter__" if is_async else "__enter__"
        for item in union_items(t):
            if isinstance(item, AnyType):
                results.append(item)
                continue
            m = self.ev.bound_member(item, name)
            exit_name = "__aexit__" if is_async else "__exit__"
            if self.ev.bound_member(item, exit_name) is None and not self._has_any_base(item):
                # mypy reports the missing exit method too (after the enter one).
                if m is None:
                    self.error(node, f'"{format_type(widen_literals(item))}" has no attribute "{name}"', "attr-defined")
                self.error(node, f'"{format_type(widen_literals(item))}" has no attribute "{exit_name}"', "attr-defined")
                results.append(ANY_ERROR)
                continue
            if m is None:
                self.error(node, f'"{format_type(widen_literals(item))}" has no attribute "{name}"', "attr-defined")
                results.append(ANY_ERROR)
                continue
            r = self._call_known(m, [], node or ast.Pass())
            if is_async:
                r = self.awaited(r, None)
            results.append(r)
        return make_union(results)

    # -- unpacking ---------------------------------------------------------------------

    unpack = expr_unpacking.unpack
    assign_types = expr_unpacking.assign_types
    exception_instance = expr_unpacking.exception_instance


def _all_after(decls: "list[ast.AST]", node: ast.expr) -> bool:
    """Every declaration in `decls` starts after `node` (by line, then column)."""
    if not decls:
        return False
    here = (node.lineno, node.col_offset)
    return all(isinstance(d, ast.stmt) and (d.lineno, d.col_offset) > here for d in decls)


def rules_out(narrowed: dict[str, Type]) -> bool:
    """A narrowing that leaves some name no value: its branch is unreachable
    (for `if` statements and conditional expressions alike)."""
    for t in narrowed.values():
        if type(t) is NeverType:
            return True
    return False
