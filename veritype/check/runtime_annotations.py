"""Annotations that Python evaluates when the module runs.

Without `from __future__ import annotations` (and before 3.14's deferred
annotations), the annotations of module- and class-level variables and of
every `def`'s parameters and return are evaluated when the statement runs.
The typing spec ("Annotation expressions", "Forward references") lets a
string stand for a name defined later; the rest of the annotation is an
ordinary expression. Two things follow that this module checks, only where
the annotation really runs (not in stubs, not under `if TYPE_CHECKING:`, not
in a quoted annotation):

- `"ClassA" | int` raises TypeError at run time: `str` and a class object
  have no `|` between them (only typing's own special forms accept a string
  operand). Reported as mypy reports the same `|` in an expression
  ([operator]).
- In a class body, a name that an earlier `def` of the same body bound is
  that function (`def int(self)` then `y: int`): "Function ... is not valid
  as a type" [valid-type], as mypy says. Name lookup for types otherwise
  passes over class-level functions (`def str(self) -> str` means builtins'
  str), which is what a quoted or deferred annotation sees.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.type_context import CALLABLE_NOTE
from veritype.syntax.walk import walk as walk_nodes
from veritype.syntax.word_lines import any_in_span

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def annotations_run(checker: "ModuleChecker") -> bool:
    """Whether annotations at this point of the module are evaluated when it runs."""
    if checker.info.is_stub or checker.type_checking_depth:
        return False
    if checker.options.python_version >= (3, 14):
        return False  # PEP 649/749: evaluated only when introspected
    cached = getattr(checker, "_future_annotations", None)
    if cached is None:
        tree = checker.info.tree
        cached = tree is not None and any(
            isinstance(s, ast.ImportFrom) and s.module == "__future__" and any(a.name == "annotations" for a in s.names)
            for s in tree.body
        )
        checker._future_annotations = cached  # type: ignore[attr-defined]
    return not cached


def _signature_annotations(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    a = node.args
    params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    if a.vararg is not None:
        params.append(a.vararg)
    if a.kwarg is not None:
        params.append(a.kwarg)
    out = [p.annotation for p in params if p.annotation is not None]
    if node.returns is not None:
        out.append(node.returns)
    return out


def statement_annotations(checker: "ModuleChecker", stmt: ast.stmt) -> list[ast.expr]:
    """The annotations of `stmt` evaluated when it runs: a def's signature (at
    any level), a variable's annotation at module or class level (a function's
    local annotations never run)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _signature_annotations(stmt)
    if isinstance(stmt, ast.AnnAssign) and checker.func is None and isinstance(stmt.target, ast.Name):
        return [stmt.annotation]
    return []


# -- `"A" | int` --------------------------------------------------------------------------


def check_statement(checker: "ModuleChecker", stmt: ast.stmt) -> None:
    if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign)):
        return
    # (Asked of every def: whether annotations run first, kept for the module;
    # then whether the module holds a `|` at all, before the annotations are gathered.)
    if not annotations_run(checker):
        return
    # An annotation whose lines hold no `|` has no `|` to check: not walked
    # (syntax/word_lines.py; an annotation's position is exact; None: not known).
    parsed = checker.info.parsed
    bar_lines = parsed.word_lines("|") if parsed is not None else None
    if bar_lines is not None and not bar_lines:
        return
    for ann in statement_annotations(checker, stmt):
        if isinstance(ann, ast.Constant):
            continue  # quoted whole: never evaluated as an expression
        if bar_lines is not None and not any_in_span(bar_lines, ann.lineno, ann.end_lineno):
            continue
        for node in walk_nodes(ann):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
                _check_or(checker, node)


def _check_or(checker: "ModuleChecker", node: ast.BinOp) -> None:
    left, right = _operand(checker, node.left), _operand(checker, node.right)
    if left is None or right is None or "str" not in (left, right):
        return
    checker.error(node, f'Unsupported operand types for | ("{left}" and "{right}")', "operator")
    checker.note(node, "This annotation is evaluated at run time; quote all of it, or add \"from __future__ import annotations\"")


def _operand(checker: "ModuleChecker", node: ast.expr, depth: int = 0) -> str | None:
    """How an operand of `|` in an evaluated annotation is known at run time:
    "str" (a quoted part), "None", "type[C]" (a class whose metaclass has no `|`
    of its own), "UnionType" (a `|` of those), or None (unknown: typing's special
    forms, aliases, NewTypes and generic aliases accept a string operand or may)."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return "str"
        return "None" if node.value is None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if depth > 50:
            return None  # a pathological chain: unknown
        left, right = _operand(checker, node.left, depth + 1), _operand(checker, node.right, depth + 1)
        if left is None or right is None or "str" in (left, right):
            return None
        return "UnionType"
    if isinstance(node, (ast.Name, ast.Attribute)):
        ref = checker.ev.resolve_expr(node, checker.scope, for_type=True)
        if ref is None or ref.kind != "class" or ref.info is None:
            return None
        info = ref.info
        if info.module is None or info.module.name in ("typing", "typing_extensions"):
            return None
        if info.node is None or not isinstance(info.node, ast.ClassDef) or info.is_newtype:
            return None
        if not _plain_metaclass(checker, info):
            return None
        return f"type[{info.name}]"
    return None


def _plain_metaclass(checker: "ModuleChecker", info: "ClassInfo") -> bool:
    """Whether `C | x` is `type.__or__`, which refuses a string."""
    meta = checker.ev.metaclass_instance(info)
    if meta is None:
        return True
    for cls in meta.info.mro:
        if cls.fullname in ("builtins.type", "builtins.object"):
            continue
        if "__or__" in cls.symbols or "__ror__" in cls.symbols:
            return False
    return True


# -- a class-level function named in an annotation -------------------------------------------


def check_class_body(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    """`def int(self): ...` then `y: int` in the same class body: the annotation
    runs in the class namespace, where `int` is now that function."""
    if not annotations_run(checker):
        return
    funcs: dict[str, ast.AST] = {}
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.AnnAssign)) and funcs:
            for ann in statement_annotations(checker, stmt):
                for name in _type_names(ann):
                    if name.id in funcs:
                        checker.error(name, f'Function "{info.fullname}.{name.id}" is not valid as a type', "valid-type")
                        checker.note(name, CALLABLE_NOTE)
        for bound in _bound_names(stmt):
            funcs.pop(bound, None)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list:
            funcs[stmt.name] = stmt


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if isinstance(stmt, ast.AnnAssign) and stmt.value is None:
            return []
        return [n.id for t in targets for n in walk_nodes(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    # Anything else that may bind (loops, with, conditionals): the name is unknown now.
    return [n.id for n in walk_nodes(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _type_names(ann: ast.expr) -> list[ast.Name]:
    """The names in type positions of an unquoted annotation: not inside strings,
    calls, attribute chains, `Literal[...]`, or `Annotated`'s metadata."""
    out: list[ast.Name] = []

    def visit(n: ast.expr, depth: int = 0) -> None:
        if depth > 100:
            return  # a pathological annotation: its deeper names are not looked at
        if isinstance(n, ast.Name):
            out.append(n)
        elif isinstance(n, ast.BinOp):
            visit(n.left, depth + 1)
            visit(n.right, depth + 1)
        elif isinstance(n, ast.Subscript):
            base = n.value
            base_name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
            visit(base, depth + 1)
            if base_name == "Literal":
                return
            items = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            if base_name == "Annotated":
                items = items[:1]
            for item in items:
                visit(item, depth + 1)
        elif isinstance(n, (ast.List, ast.Tuple)):
            for e in n.elts:
                visit(e, depth + 1)

    visit(ann)
    return out
