"""mypy's `truthy-function` (on by default): a function tested for truth.

A function object is always true, so `if callback:` with a `callback` that
cannot be None is most likely a missing call or a missing `Optional`. mypy
reports `Function "callback" could always be true in boolean context
[truthy-function]` for a name or attribute of a callable type in a boolean
context: the test of `if`, `while`, `assert`, a conditional expression and a
comprehension's `if`, the operand of `not`, every operand of `and`/`or` but
the last (which is boolean only when the whole expression is).

Reported only for a name or an attribute (mypy names them in the message)
whose type is a function or an overloaded function, or that names a class
(mypy's type of a class object is a function's: `if A:` is reported, a
`t: type[A]` is not). A class object operand of an `and`/`or` whose value is
used (`Alias = list or set`), which mypy reports too, is left alone: the
typing conformance suite (aliases_implicit.py) holds that line correct.
Anything else is left alone: a missed error, never a false one. A union with None is not always true and is never reported.
An `Iterable` there is the optional `truthy-iterable` (evaluate.truthy_iterable).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import CallableType, Instance, Overloaded, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def infer_condition(ex: "ExprEvaluator", node: ast.expr) -> Type:
    """Infer `node` where its value is tested for truth."""
    ex.conditions.add(id(node))  # (mark_condition, written out: 14k tests on the bench corpus)
    t = ex.infer(node)
    # Most values tested are instances, of no class check_truthy_function
    # reports (exact class: type classes are never subclassed).
    if type(t) is not Instance or t.info.fullname == "typing.Iterable":
        check_truthy_function(ex, node, t)
    return t


def mark_condition(ex: "ExprEvaluator", node: ast.expr) -> None:
    """`node` is tested for truth: an `and`/`or` there checks its last operand too."""
    ex.conditions.add(id(node))


def in_condition(ex: "ExprEvaluator", node: ast.expr) -> bool:
    return id(node) in ex.conditions


def check_truthy_function(ex: "ExprEvaluator", node: ast.expr, t: Type, class_objects: bool = True) -> None:
    """Report `node` of type `t`, tested for truth, if it is a function; a class
    object only with `class_objects` (not an `and`/`or` operand outside a test:
    see the module's docstring)."""
    if isinstance(t, Instance):
        # (Most values tested are instances: never a function or a class object.)
        if t.info.fullname == "typing.Iterable" and not isinstance(node, ast.BoolOp):
            # (an `and`/`or` is not tested as a whole: its operands are, as in mypy)
            from veritype.evaluate.truthy_iterable import check_truthy_iterable

            check_truthy_iterable(ex, node, t)
        return
    if isinstance(node, ast.Name):
        name = node.id
    elif isinstance(node, ast.Attribute):
        name = node.attr
    else:
        return
    if isinstance(t, Overloaded) or (isinstance(t, CallableType) and not t.is_type_obj) or (
            class_objects and isinstance(t, TypeType) and isinstance(t.item, Instance) and _names_class(ex, node)):
        ex.error(node, f'Function "{name}" could always be true in boolean context', "truthy-function")


def _names_class(ex: "ExprEvaluator", node: ast.Name | ast.Attribute) -> bool:
    """`node` names a class itself (`if A:`), not a `type[A]` value: mypy's type
    of a class object is a function's, whatever its metaclass says of its truth."""
    if ex.scope is None:
        return False
    ref = ex.ev.resolve_expr(node, ex.scope)
    if ref is not None and ref.kind == "class":
        return True
    # A NewType's name: a function at run time (mypy 2.4.1 reports `if UserId:`).
    decl = ref.sym.node if ref is not None and ref.kind == "symbol" and ref.sym is not None else None
    if not (isinstance(decl, ast.Assign) and isinstance(decl.value, ast.Call)):
        return False  # (a `type[...]` variable is a value, not the NewType itself)
    t = ex.ev.ref_value_type(ref)  # type: ignore[arg-type]
    return isinstance(t, TypeType) and isinstance(t.item, Instance) and t.item.info.is_newtype
