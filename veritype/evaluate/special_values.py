"""Special forms used as values: what a `typing._SpecialForm` object can do.

Typing spec, "Type expressions" vs "value expressions": `Callable`,
`Annotated[int, ""]`, `Type[Any]` and the like are objects of an opaque type at
run time, not classes. "Annotated is not type compatible with type or
type[T]", and "An attempt to call Annotated (whether parameterized or not)
should be treated as a type error". mypy types every such value as
`typing._SpecialForm` (shown "<typing special form>"): not a `type[...]`, not
callable, with only that class's attributes. veritype does the same for the
special forms named here; the rest of a special form's uses stay silent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.types.model import AnyType, Instance, SpecialForm, Type

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

SHOWN = "<typing special form>"
# Special forms no program calls (the runtime raises TypeError); TypeForm(x) is
# a call PEP 747 allows, and the classes behind NamedTuple, TypedDict, NewType,
# TypeVar... are not SpecialForm values at all.
NOT_CALLABLE = frozenset({
    "Annotated", "Union", "Optional", "Literal", "Callable", "ClassVar", "Final", "Required", "NotRequired",
    "ReadOnly", "Concatenate", "TypeGuard", "TypeIs", "Unpack", "Never", "NoReturn", "Self", "LiteralString",
    "TypeAlias", "Type",
})

# Special forms whose subscription is still a special form object as a value
# (mypy reveals `typing._SpecialForm` for `Union[int, str]`, `Optional[int]`,
# `Type[int]`).
SUBSCRIBED_OPAQUE = frozenset({"Annotated", "Union", "Optional", "Type"})


def subscribed_type_value(ev: "Evaluator") -> Type:
    """`type[int]` used as a value: subscripting the class `type` makes a
    `types.GenericAlias` at run time (mypy reveals `types.GenericAlias`), not a
    class object; `Type[int]` is a special form object (SUBSCRIBED_OPAQUE)."""
    alias = ev.instance("types.GenericAlias")
    return alias if isinstance(alias, Instance) else AnyType("special")


def special_form_member(ev: "Evaluator", name: str) -> Type | None:
    """The attribute `name` of a special form object (None: it has none)."""
    inst = ev.instance("typing._SpecialForm")
    if not isinstance(inst, Instance):
        return None
    return ev.bound_member(inst, name)


def not_callable(t: Type) -> bool:
    return isinstance(t, SpecialForm) and t.name in NOT_CALLABLE


def alias_special_form(ev: "Evaluator", target: Type, value: object, scope: object) -> Type | None:
    """The value of an alias to `type[X]` written with a special form or `type`
    (`A = Type`, `A = Type[Any]`, `A = type[Any]`): a special form object, as
    mypy has it (not `type[X]`: subscripting `type` makes a GenericAlias)."""
    import ast

    from veritype.types.model import TypeType

    if not isinstance(target, TypeType) or not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript)):
        return None
    head = value.value if isinstance(value, ast.Subscript) else value
    if not isinstance(head, (ast.Name, ast.Attribute)):
        return None
    ref = ev.resolve_expr(head, scope)  # type: ignore[arg-type]
    if ref is None:
        return None
    if ref.kind == "special" and ref.fullname.rpartition(".")[2] == "Type":
        return SpecialForm("Type")
    if isinstance(value, ast.Subscript) and ref.fullname == "builtins.type":
        return SpecialForm("Type")
    return None
