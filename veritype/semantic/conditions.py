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


_Name, _Attribute, _Compare, _Call, _UnaryOp, _BoolOp, _Constant, _Subscript = (
    ast.Name, ast.Attribute, ast.Compare, ast.Call, ast.UnaryOp, ast.BoolOp, ast.Constant, ast.Subscript)
# mypy's rule: any name or attribute called TYPE_CHECKING (or MYPY) is true,
# whatever it is reached through (`import typing as _t`, `_t.TYPE_CHECKING`;
# a module's own `TYPE_CHECKING = False`).
_ALWAYS_TRUE_NAMES = frozenset({"TYPE_CHECKING", "MYPY"})


def evaluate_condition(node: ast.expr, version: tuple[int, int], platform: str, always: Always | None = None,
                       constants: bool = True) -> bool | None:
    """True / False for a static condition, None for any other. `constants`
    False: `True`, `False`, `0`, `1` are unknown too, as to mypy's semantic
    analysis, which decides the static branches (and `assert`s) it does not
    check; its checker still finds a branch after `assert False` unreachable."""
    # One branch by the node's class (a parse's nodes are never of a
    # subclass): asked for every `if` and `assert` of every bound body, and
    # most tests (`x is None`, `isinstance(...)`, a name) are none of these
    # conditions, told apart here by a look at the node and its left part.
    kind = type(node)
    if kind is _Name or kind is _Attribute:
        last = node.id if kind is _Name else node.attr  # type: ignore[attr-defined]
        if always is not None:
            # mypy matches a bare name or an attribute's last part: `DEBUG`, `config.DEBUG`.
            if last in always[0]:
                return True
            if last in always[1]:
                return False
        if last in _ALWAYS_TRUE_NAMES and (kind is _Name or attribute_chain(node) is not None):
            return True
        return None
    if kind is _Compare:
        # `_compare`'s first test, without its call: most compared left sides (`x is
        # None`, `a == b`) are no attribute or subscript.
        left_kind = type(node.left)  # type: ignore[attr-defined]
        if left_kind is not _Attribute and left_kind is not _Subscript:
            return None
        return _compare(node, version, platform) if len(node.ops) == 1 else None  # type: ignore[attr-defined, arg-type]
    if kind is _Call:
        func = node.func  # type: ignore[attr-defined]
        if type(func) is _Attribute and func.attr == "startswith" and len(node.args) == 1 and _dotted(func.value) == "sys.platform":  # type: ignore[attr-defined]
            arg = node.args[0]  # type: ignore[attr-defined]
            if type(arg) is _Constant and isinstance(arg.value, str):
                return platform.startswith(arg.value)
        return None
    if kind is _UnaryOp:
        if type(node.op) is ast.Not:  # type: ignore[attr-defined]
            inner = evaluate_condition(node.operand, version, platform, always, constants)  # type: ignore[attr-defined]
            return None if inner is None else not inner
        return None
    if kind is _BoolOp:
        values = [evaluate_condition(v, version, platform, always, constants) for v in node.values]  # type: ignore[attr-defined]
        # Each value is True, False or None (undecided), so `in` (identity, then
        # equality between these three) asks what `any(v is X ...)` asked, without a
        # generator made and closed early for each `and`/`or` the binder meets (~3k a run).
        if type(node.op) is ast.And:  # type: ignore[attr-defined]
            if False in values:
                return False
            return True if None not in values else None  # no False: all True unless one is undecided
        if True in values:
            return True
        return False if None not in values else None  # no True: all False unless one is undecided
    if kind is _Constant and constants and isinstance(node.value, (bool, int)):  # type: ignore[attr-defined]
        return bool(node.value)  # type: ignore[attr-defined]
    return None


def _compare(node: ast.Compare, version: tuple[int, int], platform: str) -> bool | None:
    left, op, right = node.left, node.ops[0], node.comparators[0]
    # Only `sys.platform`, `sys.version_info` and a subscript of it are
    # compared here: any other left side (most: `x is None`, `a == b`) is not
    # looked into.
    left_kind = type(left)
    if left_kind is _Attribute:
        if left.attr != "platform" and left.attr != "version_info":  # type: ignore[attr-defined]
            return None
    elif left_kind is not _Subscript:
        return None
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
