"""Enum members: which names of an enum class are members (not methods, descriptors,
private or ignored names), and the type of a member and of its name/value attributes.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import Instance, LiteralType, Type


if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.members import Members


def enum_members(mb: "Members", info: "ClassInfo") -> list[str]:
    if info.functional_enum_members is not None:
        return list(info.functional_enum_members)
    out: list[str] = []
    ignored = _enum_ignored(info)
    for name, sym in info.symbols.items():
        if sym.kind != S.VAR or sym.is_instance_attr or name in ignored:
            continue
        if name.startswith("_") and (name.endswith("_") or name.startswith("__")):
            continue
        node = sym.node
        if isinstance(node, ast.AnnAssign) and node.value is None:
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            value = node.value
            if isinstance(value, (ast.Lambda,)):
                continue
            if _enum_wrapper(value) == "nonmember":
                continue  # spec: `nonmember(v)` is a plain attribute
            if isinstance(value, ast.Name) and value.id in out:
                continue  # an alias of an earlier member (see enum_member)
            out.append(name)
    # Spec, "Enums": `@member def f` makes a method a member.
    out.extend(n for n, sym in info.symbols.items() if sym.kind == S.FUNC and _enum_wrapper(sym.node) == "member")
    return out


def enum_attr(mb: "Members", info: "ClassInfo", attr: str, member: str | None) -> Type | None:
    """`.name`/`.value` of an enum member (`member`), or of any member (None).

    None (fall back to typeshed's Any) when the class customizes values
    (`__new__`, `_value_` declared, `_generate_next_value_`) or a value is not simple."""
    ev = mb.ev
    members = mb.enum_members(info)
    if not members:
        return None
    if attr in ("name", "_name_"):
        if member is not None:
            return ev.literal(member)
        return ev.builtin("str")
    for cls in info.mro:
        if cls.fullname.startswith("enum."):
            break
        if any(n in cls.symbols for n in ("__new__", "_value_", "_generate_next_value_", "__init__")):
            return None
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.types.join import widen_literals
    from veritype.types.model import make_union

    names = [member] if member is not None else members
    out: list[Type] = []
    scope = info.scope if info.node is not None else info.defining_scope
    for n in names:
        if info.functional_enum_members is not None:
            # `Enum("E", {"A": 1})`: the value written in the call (none: Any, as mypy).
            value = info.functional_enum_values.get(n)
            if value is None:
                return None
            if not isinstance(value, (ast.Constant, ast.Tuple, ast.UnaryOp)):
                return None
            out.append(ExprEvaluator(ev, scope).infer(value))
            continue
        sym = info.symbols.get(n)
        node = sym.node if sym is not None else None
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if value is None:
            return None
        if isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)):
            ref = ev.resolve_expr(value.func, info.scope)
            if ref is not None and ref.fullname == "enum.auto":
                out.append(ev.builtin("str") if info.has_base("enum.StrEnum") else ev.builtin("int"))
                continue
        if not isinstance(value, (ast.Constant, ast.Tuple, ast.UnaryOp)):
            return None
        out.append(ExprEvaluator(ev, info.scope).infer(value))
    if member is None and len({widen_literals(t) for t in out}) > 1:
        # mypy's enum plugin (enum_value_callback): values of different types
        # leave typeshed's Any; values of one type are their union, each an
        # inferred literal (`Literal['a']? | Literal['b']?`), so
        # `return self.value` fits a `Literal['a', 'b']` return type.
        return None
    return make_union(out)


def enum_member(mb: "Members", info: "ClassInfo", name: str) -> Type | None:
    members = mb.enum_members(info)
    if name in members:
        return LiteralType(name, Instance(info, ()), is_enum=True)
    # Spec, "Enums": "An attribute that is assigned the value of another member
    # of the same enum is not a member itself. Instead, it is an alias for the
    # first member."
    sym = info.symbols.get(name) if info.functional_enum_members is None else None
    node = sym.node if sym is not None and sym.kind == S.VAR else None
    value = node.value if isinstance(node, ast.Assign) and len(node.targets) == 1 else None
    if isinstance(value, ast.Name) and value.id in members:
        return LiteralType(value.id, Instance(info, ()), is_enum=True)
    return None


def _enum_wrapper(node: ast.AST | None) -> str | None:
    """'member' / 'nonmember' for `enum.member(v)`, `nonmember(v)` or a function
    decorated with them (by the name as written: they are rarely re-exported)."""
    exprs: list[ast.expr] = []
    if isinstance(node, ast.Call):
        exprs = [node.func]
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        exprs = list(node.decorator_list)
    for e in exprs:
        name = e.id if isinstance(e, ast.Name) else e.attr if isinstance(e, ast.Attribute) else None
        if name in ("member", "nonmember"):
            return name
        if isinstance(node, ast.Call) and name in ("staticmethod", "classmethod", "property"):
            return "nonmember"  # a descriptor, not a member
    return None


def _enum_ignored(info: "ClassInfo") -> set[str]:
    """Names an enum's `_ignore_` lists (a list/tuple of strings or a space-separated
    string): typing spec, "Enums": they are not members."""
    sym = info.symbols.get("_ignore_")
    node = sym.node if sym is not None else None
    value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return set(value.value.split())
    if isinstance(value, (ast.List, ast.Tuple)):
        return {e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()
