"""The references a statement may rebind: what a loop or `try` forgets of its narrowings.

A loop's body (or a `try` body, for its handlers) is checked from a state in
which every narrowed reference the body may assign is widened back; these are
the keys (`evaluate.reference_keys.expr_key`) of its assignment targets, `for`
and `with` targets, walrus targets and `del` targets, plus the marker `\\0calls`
when the body holds a call (a call may mutate narrowed attributes).

A compound statement keeps its answer on the node, so each statement is
walked once however many enclosing loops and `try` statements ask. The
expressions are the bulk of a tree: in them only a call (for the marker) and
a walrus (for its target) count, so once the marker is set the walk enters no
more expressions, unless the module's source holds a `:=` (the binder's
`has_walrus`, passed in as `walrus`).
"""

from __future__ import annotations

import ast

from veritype.evaluate.reference_keys import expr_key
from veritype.syntax.statements import assigned_targets
from veritype.syntax.walk import child_nodes

CALLS = "\0calls"
_NO_KEYS: frozenset[str] = frozenset()
_COMPOUND_KINDS = (
    ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.Match,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_COMPOUND = frozenset(_COMPOUND_KINDS)
# The nodes whose targets rebind (`_node_keys`).
_ASSIGNING = frozenset({ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor,
                        ast.With, ast.AsyncWith, ast.NamedExpr, ast.Delete})
# Nodes with nothing under them and no key: contexts (Load/Store/Del) and
# operators; a name or constant (only a context under it; a name's key is its
# assignment's, `_node_keys`).
_LEAVES = frozenset([*(kind for base in (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
                       for kind in base.__subclasses__()), ast.Name, ast.Constant])


def body_keys(owner: ast.For | ast.AsyncFor | ast.While | ast.Try, walrus: bool = True) -> set[str]:
    """The keys every statement of `owner.body` may rebind, kept on `owner`: a
    loop is checked again for every pass of each enclosing loop, and its
    body's keys do not change. `walrus`: the module may hold a `:=`."""
    known: frozenset[str] | None = getattr(owner, "_vt_body_keys", None)
    if known is None:
        keys: set[str] = set()
        for stmt in owner.body:
            keys |= stmt_keys(stmt, walrus)
        known = frozenset(keys)
        owner._vt_body_keys = known  # type: ignore[union-attr]
    return set(known)


def stmt_keys(stmt: ast.stmt, walrus: bool = True) -> frozenset[str]:
    """The keys of every node under `stmt`. A compound statement keeps its
    answer (`_vt_assigned_keys`); a simple one is small and walked afresh.
    (The keys were once kept on a body's first statement, where a `try`
    body and the one-statement list of that statement answered for each other.)"""
    known: frozenset[str] | None = getattr(stmt, "_vt_assigned_keys", None)
    if known is not None:
        return known
    keys = _walk_keys(stmt, walrus)
    known = frozenset(keys) if keys else _NO_KEYS
    if type(stmt) in _COMPOUND:
        stmt._vt_assigned_keys = known  # type: ignore[attr-defined]
    return known


def _walk_keys(root: ast.stmt, walrus: bool) -> set[str]:
    """The keys of every node under `root` (a set: the walk's order is free); a
    nested compound statement answers from its own walk (`stmt_keys`)."""
    keys: set[str] = set()
    calls = False
    stack: list[ast.AST] = [root]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Call:
            calls = True
        elif kind in _ASSIGNING:
            _node_keys(node, keys)
        if calls and not walrus and isinstance(node, ast.expr):
            continue  # nothing below an expression can add a key now (the module docstring)
        for child in child_nodes(node):
            child_kind = type(child)
            if child_kind in _COMPOUND:
                keys |= stmt_keys(child, walrus)  # type: ignore[arg-type]
            elif child_kind not in _LEAVES:
                stack.append(child)
    if calls:
        # A call in the loop may mutate attributes narrowed before it.
        keys.add(CALLS)
    return keys


def _node_keys(node: ast.AST, keys: set[str]) -> None:
    """Add the keys `node` (one of `_ASSIGNING`) rebinds."""
    if isinstance(node, ast.Delete):
        targets = node.targets
    elif isinstance(node, ast.NamedExpr):
        targets = [node.target]
    else:
        targets = assigned_targets(node)
    for t in targets:
        keys |= target_keys(t)


def target_keys(target: ast.expr) -> set[str]:
    """Keys rebound by assigning to `target`.

    Only the target itself (and the elements of a tuple/list/starred target):
    assigning to `s.attr[0]` rebinds that item, never `s` or `s.attr`, so a
    narrowing of `s` survives it.
    """
    if isinstance(target, (ast.Tuple, ast.List)):
        out: set[str] = set()
        for elt in target.elts:
            out |= target_keys(elt)
        return out
    if isinstance(target, ast.Starred):
        return target_keys(target.value)
    if isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
        k = expr_key(target)
        if k is not None:
            return {k}
    return set()
