"""`--disallow-any-decorated`: an Any in a decorated function's type.

mypy's documentation: "This flag disallows functions that have Any in their
signature after decorator transformation." Besides the untyped decorator
(check.function_rules: "Function is untyped after decorator transformation"),
mypy reports a decorated type that holds an Any anywhere
(`checker.check_untyped_after_decorator`, `has_any_type`): `Type of decorated
function contains type "Any" (<type>)` [misc], at the `def` line. Only a
decorator mypy applies counts (not `@property`, `@staticmethod`,
`@classmethod`, `@overload`, `@abstractmethod`, `@final`, `@override`, which
its semantic analysis removes).

veritype counts only the Any it knows is a real one: written `Any`, an
unannotated part, a bare generic; its other Any values (what it did not
understand) are mypy's "special form" Any, which mypy does not count either,
or a guess: never reported. mypy does not count an Any that a type alias
expands to either; veritype expands aliases, so it reports only where the
function's own annotations write `Any` (`@functools.wraps(fn) def
wrapper(self: Any, *args: Any, **kwargs: Any) -> Any`, multidict).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, PROPERTY, STATIC, TRANSPARENT, decorated_type, decorator_names
from veritype.types.format import format_type
from veritype.types.model import AnyType, CallableType, Instance, Overloaded, TupleType, Type, TypeType, UnionType
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.scopes import Scope

_REAL = ("explicit", "unannotated", "bare")


def check_any_decorated(checker: "ModuleChecker", node: ast.FunctionDef | ast.AsyncFunctionDef, parent: "Scope", at: ast.AST) -> None:
    ev = checker.ev
    names = decorator_names(ev, node, parent)
    applied = [n for n in names if n not in TRANSPARENT and n not in STATIC and n not in CLASSMETHOD
               and n not in OVERLOAD and n not in PROPERTY and not n.endswith((".setter", ".getter", ".deleter"))]
    if not applied:
        return
    if not _writes_any(node):
        return
    t = decorated_type(ev, node, parent)
    if isinstance(t, AnyType) or not _has_real_any(t, 0):
        return
    checker.error(at, f'Type of decorated function contains type "Any" ("{format_type(t)}")', "misc")


def _writes_any(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the def's own annotations spell `Any` (mypy does not count an Any
    from a type alias's expansion, `reprlib.recursive_repr()`'s `Callable[[Any],
    str]` alias: veritype expands aliases, so it counts only a decorated type
    whose function wrote an Any itself)."""
    args = node.args
    annotations = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a is not None]
    annotations.append(node.returns)
    for ann in annotations:
        if ann is None:
            continue
        for n in walk_nodes(ann):
            if (isinstance(n, ast.Name) and n.id == "Any") or (isinstance(n, ast.Attribute) and n.attr == "Any"):
                return True
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and "Any" in n.value:
                return True
    return False


def _has_real_any(t: Type, depth: int) -> bool:
    if depth > 30:
        return False
    d = depth + 1
    if isinstance(t, AnyType):
        return t.reason in _REAL
    if isinstance(t, CallableType):
        return any(_has_real_any(p.type, d) for p in t.params) or _has_real_any(t.ret, d)
    if isinstance(t, Overloaded):
        return any(_has_real_any(i, d) for i in t.items)
    if isinstance(t, Instance):
        return any(_has_real_any(a, d) for a in t.args)
    if isinstance(t, (UnionType, TupleType)):
        return any(_has_real_any(i, d) for i in t.items)
    if isinstance(t, TypeType):
        return _has_real_any(t.item, d)
    return False
