"""A function or class defined again in its scope: mypy's `[no-redef]`.

mypy's semantic analysis rejects `def f` or `class C` where the scope (the
module, a class body, a function body) already binds the name: `Name "f"
already defined on line 4` [no-redef] (checked against mypy 2.4.1; urllib3's
`class BaseSSLError(BaseException)` in an `except ImportError` after
`BaseSSLError = ssl.SSLError`). The line is the earlier definition's (a
decorated function's first decorator, a class's `class` line, a variable's
first assignment); an earlier binding by an import says `(by an import)` for
a module and `(possibly by an import)` for anything else.

mypy's exceptions, each kept: a function defined inside a block (an `if`,
`try`, `for`, `with`...) may redefine an earlier function or variable (a
conditional variant, whose signature mypy compares elsewhere); functions
named `_` (singledispatch's `@f.register`) may repeat; an overload group
and a property's setter/deleter are one definition; a branch a version,
platform or `TYPE_CHECKING` condition rules out binds nothing. Left alone
(a missed error rather than a false one): scopes with `global`/`nonlocal`
or `del` of the name, and names bound by anything but a plain assignment,
`for`/`with` target, import, `def` or `class`.

An import from a module mypy has not got (missing, untyped, or not followed)
binds a name of its own rather than the module's: over a name the scope
bound first it is the same `[no-redef]` error, on the import
(`report_missing_import_over_binding`; trio's `Loader: type[...]` under
`if TYPE_CHECKING`, then `from yaml import CLoader as Loader` in a `try`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from veritype.modules.finder import MissingModule
from veritype.semantic import symbols as S
from veritype.syntax.shapes import is_unannotated_def
from veritype.syntax.statements import scope_statements
from veritype.syntax.walk import walk as walk_nodes
from veritype.syntax.word_lines import any_in_span, span_start
from veritype.types.model import ModuleType

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.semantic.binder import Binder

_FUNC = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
# The statements `_bindings` reads, and those holding blocks of statements.
_BINDING = frozenset({ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Import, ast.ImportFrom})
_NESTING = frozenset({ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match}
                     | ({ast.TryStar} if hasattr(ast, "TryStar") else set()))
# Targets storing to an attribute or an item, not to a name.
_ITEM_TARGETS = frozenset({ast.Attribute, ast.Subscript})
# (kind, node): kind is "def", "class", "var", "module" (import of a module) or "import".
_Binding = tuple[str, ast.AST]


def check_redefinitions(checker: "ModuleChecker", tree: ast.Module) -> None:
    _Scope(checker).run(tree.body)


class _Scope:
    def __init__(self, checker: "ModuleChecker") -> None:
        self.checker = checker
        # The binder's answers for static conditions are kept on the test nodes
        # (Binder.static_branch): the binding of the same bodies asked them first.
        self.binder = checker.program.binder_for(checker.info)
        parsed = checker.info.parsed
        # The lines that may hold a `global`, `nonlocal` or `del` statement
        # (None: not known; each a keyword, not within a name: `model`): a
        # scope whose lines hold none has none to look for.
        self.unsafe_lines = parsed.keyword_lines("global", "nonlocal", "del") if parsed is not None else None
        # The lines that may hold a `:=` or a comprehension's `for` (None: not
        # known). The names under an attribute or item target (`x.a = ...`,
        # `x[i] = ...`) are read, but for a walrus's or a comprehension's
        # target: one whose lines hold neither word stores to no name (a
        # target's positions are exact: it is never inside an f-string).
        self.store_lines = parsed.binding_expression_lines() if parsed is not None else None
        # The lines that may hold a `def` or `class` statement (None: not
        # known): those holding either keyword as a word of its own (not
        # `default`). Only a definition is reported, and only a definition's
        # body is another scope to read: a nested scope whose lines hold
        # neither has nothing to report and is not read (most function
        # bodies; `async def` holds `def`, and a statement's lines are exact).
        self.definition_lines = parsed.keyword_lines("def", "class") if parsed is not None else None

    def run(self, body: list[ast.stmt], module_level: bool = True) -> None:
        lines = self.unsafe_lines
        may_hold = lines is None or (bool(body) and any_in_span(lines, span_start(body[0]), body[-1].end_lineno))
        excluded = _unsafe_names(body) if may_hold else set()
        bound: dict[str, _Binding] = {}
        nested: list[list[ast.stmt]] = []
        self.module_level = module_level
        self._block(body, 0, bound, excluded, nested)
        for inner in nested:
            self.run(inner, module_level=False)

    def _block(self, body: list[ast.stmt], depth: int, bound: dict[str, _Binding], excluded: set[str], nested: list[list[ast.stmt]]) -> None:
        for stmt in body:
            kind = type(stmt)
            if kind in _DEFINITIONS:
                defn = cast("ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef", stmt)
                if self._may_define(defn.body) and (isinstance(defn, ast.ClassDef) or self.checker.options.check_untyped_defs
                                                    or not is_unannotated_def(defn)):
                    nested.append(defn.body)  # (mypy reports nothing inside an unchecked function)
                self._definition(defn, depth, bound, excluded)
                continue
            if kind is ast.If:
                branch = cast(ast.If, stmt)
                taken = self._static(branch.test)
                if taken is not False:
                    self._block(branch.body, depth + 1, bound, excluded, nested)
                if taken is not True:
                    self._block(branch.orelse, depth + 1, bound, excluded, nested)
                continue
            if kind in _BINDING:
                self._bindings(stmt, bound)
            if kind not in _NESTING:
                continue  # (a simple statement holds no block)
            for name in ("body", "orelse", "finalbody"):
                sub = getattr(stmt, name, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    self._block(sub, depth + 1, bound, excluded, nested)
            for h in getattr(stmt, "handlers", None) or []:
                self._block(h.body, depth + 1, bound, excluded, nested)
            for c in getattr(stmt, "cases", None) or []:
                self._block(c.body, depth + 1, bound, excluded, nested)

    def _may_define(self, body: list[ast.stmt]) -> bool:
        """Whether the lines of `body` may hold a `def` or `class` (see
        `definition_lines`): a scope with neither is not read."""
        lines = self.definition_lines
        return lines is None or (bool(body) and any_in_span(lines, span_start(body[0]), body[-1].end_lineno))

    def _static(self, test: ast.expr) -> bool | None:
        return decided_branch(self.binder, test)

    def _bindings(self, stmt: ast.stmt, bound: dict[str, _Binding]) -> None:
        # One branch by the statement's class (one of `_BINDING`; a parse's
        # nodes are never of a subclass).
        kind = type(stmt)
        targets: list[ast.expr]
        if kind is ast.Assign:
            targets = stmt.targets  # type: ignore[attr-defined]
        elif kind is ast.Import:
            for a in stmt.names:  # type: ignore[attr-defined]
                name = a.asname or a.name.split(".")[0]
                bound.setdefault(name, ("module", stmt))
            return
        elif kind is ast.ImportFrom:
            for a in stmt.names:  # type: ignore[attr-defined]
                if a.name != "*":
                    bound.setdefault(a.asname or a.name, ("import", stmt))
            return
        elif kind is ast.With or kind is ast.AsyncWith:
            targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]  # type: ignore[attr-defined]
        elif kind is ast.AnnAssign and stmt.value is None:  # type: ignore[attr-defined]
            return
        else:
            targets = [stmt.target]  # type: ignore[attr-defined]  # (an annotated assignment with a value, a `for`)
        for t in targets:
            if type(t) is ast.Name:
                # Most targets: a name in a target is stored to (no walk needed).
                bound.setdefault(t.id, ("var", stmt))
                continue
            if type(t) in _ITEM_TARGETS and self.store_lines is not None and not any_in_span(self.store_lines, t.lineno, t.end_lineno):
                continue  # (see `store_lines`)
            for n in walk_nodes(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    bound.setdefault(n.id, ("var", stmt))

    def _definition(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, depth: int, bound: dict[str, _Binding], excluded: set[str]) -> None:
        name = stmt.name
        prev = bound.get(name)
        if prev is None:
            bound[name] = ("class" if isinstance(stmt, ast.ClassDef) else "def", stmt)
            return
        if name in excluded:
            return
        kind, node = prev
        if isinstance(stmt, _FUNC):
            if kind == "def" and name == "_":
                return  # singledispatch's `@f.register def _(...)`
            if _one_definition(stmt, node, name):
                return
            if depth > 0 and kind in ("def", "var", "import"):
                # A conditional variant: mypy compares its signature with the
                # first definition's (check/conditional_variants.py, when the
                # def is checked), a function's or an imported one's.
                if kind != "var":
                    stmt._vt_variant_of = node  # type: ignore[union-attr]
                return
        if kind == "import":
            if self._imports_module(node, name):
                where = " (by an import)"
            else:
                where = " (possibly by an import)"
        elif kind == "module":
            where = " (by an import)"
        else:
            where = f" on line {definition_line(node)}"
        at: ast.AST = stmt.decorator_list[0] if isinstance(stmt, _FUNC) and stmt.decorator_list else stmt
        self.checker.error(at, f'Name "{name}" already defined{where}', "no-redef")

    def _imports_module(self, node: ast.AST, name: str) -> bool:
        """Whether `from m import name` (in `node`) binds a module."""
        if not isinstance(node, ast.ImportFrom) or not self.module_level:
            return False
        hit = self.checker.scope.lookup(name)
        if hit is None:
            return False
        return isinstance(self.checker.ev.symbol_type(*hit), ModuleType)


def report_missing_import_over_binding(checker: "ModuleChecker", stmt: ast.stmt, module: str) -> None:
    """`stmt` imports from (or imports) `module`, which is missing: each name it
    binds that the scope bound first, by anything but another import of a
    missing module, is `Name "X" already defined ...` [no-redef] (mypy 2.4.1,
    whether the missing import is reported or ignored)."""
    if type(stmt) is ast.ImportFrom:
        locals_ = [a.asname or a.name for a in stmt.names if a.name != "*"]
    elif type(stmt) is ast.Import:
        # `import a.b` binds `a`: a name of its own only when `a` is missing too.
        locals_ = [a.asname or module for a in stmt.names
                   if a.name == module and (a.asname or "." not in module)]
    else:
        return
    for local in locals_:
        sym = bound_before(checker, stmt, local)
        if sym is None:
            continue
        where = _earlier_binding(checker, sym, sym.decls[0])
        if where is not None:
            checker.error(stmt, f'Name "{local}" already defined{where}', "no-redef")


def bound_before(checker: "ModuleChecker", stmt: ast.stmt, local: str) -> S.Symbol | None:
    """The scope's symbol for `local`, which `stmt` binds, when a statement
    before `stmt` bound it first (mypy's order: that first binding decides)."""
    sym = checker.scope.table.get(local)
    # (None, or this statement not among its bindings: a `global` name, or
    # an import in an unchecked function while the checker is outside it.)
    if sym is None or not sym.decls or sym.decls[0] is stmt or stmt not in sym.decls:
        return None
    if getattr(sym.decls[0], "lineno", 0) >= stmt.lineno:
        return None  # bound first by this or a later statement (a loop body): not mypy's order
    return sym


def decided_branch(binder: "Binder", test: ast.expr) -> bool | None:
    """The value of an `if` test mypy decides before checking (a version,
    platform or `TYPE_CHECKING` condition: it never checks the branch ruled
    out); None for anything else, a literal `if False:` too (mypy analyzes
    both its branches)."""
    inner = test
    while type(inner) is ast.UnaryOp and type(inner.op) is ast.Not:  # type: ignore[attr-defined]
        inner = inner.operand  # type: ignore[attr-defined]
    if type(inner) is ast.Constant:
        return None
    return binder.static_branch(test)


def _earlier_binding(checker: "ModuleChecker", sym: S.Symbol, first: ast.AST) -> str | None:
    """How mypy names the binding `first` in its message; None for an import of
    a missing module (two such imports are not a redefinition)."""
    kind = type(first)
    if kind is ast.Import or kind is ast.ImportFrom:
        program = checker.program
        if kind is ast.ImportFrom:
            binder = program.binder_for(checker.info)
            source = binder.resolve_relative(first.module, first.level)  # type: ignore[attr-defined]
        else:
            source = sym.import_module or ""
        if isinstance(program.find(source), MissingModule):
            return None
        if kind is ast.Import or sym.kind == S.MODULE_REF:
            return " (by an import)"
        hit = checker.scope.lookup(sym.name)
        if hit is not None and isinstance(checker.ev.symbol_type(*hit), ModuleType):
            return " (by an import)"
        return " (possibly by an import)"
    return f" on line {definition_line(first)}"


def definition_line(node: ast.AST) -> int:
    """The line mypy names for an earlier binding: a decorated function's first
    decorator, a class's `class` line, any other binding's own line."""
    if isinstance(node, _FUNC) and node.decorator_list:
        return node.decorator_list[0].lineno
    return getattr(node, "lineno", 0)


def _decorator_names(fn: ast.AST) -> list[str]:
    out: list[str] = []
    for d in getattr(fn, "decorator_list", []):
        if isinstance(d, ast.Call):
            d = d.func
        if isinstance(d, ast.Name):
            out.append(d.id)
        elif isinstance(d, ast.Attribute):
            out.append(d.attr)
            if isinstance(d.value, ast.Name):
                out.append(f"{d.value.id}.{d.attr}")
    return out


def _one_definition(new: ast.FunctionDef | ast.AsyncFunctionDef, prev: ast.AST, name: str) -> bool:
    """An overload group, or a property's getter/setter/deleter: one definition for mypy.
    Any decorator we do not know on either side keeps us quiet too."""
    names = _decorator_names(new) + _decorator_names(prev)
    if any(n.rsplit(".", 1)[-1] == "overload" for n in names):
        return True
    if any(n in (f"{name}.setter", f"{name}.deleter", f"{name}.getter") for n in names):
        return True
    return False


def _unsafe_names(body: list[ast.stmt]) -> set[str]:
    """Names this scope declares `global`/`nonlocal` or deletes: their bindings are not modelled."""
    out: set[str] = set()
    # All three are statements: the expressions need no visit.
    for node in scope_statements(body):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
        elif isinstance(node, ast.Delete):
            out.update(n.id for t in node.targets for n in walk_nodes(t) if isinstance(n, ast.Name))
    return out
