"""mypy's optional `mutable-override`: a mutable attribute overridden covariantly.

The spec ("Class and instance variables") allows a subclass to narrow an
attribute's declared type, and mypy does too by default; that is unsound for
a mutable attribute (code written for the base may store a `float` where the
subclass promised `int`). With the code enabled, mypy 2.4.1 reports an
override whose type is a proper subtype of a writable base declaration (a
variable that is not Final, or a property with a setter): `Covariant
override of a mutable attribute (base class "A" defined the type as "float",
expression has type "int")`, at the assigned value when there is one, else
at the declaration. A read-only property in the base, or a field of a frozen
dataclass, may be narrowed.
check.attribute_overrides finds the pairs it compares.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.format import format_pair
from veritype.types.model import Type
from veritype.types.subtype import is_subtype

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


def check_covariant_override(checker: "ModuleChecker", stmt: ast.AnnAssign | ast.Assign, base: "ClassInfo", name: str, own: Type, base_t: Type) -> None:
    """`own` (assignable to `base_t`, the type `base` declares `name` with) must be
    equivalent to it where the base's attribute can be written."""
    from veritype.evaluate.dataclasses import frozen_field_owner

    if is_subtype(checker.ev, base_t, own) or frozen_field_owner(base, name) is not None:
        return  # equivalent, or a frozen dataclass's field (read-only)
    base_name = base.name
    at = stmt.value if stmt.value is not None else stmt
    b, s = format_pair(base_t, own)
    checker.error(at, f'Covariant override of a mutable attribute (base class "{base_name}" defined the type as "{b}", expression has type "{s}")', "mutable-override")
