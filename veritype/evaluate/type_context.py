"""The context a type expression is evaluated in: its scope, the type variables bound so
far, what the place allows (qualifiers, Self, unpacking, P.args) and where errors go.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from veritype.evaluate.scopes import Scope
from veritype.types.model import Type, TypeVarType

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo

# Where a type expression's errors go: (node, message, code). A message under
# the code "note" is a note on the error reported just before it.
Reporter = Callable[[ast.AST, str, str], None]

# mypy's notes after its "... is not valid as a type" errors.
VARIABLE_NOTE = "See https://mypy.readthedocs.io/en/stable/common_issues.html#variables-vs-type-aliases"
CALLABLE_NOTE = 'Perhaps you need "Callable[...]" or a callback protocol?'


class KeptReports:
    """A reporter that keeps the messages of a signature built before its def is
    checked, for the checker to take then (see functions.function_type). It
    defers the bound checks of type arguments (`bounds_deferred`): one made
    during a lazy evaluation may answer otherwise than it will at the check."""

    __slots__ = ("messages", "bounds_deferred")

    def __init__(self) -> None:
        self.messages: list[tuple[ast.AST, str, str]] = []
        self.bounds_deferred = False

    def __call__(self, at: ast.AST, msg: str, code: str) -> None:
        self.messages.append((at, msg, code))


@dataclass(init=False, slots=True)
class TypeContext:
    """(Made 11k times on the bench corpus, once per signature, declaration and
    annotated assignment: slotted, with an `__init__` that sets each field
    without the dataclass-made one's test of each factory field against its
    sentinel. The fields, their order and defaults are the dataclass's, so
    `dataclasses.replace` is unchanged.)"""

    scope: Scope
    # Free type variables met are bound to this owner (a function or class).
    bind_to: str | None = None
    bound: dict[str, TypeVarType] = field(default_factory=dict)
    report: Reporter | None = None
    # Qualifiers seen at the top (Final, ClassVar, Required, NotRequired, ReadOnly, InitVar).
    qualifiers: set[str] = field(default_factory=set)
    allow_qualifiers: bool = False
    # The class whose `Self` this is, when Self is allowed.
    self_class: ClassInfo | None = None
    disallow_any_generics: bool = False
    # The value of a type alias: a bare generic class there is allowed (`A = list`, as mypy).
    alias_value: bool = False
    # Variables bound in an enclosing class or function.
    outer: dict[str, TypeVarType] | None = None
    # Set when the expression is a TypeGuard[...] / TypeIs[...] return annotation.
    guard: tuple[str, Type] | None = None
    # The return node of a `Callable[[...], R]` being evaluated: a TypeGuard/TypeIs
    # there is the callable's guard, as on a def (spec, "TypeIs ... is also valid
    # as the return type of a callable").
    guard_node: ast.expr | None = None
    in_string: bool = False
    # "*" or "**" while evaluating the annotation of `*args` / `**kwargs`: the only
    # places `P.args` / `P.kwargs` may appear (spec, "The components of a ParamSpec").
    star: str | None = None
    # A TypeVarTuple may be named bare here (it is being unpacked, or listed in Generic[...]).
    unpacking: bool = False
    # The annotation of `*args`, where `*Ts` / `*tuple[...]` / `Unpack[...]` is allowed.
    star_param: bool = False

    def __init__(
        self, scope: Scope, bind_to: str | None = None, bound: dict[str, TypeVarType] | None = None,
        report: Reporter | None = None, qualifiers: set[str] | None = None, allow_qualifiers: bool = False,
        self_class: ClassInfo | None = None, disallow_any_generics: bool = False, alias_value: bool = False,
        outer: dict[str, TypeVarType] | None = None, guard: tuple[str, Type] | None = None,
        guard_node: ast.expr | None = None, in_string: bool = False, star: str | None = None,
        unpacking: bool = False, star_param: bool = False,
    ) -> None:
        self.scope = scope
        self.bind_to = bind_to
        self.bound = {} if bound is None else bound
        self.report = report
        self.qualifiers = set() if qualifiers is None else qualifiers
        self.allow_qualifiers = allow_qualifiers
        self.self_class = self_class
        self.disallow_any_generics = disallow_any_generics
        self.alias_value = alias_value
        self.outer = outer
        self.guard = guard
        self.guard_node = guard_node
        self.in_string = in_string
        self.star = star
        self.unpacking = unpacking
        self.star_param = star_param


def unpacking(ctx: TypeContext) -> TypeContext:
    """The context for X of `*X`: a bare TypeVarTuple is what is expected there.
    (The copy shares `bound` and `qualifiers` with `ctx`.)"""
    if ctx.unpacking and not ctx.star_param:
        return ctx
    return replace(ctx, unpacking=True, star_param=False)
