"""Method overrides: Liskov compatibility, `@final` methods, `@override` (PEP 698).

The typing spec ("Class and instance variables"/"Method overrides"): an
override must be assignable to the overridden method — parameters
contravariant, return covariant. We compare both methods bound to the
subclass's instance, with the base method's type parameters mapped to the
subclass's view of the base. Where we cannot decide (overloads, unknown
decorators, generic methods we cannot explain, properties, class and static
methods), we stay silent. Messages are mypy's.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING
from dataclasses import replace

from veritype.evaluate.functions import CLASSMETHOD, OVERLOAD, STATIC, TRANSPARENT, decorator_names, is_overload, method_kind
from veritype.evaluate.self_binding import bind_self
from veritype.semantic import symbols as S
from veritype.types.format import format_pair
from veritype.types.model import POS_ONLY, POS_OR_KW, AnyType, CallableType, NoneType, Overloaded, TypeType, make_union
from veritype.types.solve import SUPERTYPE, infer_constraints, solve
from veritype.types.substitute import tv_key, type_vars_in
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo

_SKIP = frozenset({"__init__", "__new__", "__init_subclass__", "__post_init__", "__class_getitem__"})
# (Sets: decorator names are tested against them with `isdisjoint`, in C, not
# with `any()` over a generator, made and closed for each method checked.)
_OVERRIDE = frozenset(("typing.override", "typing_extensions.override"))
_FINAL = frozenset(("typing.final", "typing_extensions.final"))


def check_overrides(checker: "ModuleChecker", node: ast.ClassDef, info: "ClassInfo") -> None:
    seen: set[str] = set()
    for stmt in node.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name in seen:
            continue
        seen.add(stmt.name)
        try:
            _check_one(checker, stmt, info)
        except RecursionError:
            pass


def _base_method(info: "ClassInfo", name: str):  # type: ignore[no-untyped-def]
    for cls in info.mro[1:]:
        sym = cls.symbols.get(name)
        if sym is not None:
            return sym, cls
    return None


def _check_one(checker: "ModuleChecker", fn: ast.FunctionDef | ast.AsyncFunctionDef, info: "ClassInfo") -> None:
    ev = checker.ev
    name = fn.name
    scope = info.scope
    sym = info.symbols.get(name)
    if sym is None or sym.kind != S.FUNC:
        return
    # With overloads, the decorators that matter are on any of the definitions.
    names = [n for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in decorator_names(ev, d, scope)]
    hit = _base_method(info, name)
    lenient = False
    for c in info.mro:
        if c.has_any_base:
            lenient = True
            break
    at: ast.AST = fn
    if fn.decorator_list and is_overload(ev, fn, scope):
        at = fn.decorator_list[0]  # an overloaded definition starts at its first decorator (mypy's line)
    if hit is None:
        if not _OVERRIDE.isdisjoint(names) and not lenient:
            checker.error(at, f'Method "{name}" is marked as an override, but no base method was found with this name', "misc")
        return
    base_sym, base_cls = hit
    if base_cls.fullname == "builtins.object" and name in ("__eq__", "__ne__", "__hash__", "__repr__", "__str__"):
        pass
    base_defs = [d for d in base_sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    base_names = [n for d in base_defs for n in decorator_names(ev, d, base_cls.scope)]
    if not _FINAL.isdisjoint(base_names):
        checker.error(at, f'Cannot override final attribute "{name}" (previously declared in base class "{base_cls.name}")', "misc")
        return
    if base_sym.kind == S.FUNC and name not in _SKIP and _OVERRIDE.isdisjoint(names) and not (name.startswith("__") and name.endswith("__") and base_cls.fullname == "builtins.object"):
        checker.error(at, f'Method "{name}" is not using @override but is overriding a method in class "{base_cls.fullname}"', "explicit-override")
    if name in ("__init__", "__new__") and not _OVERRIDE.isdisjoint(names) and not lenient:
        _check_explicit_constructor_override(checker, fn, info, sym, base_sym, base_cls)
        return
    if name in _SKIP or (name.startswith("__") and not name.endswith("__")):
        return
    # Every base in the MRO that defines the method, nearest first (mypy checks each:
    # an intermediate `def f(self, x: Any)` does not hide `A.f(self, x: int)`); the
    # first incompatible one is reported.
    for other in info.mro[1:]:
        other_sym = other.symbols.get(name)
        if other_sym is None:
            continue
        if other_sym.kind != S.FUNC:
            _check_method_over_none(checker, fn, info, sym, names, other_sym, other)
            return  # an attribute in between: not modelled here beyond `None`
        other_defs = [d for d in other_sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not other_defs:
            continue
        other_names = [n for d in other_defs for n in decorator_names(ev, d, other.scope)]
        mark = len(checker.diags)
        _check_signature(checker, fn, info, sym, names, other_sym, other, other_defs, other_names)
        if len(checker.diags) > mark:
            return


def _plain(names: list[str]) -> bool:
    return all(n in TRANSPARENT for n in names)


def _supertype_name(checker: "ModuleChecker", base_cls: "ClassInfo") -> str:
    # mypy names a base of another module by its full name ("typing.Container").
    return base_cls.name if base_cls.module is checker.info else base_cls.fullname


def _check_method_over_none(checker, fn, info, sym, names, base_sym, base_cls) -> None:  # type: ignore[no-untyped-def]
    """`def __hash__(self) -> int` in a subclass of `dict` (typeshed: `__hash__:
    ClassVar[None]`): mypy reports a method over an attribute declared `None`."""
    ev = checker.ev
    if base_sym.kind != S.VAR or base_sym.is_instance_attr or not _plain(names):
        return
    if method_kind(ev, fn, info.scope) != "instance" or any(c.has_any_base for c in info.mro):
        return
    if isinstance(ev.declared_type(base_sym, base_cls.scope), NoneType):
        # mypy's message for a method over an attribute names the base by its short name.
        checker.error(fn, f'Signature of "{fn.name}" incompatible with supertype "{base_cls.name}"', "override")


def _bound(ev, t, kind: str, receiver):  # type: ignore[no-untyped-def]
    """A method as called through an instance: `self` (or `cls`) bound, or as is (static)."""
    if kind == "static":
        return t
    return bind_self(ev, t, TypeType(receiver) if kind == "class" else receiver)


def _check_signature(checker, fn, info, sym, names, base_sym, base_cls, base_defs, base_names) -> None:  # type: ignore[no-untyped-def]
    ev = checker.ev
    name = fn.name
    base_overloaded = any(is_overload(ev, d, base_cls.scope) for d in base_defs)
    kinds = (*CLASSMETHOD, *STATIC)
    if not _plain([n for n in names if n not in kinds and n not in OVERLOAD]) or not _plain([n for n in base_names if n not in OVERLOAD and n not in kinds]):
        return
    sub_overloaded = any(is_overload(ev, d, info.scope) for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)))
    # An overloaded definition starts at its first decorator (mypy's line).
    at = fn.decorator_list[0] if sub_overloaded and fn.decorator_list else fn
    kind = method_kind(ev, fn, info.scope)
    base_kind = method_kind(ev, base_defs[0], base_cls.scope)
    sub_t = ev.symbol_type(sym, info.scope)
    base_t = ev.symbol_type(base_sym, base_cls.scope)
    if isinstance(sub_t, CallableType) and sub_t.is_untyped and not checker.options.check_untyped_defs:
        return  # mypy checks an unannotated override only with check_untyped_defs
    sup = _supertype_name(checker, base_cls)
    if kind == "instance" and base_kind in ("class", "static") and isinstance(sub_t, (CallableType, Overloaded)):
        # mypy: a class or static method overridden by an instance method is
        # incompatible whatever the signatures (not the other way round).
        checker.error(at, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")
        return
    if kind not in ("instance", "class", "static") or base_kind != kind:
        return
    receiver = info.self_instance()
    if sub_overloaded or base_overloaded:
        # mypy: the override must be a subtype of the overridden method: of
        # every item of an overloaded one; an overloaded override through
        # one of its items (veritype ignores the order of the items: lenient).
        if not isinstance(sub_t, (CallableType, Overloaded)) or not isinstance(base_t, (CallableType, Overloaded)):
            return
        if any(i.is_untyped for i in _items(sub_t)) or (sub_overloaded and any(i.is_untyped for i in _items(base_t))):
            return
        base_t = _unrestricted(ev.members._map_to(receiver, base_cls, base_t, receiver))
        if base_t is None:
            return
        sub_b, base_o = _bound(ev, sub_t, kind, receiver), _bound(ev, base_t, kind, receiver)
        if not isinstance(sub_b, (CallableType, Overloaded)) or not isinstance(base_o, (CallableType, Overloaded)):
            return
        if isinstance(sub_b, CallableType) and sub_b.type_vars:
            return
        if not _override_ok_any(ev, sub_b, base_o):
            checker.error(at, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")
        return
    if not isinstance(sub_t, CallableType):
        return
    if not isinstance(base_t, CallableType):
        return
    base_t = ev.members._map_to(receiver, base_cls, base_t, receiver)
    sub_b = _bound(ev, sub_t, kind, receiver)
    base_b = _bound(ev, base_t, kind, receiver)
    if not isinstance(sub_b, CallableType) or not isinstance(base_b, CallableType):
        return
    if _override_ok(ev, sub_b, base_b):
        return
    if sub_b.type_vars or base_b.type_vars:
        if sub_b.type_vars and not _bounds_kept(ev, sub_b, base_b):
            checker.error(fn, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")
        return  # generic methods we could not match otherwise: silent
    if len(sub_b.params) != len(base_b.params) or _min_args(sub_b) != _min_args(base_b):
        # mypy details argument and return types only for signatures of the same
        # length and the same number of required parameters.
        checker.error(fn, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")
        return
    # mypy reports the return type and every argument that does not fit (the
    # Liskov notes once, after the first argument), each where it is written.
    reported = False
    if not is_subtype(ev, sub_b.ret, base_b.ret):
        s, b = format_pair(sub_b.ret, base_b.ret)
        checker.error(fn, f'Return type "{s}" of "{name}" incompatible with return type "{b}" in supertype "{sup}"', "override")
        reported = True
    sub_pos = [p for p in sub_b.params if p.kind in (POS_ONLY, POS_OR_KW)]
    base_pos = [p for p in base_b.params if p.kind in (POS_ONLY, POS_OR_KW)]
    noted = False
    for i, (sp, bp) in enumerate(zip(sub_pos, base_pos)):
        if isinstance(sp.type, AnyType) or isinstance(bp.type, AnyType):
            continue
        if not is_subtype(ev, bp.type, sp.type):
            _, b = format_pair(sp.type, bp.type)
            # Only trivial decorators reach here (@classmethod, @override...): mypy maps the
            # argument to its parameter then too.
            where = _argument_node(fn, i + 1 if kind != "static" else i, sp.name)
            checker.error(where, f'Argument {i + 1} of "{name}" is incompatible with supertype "{sup}"; supertype defines the argument type as "{b}"', "override")
            _silenced_from_def_line(checker, fn)
            if not noted:
                liskov_notes(checker, where, name, info.name)
                noted = True
            reported = True
    if not reported:
        checker.error(fn, f'Signature of "{name}" incompatible with supertype "{sup}"', "override")


def _silenced_from_def_line(checker: "ModuleChecker", fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """An argument's override error, reported on the argument's line, is also
    silenced by a `# type: ignore` on the `def` line (mypy 2.4.1: click's
    `def _clamp(  # type: ignore` over a signature written on the next lines),
    not by one on a decorator or the closing line. The span runs from the
    `def` line to the argument's: an ignore on a line between (another
    parameter's) silences it too, which mypy's would not (rare, and quiet)."""
    diag = checker.diags[-1]
    if fn.lineno < diag.line:
        checker.diags[-1] = replace(diag, ignore_span=(fn.lineno, max(diag.line, diag.ignore_span[1] if diag.ignore_span else diag.line)))


def _min_args(t: CallableType) -> int:
    return sum(1 for p in t.params if p.kind in (POS_ONLY, POS_OR_KW) and not p.has_default)  # mypy: required positional ones


def _argument_node(fn: ast.FunctionDef | ast.AsyncFunctionDef, index: int, name: str | None) -> ast.AST:
    """The parameter mypy puts an argument error on (its column): positional
    parameter `index` of the def, counting `self` as 0; the def if unsure."""
    positional = [*fn.args.posonlyargs, *fn.args.args]
    if index < len(positional) and positional[index].arg == name:
        return positional[index]
    return fn


def liskov_notes(checker: "ModuleChecker", where: ast.AST, name: str, class_name: str) -> None:
    """mypy's notes after an argument incompatible with the supertype's."""
    checker.note(where, "This violates the Liskov substitution principle")
    checker.note(where, "See https://mypy.readthedocs.io/en/stable/common_issues.html#incompatible-overrides")
    if name == "__eq__":
        checker.note(where, 'It is recommended for "__eq__" to work with arbitrary objects, for example:')
        for line in (
            "    def __eq__(self, other: object) -> bool:",
            f"        if not isinstance(other, {class_name}):",
            "            return NotImplemented",
            f"        return <logic to compare two {class_name} instances>",
        ):
            checker.note(where, line)


def _unrestricted(t):  # type: ignore[no-untyped-def]
    """An overloaded base without its items whose `self` is annotated with the
    item's own type variables (typeshed's `MutableMapping.setdefault(self:
    MutableMapping[_KT, _T | None], ...)`): mypy drops such an item when the
    receiver does not fit, which veritype cannot always decide: not compared."""
    from veritype.types.substitute import tv_key, type_vars_in

    if not isinstance(t, Overloaded):
        return t
    keep = []
    for item in t.items:
        own = {tv_key(v) for v in item.type_vars if v.kind != "self"}
        first = item.params[0].type if item.params else None
        if first is not None and own & set(type_vars_in(first)):
            continue
        keep.append(item)
    if not keep:
        return None
    return keep[0] if len(keep) == 1 else Overloaded(tuple(keep), t.name)


def _items(t: "CallableType | Overloaded") -> tuple[CallableType, ...]:
    return t.items if isinstance(t, Overloaded) else (t,)


def _override_ok_any(ev, sub: "CallableType | Overloaded", base: "CallableType | Overloaded") -> bool:  # type: ignore[no-untyped-def]
    """`sub` is a subtype of `base`, overloads item by item (every item of the
    base by some item of the override), positional names as `_override_ok`."""
    for b in _items(base):
        if any(_override_ok(ev, s, b) for s in _items(sub)):
            continue
        # mypy accepts overloads that together cover a plain method taking a
        # union (`(int) -> int` and `(str) -> str` over `(int | str) -> int |
        # str`): items of one shape are compared as one, their types joined.
        # Items of different shapes: not decided here, silent.
        merged = _merged(sub) if isinstance(sub, Overloaded) and not isinstance(base, Overloaded) else None
        if isinstance(sub, Overloaded) and not isinstance(base, Overloaded) and (merged is None or _override_ok(ev, merged, b)):
            continue
        return False
    return True


def _merged(t: Overloaded) -> CallableType | None:
    """The items of `t` as one callable with each parameter's and the return's
    types joined, when all items have the same parameters but for their
    types (no type variables); else None."""
    import dataclasses

    items = t.items
    first = items[0]
    shape = [(p.name, p.kind, p.has_default) for p in first.params]
    if any(i.type_vars for i in items) or any([(p.name, p.kind, p.has_default) for p in i.params] != shape for i in items):
        return None
    params = tuple(dataclasses.replace(p, type=make_union([i.params[k].type for i in items])) for k, p in enumerate(first.params))
    return dataclasses.replace(first, params=params, ret=make_union([i.ret for i in items]))


def _override_ok(ev, sub: CallableType, base: CallableType) -> bool:  # type: ignore[no-untyped-def]
    if sub.type_vars and not _bounds_kept(ev, sub, base):
        return False
    if ev.subtype_checker().callable_ok(sub, base):
        return True
    # Only positional parameter names differ (`encode(self, data)` over
    # `encode(self, input)`): mypy accepts such overrides, and so do we.
    renamed = _base_pos_names(sub, base)
    return renamed is not None and bool(ev.subtype_checker().callable_ok(renamed, base))


def _base_pos_names(sub: CallableType, base: CallableType) -> CallableType | None:
    """`sub` with its leading positional parameters renamed as `base` names them;
    None when a name so given is one `sub` has elsewhere: a call passing that
    argument by name reaches another parameter than a call passing it by
    position (mypy 2.4.1: `f(self, a, c, b=0)` or `f(self, b, a)` over `f(self,
    a, b)` is incompatible; cattrs's `Converter.copy`, whose third parameter is
    not the base's third, `prefer_attrib_converters`)."""
    import dataclasses

    base_pos = [p for p in base.params if p.kind in (POS_ONLY, POS_OR_KW)]
    params = list(sub.params)
    by_name = {p.name: i for i, p in enumerate(params) if p.kind != POS_ONLY and p.name}
    for i, p in enumerate(params[: len(base_pos)]):
        if p.kind not in (POS_ONLY, POS_OR_KW):
            break
        b = base_pos[i]
        if p.name != b.name:
            if b.kind == POS_OR_KW and b.name is not None and by_name.get(b.name, i) != i:
                return None
            params[i] = dataclasses.replace(p, name=b.name)
    return dataclasses.replace(sub, params=tuple(params))


def _bounds_kept(ev, sub: CallableType, base: CallableType) -> bool:  # type: ignore[no-untyped-def]
    """Whether `sub`'s own type variables, solved against `base` as
    `unify_callable` solves them (callable_ok's first step), stay within their
    upper bounds. mypy unifies a generic override with the overridden
    signature and takes a solution outside a bound as no match (mypy 2.4.1:
    `def reg(self, factory: F) -> F` with `F` bound to a one-argument callable
    does not override `reg(self, factory: Callable[[Any, B], H]) ->
    Callable[[Any, B], H]`; cattrs's `Converter.register_structure_hook_factory`).
    A solution or bound that is Any or holds type variables is not judged."""
    targets = {tv_key(v) for v in sub.type_vars}
    cons = []
    for sp, bp in zip([p for p in sub.params if p.kind in (POS_ONLY, POS_OR_KW)], [p for p in base.params if p.kind in (POS_ONLY, POS_OR_KW)]):
        cons += infer_constraints(ev, sp.type, bp.type, SUPERTYPE, targets)
    cons += infer_constraints(ev, sub.ret, base.ret, SUPERTYPE, targets)
    mapping = solve(ev, sub.type_vars, cons)
    for v in sub.type_vars:
        bound = v.upper_bound
        if v.kind != "typevar" or bound is None or v.values or type_vars_in(bound):
            continue
        solved = mapping.get(tv_key(v))
        if solved is None or isinstance(solved, AnyType) or type_vars_in(solved):
            continue
        if not is_subtype(ev, solved, bound):
            return False
    return True


def _check_explicit_constructor_override(checker, fn, info, sym, base_sym, base_cls) -> None:  # type: ignore[no-untyped-def]
    """`@override` on `__init__` / `__new__` (PEP 698: the decorator says the method
    overrides the base's, so it is checked as an override; spec, "Method
    overrides" applies to constructors named this way). Constructors are otherwise
    exempt from the Liskov rule (mypy). The receiver and the return are not compared."""
    import dataclasses

    ev = checker.ev
    if is_overload(ev, fn, info.scope) or any(isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_overload(ev, d, base_cls.scope) for d in base_sym.decls):
        return
    sub_t = ev.symbol_type(sym, info.scope)
    base_t = ev.symbol_type(base_sym, base_cls.scope)
    if not isinstance(sub_t, CallableType) or not isinstance(base_t, CallableType) or sub_t.is_untyped or base_t.is_untyped:
        return
    if not sub_t.params or not base_t.params or any(v.kind != "self" for v in (*sub_t.type_vars, *base_t.type_vars)):
        return
    receiver = info.self_instance()
    base_t = ev.members._map_to(receiver, base_cls, base_t, receiver)
    if not isinstance(base_t, CallableType):
        return
    # `Self` appears only in the receiver and the return, both left out.
    sub_b = dataclasses.replace(sub_t, params=sub_t.params[1:], ret=NoneType(), type_vars=())
    base_b = dataclasses.replace(base_t, params=base_t.params[1:], ret=NoneType(), type_vars=())
    if ev.subtype_checker().callable_ok(sub_b, base_b) or ev.subtype_checker().callable_ok(_base_pos_names(sub_b, base_b), base_b):
        return
    sup = base_cls.name if base_cls.module is checker.info else base_cls.fullname
    checker.error(fn, f'Signature of "{fn.name}" incompatible with supertype "{sup}"', "override")
