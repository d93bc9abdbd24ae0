"""`@deprecated` (typing spec, "Directives", `@deprecated`; PEP 702).

"Type checkers should produce a diagnostic whenever they encounter a usage of
an object marked as deprecated": for classes and functions, `from` imports,
"References through module, class, or instance attributes", "For deprecated
overloads, ... all calls that resolve to the deprecated overload", and "Any
syntax that indirectly triggers a call to the function" (an operator's dunder,
a property's getter or setter, an instance's `__call__`).

The code `deprecated` is off by default, as in mypy (`--enable-error-code
deprecated` turns it on); nothing here runs unless it is on. Messages are
mypy's: `function mod.f is deprecated: <message>`, `class mod.C is
deprecated: ...`, `overload def (x: int) -> str of function mod.f is
deprecated: ...`.

A function's mark is read where its signature is built (`mark_function`, with
the scope that resolves the decorator's name) and kept on its definition node.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import CallableType, Instance, Overloaded, Type, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

DEPRECATED = ("typing_extensions.deprecated", "warnings.deprecated")
_ATTR = "_veritype_deprecated"


def enabled(ev: "Evaluator") -> bool:
    # Asked by every ExprEvaluator made (about 190k on the bench corpus): the
    # answer is kept with the options object it was computed from, which the
    # program replaces (never mutates) when its options change.
    options = ev.program.options
    cached = ev.deprecations_enabled
    if cached is not None and cached[0] is options:
        return cached[1]
    from veritype.diagnostics.enabled import code_enabled

    on = code_enabled(options, "deprecated")
    ev.deprecations_enabled = (options, on)
    return on


def mark_function(ev: "Evaluator", node: ast.FunctionDef | ast.AsyncFunctionDef, scope: "Scope") -> None:
    """Record on `node` whether it is decorated `@deprecated("...")`."""
    if hasattr(node, _ATTR):
        return
    mark = None
    # (A loop, not `any()` over a generator, for every def built: most have no decorator.)
    for d in node.decorator_list:
        if _may_be_deprecated(d):
            msg = _message(ev, node, scope)
            if msg is not None:
                mark = (f"{scope.fullname}.{node.name}", msg)
            break
    setattr(node, _ATTR, mark)


def function_mark(node: object) -> tuple[str, str] | None:
    return getattr(node, _ATTR, None)


def class_mark(info: "ClassInfo") -> tuple[str, str] | None:
    if info.node is None or not any(_may_be_deprecated(d) for d in info.node.decorator_list):
        return None
    info.bases  # the decorators are read with the bases
    for dec, name in zip(info.node.decorator_list, info.decorators):
        if name in DEPRECATED:
            msg = _literal_message(dec)
            if msg is not None:
                return info.fullname, msg
    return None


def reference_message(t: Type) -> str | None:
    """The diagnostic for naming a value of type `t` (a deprecated function or class)."""
    if isinstance(t, CallableType) and not t.is_type_obj:
        mark = function_mark(t.definition)
        if mark is not None:
            return f"function {mark[0]} is deprecated: {mark[1]}"
        return None
    info = _class_of(t)
    if info is not None:
        mark = class_mark(info)
        if mark is not None:
            return f"class {mark[0]} is deprecated: {mark[1]}"
    return None


def overload_message(callee: Overloaded, item: CallableType) -> str | None:
    mark = function_mark(item.definition)
    if mark is None:
        return None
    from veritype.types.format import format_callable

    return f"overload {format_callable(item)} of function {mark[0]} is deprecated: {mark[1]}"


def method_message(t: Type | None) -> str | None:
    """For a bound dunder (an operator's method, `__call__`) about to be used."""
    if isinstance(t, CallableType):
        mark = function_mark(t.definition)
        if mark is not None:
            return f"function {mark[0]} is deprecated: {mark[1]}"
    return None


def property_message(ev: "Evaluator", base: Type, attr: str, setter: bool) -> str | None:
    """A property read (its getter) or written (its setter) that is deprecated."""
    if not isinstance(base, Instance):
        return None
    hit = base.info.get(attr)
    if hit is None:
        return None
    sym, cls = hit
    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(defs) < 1:
        return None
    from veritype.evaluate.functions import method_kind

    if method_kind(ev, defs[0], cls.scope) != "property":
        return None
    is_setter = [any(isinstance(dec, ast.Attribute) and dec.attr == "setter" for dec in d.decorator_list) for d in defs]
    chosen = [d for d, s in zip(defs, is_setter) if s == setter]
    if not chosen:
        return None
    mark_function(ev, chosen[0], cls.scope)
    mark = function_mark(chosen[0])
    return f"function {mark[0]} is deprecated: {mark[1]}" if mark is not None else None


def _class_of(t: Type) -> "ClassInfo | None":
    if isinstance(t, TypeType) and isinstance(t.item, Instance):
        return t.item.info
    if isinstance(t, CallableType) and t.is_type_obj and isinstance(t.ret, Instance):
        return t.ret.info
    return None


def _may_be_deprecated(dec: ast.expr) -> bool:
    # A cheap look at the spelling before any name is resolved.
    func = dec.func if isinstance(dec, ast.Call) else dec
    return (isinstance(func, ast.Name) and func.id == "deprecated") or (isinstance(func, ast.Attribute) and func.attr == "deprecated")


def _message(ev: "Evaluator", node: ast.FunctionDef | ast.AsyncFunctionDef, scope: "Scope") -> str | None:
    from veritype.evaluate.functions import decorator_names

    for dec, name in zip(node.decorator_list, decorator_names(ev, node, scope)):
        if name in DEPRECATED:
            msg = _literal_message(dec)
            if msg is not None:
                return msg
    return None


def _literal_message(dec: ast.expr) -> str | None:
    if isinstance(dec, ast.Call) and dec.args and isinstance(dec.args[0], ast.Constant) and isinstance(dec.args[0].value, str):
        return dec.args[0].value
    return None
