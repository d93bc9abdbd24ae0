"""Classes made by a call: `NamedTuple("P", [("x", int)])`, `collections.namedtuple("P", "x y")`,
`TypedDict("TD", {"k": int}, total=False)`.

The spec ("Named Tuples", "Typed dictionaries") gives these functional forms
the same meaning as the class syntax. Like NewType (see `newtype`), each
becomes a `ClassInfo` without a body: a NamedTuple gets a tuple type, a
synthesized `__init__` and its fields as synthesized attributes (all `Any` for
`collections.namedtuple`); a TypedDict gets its `TypedDictType` directly.
A call we cannot read (computed field lists, `rename=True`) makes no class,
so the name stays as it was: silent rather than wrong.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.evaluate.typeddict_calls import TYPEDDICT_NAMES
from veritype.semantic.symbols import Symbol
from veritype.types.model import (
    POS_OR_KW, AnyType, CallableType, Instance, NoneType, Param, TupleType, Type, TypedDictType,
)

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope

_NAMEDTUPLE = ("typing.NamedTuple", "typing_extensions.NamedTuple")
_COLLECTIONS = ("collections.namedtuple",)
# PEP 661: `NAME = Sentinel("NAME")` at module or class level is a type of its own.
_SENTINELS = ("typing_extensions.Sentinel", "typing_extensions.sentinel", "builtins.sentinel")
_ENUMS = ("enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag")
# Keywords of the functional Enum API that do not change the members.
_ENUM_KEYWORDS = frozenset({"module", "qualname", "type", "start", "boundary"})


def functional_class(ev: "Evaluator", sym: Symbol, scope: "Scope") -> "ClassInfo | None":
    """The class a `X = NamedTuple(...)`-style assignment makes, or None."""
    if "functional_class" in sym.cache:
        return sym.cache["functional_class"]  # type: ignore[return-value]
    sym.cache["functional_class"] = None
    if sym.kind != S.VAR or len(sym.decls) != 1:
        return None
    node = sym.node
    if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
        return None
    with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
        info = _from_call(ev, node.value, sym.name, scope)
    sym.cache["functional_class"] = info
    return info


def base_class_from_call(ev: "Evaluator", call: ast.Call, scope: "Scope") -> "ClassInfo | None":
    """`class Url(NamedTuple("Url", [...])): ...`: the class the base call makes
    (one per call node), or None where the call is not one we read."""
    # One class per call node, kept by the evaluator with the node (an id is unique
    # only while its node lives).
    hit = ev.base_calls.get(id(call))
    if hit is not None and hit[0] is call:
        return hit[1]
    first = call.args[0] if call.args else None
    name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
    info = _from_call(ev, call, name, scope) if name else None
    ev.base_calls[id(call)] = (call, info)
    return info


def _from_call(ev: "Evaluator", call: ast.Call, name: str, scope: "Scope") -> "ClassInfo | None":
    if not isinstance(call.func, (ast.Name, ast.Attribute)) or not call.args:
        return None
    first = call.args[0]
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return None
    ref = ev.resolve_expr(call.func, scope)
    if ref is None:
        return None
    info: "ClassInfo | None" = None
    try:
        if ref.fullname in _NAMEDTUPLE:
            fields = _typed_fields(ev, call, scope)
            if fields is not None:
                info = _namedtuple(ev, name, scope, [(n, t, False) for n, t in fields])
        elif ref.fullname in _COLLECTIONS:
            fields2 = _untyped_fields(call)
            if fields2 is not None:
                info = _namedtuple(ev, name, scope, fields2)
        elif ref.fullname in TYPEDDICT_NAMES:
            info = _typeddict(ev, name, scope, call)
        elif ref.fullname in _SENTINELS:
            info = _sentinel(ev, name, scope, call)
        elif ref.fullname in _ENUMS:
            names = _enum_names(call)
            if names is not None:
                info = _new_info(ev, name, scope, ref.fullname)
                if info is not None:
                    info.is_enum = True
                    info.functional_enum_members = names
                    info.functional_enum_values = _enum_values(call)
    except RecursionError:
        info = None
    return info


def _typed_fields(ev: "Evaluator", call: ast.Call, scope: "Scope") -> list[tuple[str, Type]] | None:
    if len(call.args) != 2 or call.keywords:
        return None
    spec = call.args[1]
    if not isinstance(spec, (ast.List, ast.Tuple)):
        return None
    out: list[tuple[str, Type]] = []
    for e in spec.elts:
        if not (isinstance(e, ast.Tuple) and len(e.elts) == 2):
            return None
        name, texpr = e.elts
        field = _static_str(ev, name, scope)
        if field is None:
            return None
        out.append((field, ev.type_exprs.evaluate(texpr, scope)))
    return out


def _static_str(ev: "Evaluator", node: ast.expr, scope: "Scope") -> str | None:
    """A string written as a literal or as a Final name initialized with one (spec,
    "Final": "uses of a final name that was initialized with a literal" are treated
    "as if it was replaced by the literal")."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if not isinstance(node, ast.Name):
        return None
    ref = ev.resolve_expr(node, scope)
    if ref is None or ref.sym is None or ref.scope is None:
        return None
    from veritype.types.model import LiteralType

    t = ev.symbol_type(ref.sym, ref.scope)
    return t.value if isinstance(t, LiteralType) and isinstance(t.value, str) and not t.is_enum else None


def _untyped_fields(call: ast.Call) -> list[tuple[str, Type, bool]] | None:
    if len(call.args) != 2:
        return None
    spec = call.args[1]
    names: list[str] = []
    if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
        names = spec.value.replace(",", " ").split()
    elif isinstance(spec, (ast.List, ast.Tuple)):
        for e in spec.elts:
            if not (isinstance(e, ast.Constant) and isinstance(e.value, str)):
                return None
            names.append(e.value)
    else:
        return None
    n_defaults = 0
    for kw in call.keywords:
        if kw.arg == "defaults":
            n_defaults = len(kw.value.elts) if isinstance(kw.value, (ast.List, ast.Tuple)) else len(names)
        elif kw.arg == "rename" and isinstance(kw.value, ast.Constant) and kw.value.value in (True, False):
            if kw.value.value:
                names = _renamed(names)
        elif kw.arg in ("rename", None):
            return None
    return [(n, AnyType("implicit"), i >= len(names) - n_defaults) for i, n in enumerate(names)]


def _renamed(names: list[str]) -> list[str]:
    """`namedtuple(..., rename=True)`: as at run time, an invalid field name (a keyword,
    not an identifier, starting with an underscore, or repeated) becomes `_<index>`."""
    import keyword

    out: list[str] = []
    for i, n in enumerate(names):
        if not n.isidentifier() or keyword.iskeyword(n) or n.startswith("_") or n in out:
            n = f"_{i}"
        out.append(n)
    return out


def _enum_names(call: ast.Call) -> list[str] | None:
    """Member names of `Enum("E", names)` (spec, "Enumerations": the functional
    syntax takes a space- or comma-separated string, a sequence of names or of
    (name, value) pairs, or a mapping of names to values); None if unreadable."""
    spec: ast.expr | None = call.args[1] if len(call.args) == 2 else None
    for kw in call.keywords:
        if kw.arg == "names" and spec is None and len(call.args) == 1:
            spec = kw.value
        elif kw.arg not in _ENUM_KEYWORDS:
            return None
    if spec is None:
        return None
    keys: list[ast.expr]
    if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
        return spec.value.replace(",", " ").split()
    if isinstance(spec, ast.Dict):
        if any(k is None for k in spec.keys):
            return None
        keys = [k for k in spec.keys if k is not None]
    elif isinstance(spec, (ast.List, ast.Tuple)):
        keys = [e.elts[0] if isinstance(e, ast.Tuple) and len(e.elts) == 2 else e for e in spec.elts]
    else:
        return None
    out: list[str] = []
    for k in keys:
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
            return None
        out.append(k.value)
    return out


def _enum_values(call: ast.Call) -> dict[str, ast.expr]:
    """The values a dict or (name, value)-pairs form spells out."""
    spec = call.args[1] if len(call.args) == 2 else next((k.value for k in call.keywords if k.arg == "names"), None)
    out: dict[str, ast.expr] = {}
    if any(k.arg == "type" for k in call.keywords):
        return out  # a mixin type converts the values
    if isinstance(spec, ast.Dict):
        pairs = list(zip(spec.keys, spec.values))
    elif isinstance(spec, (ast.List, ast.Tuple)):
        pairs = [(e.elts[0], e.elts[1]) for e in spec.elts if isinstance(e, ast.Tuple) and len(e.elts) == 2]
    else:
        return out
    for k, v in pairs:
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            out[k.value] = v
    return out


def _new_info(ev: "Evaluator", name: str, scope: "Scope", base: str) -> "ClassInfo | None":
    from veritype.evaluate.classes import ClassInfo

    base_info = ev.named_class(base)
    if base_info is None:
        return None
    info = ClassInfo(ev, name, f"{scope.fullname}.{name}", scope.module, None, scope)
    info._bases = (Instance(base_info, ()),)
    info._type_vars = ()
    return info


def _namedtuple(ev: "Evaluator", name: str, scope: "Scope", fields: list[tuple[str, Type, bool]]) -> "ClassInfo | None":
    info = _new_info(ev, name, scope, "typing.NamedTuple")
    if info is None:
        return None
    info.is_namedtuple = True
    self_inst = Instance(info, ())
    info._tuple_type = TupleType(tuple(t for _, t, _ in fields), self_inst)
    params = [Param("self", self_inst, POS_OR_KW)] + [Param(n, t, POS_OR_KW, d) for n, t, d in fields]
    info._synthesized["__init__"] = CallableType(tuple(params), NoneType(), name=name)
    for n, t, _ in fields:
        info._synthesized.setdefault(n, t)
    return info


def _typeddict(ev: "Evaluator", name: str, scope: "Scope", call: ast.Call) -> "ClassInfo | None":
    if len(call.args) != 2 or not isinstance(call.args[1], ast.Dict):
        return None
    total = True
    extra: tuple[Type | None, bool] = (None, False)
    for kw in call.keywords:
        if kw.arg == "total" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
            total = kw.value.value
        elif kw.arg == "closed" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, bool):
            if kw.value.value and extra[0] is None:
                from veritype.types.model import NeverType

                extra = (NeverType(), False)
        elif kw.arg == "extra_items":
            from veritype.evaluate.typeddicts import extra_items_type

            extra = extra_items_type(ev, kw.value, scope)
        else:
            return None
    info = _new_info(ev, name, scope, "typing._TypedDict")
    if info is None:
        return None
    info.is_typeddict = True
    from veritype.evaluate.type_expr import TypeContext

    items: list[tuple[str, Type]] = []
    required: set[str] = set()
    readonly: set[str] = set()
    for k, v in zip(call.args[1].keys, call.args[1].values):
        key = _static_str(ev, k, scope) if k is not None else None
        if key is None:
            return None
        ctx = TypeContext(scope, allow_qualifiers=True)
        t = ev.type_exprs.eval(v, ctx)
        items.append((key, t))
        if "Required" in ctx.qualifiers or ("NotRequired" not in ctx.qualifiers and total):
            required.add(key)
        if "ReadOnly" in ctx.qualifiers:
            readonly.add(key)
    info._typeddict = TypedDictType(tuple(items), frozenset(required), frozenset(readonly), Instance(info, ()), *extra)  # type: ignore[attr-defined]
    return info


def _sentinel(ev: "Evaluator", name: str, scope: "Scope", call: ast.Call) -> "ClassInfo | None":
    """Typing spec, "Sentinels": "Sentinel objects may be used in type annotations
    if they are defined using a simple assignment of the form NAME =
    sentinel('NAME') in the global scope or in a class body that is not within a
    function". The sentinel is the one value of a final class of its own; its
    name shows as the variable's (`Cls.NAME` in a class, as mypy)."""
    if scope.kind not in ("module", "class") or len(call.args) != 1 or call.keywords:
        return None
    if scope.kind == "class" and (scope.cls is None or scope.cls.defining_scope is None or scope.cls.defining_scope.kind != "module"):
        return None
    # A subclass of the runtime class, so it still passes where a `Sentinel` is expected.
    base = next((b for b in ("typing_extensions.sentinel", "builtins.sentinel") if ev.named_class(b) is not None), "builtins.object")
    info = _new_info(ev, name, scope, base)
    if info is None:
        return None
    info.is_final = True
    info.is_sentinel = True  # type: ignore[attr-defined]
    if scope.kind == "class" and scope.cls is not None:
        info.name = f"{scope.cls.name}.{name}"
    return info
