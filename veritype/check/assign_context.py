"""The declared context of an assigned value, where it fixes type arguments to Any.

mypy infers an assigned value in the context of the variable's declared type,
and type variables the context gives as Any are solved to Any first: `y =
defaultdict(lambda: default)` for `y: dict[Any, Any]` (or for `y = {}` that
nothing completed, which mypy types `dict[Any, Any]`) is `defaultdict[Any,
Any]`, so where branches meet it joins back to `dict[Any, Any]` (cattrs's
`cl_to_tag[cl] = tag` after `if default is not NOTHING: cl_to_tag =
defaultdict(lambda: default)`). veritype infers the value on its own; the
narrowed type gets Any for each type argument that stands where the declared
type has Any.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check.var_annotated import empty_display_kind
from veritype.types.model import AnyType, Instance, Type, TypeVarType
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

# (`hit` not given: looked up here.)
_UNKNOWN = object()


def reassigned_empty_display(mc: "ModuleChecker", target: ast.Name, bound: Type, hit: object = _UNKNOWN) -> Type:
    """`bound` for a name first assigned an uncompleted empty display; `hit`: the
    name's symbol and scope where the caller looked them up (`local_symbol`)."""
    empty = _uncompleted_empty_declaration(mc, target, hit)
    if empty is not None and isinstance(bound, Instance) and is_subtype(mc.ev, bound, empty):
        return any_where_declared_any(bound, empty)
    return bound


def _uncompleted_empty_declaration(mc: "ModuleChecker", target: ast.Name, hit: object = _UNKNOWN) -> Instance | None:
    """`list[Any]` / `dict[Any, Any]` / `set[Any]` when `target`'s variable was
    first assigned an empty display that nothing completed (another statement)."""
    if hit is _UNKNOWN:
        hit = mc.ev.lookup(target.id, mc.scope)
    if hit is None:
        return None
    sym, scope = hit  # type: ignore[misc]
    first = sym.node
    if type(first) is not ast.Assign or target in first.targets or empty_display_kind(first.value) is None:
        return None
    t = mc.ev.symbol_type(sym, scope)
    return t if isinstance(t, Instance) and t.args and all(isinstance(a, AnyType) for a in t.args) else None


def any_where_declared_any(v: Instance, declared: Instance) -> Instance:
    """`v` with Any for each of its type arguments that stands where `declared`
    has Any. mypy infers the assigned value in the declared type's context,
    which fixes those type variables to Any first: `y = defaultdict(lambda:
    default)` for `y: dict[Any, Any]` is `defaultdict[Any, Any]`, so after an
    `if` it joins back to `dict[Any, Any]` (cattrs's `cl_to_tag[cl] = tag`)."""
    if not v.args or not any(isinstance(a, AnyType) for a in declared.args):
        return v
    from veritype.types.subtype import map_instance_to_supertype
    from veritype.types.substitute import tv_key

    probe = map_instance_to_supertype(Instance(v.info, tuple(v.info.type_vars)), declared.info)
    if probe is None or len(probe.args) != len(declared.args):
        return v
    anys = {tv_key(p) for p, d in zip(probe.args, declared.args) if isinstance(d, AnyType) and isinstance(p, TypeVarType)}
    if not anys:
        return v
    args = tuple(AnyType("special") if tv_key(tv) in anys else a for tv, a in zip(v.info.type_vars, v.args))
    return Instance(v.info, args) if len(args) == len(v.args) else v
