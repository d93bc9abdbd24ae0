"""Item-level errors for a list/set/dict display, comprehension or generator
expression given a declared type:
assigned to a declared variable (the check stage) or passed for a parameter
(evaluate.calls).

mypy reports `List item 0 has incompatible type "str"; expected "int"`
[list-item] (and `Dict entry 0 has incompatible type "str": "str"; expected
"str": "int"` [dict-item]) instead of a whole-assignment error when the value
is a display literal and the declared type is list/set/dict or a base of it
with the same type arguments (`Sequence[int]`, `Mapping[str, int]`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from veritype.types.format import format_pair, format_type
from veritype.types.alias_ref import expand_top
from veritype.types.model import AnyType, Instance, Type, UnionType
from veritype.types.subtype import is_subtype, map_instance_to_supertype

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

Infer = Callable[[ast.expr, Type], Type]  # an expression's type in a context
Report = Callable[[ast.AST, str, str], None]  # node, message, code

_SEQ = {ast.List: ("builtins.list", "List"), ast.Set: ("builtins.set", "Set")}
_COMPS = {ast.ListComp: ("builtins.list", "List"), ast.SetComp: ("builtins.set", "Set")}


def report_display_items(ev: "Evaluator", infer: Infer, report: Report, value: ast.expr, declared: object) -> bool:
    """Report the bad items; True when at least one was reported.

    A bad item that is itself a display is reported inside, at its own bad
    items, when its expected type is a container too (mypy: `{"a": [1, "x"]}`
    for `dict[str, list[int]]` is `List item 1`). In a union (such as a
    recursive alias's value, `Json`) the one member of the display's own
    class is the declared container.
    """
    declared = _container_member(ev, declared, value)
    if not isinstance(declared, Instance):
        return False
    if isinstance(value, ast.GeneratorExp):
        return _generator_item(ev, infer, report, value, declared)
    kind = _SEQ.get(type(value))
    if kind is not None and isinstance(value, (ast.List, ast.Set)):
        if _item_types(ev, declared, kind[0]) is None or len(declared.args) != 1:
            return False
        if any(isinstance(e, ast.Starred) for e in value.elts):
            return False
        item_t = declared.args[0]
        bad = []
        for i, elt in enumerate(value.elts):
            t = infer(elt, item_t)
            if not is_subtype(ev, t, item_t):
                bad.append((i, elt, t))
        for i, elt, t in bad:
            if _is_display(elt) and report_display_items(ev, infer, report, elt, item_t):
                continue
            got, exp = format_pair(t, expand_top(item_t))
            if kind[1] == "Set":
                # mypy checks a set display as a call of `<set>`: its wording and code.
                report(elt, f'Argument {i + 1} to <set> has incompatible type "{got}"; expected "{exp}"', "arg-type")
            else:
                report(elt, f'{kind[1]} item {i} has incompatible type "{got}"; expected "{exp}"', "list-item")
        return bool(bad)
    comp = _COMPS.get(type(value))
    if comp is not None:
        # mypy: `List comprehension has incompatible type List[str]; expected List[int]` [misc].
        if _item_types(ev, declared, comp[0]) is None or len(declared.args) != 1:
            return False
        got_t = infer(value, declared)
        if not (isinstance(got_t, Instance) and got_t.info.fullname == comp[0] and len(got_t.args) == 1):
            return False
        if is_subtype(ev, got_t.args[0], declared.args[0]):
            return False
        got, exp = format_pair(got_t.args[0], expand_top(declared.args[0]))
        report(value, f"{comp[1]} comprehension has incompatible type {comp[1]}[{got}]; expected {comp[1]}[{exp}]", "misc")
        return True
    if isinstance(value, ast.Dict):
        if _item_types(ev, declared, "builtins.dict") is None or len(declared.args) != 2 or any(k is None for k in value.keys):
            return False
        kt, vt = declared.args
        reported = False
        for i, (k, v) in enumerate(zip(value.keys, value.values)):
            assert k is not None
            ka = infer(k, kt)
            va = infer(v, vt)
            if not (is_subtype(ev, ka, kt) and is_subtype(ev, va, vt)):
                reported = True
                if is_subtype(ev, ka, kt) and _is_display(v) and report_display_items(ev, infer, report, v, vt):
                    continue
                gk, ek = _pair(ka, expand_top(kt), is_subtype(ev, ka, kt))
                gv, ev_ = _pair(va, expand_top(vt), is_subtype(ev, va, vt))
                report(k, f'Dict entry {i} has incompatible type "{gk}": "{gv}"; expected "{ek}": "{ev_}"', "dict-item")
        return reported
    return False


def _generator_item(ev: "Evaluator", infer: Infer, report: Report, value: ast.GeneratorExp, declared: Instance) -> bool:
    """mypy: `Generator has incompatible item type "T"; expected "C"` [misc] for a
    generator expression passed or assigned where an `Iterable[C]` or
    `Iterator[C]` is expected (`tuple(x for x in xs)` for a `tuple[C, ...]`)."""
    if declared.info.fullname not in ("typing.Iterable", "typing.Iterator") or len(declared.args) != 1:
        return False
    got_t = infer(value, declared)
    if not (isinstance(got_t, Instance) and got_t.info.fullname == "typing.Generator" and got_t.args):
        return False
    item, want = got_t.args[0], declared.args[0]
    if is_subtype(ev, item, want):
        return False
    got, exp = format_pair(item, expand_top(want))
    report(value, f'Generator has incompatible item type "{got}"; expected "{exp}"', "misc")
    return True


def _is_display(node: ast.expr) -> bool:
    return isinstance(node, (ast.List, ast.Set, ast.Dict))


def _item_types(ev: "Evaluator", declared: Instance, display: str) -> tuple[Type, ...] | None:
    """The declared item types when `declared` is the display's class or a base
    of it that takes the same type arguments (`Sequence[int]` for a list,
    `Mapping[str, int]` for a dict), else None."""
    info = ev.named_class(display)
    if info is None or declared.info not in info.mro:
        return None
    mapped = map_instance_to_supertype(Instance(info, tuple(info.type_vars)), declared.info)
    if mapped is None or mapped.args != tuple(info.type_vars):
        return None
    return declared.args


def _container_member(ev: "Evaluator", declared: object, value: ast.expr) -> object:
    """`declared`, or in a union the single member the display can be."""
    if not isinstance(declared, Type):
        return declared
    declared = expand_top(declared)
    if not isinstance(declared, UnionType):
        return declared
    want = "builtins.dict" if isinstance(value, ast.Dict) else _SEQ.get(type(value), ("",))[0]
    members = [i for i in declared.items if isinstance(i, Instance) and _item_types(ev, i, want) is not None]
    if len(members) != 1:
        return declared
    # Another member the display could be too, saying something else of its items
    # (`Mapping[str, str] | Iterable[tuple[str, str]]` for a dict): mypy learns no
    # context from such a union and reports the whole value, not its items.
    info = ev.named_class(want)
    if info is not None:
        anything = Instance(info, tuple(AnyType("special") for _ in info.type_vars))
        if any(i is not members[0] and not isinstance(i, AnyType) and is_subtype(ev, anything, i) for i in declared.items):
            return declared
    return members[0]


def _pair(a: object, b: object, is_subtype_plain: bool) -> tuple[str, str]:
    # format_pair qualifies equal names; an equal key type must stay short.
    from veritype.types.join import widen_literals

    if is_subtype_plain:
        return format_type(widen_literals(a)), format_type(b)  # type: ignore[arg-type]
    return format_pair(a, b)  # type: ignore[arg-type]
