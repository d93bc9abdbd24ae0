"""Static conditions: `sys.version_info`, `sys.platform`, `TYPE_CHECKING`,
and the names of mypy's `always_true` / `always_false` options.

Both stubs and user code branch on these; a checker must take only the
branch that applies to the target Python version and platform (typing spec,
"Version and platform checking"). Anything else is unknown (None).
"""

from __future__ import annotations

import ast
import operator

from veritype.syntax.shapes import attribute_chain

_CMP = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


def _dotted(node: ast.expr) -> str | None:
    chain = attribute_chain(node)
    return ".".join(chain) if chain is not None else None


# (always_true, always_false) names: mypy's options of those names.
Always = tuple[frozenset[str], frozenset[str]]


def evaluate_condition(node: ast.expr, version: tuple[int, int], platform: str, always: Always | None = None) -> bool | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = evaluate_condition(node.operand, version, platform, always)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [evaluate_condition(v, version, platform, always) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is False for v in values):
                return False
            return True if all(v is True for v in values) else None
        if any(v is True for v in values):
            return True
        return False if all(v is False for v in values) else None
    if always is not None and isinstance(node, (ast.Name, ast.Attribute)):
        # mypy matches a bare name or an attribute's last part: `DEBUG`, `config.DEBUG`.
        last = node.id if isinstance(node, ast.Name) else node.attr
        if last in always[0]:
            return True
        if last in always[1]:
            return False
    name = _dotted(node)
    # mypy's rule: any name or attribute called TYPE_CHECKING (or MYPY) is
    # true, whatever it is reached through (`import typing as _t`,
    # `_t.TYPE_CHECKING`; a module's own `TYPE_CHECKING = False`).
    if name is not None and name.rpartition(".")[2] in ("TYPE_CHECKING", "MYPY"):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return bool(node.value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compare(node, version, platform)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith":
        if _dotted(node.func.value) == "sys.platform" and len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                return platform.startswith(arg.value)
    return None


def _compare(node: ast.Compare, version: tuple[int, int], platform: str) -> bool | None:
    left, op, right = node.left, node.ops[0], node.comparators[0]
    fn = _CMP.get(type(op))
    if fn is None:
        return None
    lname = _dotted(left)
    if lname == "sys.platform" and isinstance(right, ast.Constant) and isinstance(right.value, str):
        if isinstance(op, (ast.Eq, ast.NotEq)):
            return fn(platform, right.value)
        return None
    target: tuple[int, ...] | None = None
    if lname == "sys.version_info":
        target = version
    elif isinstance(left, ast.Subscript) and _dotted(left.value) == "sys.version_info":
        sl = left.slice
        if isinstance(sl, ast.Slice) and sl.lower is None and isinstance(sl.upper, ast.Constant) and isinstance(sl.upper.value, int):
            target = version[: sl.upper.value]
        elif isinstance(sl, ast.Constant) and sl.value == 0:
            if isinstance(right, ast.Constant) and isinstance(right.value, int):
                return fn(version[0], right.value)
            return None
    if target is None:
        return None
    if isinstance(right, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, int) for e in right.elts):
        other = tuple(e.value for e in right.elts)  # type: ignore[attr-defined]
        # The target version knows (major, minor) only: as mypy (its
        # consider_sys_version_info), a longer tuple (`< (3, 11, 16)`) is
        # undecided, and so is `==`/`!=` against a shorter one; else the
        # tuples compare as Python compares them ((3, 11) > (3,)).
        if len(other) > len(target) or (len(other) < len(target) and isinstance(op, (ast.Eq, ast.NotEq))):
            return None
        return fn(tuple(target), other)
    return None
