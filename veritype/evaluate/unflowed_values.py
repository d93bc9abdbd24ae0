"""`self.x = value` whose type no flow of the method can have changed.

An unannotated instance attribute takes the type of its first assignment
where it is made, narrowing included (declarations._flow_assigned): the
check stage walks the whole method silently (`Evaluator.method_walker`) and
records the type of each `self.x = value` it meets. A method asked for
before the check reaches it was walked twice, silently and then checked
(46 walks on the bench corpus, nearly all of `__init__`, most for
`self.x = x`), and the silent walk runs inside a lazy evaluation, where no
member answer is kept. Two kinds of statement need no walk:

`records_nothing`: `self.a, self.b = a, b`. The checker assigns a tuple
target's items with no value node to key them by, so the walk records
nothing for them and `_flow_assigned` answers None after it anyway.

`unflowed_assigned`: the value's inference with no flow at all is what the
walk records, where
- the statement is `self.x = value` (one target, no type comment) at the top
  of the method's body (in no loop or branch), the attribute is declared
  nowhere else in the MRO (no base's declared type as the value's context:
  the checker infers it with none, as here) and `self` is unannotated (so
  the checker's `self.x` is this class's);
- the value is made of names, attributes, calls, subscripts, constants,
  operators, displays and comprehensions, but no empty display (the checker
  may complete it as a partial type), lambda, walrus, await or yield (they
  bind or read the checker's context);
- no statement above it may narrow or bind a name the value reads: such a
  name appears above only as a plain read in a simple statement (an
  expression, an assignment's value, a return or raise), never bound,
  deleted, captured, declared global or nonlocal, imported, named by a def
  or a class, in a target or in a compound statement. Every flow key the
  inference may read is rooted at such a name (calls forget no narrowing),
  so the checker's flow holds none of them there, on any path;
- the type has no literal to widen: whether the checker records it (a
  reachable statement: `_flow_assigned`'s answer, widened keeping declared
  literals) or not (an unreachable one: the declaration's own inference,
  widened by its value's shape), the attribute's type is that type itself.

Anything else goes to the walk as before.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.scopes import Scope
from veritype.semantic.symbols import Symbol
from veritype.types.join import widen_literals
from veritype.types.model import Type
from veritype.syntax.shapes import empty_display_kind
from veritype.syntax.walk import walk as walk_nodes

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator

FuncDef = ast.FunctionDef | ast.AsyncFunctionDef

# The node classes a value may be made of (exact classes: a parse's nodes are
# never of a subclass): no lambda, walrus, await, yield (they read the
# checker's context or bind), with the operators and contexts (a Store is a
# comprehension's target: a walrus is left out).
_VALUE_PARTS = frozenset((
    ast.Name, ast.Attribute, ast.Call, ast.keyword, ast.Subscript, ast.Slice, ast.Constant, ast.Starred,
    ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.JoinedStr, ast.FormattedValue,
    ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
    ast.comprehension, ast.Load, ast.Store,
    *(c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, (ast.operator, ast.unaryop, ast.boolop, ast.cmpop))),
))
# Statements above the assignment that may name a read name as a plain read
# (never as a target's part nor bound): none of them narrows or binds it.
_READING = frozenset((ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Raise, ast.Pass))
# Nodes that name an identifier in a field other than `Name.id`, by field.
_NAMING = {
    ast.arg: ("arg",), ast.ExceptHandler: ("name",), ast.FunctionDef: ("name",),
    ast.AsyncFunctionDef: ("name",), ast.ClassDef: ("name",), ast.Global: ("names",),
    ast.Nonlocal: ("names",), ast.MatchAs: ("name",), ast.MatchStar: ("name",), ast.MatchMapping: ("rest",),
}
for _kind in ("TypeVar", "ParamSpec", "TypeVarTuple"):  # (Python 3.12's type parameters)
    if hasattr(ast, _kind):
        _NAMING[getattr(ast, _kind)] = ("name",)


def records_nothing(sym: Symbol, method: FuncDef, node: ast.AST) -> bool:
    """Whether the walk of `method` cannot record `node`'s value for `sym`:
    an assignment with no target `self.<name>` of its own (`self.a, self.b =
    a, b`: the checker assigns the items, with no value node to key them by)."""
    if type(node) is not ast.Assign:
        return False
    positional = method.args.posonlyargs or method.args.args
    if not positional:
        return True
    first = positional[0].arg
    for target in node.targets:  # type: ignore[attr-defined]
        if type(target) is ast.Attribute and target.attr == sym.name and type(target.value) is ast.Name and target.value.id == first:
            return False
    return True


def unflowed_assigned(ev: "Evaluator", sym: Symbol, method: FuncDef, cls: "ClassInfo", node: ast.AST, eval_scope: Scope) -> Type | None:
    """The type of `node`'s value as the method's walk would record it, when
    that is its inference with no flow (see the module docstring); else None."""
    if type(node) is not ast.Assign or node.type_comment or len(node.targets) != 1:  # type: ignore[attr-defined]
        return None
    if sym.annotation is not None or sym.type_comment is not None:
        return None
    target = node.targets[0]  # type: ignore[attr-defined]
    positional = method.args.posonlyargs or method.args.args
    if (type(target) is not ast.Attribute or type(target.value) is not ast.Name or target.attr != sym.name
            or not positional or positional[0].annotation is not None or target.value.id != positional[0].arg):
        return None
    body = method.body
    at = next((i for i, stmt in enumerate(body) if stmt is node), None)
    if at is None:
        return None
    if any(sym.name in base.symbols for base in cls.mro[1:]):
        return None
    value: ast.expr = node.value  # type: ignore[attr-defined]
    if empty_display_kind(value) is not None:
        return None  # (the checker may complete it as a partial type: check.partial_types)
    read: set[str] = set()
    parts = _VALUE_PARTS
    for sub in walk_nodes(value):
        kind = type(sub)
        if kind not in parts:
            return None
        if kind is ast.Name:
            read.add(sub.id)  # type: ignore[attr-defined]
    if read and at and _named_above(body[:at], read):
        return None
    t = ExprEvaluator(ev, eval_scope).infer(value)
    return t if widen_literals(t) is t else None


def _named_above(stmts: list[ast.stmt], names: set[str]) -> bool:
    """Whether a statement of `stmts` may narrow or bind one of `names`: it
    names one (an import by its first dotted part), other than as a plain
    read in a simple statement, outside its targets."""
    for stmt in stmts:
        if type(stmt) in _READING:
            targets = stmt.targets if type(stmt) is ast.Assign else [stmt.target] if type(stmt) in (ast.AnnAssign, ast.AugAssign) else []  # type: ignore[attr-defined]
            if any(_names_any(t, names, reads_count=True) for t in targets) or _names_any(stmt, names, reads_count=False):
                return True
        elif _names_any(stmt, names, reads_count=True):
            return True
    return False


def _names_any(node: ast.AST, names: set[str], reads_count: bool) -> bool:
    """Whether a node under `node` names one of `names`; a `Name` read (Load)
    counts only if `reads_count`."""
    naming = _NAMING
    load = ast.Load
    for sub in walk_nodes(node):
        kind = type(sub)
        if kind is ast.Name:
            if sub.id in names and (reads_count or type(sub.ctx) is not load):  # type: ignore[attr-defined]
                return True
        elif kind is ast.alias:
            bound = sub.asname or sub.name.partition(".")[0]  # type: ignore[attr-defined]
            if bound in names:
                return True
        elif kind in naming:
            for field in naming[kind]:
                got = getattr(sub, field, None)
                if got is None:
                    continue
                if isinstance(got, str):
                    if got in names:
                        return True
                elif any(n in names for n in got):
                    return True
    return False
