"""Call expressions: the type of `f(...)` (ExprEvaluator's `_Call`), with what it
checks about the call besides its arguments (untyped calls, a used None result,
`str.format`), and the call site an evaluator gives the call checks (`calls`,
`call_dispatch`). Functions here are ExprEvaluator's methods (`self` named `ex`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate import type_forms
from veritype.evaluate.brace_format import check_format_call, is_format_call
from veritype.evaluate.call_dispatch import call_type, call_types, plain_constructor
from veritype.evaluate.call_plain import fits_plainly, plain_keywords, plain_positional
from veritype.evaluate.calls import ARG_KW, ARG_POS, ARG_STAR, ARG_STAR2, Arg, CallSite, plain_call
from veritype.evaluate.returns_value import check_call_value
from veritype.evaluate.special_calls import CALLEE_NAMES, REVEALS, TYPEDDICT_METHODS, may_be_special, named_special_call, typeddict_call
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.types.model import CallableType, Instance, NoneType, Overloaded, SpecialForm, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def infer_call(ex: "ExprEvaluator", node: ast.Call, expected: Type | None) -> Type:
    memo = ex._memo
    if expected is not None:
        hit = memo.context_free(node, ex.overlay)
        if hit is not None:  # inferred before without context, by a call that never read it
            ex.replay(hit[1])
            return hit[0]
    # The calls evaluated in special_calls: a TypedDict's key methods, and the special
    # functions by their full name, whose resolution is asked only where the type of
    # the call's function may be one of them (most calls: may_be_special), or, for the
    # two names taken as builtins where nothing binds them, first (reported
    # undefined otherwise). Neither is the case for most calls.
    func = node.func
    named = type(func) is ast.Name
    if named:
        if func.id in REVEALS:  # type: ignore[attr-defined]
            special = named_special_call(ex, node, expected)
            if special is not None:
                return special
            named = False  # (asked)
    elif type(func) is ast.Attribute:
        named = True
        if func.attr in TYPEDDICT_METHODS:  # type: ignore[attr-defined]
            special = typeddict_call(ex, node)
            if special is not None:
                return special
    callee = ex.infer(func)
    kind = type(callee)  # (exact classes: the type model has no subclasses of these)
    # (may_be_special's commonest answer, a function's name, tested first.)
    if named and ((kind is not CallableType and kind is not Overloaded) or not callee.name or callee.name in CALLEE_NAMES) and may_be_special(callee):  # type: ignore[attr-defined]
        special = named_special_call(ex, node, expected)
        if special is not None:
            return special
    if kind is SpecialForm and callee.name == "TypeForm" and len(node.args) == 1 and not node.keywords and ex.scope is not None:  # type: ignore[attr-defined]
        return type_forms.type_form_call(ex.ev, node.args[0], ex.scope, ex.type_report)
    reporting = ex._report is not None  # (ex.reporting: the same after the call, whose recordings are closed)
    if reporting and (kind is TypeType or (kind is CallableType and callee.is_untyped)):  # type: ignore[attr-defined]
        check_untyped_call(ex, callee, node)  # type: ignore[arg-type]
    free = [True] if expected is None and memo.depth > 1 else None  # (only a memoized answer is marked)
    result: Type | None = None
    plain: list[Type] | bool | None = None
    sig: CallableType | None = None  # (what a plain call is checked against)
    if kind is CallableType:
        if not callee.type_vars:  # type: ignore[attr-defined]
            sig = callee  # type: ignore[assignment]
    elif kind is TypeType:
        sig = plain_constructor(ex.ev, callee, node)  # type: ignore[arg-type]
    if sig is not None:
        # A plain call (call_plain) of a function, method or class: most calls, answered
        # from the arguments' types without context, without the call's Args and CallSite.
        nodes: list[ast.expr] = node.args
        where: list[int] | None = None
        if not node.keywords:
            plain = plain_positional(sig, nodes)  # type: ignore[arg-type]
        else:
            where = plain_keywords(sig, nodes, node.keywords)  # type: ignore[arg-type]
            plain = where is not None
            if plain:
                nodes = [*nodes, *[kw.value for kw in node.keywords]]  # (in call_args' order)
        if plain:
            plain = []
            for a in nodes:
                plain.append(ex.infer(a, None))
            if fits_plainly(ex.ev, sig, nodes, plain, where):  # type: ignore[arg-type]
                result = sig.ret
    if result is None:
        result = call_node(ex, callee, call_args(ex, node), node, expected=expected, context_free=free, plain=plain)
    if free is not None and free[0]:
        memo.mark_context_free(node, ex.overlay)
    if reporting:
        if type(result) is NoneType:  # (check_call_value's first question, asked here: most results are not None)
            check_call_value(ex, node, callee, result)
        if type(func) is ast.Attribute and func.attr == "format" and is_format_call(node):  # type: ignore[attr-defined]
            check_format_call(ex, node)
    return result


def check_untyped_call(ex: "ExprEvaluator", callee: CallableType | TypeType, node: ast.Call) -> None:
    """--disallow-untyped-calls: a call to an unannotated def from checked code."""
    if ex.scope is None or (isinstance(callee, CallableType) and not callee.is_untyped):
        return
    opts = ex.ev.program.options.for_module(ex.scope.module.name)
    if not opts.disallow_untyped_calls:
        return
    if isinstance(callee, TypeType):
        # A class whose constructor (`__init__`) is unannotated, named by the class (mypy).
        if not isinstance(callee.item, Instance):
            return
        ctor = ex.ev.members.constructor(callee)
        if not isinstance(ctor, CallableType) or not ctor.is_untyped:
            return
        name = callee.item.info.name
    else:
        name = callee.name or "function"
    ex.error(node, f'Call to untyped function "{name}" in typed context', "no-untyped-call")


def call_args(ex: "ExprEvaluator", node: ast.Call) -> list[Arg]:
    # (Arg's fields by position: quicker to make than by keyword; one per argument of every call.)
    args: list[Arg] = []
    for a in node.args:
        if type(a) is ast.Starred:
            args.append(Arg(ARG_STAR, None, a.value))  # type: ignore[attr-defined]
        else:
            args.append(Arg(ARG_POS, None, a))
    for kw in node.keywords:
        if kw.arg is None:
            args.append(Arg(ARG_STAR2, None, kw.value))
        else:
            args.append(Arg(ARG_KW, kw.arg, kw.value))
    return args


def call_node(ex: "ExprEvaluator", callee: Type, args: list[Arg], node: ast.AST, expected: Type | None = None, method: str | None = None,
              receiver: Type | None = None, context_free: list[bool] | None = None, plain: list[Type] | bool | None = None) -> Type:
    """The type of the call `node` of `callee` with `args`. `plain`: check_signature's,
    where the caller asked already (False: not a plain call; else the types of the
    arguments, in `args`' order, which do not fit plainly: see call_plain)."""
    # The arguments' types without context, by node (hashed by identity).
    cache: dict[ast.expr, Type] = {}
    if plain is None and type(callee) is CallableType and not callee.type_vars:
        # check_signature's first case asked here, without the site (most calls).
        plain = plain_call(ex.ev, callee, args, ex.infer)
        if plain is True:
            return callee.ret
    if plain:
        # The arguments' types without context: the check reads them (infer_arg).
        for a, t in zip(args, plain):  # type: ignore[arg-type]
            cache[a.node] = t  # type: ignore[index]
        if type(callee) is not CallableType:
            plain = None  # (a class's: its constructor's check asks again, from `cache`)

    def infer_arg(n: ast.expr, exp: Type | None) -> Type:
        if exp is None and n in cache:
            return cache[n]
        t = ex.infer(n, exp)
        if exp is None:
            cache[n] = t
        return t

    def report(n: ast.AST | None, msg: str, code: str) -> None:
        if code == "note":
            ex.note(n if n is not None else node, msg)
            return
        if method == "__getitem__" and code in ("call-overload", "arg-type") and receiver is not None:
            idx = args[0].type or (cache.get(args[0].node) if args[0].node is not None else None)
            msg = f'Invalid index type "{format_type(widen_literals(idx)) if idx is not None else "?"}" for "{format_type(receiver)}"; expected type "{_expected_index(callee)}"'
            code = "index"
        ex.error(n if n is not None else node, msg, code)

    # (CallSite's fields by position: expected_ret, recording, scope, replay, context_free, free_arg.)
    site = CallSite(ex.ev, infer_arg, report, node, ex.iterate, expected, ex.recording, ex.scope, ex.replay, context_free,
                    ex.context_free_call)
    return call_type(site, callee, args, plain)


def context_free_call(ex: "ExprEvaluator", node: ast.expr) -> bool:
    """Whether `node`, a call inferred without context in this memo's epoch, gives
    the same answer (and reports) under any expected type (InferMemo.context_free,
    whose depth test concerns the call being inferred, not one inferred before)."""
    memo = ex._memo
    key = memo.key(node, None, ex.overlay)
    return key in memo._context_free and key in memo._table


def call_with_types(ex: "ExprEvaluator", callee: Type, arg_types: list[Type], node: ast.AST | None) -> Type | None:
    return call_types(ex.ev, callee, arg_types)


def _expected_index(callee: Type) -> str:
    if isinstance(callee, CallableType) and callee.params:
        return format_type(callee.params[0].type)
    if isinstance(callee, Overloaded) and callee.items and callee.items[0].params:
        return format_type(callee.items[0].params[0].type)
    return "Any"
