"""`functools.singledispatch(f)` called on a function that takes no positional argument.

The decorator form (`@singledispatch` over a `def`) is check/singledispatch_rules';
this is the call form. `singledispatch` dispatches on the type of a call's
first positional argument (Python's docs, functools.singledispatch: "Note that
the dispatch happens on the type of the first argument"), so mypy 2.4.1 rejects
a function with none: `Singledispatch function requires at least one argument`,
or `First argument to singledispatch function must be a positional argument`
(a keyword-only or `**kwargs` first parameter; `*args` will do), both [misc].

mypy reports the error at the function's definition, where it has one, and at
the call otherwise. Followed here only where that place is plain:

- at the call, for a lambda and for the class of a made-up `__init__` that has
  no source: an attrs class (`@define`, `@frozen`, `@attr.s`...) and a
  NamedTuple class (cattrs's `singledispatch(_DispatchNotFound)` over an empty
  `@define` class);
- at the `def` line, for an undecorated function or method written in the
  checked module itself (a bound method counts without its `self`), and for a
  class whose `__init__` is one.

Elsewhere mypy names the line of a definition in another file (a stdlib
dataclass's or a plain class's `object.__init__` at a line of builtins.pyi,
another module's function) under the checked file's path: not followed.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import KW_ONLY, VAR_KW, CallableType, Instance, TypeType

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator

NO_ARGUMENT = "Singledispatch function requires at least one argument"
NOT_POSITIONAL = "First argument to singledispatch function must be a positional argument"

# The class decorators of attrs whose `__init__` is made up (no source line).
_ATTRS_PREFIXES = ("attr.", "attrs.")


def check_singledispatch_call(exprs: "ExprEvaluator", node: ast.Call) -> None:
    """Report `singledispatch(func)` (`node`) where `func` takes no positional argument."""
    if len(node.args) == 1 and not node.keywords:
        func = node.args[0]
    elif not node.args and len(node.keywords) == 1 and node.keywords[0].arg == "func":
        func = node.keywords[0].value
    else:
        return
    if type(func) is ast.Lambda:
        a = func.args
        first = "pos" if a.posonlyargs or a.args or a.vararg else "kw" if a.kwonlyargs or a.kwarg else None
        _report(exprs, node, first)
        return
    t = exprs.infer(func)
    if type(t) is TypeType and type(t.item) is Instance:
        info = t.item.info
        sig = exprs.ev.members.constructor(t)
        if type(sig) is not CallableType:
            return
        if (info.is_namedtuple or any(d.startswith(_ATTRS_PREFIXES) for d in info.decorators)) and "__init__" in info.synthesized:
            _report(exprs, node, first_argument_kind(sig))
            return
        t = sig  # (a written `__init__` of this module: reported at its `def`)
    if type(t) is CallableType and type(t.definition) in (ast.FunctionDef, ast.AsyncFunctionDef):
        definition: ast.FunctionDef | ast.AsyncFunctionDef = t.definition  # type: ignore[assignment]
        if definition.decorator_list or exprs.scope is None or not _in_module(definition, exprs):
            return
        _report(exprs, definition, first_argument_kind(t))


def first_argument_kind(sig: CallableType) -> str | None:
    """"pos" where `sig`'s first parameter takes a positional argument (`*args`
    too), "kw" where it is keyword-only or `**kwargs`, None where it has none."""
    if not sig.params:
        return None
    return "kw" if sig.params[0].kind in (KW_ONLY, VAR_KW) else "pos"


def dispatch_error(first: str | None) -> str | None:
    """mypy's error for a singledispatch function whose first parameter is of
    kind `first` (first_argument_kind), or None."""
    return NO_ARGUMENT if first is None else NOT_POSITIONAL if first == "kw" else None


def _report(exprs: "ExprEvaluator", where: ast.AST, first: str | None) -> None:
    msg = dispatch_error(first)
    if msg is not None:
        exprs.error(where, msg, "misc")


def _in_module(definition: ast.AST, exprs: "ExprEvaluator") -> bool:
    """Whether `definition` is a node of the module being checked."""
    assert exprs.scope is not None
    tree = getattr(exprs.scope.module, "tree", None)
    if tree is None:
        return False
    return any(n is definition for n in ast.walk(tree))
