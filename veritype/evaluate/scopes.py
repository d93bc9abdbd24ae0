"""Scopes: the chain of symbol tables a name is looked up in, by Python's rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from veritype.semantic.symbols import Symbol, SymbolTable
from veritype.types.model import TypeVarType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Ref
    from veritype.evaluate.program import ModuleInfo

# A symbol's `cache["type"]` while its type is being computed (Evaluator.symbol_type):
# here, below both the evaluator and expression inference, which reads a name's kept
# type itself (ExprEvaluator._Name).
SYMBOL_IN_PROGRESS = object()


@dataclass(eq=False)
class Scope:
    """A module, class or function scope: its symbol table and where it sits."""
    kind: str  # "module" | "class" | "function"
    table: SymbolTable
    module: "ModuleInfo"
    parent: "Scope | None"
    fullname: str
    cls: "ClassInfo | None" = None  # the class of a class scope
    function: object = None  # the ast node of a function scope
    # Type variables bound here (class or function generics, PEP 695 params),
    # by the TypeVar declaration's fullname.
    type_vars: dict[str, TypeVarType] = field(default_factory=dict)
    # PEP 695 type parameter scope: names of type params -> TypeVarType.
    type_params: dict[str, TypeVarType] = field(default_factory=dict)
    # For function scopes: the declared types of the parameters, as seen in the body.
    param_types: dict[str, object] = field(default_factory=dict)
    # The scope of a `type` statement's value: it shares its parent's table (so
    # the parent's names, class-level ones too, are visible) and adds the
    # alias's type parameters; a name found here is the parent's.
    alias_value: bool = False
    # `Evaluator.lookup`'s final answers from this scope, by name (see there); a
    # symbol found in this scope itself is kept alone.
    known: "dict[str, tuple[Symbol, Scope] | Symbol | None]" = field(default_factory=dict, repr=False)
    # `Evaluator.resolve_expr`'s final references of names read in a module or
    # class scope (see there), once it keeps one.
    refs: "dict[str, Ref] | None" = field(default=None, repr=False)

    def enclosing_class(self) -> "ClassInfo | None":
        s: Scope | None = self
        while s is not None:
            if s.kind == "class":
                return s.cls
            s = s.parent
        return None

    def method_class(self) -> "ClassInfo | None":
        """The class whose method body this (function) scope is."""
        if self.kind == "function" and self.parent is not None and self.parent.kind == "class":
            return self.parent.cls
        return None

    def bound_type_vars(self) -> dict[str, TypeVarType]:
        """Type variables bound by this scope and every enclosing one.

        Spec ("Scoping rules for type variables"): "A generic class nested in
        another generic class cannot use the same type variables. The scope of
        the type variables of the outer class doesn't cover the inner one": from
        a class body the walk goes on at the nearest enclosing function or the
        module, past enclosing class bodies (mypy's class frames do the same). A
        method still sees its own class's variables, and a class defined in a
        method sees that method's (and so its class's)."""
        out: dict[str, TypeVarType] = {}
        s: Scope | None = self
        while s is not None:
            for k, v in s.type_vars.items():
                out.setdefault(k, v)
            parent = s.parent
            if s.kind == "class":
                while parent is not None and parent.kind == "class":
                    parent = parent.parent
            s = parent
        return out

    def lookup(self, name: str, for_type: bool = False) -> "tuple[Symbol, Scope] | None":
        """Python's LEGB rule: this scope, enclosing functions (class scopes
        skipped except the first), the module, then builtins (by the caller).

        `for_type`: a name in an annotation never means a method of the class
        being defined (`def str(self) -> str` means builtins.str), so class-level
        functions are passed over, as mypy and pyright do."""
        s: Scope | None = self
        first = True
        while s is not None:
            if name in s.table.globals_declared:
                while s.parent is not None:  # straight to the module
                    s = s.parent
            if s.kind != "class" or first:
                # `in` and `[]` rather than `get`: most names are not in most tables.
                sym = s.table[name] if name in s.table else None
                # `self.x = ...` attributes live in the class table but are no names of its body.
                if sym is not None and s.kind == "class" and sym.is_instance_attr:
                    sym = None
                if sym is not None and not (for_type and s.kind == "class" and sym.kind == "func"):
                    return sym, (s.parent if s.alias_value and s.parent is not None else s)
            first = False
            s = s.parent
        return None

    def lookup_type_param(self, name: str) -> TypeVarType | None:
        s: Scope | None = self
        while s is not None:
            # Asked for every name read; almost every scope has no type parameters.
            if s.type_params:
                tv = s.type_params.get(name)
                if tv is not None:
                    return tv
            s = s.parent
        return None
