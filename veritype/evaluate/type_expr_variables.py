"""A variable named in a type expression: is its value no type?

A name bound by an assignment may be an implicit type alias (`Alias = int`)
or a variable that holds a class at run time. The spec ("Type aliases") makes
it an alias only when its value is a valid type expression; these tests tell
the values computed otherwise (`TypeExprEvaluator._from_symbol` reports such
a name as a variable).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.scopes import Scope

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator


def computed_value(ev: "Evaluator", decl: ast.AST | None, scope: Scope) -> bool:
    """Whether a variable's value is computed by an expression that is no type
    expression: `eval(...)`, `(lambda: int)()`, `[int][0]` (spec, "Type aliases":
    an implicit alias's value must be a valid type expression), so the name is a
    variable even when the value happens to be a class."""
    value = getattr(decl, "value", None) if isinstance(decl, (ast.Assign, ast.AnnAssign)) else None
    if isinstance(value, ast.Subscript) and isinstance(decl, ast.Assign):
        return isinstance(value.value, (ast.List, ast.Tuple, ast.Dict, ast.ListComp))
    if not isinstance(value, ast.Call):
        return False
    if isinstance(value.func, ast.Lambda):
        return isinstance(decl, ast.Assign)
    if isinstance(value.func, ast.Name) and value.func.id == "eval":
        ref = ev.resolve_expr(value.func, scope)
        return ref is not None and ref.fullname == "builtins.eval" and isinstance(decl, ast.Assign)
    return _plain_instance_call(ev, value, scope)


def _plain_instance_call(ev: "Evaluator", call: ast.Call, scope: Scope) -> bool:
    """`T = int(0)`: the call makes an instance of a plain class, which is no type
    (only a metaclass's instances are classes). Classes of the typing modules, enum
    and collections (TypeVar, NewType, NamedTuple, Enum(...)) make types or are
    read elsewhere, so they do not count."""
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return False
    ref = ev.resolve_expr(call.func, scope)
    if ref is None or ref.kind != "class" or ref.info is None:
        return False
    info = ref.info
    module = info.module.name if info.module is not None else ""
    if module in ("typing", "typing_extensions", "types", "enum", "collections", "abc") or info.is_newtype:
        return False
    return not any(c.fullname == "builtins.type" for c in info.mro)
