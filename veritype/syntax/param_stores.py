"""The statements of a method that store to an attribute of its first parameter.

Three readers ask a method's body about `self.x = ...`: the binder (its
instance attributes, semantic/binder.py), the interface digest (whether the
method walker reads the body, cache/interface.py) and the release of checked
bodies (engine/release.py). Each used to walk the body's statements and the
targets under them for itself; here that walk is made once per def and its
answer kept on the def node, for the readers to filter by their own rules.

The answer: each (statement, target) pair, in `walk_statements` order and
each statement's targets in order, whose target is not a bare name and
holds, anywhere in it, an `ast.Attribute` whose value is the name of the
def's first positional parameter (any context: `self.x[k] = v` holds
`self.x` loaded). The targets are a statement's `assigned_targets` and a
`del`'s. Every reader's own test of a target is narrower than that, so a
pair left out here is one no reader would have taken.

The release of a checked module's bodies (engine/release.py), the last
reader, drops the answer from each def it visits, released or not.
"""

from __future__ import annotations

import ast

from veritype.syntax.statements import assigned_targets, walk_statements
from veritype.syntax.walk import walk as walk_nodes

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
Stores = tuple[tuple[ast.AST, ast.expr], ...]
_ATTR = "_vt_param_stores"
_Name, _Attribute, _Delete = ast.Name, ast.Attribute, ast.Delete


def first_param_stores(node: FuncDef) -> Stores:
    """The (statement, target) pairs of `node` described in the module
    docstring; () for a def without a positional parameter."""
    known: Stores | None = getattr(node, _ATTR, None)
    if known is not None:
        return known
    args = node.args
    positional = args.posonlyargs or args.args
    found: list[tuple[ast.AST, ast.expr]] = []
    if positional:
        first = positional[0].arg
        for stmt in walk_statements(node):
            targets = stmt.targets if type(stmt) is _Delete else assigned_targets(stmt)  # type: ignore[attr-defined]
            for target in targets:
                if type(target) is _Name:
                    continue  # (the most common target: no attribute in it)
                for sub in walk_nodes(target):
                    if type(sub) is _Attribute and type(sub.value) is _Name and sub.value.id == first:  # type: ignore[attr-defined]
                        found.append((stmt, target))
                        break
    answer: Stores = tuple(found) if found else ()
    setattr(node, _ATTR, answer)
    return answer


def forget_param_stores(node: FuncDef) -> None:
    """Drop the answer kept on `node` (its body is being replaced)."""
    node.__dict__.pop(_ATTR, None)
