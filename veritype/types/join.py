"""Joins and meets, for inferring one type from several (list displays, branches).

The join of two types is the wider when one is assignable to the other, and
their union otherwise (like pyright, and mypy's newer inference for
conditional expressions). Literal types of one class join to that class in
containers, since a list display's elements are not literal in use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, LiteralType, NeverType, Type, TupleType, TypeType, UnionType, make_union, NEVER

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator


def join(ev: "Evaluator", a: Type, b: Type) -> Type:
    from veritype.types.subtype import is_subtype

    if isinstance(a, NeverType):
        return b
    if isinstance(b, NeverType):
        return a
    if isinstance(a, AnyType):
        return a
    if isinstance(b, AnyType):
        return b
    if a == b:
        return a
    if is_subtype(ev, a, b) and not isinstance(b, UnionType) or (isinstance(b, UnionType) and is_subtype(ev, a, b)):
        return b
    if is_subtype(ev, b, a):
        return a
    return make_union([a, b])


def join_all(ev: "Evaluator", items: list[Type]) -> Type:
    result: Type = NEVER
    for item in items:
        result = join(ev, result, item)
    return result


def widen_literals(t: Type, *, in_tuples: bool = True, keep_declared: bool = False) -> Type:
    """Literal types inferred for a variable or a display element widen to their class.

    Inside a fixed-length tuple too: `t = (1, "a")` is `tuple[int, str]`, so a
    later `t = (2, "b")` or `[("a", 1)].append(("b", 2))` is accepted. With
    `in_tuples=False` only the top level and a top-level union widen (the
    solver keeps a tuple argument's literal items). With `keep_declared`, literals
    written in a type expression stay (the solver's rule, see `LiteralType.declared`).
    """
    if isinstance(t, LiteralType):
        return t if keep_declared and t.declared else t.fallback
    if isinstance(t, UnionType):
        return make_union([widen_literals(i, in_tuples=in_tuples, keep_declared=keep_declared) for i in t.items])
    if isinstance(t, TupleType) and in_tuples:
        items = tuple(widen_literals(i, keep_declared=keep_declared) for i in t.items)
        if items == t.items:
            return t
        fallback = t.fallback
        if fallback.info.fullname == "builtins.tuple" and fallback.args:
            fallback = Instance(fallback.info, tuple(widen_literals(a) for a in fallback.args))
        return TupleType(items, fallback)
    return t


def meet(ev: "Evaluator", a: Type, b: Type) -> Type:
    """The narrower of two types (for narrowing), or Never when disjoint."""
    from veritype.types.subtype import is_subtype

    if isinstance(a, AnyType):
        return b
    if isinstance(b, AnyType):
        return a
    if is_subtype(ev, a, b):
        return a
    if is_subtype(ev, b, a):
        return b
    if isinstance(a, UnionType):
        return make_union([meet(ev, i, b) for i in a.items])
    if isinstance(b, UnionType):
        return make_union([meet(ev, a, i) for i in b.items])
    return NEVER


def join_display(ev: "Evaluator", items: list[Type]) -> Type:
    """The element type inferred for a display (`[A(), B()]`, `{ast.Add: ...}`).

    Like `join_all`, except that instances (or class objects) of unrelated
    classes sharing a nominal base other than `object` join to that base,
    as mypy users expect: `{ast.Add: "+", ast.Sub: "-"}` is indexed with a
    `type[ast.operator]`, and `[Cat(), Dog()]` accepts a later `Bird()`.
    """
    result = join_all(ev, items)
    if not isinstance(result, UnionType):
        return result
    if any(isinstance(i, UnionType) for i in items):
        # An element that is itself a union (`[impl]` with `impl: A | B`) keeps
        # it: joining to the base is for distinct elements, and widening one
        # element's own type would lose what the variable was declared as.
        return result
    instances = [i for i in result.items if isinstance(i, Instance) and not i.args]
    if len(instances) == len(result.items):
        base = _common_base([i.info for i in instances])
        return Instance(base) if base is not None else result
    classes = [i.item for i in result.items if isinstance(i, TypeType) and isinstance(i.item, Instance) and not i.item.args]
    if len(classes) == len(result.items):
        base = _common_base([c.info for c in classes if isinstance(c, Instance)])
        if base is not None:
            return TypeType(Instance(base))
        # Unrelated classes (`{int: "int", str: "str"}`, indexed with a
        # `type(value)`): plain `type`, as mypy joins them; the spec makes it
        # `type[Any]`, called with any arguments and returning Any.
        return ev.builtin("type")
    return result


def _common_base(infos: "list[ClassInfo]") -> "ClassInfo | None":
    """The first class of the first MRO that every class derives from, unless `object` or generic."""
    mros = [info.mro for info in infos]
    for cand in mros[0]:
        if cand.fullname in ("builtins.object", "typing.Generic", "typing.Protocol"):
            continue
        if all(cand in m for m in mros[1:]):
            return None if cand.type_vars else cand
    return None
