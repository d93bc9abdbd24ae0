"""The value of a module's or class's declaring assignment, handed to its declaration.

`x = make()` at module (or class) level is inferred twice: by the check, at the
statement (`check_assign`), and by the declaration's lazy inference when a
function body, a later line or another module asks for `x`'s type
(`evaluate.declarations._infer_one`, with no flow state). The two are the
same question where nothing the check's inference read came from the flow
state: every name and member key it looked up there was unbound, so each was
read as the flow-less inference reads it, from its declaration; then the
answer is the same expression inferred with the same expected type (None) in
the same scope. (Reporting does not change a type; a walrus's bind in the value
is read back only through the flow, which counts as a read.) On the bench
corpus 348 declarations of checked modules were inferred after their
statement, 318 of them while the same module was checked.

The check's answer is kept on the symbol (`sym.cache["checked_value"]`: the
value node and its type, before any widening: the declaration widens as it
does for its own answer) while the declaration is not evaluated yet, and is
taken (popped) by the declaration's inference.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Type

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

# Values inferred directly, without the hand-over: leaves cost less to infer
# than to record (and a leaf inferred twice is cheap).
_LEAVES = frozenset((ast.Name, ast.Constant))  # (exact node classes: ast nodes are never subclassed)


def infer_declaring_value(mc: "ModuleChecker", stmt: ast.Assign) -> Type:
    """`mc.infer(stmt.value)` for an assignment with no declared type and no
    item target, kept for the declaration it makes when that is the same question."""
    value = stmt.value
    scope = mc.scope
    if scope.kind == "function" or type(value) in _LEAVES or len(stmt.targets) != 1 or stmt.type_comment:
        return mc.infer(value)
    target = stmt.targets[0]
    sym = scope.table.get(target.id) if type(target) is ast.Name else None  # type: ignore[attr-defined]
    # Only the declaring statement of a variable of this very scope whose type is
    # not evaluated yet (an instance attribute's declaration may infer it in a method).
    if sym is None or sym.node is not stmt or sym.is_instance_attr or "type" in sym.cache:
        return mc.infer(value)
    flow = mc.flow
    read = flow.lookup
    found: list[str] = []

    def lookup(key: str) -> Type | None:
        t = read(key)
        if t is not None:
            found.append(key)
        return t

    # Every read of the flow state goes through `lookup` (a Flow's instance
    # attribute: its state's table's `get`, set anew when the state is replaced).
    flow.lookup = lookup  # type: ignore[method-assign]
    try:
        t = mc.infer(value)
    finally:
        watched = flow.lookup is lookup
        if watched:
            flow.lookup = read  # type: ignore[method-assign]
    if watched and not found:
        sym.cache["checked_value"] = (value, t)
    return t
