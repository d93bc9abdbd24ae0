"""Overrides of attributes and properties, and conflicts between base classes.

The typing spec ("Class and instance variables", "Method overrides"): an
attribute redeclared in a subclass must stay assignable to the base's
declaration, and a class inheriting the same name from two unrelated bases
must have compatible definitions (the first along the MRO wins, so it must be
usable as the later one). mypy's rules and messages:

- a variable of a subclass whose type is not assignable to the base's:
  `Incompatible types in assignment (expression has type ..., base class "A"
  defined the type as ...)` [assignment] (mypy allows covariant overrides of
  mutable attributes by default, so do we);
- a read-only property over a writable attribute: `Cannot override writeable
  attribute with read-only property` [override];
- two bases with the same name: methods must be subtypes in MRO order,
  variables must be equivalent: `Definition of "x" in base class "A" is
  incompatible with definition in base class "B"` [misc].

Only what we fully understand is compared: explicitly declared variables,
plain (undecorated, non-overloaded, non-generic, annotated) instance methods and
properties. Dunder and name-mangled names, enums, named tuples, TypedDicts
and classes with an unknown base are skipped.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.diagnostics.enabled import code_enabled
from veritype.evaluate.functions import TRANSPARENT, decorator_names, is_overload, method_kind
from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import AnyType, CallableType, LiteralType, Overloaded, Type, union_items
from veritype.types.subtype import is_subtype, map_instance_to_supertype
from veritype.evaluate.declarations import qualifiers
from veritype.evaluate.expressions import ExprEvaluator
from veritype.types.join import widen_literals

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def _skipped_class(info: "ClassInfo") -> bool:
    # (Loops, not `any()` over generators: asked for each class checked.)
    for c in info.mro:
        if c.has_any_base or c.unknown_decorator:
            return True
    if info.is_enum_class() or info.is_namedtuple or info.is_typeddict:
        return True
    for c in info.mro:
        if c.is_namedtuple or c.is_typeddict:
            return True
    return False


def _skipped_name(name: str) -> bool:
    return name.startswith("__")  # dunders and name-mangled privates


def _func_defs(sym: S.Symbol) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _kind(checker: "ModuleChecker", cls: "ClassInfo", sym: S.Symbol) -> str | None:
    """'var' (declared variable), 'method' (plain instance method), 'ro'/'rw'
    (read-only / settable plain property), or None (anything else: not compared)."""
    ev = checker.ev
    if sym.kind == S.VAR:
        if sym.is_instance_attr and sym.annotation is None:
            return None
        if ev.declared_type(sym, cls.scope) is None:
            return None
        from veritype.evaluate.declarations import qualifiers

        if "Final" in qualifiers(ev, sym, cls.scope):
            return None
        return "var"
    if sym.kind != S.FUNC:
        return None
    defs = _func_defs(sym)
    if not defs:
        return None
    # (Loops, not `any()`/`all()` over generators: asked for each member of each class.)
    for d in defs:
        if is_overload(ev, d, cls.scope):
            return None
    kind = method_kind(ev, defs[0], cls.scope)
    names = [n for d in defs for n in decorator_names(ev, d, cls.scope)]
    if kind == "instance":
        for n in names:
            if n not in TRANSPARENT:
                return None
        return "method"
    if kind != "property":
        return None
    if any(n not in TRANSPARENT and n != "builtins.property" and not n.endswith((".setter", ".getter", ".deleter")) for n in names):
        return None  # cached_property and other descriptors
    has_setter = any(isinstance(dec, ast.Attribute) and dec.attr == "setter" for d in defs for dec in d.decorator_list)
    return "rw" if has_setter else "ro"


def _member_type(checker: "ModuleChecker", info: "ClassInfo", cls: "ClassInfo", name: str) -> Type | None:
    """`name` as declared in `cls`, seen from an instance of `info` (type arguments
    mapped, methods bound); None when unknown or not fully typed."""
    receiver = info.self_instance()
    mapped = map_instance_to_supertype(receiver, cls)
    if mapped is None:
        return None
    t = checker.ev.members.instance_member(mapped, name, receiver)
    if t is None or isinstance(t, AnyType):
        return None
    if isinstance(t, CallableType) and (t.is_untyped or t.type_vars):
        return None
    return t


def check_attribute_overrides(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if _skipped_class(info):
        return
    try:
        _check_own(checker, node, info)
        _check_bases(checker, node, info)
    except RecursionError:
        pass


# -- a subclass's own declarations against its bases ------------------------------


def _check_own(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    seen: set[str] = set()
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = stmt.name
        else:
            continue
        dunder_def = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and name.endswith("__")
        if name in seen or (_skipped_name(name) and not _constant_over_method(stmt, name) and not dunder_def):
            continue
        seen.add(name)
        sym = info.symbols.get(name)
        if sym is None:
            continue
        if dunder_def:
            # A dunder property (`__class__` over object's read-write one); other
            # dunder methods are compared by the method override rule.
            _check_property(checker, stmt, info, sym, name)  # type: ignore[arg-type]
            continue
        if _skipped_name(name):
            assert isinstance(stmt, ast.Assign)
            _check_constant_over_method(checker, stmt, info, sym, name)
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _check_property(checker, stmt, info, sym, name)
            continue
        if _check_final_and_classvar(checker, stmt, info, sym, name):
            continue
        if isinstance(stmt, ast.Assign) and (not isinstance(stmt.value, ast.Constant) or stmt.value.value is Ellipsis):
            # An inferred type we might get wrong without the base as context: not
            # compared for [assignment]; a narrower one is for mutable-override.
            _check_inferred_mutable(checker, stmt, info, sym, name)
            continue
        _check_variable(checker, stmt, info, sym, name)
    _check_annotated_self_attributes(checker, info, seen)


def _check_annotated_self_attributes(checker: "ModuleChecker", info: "ClassInfo", seen: set[str]) -> None:
    """`self.partial: int = ...` in a method, where a base declares `partial: bytes`:
    mypy compares it as a class-body declaration (`Incompatible types in assignment
    (expression has type "int", base class "IncompleteRead" defined the type as
    "bytes")`, checked against mypy 2.4.1; urllib3's InvalidChunkLength)."""
    for name, sym in info.symbols.items():
        if name in seen or _skipped_name(name) or not sym.is_instance_attr or sym.kind != S.VAR:
            continue
        stmt = sym.annotation_node
        if not isinstance(stmt, ast.AnnAssign) or sym.annotation is None or stmt not in sym.decls:
            continue
        if _qualified_in_base(checker, info, name):
            continue  # assigning a base's Final or ClassVar: the attribute-write rules say so
        _check_variable(checker, stmt, info, sym, name)


def _qualified_in_base(checker: "ModuleChecker", info: "ClassInfo", name: str) -> bool:
    for cls, base_sym in _bases_declaring(info, name):
        if base_sym.kind == S.VAR and ({"Final", "ClassVar"} & set(qualifiers(checker.ev, base_sym, cls.scope))):
            return True
    return False


def _check_final_and_classvar(checker: "ModuleChecker", stmt: ast.AnnAssign | ast.Assign, info: "ClassInfo", sym: S.Symbol, name: str) -> bool:
    """A `Final` base attribute redefined, or a class variable swapped for an instance
    variable (or back) (spec, "Type qualifiers": "a type checker should prevent final
    attributes from being overridden in a subclass"; `ClassVar`: mypy's rule). True when something was reported."""

    ev = checker.ev
    for cls, base_sym in _bases_declaring(info, name):
        if base_sym.kind != S.VAR or (base_sym.is_instance_attr and base_sym.annotation is None):
            return False
        base_quals = qualifiers(ev, base_sym, cls.scope)
        if "Final" in base_quals:
            checker.error(stmt, f'Cannot assign to final name "{name}"', "misc")
            return True
        if not isinstance(stmt, ast.AnnAssign) or ev.declared_type(base_sym, cls.scope) is None:
            return False
        own_class = "ClassVar" in qualifiers(ev, sym, info.scope)
        base_class = "ClassVar" in base_quals
        if own_class and not base_class:
            checker.error(stmt, f'Cannot override instance variable (previously declared on base class "{cls.name}") with class variable', "misc")
            return True
        if base_class and not own_class:
            checker.error(stmt, f'Cannot override class variable (previously declared on base class "{cls.name}") with instance variable', "misc")
            return True
        return False
    return False


def _bases_declaring(info: "ClassInfo", name: str, with_object: bool = False):  # type: ignore[no-untyped-def]
    for cls in info.mro[1:]:
        if cls.fullname == "builtins.object" and not with_object:
            continue
        sym = cls.symbols.get(name)
        if sym is not None:
            yield cls, sym


def _check_variable(checker: "ModuleChecker", stmt: ast.AnnAssign | ast.Assign, info: "ClassInfo", sym: S.Symbol, name: str) -> None:
    ev = checker.ev
    if isinstance(stmt, ast.AnnAssign):
        own = ev.declared_type(sym, info.scope)

        if own is None or "Final" in qualifiers(ev, sym, info.scope):
            return
    else:
        if sym.annotation is not None or len(sym.decls) != 1:
            return
        assert isinstance(stmt.value, ast.Constant)

        raw = ExprEvaluator(ev, info.scope).infer(stmt.value)
        own = widen_literals(raw)
    if isinstance(own, AnyType):
        return
    for cls, base_sym in _bases_declaring(info, name):
        kind = _kind(checker, cls, base_sym)
        if base_sym.kind == S.FUNC and kind not in ("ro", "rw") and isinstance(stmt, ast.Assign):
            _check_constant_over_method(checker, stmt, info, sym, name)
            return
        if kind == "method" and isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            _check_declared_over_method(checker, stmt, info, cls, name, own)
            return
        if kind not in ("var", "ro", "rw"):
            return  # a method or something we do not compare: stop at the nearest
        base_t = _member_type(checker, info, cls, name)
        if base_t is None:
            return
        if not is_subtype(ev, own, base_t):
            if isinstance(stmt, ast.Assign) and is_subtype(ev, raw, base_t):
                # mypy infers the value in the base's declared type as context:
                # `lifetime = "test_case"` fits `lifetime: ClassVar[Literal["test_case", ...]]`.
                _check_mutable(checker, stmt, cls, name, kind, raw, base_t)
                return
            # In a Literal context mypy shows the value's literal type.
            shown = raw if isinstance(stmt, ast.Assign) and any(isinstance(i, LiteralType) for i in union_items(base_t)) else own
            _report_incompatible(checker, stmt, shown, base_t, cls)
            return
        _check_mutable(checker, stmt, cls, name, kind, own, base_t)


def _report_incompatible(checker: "ModuleChecker", stmt: ast.stmt, own: Type, base_t: Type, cls: "ClassInfo") -> None:
    """mypy's error for a class-body assignment or declaration whose type does not
    fit what the base class `cls` declared for the name."""
    s, b = format_pair(own, base_t)
    checker.error(stmt, f'Incompatible types in assignment (expression has type "{s}", base class "{cls.name}" defined the type as "{b}")', "assignment")


def _check_declared_over_method(checker: "ModuleChecker", stmt: ast.AnnAssign, info: "ClassInfo", cls: "ClassInfo", name: str, own: Type) -> None:
    """`index: int | str` in a class body over a base's plain method `index`: mypy
    compares the declared type with the method as bound to an instance (`Incompatible
    types in assignment (expression has type "int | str", base class "str" defined the
    type as "Callable[[str, SupportsIndex | None, SupportsIndex | None], int]")`,
    checked against mypy 2.4.1; cattrs's IterableValidationNote). A declared callable
    is left alone: how mypy binds a callable class attribute is not modelled here."""
    if any(isinstance(t, (CallableType, Overloaded)) for t in union_items(own)):
        return
    base_t = _member_type(checker, info, cls, name)
    if not isinstance(base_t, CallableType) or is_subtype(checker.ev, own, base_t):
        return
    _report_incompatible(checker, stmt, own, base_t, cls)


def _check_inferred_mutable(checker: "ModuleChecker", stmt: ast.Assign, info: "ClassInfo", sym: S.Symbol, name: str) -> None:
    """`ConnectionCls = HTTPSConnection` under a base's `ConnectionCls: type[HTTPConnection]`:
    the value's own type, where it is narrower than the base's, is a covariant override."""
    if not code_enabled(checker.options, "mutable-override") or sym.annotation is not None or len(sym.decls) != 1:
        return
    if isinstance(stmt.value, ast.Constant):
        return  # `...`
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.types.join import widen_literals

    own = widen_literals(ExprEvaluator(checker.ev, info.scope).infer(stmt.value))
    if isinstance(own, AnyType):
        return
    for cls, base_sym in _bases_declaring(info, name):
        kind = _kind(checker, cls, base_sym)
        if kind not in ("var", "rw"):
            return
        base_t = _member_type(checker, info, cls, name)
        if base_t is not None and is_subtype(checker.ev, own, base_t):
            _check_mutable(checker, stmt, cls, name, kind, own, base_t)
        return


def _check_mutable(checker: "ModuleChecker", stmt: ast.AnnAssign | ast.Assign, cls: "ClassInfo", name: str, kind: str, own: Type, base_t: Type) -> None:
    if kind in ("var", "rw") and code_enabled(checker.options, "mutable-override"):
        from veritype.check.mutable_override import check_covariant_override

        check_covariant_override(checker, stmt, cls, name, own, base_t)


# Names whose type need not match the base's (mypy's ALLOW_INCOMPATIBLE_OVERRIDE).
_FREE_DUNDERS = ("__slots__", "__deletable__", "__match_args__")


def _constant_over_method(stmt: ast.stmt, name: str) -> bool:
    """`__str__ = None` in a class body: a dunder (not a name-mangled private) given a
    constant, compared with a base's method as mypy does (it checks dunders too)."""
    return (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant)
            and name.startswith("__") and name.endswith("__") and name not in _FREE_DUNDERS)


def _check_constant_over_method(checker: "ModuleChecker", stmt: ast.Assign, info: "ClassInfo", sym: S.Symbol, name: str) -> None:
    """A constant (`None`, a number, a string, `...`) assigned in a class body over a
    method of the nearest base declaring the name: mypy compares it with the method
    as bound to an instance (`base class "B" defined the type as "Callable[[], str]"`)."""
    if sym.annotation is not None or len(sym.decls) != 1 or not isinstance(stmt.value, ast.Constant):
        return
    ev = checker.ev
    # `object` counts here: mypy reports `__hash__ = None` and `__eq__ = None` against it.
    declaring = [(c, c.symbols[name]) for c in info.mro[1:] if name in c.symbols]
    for cls, base_sym in declaring:
        if base_sym.kind != S.FUNC or _kind(checker, cls, base_sym) in ("ro", "rw"):
            return
        defs = _func_defs(base_sym)
        if not defs or method_kind(ev, defs[0], cls.scope) == "property":
            return
        mapped = map_instance_to_supertype(info.self_instance(), cls)
        if mapped is None:
            return
        base_t = ev.members.instance_member(mapped, name, info.self_instance())
        if not isinstance(base_t, (CallableType, Overloaded)):
            return  # a decorator made it something else (or Any)
        from veritype.evaluate.expressions import ExprEvaluator
        from veritype.types.join import widen_literals

        own = widen_literals(ExprEvaluator(ev, info.scope).infer(stmt.value))
        if isinstance(own, AnyType) or is_subtype(ev, own, base_t):
            return
        _report_incompatible(checker, stmt, own, base_t, cls)
        return


def _check_property(checker: "ModuleChecker", fn: ast.FunctionDef | ast.AsyncFunctionDef, info: "ClassInfo", sym: S.Symbol, name: str) -> None:
    own_kind = _kind(checker, info, sym)
    if own_kind not in ("ro", "rw"):
        return
    from veritype.evaluate.declarations import qualifiers

    for cls, base_sym in _bases_declaring(info, name, with_object=True):
        kind = _kind(checker, cls, base_sym)
        if cls.fullname == "builtins.object" and kind not in ("ro", "rw"):
            return  # object's properties only (`__class__`, read-write in typeshed), as mypy
        if kind not in ("var", "ro", "rw"):
            return  # methods are compared by the method override rule
        if kind == "var" and "ClassVar" in qualifiers(checker.ev, base_sym, cls.scope):
            return
        if own_kind == "ro" and kind == "var":
            checker.error(fn, "Cannot override writeable attribute with read-only property", "override")
        elif own_kind == "ro" and kind == "rw":
            checker.error(fn.decorator_list[0] if fn.decorator_list else fn, "Read-only property cannot override read-write property", "misc")
        own_t = _member_type(checker, info, info, name)
        base_t = _member_type(checker, info, cls, name)
        if own_t is not None and base_t is not None and not is_subtype(checker.ev, own_t, base_t):
            # mypy compares the getter's type with the base's (attribute or getter) type.
            checker.error(fn, f'Signature of "{name}" incompatible with supertype "{cls.name}"', "override")
        return


# -- the same name inherited from two bases ------------------------------------------


def _check_bases(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    if len(info.bases) < 2 or info.inconsistent_mro:
        return
    mro = [c for c in info.mro[1:] if c.fullname != "builtins.object"]
    names: list[str] = []
    for cls in mro:
        for name in cls.symbols:
            if name not in names and name not in info.symbols and not _skipped_name(name):
                names.append(name)
    reports: list[tuple[str, str, str]] = []
    for name in names:
        defining = [(c, c.symbols[name]) for c in mro if name in c.symbols]
        first, first_sym = defining[0]
        for second, second_sym in defining[1:]:
            if second in first.mro:
                continue
            problem = _conflict(checker, info, name, first, first_sym, second, second_sym)
            if problem is not None:
                reports.append((name, problem[0], problem[1]))
                break
    for name, msg, code in sorted(reports):
        checker.error(node, msg, code)


def _conflict(checker, info, name, first, first_sym, second, second_sym):  # type: ignore[no-untyped-def]
    k1, k2 = _kind(checker, first, first_sym), _kind(checker, second, second_sym)
    if k1 is None or k2 is None:
        return None
    if k1 == "ro" and k2 == "var":
        return f'Cannot override writeable attribute "{name}" in base "{second.name}" with read-only property in base "{first.name}"', "override"
    t1 = _member_type(checker, info, first, name)
    t2 = _member_type(checker, info, second, name)
    if t1 is None or t2 is None:
        return None
    ev = checker.ev
    if k1 == "method" and k2 == "method":
        if not (isinstance(t1, CallableType) and isinstance(t2, CallableType)):
            return None
        ok = ev.subtype_checker().callable_ok(t1, t2)
    elif k1 == "var" and k2 == "var":
        ok = is_subtype(ev, t1, t2) and is_subtype(ev, t2, t1)
    elif k1 == "var" and k2 in ("ro", "rw"):
        ok = is_subtype(ev, t1, t2)
    else:
        return None
    if ok:
        return None
    return f'Definition of "{name}" in base class "{first.name}" is incompatible with definition in base class "{second.name}"', "misc"
