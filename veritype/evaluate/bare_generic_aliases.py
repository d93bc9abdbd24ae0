"""A generic class named without type arguments through an implicit alias
(`C = tuple`, `L = list`, `T = Tuple`), or as a base class, under
--disallow-any-generics.

mypy's docs (--disallow-any-generics): "This flag disallows usage of generic
types that do not specify explicit type parameters". An alias to a generic
class written bare keeps the class's missing arguments (`L = list` is
`list[Any]` where `x: L` is written), so mypy 2.4.1 reports each bare use of
such an alias, naming the alias: `Missing type arguments for generic type
"C"` [type-arg], at `def f(x: C)` and `class K(L)` alike. A bare generic base
class (`class K(list)`, `class K(List)`) is reported the same way, naming the
class. (A bare `tuple` or `Tuple` as an alias's value is also reported at the
assignment itself, as before; `list` there is not.)
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.special import CLASS_ALIASES

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope
    from veritype.evaluate.type_context import TypeContext
    from veritype.evaluate.type_expr import TypeExprEvaluator
    from veritype.semantic.symbols import Symbol


def report_bare_alias_use(te: "TypeExprEvaluator", ctx: "TypeContext", node: ast.expr, sym: "Symbol", scope: "Scope") -> None:
    """`node`, a use of the alias `sym` without arguments: report it when the
    alias is `name = <a generic class or typing alias, bare>`."""
    if ctx.report is None or ctx.alias_value:
        return
    if _bare_alias(te.ev, sym, scope):
        te._report_bare_generic(ctx, node, sym.name, False)


def bare_generic_name(ev: "Evaluator", expr: ast.expr, scope: "Scope") -> str | None:
    """The name mypy gives `expr` (a name or dotted name, written without
    arguments) where it names a generic class, a typing alias of one or an
    implicit alias of one of them bare; None otherwise."""
    if type(expr) is not ast.Name and type(expr) is not ast.Attribute:
        return None
    ref = ev.resolve_expr(expr, scope)
    if ref is None:
        return None
    if ref.kind in ("class", "special"):
        return _generic_ref(ref)
    if ref.sym is not None and ref.scope is not None and _bare_alias(ev, ref.sym, ref.scope):
        return ref.sym.name
    return None


def _bare_alias(ev: "Evaluator", sym: "Symbol", scope: "Scope") -> bool:
    decl = sym.node
    if type(decl) is not ast.Assign or type(decl.value) not in (ast.Name, ast.Attribute):  # type: ignore[attr-defined]
        return False
    from veritype.evaluate.declarations import alias_info

    if alias_info(ev, sym, scope) is None:
        return False
    ref = ev.resolve_expr(decl.value, scope)  # type: ignore[attr-defined]
    return ref is not None and ref.kind in ("class", "special") and _generic_ref(ref) is not None


def _generic_ref(ref: object) -> str | None:
    kind = ref.kind  # type: ignore[attr-defined]
    if kind == "class":
        info = ref.info  # type: ignore[attr-defined]
        if info is not None and (info.fullname == "builtins.tuple" or any(tv.default is None for tv in info.type_vars)):
            return info.name  # type: ignore[no-any-return]
        return None
    if kind == "special":
        short = ref.fullname.rpartition(".")[2]  # type: ignore[attr-defined]
        if short == "Tuple" or (short in CLASS_ALIASES and short not in ("Text", "Type")):
            return short  # type: ignore[no-any-return]
    return None
