"""Rules for `*args: P.args, **kwargs: P.kwargs` in a function definition.

Spec, "The components of a ParamSpec": "we need to make sure that these
special types are only brought into the world together, and are used
together", and "Placing keyword-only parameters between the *args and
**kwargs is forbidden." A component names its ParamSpec, so that ParamSpec
must be in scope: bound by an enclosing function or class, or by another
parameter of this function. (Misplaced single components, `x: P.args`, are
reported by the type expression evaluator.) Messages are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import VAR_KW, VAR_POS, CallableType, TypeVarType
from veritype.types.substitute import tv_key, type_vars_in

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef


def check_paramspec_components(checker: "ModuleChecker", node: FuncDef, sig: CallableType) -> None:
    if node.type_comment:
        return
    args = node.args
    star = _component(args.vararg)
    star2 = _component(args.kwarg)
    if star is None and star2 is None:
        return
    spec = _spec_of(sig, VAR_POS) if star == "args" else None
    spec2 = _spec_of(sig, VAR_KW) if star2 == "kwargs" else None
    if spec is None and spec2 is None:
        return  # not a ParamSpec (an attribute named `args`), or misplaced: reported already
    if (star is not None and star != "args") or (star2 is not None and star2 != "kwargs"):
        return  # `*args: P.kwargs`: reported by the type expression evaluator
    if spec is None or spec2 is None or tv_key(spec) != tv_key(spec2):
        name = (spec or spec2).name  # type: ignore[union-attr]
        checker.error(node, f'ParamSpec must have "*args" typed as "{name}.args" and "**kwargs" typed as "{name}.kwargs"', "valid-type")
        return
    if args.kwonlyargs:
        checker.error(args.kwonlyargs[0], "Arguments not allowed after ParamSpec.args", "valid-type")
    if not getattr(node, "type_params", None) and any(tv_key(tv) == tv_key(spec) for tv in sig.type_vars):
        # Bound to this function: fine only when another parameter or the return names it.
        others = [p.type for p in sig.params if p.kind not in (VAR_POS, VAR_KW) or not isinstance(p.type, TypeVarType)]
        if not any(tv_key(spec) in type_vars_in(t) for t in [*others, sig.ret]):
            checker.error(node, f'ParamSpec "{spec.name}" is unbound', "valid-type")


def _component(arg: ast.arg | None) -> str | None:
    """"args" / "kwargs" when the parameter is annotated `X.args` / `X.kwargs`."""
    ann = arg.annotation if arg is not None else None
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value.strip(), mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.Attribute) and ann.attr in ("args", "kwargs") and isinstance(ann.value, ast.Name):
        return ann.attr
    return None


def _spec_of(sig: CallableType, kind: int) -> TypeVarType | None:
    for p in sig.params:
        if p.kind == kind and isinstance(p.type, TypeVarType) and p.type.kind == "paramspec":
            return p.type
    return None
