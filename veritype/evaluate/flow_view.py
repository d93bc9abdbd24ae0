"""What expression inference sees of flow analysis (`FlowView`), and the flow-less view (`NullFlow`).

The checker's `check.flow.Flow` is the view while a body is walked; lazy
inference of declarations has no flow (`NullFlow`); narrowing asks its
questions through a read-only view (`narrowing._ReadOnlyFlow`).
"""

from __future__ import annotations

import ast
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Protocol

from veritype.types.model import Type

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator


class FlowView(Protocol):
    """What expression inference needs of flow analysis: a name's (or a member
    chain's, `a.b`) narrowed type, and binding one (walrus targets). The
    checker's `check.flow.Flow` is one; `NullFlow` is the flow-less one."""

    # The scope's possibly-undefined tracking (check.possibly_undefined), or
    # None; read by `_Name` for every name. (Any: evaluate does not import check.)
    undefined: Any

    def lookup(self, key: str) -> Type | None: ...

    def may_hold_members(self) -> bool:
        """Whether a member key (`x.attr`, `x[0]`) may have a narrowed type now:
        if not, reading an attribute or an item need not make its key."""
        ...

    def bind(self, key: str, t: Type) -> None: ...


class NullFlow:
    """No flow analysis: names have their declared types."""

    undefined = None  # no possibly-undefined tracking (read by `_Name` for every name)

    def lookup(self, key: str) -> Type | None:
        return None

    def may_hold_members(self) -> bool:
        return False

    @contextmanager
    def condition(self, ev: "ExprEvaluator", test: ast.expr, positive: bool) -> Iterator[None]:
        yield

    def bind(self, key: str, t: Type) -> None:
        pass
