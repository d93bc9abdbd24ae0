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
from veritype.syntax.walk import walk as walk_nodes

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
    if sym is not None and sym.kind == S.FROM_IMPORT:
        # A re-exported variable (`from .ssl_ import SSLContext` in a package's
        # `__init__`): mypy checks the write against the variable it names.
        ref = ev.resolve_symbol(sym, ev.module_scope_of_symbol(mod, sym))
        if ref.kind != "symbol" or ref.sym is None or ref.scope is None or ref.scope.kind != "module":
            return None
        sym, mod, name = ref.sym, ref.scope.module, ref.sym.name
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
    if _partial_none(sym, mod.tree):
        # mypy: a module variable only ever assigned None (its imports do not count,
        # they are checked against it) keeps the type None, so `mod.X = v` is checked
        # against it (urllib3's `util.SSLContext = PyOpenSSLContext`). A function's
        # `global X` assignment could complete it: then nothing is enforced.
        return NoneType()
    return _unannotated(ev, sym, scope)


def _partial_none(sym: "Symbol", tree: ast.Module | None) -> bool:
    node = sym.node
    if sym.annotation is not None or sym.type_comment is not None or tree is None:
        return False
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
        return False
    if not (isinstance(node.value, ast.Constant) and node.value.value is None):
        return False
    if not all(isinstance(d, (ast.Import, ast.ImportFrom)) for d in sym.decls[1:]):
        return False
    return not any(isinstance(n, ast.Global) and sym.name in n.names for n in walk_nodes(tree))


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
