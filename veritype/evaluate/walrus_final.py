"""A walrus whose target is declared Final: `(x := v)` re-assigns a final name
(spec, "Final": a final name "cannot be re-assigned"; mypy's message)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


def check_final_target(exprs: "ExprEvaluator", target: ast.Name) -> None:
    """Report `target` if the variable it names is declared Final."""
    # (Imported here: declarations imports expressions; a walrus is rare.)
    from veritype.evaluate.declarations import qualifiers
    from veritype.semantic.symbols import VAR

    hit = exprs.ev.lookup(target.id, exprs.scope) if exprs.scope is not None else None
    if hit is None or hit[0].kind != VAR or hit[0].is_instance_attr:
        return
    if "Final" in qualifiers(exprs.ev, *hit):
        exprs.error(target, f'Cannot assign to final name "{target.id}"', "misc")
