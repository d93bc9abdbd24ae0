"""PEP 484 type comments: `x = []  # type: List[int]` and `# type: (int, str) -> bool`.

Python's own parser (with `type_comments=True`) attaches the comment text to
the node; here the text becomes an expression (or a function signature).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Type

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.type_context import Reporter, TypeContext

_IGNORE = re.compile(r"^\s*ignore\b")


def parse_type_comment_expr(text: str) -> ast.expr | None:
    text = text.strip()
    if _IGNORE.match(text):
        return None
    # `# type: int  # some other comment` keeps only the type.
    text = text.split("#", 1)[0].strip()
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError:
        return None


@dataclass
class CommentSignature:
    """A function's `# type: (...) -> ...` comment, read into types."""
    args: list[Type | None]
    ret: Type
    names: list[str]
    star: Type | None = None
    star2: Type | None = None
    kw: dict[str, Type | None] | None = None

    def param_type(self, index: int, name: str) -> Type | None:
        if self.kw is not None and name in self.kw:
            return self.kw[name]
        return None

    def star_type(self) -> Type | None:
        return self.star

    def star2_type(self) -> Type | None:
        return self.star2

    def kw_type(self, name: str) -> Type | None:
        return self.kw.get(name) if self.kw is not None else None


def signature_from_comment(ev: "Evaluator", node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: "TypeContext", report: "Reporter | None") -> CommentSignature | None:
    text = (node.type_comment or "").strip()
    if _IGNORE.match(text):
        return None
    text = text.split("#", 1)[0].strip() if not text.startswith("(") else _strip_trailing_comment(text)
    try:
        parsed = ast.parse(text, mode="func_type")
    except SyntaxError:
        if report is not None:
            report(node, f'Syntax error in type comment "{text}"', "syntax")
        return None
    a = node.args
    names = [x.arg for x in [*a.posonlyargs, *a.args]]
    arg_nodes = list(parsed.argtypes)  # type: ignore[attr-defined]
    # `(...) -> R` leaves every parameter untyped.
    if len(arg_nodes) == 1 and isinstance(arg_nodes[0], ast.Constant) and arg_nodes[0].value is Ellipsis:
        ret = ev.type_exprs.eval(parsed.returns, ctx)  # type: ignore[attr-defined]
        return _per_argument(ev, node, ctx, ret)
    # Python's parser drops the `*` / `**` markers of `*args` / `**kwargs`
    # entries, so find them in the text.
    markers = _star_markers(text)
    star = star2 = None
    plain: list[ast.expr] = []
    for i, an in enumerate(arg_nodes):
        mark = markers[i] if i < len(markers) else ""
        if mark == "**":
            star2 = ev.type_exprs.eval_star(an, ctx, "**")
        elif mark == "*":
            star = ev.type_exprs.eval_star(an, ctx, "*")
        else:
            plain.append(an)
    kw_names = [x.arg for x in a.kwonlyargs]
    expected = names + kw_names
    is_method = ctx.self_class is not None and names and not _is_static(node)
    if is_method and len(plain) == len(expected) - 1:
        targets = expected[1:]
    else:
        targets = expected
    if len(plain) != len(targets):
        if report is not None:
            report(node, "Type signature has %s arguments" % ("too many" if len(plain) > len(targets) else "too few"), "syntax")
        return CommentSignature([], AnyType("error"), names, kw={})
    kw: dict[str, Type | None] = {}
    for name, an in zip(targets, plain):
        kw[name] = ev.type_exprs.eval(an, ctx)
    ret = ev.type_exprs.eval(parsed.returns, ctx)  # type: ignore[attr-defined]
    return CommentSignature([], ret, names, star, star2, kw)


def has_argument_comments(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a parameter carries a `# type:` comment that parses. Asked of
    every signature built, most with no comment at all: the parameter lists are
    read in place, not gathered into a new one."""
    a = node.args
    for group in (a.posonlyargs, a.args, a.kwonlyargs, (a.vararg, a.kwarg)):
        for x in group:
            if x is not None and x.type_comment and parse_type_comment_expr(x.type_comment) is not None:
                return True
    return False


def argument_comment_signature(ev: "Evaluator", node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: "TypeContext") -> CommentSignature:
    """Per-parameter `# type:` comments with no signature comment: the return is unannotated (PEP 484:
    "Specifying the return type is not mandatory")."""
    return _per_argument(ev, node, ctx, AnyType("unannotated"))


def _per_argument(ev: "Evaluator", node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: "TypeContext", ret: Type) -> CommentSignature:
    """Each parameter may carry its own `# type:` comment on its line (PEP 484)."""
    a = node.args
    names = [x.arg for x in [*a.posonlyargs, *a.args]]
    per_arg: dict[str, Type | None] = {}
    star_t = star2_t = None
    for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
        expr = parse_type_comment_expr(x.type_comment) if x is not None and x.type_comment else None
        if x is None or expr is None:
            continue
        t = ev.type_exprs.eval_star(expr, ctx, "*" if x is a.vararg else "**") if x is a.vararg or x is a.kwarg else ev.type_exprs.eval(expr, ctx)
        if x is a.vararg:
            star_t = t
        elif x is a.kwarg:
            star2_t = t
        else:
            per_arg[x.arg] = t
    return CommentSignature([], ret, names, star_t, star2_t, kw=per_arg)


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _strip_trailing_comment(text: str) -> str:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "#" and depth == 0:
            return text[:i].strip()
    return text


def _star_markers(text: str) -> list[str]:
    """The `*`/`**` prefix of each top-level entry of `(a, *b, **c) -> R`."""
    inner = text[text.index("(") + 1:]
    depth = 0
    entries: list[str] = []
    current = ""
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            entries.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        entries.append(current)
    out = []
    for e in entries:
        e = e.strip()
        out.append("**" if e.startswith("**") else "*" if e.startswith("*") else "")
    return out
