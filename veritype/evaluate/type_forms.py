"""TypeForm values (PEP 747; typing spec, "Type forms", `TypeForm`).

"Valid type expressions are assignable to TypeForm through implicit TypeForm
evaluation": where a `TypeForm[...]` is expected, an expression that is a
valid type expression has the type `TypeForm[T]` of the type it spells
(`str | None`, `"set[str]"`, `Annotated[int, ""]`, `None`, `Any`).
"Expressions that are not valid type expressions should not evaluate to a
TypeForm type": those keep their value type (`1` is an `int`), which the
assignment then refuses. "TypeForm acts as a function that can be called with
a single valid type expression."
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Type, TypeFormType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

# The shapes a type expression can have as a value expression.
SHAPES = (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp, ast.Constant)
# Qualifiers and forms that are no type expression on their own.
_NOT_ALONE = frozenset({"ClassVar", "Final", "Unpack", "Required", "NotRequired", "ReadOnly", "TypeAlias", "InitVar"})


def expects_type_form(expected: Type | None, node: ast.expr) -> bool:
    """Whether `node` is read as a type expression where `expected` is wanted:
    a `TypeForm[T]`, or a union holding one (pytest's `addini(type=int | str)`
    for `type: Literal[...] | TypeForm[...] | None`) when the node is no plain
    constant (a string there is the union's literal, not a forward reference)."""
    # (Exact classes: neither types nor ast nodes are subclassed. A loop, not
    # any() over a generator: asked for every expression inferred with an
    # expected type, which is often a union.)
    tp = type(expected)
    if tp is TypeFormType:
        return True
    if tp is not UnionType or type(node) is ast.Constant:
        return False
    for item in expected.items:  # type: ignore[union-attr]
        if type(item) is TypeFormType:
            return True
    return False


def implicit_type_form(ev: "Evaluator", node: ast.expr, scope: "Scope") -> Type | None:
    """`TypeForm[T]` for `node` read as a type expression, or None when it is no
    valid one (nothing is reported)."""
    if isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, str)):
        return None
    if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.BitOr):
        return None
    head = _head_name(ev, node, scope)
    if head in _NOT_ALONE:
        from veritype.types.model import SpecialForm

        return SpecialForm(head)  # a special form object, no type form  # type: ignore[arg-type]
    errors: list[str] = []
    t = ev.type_exprs.evaluate(node, scope, report=lambda n, msg, code: errors.append(msg))  # (a note only follows an error)
    if errors:
        return None
    return TypeFormType(t)


def type_form_call(ev: "Evaluator", node: ast.expr, scope: "Scope", report) -> Type:  # type: ignore[no-untyped-def]
    """`TypeForm(x)`: x must be a valid type expression."""
    if not isinstance(node, SHAPES) or _head_name(ev, node, scope) in _NOT_ALONE:
        report(node, "TypeForm argument is not a type", "misc")
        return TypeFormType(ev.builtin("object"))
    t = ev.type_exprs.evaluate(node, scope, report=report)
    return TypeFormType(t)


def _head_name(ev: "Evaluator", node: ast.expr, scope: "Scope") -> str | None:
    head = node.value if isinstance(node, ast.Subscript) else node
    if not isinstance(head, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(head, scope)
    if ref is None or ref.kind != "special":
        return None
    return ref.fullname.rpartition(".")[2]
