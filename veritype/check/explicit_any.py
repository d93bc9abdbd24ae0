"""`--disallow-any-explicit`: mypy's `Explicit "Any" is not allowed` [explicit-any].

mypy's docs ("--disallow-any-explicit"): "This flag disallows explicit Any
in type positions such as type annotations and generic type parameters."
mypy reports it once per construct whose type contains an Any written in the
source: a function's signature (on the `def` line, each overload item too),
an annotated assignment (also `X: TypeAlias = ...`), an implicit type alias,
a `type` statement, a class's bases and a `TypeVar`'s bound or constraints.
`Callable[..., T]` counts: mypy gives its `...` the explicit Any. An alias
used in an annotation does not: mypy inlines it with a non-explicit Any, so
this check reads the annotation as written, never the alias it names.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.scopes import Scope

MESSAGE = 'Explicit "Any" is not allowed'
_ANY = ("typing.Any", "typing_extensions.Any")
_CALLABLE = ("typing.Callable", "collections.abc.Callable", "typing_extensions.Callable")
_LITERAL = ("typing.Literal", "typing_extensions.Literal")
_ANNOTATED = ("typing.Annotated", "typing_extensions.Annotated")
_TYPE_ALIAS = ("typing.TypeAlias", "typing_extensions.TypeAlias")
_TYPEVAR = ("typing.TypeVar", "typing_extensions.TypeVar")
_CAST = ("typing.cast", "typing_extensions.cast")
_GENERIC_DECL = ("typing.Generic", "typing.Protocol", "typing_extensions.Protocol", "typing_extensions.Generic")
_GUARDS = ("typing.TypeGuard", "typing_extensions.TypeGuard", "typing.TypeIs", "typing_extensions.TypeIs")


def check_statement(checker: "ModuleChecker", stmt: ast.stmt) -> None:
    if not checker.options.disallow_any_explicit:
        return
    done = checker.explicit_any_done
    if id(stmt) in done:
        return  # a body walked twice (lookahead, attribute inference)
    done[id(stmt)] = None
    scope = checker.scope
    if _written_any(checker, scope, _statement_types(checker, stmt)):
        checker.error(stmt, MESSAGE, "explicit-any")
    for call in _casts(checker, stmt):
        if _has_any(checker, call.args[0]):
            checker.error(call, MESSAGE, "explicit-any")
    if isinstance(stmt, ast.ClassDef):
        _generated_init(checker, stmt)


def _generated_init(checker: "ModuleChecker", stmt: ast.ClassDef) -> None:
    """A dataclass or attrs class whose generated `__init__` takes a field written
    with Any: mypy checks that signature too, and reports it on the class line
    (trio's `@attrs.frozen class Run` with `afn: Callable[..., Awaitable[RetT]]`).
    Own fields only; in an attrs class, one that is not an `__init__` parameter
    does not count (in a stdlib dataclass it does, as mypy 2.4.1)."""
    from veritype.evaluate.dataclasses import DataclassInfo

    hit = checker._local_symbol(stmt.name)
    if hit is None or hit[0].kind != S.CLASS or hit[0].node is not stmt:
        return
    info = checker.ev.class_info_of(hit[0], hit[1])
    info.synthesized  # processes the dataclass
    dc = info.dataclass_info
    if not isinstance(dc, DataclassInfo) or dc.unknown or not dc.init:
        return
    for f in dc.fields:
        # (a stdlib dataclass counts its other fields too: mypy's plugin generates
        # more methods taking them; attrs only its `__init__` parameters)
        if (f.init or dc.stdlib) and f.node is not None and any(f.node is s for s in stmt.body) and _has_any(checker, f.node.annotation, info.scope):
            checker.error(_class_line(stmt), MESSAGE, "explicit-any")
            return


def _class_line(stmt: ast.ClassDef) -> ast.AST:
    """The `class` line (mypy's), not the first decorator's."""
    marker = ast.Pass()
    marker.lineno, marker.col_offset = stmt.lineno, stmt.col_offset
    marker.end_lineno, marker.end_col_offset = stmt.lineno, stmt.col_offset
    return marker


def _casts(checker: "ModuleChecker", stmt: ast.stmt) -> list[ast.Call]:
    """`cast(T, v)` calls in the statement's own expressions (not in nested bodies)."""
    out: list[ast.Call] = []
    for _, value in ast.iter_fields(stmt):
        exprs = [value] if isinstance(value, ast.expr) else [v for v in value if isinstance(v, ast.expr)] if isinstance(value, list) else []
        for e in exprs:
            for node in walk_nodes(e):
                if isinstance(node, ast.Call) and node.args and _is(checker, node.func, _CAST):
                    out.append(node)
    return out


def _statement_types(checker: "ModuleChecker", stmt: ast.stmt) -> list[ast.expr]:
    """The type expressions of `stmt` that mypy checks as one."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = stmt.args
        params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *(p for p in (a.vararg, a.kwarg) if p is not None)]
        out = [p.annotation for p in params if p.annotation is not None]
        if stmt.returns is not None and not (isinstance(stmt.returns, ast.Subscript) and _is(checker, stmt.returns.value, _GUARDS)):
            out.append(stmt.returns)  # mypy keeps a TypeGuard's type apart from the signature it checks
        return out
    if isinstance(stmt, ast.AnnAssign):
        if _is(checker, stmt.annotation, _TYPE_ALIAS):
            return [stmt.value] if stmt.value is not None else []
        return [stmt.annotation]
    if isinstance(stmt, ast.ClassDef):
        # `Generic[T]` and `Protocol[T]` declare parameters; they are no base types.
        return [b for b in stmt.bases if not (isinstance(b, ast.Subscript) and _is(checker, b.value, _GENERIC_DECL))]
    if type(stmt).__name__ == "TypeAlias":
        return [stmt.value]  # type: ignore[attr-defined]
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        value = stmt.value
        if isinstance(value, ast.Call) and _is(checker, value.func, _TYPEVAR):
            # A TypeVar's constraints and bound.
            return list(value.args[1:]) + [k.value for k in value.keywords if k.arg in ("bound", "default")]
        if _is_alias(checker, stmt.targets[0]):
            return [value]
    return []


def _is_alias(checker: "ModuleChecker", target: ast.Name) -> bool:
    from veritype.evaluate.declarations import alias_info

    sym = checker.scope.table.get(target.id)
    if sym is None or len(sym.decls) != 1 or sym.annotation is not None:
        return False
    try:
        return alias_info(checker.ev, sym, checker.scope) is not None
    except RecursionError:
        return False


def _is(checker: "ModuleChecker", node: ast.expr, names: tuple[str, ...], scope: "Scope | None" = None) -> bool:
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return False
    ref = checker.ev.resolve_expr(node, scope or checker.scope, for_type=True)
    return ref is not None and ref.fullname in names


def _written_any(checker: "ModuleChecker", scope: "Scope", exprs: list[ast.expr]) -> bool:
    return any(_has_any(checker, e) for e in exprs)


def _has_any(checker: "ModuleChecker", node: ast.expr, scope: "Scope | None" = None, depth: int = 0) -> bool:
    if depth > 20:
        return False
    scope = scope or checker.scope

    def sub(n: ast.expr) -> bool:
        return _has_any(checker, n, scope, depth + 1)

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            parsed = ast.parse(node.value.strip(), mode="eval").body
        except SyntaxError:
            return False
        return sub(parsed)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return _is(checker, node, _ANY, scope) or _typevar_with_any(checker, node, scope, depth)
    if isinstance(node, ast.Subscript):
        if _is(checker, node.value, _LITERAL, scope):
            return False
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if _is(checker, node.value, _ANNOTATED, scope):
            return bool(args) and sub(args[0])
        if _is(checker, node.value, _CALLABLE, scope) and args and isinstance(args[0], ast.Constant) and args[0].value is Ellipsis:
            return True  # `Callable[..., T]`: mypy's explicit Any for the `...`
        return sub(node.value) or any(sub(a) for a in args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return sub(node.left) or sub(node.right)
    if isinstance(node, (ast.List, ast.Tuple)):
        return any(sub(e) for e in node.elts)
    return False


def _typevar_with_any(checker: "ModuleChecker", node: ast.expr, scope: "Scope", depth: int) -> bool:
    """A TypeVar whose bound or constraints spell Any: mypy's query visits a type
    variable's bound, so a signature using `CallT` (bound `Callable[..., Any]`)
    has an explicit Any too."""
    ref = checker.ev.resolve_expr(node, scope, for_type=True)
    sym = ref.sym if ref is not None else None
    if sym is None or ref is None or ref.scope is None or sym.kind != S.VAR or len(sym.decls) != 1:
        return False
    decl = sym.decls[0]
    if not (isinstance(decl, ast.Assign) and isinstance(decl.value, ast.Call) and _is(checker, decl.value.func, _TYPEVAR, ref.scope)):
        return False
    call = decl.value
    parts = list(call.args[1:]) + [k.value for k in call.keywords if k.arg in ("bound", "default")]
    return any(_has_any(checker, p, ref.scope, depth + 1) for p in parts)
