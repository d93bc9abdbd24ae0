"""Narrowing by `hasattr(x, "name")`.

mypy (checker.hasattr_type_maps) keeps `x`'s type in the true branch and adds
the attribute to it with type Any (an "extra attribute" of the instance,
callable or class object): `x` is still a `B` there, so `return x` is checked
as a `B`, while `x.name` reads as Any. veritype has no extra attributes on a
type: a function or class object keeps its type and the flow's member key
`x.name` holds the attribute (its type on the items that have it, Any for the
others); an instance lacking it becomes Any, which is silent where the extra
attribute would satisfy a protocol. In the false
branch, union items whose class surely declares the attribute are ruled out.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.truthiness import surely_has
from veritype.types.model import AnyType, CallableType, Overloaded, Type, TypeType, make_union, union_items

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.expressions import ExprEvaluator


def narrow_hasattr(ev: "Evaluator", silent: "ExprEvaluator", key: str, test: ast.Call, positive: bool) -> dict[str, Type]:
    attr = test.args[1]
    if not (isinstance(attr, ast.Constant) and isinstance(attr.value, str)):
        return {}
    name = attr.value
    current = silent.infer(test.args[0])
    items = union_items(current)
    if positive:
        members = [ev.bound_member(i, name) for i in items]
        if all(m is not None for m in members):
            return {}  # every item has it: nothing to say (mypy: the type as it is)
        # An instance lacking it becomes Any, the silent form of mypy's extra
        # attribute: that instance also matches a protocol naming the attribute
        # (`hasattr(f, "read")` then `json.load(f)`, `hasattr(x, "__iter__")`
        # then `for i in x`), which a plain `B` would not. A function or class
        # object keeps its type (pytest's `hasattr(func, "__self__")` then
        # `return func`); only its member reads as Any.
        kept = [i if m is not None or isinstance(i, (CallableType, Overloaded, TypeType)) else AnyType("special")
                for i, m in zip(items, members)]
        out: dict[str, Type] = {f"{key}.{name}": make_union([m if m is not None else AnyType("special") for m in members])}
        if kept != items:
            out[key] = make_union(kept)
        return out
    # Only plain instances with the member declared on their class count as
    # surely having it; anything unsure (Any, __getattr__) stays.
    if len(items) > 1:
        kept = [i for i in items if not surely_has(ev, i, name)]
        if kept and len(kept) < len(items):
            return {key: make_union(kept)}
    return {}
