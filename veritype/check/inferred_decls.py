"""The first assignment of an unannotated variable declares its type (mypy's rule).

The typing spec leaves the type of an unannotated variable to the checker;
veritype does what mypy does (DESIGN.md principle 7): `x = 1` declares `x:
int`, and a later `x = "a"` in the same program is an `[assignment]` error,
while a compatible one narrows (`x = o` for an `object` then `x = 1` reads as
`int`). The declaring assignment is the variable's first declaration in
textual order (`Symbol.node`: an assignment, a for or with target); its
type is the one the check walk binds there, narrowing included, as mypy
infers from the narrowed value.

mypy's exceptions, each checked against mypy 2.4.1:
- partial None: `x = None` declares nothing yet; the next assignment in the
  same scope declares `T | None` (several `= None` keep it partial);
- a literal `None` assigned to a function's local in another branch of the
  `if` (or loop `else`, or `try` handler) that holds its declaration widens
  the declaration to `T | None` (mypy's "None in a previous if branch"
  special case), no error;
- an empty display (`x = []`, uncompleted) is left unenforced: mypy's
  partial collection types are completed elsewhere (check.partial_types);
- `allow_redefinition` / `allow_redefinition_new` turn the rule off (those
  options let a variable be redefined with another type), and so does a
  function generic in a constrained type variable (mypy checks it once per
  constraint, we once);
- an except-handler name, a match capture or an augmented assignment as
  the first declaration declare nothing here.

A walrus that first binds a name declares it as an assignment does (mypy
2.4.1: `if (c := self.c) is not None: ...` then `c = lambda x: ...` infers
the lambda in the context of `c`'s declared type; `c = "a"` after `(c := o)`
for an `int | None` is an `[assignment]` error): the checker's evaluator
hands each walrus to `record` (`ModuleChecker.walrus_bound`).

Everything is recorded on the checker (`ModuleChecker.inferred`), keyed by
the symbol: a name whose declaring statement the walk did not reach (other
module, unreachable code) is not enforced.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import AnyType, Instance, LiteralType, ModuleType, NoneType, Type, UnionType, make_union
from veritype.syntax.statements import SIMPLE_STATEMENTS, assigned_targets
from veritype.syntax.walk import child_nodes, walk as walk_nodes
from veritype.syntax.word_lines import any_in_span, word_lines

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.semantic.symbols import Symbol

# The recorded state of a variable first assigned None (mypy's partial None type).
PARTIAL_NONE = NoneType()

_DECLARING = (ast.Assign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)


def enabled(checker: "ModuleChecker") -> bool:
    # Asked for every assignment (63k times on the bench corpus): the answer is
    # kept for the scope last asked about. Pure: the options are the module's,
    # and a scope's type variables are bound before its body is checked.
    scope = checker.scope
    kept = checker.decls_enabled_kept
    if kept is not None and kept[0] is scope:
        return kept[1]
    o = checker.options
    if checker.info.is_stub or o.allow_redefinition or o.allow_redefinition_new:
        answer = False
    else:
        # mypy checks a function generic in a constrained type variable (`AnyStr`) once
        # per constraint, each with the branches for the others unreachable; we check it
        # once, so `t = str` / `t = bytes` under isinstance tests would look like a clash.
        answer = True
        for tv in scope.bound_type_vars().values():
            if tv.values:
                answer = False
                break
    checker.decls_enabled_kept = (scope, answer)
    return answer


def _symbol(checker: "ModuleChecker", target: ast.Name) -> "Symbol | None":
    # (`local_symbol`'s kept answer read here first: the assignment's rules asked
    # it of this very name just before, 13k times on the bench corpus.)
    kept = checker.local_symbol_kept
    if kept is not None and kept[0] == target.id and kept[1] is checker.scope:
        hit = kept[2]
    else:
        hit = checker._local_symbol(target.id)
    if hit is None:
        return None
    sym = hit[0]
    if sym.kind != S.VAR or sym.annotation is not None or sym.type_comment is not None:
        return None
    if sym.name == "_":
        return None  # mypy lets `_` be reassigned anything
    return sym  # type: ignore[no-any-return]


def _target_names(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [i.optional_vars for i in node.items if i.optional_vars is not None]
    return []


def declaration(checker: "ModuleChecker", target: ast.Name) -> "tuple[Symbol | None, bool]":
    """`_symbol(checker, target)`, and whether `target` declares it (`is_declaring`);
    no symbol where the rule is off (`enabled`).

    Asked three to five times for each name assigned (twice by
    declared_for_target, before_assign, record...; 45k is_declaring walks on
    the bench corpus for 13k names): kept for the target last asked about.
    Pure: the symbol a target binds is its scope's, bound once, and
    is_declaring reads only the symbol's declarations; `enabled` is the scope's."""
    scope = checker.scope
    kept = checker.declaration_kept
    if kept is not None and kept[0] is target and kept[1] is scope:
        return kept[2], kept[3]
    on = checker.decls_enabled_kept  # (`enabled`'s kept answer, read here first)
    if on is None or on[0] is not scope:
        on = (scope, enabled(checker))
    sym = _symbol(checker, target) if on[1] else None
    declaring = sym is not None and is_declaring(sym, target)
    checker.declaration_kept = (target, scope, sym, declaring)
    return sym, declaring


def is_declaring(sym: "Symbol", target: ast.Name) -> bool:
    """Whether `target` is the variable's name in its first declaration, or in a
    later `with ... as` when the first was a `with` too: mypy renames a variable
    bound by several with statements (`with open(a) as f` then `with open(b, "rb")
    as f`), so each declares its own type (mypy's LimitedVariableRenameVisitor;
    we do so whether or not the name is also used outside the with blocks,
    which misses an error rather than reporting a false one)."""
    node = sym.node
    if type(node) is ast.Assign:
        # (Most declarations: tested without making the list of targets.)
        for t in node.targets:
            if t is target or (type(t) is not ast.Name and _holds(t, target)):  # (`_holds` of a bare name, most targets, made here)
                return True
        return False
    if type(node) is ast.NamedExpr:
        return node.target is target  # a walrus binding first declares too (mypy)
    if not isinstance(node, _DECLARING):
        return False
    for t in _target_names(node):
        if _holds(t, target):
            return True
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return any(isinstance(d, (ast.With, ast.AsyncWith)) and any(_holds(t, target) for t in _target_names(d)) for d in sym.decls[1:])
    return False


def _holds(t: ast.expr, target: ast.Name) -> bool:
    # Asked at every assignment: most targets are a bare name, whose subtree
    # (the name and its ctx) holds `target` only if it is `target`. A node
    # holding `target` spans it (a target's positions are exact: no target is
    # inside an f-string): one that does not is not walked.
    if isinstance(t, ast.Name):
        return t is target
    if not _may_span(t, target):
        return False
    for sub in walk_nodes(t):
        if sub is target:
            return True
    return False


def _may_span(outer: ast.expr, inner: ast.expr) -> bool:
    """Whether `inner`'s span lies within `outer`'s (yes when a position is missing)."""
    if outer.end_lineno is None or outer.end_col_offset is None or inner.end_lineno is None or inner.end_col_offset is None:
        return True
    return ((outer.lineno, outer.col_offset) <= (inner.lineno, inner.col_offset)
            and (inner.end_lineno, inner.end_col_offset) <= (outer.end_lineno, outer.end_col_offset))


def declared(checker: "ModuleChecker", target: ast.Name) -> Type | None:
    """The type the variable's first assignment declared, to check `target`'s value against."""
    kept = checker.declaration_kept  # (`declaration`'s kept answer, read here first: most are)
    if kept is not None and kept[0] is target and kept[1] is checker.scope:
        sym, declaring = kept[2], kept[3]
    else:
        sym, declaring = declaration(checker, target)
    if sym is None or declaring:
        return None
    t = checker.inferred.get(id(sym))
    if t is None or t is PARTIAL_NONE or isinstance(t, AnyType):
        return None  # (declared Any: anything fits, and an assignment narrows as for no declaration)
    return t


def lenient(checker: "ModuleChecker", target: ast.expr, t: Type, value: ast.expr | None, declared: Type) -> bool:
    """Cases where mypy would not report the assignment to an inferred declaration
    as ours would, each met on real code (the primer), so nothing is enforced:
    - a value that is a union holding Any: in real code that is a narrowing
      veritype did not make (`if nrb is not NOTHING: t = nrb`, cattrs);
    - a generic call whose result is the declared class with other arguments
      (`field = fields.Enum(B)` after `fields.Enum(A)`): mypy infers the call in
      the declared type's context and reports the call's argument, if anything;
    - an assignment in an `except ImportError` handler (the optional-import
      fallback), where the try body's names may be typed differently by mypy
      (a module it does not find is Any);
    (A function's local assigned in another branch of the `if`/`try` that
    holds its declaration is enforced as mypy does: the narrowings once missed
    there, `id is HIDDEN_PARAM` in pytest, are made now; cattrs's
    `handler = find_structure_handler(...)` in the `else` is mypy's error.)"""
    if isinstance(t, UnionType) and any(isinstance(i, AnyType) for i in t.items):
        return True
    if isinstance(value, ast.Call) and isinstance(t, Instance) and isinstance(declared, Instance) and t.info is declared.info and t.args != declared.args:
        return True
    return _in_import_fallback(checker, target)


def _in_import_fallback(checker: "ModuleChecker", target: ast.expr) -> bool:
    fn = checker.func.node if checker.func is not None else None
    body = getattr(fn, "body", None) if fn is not None else (checker.info.tree.body if checker.info.tree is not None else None)
    if not isinstance(body, list) or not _may_name_import_errors(checker, fn):
        return False
    cell = _path_cell(checker, body, target)
    while cell is not None:
        (stmt, block), cell = cell
        if block.startswith("handler") and isinstance(stmt, ast.Try):
            handler = stmt.handlers[int(block[len("handler"):])]
            names = {n.id if isinstance(n, ast.Name) else n.attr for n in walk_nodes(handler.type) if isinstance(n, (ast.Name, ast.Attribute))} if handler.type is not None else set()
            if names & {"ImportError", "ModuleNotFoundError"}:
                return True
    return False


def _may_name_import_errors(checker: "ModuleChecker", fn: ast.AST | None) -> bool:
    """Whether the text of `fn` (None: the module) may name ImportError or
    ModuleNotFoundError. A handler naming one names it within the span of the
    function holding it (syntax.word_lines), spelled so in an ASCII text (in
    another, an identifier may be spelled otherwise: NFKC). Most functions
    do not: their bodies' paths are not indexed (_path_cell; 700 bodies
    indexed for 1,800 questions on the bench corpus)."""
    if not checker.import_error_lines_read:
        # (Kept by the checker, which goes with the module's check, not by the parsed file.)
        parsed = checker.info.parsed
        source = parsed.source if parsed is not None else None
        checker.import_error_lines = word_lines(source, "ImportError", "ModuleNotFoundError") if source is not None and source.isascii() else None
        checker.import_error_lines_read = True
    lines = checker.import_error_lines
    if lines is None:
        return True
    if fn is None:
        return bool(lines)
    return any_in_span(lines, getattr(fn, "lineno", 1), getattr(fn, "end_lineno", None))


def before_assign(checker: "ModuleChecker", target: ast.Name, value: ast.expr | None, t: Type, sym: "Symbol") -> None:
    """Complete a partial None declaration, or widen one for a None in another
    branch; `target` assigns `sym` again (`declaration`: a symbol, not declared here)."""
    rec = checker.inferred.get(id(sym))
    if rec is None:
        return
    hit = checker._local_symbol(target.id)
    same_scope = hit is not None and hit[1] is checker.scope
    if rec is PARTIAL_NONE:
        if isinstance(t, NoneType):
            return  # several None initializers keep it partial
        if not same_scope:
            del checker.inferred[id(sym)]  # completed elsewhere: not modelled, not enforced
            return
        from veritype.types.join import widen_literals

        checker.inferred[id(sym)] = make_union([widen_literals(t), NoneType()])
        return
    if isinstance(value, ast.Constant) and value.value is None and same_scope and checker.scope.kind == "function":
        if isinstance(rec, AnyType) or isinstance(rec, NoneType):
            return
        if _in_other_branch(checker, sym, target):
            checker.inferred[id(sym)] = make_union([rec, NoneType()])


def check_module_name(checker: "ModuleChecker", target: ast.Name, t: Type, value: ast.expr | None) -> bool:
    """`json = None` after `import json` (in a `try`): mypy reports the assignment to
    a name an import bound to a module ("variable has type Module", unquoted).
    True when reported."""
    hit = checker._local_symbol(target.id)
    if hit is None or hit[0].kind not in (S.MODULE_REF, S.FROM_IMPORT) or checker.info.is_stub:
        return False
    mod = checker.ev.symbol_type(*hit)
    if not isinstance(mod, ModuleType) or isinstance(t, (ModuleType, AnyType)):
        return False
    if isinstance(t, Instance) and any(c.fullname == "types.ModuleType" for c in t.info.mro):
        return False  # `mod = __import__(name)`: a module too (mypy's Module is a types.ModuleType)
    from veritype.types.format import format_type
    from veritype.types.join import widen_literals

    got = format_type(widen_literals(t))
    checker.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type Module)', "assignment")
    return True


def record(checker: "ModuleChecker", target: ast.Name, bound: Type) -> None:
    """At the declaring assignment: remember the type bound there."""
    sym, declaring = declaration(checker, target)
    if sym is None or not declaring:
        return
    declared_as(checker, target, bound, sym)


def declared_as(checker: "ModuleChecker", target: ast.Name, bound: Type, sym: "Symbol") -> None:
    """`record` where `target` is known to declare `sym` (`declaration`)."""
    if isinstance(bound, NoneType):
        checker.inferred[id(sym)] = PARTIAL_NONE
        return
    tp = type(bound)
    if tp is Instance and _is_empty_collection(bound) and id(target) not in checker.any_completed:
        checker.inferred.pop(id(sym), None)
        return
    # (Only a literal or a union may widen: `_widen_inferred_literals` is asked of those alone.)
    checker.inferred[id(sym)] = _widen_inferred_literals(bound) if tp is LiteralType or tp is UnionType else bound


def _widen_inferred_literals(t: Type) -> Type:
    """`E.A if c else E.B` declares `E`: mypy infers a variable's type without the
    literal values its expression happened to have; only a Literal written in a
    type expression (a declared one: `self.align` of a `Literal[...]` type) stays."""
    if isinstance(t, LiteralType) and not t.declared:
        return t.fallback
    if isinstance(t, UnionType) and _holds_inferred_literal(t):
        # Beside a declared literal of their class they were inferred in its
        # literal context (`kind() or ""`) and stay.
        from veritype.types.join import declared_literal_classes

        context = declared_literal_classes(t)
        return make_union([i if isinstance(i, LiteralType) and i.fallback.info.fullname in context
                           else _widen_inferred_literals(i) for i in t.items])
    return t


def _holds_inferred_literal(t: UnionType) -> bool:
    # (A loop, not `any()` over a generator: asked for each union a variable declares.)
    for i in t.items:
        if isinstance(i, LiteralType) and not i.declared:
            return True
    return False


def _is_empty_collection(t: Type) -> bool:
    """`list[Any]` / `dict[Any, Any]` / `set[Any]` from an uncompleted empty display."""
    if not (isinstance(t, Instance) and t.info.fullname in ("builtins.list", "builtins.dict", "builtins.set") and t.args):
        return False
    for a in t.args:  # (a loop, not `all()` over a generator)
        if not isinstance(a, AnyType):
            return False
    return True


# -- "None in another branch" -------------------------------------------------------


def _in_other_branch(checker: "ModuleChecker", sym: "Symbol", target: ast.Name) -> bool:
    """Whether the declaration and `target` sit in different blocks of one `if`/`try`
    (the nearest statement holding both), as mypy's conditional frames."""
    fn = checker.func.node if checker.func is not None else None
    body = getattr(fn, "body", None)
    decl = sym.node
    if not isinstance(body, list) or decl is None:
        return False
    a = _path(checker, body, decl)
    b = _path(checker, body, target)
    if a is None or b is None:
        return False
    for (sa, ba), (sb, bb) in zip(a, b):
        if sa is not sb:
            return False  # they part in one block: no common compound statement
        if ba != bb:
            return _conditional_pair(sa, ba, bb)
    return False


def _conditional_pair(stmt: ast.stmt, a: str, b: str) -> bool:
    """Whether two blocks of `stmt` are alternatives in mypy's sense (checked against
    mypy 2.4.1): the branches of an `if`; a loop's body and its `else`; a `try` body
    and a handler, or two handlers — not a `try` body and its `else` or `finally`,
    nor the cases of a `match`."""
    if isinstance(stmt, ast.If):
        return True
    if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        return {a, b} == {"body", "orelse"}
    if isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        pair = {a, b}
        handlers = {x for x in pair if x.startswith("handler")}
        return bool(handlers) and pair <= handlers | {"body"}
    return False


def _blocks(stmt: ast.stmt) -> list[tuple[str, list[ast.stmt]]]:
    out: list[tuple[str, list[ast.stmt]]] = []
    if type(stmt) in SIMPLE_STATEMENTS or isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return out
    for name in ("body", "orelse", "finalbody"):
        b = getattr(stmt, name, None)
        if isinstance(b, list) and b and isinstance(b[0], ast.stmt):
            out.append((name, b))
    for i, h in enumerate(getattr(stmt, "handlers", None) or []):
        out.append((f"handler{i}", h.body))
    for i, c in enumerate(getattr(stmt, "cases", None) or []):
        out.append((f"case{i}", c.body))
    return out


# A path from a body down to a node, as linked cells from the node up: the
# (statement, block) pair and the cell of the enclosing block. Nested blocks
# share their parents' cells, so indexing a body takes memory linear in its
# size; whole tuples per node took memory quadratic in the nesting depth
# (issue #19: an elif chain of 4,000 branches peaked at 210 MiB).
_Cell = tuple[tuple[ast.stmt, str], "_Cell | None"]


def _path(checker: "ModuleChecker", body: list[ast.stmt], node: ast.AST) -> "tuple[tuple[ast.stmt, str], ...] | None":
    """The (statement, block) pairs from `body` down to the statement holding `node`;
    the last pair names that statement with an empty block name. Nodes inside a
    nested def or class body, or in a handler's type or a case's pattern, have none."""
    cell = _path_cell(checker, body, node)
    if cell is None:
        return None
    pairs: list[tuple[ast.stmt, str]] = []
    while cell is not None:
        pairs.append(cell[0])
        cell = cell[1]
    return tuple(reversed(pairs))


def _path_cell(checker: "ModuleChecker", body: list[ast.stmt], node: ast.AST) -> "_Cell | None":
    """The innermost cell of `node`'s path (see `_path`).

    Asked for every assignment of a function: the paths of the body's nodes
    are indexed in one walk, kept on the checker per body (a search per
    question walked the whole body each time, quadratic in its length).
    The questions are about statements and assignment targets: those are
    indexed first; the first question about another node indexes every
    expression (most bodies are never walked so)."""
    memo: dict[int, tuple[list[ast.stmt], dict[int, _Cell], bool]] = checker.decl_paths
    hit = memo.get(id(body))
    if hit is None or hit[0] is not body:
        index: dict[int, _Cell] = {}
        _index_paths(body, None, index, False)
        hit = memo[id(body)] = (body, index, False)
    cell = hit[1].get(id(node))
    if cell is None and not hit[2]:
        # Every node's cell is its statement's, the same in either index.
        index = {}
        _index_paths(body, None, index, True)
        hit = memo[id(body)] = (body, index, True)
        cell = index.get(id(node))
    return cell


def _index_paths(body: list[ast.stmt], parent: "_Cell | None", index: "dict[int, _Cell]", every: bool) -> None:
    """Index the statements of `body` and their assignment targets' nodes;
    `every`: all their expressions' nodes."""
    for stmt in body:
        here: _Cell = ((stmt, ""), parent)
        index[id(stmt)] = here
        for name, block in _blocks(stmt):
            _index_paths(block, ((stmt, name), parent), index, every)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if every:
            parts = [n for n in child_nodes(stmt) if not isinstance(n, (ast.stmt, ast.excepthandler, ast.match_case))]
        else:
            parts = assigned_targets(stmt)
        for n in parts:
            if type(n) is ast.Name:
                index[id(n)] = here  # (most targets; its context node is one shared by the tree)
                continue
            for sub in walk_nodes(n):
                index[id(sub)] = here
