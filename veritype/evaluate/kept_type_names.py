"""Names in type expressions whose answers are kept on their scope once final.

The signatures and annotations of a module or class body name the same
classes and forms again and again (`str`, `int`, `list[...]`, `Optional[...]`,
the project's own classes: 11.6k repeats of a name in one scope on the bench
corpus, 23.2k names in all), each time a walk of the scope chain
(Evaluator.lookup keeps no answer for types), a reference and the branches of
`TypeExprEvaluator._from_ref`, for the same answer, which reports nothing.
Two answers are kept here, in one dict on the scope: a class without type
variables named bare (its instance, by the name), and the reference of a
subscripted name that is a class or a special form (by "[" and the name).

Kept only when final: in a module's or class's scope (a function's scopes go
with their released bodies), no PEP 695 type parameter seen in the run (one
could shadow the name; tested again on reading), and a look-up that cannot
change: no lazy evaluation in progress, or no star import in the module (a
star-imported module being loaded reads as missing, and builtins would
answer instead). A class's instance is kept once its bases are (its type
variables final). The engine drops an edited module's scopes and those of
the modules importing it, and these answers with them.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import Instance

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator, Ref
    from veritype.evaluate.scopes import Scope

KEPT = "_vt_type_names"  # the dict's attribute on a Scope (read in place by type_expr)


def keep_plain_class(ev: "Evaluator", name: str, info: "ClassInfo", scope: "Scope") -> Instance:
    """The instance of `info` (no type variables), named `name` in `scope`: kept when final."""
    inst = info.no_args_instance()
    if "type_vars" in info.__dict__:
        _keep(ev, scope, name, inst)
    return inst


def head_ref(ev: "Evaluator", head: ast.Name, scope: "Scope") -> "Ref | None":
    """The reference of a subscripted name not kept yet, as `Evaluator.resolve_expr`
    gives it for a type; kept when final."""
    ref = ev.resolve_expr(head, scope, True)
    if ref is not None and (ref.kind == "class" or ref.kind == "special"):
        _keep(ev, scope, "[" + head.id, ref)
    return ref


def _keep(ev: "Evaluator", scope: "Scope", key: str, value: object) -> None:
    if scope.kind == "function" or scope.alias_value or ev.type_params_seen or (ev.lazy_depth and scope.module.symbols.star_imports):
        return
    known = scope.__dict__.get(KEPT)
    if known is None:
        known = scope.__dict__[KEPT] = {}
    known[key] = value
