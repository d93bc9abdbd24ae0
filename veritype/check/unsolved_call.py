"""`q = asyncio.Queue()`: a generic call nothing solves declares no type.

mypy 2.4.1 reports `Need type annotation for "q"` [var-annotated] where a
variable's first assignment is a call whose result has a type variable no
argument, default or context constrains (`collections.deque()`,
`asyncio.Queue()`, a generic class's `Box()`; also `self.q = ...` in a method
and a class attribute), at the call. The variable is then `deque[Any]`, as it
was here already. Kept to calls without arguments, where nothing but the
missing context could have solved it: with arguments the answer would depend
on how well each checker solves them. The empty builtin collections (`list()`,
`set()`, `dict()`, `OrderedDict()`, `defaultdict(...)`) are mypy's partial
types, which a later `append` may complete (check/partial_types.py);
`defaultdict(factory)` nothing completes is check/defaultdict_annotation.py's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.attribute_writes import is_self_target
from veritype.check.defaultdict_annotation import report_defaultdict
from veritype.types.model import AnyType, Instance, Type

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_PARTIAL_KINDS = frozenset({"builtins.list", "builtins.set", "builtins.dict", "collections.OrderedDict", "collections.defaultdict"})


def report_unsolved_call(mc: "ModuleChecker", stmt: ast.Assign, t: Type) -> None:
    """Report `stmt` (whose value was inferred as `t`) when it is such a declaration."""
    value = stmt.value
    if type(value) is ast.Call and value.args:
        report_defaultdict(mc, stmt, t)  # `defaultdict(list)`: the one call with arguments judged
        return
    if type(value) is not ast.Call or value.keywords or len(stmt.targets) != 1 or mc.info.is_stub:
        return
    if not isinstance(t, Instance) or t.info.fullname in _PARTIAL_KINDS:
        return
    if not any(type(a) is AnyType and a.reason == "unsolved" for a in t.args):
        return
    target = stmt.targets[0]
    if isinstance(target, ast.Name):
        sym = mc.scope.table.get(target.id)
        name = target.id
    elif isinstance(target, ast.Attribute) and is_self_target(mc, target):
        cls = mc.scope.method_class() if mc.scope.kind == "function" else None
        sym = cls.symbols.get(target.attr) if cls is not None else None
        name = target.attr
        if sym is not None and not sym.is_instance_attr:
            return
    else:
        return
    if sym is None or sym.node is not stmt or sym.annotation is not None or sym.type_comment is not None:
        return  # declared elsewhere, or not first bound here
    mc.error(value, f'Need type annotation for "{name}"', "var-annotated")
