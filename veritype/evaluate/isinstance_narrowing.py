"""isinstance/issubclass narrowing: the classes a classinfo argument names (classes,
tuples, unions, literal class lists), and the part of a type that is (or is not) an
instance of them, including type variables, generic specialisation and callable().
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.alias_ref import has_top_ref
from veritype.types.model import AnyType, CallableType, Instance, NeverType, NoneType, Overloaded, TupleType, Type, TypeType, TypeVarType, UnpackType, make_union, union_items
from veritype.types.subtype import is_subtype
from veritype.evaluate.disjoint_bases import can_share_disjoint_base
from veritype.types.model import TypedDictType

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.scopes import Scope


def classinfo_arg(ev: "Evaluator", silent: object, node: ast.expr) -> list[Type] | None:
    """The classes of isinstance's second argument; `int | str` (PEP 604,
    3.10+) is read operand by operand, as its value is a types.UnionType."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = classinfo_arg(ev, silent, node.left)
        right = classinfo_arg(ev, silent, node.right)
        if left is None or right is None:
            return None
        return left + right
    if type(node) is ast.Tuple and not _holds_starred(node.elts):  # type: ignore[attr-defined]
        # A tuple display's classes are its items' (`_class_list` of the tuple type
        # its inference makes reads the union of its items): each is inferred, no
        # tuple type is built (its fallback joins the items: 910 tuples on the
        # bench corpus cost 47 us each, a class name 4 us).
        items = [silent.infer(e) for e in node.elts]  # type: ignore[attr-defined]
        for i in items:  # (a loop, not `any()` over a generator)
            if type(i) is UnpackType:
                break  # (a variadic tuple: as below)
        else:
            return _class_list(ev, make_union(items))
    t = silent.infer(node)  # type: ignore[attr-defined]
    if isinstance(t, NoneType):
        t = TypeType(NoneType())  # `int | None`: None stands for its class
    return _class_list(ev, t)


def literal_classes(ev: "Evaluator", silent: object, scope: "Scope", node: ast.expr, depth: int = 0) -> list[Type]:
    """The classes of isinstance's second argument that are written as classes
    (a class name, `None`, a tuple display or `|` of them)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return literal_classes(ev, silent, scope, node.left, depth) + literal_classes(ev, silent, scope, node.right, depth)
    if isinstance(node, ast.Tuple):
        return [c for e in node.elts for c in literal_classes(ev, silent, scope, e, depth)]
    if isinstance(node, ast.Constant) and node.value is None:
        return [NoneType()]
    ref = ev.resolve_expr(node, scope) if isinstance(node, (ast.Name, ast.Attribute)) else None
    if ref is not None and ref.kind != "class" and ref.sym is not None and ref.scope is not None and depth < 8:
        # `NUMS = (int, float)` / `Alias = int`, unannotated and assigned once: the
        # classes of its value expression (mypy infers class objects there, exact).
        sym = ref.sym
        value = getattr(sym.node, "value", None)
        if sym.kind == S.VAR and sym.annotation is None and len(sym.decls) == 1 and isinstance(sym.node, ast.Assign) and isinstance(value, (ast.Tuple, ast.Name, ast.Attribute, ast.BinOp)):
            return literal_classes(ev, silent, ref.scope, value, depth + 1)
    if ref is None or ref.kind != "class":
        return []
    return _class_list(ev, silent.infer(node)) or []  # type: ignore[attr-defined]


def _class_list(ev: "Evaluator", t: Type) -> list[Type] | None:
    out: list[Type] = []
    for item in union_items(t):
        if isinstance(item, AnyType):
            out.append(item)
            continue
        if isinstance(item, TypeType):
            if isinstance(item.item, (Instance, AnyType, TypeVarType)):
                inst = item.item
                if isinstance(inst, Instance) and inst.args and all(isinstance(a, AnyType) for a in inst.args):
                    pass
                out.append(inst)
            elif isinstance(item.item, TupleType):
                out.append(item.item.fallback)
            else:
                return None
        elif isinstance(item, TupleType):
            inner = _class_list(ev, make_union(list(item.items)))
            if inner is None:
                return None
            out.extend(inner)
        elif isinstance(item, Instance) and item.info.fullname == "builtins.tuple" and item.args:
            inner = _class_list(ev, item.args[0])
            if inner is None:
                return None
            out.extend(inner)
        elif isinstance(item, Instance) and item.info.fullname == "types.UnionType":
            return None
        else:
            return None
    return out


def _holds_starred(elts: list[ast.expr]) -> bool:
    # (A loop, not `any()` over a generator: asked for each isinstance() narrowed.)
    for e in elts:
        if type(e) is ast.Starred:
            return True
    return False


def narrow_isinstance(ev: "Evaluator", current: Type, classes: list[Type], positive: bool, intersect: bool = True) -> Type:
    if any([isinstance(c, AnyType) for c in classes]):  # (a list: most hold one or two classes)
        # An unknown class: the value may be anything in the positive branch.
        return AnyType("special") if positive else current
    if positive:
        results: list[Type] = []
        plain_meet = False
        for item in union_items(current):
            if isinstance(item, AnyType):
                results.extend(classes)
                continue
            if isinstance(item, TypeVarType) and item.kind in ("typevar", "self") and not item.values:
                narrowed = _narrow_typevar(ev, item, classes)
                if narrowed is not None:
                    results.append(narrowed)
                continue
            for c in classes:
                if is_subtype(ev, item, _erased(c)) or _typeddict_instance_of(ev, item, c):
                    results.append(item)
                    break
            else:
                for c in classes:
                    if is_subtype(ev, c, _erased(item) if isinstance(item, Instance) else item):
                        results.append(_specialize(ev, c, item))
                    elif intersect and _could_overlap(ev, item, c):
                        results.append(c)
                    elif intersect and _plain_intersection(item, c):
                        plain_meet = True
        if not results and plain_meet:
            # Nothing narrows as such, but a class deriving from an item and a tested
            # class can exist: mypy makes `<subclass of "A" and "C">` (only then,
            # conditional_types_with_intersection) and the branch is reachable (a
            # mixin tested on `self`); veritype has no such class: Any is its
            # silent form.
            return AnyType("special")
        return make_union(results) if results else NeverType()
    remaining: list[Type] = []
    for item in union_items(current):
        if isinstance(item, AnyType):
            remaining.append(item)
            continue
        # (A loop, not `any()` over a generator: see solve._infer.)
        matched = False
        for c in classes:
            if is_subtype(ev, item, _erased(c)) or _typeddict_instance_of(ev, item, c):
                matched = True
                break
        if matched:
            continue
        if isinstance(item, TypeVarType) and item.kind in ("typevar", "self") and not item.values and item.upper_bound is not None:
            # `bound=int | str`, not an int: still T, bounded by str (mypy).
            rest = narrow_isinstance(ev, item.upper_bound, classes, False)
            if rest != item.upper_bound:
                remaining.append(with_bound(item, rest))
                continue
        remaining.append(item)
    return make_union(remaining)


def _typeddict_instance_of(ev: "Evaluator", item: Type, cls: Type) -> bool:
    """A TypedDict's value is a `dict` at run time (typing spec, "TypedDict": a
    TypedDict object is "a regular dict"), so `isinstance(td, dict)` holds: the
    positive branch keeps the TypedDict, the negative one rules it out (mypy;
    yarl's `state[0] is None and isinstance(state[1], dict)`)."""

    if not isinstance(item, TypedDictType):
        return False
    return is_subtype(ev, ev.builtin("dict", AnyType("special"), AnyType("special")), _erased(cls))


def _narrow_typevar(ev: "Evaluator", item: TypeVarType, classes: list[Type]) -> Type | None:
    """isinstance(x, C) where x: T: still T, its upper bound met with C (mypy keeps
    the type variable, so the value may be returned as T and used as a C)."""
    bound = item.upper_bound if item.upper_bound is not None else ev.builtin("object")
    if any(is_subtype(ev, bound, _erased(c)) for c in classes):
        return item
    # No intersection with a class outside the bound: mypy makes `<subclass of
    # "A" and "B">` for a plain value, but for a type variable whose bound and C
    # are unrelated (neither a subtype of the other, a protocol bound that C does
    # not satisfy) it finds the branch unreachable (mypy 2.4.1: "Statement is
    # unreachable"), so what the branch does is not checked.
    met = narrow_isinstance(ev, bound, classes, True, intersect=False)
    if isinstance(met, NeverType):
        return None
    return with_bound(item, met)


def with_bound(item: TypeVarType, bound: Type) -> TypeVarType:
    return TypeVarType(item.name, item.fullname, item.scope, bound, item.values, item.variance, item.default, item.kind, narrowed=True)


def _erased(t: Type) -> Type:
    if isinstance(t, Instance) and t.args:
        return Instance(t.info, tuple(AnyType("implicit") for _ in t.args))
    return t


def _specialize(ev: "Evaluator", cls: Type, item: Type) -> Type:
    """isinstance(x, list) where x: Sequence[int] gives list[int] where the mapping is direct."""
    if isinstance(cls, Instance) and isinstance(item, Instance) and cls.args and item.args:
        if len(cls.info.type_vars) == len(item.info.type_vars):
            from veritype.types.subtype import map_instance_to_supertype

            probe = Instance(cls.info, tuple(cls.info.type_vars))
            mapped = map_instance_to_supertype(probe, item.info)
            if mapped is not None and list(mapped.args) == list(cls.info.type_vars):
                if any(has_top_ref(a) for a in item.args):
                    # A recursive alias's own items (`Sequence["Atom"]` narrowed to
                    # tuple): Any, as mypy (which erases the arguments here), so code
                    # that walks such a tree by isinstance checks stays quiet.
                    return cls
                return Instance(cls.info, item.args)
    return cls


def _could_overlap(ev: "Evaluator", item: Type, cls: Type) -> bool:
    """Whether some subclass of both could exist (for narrowing to an intersection)."""
    if isinstance(item, Instance) and isinstance(cls, Instance):
        if item.info.is_final or cls.info.is_final:
            return False
        if item.info.is_protocol or cls.info.is_protocol:
            return True
        # Builtin value types with their own layout do not mix; others might.
        return False
    if isinstance(item, TypeVarType):
        return True
    return False


def _plain_intersection(item: Type, cls: Type) -> bool:
    """Whether a class deriving from both of two unrelated classes can exist:
    neither final, and their disjoint bases compatible (mypy's
    intersect_instances; its MRO and method-signature conflicts are not
    computed, so those pairs count as possible here, which is silent)."""

    if not (isinstance(item, Instance) and isinstance(cls, Instance)):
        return False
    if item.info.is_final or cls.info.is_final:
        return False
    return can_share_disjoint_base([item.info, cls.info])


def is_callable(ev: "Evaluator", t: Type) -> bool:
    if isinstance(t, (CallableType, Overloaded, TypeType)):
        return True
    if isinstance(t, Instance):
        return t.info.get("__call__") is not None
    return False


def maybe_callable(ev: "Evaluator", t: Type) -> bool:
    if is_callable(ev, t) or isinstance(t, (AnyType, TypeVarType)):
        return True
    if isinstance(t, Instance) and (t.info.fullname == "builtins.object" or not t.info.is_final):
        return t.info.fullname not in ("builtins.int", "builtins.str", "builtins.bytes", "builtins.float", "builtins.bool", "builtins.list", "builtins.dict", "builtins.tuple", "builtins.set")
    return False
