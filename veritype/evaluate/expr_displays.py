"""Display and comprehension inference: list/set/tuple/dict displays (with TypedDict and
container context) and comprehensions, whose generators bind their targets in a nested
flow layer.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_pair, format_type
from veritype.types.join import join_all, join_display, widen_literals
from veritype.types.model import AnyType, Instance, NeverType, TupleType, Type, TypedDictType, union_items, NONE
from veritype.types.subtype import is_subtype, map_instance_to_supertype
from veritype.evaluate.truthy_function import infer_condition
from veritype.evaluate.redundant_expr import check_condition
from veritype.evaluate.type_forms import expects_type_form

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def container_item_context(ex: "ExprEvaluator", expected: Type | None, names: tuple[str, ...]) -> Type | None:
    if expected is None:
        return None
    items = union_items(expected)
    display = ex.ev.named_class(names[0])
    if len(items) > 1 and display is not None:
        # In a union, a member the display itself can be (`list[X]` or a base of
        # list, for a list display) comes before other members that are merely
        # sequences (`str` in `str | list[X]`).
        for item in items:
            if isinstance(item, Instance) and item.args and item.info in display.mro:
                return ex._container_item_context(item, names)
    for item in items:
        if isinstance(item, Instance):
            for target in names:
                info = ex.ev.named_class(target)
                if info is None:
                    continue
                mapped = map_instance_to_supertype(item, info) if info in item.info.mro else None
                if mapped is not None and mapped.args:
                    return mapped.args[0]
                if item.info in info.mro and item.args:
                    return item.args[0]
    return None


def seq_display(ex: "ExprEvaluator", elts: list[ast.expr], expected: Type | None, cls: str) -> Type:
    ctx = ex._container_item_context(expected, (f"builtins.{cls}", "typing.Iterable", "typing.Collection", "typing.Sequence", "typing.MutableSequence", "typing.AbstractSet", "typing.MutableSet", "typing.Container"))
    types: list[Type] = []
    for e in elts:
        if isinstance(e, ast.Starred):
            types.append(ex.iterate(ex.infer(e.value), e.value))
        else:
            types.append(ex.infer(e, ctx))
    if ctx is not None and not isinstance(ctx, AnyType) and _all_fit(ex, types, ctx):
        return ex.ev.builtin(cls, ctx)
    if not types:
        return ex.ev.builtin(cls, ctx if ctx is not None else AnyType("empty"))
    return ex.ev.builtin(cls, widen_literals(join_display(ex.ev, [widen_literals(t, keep_declared=True) for t in types]), keep_declared=True))


def infer_list(ex: "ExprEvaluator", node: ast.List, expected: Type | None) -> Type:
    return ex._seq_display(node.elts, expected, "list")


def infer_set(ex: "ExprEvaluator", node: ast.Set, expected: Type | None) -> Type:
    return ex._seq_display(node.elts, expected, "set")


def infer_tuple(ex: "ExprEvaluator", node: ast.Tuple, expected: Type | None) -> Type:
    item_ctx: list[Type | None] = [None] * len(node.elts)
    seq_ctx: Type | None = None
    for candidate in union_items(expected) if expected is not None else []:
        if isinstance(candidate, TupleType) and len(candidate.items) == len(node.elts):
            item_ctx = list(candidate.items)
            break
        # `Sequence[X]`, `Iterable[X]`, `tuple[X, ...]`: every item has context X.
        seq_item = ex._container_item_context(candidate, ("builtins.tuple", "typing.Sequence", "typing.Iterable", "typing.Collection", "typing.Container"))
        if seq_item is not None:
            item_ctx = [seq_item] * len(node.elts)
            seq_ctx = seq_item
            break
    items: list[Type] = []
    for e, c in zip(node.elts, item_ctx):
        if isinstance(e, ast.Starred):
            t = ex.infer(e.value)
            if isinstance(t, TupleType):
                items.extend(t.items)
            else:
                item = ex.iterate(t, e.value)
                idx = node.elts.index(e)
                # A homogeneous context (`tuple[X, ...]`) is every item's context.
                homogeneous = seq_ctx if seq_ctx is not None and not isinstance(seq_ctx, AnyType) else None
                tail: list[Type] = []
                for rest in node.elts[idx + 1:]:
                    # The items after the unpacking join in too (`(*[1], "a")`).
                    if isinstance(rest, ast.Starred):
                        tail.append(ex.iterate(ex.infer(rest.value), rest.value))
                    else:
                        tail.append(ex.infer(rest, homogeneous))
                every = items + [item] + tail
                if homogeneous is not None and all(is_subtype(ex.ev, i, homogeneous) for i in every):
                    return ex.ev.builtin("tuple", homogeneous)
                return ex.ev.builtin("tuple", widen_literals(join_all(ex.ev, [widen_literals(i) for i in every])))
        else:
            items.append(ex.infer(e, c))
    return ex.ev.tuple_of(items)


def infer_dict(ex: "ExprEvaluator", node: ast.Dict, expected: Type | None) -> Type:
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
                fitting = [td for td in fitting if ex._fits_typeddict(node, td)][:1]
            tds = fitting if len(fitting) == 1 else []
            if not tds:
                return ex._Dict(node, None)
        if tds:
            return ex._typeddict_display(node, tds[0])
        for item in union_items(expected) if _ambiguous_union_context(ex, expected) is False else ():
            if isinstance(item, TypedDictType):
                return ex._typeddict_display(node, item)
            if isinstance(item, Instance):
                mapping = ex.ev.named_class("typing.Mapping")
                if mapping is not None and mapping in item.info.mro:
                    mapped = map_instance_to_supertype(item, mapping)
                    if mapped is not None and len(mapped.args) == 2:
                        kctx, vctx = mapped.args
                        break
    keys: list[Type] = []
    values: list[Type] = []
    for k, v in zip(node.keys, node.values):
        if k is None:
            t = ex.infer(v)
            kv = ex._mapping_kv(t)
            if kv is not None:
                keys.append(kv[0])
                values.append(kv[1])
            continue
        keys.append(ex.infer(k, kctx))
        values.append(ex.infer(v, vctx))
    if kctx is not None and vctx is not None and _all_fit(ex, keys, kctx) and _all_fit(ex, values, vctx):
        return ex.ev.builtin("dict", kctx, vctx)
    if not keys:
        return ex.ev.builtin("dict", kctx or AnyType("empty"), vctx or AnyType("empty"))
    kt = widen_literals(join_display(ex.ev, [widen_literals(t, keep_declared=True) for t in keys]), keep_declared=True)
    vt = widen_literals(join_display(ex.ev, [widen_literals(t, keep_declared=True) for t in values]), keep_declared=True)
    return ex.ev.builtin("dict", kt, vt)


def fits_typeddict(ex: "ExprEvaluator", node: ast.Dict, td: TypedDictType) -> bool:
    from veritype.evaluate.expressions import ExprEvaluator

    errors: list[str] = []
    probe = ExprEvaluator(ex.ev, ex.scope, ex.flow, lambda n, msg, code, severity: errors.append(code) if severity == "error" else None)
    probe._typeddict_display(node, td)
    return not errors


def typeddict_display(ex: "ExprEvaluator", node: ast.Dict, td: TypedDictType) -> Type:
    items = td.item_map()
    seen: set[str] = set()
    for k, v in zip(node.keys, node.values):
        if k is None:
            ex.infer(v)
            return td
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            ex.infer(k)
            ex.infer(v)
            continue
        key = k.value
        seen.add(key)
        if key not in items:
            if td.extra is not None and not isinstance(td.extra, NeverType):
                # PEP 728: "the value type of each unknown item is expected to be
                # non-required and assignable to the extra_items argument".
                vt = ex.infer(v, td.extra)
                if not is_subtype(ex.ev, vt, td.extra):
                    got, exp = format_pair(vt, td.extra)
                    ex.error(v, f'Incompatible types (expression has type "{got}", TypedDict extra item "{key}" has type "{exp}")', "typeddict-item")
                continue
            ex.infer(v)
            ex.error(k, f'Extra key "{key}" for TypedDict "{format_type(td)}"', "typeddict-unknown-key")
            continue
        vt = ex.infer(v, items[key])
        if not is_subtype(ex.ev, vt, items[key]):
            got, exp = format_pair(vt, items[key])
            ex.error(v, f'Incompatible types (expression has type "{got}", TypedDict item "{key}" has type "{exp}")', "typeddict-item")
    missing = [k for k in td.required if k not in seen]
    if missing:
        keys = ", ".join(f'"{k}"' for k in sorted(missing, key=list(items).index))
        ex.error(node, f'Missing key{"s" if len(missing) > 1 else ""} {keys} for TypedDict "{format_type(td)}"', "typeddict-item")
    return td


def mapping_kv(ex: "ExprEvaluator", t: Type) -> tuple[Type, Type] | None:
    if isinstance(t, TypedDictType):
        return ex.ev.builtin("str"), ex.ev.builtin("object")
    if isinstance(t, Instance):
        mapping = ex.ev.named_class("typing.Mapping")
        if mapping is not None and mapping in t.info.mro:
            mapped = map_instance_to_supertype(t, mapping)
            if mapped is not None and len(mapped.args) == 2:
                return mapped.args[0], mapped.args[1]
    return AnyType("special"), AnyType("special")


def comprehension(ex: "ExprEvaluator", generators: list[ast.comprehension], node: ast.expr | None = None) -> "_Comprehension":
    """Bind the targets of a comprehension's `generators` while the block runs;
    `node`: the comprehension, where unpacking a str is reported."""
    return _Comprehension(ex, generators, node)


class _Comprehension:
    """A `comprehension` block (a class, not a contextlib generator: one per
    comprehension walked, ~1.9k on the bench corpus)."""
    __slots__ = ("ex", "generators", "node", "nested")

    def __init__(self, ex: "ExprEvaluator", generators: list[ast.comprehension], node: ast.expr | None) -> None:
        self.ex, self.generators, self.node = ex, generators, node
        self.nested = False

    def __enter__(self) -> None:
        ex = self.ex
        layer: dict[str, Type] = {}
        ex.overlay.append(layer)
        try:
            for gen in self.generators:
                it = ex.infer(gen.iter)
                if not self.nested:
                    # Only the first iterable is evaluated in the enclosing scope: past it,
                    # a class body's names are hidden (ExprEvaluator.nested_in_class).
                    self.nested = True
                    ex.nested_in_class += 1
                item = ex.iterate(it, gen.iter, is_async=bool(gen.is_async))
                ex.assign_types(gen.target, item, layer, self.node)
                for cond in gen.ifs:
                    check_condition(ex, cond, infer_condition(ex, cond), " in comprehension")
                    narrowed = ex.narrow_for(cond, True)
                    layer.update(narrowed)
        except BaseException:
            self.__exit__()  # (the block's exit is not called when its entry raises)
            raise

    def __exit__(self, *exc: object) -> None:
        self.ex.overlay.pop()
        if self.nested:
            self.ex.nested_in_class -= 1


def infer_list_comp(ex: "ExprEvaluator", node: ast.ListComp, expected: Type | None) -> Type:
    return _collection_comp(ex, node, expected, "list", ("builtins.list", "typing.Iterable", "typing.Sequence"))


def infer_set_comp(ex: "ExprEvaluator", node: ast.SetComp, expected: Type | None) -> Type:
    return _collection_comp(ex, node, expected, "set", ("builtins.set", "typing.Iterable", "typing.AbstractSet"))


def _collection_comp(ex: "ExprEvaluator", node: ast.ListComp | ast.SetComp, expected: Type | None, cls: str, context_names: tuple[str, ...]) -> Type:
    """A list or set comprehension: the item context comes from `expected` seen as one of `context_names`."""
    ctx = ex._container_item_context(expected, context_names)
    with ex._comprehension(node.generators, node):
        elt = ex.infer(node.elt, ctx)
    if ctx is not None and is_subtype(ex.ev, elt, ctx):
        return ex.ev.builtin(cls, ctx)
    return ex.ev.builtin(cls, widen_literals(elt, keep_declared=True))


def infer_dict_comp(ex: "ExprEvaluator", node: ast.DictComp, expected: Type | None) -> Type:
    with ex._comprehension(node.generators, node):
        k = ex.infer(node.key)
        v = ex.infer(node.value)
    if expected is not None:
        ctx = ex._dict_context(expected)
        if ctx is not None and is_subtype(ex.ev, k, ctx[0]) and is_subtype(ex.ev, v, ctx[1]):
            return ex.ev.builtin("dict", *ctx)
    return ex.ev.builtin("dict", widen_literals(k, keep_declared=True), widen_literals(v, keep_declared=True))


def _all_fit(ex: "ExprEvaluator", types: "list[Type]", ctx: Type) -> bool:
    """Whether each of `types` is assignable to `ctx` (a loop, not `all()` over a
    generator: asked for each display inferred in a context)."""
    ev = ex.ev
    for t in types:
        if not is_subtype(ev, t, ctx):
            return False
    return True


def _ambiguous_union_context(ex: "ExprEvaluator", expected: Type) -> bool:
    """Whether a union context holds several members a dict could be that say
    different things of its key and value types (`Mapping[str, str] |
    Iterable[tuple[str, str]]`): mypy then learns nothing from the context
    (its any_constraints over the members), infers the display from its items
    and reports the argument or assignment as a whole, not its entries."""
    items = union_items(expected)
    if len(items) < 2:
        return False
    any_dict = ex.ev.builtin("dict", AnyType("special"), AnyType("special"))
    mapping = ex.ev.named_class("typing.Mapping")
    seen: set[tuple[Type, Type] | None] = set()
    for item in items:
        if isinstance(item, AnyType) or not is_subtype(ex.ev, any_dict, item):
            continue
        kv = None
        if isinstance(item, Instance) and mapping is not None and mapping in item.info.mro:
            mapped = map_instance_to_supertype(item, mapping)
            if mapped is not None and len(mapped.args) == 2:
                kv = (mapped.args[0], mapped.args[1])
        seen.add(kv)
    return len(seen) > 1


def dict_context(ex: "ExprEvaluator", expected: Type) -> tuple[Type, Type] | None:
    for item in union_items(expected):
        if isinstance(item, Instance):
            kv = ex._mapping_kv(item)
            if kv is not None and not isinstance(kv[0], AnyType):
                return kv
    return None


def infer_generator_exp(ex: "ExprEvaluator", node: ast.GeneratorExp, expected: Type | None) -> Type:
    ctx = ex._container_item_context(expected, ("typing.Iterable", "typing.Iterator", "typing.Generator"))
    elt_cls = type(node.elt)
    if (elt_cls is ast.Name or elt_cls is ast.Attribute) and (ctx is None or not expects_type_form(ctx, node.elt)):
        elt = _plain_elt(ex, node)
    else:
        with ex._comprehension(node.generators, node):
            elt = ex.infer(node.elt, ctx)
    item = ctx if ctx is not None and is_subtype(ex.ev, elt, ctx) else widen_literals(elt, keep_declared=True)
    return ex.ev.instance("typing.Generator", (item, NONE, NONE))


# The memo key's "expected type" for a generator's element inferred without context (_plain_elt).
_PLAIN_ELT = object()


def _plain_elt(ex: "ExprEvaluator", node: ast.GeneratorExp) -> Type:
    """The type of a generator's element that is a name or an attribute, which
    reads its context only to be taken as a type form (the caller rules that
    out): the same in every context. The generator is inferred again in each
    overload item's context (`sorted(x.name for x in xs)`, `next(...)`: 400 walks
    of the same generators on the bench corpus); the element's type is kept in
    the inference memo for the epoch, with what the walk reported, replayed on
    a hit as `ExprEvaluator.infer` replays a memoized inference."""
    memo = ex._memo
    key = memo.key(node, _PLAIN_ELT, ex.overlay)  # type: ignore[arg-type]  # (a key no type equals)
    hit = memo._table.get(key)
    if hit is not None:
        t, reported = hit
        for diag in reported:
            ex._emit(*diag)
        return t
    start = memo.logged  # (recorded as ExprEvaluator.infer records a memoized inference)
    memo.open += 1
    try:
        with ex._comprehension(node.generators, node):
            elt = ex.infer(node.elt, None)
    finally:
        memo.open -= 1
        reported = memo.reported(start) if memo.logged > start else ()
    if memo.depth:
        memo._table[key] = (elt, reported)
    return elt
