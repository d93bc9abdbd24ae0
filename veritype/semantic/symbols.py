"""Symbols and symbol tables: what a name in a scope was declared as.

A symbol records declarations (AST nodes), never types: types are computed on
demand by `evaluate` and cached on the symbol (DESIGN.md principle 2).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

# Symbol kinds.
VAR = "var"  # assignment / annotation / for target / with target / walrus
FUNC = "func"  # def (several for @overload)
CLASS = "class"
MODULE_REF = "module"  # `import a.b` binds `a`; `import a.b as c` binds `c`
FROM_IMPORT = "from"  # `from m import x`
PARAM = "param"
TYPE_ALIAS = "type"  # PEP 695 `type X = ...`
TYPE_PARAM = "tparam"  # PEP 695 `[T]`


@dataclass(eq=False)
class Symbol:
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
    submodules: set[str] = field(default_factory=set)
    # Stub re-export rules (`import X as X`, `from m import y as y`, __all__).
    explicit_reexport: bool = False
    # For instance attributes declared as `self.x = ...` in a method: that method.
    method: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    is_instance_attr: bool = False
    # Instance attributes: the method each declaration (keyed by id(node)) is
    # in, to infer its value in that method's scope.
    decl_methods: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    # `x = v  # type: int`: the comment's text and the statement it is on.
    type_comment: tuple[str, ast.AST] | None = None
    # Filled by evaluate: the computed type and evaluation state.
    cache: dict[str, object] = field(default_factory=dict)

    @property
    def node(self) -> ast.AST | None:
        return self.decls[0] if self.decls else None


class SymbolTable(dict[str, Symbol]):
    """Names of one scope, in declaration order."""

    def __init__(self) -> None:
        super().__init__()
        self.star_imports: list[str] = []  # modules of `from m import *`
        self.all_names: list[str] | None = None  # `__all__`, when static
        self.globals_declared: set[str] = set()
        self.nonlocals_declared: set[str] = set()
        self.has_module_getattr = False
