"""An abstract class or a protocol, named as a value, where `type[X]` is expected.

Spec ("Protocols", "Type[] and class objects vs protocols"): "Variables and
parameters annotated with Type[Proto] accept only concrete (non-protocol)
subtypes of Proto" - the body may call `cls()`. mypy applies this to a class
object spelled by name (not to a `type[X]` value) whose class is a protocol
or abstract, passed or assigned where the expected `type[X]` names a protocol
or abstract class: `[type-abstract]`, with the messages below.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_type
from veritype.types.model import Instance, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def abstract_class_given(ev: "Evaluator", scope: "Scope | None", node: ast.AST | None, expected: Type) -> bool:
    if scope is None or not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    if not isinstance(expected, TypeType) or not isinstance(expected.item, Instance):
        return False
    if not _abstract(ev, expected.item.info):
        return False
    ref = ev.resolve_expr(node, scope)
    return ref is not None and ref.kind == "class" and ref.info is not None and _abstract(ev, ref.info)


def call_message(expected: Type) -> str:
    return f'Only concrete class can be given where "{format_type(expected)}" is expected'


def assignment_message(expected: Type) -> str:
    return f'Can only assign concrete classes to a variable of type "{format_type(expected)}"'


def _abstract(ev: "Evaluator", info: "ClassInfo") -> bool:
    if any(c.has_any_base for c in info.mro):
        return False
    return info.is_protocol or bool(ev.abstract_members(info))
