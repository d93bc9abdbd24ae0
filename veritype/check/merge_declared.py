"""The declared type of a flow key where branches meet (flow.merge's question).

mypy's binder (`update_from_options`) looks at a variable's declaration when
the branches of an `if`/`try`/loop meet:
- declared Any (annotated `Any`, an unannotated parameter, or an unannotated
  variable first assigned an Any value) and the branches differ: Any;
- otherwise the union of the branches, except that Any items one branch
  brought in are dropped again when the rest is exactly the declared type
  ("Simplify away any extra Any's that were added to the declared type when
  popping a frame"): `t = a.type` (`type | None`), then `if nrb: t = nrb`
  (Any) leaves `t` as `type | None` after the `if`, not `Any | type | None`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from veritype.semantic import symbols as S
from veritype.types.model import AnyType, Type

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker


def merge_declared(mc: "ModuleChecker", key: str) -> Type | None:
    """The declared type of flow key `key` (a plain name), explicit or inferred by
    its first assignment; AnyType for a name declared Any; None when unknown."""
    if not key.isidentifier():
        return None
    hit = mc._local_symbol(key)
    if hit is None:
        return None
    sym, scope = hit
    if sym.kind == S.PARAM:
        # A parameter annotated Any (or unannotated, so Any) is declared Any too.
        # Its other declarations take no part: mypy keeps the Any of an
        # `isinstance(values, <Any>)` branch beside an `elif not isinstance(...):
        # raise` for a parameter (hypothesis `check_sample`) for a reason not
        # modelled here, so the Any stays (a missed error at worst).
        t = scope.param_types.get(sym.name)
        return AnyType("special") if t is None or isinstance(t, AnyType) else None
    d = mc.ev.declared_type(sym, scope)
    if d is not None:
        return d
    return mc.inferred.get(id(sym))
