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

from veritype.syntax.statements import BLOCK_FIELDS, block_fields
from veritype.syntax.walk import CHILDLESS, child_nodes

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef
Stores = tuple[tuple[ast.AST, ast.expr], ...]
_ATTR = "_vt_param_stores"
_Name, _Attribute = ast.Name, ast.Attribute
_CHILDLESS = CHILDLESS | {ast.Name}
# Statement class -> where its targets are (`syntax.statements.assigned_targets`,
# and a `del`'s): the list `targets`, the one `target`, or the items' `as` parts.
_TARGETS = {ast.Assign: "targets", ast.Delete: "targets", ast.AnnAssign: "target", ast.AugAssign: "target",
            ast.For: "target", ast.AsyncFor: "target", ast.With: "items", ast.AsyncWith: "items"}


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
        # `walk_statements(node)` inlined: the statements breadth first, a
        # list for the queue; each statement's targets by a look-up of its
        # class (a parse's nodes are never of a subclass).
        todo: list[ast.AST] = [node]
        blocks, targets_of = BLOCK_FIELDS, _TARGETS
        i = 0
        while i < len(todo):
            stmt = todo[i]
            i += 1
            kind = type(stmt)
            for name in blocks[kind] if kind in blocks else block_fields(kind):
                value = getattr(stmt, name, None)
                if value:
                    todo.extend(value)
            how = targets_of.get(kind)
            if how is None:
                continue  # (no target: an expression, a return, a def, an if...)
            if how == "targets":
                targets: list[ast.expr] = stmt.targets  # type: ignore[attr-defined]
            elif how == "target":
                targets = [stmt.target]  # type: ignore[attr-defined]
            else:
                targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]  # type: ignore[attr-defined]
            for target in targets:
                if type(target) is _Name:
                    continue  # (the most common target: no attribute in it)
                if _holds_attribute_of(target, first):
                    found.append((stmt, target))
    answer: Stores = tuple(found) if found else ()
    setattr(node, _ATTR, answer)
    return answer


def _holds_attribute_of(target: ast.expr, first: str) -> bool:
    """Whether an `ast.Attribute` on the name `first` is in `target` (depth
    first, without the nodes holding none: names, constants, contexts)."""
    stack: list[ast.AST] = [target]
    childless = _CHILDLESS
    while stack:
        sub = stack.pop()
        kind = type(sub)
        if kind in childless:
            continue
        if kind is _Attribute and type(sub.value) is _Name and sub.value.id == first:  # type: ignore[attr-defined]
            return True
        stack.extend(child_nodes(sub))
    return False


def forget_param_stores(node: FuncDef) -> None:
    """Drop the answer kept on `node` (its body is being replaced)."""
    node.__dict__.pop(_ATTR, None)
