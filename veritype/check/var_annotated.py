"""`x = []` (or `self.x = []`) with nothing that fixes the item type: [var-annotated].

mypy gives an empty display a "partial" type and completes it from a later
`x.append(1)`, `x[k] = v`, `x += [...]` or reassignment in the same scope;
when nothing completes it, it reports `Need type annotation for "x" (hint:
"x: list[<type>] = ...")`. We do not track partial types: we report only
the plainly unfixable case, where the scope (nested scopes included) never
touches the name except by plain reads. Any attribute access, subscript,
store, `del`, `global`/`nonlocal` of the name keeps us silent.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from veritype.check.redefinitions import decided_branch
from veritype.syntax.shapes import empty_display_kind
from veritype.syntax.walk import child_nodes, walk as walk_nodes
from veritype.syntax.word_lines import any_in_span, span_start
from veritype.types.model import Instance, TypeType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.types.model import Type

_HINTS = {"list": "list[<type>]", "dict": "dict[<type>, <type>]", "set": "set[<type>]"}
# The node classes with a `name` or `rest` field (match-pattern captures, except
# handlers, import aliases, ...): `needs_annotation` reads those fields only on
# them, not by two failing getattr()s on every node. Taken from this Python's ast.
_NAMED = frozenset(
    c for c in vars(ast).values()
    if isinstance(c, type) and issubclass(c, ast.AST) and ("name" in c._fields or "rest" in c._fields)
)
# The node classes `needs_annotation` reads (exact: ast nodes are never subclassed).
_RELEVANT = frozenset({ast.Name, ast.Attribute, ast.Subscript, ast.Global, ast.Nonlocal, ast.AugAssign, ast.FunctionDef,
                       ast.AsyncFunctionDef, ast.ClassDef, ast.arg, ast.Import, ast.ImportFrom}) | _NAMED


def name_lines(checker: "ModuleChecker", name: str) -> list[int] | None:
    """The lines of the checked file that may hold the identifier `name`; None:
    any line may. A node naming it (a `Name`, an attribute's base, a parameter,
    a `global`, an import, a capture...) is written within its own span, which
    lies within the span of every statement holding it (a def's decorators
    included: `span_start`), so the rules below walk only the statements whose
    span holds such a line (116 questions on the bench corpus walked whole
    function and module bodies, 1.3% of the run's calls). Only for an ASCII
    text: elsewhere an identifier may be spelled otherwise (NFKC)."""
    parsed = checker.info.parsed
    if parsed is None or not parsed.source.isascii():
        return None
    return parsed.keyword_lines(name)


def may_hold(node: ast.AST, lines: list[int] | None) -> bool:
    """Whether `node`'s span may hold one of `lines` (`name_lines`); a node with no position may."""
    if lines is None:
        return True
    end = getattr(node, "end_lineno", None)
    if end is None:
        return True
    return any_in_span(lines, span_start(node) if isinstance(node, (ast.stmt, ast.excepthandler)) else node.lineno, end)  # type: ignore[attr-defined]


def needs_annotation(body: list[ast.stmt], name: str, assign: ast.Assign, nested: bool = True, lines: list[int] | None = None) -> bool:
    """True when nothing in `body` (outside `assign`) could complete the type of `name`.
    `nested` False (a module-level `x = []`): the bodies of functions, classes
    and lambdas do not count, as mypy 2.4.1 completes a partial type only in
    its own scope there (`x.append(1)` inside a function leaves the module's
    `x` in need of an annotation); their decorators and defaults run in it.
    `lines`: those that may hold `name` (`name_lines`; None: any)."""
    if not nested and _declared_global(body, name, lines):
        return False  # a function binds it too (mypy declares it there: not modelled)
    for node in _nodes(body, lines, own_scope=not nested):
        # (The whole body is walked, a module's for a module-level `x = []`, but
        # for the statements `lines` rule out: a node of no class the rules below
        # read is skipped on one lookup. The answer is the same in any order.)
        if type(node) not in _RELEVANT or node is assign:
            continue
        if isinstance(node, ast.Name) and node.id == name:
            if not isinstance(node.ctx, ast.Load):
                if node in assign.targets:
                    continue
                return False
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            if isinstance(node.value, ast.Name) and node.value.id == name:
                return False
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return False
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return False
        elif isinstance(node, ast.arg) and node.arg == name:
            return False
        elif type(node) in _NAMED and (getattr(node, "name", None) == name or getattr(node, "rest", None) == name):
            return False  # match-pattern captures, except-handler names
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name for a in node.names):
            return False
    return True


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _declared_global(body: list[ast.stmt], name: str, lines: list[int] | None = None) -> bool:
    return any(type(node) is ast.Global and name in node.names for node in _nodes(body, lines, own_scope=False))  # type: ignore[attr-defined]


# The nodes whose span `lines` are tested against: statements and except clauses
# (a match case has no position: always walked; an expression is walked whole).
_BLOCKS = frozenset([*ast.stmt.__subclasses__(), ast.ExceptHandler])


def _nodes(body: list[ast.stmt], lines: list[int] | None, own_scope: bool) -> Iterator[ast.AST]:
    """The nodes of `body` (`own_scope`: as `_walk_own_scope` gives them), in no
    set order, but for the statements (and except clauses) whose span holds
    none of `lines` (`name_lines`; None: all are walked)."""
    if lines is None:
        walk = _walk_own_scope if own_scope else walk_nodes
        for stmt in body:
            yield from walk(stmt)
        return
    stack: list[ast.AST] = [stmt for stmt in body if may_hold(stmt, lines)]
    while stack:
        n = stack.pop()
        yield n
        for c in _outer_parts(n) if own_scope and isinstance(n, _SCOPES) else child_nodes(n):
            if type(c) not in _BLOCKS or may_hold(c, lines):
                stack.append(c)


def _walk_own_scope(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and what it holds that runs in its own scope: not the body of a
    function, class or lambda (their decorators, defaults and bases do run)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(_outer_parts(n) if isinstance(n, _SCOPES) else child_nodes(n))


def _outer_parts(n: ast.AST) -> list[ast.AST]:
    """What of a function, class or lambda runs in the enclosing scope: its
    decorators, defaults, and a class's bases and keywords."""
    outer: list[ast.AST] = list(getattr(n, "decorator_list", ()))
    args = getattr(n, "args", None)
    if isinstance(args, ast.arguments):
        outer += args.defaults
        outer += [d for d in args.kw_defaults if d is not None]
    if isinstance(n, ast.ClassDef):
        outer += n.bases
        outer += n.keywords
    return outer


def scope_body(mc: "ModuleChecker") -> list[ast.stmt] | None:
    """The statements of the scope `mc` walks, where a first assignment of an
    empty collection is judged: the module's or the function's; None in a
    class body (not judged, as mypy's partial types are not kept there)."""
    if mc.scope.kind == "module":
        return mc.info.tree.body if mc.info.tree is not None else None
    if mc.scope.kind == "function" and mc.func is not None and isinstance(mc.func.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return mc.func.node.body
    return None


def param_names(mc: "ModuleChecker") -> set[str]:
    """The parameter names of the function `mc` checks (none outside one)."""
    fn = mc.func.node if mc.scope.kind == "function" and mc.func is not None else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    a = fn.args
    return {p.arg for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else []), *([a.kwarg] if a.kwarg else [])]}


def message(name: str, kind: str) -> str:
    return f'Need type annotation for "{name}" (hint: "{name}: {_HINTS[kind]} = ...")'


def attribute_needs_annotation(checker: "ModuleChecker", stmt: ast.Assign, t: "Type") -> tuple[str, str] | None:
    """(name, kind) when `self.x = []` in a method declares the attribute and nothing
    in the method completes it: mypy's partial types are local (`local_partial_types`),
    so a `self.x.append(1)` in another method does not count and mypy asks for an
    annotation. We report only when the method mentions `self.x` nowhere else except
    in plain reads (never as the base of a call, subscript or attribute, a store, or
    in a nested function): any such use might be one mypy completes from."""
    if len(stmt.targets) != 1 or stmt.type_comment or checker.info.is_stub:
        return None
    target = stmt.targets[0]
    kind = empty_display_kind(stmt.value)
    if kind is None or not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
        return None  # (most assignments: tested before the imports below)
    from veritype.types.model import AnyType, Instance

    if not (isinstance(t, Instance) and t.info.fullname == f"builtins.{kind}" and all(isinstance(a, AnyType) for a in t.args)):
        return None
    attr = unfinished_attribute(checker, stmt, target)
    return None if attr is None else (attr, kind)


def unfinished_attribute(checker: "ModuleChecker", stmt: ast.Assign, target: ast.Attribute) -> str | None:
    """The attribute's name when `self.x = value` (`stmt`, its one target
    `target`) in an annotated method first declares it, no base does, and the
    method uses `self.x` nowhere but in plain reads (attribute_needs_annotation)."""
    from veritype.check.inferred_attrs import _first_in_text
    from veritype.syntax.shapes import is_unannotated_def

    if not isinstance(target.value, ast.Name):
        return None
    cls = checker.scope.method_class() if checker.scope.kind == "function" else None
    fn = checker.scope.function
    if cls is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    if is_unannotated_def(fn):
        return None  # mypy asks for no annotation in an unannotated function (checked or not)
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params or params[0].arg != target.value.id or fn.decorator_list:
        return None
    sym = cls.symbols.get(target.attr)
    if sym is None or not sym.is_instance_attr or sym.annotation is not None or sym.type_comment is not None:
        return None
    if sym.node is not stmt or _first_in_text(sym) is not stmt:
        return None
    if any(target.attr in c.symbols for c in cls.mro[1:]):
        return None  # a base declares it: this assigns the base's attribute
    if not _only_plain_reads(fn, target.value.id, target.attr, target):
        return None
    return target.attr


def _only_plain_reads(fn: ast.AST, self_name: str, attr: str, target: ast.Attribute) -> bool:
    parents: dict[int, ast.AST] = {}
    for node in walk_nodes(fn):
        for child in child_nodes(node):
            parents[id(child)] = node
    for node in walk_nodes(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and self_name in node.names:
            return False
        if isinstance(node, ast.Name) and node.id == self_name and not isinstance(node.ctx, ast.Load):
            return False  # `self` rebound
        if not (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) and node.value.id == self_name):
            continue
        if node is target:
            continue
        if not isinstance(node.ctx, ast.Load):
            return False
        parent = parents.get(id(node))
        if isinstance(parent, (ast.Attribute, ast.Subscript, ast.AugAssign, ast.Starred)):
            return False
        p: ast.AST | None = parent
        while p is not None and p is not fn:
            if isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                return False  # in a nested scope
            p = parents.get(id(p))
    return True


# -- read before anything completes it ------------------------------------------------

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def read_before_completion(body: list[ast.stmt], name: str, assign: ast.Assign, params: "set[str]", lines: list[int] | None = None,
                           mc: "ModuleChecker | None" = None) -> bool:
    """`x = {}` whose first use, in evaluation order, is a plain read (`f(x)`,
    `return x`, `if x:`, `for k in x`): mypy reads the partial type there and asks
    for an annotation (`mapping = {}` then `mapping = generate_mapping(cl, mapping)`,
    cattrs; checked against mypy 2.4.1). So is a first use that assigns `x` a
    value of another class (`_rebinds_to_other_class`). The first use being a
    store of anything else, a `del`, an attribute or subscript of `x` (a method
    that may complete it), or an augmented assignment keeps us silent, as does
    an earlier binding of the name. A comprehension is read in place, as mypy
    checks it; so, in a function (`mc`'s scope), are a nested function, lambda
    or class (decorators and defaults, then the body), unless it binds the name
    itself (`_nested_answer`). `lines`: those that may hold `name`
    (`name_lines`): the nodes read here all name it, and `assign` does (its
    target), so the rest is not walked."""
    if name in params:
        return False
    kind = empty_display_kind(assign.value)
    open_scopes = mc is not None and mc.scope.kind == "function"
    static = _static_of(mc) if mc is not None else None
    started = False
    inside: set[int] = set()
    for event, node, parent in _events(body, lines, static):
        if not started:
            if node is assign:
                started = True
                inside = {id(n) for n in walk_nodes(assign)}
            elif _binds(node, name):
                return False  # bound before: `x = []` re-assigns it
            continue
        if id(node) in inside:
            continue
        if event == "nested":
            answer = _nested_answer(node, name, lines, open_scopes, static)
        elif type(node) is ast.Name and node.id == name and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
            return (type(parent) is ast.Assign and len(parent.targets) == 1 and kind is not None  # type: ignore[attr-defined]
                    and _rebinds_to_other_class(parent.value, kind, mc))  # type: ignore[attr-defined]
        else:
            answer = _judge(node, parent, name)
        if answer is not None:
            return answer
    return False


def _judge(node: ast.AST, parent: ast.AST | None, name: str) -> bool | None:
    """A node met before anything completed `name`: True for a plain read, False
    for any other use or binding, None when it is neither."""
    if isinstance(node, ast.Name) and node.id == name:
        if not isinstance(node.ctx, ast.Load):
            return False
        if isinstance(parent, (ast.Attribute, ast.Subscript, ast.AugAssign)):
            return False
        if isinstance(parent, ast.Compare) and any(c is node and isinstance(op, (ast.In, ast.NotIn)) for c, op in zip(parent.comparators, parent.ops)):
            return None  # mypy looks a partial `in` operand up without reading it
        return True
    if _binds(node, name):
        return False
    return None


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _nested_answer(node: ast.AST, name: str, lines: list[int] | None, open_scopes: bool, static: "_Static | None") -> bool | None:
    """`_judge`'s answer for a nested scope met before anything completed `name`
    (None: it does not mention it). mypy checks a comprehension in place, and,
    in a function, a nested function, lambda or class where it is defined:
    decorators and defaults (a class's bases), then the body (mypy 2.4.1:
    `[d for _ in r]`, `def g(x=d)`, `def g(): print(d)` before `d[k] = v` ask for
    an annotation of `d = {}`; `def g(): d[k] = v` does not). A module's
    functions are checked apart (a read there is no error), and a scope that
    binds the name itself (a parameter, a target, an assignment, `nonlocal`)
    keeps us silent."""
    if not any(_mentions(n, name) for n in walk_nodes(node)):
        return None
    if not (open_scopes or isinstance(node, _COMPREHENSIONS)) or any(_binds(n, name) for n in walk_nodes(node)):
        return False
    for event, sub, parent in _events(_parts_in_order(node), lines, static):
        answer = _nested_answer(sub, name, lines, open_scopes, static) if event == "nested" else _judge(sub, parent, name)
        if answer is not None:
            return answer
    return None


def _parts_in_order(node: ast.AST) -> list[ast.AST]:
    """A nested scope's parts in the order they run (and mypy checks them):
    decorators, defaults and bases, then the body; a comprehension's first
    iterable, conditions and later iterables, then its element."""
    if isinstance(node, _COMPREHENSIONS):
        parts: list[ast.AST] = []
        for gen in node.generators:
            parts += [gen.iter, *gen.ifs]
        return parts + ([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt])
    parts = list(_outer_parts(node))
    body = getattr(node, "body", None)
    return parts + (body if isinstance(body, list) else [body] if isinstance(body, ast.AST) else [])


def _rebinds_to_other_class(value: ast.expr, kind: str, mc: "ModuleChecker | None") -> bool:
    """Whether `x = value`, the first use of `x = []` (of `kind`), assigns an
    instance of another class than `kind`'s: mypy completes the partial type
    only from a value of the same class (`x = [1]`, `d = dict(a=1)`), and
    asks for an annotation otherwise (mypy 2.4.1: `d = defaultdict(int)`,
    `s = frozenset(...)`, `x = None`, `x = (1, 2)`; cattrs's `tag_to_hook = {}`,
    then `tag_to_hook = defaultdict(...)` in a branch). A value whose class is
    not plain from its form (a call of anything but a class, a name) keeps us
    silent."""
    cls = type(value)
    if cls is ast.Constant:
        return True  # None, a number, a string, bytes, `...`: never a list, dict or set
    if cls is ast.Tuple or cls is ast.JoinedStr:
        return True
    display = _DISPLAY_KINDS.get(cls)
    if display is not None:
        return display != kind
    if cls is not ast.Call or mc is None or type(value.func) is not ast.Name:  # type: ignore[attr-defined]
        return False
    hit = mc.ev.lookup(value.func.id, mc.scope)  # type: ignore[attr-defined]
    if hit is None:
        return False
    made = mc.ev.symbol_type(*hit)
    if not (isinstance(made, TypeType) and isinstance(made.item, Instance)):
        return False
    return made.item.info.fullname != f"builtins.{kind}"


_DISPLAY_KINDS: dict[type, str] = {ast.List: "list", ast.ListComp: "list", ast.Dict: "dict", ast.DictComp: "dict",
                                   ast.Set: "set", ast.SetComp: "set"}


def _mentions(node: ast.AST, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or _binds(node, name)


def _binds(node: ast.AST, name: str) -> bool:
    """A binding of `name` other than an assignment to a plain name."""
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name).split(".")[0] == name for a in node.names)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    return getattr(node, "name", None) == name or getattr(node, "rest", None) == name or getattr(node, "arg", None) == name


_Static = Callable[[ast.expr], "bool | None"]


def _static_of(mc: "ModuleChecker") -> _Static:
    """The value of an `if` test mypy decides before checking
    (redefinitions.decided_branch): it never checks the branch ruled out."""
    return functools.partial(decided_branch, mc.program.binder_for(mc.info))


def _events(body: "list[ast.stmt] | list[ast.AST]", lines: list[int] | None = None,
            static: "_Static | None" = None) -> "Iterator[tuple[str, ast.AST, ast.AST | None]]":
    """The nodes of `body` in evaluation order (an assignment's value before its
    targets, a loop's iterable before its target), each with its parent; a nested
    scope is one ("nested", node) event. Made as they are read: the reader
    most often stops at the first use of its name after the assignment. Not
    the statements (and except clauses) whose span holds none of `lines`
    (None: all are read); expressions are read whole (the positions of the
    parts of a multi-line f-string are not all the text's before Python 3.12)."""
    stack: list[tuple[ast.AST, ast.AST | None]] = [(s, None) for s in reversed(body) if may_hold(s, lines)]
    while stack:
        node, parent = stack.pop()
        if isinstance(node, _NESTED):
            yield ("nested", node, parent)
            continue
        yield ("node", node, parent)
        children: list[ast.AST]
        if isinstance(node, ast.Assign):
            children = [node.value, *node.targets]
        elif isinstance(node, ast.AnnAssign):
            children = [node.value, node.target] if node.value is not None else [node.target]
        elif isinstance(node, ast.AugAssign):
            children = [node.target, node.value]
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            children = [node.iter, node.target, *node.body, *node.orelse]
        elif static is not None and type(node) is ast.If:
            taken = static(node.test)  # type: ignore[attr-defined]
            children = [node.test, *(node.body if taken is not False else ()), *(node.orelse if taken is not True else ())]  # type: ignore[attr-defined]
        else:
            children = list(child_nodes(node))
        stack.extend((c, node) for c in reversed(children) if lines is None or type(c) not in _BLOCKS or may_hold(c, lines))
