"""Operator inference: boolean, unary, binary and comparison operators through the dunder
protocol with reflected operands (as the data model says), and strict-equality overlap.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate import operand_errors
from veritype.evaluate.await_hint import MISSING_AWAIT, missing_await
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import ANY_ERROR, POS_ONLY, POS_OR_KW, AnyType, CallableType, Instance, LiteralType, NoneType, SpecialForm, TupleType, Type, TypedDictType, TypeType, make_union, NeverType, union_items
from veritype.evaluate.call_dispatch import call_types
from veritype.evaluate.redundant_expr import check_operand, check_right_operand, enabled as rule_enabled
from veritype.evaluate.truthiness import falsy_part, truthy_part
from veritype.evaluate.truthy_function import check_truthy_function, in_condition, infer_condition, mark_condition
from veritype.types.display_join import simplified_union
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.expressions import ExprEvaluator


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


_COMPARE_OPS = tuple(COMPARE_DUNDERS)

# The displays _is_empty_display looks at.
_EMPTY_DISPLAYS = (ast.List, ast.Set, ast.Dict)

# The operands of `and`/`or` whose inference a context can change (the others,
# names and constants above all, are inferred as before, without one).
_LEFT_CONTEXT_TAKERS = frozenset((ast.List, ast.Set, ast.Dict, ast.Tuple, ast.ListComp, ast.SetComp, ast.DictComp,
                                  ast.Call, ast.Lambda, ast.IfExp, ast.BinOp))


UNARY_DUNDERS = {ast.USub: ("__neg__", "-"), ast.UAdd: ("__pos__", "+"), ast.Invert: ("__invert__", "~")}


def infer_bool_op(ex: "ExprEvaluator", node: ast.BoolOp, expected: Type | None) -> Type:
    results: list[Type] = []
    left_type: Type = AnyType("special")  # (the operand before, as inferred)
    positive = isinstance(node.op, ast.And)
    pushed = 0
    right_reported = False
    decided = 0  # how many operands' parts make the value, once one decides it
    # (Whether the whole is a condition: inferring its operands marks only theirs.)
    whole_tested = in_condition(ex, node)
    # Whether the optional rules about an operand (redundant_expr) are on, asked
    # once for the operands (each rule's own first test, which it asks again).
    redundant = rule_enabled(ex)
    unreachable = rule_enabled(ex, "unreachable")
    try:
        for i, value in enumerate(node.values):
            last = i == len(node.values) - 1
            # mypy tests every operand but the last for truth; the last one too
            # when the whole expression is a condition.
            tested = not last or whole_tested
            if tested:
                mark_condition(ex, value)
            if expected is not None or not results:
                context = expected
            elif type(value) in _EMPTY_DISPLAYS and _is_empty_display(value):
                context = sibling_context(None, value, results[-1])
            elif type(value) in _LEFT_CONTEXT_TAKERS and not isinstance(left_type, AnyType):
                # mypy 2.4.1: with no outer context an operand after the first is
                # inferred in the context of the operands before it (`anys or
                # [b for b in bs]` is a list of `anys`' items; `xs or list(ys)`
                # solves `list`'s type variable by `xs`' type).
                context = make_union(results[:-1] + [left_type]) if len(results) > 1 else left_type
            else:
                context = None
            t = ex.infer(value, context)
            left_type = t
            if tested:
                check_truthy_function(ex, value, t, class_objects=whole_tested)
            if not last:
                if redundant:
                    check_operand(ex, node, i, t)
                if unreachable and not right_reported:
                    right_reported = check_right_operand(ex, node, i, t)
            if last:
                results.append(t)
            else:
                # mypy's false_only/true_only: a falsy bool is `Literal[False]`, a falsy
                # int/str/bytes its empty literal, a truthy bool `Literal[True]`.
                results.append(falsy_part(ex.ev, t, literal_bool=True) if positive else truthy_part(ex.ev, t, literal_bool=True))
                if not decided and isinstance(truthy_part(ex.ev, t) if positive else falsy_part(ex.ev, t, branch=True), NeverType):
                    # The operands after this one never run (`f() and g()` with
                    # `f() -> None`): mypy's type is the parts up to here. They
                    # are still inferred, as before: their names are resolved
                    # (mypy's name-defined comes from its semantic pass).
                    decided = len(results)
                layer = ex.narrow_for(value, positive)
                ex.overlay.append(layer)
                pushed += 1
    finally:
        for _ in range(pushed):
            ex.overlay.pop()

    # mypy simplifies the result: `history or ()` on `tuple[R, ...] | None` is
    # `tuple[R, ...]` (the empty tuple is one of them), `o is not None and o + 1` int.
    return simplified_union(ex.ev, results[:decided] if decided else results)


def infer_unary_op(ex: "ExprEvaluator", node: ast.UnaryOp, expected: Type | None) -> Type:
    if isinstance(node.op, ast.Not):
        infer_condition(ex, node.operand)
        return ex.ev.builtin("bool")
    operand = ex.infer(node.operand)
    if isinstance(operand, LiteralType) and isinstance(operand.value, int) and not isinstance(operand.value, bool):
        if isinstance(node.op, ast.USub):
            return ex.ev.literal(-operand.value)
        if isinstance(node.op, ast.UAdd):
            return operand
    dunder, sym = UNARY_DUNDERS[type(node.op)]
    results: list[Type] = []
    reported = False
    for item in union_items(operand):
        if isinstance(item, AnyType):
            results.append(item)
            continue
        method = ex.ev.bound_member(item, dunder)
        if method is None:
            # mypy's wording: "unary -" / "unary +", but plain "~"; once, naming the
            # whole operand (`-x` for `x: int | None` is "int | None", mypy 2.4.1).
            label = sym if sym == "~" else f"unary {sym}"
            if not reported:
                ex.error(node, f'Unsupported operand type for {label} ("{format_type(widen_literals(operand))}")', "operator")
                reported = True
            if missing_await(ex.ev, item, lambda awaited: ex.ev.bound_member(awaited, dunder) is not None):
                ex.note(node, MISSING_AWAIT)
            results.append(ANY_ERROR)
            continue
        results.append(ex._call_known(method, [], node))
    return make_union(results)


def infer_bin_op(ex: "ExprEvaluator", node: ast.BinOp, expected: Type | None) -> Type:
    # mypy gives an operand no context of the operation's own (the right one
    # gets the dunder's parameter as it is checked), but for `[...] * n`, whose
    # list display takes it (check_list_multiply): in `x: list[object] =
    # list(range(3)) + list(range(2))` a generic call is not solved from a
    # context it never had (evaluate/context_first.py). A display or
    # comprehension keeps the operation's context (veritype's stand-in for the
    # dunder's parameter: `d: dict[object, str] = {...} | {str: "s"}`).
    left = ex.infer(node.left, expected if _takes_context(node.op, node.left) else None)
    if isinstance(node.op, ast.BitOr) and isinstance(left, TypedDictType) and isinstance(node.right, ast.Dict):
        from veritype.evaluate.typeddict_merges import merge_display

        if merge_display(ex, left, node.right, mutates=False):
            return left
    right = ex.infer(node.right, expected if _takes_context(node.op, node.right) and not isinstance(node.op, ast.Mult) else None)
    if isinstance(node.op, ast.Mod) and isinstance(left, (Instance, LiteralType)) and _fallback_name(left) in ("builtins.str", "builtins.bytes"):
        from veritype.evaluate.percent_format import check_percent

        check_percent(ex, node, right)
        return ex.ev.builtin(_fallback_name(left).rpartition(".")[2])
    if isinstance(node.op, ast.BitOr) and ex._is_type_form(left) and ex._is_type_form(right):
        return ex.ev.instance("types.UnionType")
    if isinstance(node.op, ast.Add) and _plain_tuple(left) and _plain_tuple(right):
        # Two fixed-length tuples concatenate item by item (typeshed's tuple.__add__
        # would join them into tuple[A | B, ...]); NamedTuples stay on __add__.
        assert isinstance(left, TupleType) and isinstance(right, TupleType)
        return ex.ev.tuple_of(left.items + right.items)
    result = ex.binary(node, left, right, node.op)
    if isinstance(node.op, ast.Pow):
        return _int_pow(ex, node, left, result)
    return result


_DISPLAYS = (ast.List, ast.Set, ast.Dict, ast.Tuple, ast.ListComp, ast.SetComp, ast.DictComp)


def _takes_context(op: ast.operator, operand: ast.expr) -> bool:
    """Whether an operand of `op` is inferred with the operation's own context."""
    return isinstance(op, (ast.Add, ast.BitOr, ast.Mult)) and isinstance(operand, _DISPLAYS)


def _int_pow(ex: "ExprEvaluator", node: ast.BinOp, left: Type, result: Type) -> Type:
    """`int ** <literal>`: mypy's default plugin (int_pow_callback) makes
    `int.__pow__` with an integer literal exponent an `int`, or a `float` for a
    negative literal, where typeshed's overloads give Any past the exponents
    they list (`2**32 + 2` is an `int`; multidict's tests). The hook is found
    by the receiver's class: a `bool` receiver keeps typeshed's answer."""
    exp = node.right
    sign = 1
    if isinstance(exp, ast.UnaryOp) and isinstance(exp.op, ast.USub):
        exp, sign = exp.operand, -1
    if not (isinstance(exp, ast.Constant) and type(exp.value) is int):
        return result
    if not all(_fallback_name(i) == "builtins.int" for i in union_items(left)):
        return result
    return ex.ev.builtin("int" if sign * exp.value >= 0 else "float")


def is_type_form(ex: "ExprEvaluator", t: Type) -> bool:
    return isinstance(t, (TypeType, SpecialForm, NoneType)) or (isinstance(t, Instance) and t.info.fullname in ("types.UnionType", "typing._SpecialForm", "types.GenericAlias"))


def binary(ex: "ExprEvaluator", node: ast.AST, left: Type, right: Type, op: ast.operator, augmented: bool = False, note: bool = True) -> Type:
    dunder, rdunder, sym = BINOP_DUNDERS[type(op)]
    since = operand_errors.reported[0]  # (read, not called: asked of every operation)
    if augmented:
        idunder = "__i" + dunder[2:]
        results: list[Type] = []
        for litem in union_items(left):
            method = ex.ev.bound_member(litem, idunder) if not isinstance(litem, AnyType) else None
            if method is not None:
                r = ex._try_call(method, right)
                if r is not None:
                    _deprecated_dunder(ex, node, method)
                    results.append(r)
                    continue
            results.append(ex.binary(node, litem, right, op, note=False))
        if operand_errors.reported[0] != since:
            operand_errors.union_note(ex, left, right)
        return make_union(results)
    results = []
    for litem in union_items(left):
        r = ex._binary_one(node, litem, right, dunder, rdunder, sym, left)
        results.append(r)
    if note and operand_errors.reported[0] != since:
        operand_errors.union_note(ex, left, right)
    return make_union(results)


def binary_one(ex: "ExprEvaluator", node: ast.AST, left: Type, right: Type, dunder: str, rdunder: str, sym: str, whole_left: Type) -> Type:
    if isinstance(left, AnyType):
        return left
    results: list[Type] = []
    for ritem in union_items(right):
        if isinstance(ritem, AnyType):
            results.append(AnyType("implicit"))
            continue
        r = ex._binary_pair(left, ritem, dunder, rdunder)
        if r is None:
            at = operand_errors.report_operand_error(ex, node, operand_errors.right_operand(node, right), left, ritem, dunder, rdunder, sym)
            operand_await_hint(ex, at, left, ritem, dunder, rdunder)
            results.append(ANY_ERROR)
        else:
            if ex._deprecations:
                method = ex.ev.bound_member(left, dunder)
                if method is not None and ex._try_call(method, ritem) is not None:
                    _deprecated_dunder(ex, node, method)
            results.append(r)
    return make_union(results)


def operand_await_hint(ex: "ExprEvaluator", node: ast.AST, left: Type, right: Type, dunder: str, rdunder: str) -> None:
    """mypy's `Maybe you forgot to use "await"?` when awaiting an operand makes the operation work."""
    if missing_await(ex.ev, left, lambda awaited: ex._binary_pair(awaited, right, dunder, rdunder) is not None) or missing_await(
        ex.ev, right, lambda awaited: ex._binary_pair(left, awaited, dunder, rdunder) is not None
    ):
        ex.note(node, MISSING_AWAIT)


def _deprecated_dunder(ex: "ExprEvaluator", node: ast.AST, method: Type) -> None:
    """Spec, `@deprecated`: "Any syntax that indirectly triggers a call to the
    function" - an operator calls its dunder."""
    if ex._deprecations:
        from veritype.evaluate.deprecation import method_message

        msg = method_message(method)
        if msg is not None:
            ex.error(node, msg, "deprecated")


def operand_message(ex: "ExprEvaluator", left: Type, right: Type, dunder: str, rdunder: str, sym: str) -> str:
    """mypy's wording: literals widened; "left operand" when neither side has the method at all."""
    if ex.ev.bound_member(left, dunder) is None and ex.ev.bound_member(right, rdunder) is None:
        return f'Unsupported left operand type for {sym} ("{format_type(widen_literals(left))}")'
    return f'Unsupported operand types for {sym} ("{format_type(widen_literals(left))}" and "{format_type(widen_literals(right))}")'


def binary_pair(ex: "ExprEvaluator", left: Type, right: Type, dunder: str, rdunder: str) -> Type | None:
    method = ex.ev.bound_member(left, dunder)
    reflected = ex.ev.bound_member(right, rdunder)
    # The reflected method goes first when the right operand's type is a
    # proper subclass of the left's (data model, "__radd__" notes).
    if reflected is not None and _is_proper_subclass(ex.ev, right, left):
        r = ex._try_call(reflected, left)
        if r is not None:
            return r
    if method is not None:
        r = ex._try_call(method, right)
        if r is not None:
            return r
    if reflected is not None:
        r = ex._try_call(reflected, left)
        if r is not None:
            return r
    if method is None and reflected is None and (ex._has_any_base(left) or ex._has_any_base(right)):
        return AnyType("special")
    return None


def has_any_base(ex: "ExprEvaluator", t: Type) -> bool:
    if isinstance(t, Instance):
        for c in t.info.mro:  # (a loop, not `any()` over a generator)
            if c.has_any_base:
                return True
    return False


def try_call(ex: "ExprEvaluator", method: Type, arg: Type) -> Type | None:
    r = call_types(ex.ev, method, [arg])
    if r is None:
        return None
    if isinstance(r, Instance) and r.info.fullname in ("builtins._NotImplementedType", "types.NotImplementedType"):
        return None
    return r


def call_known(ex: "ExprEvaluator", method: Type, args: list[Type], node: ast.AST) -> Type:
    r = call_types(ex.ev, method, args)
    return r if r is not None else AnyType("special")


def strict_equality(ex: "ExprEvaluator") -> bool:
    options = ex.ev.program.options
    if not (options.strict_equality or options.overrides or options.inline):
        return False
    if ex.scope is None:
        return bool(options.strict_equality)
    return bool(options.for_module(ex.scope.module.name).strict_equality)


def stored_widened(ex: "ExprEvaluator", node: ast.expr, t: Type) -> Type:
    """`t` with its literal types widened when `node` reads a stored value
    whose declared type has none (a literal only by veritype's narrowing)."""
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)) or widen_literals(t) == t:
        return t
    from veritype.evaluate.expressions import ExprEvaluator

    declared = ExprEvaluator(ex.ev, ex.scope).infer(node)  # no flow, no reporter
    return t if widen_literals(declared) != declared else widen_literals(t)


def infer_compare(ex: "ExprEvaluator", node: ast.Compare, expected: Type | None) -> Type:
    left = ex.infer(node.left)
    result: Type = ex.ev.builtin("bool")
    options = ex.ev.program.options
    # (strict_equality's first answer, without the call: the option is off everywhere.)
    strict_equality = bool(options.strict_equality or options.overrides or options.inline) and ex._strict_equality()
    any_result: AnyType | None = None
    for op, comp in zip(node.ops, node.comparators):
        right = ex.infer(comp)
        if not isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) and any_result is None:
            # mypy: an operator method with an Any operand gives Any (the Any may
            # define it any way), and so does a chain with such a part; `in`
            # and `is` give bool.
            any_result = left if isinstance(left, AnyType) else right if isinstance(right, AnyType) else None
        if strict_equality:
            from veritype.evaluate.strict_equality import comparison_overlap_message

            # A stored value (name, attribute, item) is compared as its
            # non-literal type: veritype narrows `n = 0` to Literal[0] where
            # mypy keeps `int`, and `n == 2` after a call that changed n is
            # no error in mypy.
            message = comparison_overlap_message(op, ex._stored_widened(node.left, left), ex._stored_widened(comp, right), ex.ev.program.options.strict_bytes, ex.ev)
            if message is not None:
                ex.error(node, message, "comparison-overlap")
        if isinstance(op, _COMPARE_OPS):
            dunder, rdunder, sym = COMPARE_DUNDERS[type(op)]
            since = operand_errors.reported[0]  # (read, not called: asked of every operation)
            for litem in union_items(left):
                if isinstance(litem, AnyType):
                    continue
                for ritem in union_items(right):
                    if isinstance(ritem, AnyType):
                        continue
                    r = ex._binary_pair(litem, ritem, dunder, rdunder)
                    if r is None:
                        at = operand_errors.report_operand_error(ex, node, operand_errors.right_operand(comp, right), litem, ritem, dunder, rdunder, sym, compare=True)
                        operand_await_hint(ex, at, litem, ritem, dunder, rdunder)
                    elif len(node.ops) == 1 and not (isinstance(r, Instance) and r.info.fullname == "builtins.bool"):
                        result = r
            if operand_errors.reported[0] != since:
                operand_errors.union_note(ex, left, right)
        elif isinstance(op, (ast.In, ast.NotIn)):
            for ritem in union_items(right):
                if isinstance(ritem, AnyType):
                    continue
                contains = ex.ev.bound_member(ritem, "__contains__")
                # Not `__getitem__`: mypy asks for an Iterable (old-style iteration does not count).
                if contains is None and ex.ev.bound_member(ritem, "__iter__") is None and not ex._has_any_base(ritem):
                    ex.error(node, f'Unsupported right operand type for in ("{format_type(widen_literals(ritem))}")', "operator")
            if not isinstance(left, AnyType) and not contains_ok(ex, left, right):
                ex.error(node, f'Unsupported operand types for in ("{format_type(widen_literals(left))}" and "{format_type(widen_literals(right))}")', "operator")
        left = right
    return any_result if any_result is not None else result


def contains_ok(ex: "ExprEvaluator", left: Type, right: Type) -> bool:
    """Whether `left in right` type-checks, as mypy decides it: the right
    operand's `__contains__` accepts the left one; failing that, when the right
    operand is iterable, the left one is a subtype of its item type (mypy
    falls back to the items then: `42 in d.items()` is an error, since
    typeshed's `dict_items.__contains__` takes `tuple[object, object]`).
    A right operand without `__contains__` is tested through its items too.
    Unsure (Any, an item type not found) counts as fine."""

    items = [r for r in union_items(right) if not isinstance(r, AnyType)]
    if len(items) != len(union_items(right)) or not items:
        return True
    # (Loops, not `any()`/`all()` over generators, each made, resumed and, stopping
    # early, closed by a raised GeneratorExit in Python 3.11: ~5k `in` tests a run.)
    for r in items:
        if _contains_from_container(r):
            return True
    methods = [ex.ev.bound_member(r, "__contains__") for r in items]
    for m in methods:
        if isinstance(m, AnyType):
            return True
    for r in items:
        if ex._has_any_base(r):
            return True
    for m, r in zip(methods, items):
        if m is None and ex.ev.bound_member(r, "__iter__") is None:
            return True  # another rule reports a right operand that has neither
    for m in methods:
        if not _takes_any_key(m):
            break
    else:
        return True  # what the calls below would say, without making them
    lefts = union_items(left)
    if all(m is not None and (ex._try_call(m, left) is not None or all(ex._try_call(m, li) is not None for li in lefts)) for m in methods):
        return True
    item_types = [_iter_item(ex, r) for r in items]
    if any(t is None for t in item_types):
        # Not iterable: mypy reports the failed `__contains__` call, in these words.
        return False
    return is_subtype(ex.ev, left, make_union([t for t in item_types if t is not None]))


def _takes_any_key(method: Type | None) -> bool:
    """A `__contains__` whose one parameter is `object` (typeshed's list, tuple,
    dict, set and their views): every left operand is a subtype of `object`, so
    a call of it with any one argument succeeds, with its non-NotImplemented
    return (1.3k `in` tests on the bench corpus, most of them on these)."""
    if type(method) is not CallableType or method.type_vars or len(method.params) != 1:  # type: ignore[union-attr]
        return False
    param = method.params[0]  # type: ignore[union-attr]
    ret = method.ret  # type: ignore[union-attr]
    if param.kind not in (POS_ONLY, POS_OR_KW) or not (type(ret) is Instance and ret.info.fullname == "builtins.bool"):
        return False
    t = param.type
    return type(t) is Instance and t.info.fullname == "builtins.object"


def _contains_from_container(t: Type) -> bool:
    """`__contains__` is `typing.Container`'s: the typeshed veritype bundles types
    its parameter by the (contravariant) type argument, mypy 2.4.1's takes
    `object`; a `Container[Task]` accepts anything under mypy."""
    if not isinstance(t, Instance):
        return False
    for cls in t.info.mro:
        if "__contains__" in cls.symbols:
            return cls.fullname == "typing.Container"
    return False


def _iter_item(ex: "ExprEvaluator", t: Type) -> Type | None:
    """The type `iter(t)` yields, found without reporting anything; None if
    `t` has no `__iter__` (mypy's fallback needs an Iterable)."""
    from veritype.evaluate.call_dispatch import call_types

    if isinstance(t, TupleType):
        from veritype.types.tuples import value_items

        return make_union(value_items(t)) if t.items else AnyType("special")
    it = ex.ev.bound_member(t, "__iter__")
    if it is None:
        return None
    iterator = call_types(ex.ev, it, [])
    nxt = ex.ev.bound_member(iterator, "__next__") if iterator is not None else None
    value = call_types(ex.ev, nxt, []) if nxt is not None else None
    return value if value is not None else AnyType("special")


def _is_empty_display(node: ast.expr) -> bool:
    return (isinstance(node, (ast.List, ast.Set)) and not node.elts) or (isinstance(node, ast.Dict) and not node.keys)


def sibling_context(expected: Type | None, node: ast.expr, sibling: Type | None) -> Type | None:
    """mypy behaviour: with no outer context, an empty display in `x or []` /
    `a if c else {}` takes the other operand's type (`list[int]`, not
    `list[Any]`)."""
    if expected is not None or sibling is None:
        return expected
    empty = _is_empty_display(node)
    if empty and isinstance(sibling, Instance) and sibling.info.fullname in ("builtins.list", "builtins.set", "builtins.dict"):
        return sibling
    if isinstance(node, ast.Dict) and not node.keys and isinstance(sibling, TypedDictType) and not sibling.required:
        return sibling  # `(options or {}).get("alt")` with a TypedDict of optional keys
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
