"""The declared type of a class object's or a module's attribute, for `C.x = v` and `m.x = v`.

mypy checks an assignment to a class variable through the class object
(`A.x = "s"` for `x: int = 0`) and to a module's variable through the module
(`m.X = "s"` for `X: int`, or for an unannotated `X = 1`, whose first
assignment declares `int`) as it checks any assignment: `Incompatible types
in assignment (expression has type "str", variable has type "int")`
[assignment] (checked against mypy 2.4.1; urllib3's
`HTTPConnectionPool.ConnectionCls = ...` and
`urllib3.connection.VerifiedHTTPSConnection = ...`).

Left unenforced, each a missed error rather than a false one: generic
classes and types mentioning type variables, enums, named tuples and
TypedDicts, Final names (their own rule), attributes only `self.x = ...`
declares, descriptors, modules with a `__getattr__`, unannotated names of
stubs, and an unannotated variable that is assigned more than once in its
module or class or whose value is None, an empty display, a callable or
holds Any (where mypy's inference is not modelled exactly).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import AnyType, CallableType, Instance, ModuleType, NoneType, Overloaded, Type, TypeType, UnionType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope
    from veritype.semantic.symbols import Symbol


def object_attribute_declared(ev: "Evaluator", base: Type, name: str) -> Type | None:
    """The type `base.name = v` must match, `base` a class object or a module; None
    when nothing is enforced."""
    if name.startswith("__") and name.endswith("__"):
        return None
    if isinstance(base, TypeType) and isinstance(base.item, Instance):
        return _class_variable(ev, base.item, name)
    if isinstance(base, ModuleType):
        return _module_variable(ev, base, name)
    return None


def _class_variable(ev: "Evaluator", item: Instance, name: str) -> Type | None:
    info = item.info
    if info.type_vars or info.is_enum_class() or info.is_namedtuple or info.is_typeddict:
        return None
    hit = info.get(name)
    if hit is None:
        return None
    sym, cls = hit
    if sym.kind != S.VAR or sym.is_instance_attr or cls.type_vars or cls.is_enum_class():
        return None
    declared = ev.declared_type(sym, cls.scope)
    if declared is None:
        return None if cls.scope is None or cls.node is None else _unannotated(ev, sym, cls.scope)
    from veritype.evaluate.declarations import qualifiers

    if "Final" in qualifiers(ev, sym, cls.scope):
        return None
    return declared if _plain(ev, declared) else None


def _module_variable(ev: "Evaluator", base: ModuleType, name: str) -> Type | None:
    mod = ev.program.get_module(base.name)
    if mod is None or mod.origin == "namespace" or "__getattr__" in mod.symbols:
        return None
    sym = ev.program.lookup_in_module(mod, name, from_import=True)
    if sym is None or sym.kind != S.VAR or sym.is_instance_attr:
        return None
    scope = ev.module_scope_of_symbol(mod, sym)
    declared = ev.declared_type(sym, scope)
    if declared is not None:
        from veritype.evaluate.declarations import qualifiers

        if "Final" in qualifiers(ev, sym, scope):
            return None
        return declared if _plain(ev, declared) else None
    if scope.table.get(name) is not sym or mod.is_stub:
        return None
    return _unannotated(ev, sym, scope)


def _unannotated(ev: "Evaluator", sym: "Symbol", scope: "Scope") -> Type | None:
    """The type the only assignment of an unannotated variable declared (mypy's
    first-assignment rule), where it is plain."""
    if sym.annotation is not None or sym.type_comment is not None:
        return None
    node = sym.node
    if len(sym.decls) != 1 or not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return None
    from veritype.check.var_annotated import empty_display_kind

    if (isinstance(node.value, ast.Constant) and node.value.value is None) or empty_display_kind(node.value) is not None:
        return None
    t = ev.symbol_type(sym, scope)
    if isinstance(t, (AnyType, NoneType, CallableType, Overloaded)):
        return None
    if isinstance(t, UnionType) and any(isinstance(i, (AnyType, CallableType, Overloaded)) for i in t.items):
        return None
    from veritype.check.inferred_decls import _widen_inferred_literals

    t = _widen_inferred_literals(t)
    return t if _plain(ev, t) else None


def _plain(ev: "Evaluator", t: Type) -> bool:
    """No type variables, and no descriptor (its `__set__`/`__get__` is the instance's business)."""
    from veritype.types.substitute import type_vars_in

    if type_vars_in(t):
        return False
    for item in t.items if isinstance(t, UnionType) else (t,):
        if isinstance(item, Instance) and any(c.fullname != "builtins.object" and ("__get__" in c.symbols or "__set__" in c.symbols) for c in item.info.mro):
            return False
    return True
