"""The lazy engine: symbols to types, classes to `ClassInfo`, names to references.

Every question ("what is the type of `os.path.join`?") is answered on
demand and cached on the symbol. A question that depends on itself (a
cycle) gets Any rather than recursing forever (DESIGN.md principle 2).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from veritype.evaluate.classes import ClassInfo, class_object_type
from veritype.evaluate.scopes import SYMBOL_IN_PROGRESS, Scope
from veritype.evaluate.special import CLASS_ALIASES, TYPING, special_name
from veritype.semantic import symbols as S
from veritype.semantic.symbols import Symbol
from veritype.types.model import (
    ANY, ANY_SPECIAL, AnyType, Instance, LiteralType, ModuleType,
    SpecialForm, TupleType, Type, TypeType, TypeVarType, UnpackType,
)
from veritype.diagnostics import bounds
from veritype.evaluate.type_params import pep695_type_params
from veritype.types.join import join_all, widen_literals
from veritype.types.tuples import make_tuple
from veritype.evaluate.class_bases import abstract_members, evaluate_bases
from veritype.evaluate.declarations import compute_declared_type, compute_symbol_type, parameter_type

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program


@dataclass
class Ref:
    """What a name or dotted name in source refers to."""

    kind: str  # "module" | "class" | "special" | "symbol" | "missing"
    fullname: str = ""
    sym: Symbol | None = None
    scope: Scope | None = None
    module: "ModuleInfo | None" = None
    info: ClassInfo | None = None
    # A "missing" name from a module that could not be followed (not found, or not
    # followed): mypy's Any "from an unfollowed import" (--disallow-any-unimported).
    unimported: bool = False


class _LazyEvaluation:
    """`with ev.lazy_evaluation:` counts one lazy evaluation in progress in
    `Evaluator.lazy_depth` (re-entrant: it is a counter, one object serves)."""

    __slots__ = ("ev",)

    def __init__(self, ev: "Evaluator") -> None:
        self.ev = ev

    def __enter__(self) -> None:
        self.ev.lazy_depth += 1

    def __exit__(self, *exc: object) -> None:
        self.ev.lazy_depth -= 1

class Evaluator:
    def __init__(self, program: "Program") -> None:
        self.program = program
        self._module_scopes: dict[str, Scope] = {}
        self._classes: dict[int, ClassInfo] = {}
        # Classes made by a call written as a base (functional_classes.base_class_from_call).
        self.base_calls: dict[int, tuple[ast.Call, ClassInfo | None]] = {}
        from veritype.evaluate.type_expr import TypeExprEvaluator

        self.type_exprs = TypeExprEvaluator(self)
        from veritype.evaluate.members import Members

        self.members = Members(self)
        # The delegations the type algebra and the checker ask most (23.6k and 5.6k
        # times on the bench corpus), bound once: `members` is this evaluator's for good.
        # `bound_member(receiver, name)`: the type of `receiver.name`, or None.
        self.bound_member: Callable[[Type, str], Type | None] = self.members.get
        # `constructor_type(t)`: the signature of calling the class object `t`.
        self.constructor_type: Callable[[TypeType], Type | None] = self.members.constructor
        self._subtype_checker = None
        # Set by the check stage: walks a method body silently so that the
        # types assigned to `self.x` (with narrowing) are recorded on symbols.
        self.method_walker: Callable[[ast.FunctionDef | ast.AsyncFunctionDef, Scope], None] | None = None
        # Lazy evaluations in progress. Each guards against cycles with a placeholder
        # answer (Any for a symbol being evaluated, no bases, an MRO of the class
        # alone...): an answer derived while one is in progress may have seen one,
        # while none is, it is final. Caches of derived answers (members.Members)
        # keep only final ones. Counted by `with ev.lazy_evaluation:` around each.
        self.lazy_depth = 0
        self.lazy_evaluation = _LazyEvaluation(self)
        # `instance(fullname)` without arguments, by name (see `instance`).
        self._plain_instances: dict[str, Instance] = {}
        self._plain_builtins: dict[str, Instance] = {}  # the same of builtins, by short name (see `builtin`)
        self._literal_fallbacks: dict[type, Instance] = {}  # see `literal`
        self._literals: dict[tuple[object, type], LiteralType] = {}  # see `literal`
        self._declared_literals: dict[tuple[object, type], LiteralType] = {}  # see `declared_literal`
        self._named: dict[str, ClassInfo] = {}
        # Whether any PEP 695 type parameter was bound (`pep695_params`, the only
        # source of `Scope.type_params`): until one is, no name read is one,
        # and the walk of the scope chain for it is skipped (most runs: it was
        # 268k walks on the bench corpus, which has none).
        self.type_params_seen = False
        # (options, whether the `deprecated` code is on): see deprecation.enabled.
        self.deprecations_enabled: tuple[object, bool] | None = None

    # -- delegations used by the type algebra -----------------------------------

    def subtype_checker(self):  # type: ignore[no-untyped-def]
        checker = self._subtype_checker
        if checker is None:
            from veritype.types.subtype import SubtypeChecker

            checker = self._subtype_checker = SubtypeChecker(self)
        return checker

    def protocol_member(self, receiver: Type, name: str) -> Type | None:
        """`receiver`'s member `name` as matched against a protocol member."""
        return self.members.protocol_actual(receiver, name)

    def satisfies_protocol(self, left: Type, proto: Instance, checker) -> bool:  # type: ignore[no-untyped-def]
        return self.members.satisfies(left, proto, checker)

    def protocol_members(self, info: ClassInfo) -> list[str]:
        return self.members.protocol_members(info)

    def class_variance(self, info: ClassInfo, index: int) -> str:
        """Declared or inferred variance of a class's type parameter (see evaluate.variance)."""
        from veritype.evaluate.variance import class_variance

        return class_variance(self, info, index)

    def enum_members(self, info: ClassInfo) -> list[str]:
        return self.members.enum_members(info)

    def instance_call_signature(self, inst: Instance, whole: bool = False):  # type: ignore[no-untyped-def]
        """The bound `__call__` of an instance: its first item when overloaded, or
        with `whole`, every item (an Overloaded)."""
        from veritype.types.model import CallableType, Overloaded

        if inst.info.get("__call__") is None:
            return None
        t = self.members.instance_member(inst, "__call__", inst)
        if isinstance(t, Overloaded) and whole:
            return t
        if isinstance(t, Overloaded):
            return t.items[0] if t.items else None
        return t if isinstance(t, CallableType) else None

    def metaclass_instance(self, info: ClassInfo) -> Instance | None:
        cached = getattr(info, "_metaclass", False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        info._metaclass = None  # type: ignore[attr-defined]
        result: Instance | None = None
        for cls in info.mro:
            cls.bases  # the metaclass keyword is read with the bases
            if cls.metaclass_expr is not None and cls.defining_scope is not None:
                t = self.type_exprs.evaluate(cls.metaclass_expr, cls.defining_scope)
                if isinstance(t, Instance):
                    result = t
                    break
        if result is None and _any_protocol(info):
            # typing.Protocol's metaclass derives from ABCMeta (typeshed spells it only on
            # some protocols, e.g. Sized): `Mapping.register(...)` works, as in mypy.
            t = self.instance("abc.ABCMeta")
            result = t if isinstance(t, Instance) else None
        if result is None:
            t = self.instance("builtins.type")
            result = t if isinstance(t, Instance) else None
        info._metaclass = result  # type: ignore[attr-defined]
        return result

    # -- scopes -------------------------------------------------------------

    def module_scope(self, module: "ModuleInfo") -> Scope:
        scope = self._module_scopes.get(module.name)
        if scope is None:
            scope = Scope("module", module.symbols, module, None, module.name)
            self._module_scopes[module.name] = scope
        return scope

    def lookup(self, name: str, scope: Scope, for_type: bool = False) -> tuple[Symbol, Scope] | None:
        """`name` read in `scope`: its symbol and the scope that has it, or None.

        A value's answers are kept on the scope (`Scope.known`: 413k lookups
        for 43k distinct questions on the bench corpus). Pure: a scope's
        chain of symbol tables never changes once bound (the binder makes a
        new table for each bind), so an answer from the chain is final; one
        from a star import or builtins, or no answer, depends on which modules
        are loaded, final while no lazy evaluation (and so no module load:
        Program.get_module) is in progress, and a hit in builtins final in a
        module without star imports (builtins is in `Program.modules` only
        once loaded). The engine drops a forgotten module's scopes, and those
        of every module importing it."""
        if for_type and _type_reading_differs(name, scope):
            return self._lookup(name, scope, True)
        known = scope.known
        if name in known:
            kept = known[name]
            # (A symbol alone: found in `scope` itself, see below.)
            return (kept, scope) if type(kept) is Symbol else kept  # type: ignore[return-value]
        if scope.kind == "function" and not scope.alias_value:
            # A function scope's first read of a name (34k of the 45k answers
            # computed on the bench corpus): its own table (most: a parameter or a
            # local), else the answer from the scope Scope.lookup goes on to (an
            # enclosing function or the module: class bodies are passed over;
            # `global x` goes to the module), kept there when that scope read the
            # name itself. The same answer: from there Scope.lookup and `_lookup`
            # go on exactly as a look-up starting there does (the module, its star
            # imports and builtins are the same). Not kept there when computed
            # here: the module scopes would hold every name their functions read
            # (+6.5k answers on the bench corpus, ~0.3 MB for the run).
            table = scope.table
            outer: Scope | None
            if name in table.globals_declared:
                outer = scope
                while outer.parent is not None:
                    outer = outer.parent
            elif name in table:
                sym = table[name]
                known[name] = sym
                return sym, scope
            else:
                outer = scope.parent
                while outer is not None and outer.kind == "class":
                    outer = outer.parent
            if outer is None or outer.alias_value:
                hit = self._lookup(name, scope, False)
            elif name in outer.known:  # (the look-up's first test there, written out)
                kept = outer.known[name]
                hit = (kept, outer) if type(kept) is Symbol else kept  # type: ignore[assignment]
            else:
                hit = self._lookup(name, outer, False)
        else:
            hit = self._lookup(name, scope, False)
        if not self.lazy_depth or (hit is not None and (hit[1].module is scope.module or not scope.module.symbols.star_imports)):
            # A hit in the scope itself is kept as its symbol: the scope holding
            # itself would be a reference cycle, and a released function body's
            # scope must go with it (a one-shot run has no cyclic collector).
            known[name] = hit[0] if hit is not None and hit[1] is scope else hit
        return hit

    def _lookup(self, name: str, scope: Scope, for_type: bool) -> tuple[Symbol, Scope] | None:
        hit = scope.lookup(name, for_type)
        outer_scope = hit[1].parent if hit is not None else None
        if for_type and hit is not None and hit[1].kind == "class" and hit[0].kind == S.VAR and outer_scope is not None:
            # A class attribute named like a type (`bytes: set[bytes]`) is not a
            # type; an alias or a type variable in the class body is.
            from veritype.evaluate.declarations import alias_info, typevar_declaration

            sym, sc = hit
            if alias_info(self, sym, sc) is None and typevar_declaration(self, sym, sc) is None:
                outer = self.lookup(name, outer_scope, for_type)
                if outer is not None:
                    return outer
                if _declares_itself(sym):
                    # `ClassF: "ClassF"` with no ClassF outside: the annotation names
                    # the variable it declares, which is no type and is not bound
                    # yet (a circular reference; mypy: name not defined).
                    return None
        if hit is not None:
            return hit
        mod_scope = scope
        while mod_scope.parent is not None:
            mod_scope = mod_scope.parent
        # `from m import *` in the module.
        for star in mod_scope.table.star_imports:
            target = self.program.get_module(star)
            if target is not None and self.program._star_exported(target, name):
                star_sym = self.program.lookup_in_module(target, name)
                if star_sym is not None:
                    return star_sym, self.module_scope(target)
        modules = self.program.modules  # (get_module's hit, written out: most names read are builtins)
        builtins = modules["builtins"] if "builtins" in modules else self.program.get_module("builtins")
        if builtins is not None and scope.module is not builtins and name in builtins.symbols:
            if not name.startswith("_") or name.startswith("__"):
                return builtins.symbols[name], self.module_scope(builtins)
        return None

    # -- references ---------------------------------------------------------

    def resolve_symbol(self, sym: Symbol, scope: Scope, depth: int = 0) -> Ref:
        """Follow imports to what `sym` finally names."""
        if depth > 30:
            return Ref("missing")
        if sym.kind == S.MODULE_REF or sym.kind == S.FROM_IMPORT:
            # An import names the same thing every time it is followed (from the
            # same module: a package importing from itself differs), so the chain
            # is walked once. "missing" is not kept: a module being loaded reads as
            # missing until its load finishes.
            hit = sym.cache.get("ref")
            if hit is not None and hit[0] is scope.module:  # type: ignore[index]
                return hit[1]  # type: ignore[index]
            ref = self._resolve_import(sym, scope, depth)
            if ref.kind != "missing":
                sym.cache["ref"] = (scope.module, ref)
            return ref
        # A symbol of any other kind is its own reference, made once per scope
        # (131k references were made for the names read on the bench corpus).
        # Pure: the fields below are the scope's and the symbol's, fixed, and
        # a class symbol has one ClassInfo for good (class_info_of).
        # Only a module's or class's: the reference holds the symbol, a cycle,
        # and a function's symbols must go with its released body (a one-shot
        # run has no cyclic collector); modules and classes live for the run.
        if scope.kind == "function":
            return self._own_ref(sym, scope)
        hit = sym.cache.get("self_ref")
        if hit is not None and hit[0] is scope:  # type: ignore[index]
            return hit[1]  # type: ignore[index]
        ref = self._own_ref(sym, scope)
        sym.cache["self_ref"] = (scope, ref)
        return ref

    def _own_ref(self, sym: Symbol, scope: Scope) -> Ref:
        fullname = f"{scope.fullname}.{sym.name}"
        if scope.kind == "module" and scope.module.name in TYPING:
            special = special_name(fullname)
            if special is not None:
                return Ref("special", f"typing.{special}", sym=sym, scope=scope)
        if sym.kind == S.CLASS:
            info = self.class_info_of(sym, scope)
            return Ref("class", info.fullname, sym=sym, scope=scope, info=info)
        return Ref("symbol", fullname, sym=sym, scope=scope)

    def symbol_value_type(self, sym: Symbol, scope: Scope) -> Type:
        """`ref_value_type(resolve_symbol(sym, scope))`, without making the Ref
        for a plain variable or function (most names read): for one of those
        outside the typing modules that is `symbol_type` (see resolve_symbol)."""
        kind = sym.kind
        if kind == S.CLASS:
            # A class name read again (most class names are read many times): its
            # class object as kept on its ClassInfo, which is what the reference
            # below gives (`_own_ref`: class_info_of, `ref_value_type`: class_object_type)
            # where the symbol made that info, which is still the evaluator's for its
            # node (the engine drops a forgotten module's), outside the typing modules
            # (whose names may be special forms). Narrowing never applies here: the
            # flow is read before a name's symbol is.
            info = sym.cache.get("class_info")
            if info is not None:
                t = info.class_object  # type: ignore[attr-defined]
                if t is not None and self._classes.get(id(info.node)) is info and not (  # type: ignore[attr-defined]
                        scope.kind == "module" and scope.module.name in TYPING):
                    return t  # type: ignore[no-any-return]
        elif kind == S.FROM_IMPORT or kind == S.MODULE_REF:
            # A class imported by name (`from m import C`), read again: resolve_symbol's
            # kept reference and ref_value_type's class object, looked up directly;
            # a function or variable (`from m import f`), its symbol_type kept; a
            # module (`import os`, `from os import path`), its module object.
            hit = sym.cache.get("ref")
            if hit is not None and hit[0] is scope.module:  # type: ignore[index]
                ref = hit[1]  # type: ignore[index]
                ref_kind = ref.kind
                if ref_kind == "module" and ref.module is not None:
                    return ModuleType(ref.module.name, ref.module)
                if ref_kind == "class" and ref.info is not None and ref.info.class_object is not None:
                    return ref.info.class_object  # type: ignore[no-any-return]
                if ref_kind == "symbol" and ref.sym is not None and ref.scope is not None:
                    cached = ref.sym.cache.get("type")
                    if cached is not None and cached is not SYMBOL_IN_PROGRESS:
                        return cached  # type: ignore[no-any-return]
        if kind == S.MODULE_REF or kind == S.FROM_IMPORT or kind == S.CLASS or (scope.kind == "module" and scope.module.name in TYPING):
            return self.ref_value_type(self.resolve_symbol(sym, scope))
        # symbol_type's cache hit, written out: most names read are evaluated already.
        cached = sym.cache.get("type")
        if cached is not None and cached is not SYMBOL_IN_PROGRESS:
            return cached  # type: ignore[return-value]
        return self.symbol_type(sym, scope)

    def _resolve_import(self, sym: Symbol, scope: Scope, depth: int) -> Ref:
        """`resolve_symbol` of an import: the module or the name it finally names."""
        if sym.kind == S.MODULE_REF:
            mod = self.program.get_module(sym.import_module or "")
            if mod is None:
                return Ref("missing", sym.import_module or "", unimported=True)
            for sub in sym.submodules:
                self.program.get_module(sub)
            return Ref("module", mod.name, module=mod)
        # A from-import.
        mod = self.program.get_module(sym.import_module or "")
        name = sym.import_name or ""
        if mod is None:
            return Ref("missing", f"{sym.import_module}.{name}", unimported=True)
        target = self.program.lookup_in_module(mod, name, from_import=True)
        # `from . import path as _path` inside os/__init__.pyi (followed by
        # `path = _path`) imports the submodule: a package importing from
        # itself reaches the import system, not its own half-built names.
        self_import = mod is scope.module and mod.is_package
        if target is None or self_import or (target.kind == S.MODULE_REF and target.import_module == f"{mod.name}.{name}"):
            submod = self.program.get_module(f"{mod.name}.{name}")
            if submod is not None:
                return Ref("module", submod.name, module=submod)
            if target is None:
                if mod.symbols.get("__getattr__") is not None:
                    return Ref("missing", f"{mod.name}.{name}")
                return Ref("missing", f"{mod.name}.{name}")
        if target is sym:
            return Ref("missing")
        return self.resolve_symbol(target, self.module_scope_of_symbol(mod, target), depth + 1)

    def module_scope_of_symbol(self, mod: "ModuleInfo", sym: Symbol) -> Scope:
        if mod.symbols.get(sym.name) is sym:
            return self.module_scope(mod)
        # Found through a star import: find the module that defines it.
        for star in mod.symbols.star_imports:
            target = self.program.get_module(star)
            if target is not None and self.program.lookup_in_module(target, sym.name) is sym:
                return self.module_scope_of_symbol(target, sym)
        return self.module_scope(mod)

    def resolve_expr(self, node: ast.expr, scope: Scope, for_type: bool = False) -> Ref | None:
        """A Name or dotted Attribute as a reference; None when it is not one."""
        # Exact node classes: ast nodes are never subclassed.
        if type(node) is ast.Name:
            name = node.id
            tp = scope.lookup_type_param(name) if self.type_params_seen else None
            if tp is not None:
                return Ref("typeparam", tp.fullname)
            if for_type and _type_reading_differs(name, scope):
                hit = self._lookup(name, scope, True)  # (not a value's answer, nor kept in `refs`)
                return self.resolve_symbol(*hit) if hit is not None else None
            # A name's reference, kept on the module or class scope it is read
            # in (the same few names are resolved in every annotation: on the
            # bench corpus 8.2k references kept there answer 29k of the 53k
            # names resolved) where both steps' answers are final: the lookup's
            # once kept (`lookup`), the reference's unless "missing" (an import
            # not resolved yet: see resolve_symbol). Not in a function scope: a
            # name there is resolved 1.3 times on average, and a reference to
            # one of its own names would make the scope hold itself (a cycle:
            # see `lookup`).
            refs = scope.refs
            if refs is not None:
                ref = refs.get(name)
                if ref is not None:
                    return ref
            known = scope.known
            if name in known:  # (`lookup`'s first answer, written out: most names were read before)
                kept = known[name]
                hit = (kept, scope) if type(kept) is Symbol else kept  # type: ignore[assignment]
            else:
                hit = self.lookup(name, scope)
            if hit is None:
                return None
            ref = self.resolve_symbol(*hit)
            if ref.kind != "missing" and scope.kind != "function" and name in scope.known:
                if refs is None:
                    refs = scope.refs = {}
                refs[name] = ref
            return ref
        if type(node) is ast.Attribute:
            base = self.resolve_expr(node.value, scope, for_type)
            if base is None:
                return None
            return self.member_ref(base, node.attr)
        return None

    def member_ref(self, base: Ref, attr: str) -> Ref | None:
        if base.kind == "missing":
            return Ref("missing", f"{base.fullname}.{attr}", unimported=base.unimported)
        if base.kind == "module" and base.module is not None:
            # A module's attribute (`os.path`, `t.Optional`, `re.compile`) names the same
            # thing every time it is followed: kept by (module, name) once found (9k
            # followed on the bench corpus, by every dotted annotation and callee) when
            # final: found while no lazy evaluation is in progress (a module being loaded
            # reads as missing meanwhile, and a star import of it as empty), as
            # Members.module_member keeps a module's member types. Dropped with the other
            # member tables when the engine forgets a module.
            refs = self.members.module_refs
            key = (base.module, attr)
            kept = refs.get(key)
            if kept is not None:
                return kept
            sym = self.program.lookup_in_module(base.module, attr, from_import=True)
            if sym is None:
                sub = self.program.get_module(f"{base.module.name}.{attr}")
                if sub is not None:
                    ref = Ref("module", sub.name, module=sub)
                    if not self.lazy_depth:
                        refs[key] = ref
                    return ref
                if base.module.symbols.get("__getattr__") is not None:
                    return Ref("missing", f"{base.module.name}.{attr}")
                return None
            ref = self.resolve_symbol(sym, self.module_scope_of_symbol(base.module, sym))
            if ref.kind != "missing" and not self.lazy_depth:
                refs[key] = ref
            return ref
        if base.kind == "class" and base.info is not None:
            hit = base.info.symbols.get(attr)
            if hit is None:
                return Ref("symbol", f"{base.fullname}.{attr}")
            return self.resolve_symbol(hit, base.info.scope)
        return Ref("symbol", f"{base.fullname}.{attr}")

    # -- classes ------------------------------------------------------------

    def class_info_of(self, sym: Symbol, scope: "Scope | ModuleInfo") -> ClassInfo:
        node = sym.node
        assert isinstance(node, ast.ClassDef)
        info = self._classes.get(id(node))
        if info is None:
            if not isinstance(scope, Scope):
                scope = self.module_scope(scope)
            fullname = f"{scope.fullname}.{node.name}"
            info = ClassInfo(self, node.name, fullname, scope.module, node, scope)
            self._classes[id(node)] = info
            # Keep the node alive as long as the info (ids must stay unique).
            sym.cache["class_info"] = info
        return info

    def named_class(self, fullname: str) -> ClassInfo | None:
        """A class by qualified name (`builtins.int`), or None."""
        if fullname.startswith("typing.") and fullname[7:] in CLASS_ALIASES:
            fullname = CLASS_ALIASES[fullname[7:]]
        cached = self._named.get(fullname)
        if cached is not None:
            return cached
        module, _, name = fullname.rpartition(".")
        mod = self.program.get_module(module)
        if mod is None:
            return None
        sym = mod.symbols.get(name)
        if sym is None or sym.kind != S.CLASS:
            if sym is not None:
                ref = self.resolve_symbol(sym, self.module_scope(mod))
                if ref.kind == "class" and ref.info is not None:
                    self._named[fullname] = ref.info
                    return ref.info
            return None
        info = self.class_info_of(sym, mod)
        self._named[fullname] = info
        return info

    def instance(self, fullname: str, args: tuple[Type, ...] | None = None) -> Type:
        if args is None:
            # `int`, `str`, `list[Any]`: the checker asks for the same few
            # thousands of times. Pure: `named_class` keeps a class once found
            # and a class's type variables never change once computed (a
            # cycle through the bases fixes them to () for good), so the
            # answer for a name never changes once the class is found.
            plain = self._plain_instances.get(fullname)
            if plain is not None:
                return plain
        info = self.named_class(fullname)
        if info is None:
            return ANY_SPECIAL
        if args is None:
            tvs = info.type_vars
            plain = Instance(info, tuple(ANY for _ in tvs)) if tvs else info.no_args_instance()
            self._plain_instances[fullname] = plain
            return plain
        elif len(args) != len(info.type_vars):
            args = tuple(args[i] if i < len(args) else ANY for i in range(len(info.type_vars)))
        return Instance(info, args)

    def builtin(self, name: str, *args: Type) -> Instance:
        if not args:
            # `instance`'s kept answer, by the short name (no "builtins." + name
            # made and hashed for each of the 23k asked on the bench corpus).
            plain = self._plain_builtins.get(name)
            if plain is not None:
                return plain
        else:
            # `instance`'s answer with arguments, for a class found before (`tuple[int,
            # str]`, `dict[str, Any]`: 9.7k asked on the bench corpus): no builtins
            # name is one of named_class's typing aliases.
            info = self._named.get("builtins." + name)
            if info is not None and len(args) == len(info.type_vars):
                return Instance(info, args)
        t = self.instance(f"builtins.{name}", args if args else None)
        assert isinstance(t, Instance), name
        if not args:
            self._plain_builtins[name] = t  # (final: see `instance`)
        return t

    def tuple_of(self, items: list[Type] | tuple[Type, ...]) -> TupleType:
        for item in items:  # (a loop, not `any` over a generator: 5.6k tuples on the bench corpus)
            if type(item) is UnpackType:
                # Items built from a variadic tuple (`(*t, 1)`, `t + u`): normalized (PEP 646).
                info = self.named_class("builtins.tuple")
                if info is not None:
                    return make_tuple(items, info)  # type: ignore[return-value]
                break
        fallback = self.builtin("tuple", join_all(self, [widen_literals(i) for i in items]) if items else ANY)
        return TupleType(tuple(items), fallback)

    def literal(self, value: object) -> LiteralType:
        cls = type(value)
        # One value for each literal asked again (`False`, `0`, `""`: 54k of the
        # 60k asked on the bench corpus are repeats of 16k values): it is made
        # once, hashed once and matched by identity in memo keys. Keyed with the
        # class (`True == 1`); the table is emptied when full, so it never holds
        # more than a few thousand.
        key = (value, cls)
        made = self._literals.get(key)
        if made is not None:
            return made
        # The fallback (`builtins.int`...) is `builtin(name)`, which never changes
        # once found (see `instance`): kept here by the value's class.
        fallbacks = self._literal_fallbacks
        fallback = fallbacks[cls] if cls in fallbacks else None
        if fallback is None:
            fallback = fallbacks[cls] = self.builtin(_LITERAL_CLASSES[cls])
        made = LiteralType(value, fallback)
        if len(self._literals) >= _LITERALS_KEPT:
            self._literals.clear()
        self._literals[key] = made
        return made

    def declared_literal(self, value: object) -> LiteralType:
        """`literal(value)` as a real `Literal[...]` (declared: a variable does not
        widen it). Asked for the few values truthiness splits off (`True`, `False`,
        `0`, `""`, `b""`): each made once (9.3k were made on the bench corpus)."""
        key = (value, type(value))
        made = self._declared_literals.get(key)
        if made is None:
            lit = self.literal(value)
            # (the fields of `dataclasses.replace(lit, declared=True)`, without its generic copy)
            made = self._declared_literals[key] = LiteralType(lit.value, lit.fallback, lit.is_enum, True)
        return made

    def class_bases(self, info: ClassInfo) -> tuple[tuple[Instance, ...], tuple[TypeVarType, ...]]:
        return evaluate_bases(self, info)

    def pep695_params(self, node: ast.AST, owner: str, scope: Scope) -> dict[str, TypeVarType]:
        params = pep695_type_params(self, node, owner, scope)
        if params:
            self.type_params_seen = True
        return params

    def abstract_members(self, info: ClassInfo) -> list[str]:
        return abstract_members(self, info)

    # -- symbol types -------------------------------------------------------

    def symbol_type(self, sym: Symbol, scope: Scope) -> Type:
        """The type of `sym` used as a value, from outside any flow analysis."""
        cached = sym.cache.get("type")
        if cached is SYMBOL_IN_PROGRESS:
            return AnyType("special")
        if cached is not None:
            return cached  # type: ignore[return-value]
        self.program.stats["symbols_evaluated"] += 1
        if sym.kind == S.PARAM:
            # compute_symbol_type's answer for a parameter (55% of the symbols
            # evaluated on the bench corpus), without the lazy-evaluation
            # bracket: reading the scope's parameter types evaluates nothing.
            result = parameter_type(sym, scope)
            sym.cache["type"] = result
            return result
        sym.cache["type"] = SYMBOL_IN_PROGRESS
        # `with self.lazy_evaluation:` written out (see Evaluator.lazy_depth): 7.5k
        # symbols and 12.8k declarations evaluated on the bench corpus.
        self.lazy_depth += 1
        try:
            result = compute_symbol_type(self, sym, scope)
        except RecursionError:
            bounds.hit("recursion limit in a declaration's type", f"{scope.module.path}: {sym.name}")
            result = AnyType("special")
        finally:
            self.lazy_depth -= 1
        sym.cache["type"] = result
        return result

    def declared_type(self, sym: Symbol, scope: Scope) -> Type | None:
        """The declared type of a variable symbol (its annotation), or None."""
        if "declared" in sym.cache:
            return sym.cache["declared"]  # type: ignore[return-value]
        sym.cache["declared"] = None
        self.lazy_depth += 1  # (`with self.lazy_evaluation:` written out, as in symbol_type)
        try:
            result = compute_declared_type(self, sym, scope)
        finally:
            self.lazy_depth -= 1
        sym.cache["declared"] = result
        return result

    def ref_value_type(self, ref: Ref) -> Type:
        """The type of a reference used as an expression value."""
        if ref.kind == "missing":
            return AnyType("special")
        if ref.kind == "module" and ref.module is not None:
            return ModuleType(ref.module.name, ref.module)
        if ref.kind == "class" and ref.info is not None:
            return class_object_type(ref.info)
        if ref.kind == "special":
            name = ref.fullname.rpartition(".")[2]
            if name in CLASS_ALIASES and name != "Type":  # `Type` is a special form object (mypy), not `type`
                info = self.named_class(CLASS_ALIASES[name])
                if info is not None:
                    return class_object_type(info)
            if name in ("TypeVar", "ParamSpec", "TypeVarTuple", "NamedTuple", "NewType", "Any", "TypeAliasType") and ref.sym is not None and ref.scope is not None:
                if ref.sym.kind == S.CLASS:
                    return class_object_type(self.class_info_of(ref.sym, ref.scope))
                return self.symbol_type(ref.sym, ref.scope)
            return SpecialForm(name)
        if ref.kind == "typeparam":
            return AnyType("special")
        if ref.sym is not None and ref.scope is not None:
            return self.symbol_type(ref.sym, ref.scope)
        return AnyType("special")


_LITERAL_CLASSES = {bool: "bool", int: "int", str: "str", bytes: "bytes"}
_LITERALS_KEPT = 4096


def _any_protocol(info: ClassInfo) -> bool:
    # (A loop, not `any()` over a generator, which Python 3.11 makes, resumes
    # and, stopping early, closes by raising GeneratorExit in it.)
    for c in info.mro:
        if c.is_protocol:
            return True
    return False


def _declares_itself(sym: Symbol) -> bool:
    """Whether a class-level variable is only declared (`x: "x"`, no value
    anywhere) and its own annotation mentions its name."""
    if not sym.decls or not all(isinstance(d, ast.AnnAssign) and d.value is None for d in sym.decls):
        return False
    ann = sym.annotation
    if ann is None:
        return False
    for n in ast.walk(ann):
        if isinstance(n, ast.Name) and n.id == sym.name:
            return True
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and re.search(rf"(?<![\w.]){re.escape(sym.name)}(?!\w)", n.value):
            return True
    return False


def _type_reading_differs(name: str, scope: Scope) -> bool:
    """Whether `name` read in a type expression in `scope` may mean other than
    the same name read as a value (Evaluator.lookup and resolve_expr keep a
    type's answers with the value's everywhere else). It may only where a
    class body's own table has it (its methods are no types; a variable there
    may be no type: `_lookup`), the first table a class scope's lookup reads,
    or a `type` statement's value's, which is its parent's; anywhere else
    Scope.lookup passes over every class scope but the first (25k of the 68k
    lookups computed on the bench corpus were in a type expression)."""
    return name in scope.table and (scope.kind == "class" or bool(scope.alias_value))
