"""Which unannotated assignments in a class or function body make no type alias.

mypy's rule (its docs, "Variables vs type aliases": "Aliases are created by
assignments without an explicit type ... Variables with type `type[...]`
should be created by assignments with an explicit type annotation"), with its
special case for class and function scope: there an assignment of a bare
name or dotted name (`model = Model`, `loc = int`) makes a variable of type
`type[Model]`, so that the common `model = Model` in a class body needs no
annotation. Such a variable used as a type is 'Variable "loc" is not valid as
a type' in mypy, in the function itself or a nested one. A subscripted or `|`
value (`lst = List[int]`, `opt = Optional[int]`) is still an alias there, as
at module scope; so is any value with an explicit `TypeAlias` annotation.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.scopes import Scope


def variable_not_alias(decl: object, scope: "Scope") -> bool:
    """Whether `decl`, the one binding of a name in `scope`, is a class or
    function scope's unannotated `name = <name or dotted name>`: a variable."""
    return (
        type(decl) is ast.Assign
        and scope.kind != "module"
        and not scope.alias_value
        and len(decl.targets) == 1
        and type(decl.value) in (ast.Name, ast.Attribute)
        and decl.type_comment is None
    )
