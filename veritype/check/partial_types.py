"""Empty collections completed by their first use: mypy's "partial types".

`x = []` followed by `x.append(1)` makes `x` a `list[int]`; `d = {}` then
`d["k"] = 1` a `dict[str, int]`; `s = set()` then `s.add("a")` a `set[str]`.
The typing spec says nothing about inference; this follows mypy, which
completes an empty display from the first use of the variable in the same
scope when that use is `append`/`extend` (list), `add`/`discard`/`update`
(set), `update` or `d[k] = v` (dict), and `self.x = []` in a method from
`self.x.append(...)` in the same method.

How: at the assignment we find (syntactically) the first later reference
to the variable. Only when it is one of those completing statements, in
the same block or nested in a statement after the assignment in that block
(never in a nested scope), do we walk the statements up to it silently on
a copy of the flow state and record the argument's type where it is
evaluated (loop variables and narrowing included). Anything else — a read,
a nested function mentioning the name, an argument that is Any or Never —
leaves the plain `list[Any]`, with no error: false positives are worse than
a missed completion.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, NeverType, NoneType, Type, UnionType
from veritype.syntax.walk import walk as walk_nodes
from veritype.check.var_annotated import empty_display_kind, may_hold, name_lines

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.expressions import ExprEvaluator

# Completing methods per collection, with the argument's role: the item
# itself ("item"), a collection of items ("iter") or a dict ("mapping").
# Checked against mypy: list.insert, dict.setdefault, set.remove and
# `lst[i] = v` do not complete, nor keyword arguments (`d.update(a=1)`).
_METHODS = {
    "list": {"append": "item", "extend": "iter"},
    "set": {"add": "item", "discard": "item", "update": "iter"},
    "dict": {"update": "mapping"},
}
# The collections an "iter" argument may be for mypy to complete from it:
# `x.extend(str(i) for i in r)` or `x += (1, 2)` leave `x` partial there.
_ITER_SOURCES = {"list": ("builtins.list",), "set": ("builtins.set", "builtins.list")}
# Augmented assignments that complete: `x += [1]` (list), `s |= {1}` (set);
# mypy does not complete a dict from `d |= {...}`.
_AUG_OPS = {"list": ast.Add, "set": ast.BitOr}

# Statements walked silently to reach the completing use, at most; past
# that the collection stays `list[Any]` (the walk doubles their cost).
_LOOKAHEAD_LIMIT = 400

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_SCOPED = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass
class Completion:
    """The statement that completes a partial type (an empty collection's first use) and how."""
    stmt: ast.stmt  # the completing statement
    role: str  # "item" / "iter" / "mapping" / "setitem"


def _is_target(node: ast.AST, key: tuple[str, ...]) -> bool:
    """`node` is the variable: `x` for ("x",), `self.x` for ("self", "x")."""
    if len(key) == 1:
        return isinstance(node, ast.Name) and node.id == key[0]
    return isinstance(node, ast.Attribute) and node.attr == key[1] and isinstance(node.value, ast.Name) and node.value.id == key[0]


def _completing(stmt: ast.stmt, key: tuple[str, ...], kind: str) -> Completion | None:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        f = call.func
        if isinstance(f, ast.Attribute) and _is_target(f.value, key) and len(call.args) == 1 and not call.keywords:
            if isinstance(call.args[0], ast.Starred):
                return None
            role = _METHODS[kind].get(f.attr)
            if role is not None:
                return Completion(stmt, role)
        return None
    if isinstance(stmt, ast.AugAssign) and _is_target(stmt.target, key) and kind in _AUG_OPS and isinstance(stmt.op, _AUG_OPS[kind]):
        return Completion(stmt, "aug")
    if kind == "dict" and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        t = stmt.targets[0]
        if isinstance(t, ast.Subscript) and _is_target(t.value, key) and not isinstance(t.slice, ast.Slice):
            return Completion(stmt, "setitem")
    return None


def _mentions(node: ast.AST, key: tuple[str, ...]) -> bool:
    for sub in walk_nodes(node):
        if _is_target(sub, key):
            return True
        if len(key) == 1 and isinstance(sub, (ast.Global, ast.Nonlocal)) and key[0] in sub.names:
            return True
        if len(key) == 2 and isinstance(sub, ast.Name) and sub.id == key[0] and not isinstance(sub.ctx, ast.Load):
            return True  # `self` rebound: give up
    return False


def _child_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, _NESTED):
        return []
    blocks: list[list[ast.stmt]] = []
    for field in ("body", "orelse", "finalbody"):
        b = getattr(stmt, field, None)
        if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
            blocks.append(b)
    for h in getattr(stmt, "handlers", None) or []:
        blocks.append(h.body)
    for c in getattr(stmt, "cases", None) or []:
        blocks.append(c.body)
    return blocks


def _header_mentions(stmt: ast.stmt, key: tuple[str, ...]) -> bool:
    """Whether the parts of a compound statement outside its blocks mention the variable."""
    for field, value in ast.iter_fields(stmt):
        if field in ("body", "orelse", "finalbody", "handlers", "cases"):
            continue
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, ast.AST) and _mentions(v, key):
                return True
    for h in getattr(stmt, "handlers", None) or []:
        if h.type is not None and _mentions(h.type, key):
            return True
        if len(key) == 1 and h.name == key[0]:
            return True
    for c in getattr(stmt, "cases", None) or []:
        if _mentions(c.pattern, key) or (c.guard is not None and _mentions(c.guard, key)):
            return True
        if len(key) == 1 and any(getattr(n, "name", None) == key[0] or getattr(n, "rest", None) == key[0] for n in walk_nodes(c.pattern)):
            return True
    return False


def _first_use(stmts: list[ast.stmt], key: tuple[str, ...], kind: str, lines: list[int] | None = None) -> Completion | None | bool:
    """The completion if the first mention of the variable in `stmts` (in order) is
    one; False if the first mention is anything else; None if there is none.
    `lines`: those that may hold the variable's name (`name_lines`; None: any):
    a statement whose span holds none mentions it nowhere."""
    for stmt in stmts:
        if lines is not None and not may_hold(stmt, lines):
            continue
        done = _completing(stmt, key, kind)
        if done is not None:
            return done
        if isinstance(stmt, _NESTED) or not _child_blocks(stmt):
            if _mentions(stmt, key) or (len(key) == 1 and getattr(stmt, "name", None) == key[0]):
                return False
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and len(key) == 1 and any((a.asname or a.name).split(".")[0] == key[0] for a in stmt.names):
                return False
            continue
        if _header_mentions(stmt, key):
            return False
        for block in _child_blocks(stmt):
            r = _first_use(block, key, kind, lines)
            if r is not None:
                return r
    return None


def _count(stmts: list[ast.stmt]) -> int:
    """Statements the lookahead walks (nested function and class bodies are skipped)."""
    n = 0
    for stmt in stmts:
        n += 1
        for block in _child_blocks(stmt):
            n += _count(block)
    return n


def _find_block(body: list[ast.stmt], assign: ast.stmt) -> tuple[list[ast.stmt], int] | None:
    for i, stmt in enumerate(body):
        if stmt is assign:
            return body, i
        for block in _child_blocks(stmt):
            hit = _find_block(block, assign)
            if hit is not None:
                return hit
    return None


def find_completion(body: list[ast.stmt], assign: ast.stmt, key: tuple[str, ...], kind: str, lines: list[int] | None = None) -> tuple[list[ast.stmt], Completion] | None:
    """The statements from after `assign` through the completing one, and the
    completion; `lines`: as for `_first_use`."""
    hit = _find_block(body, assign)
    if hit is None:
        return None
    block, i = hit
    for j in range(i + 1, len(block)):
        r = _first_use([block[j]], key, kind, lines)
        if r is False:
            return None
        if isinstance(r, Completion):
            return block[i + 1:j + 1], r
    return None


def complete(checker: "ModuleChecker", stmt: ast.Assign, t: Type, kind: str, key: tuple[str, ...], body: list[ast.stmt]) -> Type:
    """`t` (an empty `list[Any]`, ...) completed from the first use, or `t` unchanged."""
    # (A name's mentions are looked for only on the lines naming it; `self.x`'s
    # on every line: `self` may be rebound anywhere.)
    found = find_completion(body, stmt, key, kind, name_lines(checker, key[0]) if len(key) == 1 else None) if checker.partial_watch is None else None
    if found is None:
        # A completion in a nested definition walks nothing, so it is made inside
        # a lookahead too (whose walk may cache what is inferred from the variable).
        from veritype.check.partial_nested import nested_completion

        nested = nested_completion(checker, body, stmt, key, kind)
        return t if nested is None else _completed(checker, kind, nested[0], nested[1]) or t
    stmts, comp = found
    if _count(stmts) > _LOOKAHEAD_LIMIT:
        return t  # too far to walk twice
    seen: dict[int, Type | tuple[Type, Type]] = {}  # the argument's type (key and value for dicts)
    saved = (checker.flow.fork(), checker._loop_exits, checker.type_checking_depth, checker.report_mark())
    level = checker.silent_passes + 1
    checker.partial_watch = {id(comp.stmt): lambda: _watch(checker, kind, comp, seen, level)}
    checker.silent_passes = level
    # A `break` walked here is the enclosing loop's: its state goes to a list of
    # the walk's own, not to that loop's exits (the list is restored, not copied).
    checker._loop_exits = []
    try:
        checker.flow.bind(".".join(key), t)
        checker.block(stmts)
    except _Final:
        pass
    except RecursionError:
        seen.clear()
    finally:
        checker.silent_passes -= 1
        checker.partial_watch = None
        state, checker._loop_exits, checker.type_checking_depth, mark = saved
        checker.flow.set(state)
        checker.drop_reports(mark)
    arg = seen.get(0)
    if arg is None:
        return t
    done = _completed(checker, kind, comp.role, arg, read=_reads_variable(comp, key))
    if done is None and all(isinstance(a, AnyType) for a in (arg if isinstance(arg, tuple) else (arg,))):
        # mypy completes `x = []` from `x.append(value)` with a value of type Any
        # too: `x` is declared `list[Any]`, the type it already has here, and a
        # later `x = tuple(x)` is checked against it (inferred_decls.record).
        checker.any_completed.add(id(stmt.targets[0]))
    return done or t


class _Final(Exception):
    """The completing statement was met for the last time: the rest of the walk is not needed."""


def _watch(checker: "ModuleChecker", kind: str, comp: Completion, seen: dict[int, Type | tuple[Type, Type]], level: int) -> None:
    """At the completing statement: record what it adds (the last visit's answer
    stands: a loop's later pass overwrites its first pass's). Met at the walk's
    own level of silent passes, it is in no loop's first pass, so no pass walks
    it again (a loop's second pass, or the one pass of a loop past the depth of
    silent passes): the walk stops there (`_Final`), and the statements after it,
    a quarter of the walks' time on the bench corpus, are walked only once, by
    the checker itself. (Only loops walk a statement twice; their first pass is
    the one that counts a level deeper.)"""
    _argument_type(checker, kind, comp, seen)
    if checker.silent_passes == level:
        raise _Final


def _argument_type(checker: "ModuleChecker", kind: str, comp: Completion, seen: dict[int, Type | tuple[Type, Type]]) -> None:
    from veritype.evaluate.expressions import ExprEvaluator

    seen[0] = argument_of(ExprEvaluator(checker.ev, checker.scope, checker.flow, None), kind, comp)


def argument_of(exprs: "ExprEvaluator", kind: str, comp: Completion) -> Type | tuple[Type, Type]:
    """What the completing statement adds: the item type, or a dict's key and value types."""
    if comp.role == "setitem":
        assert isinstance(comp.stmt, ast.Assign)
        target = comp.stmt.targets[0]
        assert isinstance(target, ast.Subscript)
        return (exprs.infer(target.slice), exprs.infer(comp.stmt.value))
    if isinstance(comp.stmt, ast.AugAssign):
        arg = comp.stmt.value
    else:
        assert isinstance(comp.stmt, ast.Expr) and isinstance(comp.stmt.value, ast.Call)
        arg = comp.stmt.value.args[0]
    t = exprs.infer(arg)
    # Never where mypy leaves the collection partial (it never completes with
    # Never); Any is an argument of type Any, with which mypy does complete
    # (`x.extend(v)`, `d.update(v)` for `v: Any` too: checked against mypy 2.4.1).
    if isinstance(t, AnyType):
        return (t, t) if comp.role == "mapping" else t
    if comp.role in ("iter", "aug"):
        # Only from a list (or a set, for a set): what mypy completes from.
        sources = _ITER_SOURCES[kind] if comp.role == "iter" else (f"builtins.{kind}",)
        t = t.args[0] if isinstance(t, Instance) and t.info.fullname in sources and len(t.args) == 1 else NeverType()
    elif comp.role == "mapping":
        if isinstance(t, Instance) and t.info.fullname == "builtins.dict" and len(t.args) == 2:
            return (t.args[0], t.args[1])
        t = NeverType()
    return t


def _usable(t: Type, read: bool = False) -> bool:
    """An item type worth completing with: not Any, Never or None (mypy leaves
    `x.append(None)` partial), and nothing empty inside (`x.append([])`, whose
    argument is `list[Never]` to mypy and `list[Any]` here). `read`: the
    argument is a variable, whose `list[Any]` is what mypy reads too (a
    declared `list[Any]`, or an empty `y = []` read before anything completed
    it, which mypy reports and reads as `list[Any]`): mypy completes with it
    (mypy 2.4.1: `d["k"] = y` makes `d` a `dict[str, list[Any]]`, cattrs'
    `globs["__c_a"] = allowed_fields`)."""
    if isinstance(t, (AnyType, NeverType, NoneType)):
        return False
    if isinstance(t, UnionType):
        return all(not isinstance(i, (AnyType, NeverType)) for i in t.items)
    if (not read and isinstance(t, Instance) and t.info.fullname in ("builtins.list", "builtins.dict", "builtins.set")
            and t.args and all(isinstance(a, AnyType) for a in t.args)):
        return False
    return True


def _reads_variable(comp: Completion, key: tuple[str, ...]) -> bool:
    """Whether the completing statement adds a plain variable (`x.append(y)`,
    `d[k] = y`), not the one completed (`x.append(x)` stays `list[Any]`, and
    `y[1] = y` a read of `y` before its completion): see `_usable`."""
    stmt = comp.stmt
    if comp.role == "setitem":
        arg = stmt.value  # type: ignore[attr-defined]
    elif comp.role == "item" and type(stmt) is ast.Expr:
        arg = stmt.value.args[0]  # type: ignore[attr-defined]
    else:
        return False
    return type(arg) is ast.Name and arg.id != key[0]


def _completed(checker: "ModuleChecker", kind: str, role: str, arg: Type | tuple[Type, Type], read: bool = False) -> Type | None:
    from veritype.types.join import widen_literals

    if isinstance(arg, tuple):
        k, v = widen_literals(arg[0]), widen_literals(arg[1])
        if kind != "dict" or not _usable(k) or not _usable(v, read):
            return None
        return checker.ev.builtin("dict", k, v)
    item = widen_literals(arg)
    if not _usable(item, read):
        return None
    return checker.ev.builtin(kind, item)


def maybe_complete(checker: "ModuleChecker", stmt: ast.Assign, t: Type, declared: Type | None) -> Type:
    """The type `stmt` assigns: `t`, or its completion when `stmt` is `x = []`
    (or `self.x = []` in a method) and the first use of the variable completes it."""

    if len(stmt.targets) != 1 or stmt.type_comment or checker.info.is_stub:
        return t
    kind = empty_display_kind(stmt.value)
    if kind is None or not (isinstance(t, Instance) and t.info.fullname == f"builtins.{kind}" and all(isinstance(a, AnyType) for a in t.args)):
        return t
    target = stmt.targets[0]
    scope = checker.scope
    fn = checker.func.node if checker.func is not None else None
    if isinstance(target, ast.Name):
        if declared is not None:
            return t
        key: tuple[str, ...] = (target.id,)
        if scope.kind == "module":
            body = checker.info.tree.body if checker.info.tree is not None else None
        elif scope.kind == "function" and isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = fn.body
        else:
            return t
    elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        cls = scope.method_class() if scope.kind == "function" else None
        if cls is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return t
        params = [*fn.args.posonlyargs, *fn.args.args]
        if not params or params[0].arg != target.value.id:
            return t
        sym = cls.symbols.get(target.attr)
        if sym is None or not sym.is_instance_attr or sym.annotation is not None or sym.type_comment is not None:
            return t
        if declared is not None and not (isinstance(declared, Instance) and declared.info.fullname == t.info.fullname):
            return t
        key = (target.value.id, target.attr)
        body = fn.body
    else:
        return t
    if body is None:
        return t
    done = complete(checker, stmt, t, kind, key, body)
    if done is not t and len(key) == 1 and scope.kind == "function":
        _declare_completed(checker, stmt, key[0], done)
    return done


def _declare_completed(checker: "ModuleChecker", stmt: ast.Assign, name: str, done: Type) -> None:
    """The completed type is the variable's type, as mypy gives a partial type's
    variable its completion: what is inferred from it later (`r = rec.pop()`
    assigned in one branch only, read after the branches) sees `list[int]`,
    not `list[Any]`. Only a local whose first declaration this is."""
    hit = checker.ev.lookup(name, checker.scope)
    if hit is None or hit[1] is not checker.scope:
        return
    sym = hit[0]
    if sym.node is stmt or (sym.node is not None and sym.node in stmt.targets):
        sym.cache["type"] = done
