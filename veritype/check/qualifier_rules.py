"""Where the `Final` and `ClassVar` qualifiers may be declared, and names that
inherit Final through imports.

Typing spec, "Type qualifiers", `ClassVar`: "a ClassVar parameter cannot
include any type variables, regardless of the level of nesting", and it
"cannot be used as a qualifier for a TypedDict item or a NamedTuple field".
`Final`:

- "If the right hand side is omitted, there must be an explicit type argument
  to Final", and "A final attribute declared in a class body without an
  initializer must be initialized in the `__init__` method (except in stub
  files)";
- `self.x: Final = v` is a declaration only "in `__init__`" (mypy: "Can only
  declare a final attribute in class body or __init__");
- "Variables should not be annotated with both ClassVar and Final" (except in
  a dataclass, where `ClassVar[Final[int]]` is a final class variable);
- "Final cannot be used as a qualifier for a TypedDict item or a NamedTuple
  field";
- "If a module declares a Final variable and another module imports that
  variable ... the imported symbol inherits the Final type qualifier".

Messages and codes are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.check.typeddict_qualifiers import check_item_qualifiers

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo
    from veritype.types.model import Type


def check_qualifier_declaration(checker: "ModuleChecker", stmt: ast.AnnAssign, qualifiers: set[str], declared: "Type") -> None:
    """The placement rules for an annotated assignment whose annotation holds
    `Final` or `ClassVar` (`declared` is the type inside the qualifier)."""

    check_item_qualifiers(checker, stmt, qualifiers)
    _final_with_classvar(checker, stmt)
    if "ClassVar" in qualifiers:
        _class_var_rules(checker, stmt, declared)
    if "Final" not in qualifiers:
        return
    info = _class_of_body(checker)
    if isinstance(stmt.target, ast.Attribute):
        fn = checker.scope.function
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name != "__init__":
            checker.error(stmt, "Can only declare a final attribute in class body or __init__", "misc")
        return
    if info is None:
        return
    if info.is_typeddict:
        checker.error(stmt.annotation, "Final[...] can't be used inside a TypedDict", "valid-type")
        return
    if info.is_namedtuple:
        checker.error(stmt.annotation, "Final[...] can't be used inside a NamedTuple", "valid-type")
        return
    if stmt.value is not None or checker.info.is_stub or not isinstance(stmt.target, ast.Name):
        return
    if isinstance(stmt.annotation, (ast.Name, ast.Attribute)):
        checker.error(stmt, "Type in Final[...] can only be omitted if there is an initializer", "misc")
        return
    if _is_dataclass(info) or info.is_protocol or info.has_any_base:
        return  # a dataclass field is set by the generated `__init__`
    sym = checker.scope.table.get(stmt.target.id)
    # The binder records the method of each `self.<name> = ...` (Symbol.decl_methods).
    if sym is None or not any(m.name == "__init__" for m in sym.decl_methods.values()):
        checker.error(stmt, "Final name must be initialized with a value", "misc")


def _class_var_rules(checker: "ModuleChecker", stmt: ast.AnnAssign, declared: "Type") -> None:
    info = _class_of_body(checker)
    if info is None:
        return  # outside a class body: reported with the other ClassVar contexts
    if info.is_typeddict or info.is_namedtuple:
        kind = "TypedDict" if info.is_typeddict else "NamedTuple"
        checker.error(stmt.annotation, f"ClassVar[...] can't be used inside a {kind}", "valid-type")
        return
    from veritype.types.substitute import type_vars_in

    if any(v.kind != "self" for v in type_vars_in(declared).values()):
        checker.error(stmt.annotation, "ClassVar cannot contain type variables", "misc")


def imported_final(checker: "ModuleChecker", sym: S.Symbol) -> bool:
    """Whether `sym` names a variable that an imported module declares Final:
    `from m import X` (the symbol is the import) or `from m import *` (the
    name is assigned here, after the star import, at module level)."""
    star_imported = sym.kind == S.VAR and checker.scope.kind == "module" and checker.scope.table.star_imports
    if sym.kind != S.FROM_IMPORT and not star_imported:
        return False  # (most: tested before the import below, asked for every name assigned)
    from veritype.evaluate.declarations import qualifiers

    ev = checker.ev
    if sym.kind == S.FROM_IMPORT:
        ref = ev.resolve_symbol(sym, checker.scope)
        targets = [(ref.sym, ref.scope)] if ref.kind == "symbol" and ref.sym is not None and ref.scope is not None else []
    else:  # (star_imported)
        targets = []
        for source in checker.scope.table.star_imports:
            mod = ev.program.get_module(source)
            found = ev.program.lookup_in_module(mod, sym.name) if mod is not None else None
            if found is not None and found is not sym:
                ref = ev.resolve_symbol(found, ev.module_scope_of_symbol(mod, found))  # type: ignore[arg-type]
                if ref.kind == "symbol" and ref.sym is not None and ref.scope is not None:
                    targets.append((ref.sym, ref.scope))
    return any(t.kind == S.VAR and t is not sym and "Final" in qualifiers(ev, t, scope) for t, scope in targets)


def _final_with_classvar(checker: "ModuleChecker", stmt: ast.AnnAssign) -> None:
    outer = _qualifier(checker, stmt.annotation)
    if outer not in ("Final", "ClassVar") or not isinstance(stmt.annotation, ast.Subscript):
        return
    inner = _qualifier(checker, stmt.annotation.slice)
    if {outer, inner} != {"Final", "ClassVar"}:
        return
    info = _class_of_body(checker)
    if info is not None and _is_dataclass(info) and outer == "ClassVar":
        return  # a dataclass's final class variable (spec, "Dataclasses")
    if outer == "ClassVar":
        # mypy reports it at the inner `Final` (its own line when the annotation spans lines).
        checker.error(stmt.annotation.slice, "Final can be only used as an outermost qualifier in a variable annotation", "valid-type")
    else:
        checker.error(stmt, "Variable should not be annotated with both ClassVar and Final", "misc")


def _qualifier(checker: "ModuleChecker", node: ast.expr) -> str | None:
    """"Final" or "ClassVar" for `Final`, `ClassVar`, `Final[...]`, `ClassVar[...]`."""
    return special_qualifier(checker, node, ("Final", "ClassVar"))


def special_qualifier(checker: "ModuleChecker", node: ast.expr, names: tuple[str, ...]) -> str | None:
    """Which of the typing special forms `names` (`Final`, `Required`...) `node`
    is, bare or subscripted; None for anything else."""
    head = node.value if isinstance(node, ast.Subscript) else node
    if not isinstance(head, (ast.Name, ast.Attribute)):
        return None
    ref = checker.ev.resolve_expr(head, checker.scope)
    if ref is None or ref.kind != "special":
        return None
    name = ref.fullname.rsplit(".", 1)[-1]
    return name if name in names else None


def _is_dataclass(info: "ClassInfo") -> bool:
    info.synthesized  # processes the class (and its dataclass fields) if not yet
    return info.dataclass_info is not None


def _class_of_body(checker: "ModuleChecker") -> "ClassInfo | None":
    """The class whose body is being checked (not a method inside it)."""
    if checker.scope.kind != "class":
        return None
    return checker.scope.enclosing_class()
