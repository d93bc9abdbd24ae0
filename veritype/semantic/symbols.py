"""Symbols and symbol tables: what a name in a scope was declared as.

A symbol records declarations (AST nodes), never types: types are computed on
demand by `evaluate` and cached on the symbol (DESIGN.md principle 2).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from itertools import repeat
from types import MappingProxyType

# Symbol kinds.
VAR = "var"  # assignment / annotation / for target / with target / walrus
FUNC = "func"  # def (several for @overload)
CLASS = "class"
MODULE_REF = "module"  # `import a.b` binds `a`; `import a.b as c` binds `c`
FROM_IMPORT = "from"  # `from m import x`
PARAM = "param"
TYPE_ALIAS = "type"  # PEP 695 `type X = ...`
TYPE_PARAM = "tparam"  # PEP 695 `[T]`


# The empty defaults of Symbol's rarely filled collections, shared by every
# symbol (a fresh set, 216 bytes, and dict per symbol were ~10 MB per 100k
# lines: bench/RESULTS.md, issue #15); `add_submodule` and `add_decl_method`
# make the symbol its own on the first write.
_NO_SUBMODULES: frozenset[str] = frozenset()
_NO_METHODS: Mapping[int, ast.FunctionDef | ast.AsyncFunctionDef] = MappingProxyType({})


# Slots: a program has a symbol per name bound anywhere (tens of thousands
# per 100k lines), and nothing sets other attributes on one.
@dataclass(eq=False, slots=True)
class Symbol:
    """A name bound in a scope: its kind and the statements that declare it."""
    name: str
    kind: str
    decls: list[ast.AST] = field(default_factory=list)
    # The declared annotation (AnnAssign or type comment), if any.
    annotation: ast.expr | None = None
    annotation_node: ast.AST | None = None
    # For imports: the module imported from, and the name in it (None: the module).
    import_module: str | None = None
    import_name: str | None = None
    # `import a.b.c` also needs a, a.b, a.b.c loaded: submodules imported here.
    submodules: Set[str] = _NO_SUBMODULES
    # Stub re-export rules (`import X as X`, `from m import y as y`, __all__).
    explicit_reexport: bool = False
    # For instance attributes declared as `self.x = ...` in a method: that method.
    method: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    is_instance_attr: bool = False
    # Instance attributes: the method each declaration (keyed by id(node)) is
    # in, to infer its value in that method's scope.
    # (The shared empty mapping from a C callable, not a lambda: a Python call per
    # symbol made, 45k on the bench corpus; a dataclass takes no mapping default.)
    decl_methods: Mapping[int, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=repeat(_NO_METHODS).__next__)
    # `x = v  # type: int`: the comment's text and the statement it is on.
    type_comment: tuple[str, ast.AST] | None = None
    # Filled by evaluate: the computed type and evaluation state.
    cache: dict[str, object] = field(default_factory=dict)

    @property
    def node(self) -> ast.AST | None:
        return self.decls[0] if self.decls else None

    def add_submodule(self, name: str) -> None:
        if self.submodules is _NO_SUBMODULES:
            self.submodules = set()
        assert isinstance(self.submodules, set)
        self.submodules.add(name)

    def add_decl_method(self, node: ast.AST, method: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.decl_methods is _NO_METHODS:
            self.decl_methods = {}
        assert isinstance(self.decl_methods, dict)
        self.decl_methods[id(node)] = method


class SymbolTable(dict[str, Symbol]):
    """Names of one scope, in declaration order."""

    # Class-level defaults, immutable and shared: most tables (every
    # function's) never set these, and a list and two sets per table were
    # ~4 MB per 100k lines. The binder assigns a table its own on a write.
    star_imports: Sequence[str] = ()  # modules of `from m import *`
    all_names: list[str] | None = None  # `__all__`, when static
    globals_declared: Set[str] = frozenset()
    nonlocals_declared: Set[str] = frozenset()
    has_module_getattr = False
