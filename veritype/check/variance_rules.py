"""Declared variance against use, in a class statement.

- a base class's type arguments: a declared covariant (contravariant) type
  variable must stand where the base varies covariantly (contravariantly)
  with it: `class C(Inv[T_co])` is an error, `class C(Contra[Co[T_contra]])`
  is fine (mypy: 'Variance of TypeVar "T_co" incompatible with variance in
  parent type' [type-var]; variances compose through nested classes);
- a declared covariant (contravariant) ParamSpec or TypeVarTuple used by a
  method in a contravariant (covariant) position: `def f(self, fn:
  Callable[P_contra, None])`. Bare TypeVars in parameters are
  `class_base_rules._covariant_parameters`' business (mypy's narrower rule),
  protocols' TypeVars `_protocol_variance`'s.

Only declared variances are judged (PEP 695 and infer_variance parameters are
inferred, so their use is right by construction).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.variance import CO, CONTRA, occurrences
from veritype.semantic import symbols as S
from veritype.types.model import CallableType, Overloaded, TypeVarType
from veritype.types.substitute import tv_key

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

_WANT = {"covariant": CO, "contravariant": CONTRA}


def check_variance_use(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if getattr(node, "type_params", None) or any(c.has_any_base for c in info.mro):
        return
    declared = {tv_key(tv): tv for tv in info.type_vars if tv.variance in _WANT}
    if not declared:
        return
    _base_variance(checker, node, info, declared)
    _method_variance(checker, node, info, declared)
    _contravariant_returns(checker, node, info, declared)


def _base_variance(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo", declared: dict) -> None:  # type: ignore[type-arg]
    reported: set[str] = set()
    for base in info.bases:
        if base.info.fullname in ("typing.Generic", "typing.Protocol", "typing_extensions.Protocol"):
            continue
        for tv, pol in occurrences(checker.ev, base):
            own = declared.get(tv_key(tv))
            if own is None or pol == _WANT[own.variance] or own.name in reported:
                continue
            reported.add(own.name)
            label = {"paramspec": "ParamSpec", "typevartuple": "TypeVarTuple"}.get(own.kind, "TypeVar")
            checker.error(node, f'Variance of {label} "{own.name}" incompatible with variance in parent type', "type-var")


def _method_variance(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo", declared: dict) -> None:  # type: ignore[type-arg]
    from veritype.evaluate.functions import method_kind

    special = {k: tv for k, tv in declared.items() if tv.kind in ("paramspec", "typevartuple")}
    if not special or info.is_protocol:
        return
    for stmt in node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if stmt.name in ("__init__", "__new__", "__post_init__", "__init_subclass__") or (stmt.name.startswith("__") and not stmt.name.endswith("__")):
            continue
        sym = info.symbols.get(stmt.name)
        if sym is None or sym.kind != S.FUNC or len(sym.decls) != 1 or sym.decls[0] is not stmt:
            continue
        kind = method_kind(checker.ev, stmt, info.scope)
        if kind == "property":
            continue
        t = checker.ev.symbol_type(sym, info.scope)
        if not isinstance(t, CallableType) or isinstance(t, Overloaded) or t.is_untyped:
            continue
        if kind != "static" and t.params:
            t = t.with_params(t.params[1:])
        for tv, pol in occurrences(checker.ev, t):
            own = special.get(tv_key(tv)) if isinstance(tv, TypeVarType) else None
            if own is None or pol == _WANT[own.variance]:
                continue
            checker.error(stmt, f'{own.variance.capitalize()} type variable "{own.name}" used in a {"contravariant" if pol == CONTRA else "covariant" if pol == CO else "invariant"} position', "misc")
            break


def _contravariant_returns(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo", declared: dict) -> None:  # type: ignore[type-arg]
    """A method returning a bare contravariant type variable of its class (mypy:
    "Cannot use a contravariant type variable as return type"; spec, "Variance":
    a contravariant variable is for inputs). Mirror of `_covariant_parameters`."""
    for stmt in node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.returns is None:
            continue
        sym = info.symbols.get(stmt.name)
        if sym is None or sym.kind != S.FUNC or stmt not in sym.decls:
            continue
        from veritype.evaluate.functions import function_type

        ret = function_type(checker.ev, stmt, info.scope).ret
        if isinstance(ret, TypeVarType) and ret.kind == "typevar":
            own = declared.get(tv_key(ret))
            if own is not None and own.variance == "contravariant":
                checker.error(stmt, "Cannot use a contravariant type variable as return type", "misc")
