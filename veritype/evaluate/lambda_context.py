"""Whether a lambda's callable context fits it (mypy's "Cannot infer type of lambda").

mypy infers a lambda's parameter types from the callable type its context
expects (`infer_lambda_type_using_context`); when the context's argument
kinds differ from the lambda's — a lambda with a default (`lambda t=t: ...`)
where `Callable[[], R]` is expected, or of another arity — it reports
`Cannot infer type of lambda  [misc]` and infers the lambda without the
context. It uses the context only if it is a callable type, or the one
callable in a union; a context accepting anything (`Callable[..., R]`) or a
ParamSpec is filled in to fit (veritype: no context with `*args`/`**kwargs`
is compared, an erased ParamSpec looks like one), and a lambda with
`*args`/`**kwargs` is not compared.
"""

from __future__ import annotations

import ast

from veritype.types.model import KW_ONLY, POS_ONLY, POS_OR_KW, VAR_KW, VAR_POS, CallableType, Param, Type, TypeVarType, union_items


def lambda_context_mismatch(node: ast.Lambda, ctx: CallableType, expected: Type | None) -> bool:
    """True when mypy would refuse `ctx` as the context of lambda `node`."""
    if expected is None:
        return False
    callables = [i for i in union_items(expected) if isinstance(i, CallableType)]
    if len(callables) != 1 or callables[0] is not ctx:
        return False  # an Instance's `__call__`, or several callables: not mypy's context
    if ctx.is_ellipsis or any(p.kind in (VAR_POS, VAR_KW) for p in ctx.params):
        # (`*args`/`**kwargs` in the context may be a ParamSpec we erased: mypy
        # fills one in to fit the lambda, so no such context is compared)
        return False
    args = node.args
    if args.vararg is not None or args.kwarg is not None:
        return False
    return _lambda_kinds(args) != _context_kinds(ctx)


def _lambda_kinds(args: ast.arguments) -> list[str]:
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    kinds = ["opt" if i >= first_default else "pos" for i in range(len(positional))]
    kinds += ["named_opt" if d is not None else "named" for d in args.kw_defaults]
    return kinds


def _context_kinds(ctx: CallableType) -> list[str]:
    out: list[str] = []
    for p in ctx.params:
        if p.kind in (POS_ONLY, POS_OR_KW):
            out.append("opt" if p.has_default else "pos")
        elif p.kind == KW_ONLY:
            out.append("named_opt" if p.has_default else "named")
        elif p.kind == VAR_POS:
            out.append("star")
        elif p.kind == VAR_KW:
            out.append("star2")
    return out


def covariant_lambda_params(params: "list[Param]") -> bool:
    """A lambda typed by its context with a bare covariant type variable as a
    parameter: mypy checks it as a function ("Cannot use a covariant type
    variable as a parameter" [misc], see check.covariant_params)."""
    return any(isinstance(p.type, TypeVarType) and p.type.variance == "covariant" and p.type.kind == "typevar" for p in params)
