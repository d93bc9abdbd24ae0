"""Plain calls: the calls whose whole check is "each argument is assignable to its
parameter", known from the call's argument expressions and the callee's parameters
alone, before any argument is matched (`calls.match_arguments`).

Most calls are such: `f(a, b)`, `obj.m(x)`, `isinstance(x, C)`, `C(a, key=v)`. For
a callee without type variables whose arguments are plain (`plain_positional`,
`plain_keywords`: each goes to a parameter of its own, none is missing, no rule
about parameters together applies, and each is an expression whose type does not
change with its context), the arguments are inferred once without context, and
where each fits its parameter (`fits_plainly`) the call is its declared return
type: what `calls._check_matched` would give, and it would report nothing. Where
one does not fit, the call is checked from the same argument types.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.type_forms import expects_type_form
from veritype.types.model import POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, CallableType, Type, TypeFormType, TypeType, UnionType
from veritype.types.param_shape import ParamShape, shape_of
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


# Arguments whose type depends on the parameter's type they are inferred for.
# (Node classes, tested by `type(node) in`: the parser makes no subclasses, and
# isinstance against a dozen classes was most of the cost of a test made for
# every argument of every call.)
CONTEXT_SENSITIVE = frozenset({ast.Lambda, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                               ast.Tuple, ast.IfExp, ast.Call, ast.Constant, ast.BoolOp})
# Those inferred again with the parameter's type when the argument is checked (a
# constant's type does not change with its context there).
RE_INFERRED = CONTEXT_SENSITIVE - {ast.Constant}


def plain_positional(callee: CallableType, nodes: list[ast.expr]) -> bool:
    """Whether each argument, a call's positional argument expressions `nodes` (no
    keyword argument), is no `*` argument, of an expression inferred once without
    context (_plain_node), and goes to the parameter at its position, the parameters
    after them left to their defaults (or an empty `*args`), so that match_arguments
    maps argument i to parameter i and finds no error; and no rule about the
    parameters together (an unpacked or ParamSpec `*args`, a `**kwargs`:
    check_paramspec_arguments) applies."""
    # (_plain_node asked only of an argument whose class it may refuse: this is
    # asked for most calls.)
    for node in nodes:
        tp = type(node)
        if (tp in RE_INFERRED or tp is ast.Starred) and not _plain_node(node):
            return False
    return plain_arity(callee, len(nodes))


def plain_arity(callee: CallableType, n: int) -> bool:
    """plain_positional's question about the parameters, for `n` positional
    arguments: `callee` has no `**kwargs`, its first `n` parameters are positional,
    the others have defaults (or are the `*args`), and no rule about parameters
    together applies (_plain_shape and _others_defaulted, written out)."""
    params = callee.params
    count = len(params)
    if n > count or (params and params[-1].kind == VAR_KW):
        return False
    for i in range(n):
        kind = params[i].kind
        if kind != POS_ONLY and kind != POS_OR_KW:
            return False
    for i in range(n, count):
        p = params[i]
        if not p.has_default and p.kind != VAR_POS:
            return False
    shape: ParamShape | None = callee._shape  # (shape_of's slot, read directly)
    if shape is None:
        shape = shape_of(callee)
    return not shape.together


def plain_keywords(callee: CallableType, nodes: list[ast.expr], keywords: list[ast.keyword]) -> list[int] | None:
    """plain_positional for a call with keyword arguments (`keywords`, no `**`): the
    parameter each argument goes to (the positional ones, then the keyword ones),
    where each positional one goes to the parameter at its position and each keyword
    one to a parameter of its name (match_arguments' `keywords`) none other takes,
    every other parameter has a default (or is the `*args`), and the rest is as
    plain_positional asks; else None."""
    shape = _plain_shape(callee, nodes)
    if shape is None:
        return None
    n = len(nodes)
    where = list(range(n))
    by_name = shape.keywords
    for kw in keywords:
        name = kw.arg
        idx = by_name.get(name) if name is not None else None  # (None: a `**` argument)
        if idx is None or idx < n or idx in where or not _plain_node(kw.value):
            return None
        where.append(idx)
    return where if _others_defaulted(callee, n, where) else None


def _plain_shape(callee: CallableType, nodes: list[ast.expr]) -> ParamShape | None:
    """What plain_positional and plain_keywords both ask of the positional
    arguments `nodes`: as many parameters at least, no `**kwargs`, each argument
    plain (_plain_node) and going to a positional parameter, and no rule about the
    parameters together; the callee's shape then, else None."""
    params = callee.params
    n = len(nodes)
    if n > len(params) or (params and params[-1].kind == VAR_KW):
        return None
    for node in nodes:
        if not _plain_node(node):
            return None
    for i in range(n):
        kind = params[i].kind
        if kind != POS_ONLY and kind != POS_OR_KW:
            return None
    shape = shape_of(callee)
    return None if shape.together else shape


def _others_defaulted(callee: CallableType, n: int, taken: "list[int] | tuple[()]") -> bool:
    """Whether each parameter after the first `n` that no keyword argument takes
    (`taken`) has a default or is the `*args`: none is left without an argument."""
    params = callee.params
    for i in range(n, len(params)):
        p = params[i]
        if not p.has_default and p.kind != VAR_POS and i not in taken:
            return False
    return True


def _plain_node(node: ast.expr) -> bool:
    """Whether the argument expression `node` is no `*` argument and its type does
    not change with its context: its class is not in RE_INFERRED, or it is a tuple
    display of names and attributes only (the classes of `isinstance(x, (A, m.B))`,
    3.3k calls on the bench corpus): its type is the tuple of its items' types in
    any context. infer_tuple gives `tuple_of` of the items, each inferred with its
    item context, which a name or an attribute reads only to be taken as a type
    form (PEP 747); where one is expected, fits_plainly sends the argument on to be
    inferred again, in context."""
    tp = type(node)
    if tp is ast.Starred:
        return False
    if tp not in RE_INFERRED:
        return True
    if tp is not ast.Tuple:
        return False
    for e in node.elts:  # type: ignore[attr-defined]
        if type(e) is not ast.Name and type(e) is not ast.Attribute:
            return False
    return True


def fits_plainly(ev: "Evaluator", callee: CallableType, nodes: list[ast.expr], arg_types: list[Type], where: list[int] | None = None) -> bool:
    """For a plain call (plain_positional; plain_keywords, whose `where` is each
    argument's parameter) of a callee without type variables, given the arguments'
    types without context: whether _check_matched reports nothing and gives
    `callee.ret`. It does where every argument is assignable to its parameter's
    type, that type is no `type[...]` (an abstract class given for one is reported)
    and no TypeForm the argument is read as (it is inferred again)."""
    params = callee.params
    for i, t in enumerate(arg_types):
        expected = params[i if where is None else where[i]].type
        tp = type(expected)
        if tp is TypeType:
            return False
        if (tp is UnionType or tp is TypeFormType) and expects_type_form(expected, nodes[i]):
            return False
        if t is not expected and not is_subtype(ev, t, expected):  # (is_subtype's first answer, without the call)
            return False
    return True
