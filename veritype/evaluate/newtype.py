"""NewType: `UserId = NewType('UserId', int)` as a made-up `class UserId(int)`.

The spec ("NewType"): "the static type checker will treat the new type as if
it were a subclass of the original type", and calling it takes exactly one
value of the original type. So a NewType becomes a `ClassInfo` without a class
body: its one base is the original type and its only member of its own is a
synthesized `__init__(self, item: Base, /)`.

`newtype_info` answers "is this symbol a NewType, and which class?" (cached on
the symbol); `newtype_problems` lists what is wrong with a definition, for the
checker to report where the statement is seen. An invalid definition has no
class (the name is then Any-like and silent), so one error is reported once.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol
from veritype.types.format import format_type
from veritype.types.model import (
    POS_ONLY, POS_OR_KW, AnyType, CallableType, Instance, NoneType, Param, TupleType, Type,
)

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def newtype_call(ev: "Evaluator", node: ast.AST | None, scope: "Scope") -> ast.Call | None:
    """The `NewType(...)` call assigned by `node`, when its callee is typing's NewType."""
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or not isinstance(node.value, ast.Call):
        return None
    call = node.value
    if not isinstance(call.func, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(call.func, scope)
    if ref is None or ref.kind != "special" or ref.fullname != "typing.NewType":
        return None
    return call


def newtype_info(ev: "Evaluator", sym: Symbol, scope: "Scope") -> "ClassInfo | None":
    """The class a NewType definition makes, or None when `sym` is not a valid one."""
    if "newtype" in sym.cache:
        return sym.cache["newtype"]  # type: ignore[return-value]
    sym.cache["newtype"] = None  # guards against a definition that refers to itself
    if sym.kind != S.VAR or len(sym.decls) != 1:
        return None
    with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
        info = _newtype_info(ev, sym, scope)
    sym.cache["newtype"] = info
    return info


def _newtype_info(ev: "Evaluator", sym: Symbol, scope: "Scope") -> "ClassInfo | None":
    call = newtype_call(ev, sym.node, scope)
    if call is None:
        return None
    base = _checked_base(ev, call, sym.name, scope)
    if base is None:
        return None
    return _make_class(ev, sym.name, scope, base)


def _checked_base(ev: "Evaluator", call: ast.Call, name: str, scope: "Scope") -> Type | None:
    if _shape_problem(call, name) is not None:
        return None
    base = ev.type_exprs.evaluate(call.args[1], scope)
    if _base_problem(base) is not None:
        return None
    return base


def _make_class(ev: "Evaluator", name: str, scope: "Scope", base: Type) -> "ClassInfo":
    from veritype.evaluate.classes import ClassInfo

    fullname = f"{scope.fullname}.{name}"
    info = ClassInfo(ev, name, fullname, scope.module, None, scope)
    info.is_newtype = True
    info.newtype_base = base
    if isinstance(base, TupleType):
        info.tuple_type = base
        base_inst: Type = base.fallback
    else:
        base_inst = base
    if isinstance(base_inst, Instance):
        info._bases = (base_inst,)
        info.is_final = False
    else:
        # An unresolved base (an unfollowed import): lookups on it succeed as Any.
        obj = ev.instance("builtins.object")
        info._bases = (obj,) if isinstance(obj, Instance) else ()
        info.has_any_base = True
    info._type_vars = ()
    self_inst = Instance(info, ())
    info.synthesized["__init__"] = CallableType(
        (Param("self", self_inst, POS_OR_KW), Param("item", base, POS_ONLY)), NoneType(), name=name,
    )
    return info


# -- validity ------------------------------------------------------------------------


def _shape_problem(call: ast.Call, name: str) -> tuple[ast.AST, str] | None:
    if len(call.args) != 2 or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return call, "NewType(...) expects exactly two positional arguments"
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return first, "Argument 1 to NewType(...) must be a string literal"
    if first.value != name:
        return first, f'String argument 1 "{first.value}" to NewType(...) does not match variable name "{name}"'
    return None


def _base_problem(base: Type) -> str | None:
    if isinstance(base, AnyType):
        # Only a written `Any` is wrong; an unresolved base is silently Any.
        return "Argument 2 to NewType(...) must be subclassable (got \"Any\")" if base.reason == "explicit" else None
    if isinstance(base, TupleType):
        return None
    if isinstance(base, Instance):
        if base.info.is_protocol:
            return "NewType cannot be used with protocol classes"
        if base.info.is_typeddict:
            return "NewType cannot be used with TypedDict classes"
        from veritype.types.substitute import type_vars_in

        if type_vars_in(base):
            # Spec, "NewType": "NewType cannot be generic" - its base names no type variables.
            return "NewType cannot be generic"
        return None
    return f'Argument 2 to NewType(...) must be subclassable (got "{format_type(base)}")'


def newtype_problems(ev: "Evaluator", call: ast.Call, name: str, scope: "Scope") -> list[tuple[ast.AST, str]]:
    """What is wrong with `name = NewType(...)`, for the checker to report (code valid-newtype)."""
    shape = _shape_problem(call, name)
    if shape is not None:
        return [shape]
    base = ev.type_exprs.evaluate(call.args[1], scope)
    problem = _base_problem(base)
    return [(call.args[1], problem)] if problem is not None else []


def is_newtype_class_expr(ev: "Evaluator", node: ast.expr, scope: "Scope") -> "ClassInfo | None":
    """The NewType a Name/Attribute expression refers to, if it does."""
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(node, scope)
    if ref is None or ref.kind != "symbol" or ref.sym is None or ref.scope is None:
        return None
    return newtype_info(ev, ref.sym, ref.scope)
