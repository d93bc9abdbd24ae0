"""Assignments over a name an import bound to a typing special form.

`try: from typing_extensions import TypedDict as TD / except ImportError:
TD = None`: the name's type is the imported object's, `typing._SpecialForm`
in typeshed (mypy shows "<typing special form>"), and None is not one, so
mypy reports the fallback assignment. typing and typing_extensions are always
found, so unlike other optional imports (inferred_decls.lenient) the try
body's type is certain. Only None is judged: the optional-import fallback.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.special_values import SHOWN
from veritype.semantic import symbols as S
from veritype.types.model import NoneType, SpecialForm, Type

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

# Special forms whose imported name mypy types otherwise (`type[...]`, a class).
_NOT_OPAQUE = frozenset(("Type", "Protocol", "Generic", "NamedTuple"))


def check_special_form_name(checker: "ModuleChecker", target: ast.Name, t: Type, value: ast.expr | None) -> bool:
    """`TD = None` over `from typing_extensions import TypedDict as TD`: reported
    as mypy does. True when reported."""
    if type(t) is not NoneType:
        return False
    hit = checker._local_symbol(target.id)
    if hit is None or hit[0].kind != S.FROM_IMPORT or checker.info.is_stub:
        return False
    form = checker.ev.symbol_type(*hit)
    if type(form) is not SpecialForm or form.name in _NOT_OPAQUE:
        return False
    checker.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "None", variable has type "{SHOWN}")', "assignment")
    return True
