"""Narrowing by a call test: `isinstance`/`issubclass`, `callable()`, `hasattr()`,
and user-defined TypeGuard and TypeIs functions (narrowing's `_narrow` asks here).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import AnyType, CallableType, Instance, NeverType, NoneType, Overloaded, Type, TypeType, make_union, union_items
from veritype.types.subtype import is_subtype
from veritype.evaluate.reference_keys import expr_key as _key
from veritype.evaluate.isinstance_narrowing import classinfo_arg, is_callable, literal_classes, maybe_callable, narrow_isinstance
from veritype.evaluate.call_dispatch import call_types
from veritype.evaluate.typeis_narrowing import narrow_by_typeis

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.evaluate.scopes import Scope


def _call_parts(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.Call) -> tuple[str | None, str, Type | None, list[Type] | None]:
    """What a call test's narrowing reads whichever way it is asked: the first
    argument's key (None: nothing narrows), the callee's full name, and for
    `isinstance`/`issubclass` the first argument's type and the classes given."""
    subject = test.args[0]
    # `isinstance(e := xs[0], type)` narrows e (mypy), as `(x := f()) is not None` does.
    key = _key(subject.target if type(subject) is ast.NamedExpr else subject)
    if key is None:
        return None, "", None, None
    ref = exprs.ev.resolve_expr(test.func, exprs.scope) if type(test.func) is ast.Name or type(test.func) is ast.Attribute else None  # type: ignore[arg-type]
    fullname = ref.fullname if ref is not None else ""
    if fullname in ("builtins.isinstance", "builtins.issubclass") and len(test.args) == 2:
        return key, fullname, silent.infer(test.args[0]), classinfo_arg(exprs.ev, silent, test.args[1])
    return key, fullname, None, None


def call_pair(exprs: "ExprEvaluator", silent: "ExprEvaluator", test: ast.Call) -> tuple[dict[str, Type], dict[str, Type]]:
    """What the call test `test` says when true and when false (each a new dict):
    what both ways read (`_call_parts`) is found once."""
    scope = exprs.scope
    if not test.args or scope is None:
        return {}, {}
    key, fullname, current, classes = _call_parts(exprs, silent, test)
    if key is None:
        return {}, {}  # every form below narrows the first argument's key (1.6k such tests on the bench corpus)
    return (_narrow_call(exprs.ev, silent, scope, test, key, fullname, current, classes, True),
            _narrow_call(exprs.ev, silent, scope, test, key, fullname, current, classes, False))


def _narrow_call(ev: "Evaluator", silent: "ExprEvaluator", scope: "Scope", test: ast.Call, key: str, fullname: str, current: Type | None,
                 classes: list[Type] | None, positive: bool) -> dict[str, Type]:
    """What `test` says one way, from what both ways read (`_call_parts`)."""
    if current is not None:  # isinstance or issubclass
        if classes is None:
            return {}
        if not positive:
            # A class given as a value (`t: type[E]`, a tuple of them) may be a
            # subclass at run time: the negative branch rules out only the classes
            # named literally (mypy: `not isinstance(exc, expected_type)` with
            # `expected_type: type[BaseException]` keeps `exc` a BaseException).
            classes = literal_classes(ev, silent, scope, test.args[1])
            if not classes:
                return {}
        if fullname == "builtins.issubclass":
            if isinstance(current, AnyType):
                # mypy leaves an Any alone under issubclass (isinstance narrows it):
                # `cast(type[Warning], cat)` after `issubclass(cat, Warning)` is no
                # redundant cast there.
                return {}
            inner = _unwrap_type(current)
            if inner is None and positive and all(isinstance(i, Instance) and i.info.fullname == "builtins.type" for i in union_items(current)):
                # A bare `type`: issubclass(t, int) makes it type[int] (mypy).
                inner = ev.builtin("object")
            if inner is None:
                return _issubclass_metaclass_items(ev, key, current, classes, positive)
            narrowed = _isinstance(ev, inner, classes, positive)
            return {key: make_union([TypeType(i) for i in union_items(narrowed)]) if not isinstance(narrowed, NeverType) else narrowed}
        return {key: _isinstance(ev, current, classes, positive)}
    if fullname == "builtins.hasattr" and len(test.args) == 2:
        from veritype.evaluate.hasattr_narrowing import narrow_hasattr

        return narrow_hasattr(ev, silent, key, test, positive)
    if fullname == "builtins.callable":
        current = silent.infer(test.args[0])
        items = union_items(current)
        if positive and any(is_callable(ev, i) for i in items):
            # `callable(x)` with `x: Schema | Callable[[], Schema]`: mypy keeps the
            # callable items only (the intersection below is made only when no
            # item is callable), so `x()` is a Schema, not Any.
            kept = [i for i in items if is_callable(ev, i) or not isinstance(i, Instance) and maybe_callable(ev, i)]
        elif positive:
            # A non-callable class that a subclass could make callable: mypy makes the
            # intersection "<callable subtype of C>"; Any is its silent form.
            kept = [i if is_callable(ev, i) or not isinstance(i, Instance) else AnyType("special")
                    for i in items if maybe_callable(ev, i)]
        else:
            kept = [i for i in items if not is_callable(ev, i)]
        return {key: make_union(kept)}
    # A user-defined TypeGuard / TypeIs function.
    func_t = silent.infer(test.func)
    if isinstance(func_t, Overloaded):
        if not any(item.type_guard is not None or item.type_is is not None for item in func_t.items):
            return {}  # no item is a guard: whichever the call picks narrows nothing (151 tests, 0.4% of a profile)
        func_t = _guard_item(ev, silent, test, func_t)
    if isinstance(func_t, CallableType) and (func_t.type_guard is not None or func_t.type_is is not None):
        func_t = _solved_guard(ev, silent, test, func_t)
        if func_t.type_guard is not None:
            return {key: func_t.type_guard} if positive else {}
        current = silent.infer(test.args[0])
        guard = func_t.type_is
        assert guard is not None
        return {key: narrow_by_typeis(ev, current, guard, positive)}
    return {}


# `narrow_isinstance` answers by the ids of the type and the classes and the
# way, each entry holding them (so that no id is reused while it is kept): the
# same classes are tested on the same types again and again (4.4k of the 5.9k
# questions on the bench corpus were asked before). Its answers are pure
# functions of them; the memo is bounded, and emptied after each module's
# check (narrowing.forget_narrowings), so it keeps no module's types alive past it.
_ISINSTANCE: dict[tuple[object, ...], tuple[Type, list[Type], Type]] = {}
_ISINSTANCE_MAX = 4096


def forget_isinstance() -> None:
    """Empty the memo of isinstance answers (`_ISINSTANCE`)."""
    _ISINSTANCE.clear()


def _isinstance(ev: "Evaluator", current: Type, classes: list[Type], positive: bool) -> Type:
    """`narrow_isinstance(ev, current, classes, positive)`, memoized (`_ISINSTANCE`)."""
    key = (id(current), positive, *map(id, classes))
    hit = _ISINSTANCE.get(key)
    if hit is not None:
        return hit[2]
    narrowed = narrow_isinstance(ev, current, classes, positive)
    if len(_ISINSTANCE) >= _ISINSTANCE_MAX:
        _ISINSTANCE.clear()
    _ISINSTANCE[key] = (current, classes, narrowed)
    return narrowed


def _guard_item(ev: "Evaluator", silent: "ExprEvaluator", test: ast.Call, func_t: Overloaded) -> Type:
    """The item of an overloaded guard that the call picks: the first whose
    parameters accept the arguments (pytest's `RaisesGroup.matches`, a TypeGuard
    per self type; a bound method holds only the items its receiver fits)."""

    if any(isinstance(a, ast.Starred) for a in test.args) or test.keywords:
        return func_t
    arg_types = [silent.infer(a) for a in test.args]
    for item in func_t.items:
        probe = CallableType(item.params, NoneType(), item.type_vars, item.name, item.definition, item.is_ellipsis)
        if call_types(ev, probe, arg_types) is not None:
            return item
    return func_t


def _solved_guard(ev: "Evaluator", silent: "ExprEvaluator", test: ast.Call, func_t: CallableType) -> CallableType:
    """`func_t` with the type variables of its TypeGuard/TypeIs type solved from the
    call's arguments, and `Self` bound to the receiver of a method call."""
    from veritype.evaluate.call_dispatch import call_types
    from veritype.types.substitute import substitute, type_vars_in

    guard = func_t.type_guard if func_t.type_guard is not None else func_t.type_is
    assert guard is not None
    if func_t.type_vars and not any(isinstance(a, ast.Starred) for a in test.args) and not test.keywords:
        # Calling a copy that returns the guard type solves its variables as a call would.
        probe = CallableType(func_t.params, guard, func_t.type_vars, func_t.name, func_t.definition, func_t.is_ellipsis)
        solved = call_types(ev, probe, [silent.infer(a) for a in test.args])
        if solved is not None and not isinstance(solved, AnyType) and not type_vars_in(solved).keys() & {(v.fullname, v.scope) for v in func_t.type_vars}:
            guard = solved
    selfs = [k for k, v in type_vars_in(guard).items() if v.kind == "self"]
    if selfs and isinstance(test.func, ast.Attribute):
        receiver = silent.infer(test.func.value)
        if isinstance(receiver, TypeType):
            receiver = receiver.item
        if isinstance(receiver, Instance):
            guard = substitute(guard, {k: receiver for k in selfs})
    if func_t.type_guard is not None:
        return CallableType(func_t.params, func_t.ret, func_t.type_vars, func_t.name, func_t.definition, func_t.is_ellipsis, type_guard=guard)
    return CallableType(func_t.params, func_t.ret, func_t.type_vars, func_t.name, func_t.definition, func_t.is_ellipsis, type_is=guard)


def _issubclass_metaclass_items(ev: "Evaluator", key: str, current: Type, classes: list[Type], positive: bool) -> dict[str, Type]:
    """`issubclass(x, C)` where items of `x` are instances of a metaclass
    (`x: type[Schema] | SchemaMeta`, marshmallow): such an item is some class,
    so it becomes `type[C]` when the test holds (mypy) and stays when it fails.
    Items of other kinds leave `x` alone."""
    if not positive and not any(isinstance(i, TypeType) for i in union_items(current)):
        return {}  # nothing to rule out: leave `x` as it was (no narrowed key to merge)
    out: list[Type] = []
    for item in union_items(current):
        if isinstance(item, Instance) and any(c.fullname == "builtins.type" for c in item.info.mro):
            if not positive:
                out.append(item)
                continue
            item = TypeType(ev.builtin("object"))
        inner = _unwrap_type(item)
        if inner is None:
            return {}
        narrowed = narrow_isinstance(ev, inner, classes, positive)
        out.extend(TypeType(i) for i in union_items(narrowed) if not isinstance(i, NeverType))
    return {key: make_union(out) if out else NeverType()}


def _unwrap_type(t: Type) -> Type | None:
    items = []
    for i in union_items(t):
        if isinstance(i, TypeType):
            items.append(i.item)
        elif isinstance(i, AnyType):
            items.append(i)
        else:
            return None
    return make_union(items)
