"""Answers of silent calls made with known argument types, and of overloaded
calls written in the code (expression_key, below), kept once final.

`call_dispatch.call_types` calls a callee with argument types, not
expressions, and reports nothing: `__iter__`/`__next__` of every `for` loop
and comprehension, each operator's dunder (`__add__`, `__contains__`...),
a descriptor's `__get__`. The same few questions come again and again (19,800
calls for 1,450 distinct ones on the bench corpus), each a full signature
check (or overload resolution).

Pure: the answer (the return type, or None when the call has an error)
depends on the callee, the argument types and the classes involved, nothing
else: there are no argument expressions, no expected type, no scope and no
flow; the options it reads are the program's. It is kept only when final:
asked while no lazy evaluation is in progress (one that is may still hold a
placeholder, see Evaluator.lazy_depth), as in `found_members`.

Keys: the callee by identity (a callable's name, definition and flags take
no part in its equality, and its definition decides a deprecation report);
it is kept alive in the entry so that its id stays its own. Arguments by
value where every field of the type takes part in equality (an instance of
plain instances, None) and for literals with their `declared` flag (which
equality leaves out and the solver reads); a call with any other argument
is not kept. The table lives on the evaluator's `members` (Members.known_calls)
beside the other kept answers about classes (found members and constructors),
which the engine drops when classes are forgotten (Members.forget), so that no
answer about a forgotten class outlives it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ast

from veritype.evaluate import deprecation
from veritype.evaluate.found_members import literal_key, plain_instance as _plain
from veritype.types.model import Instance, LiteralType, NoneType, Overloaded, Type, TypeFormType, TypeType, TypeVarType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.calls import Arg, CallSite
    from veritype.evaluate.evaluator import Evaluator

_MISSING = object()


def answer(ev: "Evaluator", callee: Type, arg_types: list[Type], call: Callable[[], Type | None]) -> Type | None:
    """`call()`, the silent call of `callee` with `arg_types`, from the table when asked before."""
    if ev.lazy_depth:
        return call()
    key = _key(callee, arg_types)
    if key is None:
        return call()
    table = ev.members.known_calls
    hit = table.get(key, _MISSING)
    if hit is not _MISSING and hit[1] is callee:  # type: ignore[index]
        return hit[0]  # type: ignore[index]
    result = call()
    table[key] = (result, callee)  # (lazy_depth is 0 again: lazy evaluations restore it)
    return result


def _key(callee: Type, arg_types: list[Type]) -> tuple[object, ...] | None:
    key: list[object] = [id(callee)]
    for t in arg_types:
        tp = type(t)
        if tp is Instance:
            if not _plain(t):
                return None
            key.append(t)
        elif tp is LiteralType:
            literal = literal_key(t)  # type: ignore[arg-type]
            if literal is None:
                return None
            key.append(literal)
        elif tp is NoneType:
            key.append(t)
        else:
            return None
    return tuple(key)


# -- overloaded calls written in the code ------------------------------------------------
#
# A call expression of an overloaded callee (`xs[0]`, `list(xs)`, `d.get(k)`,
# `sorted(names)`) is resolved by trying its items: each a signature check,
# many a solve. Where the same question comes again (2,951 of 4,251 such calls
# on the bench corpus whose arguments qualify), the answer is the same: it is
# kept in `Members.known_expr_calls`, on the same terms as above, once the
# arguments are inferred (which still happens for every call: what they
# report is theirs), by expression_key.
#
# The resolution reads nothing but the callee, the argument types and the
# expected type where (1) each argument is a plain positional or keyword one,
# no `*`/`**`, of a known type (an operand, a tuple's item spread by `*t`) or
# of an expression whose type does not change with its context (calls.py's
# _RE_INFERRED: a display, a lambda, a nested call... are inferred again in
# each item's context; a constant's literal type with a context is its
# value's, which the key holds; a nested call the memo knows did not read its
# context, InferMemo.context_free, is inferred again from the memo with the
# same type and reports); (2) no item reads an argument
# expression: no parameter is a `type[...]` (an abstract class given for one
# is looked up by name) or a TypeForm (the argument is read as a type
# expression in the call's scope), nor can become one by a type variable's
# default (store_for); and (3) the resolution reported nothing at all, not
# even held back in an item's trial (its outcome decides between items and
# is then the same: the keys hold no Any, no union to expand, no callable
# whose name a message would show). A `deprecated` report names the call:
# with that code enabled nothing is kept. What the resolution records besides
# its answer, whether it read the expected type (CallSite.context_free), is
# kept with it and set again on a hit.

# Expression classes whose type does not depend on the context they are
# inferred in, beside a constant (calls._RE_INFERRED holds the others).
_CONTEXT_FREE_ARG = frozenset({ast.Name, ast.Attribute, ast.Subscript, ast.Slice, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Compare, ast.JoinedStr})


def expression_key(site: "CallSite", callee: Overloaded, args: "list[Arg]", arg_types: list[Type]) -> tuple[object, ...] | None:
    """The key of an overloaded call written in the code, or None where its answer is not kept."""
    ev = site.ev
    if ev.lazy_depth or site.recording is None or deprecation.enabled(ev):
        return None
    expected = site.expected_ret
    if expected is not None and not _plain(expected) and not _plain_union(expected):
        return None
    shape: list[object] = []
    for a in args:
        if a.kind != "pos" and a.kind != "kw":
            return None
        if a.type is None and type(a.node) not in _CONTEXT_FREE_ARG:
            # A nested call that did not read its context (`list(d.keys())`) is inferred
            # again in each item's context, from the memo: the same type and reports.
            if type(a.node) is not ast.Call or site.free_arg is None or not site.free_arg(a.node):  # type: ignore[arg-type]
                return None
        shape.append(a.name)  # (None for a positional one)
    key = _key(callee, arg_types)
    if key is None:
        return None
    return (key, tuple(shape), expected)


def _plain_union(t: Type) -> bool:
    """None, or a union of None and plain instances (`str | None`): every field counts in its equality."""
    tp = type(t)
    if tp is NoneType:
        return True
    if tp is not UnionType:
        return False
    for item in t.items:  # type: ignore[attr-defined]
        if type(item) is not NoneType and not _plain(item):
            return False
    return True


def store_for(callee: Overloaded) -> bool:
    """Whether no item of `callee` reads an argument expression (see above)."""
    for item in callee.items:
        for tv in item.type_vars:
            if tv.default is not None:
                return False
        for p in item.params:
            t = p.type
            for part in t.items if type(t) is UnionType else (t,):  # type: ignore[attr-defined]
                tp = type(part)
                if tp is TypeType or tp is TypeFormType or (tp is TypeVarType and part.default is not None):  # type: ignore[attr-defined]
                    return False
    return True
