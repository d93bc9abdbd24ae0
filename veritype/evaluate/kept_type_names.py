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

A name that no scope between the one it is read in and the module binds
(`str` in a class body or a method's body) means there what it means in the
module, so its answer is kept on the module's scope: each class and function
body would otherwise find `str` again (4k of the 11k names not kept yet on the
bench corpus were read in a class body, 2k in a function's).

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


def kept_outside(scope: "Scope", key: str, name: str) -> object | None:
    """The answer kept for `key` (`name`, or "[" and the name of a subscripted
    one) read in `scope` whose own answers (read in place first) have none: the
    module's, where it is the name's home (`_home`). A class body keeps it too,
    where the next question finds it in place."""
    home = _home(scope, name)
    if home is None or home is scope:
        return None
    known = home.__dict__.get(KEPT)
    hit = known.get(key) if known is not None else None
    if hit is not None and scope.kind == "class":
        _put(scope, key, hit)
    return hit


def keep_plain_class(ev: "Evaluator", name: str, info: "ClassInfo", scope: "Scope") -> Instance:
    """The instance of `info` (no type variables), named `name` in `scope`: kept when final."""
    inst = info.no_args_instance()
    if "type_vars" in info.__dict__:
        _keep(ev, scope, name, name, inst)
    return inst


def head_ref(ev: "Evaluator", head: ast.Name, scope: "Scope") -> "Ref | None":
    """The reference of a subscripted name not kept yet, as `Evaluator.resolve_expr`
    gives it for a type; kept when final."""
    ref = ev.resolve_expr(head, scope, True)
    if ref is not None and (ref.kind == "class" or ref.kind == "special"):
        _keep(ev, scope, "[" + head.id, head.id, ref)
    return ref


def _home(scope: "Scope", name: str) -> "Scope | None":
    """The scope whose kept answers serve `name` read in `scope`: the module's
    when no scope on the way binds the name (as `Scope.lookup` walks: the first
    scope, then enclosing functions; a `type` statement's value shares its
    parent's table), `scope` itself when it is a class body binding it, else
    None (a function's names are not kept)."""
    s: Scope | None = scope
    while s is not None:
        if s.kind == "module":
            return s
        if s.alias_value:
            return None
        if (s is scope or s.kind != "class") and name in s.table:
            return s if s is scope and s.kind == "class" else None
        s = s.parent
    return None


def _keep(ev: "Evaluator", scope: "Scope", key: str, name: str, value: object) -> None:
    if ev.type_params_seen:
        return
    home = _home(scope, name)
    if home is None or (ev.lazy_depth and home.module.symbols.star_imports):
        return
    _put(home, key, value)
    if home is not scope and scope.kind == "class":
        _put(scope, key, value)


def _put(scope: "Scope", key: str, value: object) -> None:
    known = scope.__dict__.get(KEPT)
    if known is None:
        known = scope.__dict__[KEPT] = {}
    known[key] = value
