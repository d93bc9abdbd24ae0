"""Expression inference: the type of every expression form, with expected-type context.

Used two ways: by the checker walking a body (with flow-sensitive narrowed
types and error reporting), and lazily by declarations (no flow, silent).
Operators go through the dunder protocol with reflected operands, as the
data model says.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator, Protocol

from veritype.evaluate.calls import ARG_KW, ARG_POS, ARG_STAR, ARG_STAR2, Arg, CallSite, call_type
from veritype.evaluate.infer_memo import MAX_EXPRESSION_DEPTH, InferMemo
from veritype.evaluate.scopes import Scope
from veritype.types.format import format_pair, format_type
from veritype.types.join import join_all, join_display, widen_literals
from veritype.types.alias_ref import expand_top, has_top_ref
from veritype.types.model import (
    ANY_ERROR, POS_OR_KW, AnyType, CallableType, Instance, LiteralType, ModuleType, NeverType, NoneType,
    Overloaded, Param, SpecialForm, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType, UnpackType,
    make_union, union_items, NONE,
)
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

Reporter = Callable[[ast.AST | None, str, str, str], None]

BINOP_DUNDERS = {
    ast.Add: ("__add__", "__radd__", "+"), ast.Sub: ("__sub__", "__rsub__", "-"),
    ast.Mult: ("__mul__", "__rmul__", "*"), ast.MatMult: ("__matmul__", "__rmatmul__", "@"),
    ast.Div: ("__truediv__", "__rtruediv__", "/"), ast.FloorDiv: ("__floordiv__", "__rfloordiv__", "//"),
    ast.Mod: ("__mod__", "__rmod__", "%"), ast.Pow: ("__pow__", "__rpow__", "**"),
    ast.LShift: ("__lshift__", "__rlshift__", "<<"), ast.RShift: ("__rshift__", "__rrshift__", ">>"),
    ast.BitAnd: ("__and__", "__rand__", "&"), ast.BitOr: ("__or__", "__ror__", "|"),
    ast.BitXor: ("__xor__", "__rxor__", "^"),
}
COMPARE_DUNDERS = {
    ast.Lt: ("__lt__", "__gt__", "<"), ast.LtE: ("__le__", "__ge__", "<="),
    ast.Gt: ("__gt__", "__lt__", ">"), ast.GtE: ("__ge__", "__le__", ">="),
}
UNARY_DUNDERS = {ast.USub: ("__neg__", "-"), ast.UAdd: ("__pos__", "+"), ast.Invert: ("__invert__", "~")}


class FlowView(Protocol):
    """What expression inference needs of flow analysis: a name's (or a member
    chain's, `a.b`) narrowed type, and binding one (walrus targets). The
    checker's `check.flow.Flow` is one; `NullFlow` is the flow-less one."""

    def lookup(self, key: str) -> Type | None: ...

    def bind(self, key: str, t: Type) -> None: ...


class NullFlow:
    """No flow analysis: names have their declared types."""

    def lookup(self, key: str) -> Type | None:
        return None

    @contextmanager
    def condition(self, ev: "ExprEvaluator", test: ast.expr, positive: bool) -> Iterator[None]:
        yield

    def bind(self, key: str, t: Type) -> None:
        pass


# Node class -> unbound `ExprEvaluator._<Class>` method, filled on first use.
_HANDLERS: dict[type, Callable[..., Type]] = {}


class ExprEvaluator:
    def __init__(self, ev: "Evaluator", scope: Scope | None, flow: FlowView | None = None, report: Reporter | None = None) -> None:
        self.ev = ev
        self.scope = scope
        self.flow: FlowView = flow if flow is not None else NullFlow()
        self._report = report
        self.overlay: list[dict[str, Type]] = []  # comprehension and lambda variables
        # Inside a lambda or comprehension (past its first iterable): a class body's
        # names are not visible there (Python's scoping), so lookups skip the class.
        self.nested_in_class = 0
        self._memo = InferMemo()
        self.options = ev.program.options
        # Hooks the checker sets: special calls (reveal_type...) and await checks.
        self.in_async = False
        # (yield type, send type) of the enclosing generator when declared.
        self.yield_types: tuple[Type, Type] | None = None

    # -- reporting ------------------------------------------------------------

    def error(self, node: ast.AST | None, msg: str, code: str) -> None:
        self._emit(node, msg, code, "error")

    def note(self, node: ast.AST | None, msg: str) -> None:
        self._emit(node, msg, "note", "note")

    def _emit(self, node: ast.AST | None, msg: str, code: str, severity: str) -> None:
        # The inference memo keeps what each memoized inference reported, to
        # report it again on a hit (an overload item's trial records them).
        self._memo.record(node, msg, code, severity)
        if self._report is not None:
            self._report(node, msg, code, severity)

    @property
    def reporting(self) -> bool:
        return self._report is not None

    @contextmanager
    def recording(self, forward: bool) -> Iterator[list[tuple[int, str]]]:
        """Record the errors reported while the block runs, as (node id,
        message), passing them on only if `forward`: an overload item is tried
        with its arguments' errors held back (mypy's filter_errors), and an item
        whose arguments have errors of their own does not match."""
        seen: list[tuple[int, str]] = []
        outer = self._report

        def record(node: ast.AST | None, msg: str, code: str, severity: str) -> None:
            if severity == "error":
                seen.append((id(node), msg))
            if forward and outer is not None:
                outer(node, msg, code, severity)

        self._report = record
        try:
            yield seen
        finally:
            self._report = outer

    # -- entry ------------------------------------------------------------------

    def infer(self, node: ast.expr, expected: Type | None = None) -> Type:
        # Each (expression, expected type) is inferred once per outermost call
        # (evaluate.infer_memo): nested calls would otherwise cost 2**depth.
        memo = self._memo
        if memo.depth >= MAX_EXPRESSION_DEPTH:
            # A chain like `1 + 1 + ...` 50,000 long: Any past the bound, so that
            # the stack is never exhausted inside some lazy evaluation (issue #19).
            return AnyType("special")
        key = memo.key(node, expected, self.overlay) if memo.depth else None
        if key is not None:
            hit = memo.get(key)
            if hit is not None:
                t, reported = hit
                for diag in reported:
                    self._emit(*diag)
                return t
        memo.enter(key is not None)
        try:
            result = self._infer_uncached(node, expected)
        finally:
            reported = memo.leave(key is not None)
        if key is not None and memo.depth:
            memo.put(key, result, reported)
        return result

    def _infer_uncached(self, node: ast.expr, expected: Type | None) -> Type:
        try:
            # One dict lookup by node class instead of building "_" + class name
            # and a getattr on every inference (the hottest entry of the checker).
            cls = type(node)
            method = _HANDLERS.get(cls)
            if method is None:
                method = getattr(type(self), "_" + cls.__name__, None)
                if method is None:
                    return AnyType("special")
                _HANDLERS[cls] = method
            if expected is not None and has_top_ref(expected):
                expected = expand_top(expected)
            result = method(self, node, expected)
            # A part of a recursive alias's value (`x[0]` of a `list[Json]`) is a
            # reference to it: what an expression gives is always its value.
            return expand_top(result) if has_top_ref(result) else result
        except RecursionError:
            return AnyType("special")

    # -- atoms ------------------------------------------------------------------

    def _Constant(self, node: ast.Constant, expected: Type | None) -> Type:
        v = node.value
        if v is None:
            return NONE
        if isinstance(v, (bool, int, str, bytes)):
            return self.ev.literal(v)
        if isinstance(v, float):
            return self.ev.builtin("float")
        if isinstance(v, complex):
            return self.ev.builtin("complex")
        if v is Ellipsis:
            t = self.ev.instance("builtins.ellipsis")
            return t if isinstance(t, Instance) else self.ev.instance("types.EllipsisType")
        return AnyType("special")

    def _JoinedStr(self, node: ast.JoinedStr, expected: Type | None) -> Type:
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                self.infer(v.value)
                if v.format_spec is not None:
                    self.infer(v.format_spec)
        return self.ev.builtin("str")

    def _FormattedValue(self, node: ast.FormattedValue, expected: Type | None) -> Type:
        self.infer(node.value)
        return self.ev.builtin("str")

    def _Name(self, node: ast.Name, expected: Type | None) -> Type:
        for layer in reversed(self.overlay):
            if node.id in layer:
                return layer[node.id]
        scope = self.scope
        if self.nested_in_class and scope is not None and scope.kind == "class" and scope.parent is not None:
            # `time: float = field(default_factory=lambda: time())`: the lambda's
            # `time` is the module's function, not the class attribute.
            scope = scope.parent
        else:
            narrowed = self.flow.lookup(node.id)
            if narrowed is not None:
                return narrowed
        if scope is None:
            return AnyType("special")
        tp = scope.lookup_type_param(node.id)
        if tp is not None:
            return AnyType("special")
        hit = self.ev.lookup(node.id, scope)
        if hit is None:
            if node.id in ("__name__", "__file__", "__doc__", "__qualname__", "__module__", "__package__"):
                return self.ev.builtin("str")
            if node.id == "__debug__":
                return self.ev.builtin("bool")
            if node.id in ("__builtins__", "__spec__", "__loader__", "__path__", "__annotations__", "__dict__", "__class__", "reveal_type", "reveal_locals"):
                return AnyType("special")
            self.error(node, f'Name "{node.id}" is not defined', "name-defined")
            return ANY_ERROR
        sym, scope = hit
        if scope is self.scope and scope.kind == "class" and scope.parent is not None and _all_after(sym.decls, node):
            # A class body runs top to bottom: a name its class binds only later
            # (`json_module = json` before `def json`) is still the enclosing one.
            outer = self.ev.lookup(node.id, scope.parent)
            if outer is not None:
                sym, scope = outer
        return self.ev.ref_value_type(self.ev.resolve_symbol(sym, scope))

    # -- displays -------------------------------------------------------------------

    def _container_item_context(self, expected: Type | None, names: tuple[str, ...]) -> Type | None:
        if expected is None:
            return None
        items = union_items(expected)
        display = self.ev.named_class(names[0])
        if len(items) > 1 and display is not None:
            # In a union, a member the display itself can be (`list[X]` or a base of
            # list, for a list display) comes before other members that are merely
            # sequences (`str` in `str | list[X]`).
            for item in items:
                if isinstance(item, Instance) and item.args and item.info in display.mro:
                    return self._container_item_context(item, names)
        for item in items:
            if isinstance(item, Instance):
                for target in names:
                    info = self.ev.named_class(target)
                    if info is None:
                        continue
                    mapped = map_instance_to_supertype(item, info) if info in item.info.mro else None
                    if mapped is not None and mapped.args:
                        return mapped.args[0]
                    if item.info in info.mro and item.args:
                        return item.args[0]
        return None

    def _seq_display(self, elts: list[ast.expr], expected: Type | None, cls: str) -> Type:
        ctx = self._container_item_context(expected, (f"builtins.{cls}", "typing.Iterable", "typing.Collection", "typing.Sequence", "typing.MutableSequence", "typing.AbstractSet", "typing.MutableSet", "typing.Container"))
        types: list[Type] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                types.append(self.iterate(self.infer(e.value), e.value))
            else:
                types.append(self.infer(e, ctx))
        if ctx is not None and not isinstance(ctx, AnyType) and all(is_subtype(self.ev, t, ctx) for t in types):
            return self.ev.builtin(cls, ctx)
        if not types:
            return self.ev.builtin(cls, ctx if ctx is not None else AnyType("empty"))
        return self.ev.builtin(cls, widen_literals(join_display(self.ev, [widen_literals(t) for t in types])))

    def _List(self, node: ast.List, expected: Type | None) -> Type:
        return self._seq_display(node.elts, expected, "list")

    def _Set(self, node: ast.Set, expected: Type | None) -> Type:
        return self._seq_display(node.elts, expected, "set")

    def _Tuple(self, node: ast.Tuple, expected: Type | None) -> Type:
        item_ctx: list[Type | None] = [None] * len(node.elts)
        for candidate in union_items(expected) if expected is not None else []:
            if isinstance(candidate, TupleType) and len(candidate.items) == len(node.elts):
                item_ctx = list(candidate.items)
                break
            # `Sequence[X]`, `Iterable[X]`, `tuple[X, ...]`: every item has context X.
            seq_item = self._container_item_context(candidate, ("builtins.tuple", "typing.Sequence", "typing.Iterable", "typing.Collection", "typing.Container"))
            if seq_item is not None:
                item_ctx = [seq_item] * len(node.elts)
                break
        items: list[Type] = []
        for e, c in zip(node.elts, item_ctx):
            if isinstance(e, ast.Starred):
                t = self.infer(e.value)
                if isinstance(t, TupleType):
                    items.extend(t.items)
                else:
                    item = self.iterate(t, e.value)
                    idx = node.elts.index(e)
                    tail: list[Type] = []
                    for rest in node.elts[idx + 1:]:
                        # The items after the unpacking join in too (`(*[1], "a")`).
                        if isinstance(rest, ast.Starred):
                            tail.append(self.iterate(self.infer(rest.value), rest.value))
                        else:
                            tail.append(self.infer(rest))
                    return self.ev.builtin("tuple", widen_literals(join_all(self.ev, [widen_literals(i) for i in items + [item] + tail])))
            else:
                items.append(self.infer(e, c))
        return self.ev.tuple_of(items)

    def _Dict(self, node: ast.Dict, expected: Type | None) -> Type:
        kctx = vctx = None
        if expected is not None:
            tds = [i for i in union_items(expected) if isinstance(i, TypedDictType)]
            if len(tds) > 1:
                # Several TypedDicts expected: the one whose keys the display matches.
                display_keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                fitting = [td for td in tds if td.required <= display_keys <= set(td.item_map())]
                if len(fitting) > 1:
                    # Several fit the keys: the first the display matches cleanly, as
                    # mypy (`{"type": "http.response.start", ...}` for an ASGI event union).
                    fitting = [td for td in fitting if self._fits_typeddict(node, td)][:1]
                tds = fitting if len(fitting) == 1 else []
                if not tds:
                    return self._Dict(node, None)
            if tds:
                return self._typeddict_display(node, tds[0])
            for item in union_items(expected):
                if isinstance(item, TypedDictType):
                    return self._typeddict_display(node, item)
                if isinstance(item, Instance):
                    mapping = self.ev.named_class("typing.Mapping")
                    if mapping is not None and mapping in item.info.mro:
                        mapped = map_instance_to_supertype(item, mapping)
                        if mapped is not None and len(mapped.args) == 2:
                            kctx, vctx = mapped.args
                            break
        keys: list[Type] = []
        values: list[Type] = []
        for k, v in zip(node.keys, node.values):
            if k is None:
                t = self.infer(v)
                kv = self._mapping_kv(t)
                if kv is not None:
                    keys.append(kv[0])
                    values.append(kv[1])
                continue
            keys.append(self.infer(k, kctx))
            values.append(self.infer(v, vctx))
        if kctx is not None and vctx is not None and all(is_subtype(self.ev, t, kctx) for t in keys) and all(is_subtype(self.ev, t, vctx) for t in values):
            return self.ev.builtin("dict", kctx, vctx)
        if not keys:
            return self.ev.builtin("dict", kctx or AnyType("empty"), vctx or AnyType("empty"))
        kt = widen_literals(join_display(self.ev, [widen_literals(t) for t in keys]))
        vt = widen_literals(join_display(self.ev, [widen_literals(t) for t in values]))
        return self.ev.builtin("dict", kt, vt)

    def _fits_typeddict(self, node: ast.Dict, td: TypedDictType) -> bool:
        errors: list[str] = []
        probe = ExprEvaluator(self.ev, self.scope, self.flow, lambda n, msg, code, severity: errors.append(code) if severity == "error" else None)
        probe._typeddict_display(node, td)
        return not errors

    def _typeddict_display(self, node: ast.Dict, td: TypedDictType) -> Type:
        items = td.item_map()
        seen: set[str] = set()
        for k, v in zip(node.keys, node.values):
            if k is None:
                self.infer(v)
                return td
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                self.infer(k)
                self.infer(v)
                continue
            key = k.value
            seen.add(key)
            if key not in items:
                self.infer(v)
                self.error(k, f'Extra key "{key}" for TypedDict "{format_type(td)}"', "typeddict-unknown-key")
                continue
            vt = self.infer(v, items[key])
            if not is_subtype(self.ev, vt, items[key]):
                got, exp = format_pair(vt, items[key])
                self.error(v, f'Incompatible types (expression has type "{got}", TypedDict item "{key}" has type "{exp}")', "typeddict-item")
        missing = [k for k in td.required if k not in seen]
        if missing:
            keys = ", ".join(f'"{k}"' for k in sorted(missing, key=list(items).index))
            self.error(node, f'Missing key{"s" if len(missing) > 1 else ""} {keys} for TypedDict "{format_type(td)}"', "typeddict-item")
        return td

    def _mapping_kv(self, t: Type) -> tuple[Type, Type] | None:
        if isinstance(t, TypedDictType):
            return self.ev.builtin("str"), self.ev.builtin("object")
        if isinstance(t, Instance):
            mapping = self.ev.named_class("typing.Mapping")
            if mapping is not None and mapping in t.info.mro:
                mapped = map_instance_to_supertype(t, mapping)
                if mapped is not None and len(mapped.args) == 2:
                    return mapped.args[0], mapped.args[1]
        return AnyType("special"), AnyType("special")

    # -- comprehensions ---------------------------------------------------------------

    @contextmanager
    def _comprehension(self, generators: list[ast.comprehension]) -> Iterator[None]:
        layer: dict[str, Type] = {}
        self.overlay.append(layer)
        nested = False
        try:
            for gen in generators:
                it = self.infer(gen.iter)
                if not nested:
                    # Only the first iterable is evaluated in the enclosing scope.
                    nested = True
                    self.nested_in_class += 1
                item = self.iterate(it, gen.iter, is_async=bool(gen.is_async))
                self.assign_types(gen.target, item, layer)
                for cond in gen.ifs:
                    self.infer(cond)
                    narrowed = self.narrow_for(cond, True)
                    layer.update(narrowed)
            yield
        finally:
            self.overlay.pop()
            if nested:
                self.nested_in_class -= 1

    def narrow_for(self, test: ast.expr, positive: bool) -> dict[str, Type]:
        from veritype.evaluate.narrowing import narrow_names

        return narrow_names(self, test, positive)

    def _ListComp(self, node: ast.ListComp, expected: Type | None) -> Type:
        ctx = self._container_item_context(expected, ("builtins.list", "typing.Iterable", "typing.Sequence"))
        with self._comprehension(node.generators):
            elt = self.infer(node.elt, ctx)
        if ctx is not None and is_subtype(self.ev, elt, ctx):
            return self.ev.builtin("list", ctx)
        return self.ev.builtin("list", widen_literals(elt))

    def _SetComp(self, node: ast.SetComp, expected: Type | None) -> Type:
        ctx = self._container_item_context(expected, ("builtins.set", "typing.Iterable", "typing.AbstractSet"))
        with self._comprehension(node.generators):
            elt = self.infer(node.elt, ctx)
        if ctx is not None and is_subtype(self.ev, elt, ctx):
            return self.ev.builtin("set", ctx)
        return self.ev.builtin("set", widen_literals(elt))

    def _DictComp(self, node: ast.DictComp, expected: Type | None) -> Type:
        with self._comprehension(node.generators):
            k = self.infer(node.key)
            v = self.infer(node.value)
        if expected is not None:
            ctx = self._dict_context(expected)
            if ctx is not None and is_subtype(self.ev, k, ctx[0]) and is_subtype(self.ev, v, ctx[1]):
                return self.ev.builtin("dict", *ctx)
        return self.ev.builtin("dict", widen_literals(k), widen_literals(v))

    def _dict_context(self, expected: Type) -> tuple[Type, Type] | None:
        for item in union_items(expected):
            if isinstance(item, Instance):
                kv = self._mapping_kv(item)
                if kv is not None and not isinstance(kv[0], AnyType):
                    return kv
        return None

    def _GeneratorExp(self, node: ast.GeneratorExp, expected: Type | None) -> Type:
        ctx = self._container_item_context(expected, ("typing.Iterable", "typing.Iterator", "typing.Generator"))
        with self._comprehension(node.generators):
            elt = self.infer(node.elt, ctx)
        item = ctx if ctx is not None and is_subtype(self.ev, elt, ctx) else widen_literals(elt)
        return self.ev.instance("typing.Generator", (item, NONE, NONE))

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
        for a in args.kwonlyargs:
            layer[a.arg] = AnyType("unannotated")
            params.append(Param(a.arg, AnyType("unannotated"), 3, True))
        if args.vararg:
            layer[args.vararg.arg] = self.ev.builtin("tuple", AnyType("unannotated"))
            params.append(Param(args.vararg.arg, AnyType("unannotated"), 2))
        if args.kwarg:
            layer[args.kwarg.arg] = self.ev.builtin("dict", self.ev.builtin("str"), AnyType("unannotated"))
            params.append(Param(args.kwarg.arg, AnyType("unannotated"), 4))
        self.overlay.append(layer)
        self.nested_in_class += 1
        try:
            ret_ctx = ctx.ret if ctx is not None and not isinstance(ctx.ret, TypeVarType) else None
            ret = self.infer(node.body, ret_ctx)
        finally:
            self.overlay.pop()
            self.nested_in_class -= 1
        if ctx is not None and ctx.ret is not None and isinstance(ctx.ret, NoneType):
            pass
        return CallableType(tuple(params), widen_literals(ret), name="lambda")

    # -- operators ---------------------------------------------------------------------

    def _BoolOp(self, node: ast.BoolOp, expected: Type | None) -> Type:
        from veritype.evaluate.narrowing import falsy_part, truthy_part

        results: list[Type] = []
        positive = isinstance(node.op, ast.And)
        pushed = 0
        try:
            for i, value in enumerate(node.values):
                t = self.infer(value, _sibling_context(expected, value, results[-1] if results else None))
                last = i == len(node.values) - 1
                if last:
                    results.append(t)
                else:
                    results.append(falsy_part(self.ev, t, True) if positive else truthy_part(self.ev, t, True))
                    layer = self.narrow_for(value, positive)
                    self.overlay.append(layer)
                    pushed += 1
        finally:
            for _ in range(pushed):
                self.overlay.pop()
        return make_union(results)

    def _UnaryOp(self, node: ast.UnaryOp, expected: Type | None) -> Type:
        operand = self.infer(node.operand)
        if isinstance(node.op, ast.Not):
            return self.ev.builtin("bool")
        if isinstance(operand, LiteralType) and isinstance(operand.value, int) and not isinstance(operand.value, bool):
            if isinstance(node.op, ast.USub):
                return self.ev.literal(-operand.value)
            if isinstance(node.op, ast.UAdd):
                return operand
        dunder, sym = UNARY_DUNDERS[type(node.op)]
        results: list[Type] = []
        for item in union_items(operand):
            if isinstance(item, AnyType):
                results.append(item)
                continue
            method = self.ev.bound_member(item, dunder)
            if method is None:
                # mypy's wording: "unary -" / "unary +", but plain "~".
                label = sym if sym == "~" else f"unary {sym}"
                self.error(node, f'Unsupported operand type for {label} ("{format_type(widen_literals(item))}")', "operator")
                results.append(ANY_ERROR)
                continue
            results.append(self._call_known(method, [], node))
        return make_union(results)

    def _BinOp(self, node: ast.BinOp, expected: Type | None) -> Type:
        left = self.infer(node.left, expected if isinstance(node.op, (ast.Add, ast.BitOr, ast.Mult)) else None)
        right = self.infer(node.right, expected if isinstance(node.op, (ast.Add, ast.BitOr)) else None)
        if isinstance(node.op, ast.Mod) and isinstance(left, (Instance, LiteralType)) and _fallback_name(left) in ("builtins.str", "builtins.bytes"):
            return self.ev.builtin(_fallback_name(left).rpartition(".")[2])
        if isinstance(node.op, ast.BitOr) and self._is_type_form(left) and self._is_type_form(right):
            return self.ev.instance("types.UnionType")
        if isinstance(node.op, ast.Add) and _plain_tuple(left) and _plain_tuple(right):
            # Two fixed-length tuples concatenate item by item (typeshed's tuple.__add__
            # would join them into tuple[A | B, ...]); NamedTuples stay on __add__.
            assert isinstance(left, TupleType) and isinstance(right, TupleType)
            return self.ev.tuple_of(left.items + right.items)
        return self.binary(node, left, right, node.op)

    def _is_type_form(self, t: Type) -> bool:
        return isinstance(t, (TypeType, SpecialForm, NoneType)) or (isinstance(t, Instance) and t.info.fullname in ("types.UnionType", "typing._SpecialForm", "types.GenericAlias"))

    def binary(self, node: ast.AST, left: Type, right: Type, op: ast.operator, augmented: bool = False) -> Type:
        dunder, rdunder, sym = BINOP_DUNDERS[type(op)]
        if augmented:
            idunder = "__i" + dunder[2:]
            results = []
            for litem in union_items(left):
                method = self.ev.bound_member(litem, idunder) if not isinstance(litem, AnyType) else None
                if method is not None:
                    r = self._try_call(method, right)
                    if r is not None:
                        results.append(r)
                        continue
                results.append(self.binary(node, litem, right, op))
            return make_union(results)
        results: list[Type] = []
        for litem in union_items(left):
            r = self._binary_one(node, litem, right, dunder, rdunder, sym, left)
            results.append(r)
        return make_union(results)

    def _binary_one(self, node: ast.AST, left: Type, right: Type, dunder: str, rdunder: str, sym: str, whole_left: Type) -> Type:
        if isinstance(left, AnyType):
            return left
        results: list[Type] = []
        for ritem in union_items(right):
            if isinstance(ritem, AnyType):
                results.append(AnyType("implicit"))
                continue
            r = self._binary_pair(left, ritem, dunder, rdunder)
            if r is None:
                self.error(node, self.operand_message(left, ritem, dunder, rdunder, sym), "operator")
                results.append(ANY_ERROR)
            else:
                results.append(r)
        return make_union(results)

    def operand_message(self, left: Type, right: Type, dunder: str, rdunder: str, sym: str) -> str:
        """mypy's wording: literals widened; "left operand" when neither side has the method at all."""
        if self.ev.bound_member(left, dunder) is None and self.ev.bound_member(right, rdunder) is None:
            return f'Unsupported left operand type for {sym} ("{format_type(widen_literals(left))}")'
        return f'Unsupported operand types for {sym} ("{format_type(widen_literals(left))}" and "{format_type(widen_literals(right))}")'

    def _binary_pair(self, left: Type, right: Type, dunder: str, rdunder: str) -> Type | None:
        method = self.ev.bound_member(left, dunder)
        reflected = self.ev.bound_member(right, rdunder)
        # The reflected method goes first when the right operand's type is a
        # proper subclass of the left's (data model, "__radd__" notes).
        if reflected is not None and _is_proper_subclass(self.ev, right, left):
            r = self._try_call(reflected, left)
            if r is not None:
                return r
        if method is not None:
            r = self._try_call(method, right)
            if r is not None:
                return r
        if reflected is not None:
            r = self._try_call(reflected, left)
            if r is not None:
                return r
        if method is None and reflected is None and (self._has_any_base(left) or self._has_any_base(right)):
            return AnyType("special")
        return None

    def _has_any_base(self, t: Type) -> bool:
        return isinstance(t, Instance) and any(c.has_any_base for c in t.info.mro)

    def _try_call(self, method: Type, arg: Type) -> Type | None:
        from veritype.evaluate.calls import call_types

        r = call_types(self.ev, method, [arg])
        if r is None:
            return None
        if isinstance(r, Instance) and r.info.fullname in ("builtins._NotImplementedType", "types.NotImplementedType"):
            return None
        return r

    def _call_known(self, method: Type, args: list[Type], node: ast.AST) -> Type:
        from veritype.evaluate.calls import call_types

        r = call_types(self.ev, method, args)
        return r if r is not None else AnyType("special")

    def _strict_equality(self) -> bool:
        options = self.ev.program.options
        if not (options.strict_equality or options.overrides or options.inline):
            return False
        if self.scope is None:
            return bool(options.strict_equality)
        return bool(options.for_module(self.scope.module.name).strict_equality)

    def _stored_widened(self, node: ast.expr, t: Type) -> Type:
        """`t` with its literal types widened when `node` reads a stored value
        whose declared type has none (a literal only by veritype's narrowing)."""
        if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) or widen_literals(t) == t:
            return t
        declared = ExprEvaluator(self.ev, self.scope).infer(node)  # no flow, no reporter
        return t if widen_literals(declared) != declared else widen_literals(t)

    def _Compare(self, node: ast.Compare, expected: Type | None) -> Type:
        left = self.infer(node.left)
        result: Type = self.ev.builtin("bool")
        strict_equality = self._strict_equality()
        for op, comp in zip(node.ops, node.comparators):
            right = self.infer(comp)
            if strict_equality:
                from veritype.evaluate.strict_equality import comparison_overlap_message

                # A stored value (name, attribute, item) is compared as its
                # non-literal type: veritype narrows `n = 0` to Literal[0] where
                # mypy keeps `int`, and `n == 2` after a call that changed n is
                # no error in mypy.
                message = comparison_overlap_message(op, self._stored_widened(node.left, left), self._stored_widened(comp, right))
                if message is not None:
                    self.error(node, message, "comparison-overlap")
            if isinstance(op, tuple(COMPARE_DUNDERS)):
                dunder, rdunder, sym = COMPARE_DUNDERS[type(op)]
                for litem in union_items(left):
                    if isinstance(litem, AnyType):
                        continue
                    for ritem in union_items(right):
                        if isinstance(ritem, AnyType):
                            continue
                        r = self._binary_pair(litem, ritem, dunder, rdunder)
                        if r is None:
                            self.error(node, self.operand_message(litem, ritem, dunder, rdunder, sym), "operator")
                        elif len(node.ops) == 1 and not (isinstance(r, Instance) and r.info.fullname == "builtins.bool"):
                            result = r
            elif isinstance(op, (ast.In, ast.NotIn)):
                for ritem in union_items(right):
                    if isinstance(ritem, AnyType):
                        continue
                    contains = self.ev.bound_member(ritem, "__contains__")
                    if contains is None and self.ev.bound_member(ritem, "__iter__") is None and self.ev.bound_member(ritem, "__getitem__") is None:
                        self.error(node, f'Unsupported right operand type for in ("{format_type(widen_literals(ritem))}")', "operator")
            left = right
        return result

    # -- attribute, subscript ------------------------------------------------------------

    def _Attribute(self, node: ast.Attribute, expected: Type | None) -> Type:
        key = _expr_key(node)
        if key is not None:
            narrowed = self.flow.lookup(key)
            if narrowed is not None:
                for layer in reversed(self.overlay):
                    if key in layer:
                        return layer[key]
                return narrowed
            for layer in reversed(self.overlay):
                if key in layer:
                    return layer[key]
        from veritype.evaluate.super_access import is_super_call, super_member

        if is_super_call(self, node.value):
            assert isinstance(node.value, ast.Call)
            understood, found, unsafe = super_member(self, node.value, node.attr)
            if understood:
                if found is None:
                    self.error(node, f'"{node.attr}" undefined in superclass', "misc")  # mypy's wording
                    return ANY_ERROR
                if unsafe is not None:
                    self.error(node, f'Call to abstract method "{node.attr}" of "{unsafe}" with trivial body via super() is unsafe', "safe-super")
                return found
        base = self.infer(node.value)
        return self.member_access(base, node.attr, node)

    def _hidden_reexport(self, base: "ModuleType", name: str) -> bool:
        """`module.name` where the module only imports `name` (--no-implicit-reexport)."""
        program = self.ev.program
        if program.options.implicit_reexport and not program.options.overrides and not program.options.inline:
            return False  # the default: every imported name is exported
        module = program.get_module(base.name)
        return module is not None and program.hidden_reexport(module, name)

    def member_access(self, base: Type, name: str, node: ast.AST | None) -> Type:
        if isinstance(base, UnionType):
            results: list[Type] = []
            for item in base.items:
                t = self.ev.bound_member(item, name)
                if t is None and _plain_type(item):
                    t = AnyType("special")
                if t is None:
                    if isinstance(item, NoneType):
                        self.error(node, f'Item "None" of "{format_type(base)}" has no attribute "{name}"', "union-attr")
                    else:
                        self.error(node, f'Item "{format_type(item)}" of "{format_type(base)}" has no attribute "{name}"', "union-attr")
                    results.append(ANY_ERROR)
                else:
                    results.append(t)
            return make_union(results)
        t = self.ev.bound_member(base, name)
        if t is None and _plain_type(base):
            # Spec, "type[]": a plain `type` is `type[Any]`, whose unknown
            # attributes are Any (the class could be any class).
            return AnyType("special")
        if t is None:
            if isinstance(base, ModuleType):
                self.error(node, f'Module "{base.name}" has no attribute "{name}"', "attr-defined")
            elif isinstance(base, TypeType) and isinstance(base.item, Instance):
                self.error(node, f'"type[{format_type(base.item)}]" has no attribute "{name}"', "attr-defined")
            else:
                self.error(node, f'"{format_type(base)}" has no attribute "{name}"', "attr-defined")
            return ANY_ERROR
        if isinstance(base, ModuleType) and self._hidden_reexport(base, name):
            self.error(node, f'Module "{base.name}" does not explicitly export attribute "{name}"', "attr-defined")
        if isinstance(base, TypeType) and isinstance(base.item, Instance) and _instance_only(base.item, name):
            # Set only as `self.name = ...` in methods: the class object has no such attribute.
            self.error(node, f'Cannot access instance-only attribute "{name}" on class object', "misc")
        return t

    def _Subscript(self, node: ast.Subscript, expected: Type | None) -> Type:
        key = _expr_key(node)
        if key is not None:
            for layer in reversed(self.overlay):
                if key in layer:
                    return layer[key]
            narrowed = self.flow.lookup(key)
            if narrowed is not None:
                return narrowed
        base = self.infer(node.value)
        if isinstance(base, (TypeType, SpecialForm)):
            # A generic alias or special form used as a value: `list[int]`, `Optional[int]`.
            if self.scope is not None:
                t = self.ev.type_exprs.evaluate(node, self.scope)
                if isinstance(t, (Instance, TupleType)) and isinstance(base, TypeType) and not (isinstance(base.item, Instance) and base.item.info.get("__class_getitem__") is None and not base.item.info.type_vars and base.item.info.fullname not in ("builtins.type", "builtins.tuple")):
                    return TypeType(t)
            if isinstance(base, TypeType) and isinstance(base.item, Instance) and not base.item.info.type_vars and base.item.info.get("__class_getitem__") is None:
                meta_get = self.ev.bound_member(base, "__getitem__")
                if meta_get is not None:
                    return self._call_known(meta_get, [self.infer(node.slice)], node)
                self.error(node, f'The type "{format_type(base)}" is not generic and not indexable', "index")
                return ANY_ERROR
            return AnyType("special")
        return self.subscript(base, node.slice, node)

    def _variadic_subscript(self, base: TupleType, index_node: ast.expr, node: ast.AST) -> Type:
        """Indexing `tuple[int, *tuple[str, ...]]` / `tuple[T, *Ts]` (PEP 646): a constant
        index into the fixed parts is exact; no index is out of range for certain."""
        from veritype.types.tuples import index_variadic, slice_variadic, value_items

        idx = _int_literal(index_node)
        if idx is not None:
            self.infer(index_node)
            return index_variadic(base, idx)
        if isinstance(index_node, ast.Slice) and all(_int_literal(x) is not None or x is None for x in (index_node.lower, index_node.upper, index_node.step)):
            lo, hi, st = (_int_literal(x) if x is not None else None for x in (index_node.lower, index_node.upper, index_node.step))
            cut = slice_variadic(base, lo, hi, st)
            if cut is not None:
                return cut
        self.infer(index_node)
        if isinstance(index_node, ast.Slice):
            return self.ev.builtin("tuple", make_union(value_items(base)))
        return make_union(value_items(base))

    def subscript(self, base: Type, index_node: ast.expr, node: ast.AST) -> Type:
        base = as_tuple(base)
        if isinstance(base, UnionType):
            return make_union([self.subscript(i, index_node, node) for i in base.items])
        if isinstance(base, AnyType):
            self.infer(index_node)
            return base
        if isinstance(base, TupleType) and any(isinstance(i, UnpackType) for i in base.items):
            return self._variadic_subscript(base, index_node, node)
        if isinstance(base, TupleType):
            idx = _int_literal(index_node)
            if idx is not None:
                n = len(base.items)
                if -n <= idx < n:
                    self.infer(index_node)
                    return base.items[idx]
                self.error(node, "Tuple index out of range", "misc")
                return ANY_ERROR
            if isinstance(index_node, (ast.Name, ast.Attribute)):
                # Spec, "Literal": indexing a tuple with an expression of an int literal
                # type (`a: Literal[0]`) picks that item, as an int constant does.
                n = len(base.items)
                lits = union_items(self.infer(index_node))
                idxs = [i.value for i in lits if isinstance(i, LiteralType) and type(i.value) is int]
                if idxs and len(idxs) == len(lits):
                    if all(-n <= i < n for i in idxs):
                        return make_union([base.items[i] for i in idxs])  # type: ignore[index]
                    if len(idxs) == 1:
                        self.error(node, "Tuple index out of range", "misc")
                        return ANY_ERROR
            if isinstance(index_node, ast.Slice) and all(_int_literal(x) is not None or x is None for x in (index_node.lower, index_node.upper, index_node.step)):
                lo, hi, st = (_int_literal(x) if x is not None else None for x in (index_node.lower, index_node.upper, index_node.step))
                if st == 0:
                    # Python raises ValueError for a zero step; mypy reports it here.
                    self.error(index_node, "Slice step cannot be zero", "misc")
                    return ANY_ERROR
                return self.ev.tuple_of(list(base.items[slice(lo, hi, st)]))
        if isinstance(base, TypedDictType):
            index_t = self.infer(index_node)
            if isinstance(index_t, LiteralType) and isinstance(index_t.value, str):
                m = base.item_map()
                if index_t.value in m:
                    return m[index_t.value]
                self.error(index_node, f'TypedDict "{format_type(base)}" has no key "{index_t.value}"', "typeddict-item")
                return ANY_ERROR
            keys = union_items(index_t)
            literal_keys = [k.value for k in keys if isinstance(k, LiteralType) and isinstance(k.value, str)]
            if len(keys) > 1 and len(literal_keys) == len(keys):
                # A union of literal keys (spec: "an expression with a suitable literal type"): the
                # union of their value types; an unknown key among them is left to the one-key path.
                m = base.item_map()
                if all(k in m for k in literal_keys):
                    return make_union([m[k] for k in literal_keys])
            return self.ev.builtin("object")
        if isinstance(base, NoneType):
            self.infer(index_node)
            self.error(node, 'Value of type "None" is not indexable', "index")
            return ANY_ERROR
        getitem = self.ev.bound_member(base, "__getitem__")
        if getitem is None:
            self.infer(index_node)
            self.error(node, f'Value of type "{format_type(widen_literals(base))}" is not indexable', "index")
            return ANY_ERROR
        return self._call_node(getitem, [Arg(ARG_POS, node=index_node)], node, method="__getitem__", receiver=base)

    def _Slice(self, node: ast.Slice, expected: Type | None) -> Type:
        parts = [self.infer(x) if x is not None else NONE for x in (node.lower, node.upper, node.step)]
        t = self.ev.instance("builtins.slice")
        if isinstance(t, Instance) and len(t.info.type_vars) == 3:
            return Instance(t.info, tuple(widen_literals(p) for p in parts))
        return t

    def _Starred(self, node: ast.Starred, expected: Type | None) -> Type:
        self.infer(node.value)
        return AnyType("special")

    # -- conditional, walrus, await -------------------------------------------------------

    def _IfExp(self, node: ast.IfExp, expected: Type | None) -> Type:
        self.infer(node.test)
        self.overlay.append(self.narrow_for(node.test, True))
        try:
            a = self.infer(node.body, expected)
        finally:
            self.overlay.pop()
        self.overlay.append(self.narrow_for(node.test, False))
        try:
            b = self.infer(node.orelse, _sibling_context(expected, node.orelse, a))
        finally:
            self.overlay.pop()
        return make_union([a, b])

    def _NamedExpr(self, node: ast.NamedExpr, expected: Type | None) -> Type:
        t = self.infer(node.value, expected)
        if isinstance(node.target, ast.Name):
            self._final_target(node.target)
            declared = self.declared_of(node.target.id)
            if declared is not None and not is_subtype(self.ev, t, declared):
                self.error(node.value, f'Incompatible types in assignment (expression has type "{format_type(t)}", variable has type "{format_type(declared)}")', "assignment")
            self.flow.bind(node.target.id, t)
            if self.overlay:
                self.overlay[-1][node.target.id] = t
        return t

    def _final_target(self, target: ast.Name) -> None:
        """`(x := v)` where `x` is declared Final (spec, "Final": a final name
        "cannot be re-assigned"; mypy's message)."""
        hit = self.ev.lookup(target.id, self.scope) if self.scope is not None else None
        from veritype.evaluate.declarations import qualifiers
        from veritype.semantic.symbols import VAR

        if hit is None or hit[0].kind != VAR or hit[0].is_instance_attr:
            return
        if "Final" in qualifiers(self.ev, *hit):
            self.error(target, f'Cannot assign to final name "{target.id}"', "misc")

    def declared_of(self, name: str) -> Type | None:
        if self.scope is None:
            return None
        hit = self.ev.lookup(name, self.scope)
        if hit is None:
            return None
        return self.ev.declared_type(*hit)

    def _Await(self, node: ast.Await, expected: Type | None) -> Type:
        t = self.infer(node.value)
        return self.awaited(t, node)

    def awaited(self, t: Type, node: ast.AST | None) -> Type:
        results: list[Type] = []
        for item in union_items(t):
            if isinstance(item, AnyType):
                results.append(item)
                continue
            method = self.ev.bound_member(item, "__await__")
            if method is None:
                self.error(node, f'Incompatible types in "await" (actual type "{format_type(widen_literals(item))}", expected type "Awaitable[Any]")', "misc")
                results.append(ANY_ERROR)
                continue
            gen = self._call_known(method, [], node if node is not None else ast.Pass())
            results.append(self._generator_return(gen))
        return make_union(results)

    def _generator_return(self, gen: Type) -> Type:
        if isinstance(gen, Instance):
            info = self.ev.named_class("typing.Generator")
            if info is not None and info in gen.info.mro:
                mapped = map_instance_to_supertype(gen, info)
                if mapped is not None and len(mapped.args) == 3:
                    return mapped.args[2]
        return AnyType("special")

    def _Yield(self, node: ast.Yield, expected: Type | None) -> Type:
        declared = self.yield_types
        if node.value is not None:
            t = self.infer(node.value, declared[0] if declared else None)
            if declared is not None and not is_subtype(self.ev, t, declared[0]):
                got, exp = format_pair(t, declared[0])
                self.error(node, f'Incompatible types in "yield" (actual type "{got}", expected type "{exp}")', "misc")
        elif declared is not None and not is_subtype(self.ev, NoneType(), declared[0]):
            self.error(node, "Yield value expected", "misc")
        # The value of a yield expression is what the caller sends.
        return declared[1] if declared is not None else AnyType("special")

    def _YieldFrom(self, node: ast.YieldFrom, expected: Type | None) -> Type:
        t = self.infer(node.value)
        declared = self.yield_types
        if declared is not None and not isinstance(t, AnyType):
            item = self.iterate(t, node.value)
            if not is_subtype(self.ev, item, declared[0]):
                got, exp = format_pair(item, declared[0])
                self.error(node, f'Incompatible types in "yield from" (actual type "{got}", expected type "{exp}")', "misc")
        return self._generator_return(t) if isinstance(t, Instance) else AnyType("special")

    # -- calls -------------------------------------------------------------------------

    def _Call(self, node: ast.Call, expected: Type | None) -> Type:
        from veritype.evaluate.special_calls import special_call

        special = special_call(self, node, expected)
        if special is not None:
            return special
        callee = self.infer(node.func)
        args = self.call_args(node)
        if isinstance(callee, (CallableType, TypeType)) and self.reporting:
            self._check_untyped_call(callee, node)
        return self._call_node(callee, args, node, expected=expected)

    def _check_untyped_call(self, callee: CallableType | TypeType, node: ast.Call) -> None:
        """--disallow-untyped-calls: a call to an unannotated def from checked code."""
        if self.scope is None or (isinstance(callee, CallableType) and not callee.is_untyped):
            return
        opts = self.ev.program.options.for_module(self.scope.module.name)
        if not opts.disallow_untyped_calls:
            return
        if isinstance(callee, TypeType):
            # A class whose constructor (`__init__`) is unannotated, named by the class (mypy).
            if not isinstance(callee.item, Instance):
                return
            ctor = self.ev.members.constructor(callee)
            if not isinstance(ctor, CallableType) or not ctor.is_untyped:
                return
            name = callee.item.info.name
        else:
            name = callee.name or "function"
        self.error(node, f'Call to untyped function "{name}" in typed context', "no-untyped-call")

    def call_args(self, node: ast.Call) -> list[Arg]:
        args: list[Arg] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.append(Arg(ARG_STAR, node=a.value))
            else:
                args.append(Arg(ARG_POS, node=a))
        for kw in node.keywords:
            if kw.arg is None:
                args.append(Arg(ARG_STAR2, node=kw.value))
            else:
                args.append(Arg(ARG_KW, kw.arg, node=kw.value))
        return args

    def _call_node(self, callee: Type, args: list[Arg], node: ast.AST, expected: Type | None = None, method: str | None = None, receiver: Type | None = None) -> Type:
        cache: dict[int, Type] = {}

        def infer_arg(n: ast.expr, exp: Type | None) -> Type:
            if exp is None and id(n) in cache:
                return cache[id(n)]
            t = self.infer(n, exp)
            if exp is None:
                cache[id(n)] = t
            return t

        def report(n: ast.AST | None, msg: str, code: str) -> None:
            if code == "note":
                self.note(n if n is not None else node, msg)
                return
            if method == "__getitem__" and code in ("call-overload", "arg-type") and receiver is not None:
                if code == "call-overload" or code == "arg-type":
                    idx = args[0].type or (cache.get(id(args[0].node)) if args[0].node is not None else None)
                    msg = f'Invalid index type "{format_type(widen_literals(idx)) if idx is not None else "?"}" for "{format_type(receiver)}"; expected type "{_expected_index(callee)}"'
                    code = "index"
            self.error(n if n is not None else node, msg, code)

        site = CallSite(self.ev, infer_arg, report, node, lambda t, n: self.iterate(t, n), expected, recording=self.recording)
        return call_type(site, callee, args)

    def call_with_types(self, callee: Type, arg_types: list[Type], node: ast.AST | None) -> Type | None:
        from veritype.evaluate.calls import call_types

        return call_types(self.ev, callee, arg_types)

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

    def unpack(self, t: Type, n: int, node: ast.AST | None) -> list[Type]:
        t = as_tuple(t)
        if isinstance(t, UnionType):
            # Each member unpacks on its own; position by position, the union.
            per_item = [self.unpack(item, n, node) for item in t.items]
            return [make_union([p[i] for p in per_item]) for i in range(n)]
        if isinstance(t, TupleType) and any(isinstance(i, UnpackType) for i in t.items):
            from veritype.types.tuples import unpack_variadic

            target = node if isinstance(node, (ast.Tuple, ast.List)) else None
            star = next((i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)), None) if target is not None else None
            got = unpack_variadic(t, n, star)
            return got if got is not None else [AnyType("special")] * n
        if isinstance(t, TupleType):
            if len(t.items) == n:
                return list(t.items)
            target = node if isinstance(node, (ast.Tuple, ast.List)) else None
            if target is not None and any(isinstance(e, ast.Starred) for e in target.elts):
                star = next(i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred))
                after = n - star - 1
                if len(t.items) >= n - 1:
                    middle = list(t.items[star: len(t.items) - after])
                    return list(t.items[:star]) + [widen_literals(join_all(self.ev, middle)) if middle else NeverType()] + list(t.items[len(t.items) - after:])
            self.error(node, f"Too many values to unpack ({n} expected, {len(t.items)} provided)" if len(t.items) > n else f"Need more than {len(t.items)} value{'s' if len(t.items) != 1 else ''} to unpack ({n} expected)", "misc")
            return [ANY_ERROR] * n
        item = self.iterate(t, node, unpacking=True)
        return [item] * n

    def assign_types(self, target: ast.expr, t: Type, layer: dict[str, Type]) -> None:
        if isinstance(target, ast.Name):
            layer[target.id] = t
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = self.unpack(t, len(target.elts), target)
            for sub, item in zip(target.elts, items):
                if isinstance(sub, ast.Starred):
                    self.assign_types(sub.value, self.ev.builtin("list", item), layer)
                else:
                    self.assign_types(sub, item, layer)

    def exception_instance(self, t: Type) -> Type:
        results = []
        for item in union_items(t):
            if isinstance(item, TypeType):
                results.append(item.item)
            elif isinstance(item, TupleType):
                from veritype.types.tuples import value_items

                results.append(self.exception_instance(make_union(value_items(item))))
            elif isinstance(item, Instance) and item.info.fullname == "builtins.tuple" and item.args:
                results.append(self.exception_instance(item.args[0]))
            else:
                results.append(AnyType("special"))
        return make_union(results)


def _sibling_context(expected: Type | None, node: ast.expr, sibling: Type | None) -> Type | None:
    """mypy behaviour: with no outer context, an empty display in `x or []` /
    `a if c else {}` takes the other operand's type (`list[int]`, not
    `list[Any]`)."""
    if expected is not None or sibling is None:
        return expected
    empty = (isinstance(node, (ast.List, ast.Set)) and not node.elts) or (isinstance(node, ast.Dict) and not node.keys)
    if empty and isinstance(sibling, Instance) and sibling.info.fullname in ("builtins.list", "builtins.set", "builtins.dict"):
        return sibling
    if isinstance(node, ast.Dict) and not node.keys and isinstance(sibling, TypedDictType) and not sibling.required:
        return sibling  # `(options or {}).get("alt")` with a TypedDict of optional keys
    return None


def _plain_type(t: Type) -> bool:
    return isinstance(t, Instance) and t.info.fullname == "builtins.type"


def as_tuple(t: Type) -> Type:
    """An instance of a class deriving from a fixed tuple (`sys.version_info`, a
    NamedTuple) as that tuple, with the instance as its fallback."""
    if isinstance(t, Instance) and not t.info.type_vars:
        for cls in t.info.mro:
            if cls.tuple_type is not None:
                return TupleType(cls.tuple_type.items, t)
    elif isinstance(t, Instance) and t.info.tuple_type is not None and len(t.args) == len(t.info.type_vars) and all(v.kind == "typevar" for v in t.info.type_vars):
        # A generic NamedTuple's own fields, with the instance's type arguments.
        from veritype.types.substitute import substitute, tv_key

        mapping = {tv_key(v): a for v, a in zip(t.info.type_vars, t.args)}
        return TupleType(tuple(substitute(i, mapping) for i in t.info.tuple_type.items), t)
    return t


def _expr_key(node: ast.expr) -> str | None:
    """A stable key for a narrowable reference: `x`, `x.a.b`, `x[0]`, `x["k"]`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _expr_key(node.value)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Subscript):
        base = _expr_key(node.value)
        idx = node.slice
        if base and isinstance(idx, ast.Constant) and isinstance(idx.value, (int, str)) and not isinstance(idx.value, bool):
            return f"{base}[{idx.value!r}]"
        if base and isinstance(idx, ast.UnaryOp) and isinstance(idx.op, ast.USub) and isinstance(idx.operand, ast.Constant) and isinstance(idx.operand.value, int):
            return f"{base}[{-idx.operand.value!r}]"
    return None


expr_key = _expr_key


def _int_literal(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _plain_tuple(t: Type) -> bool:
    return isinstance(t, TupleType) and t.fallback.info.fullname == "builtins.tuple"


def _fallback_name(t: Type) -> str:
    if isinstance(t, LiteralType):
        return t.fallback.info.fullname
    if isinstance(t, Instance):
        return t.info.fullname
    return ""


def _is_proper_subclass(ev: "Evaluator", right: Type, left: Type) -> bool:
    r = right.fallback if isinstance(right, LiteralType) else right
    l = left.fallback if isinstance(left, LiteralType) else left
    if isinstance(r, Instance) and isinstance(l, Instance):
        return r.info is not l.info and l.info in r.info.mro
    return False


def _expected_index(callee: Type) -> str:
    if isinstance(callee, CallableType) and callee.params:
        return format_type(callee.params[0].type)
    if isinstance(callee, Overloaded) and callee.items and callee.items[0].params:
        return format_type(callee.items[0].params[0].type)
    return "Any"


def _instance_only(item: Instance, name: str) -> bool:
    """Whether `name` is, all along the MRO, an attribute set only through `self`
    (a class-level definition in any base makes it reachable on the class)."""
    found = False
    for cls in item.info.mro:
        if cls.has_any_base or cls.unknown_decorator or name in cls.synthesized:
            return False
        sym = cls.symbols.get(name)
        if sym is None:
            continue
        if not sym.is_instance_attr or cls.node is None or cls.is_enum_class() or cls.dataclass_info is not None:
            return False
        found = True
    return found


def _all_after(decls: "list[ast.AST]", node: ast.expr) -> bool:
    """Every declaration in `decls` starts after `node` (by line, then column)."""
    if not decls:
        return False
    here = (node.lineno, node.col_offset)
    return all(isinstance(d, ast.stmt) and (d.lineno, d.col_offset) > here for d in decls)
