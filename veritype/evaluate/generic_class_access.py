"""Reading or writing a generic class's instance variable through the class object.

Spec ("Generics", "Instantiating generic classes and type erasure"): the type
arguments are erased at runtime, so `Node[int]` is `Node` when it runs, and
"access to the instance variable through the class object ... should be an
error": `Node[int].label` has no single type. mypy reports such an access
(`Access to generic instance variables via class is ambiguous  [misc]`) when
the receiver names the class itself (`Node.x`, `Node[int].x`, a subclass's
name); a `type[Node[int]]` value or `type(self)` is not reported, as in mypy.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.substitute import tv_key, type_vars_in

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

MESSAGE = "Access to generic instance variables via class is ambiguous"


def ambiguous_generic_access(ev: "Evaluator", scope: "Scope", node: ast.Attribute) -> bool:
    recv = node.value.value if isinstance(node.value, ast.Subscript) else node.value
    if not isinstance(recv, (ast.Name, ast.Attribute)):
        return False
    ref = ev.resolve_expr(recv, scope)
    if ref is None or ref.kind != "class" or ref.info is None:
        return False
    hit = ref.info.get(node.attr)
    if hit is None:
        return False
    sym, cls = hit
    if sym.kind != S.VAR or not cls.type_vars:
        return False
    from veritype.evaluate.declarations import qualifiers

    if "ClassVar" in qualifiers(ev, sym, cls.scope):
        return False
    declared = ev.declared_type(sym, cls.scope)
    if declared is None:
        return False
    own = {tv_key(v) for v in cls.type_vars}
    return any(k in own for k in type_vars_in(declared))
