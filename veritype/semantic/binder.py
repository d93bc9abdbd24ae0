"""Bind a block of statements: which names it declares, and by what.

Used for module bodies, class bodies and function bodies alike. Branches on
static conditions (see `conditions`) are taken or skipped here, so nothing
later ever sees a declaration for another Python version or platform.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from veritype.semantic import symbols as S
from veritype.semantic.conditions import Always, evaluate_condition
from veritype.semantic.symbols import Symbol, SymbolTable
from veritype.syntax.shapes import elif_branch
from veritype.syntax.param_stores import first_param_stores
from veritype.syntax.walk import walk as walk_nodes
from veritype.syntax.word_lines import any_in_span, span_start


class Binder:
    def __init__(self, module: str, is_package: bool, version: tuple[int, int], platform: str, is_stub: bool,
                 always: Always | None = None, yield_lines: list[int] | None = None,
                 walrus_lines: list[int] | None = None) -> None:
        self.module = module
        self.always = always  # always_true / always_false names (mypy's options)
        self.is_package = is_package
        self.version = version
        self.platform = platform
        self.is_stub = is_stub
        # What `static_branch`'s answers depend on besides the test, made once:
        # one object for every answer this binder keeps, so that a test asked
        # again (by the checker, the dead-branch pass) matches by identity.
        self._static_key = (version, platform, always)
        # The lines holding `:=` (None: not known): a statement's expression
        # whose lines hold none has no walrus to bind and is not walked.
        self.walrus_lines = walrus_lines
        # False when the source has no `:=` at all (no line holds one): then
        # no expression needs walking for walrus targets (most modules).
        self.has_walrus = walrus_lines is None or bool(walrus_lines)
        # The statement handlers `_block` dispatches to: without a walrus, an
        # expression statement or a `return` binds nothing and has none (14k
        # of each on the bench corpus, nearly every module).
        self._handlers = _HANDLERS if self.has_walrus else _HANDLERS_NO_WALRUS
        # The lines of the source holding the word `yield` (syntax/word_lines.py;
        # None: not known). A def met here whose lines hold none is no generator
        # and is marked so (the fact evaluate.functions.is_generator keeps on
        # the node), sparing a walk of its body; in most modules that is every
        # def. Any other def is walked as before.
        self.yield_lines = yield_lines

    # -- entry points -------------------------------------------------------

    def bind_module(self, tree: ast.Module) -> SymbolTable:
        table = SymbolTable()
        self._block(tree.body, table)
        return table

    def bind_class(self, node: ast.ClassDef) -> SymbolTable:
        table = SymbolTable()
        self._block(node.body, table)
        return table

    def bind_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> SymbolTable:
        table = SymbolTable()
        args = node.args
        for a in [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []), *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]:
            table[a.arg] = Symbol(a.arg, S.PARAM, [a])
        if isinstance(node, ast.Lambda):
            if self.has_walrus:
                # (A lambda may sit in an f-string, where positions may be
                # off before Python 3.12: its body is walked whatever its lines.)
                _bind_walrus(node.body, table)
            return table
        self._block(node.body, table)
        return table

    def _walrus(self, expr: ast.expr, table: SymbolTable) -> None:
        """Bind the walrus targets in `expr`, a statement's own expression (whose
        position is exact)."""
        if self.has_walrus:
            lines = self.walrus_lines
            if lines is None or any_in_span(lines, expr.lineno, expr.end_lineno):
                _bind_walrus(expr, table)

    # -- statements ---------------------------------------------------------

    def static_branch(self, test: ast.expr) -> bool | None:
        # Asked by the binder and again by the checker for each `if`: the answer
        # is kept on the test node with the settings it was computed for (a
        # pure function of the node's subtree, which nothing mutates, and of
        # them; another module's settings just compute it again).
        key = self._static_key
        known = getattr(test, "_vt_static", None)
        if known is not None and (known[0] is key or known[0] == key):
            return known[1]  # type: ignore[no-any-return]
        value = evaluate_condition(test, self.version, self.platform, self.always)
        test._vt_static = (key, value)  # type: ignore[attr-defined]
        return value

    def _block(self, body: Iterable[ast.stmt], table: SymbolTable) -> None:
        # One dict look-up per statement for its kind's handler, where a chain
        # of isinstance tests cost eight on average (445k on the bench corpus);
        # statements that bind nothing (pass, raise, del, ...) have none.
        handlers = self._handlers
        for stmt in body:
            handler = handlers.get(type(stmt))
            if handler is not None:
                handler(self, stmt, table)

    def _def(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, table: SymbolTable) -> None:
        lines, last = self.yield_lines, stmt.end_lineno
        # (No line holds `yield`, as in most modules: no span to look at.)
        if lines is not None and last is not None and (not lines or not any_in_span(lines, span_start(stmt), last)):
            stmt._vt_is_generator = False  # type: ignore[union-attr]
        sym = table.get(stmt.name)
        if sym is not None and sym.kind == S.FUNC:
            sym.decls.append(stmt)  # overloads, property setters, redefinitions
        else:
            self._define(table, stmt.name, S.FUNC, stmt)

    def _class(self, stmt: ast.ClassDef, table: SymbolTable) -> None:
        self._define(table, stmt.name, S.CLASS, stmt)

    def _assign(self, stmt: ast.Assign, table: SymbolTable) -> None:
        targets = stmt.targets
        typed = stmt.type_comment is not None and len(targets) == 1
        for target in targets:
            self._target(target, stmt, table, typed)
        if len(targets) == 1 and type(targets[0]) is ast.Name and targets[0].id == "__all__":  # type: ignore[attr-defined]
            table.all_names = _static_names(stmt.value)
        if self.has_walrus:
            self._walrus(stmt.value, table)

    def _ann_assign(self, stmt: ast.AnnAssign, table: SymbolTable) -> None:
        if isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            prev = table.get(name)
            sym = self._define(table, name, S.VAR, stmt)
            rebinds = prev is not None and prev is sym and not prev.is_instance_attr
            # mypy: `Cannot redefine an existing name as final` [misc], reported
            # with the statement (check/annotated_redefinition.py).
            stmt._vt_final_again = rebinds and _names_final(stmt.annotation)  # type: ignore[attr-defined]
            if rebinds and not _bare_final(stmt.annotation):
                # An annotation of a name the scope already binds (`x = 1` then
                # `x: int = 2`; an import, a parameter, an earlier annotation):
                # mypy's `Name "x" already defined` [no-redef]. The first binding
                # keeps the name's type, and the statement is no declaration
                # (check/annotated_redefinition.py reports it).
                stmt._vt_redefines = prev  # type: ignore[attr-defined]
                return
            # (Set either way: the same tree may be bound again under other
            # settings, where a static branch no longer binds the name first.)
            stmt._vt_redefines = None  # type: ignore[attr-defined]
            if sym.annotation is None:
                sym.annotation = stmt.annotation
                sym.annotation_node = stmt
            if stmt.target.id == "__all__" and stmt.value is not None:
                table.all_names = _static_names(stmt.value)

    def _aug_assign(self, stmt: ast.AugAssign, table: SymbolTable) -> None:
        if isinstance(stmt.target, ast.Name):
            if stmt.target.id == "__all__" and table.all_names is not None:
                extra = _static_names(stmt.value)
                if extra is not None:
                    table.all_names.extend(extra)
            if stmt.target.id not in table:
                self._define(table, stmt.target.id, S.VAR, stmt)

    def _import(self, stmt: ast.Import, table: SymbolTable) -> None:
        # An import rebinding a name another import bound first (`try: import
        # re._parser as p` / `except ImportError: import sre_parse as p`) names
        # what the first one names: mypy's first binding decides the type.
        for alias in stmt.names:
            if alias.asname:
                sym = self._define(table, alias.asname, S.MODULE_REF, stmt, replace=True)
                if sym.decls[0] is stmt:
                    sym.import_module = alias.name
                    sym.explicit_reexport = alias.asname == alias.name
            else:
                top = alias.name.split(".")[0]
                sym = self._define(table, top, S.MODULE_REF, stmt, replace=True)
                if sym.decls[0] is stmt or sym.import_module == top:
                    sym.import_module = top
                    sym.add_submodule(alias.name)

    def _import_from(self, stmt: ast.ImportFrom, table: SymbolTable) -> None:
        source = (stmt.module or "") if not stmt.level else self.resolve_relative(stmt.module, stmt.level)
        for alias in stmt.names:
            if alias.name == "*":
                table.star_imports = [*table.star_imports, source]
                continue
            local = alias.asname or alias.name
            sym = self._define(table, local, S.FROM_IMPORT, stmt, replace=True)
            if sym.decls[0] is not stmt and sym.import_module is not None:
                continue  # the first import decides (see above)
            sym.import_module = source
            sym.import_name = alias.name
            # PEP 484: `from m import x as x` (and any from-import in a
            # package's __init__ of a submodule via `from . import x`) re-exports.
            sym.explicit_reexport = alias.asname == alias.name or (stmt.level > 0 and alias.asname is None and stmt.module is None)

    def _if(self, stmt: ast.If, table: SymbolTable) -> None:
        # An elif chain is an `If` nested in the `orelse` of the one before:
        # walked as a loop, so that 1,000 branches cost no stack (issue #19).
        branch_if = stmt
        while True:
            branch = self.static_branch(branch_if.test)
            if self.has_walrus:
                self._walrus(branch_if.test, table)
            if branch is not False:
                self._block(branch_if.body, table)
            if branch is True:
                break
            nxt = elif_branch(branch_if)
            if nxt is None:
                self._block(branch_if.orelse, table)
                break
            branch_if = nxt

    def _for(self, stmt: ast.For | ast.AsyncFor, table: SymbolTable) -> None:
        self._target(stmt.target, stmt, table, False)
        self._block(stmt.body, table)
        self._block(stmt.orelse, table)

    def _while(self, stmt: ast.While, table: SymbolTable) -> None:
        if self.has_walrus:
            self._walrus(stmt.test, table)
        self._block(stmt.body, table)
        self._block(stmt.orelse, table)

    def _with(self, stmt: ast.With | ast.AsyncWith, table: SymbolTable) -> None:
        for item in stmt.items:
            if item.optional_vars is not None:
                self._target(item.optional_vars, stmt, table, False)
        self._block(stmt.body, table)

    def _try(self, stmt: ast.Try, table: SymbolTable) -> None:  # (and TryStar)
        self._block(stmt.body, table)
        for handler in stmt.handlers:
            if handler.name:
                self._define(table, handler.name, S.VAR, handler)
            self._block(handler.body, table)
        self._block(stmt.orelse, table)
        self._block(stmt.finalbody, table)

    def _match(self, stmt: ast.Match, table: SymbolTable) -> None:
        for case in stmt.cases:
            for node in walk_nodes(case.pattern):
                name = getattr(node, "name", None)
                if isinstance(name, str):
                    self._define(table, name, S.VAR, case)
                rest = getattr(node, "rest", None)
                if isinstance(rest, str):
                    self._define(table, rest, S.VAR, case)
            self._block(case.body, table)

    def _global(self, stmt: ast.Global, table: SymbolTable) -> None:
        table.globals_declared = table.globals_declared | set(stmt.names)

    def _nonlocal(self, stmt: ast.Nonlocal, table: SymbolTable) -> None:
        table.nonlocals_declared = table.nonlocals_declared | set(stmt.names)

    def _type_alias(self, stmt: ast.stmt, table: SymbolTable) -> None:
        name = stmt.name.id  # type: ignore[attr-defined]
        self._define(table, name, S.TYPE_ALIAS, stmt)

    def _expr(self, stmt: ast.Expr, table: SymbolTable) -> None:
        self._walrus(stmt.value, table)

    def _return(self, stmt: ast.Return, table: SymbolTable) -> None:
        if stmt.value is not None:
            self._walrus(stmt.value, table)

    def _target(self, target: ast.expr, stmt: ast.stmt, table: SymbolTable, typed: bool) -> None:
        kind = type(target)  # (a parse's nodes are never of a subclass)
        if kind is ast.Name:
            sym = self._define(table, target.id, S.VAR, stmt)  # type: ignore[attr-defined]
            if typed:
                comment = getattr(stmt, "type_comment", None)
                if comment and sym.annotation is None:
                    sym.type_comment = (comment, stmt)
        elif kind is ast.Tuple or kind is ast.List:
            for elt in target.elts:  # type: ignore[attr-defined]
                self._target(elt, stmt, table, False)
        elif kind is ast.Starred:
            self._target(target.value, stmt, table, False)  # type: ignore[attr-defined]

    def _define(self, table: SymbolTable, name: str, kind: str, node: ast.AST, replace: bool = False) -> Symbol:
        if name in table.globals_declared or name in table.nonlocals_declared:
            # `global x` / `nonlocal x`: the assignment binds the outer name;
            # a local symbol would shadow it (and infer from itself).
            return Symbol(name, kind, [node])
        sym = table.get(name)
        # The first declaration decides the symbol's kind and declared type
        # (mypy's rule); later ones are kept for redefinition checks.
        if sym is None:
            sym = Symbol(name, kind, [node])
            table[name] = sym
            return sym
        sym.decls.append(node)
        return sym

    def resolve_relative(self, module: str | None, level: int) -> str:
        return absolute_import_name(self.module, self.is_package, module, level)


# A statement's binding handler, by its exact class (ast node classes are
# never subclassed); TryStar and TypeAlias exist on newer Pythons only.
_HANDLERS: dict[type, Callable[[Binder, Any, SymbolTable], None]] = {
    ast.FunctionDef: Binder._def, ast.AsyncFunctionDef: Binder._def, ast.ClassDef: Binder._class,
    ast.Assign: Binder._assign, ast.AnnAssign: Binder._ann_assign, ast.AugAssign: Binder._aug_assign,
    ast.Import: Binder._import, ast.ImportFrom: Binder._import_from, ast.If: Binder._if,
    ast.For: Binder._for, ast.AsyncFor: Binder._for, ast.While: Binder._while,
    ast.With: Binder._with, ast.AsyncWith: Binder._with, ast.Try: Binder._try, ast.Match: Binder._match,
    ast.Global: Binder._global, ast.Nonlocal: Binder._nonlocal, ast.Expr: Binder._expr, ast.Return: Binder._return,
}
for _name, _handler in (("TryStar", Binder._try), ("TypeAlias", Binder._type_alias)):
    if hasattr(ast, _name):
        _HANDLERS[getattr(ast, _name)] = _handler
# (Expr and Return only bind their walrus targets.)
_HANDLERS_NO_WALRUS = {kind: h for kind, h in _HANDLERS.items() if kind is not ast.Expr and kind is not ast.Return}


def _names_final(annotation: ast.expr) -> bool:
    """`Final` or `Final[...]`, under any module prefix."""
    return _bare_final(annotation.value if isinstance(annotation, ast.Subscript) else annotation)


def _bare_final(annotation: ast.expr) -> bool:
    """`Final` without a type: mypy 2.4.1 makes an already bound name final
    then (the annotation is taken, and the assignment before it is `Cannot
    assign to final name`), where `Final[int]` is a redefinition like any
    other annotation (`Name "x" already defined`, the first binding keeping
    its type). Both are `Cannot redefine an existing name as final`."""
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "Final"
    return isinstance(annotation, ast.Name) and annotation.id == "Final"


def absolute_import_name(importer: str, is_package: bool, module: str | None, level: int) -> str:
    """The module `from <level dots><module> import ...` names, inside module
    `importer` (a package's own `__init__` when `is_package`)."""
    if level == 0:
        return module or ""
    parts = importer.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    base = ".".join(parts)
    if module:
        return f"{base}.{module}" if base else module
    return base


def _static_names(node: ast.expr) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        names = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return names if len(names) == len(node.elts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _static_names(node.left), _static_names(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _bind_walrus(expr: ast.expr, table: SymbolTable) -> None:
    for node in walk_nodes(expr):
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            if node.target.id not in table:
                table[node.target.id] = Symbol(node.target.id, S.VAR, [node])
        elif isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # Comprehension walruses bind in the enclosing scope (PEP 572); lambdas do not.
            if isinstance(node, ast.Lambda):
                continue


def collect_instance_attributes(cls: ast.ClassDef, table: SymbolTable) -> None:
    """Add `self.x = ...` / `self.x: T = ...` of the class's methods to its table."""
    for stmt in _class_methods(cls.body):
        if not stmt.args.args and not stmt.args.posonlyargs:
            continue
        body = stmt.body
        if len(body) == 1 and type(body[0]) in _STORELESS:
            # `...`, a docstring, `pass`: a body that stores nothing (a walrus
            # binds names, never attributes). Every method of a stub, whose
            # classes are bound when first used: no walk of the body, nothing
            # kept on the def.
            continue
        # (Most methods have no decorator: no generator made for them.)
        if stmt.decorator_list and any(_decorator_name(d) in ("staticmethod", "classmethod") for d in stmt.decorator_list):
            continue
        first = (stmt.args.posonlyargs or stmt.args.args)[0].arg
        # The method's stores to `first.attr`, walked once for all the readers
        # (syntax/param_stores.py): those of `=`, `x: T =`, `for` and `with`
        # are instance attributes (not `+=`'s nor `del`'s).
        for node, target in first_param_stores(stmt):
            if type(node) in _ATTRIBUTE_DECLARING:
                # (`self.x = ...`, most stores: an attribute, flat already.)
                for t in (target,) if type(target) is ast.Attribute else _flatten_targets(target):
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == first:
                        sym = table.get(t.attr)
                        if sym is None:
                            sym = Symbol(t.attr, S.VAR, [node], method=stmt, is_instance_attr=True)
                            table[t.attr] = sym
                        elif sym.is_instance_attr:
                            sym.decls.append(node)
                        # Which method each assignment is in (to infer it in that scope).
                        sym.add_decl_method(node, stmt)
                        if isinstance(node, ast.AnnAssign) and sym.annotation is None and sym.is_instance_attr:
                            sym.annotation = node.annotation
                            sym.annotation_node = node
                            sym.method = stmt
                        elif isinstance(node, ast.Assign) and node.type_comment and sym.is_instance_attr and sym.type_comment is None:
                            sym.type_comment = (node.type_comment, node)
                            sym.method = stmt


_STORELESS = frozenset({ast.Expr, ast.Pass})
_ATTRIBUTE_DECLARING = frozenset({ast.Assign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith})


def _class_methods(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The methods of a class body, also those defined under a class-level
    `if`/`else`, `try` or `with` (multidict's `if _FREE_THREADED: def
    _incr_version(self)` ... `else: def _incr_version(self)`, each setting
    `self._version`): mypy collects their `self.x` assignments too."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt
        elif isinstance(stmt, (ast.If, ast.Try, ast.With)) or type(stmt).__name__ == "TryStar":
            for field in ("body", "orelse", "finalbody"):
                yield from _class_methods(getattr(stmt, field, None) or [])
            for handler in getattr(stmt, "handlers", None) or []:
                yield from _class_methods(handler.body)


def _flatten_targets(t: ast.expr) -> list[ast.expr]:
    if isinstance(t, (ast.Tuple, ast.List)):
        out: list[ast.expr] = []
        for e in t.elts:
            out.extend(_flatten_targets(e))
        return out
    if isinstance(t, ast.Starred):
        return _flatten_targets(t.value)
    return [t]


def _decorator_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _decorator_name(node.func)
    return None
