"""`x = defaultdict(list)` that nothing completes: [var-annotated].

The factory fixes only the value type; nothing in `defaultdict(factory)` fixes
the key type. mypy 2.4.1 makes such a first assignment a "partial" type when
the factory's result is an instance with no fixed type arguments (`list`,
`int`, `lambda: []`) and completes it from a later `x[k].append(v)` or
`x[k] = v` in the same scope; when nothing does, or the first use is a plain
read, it reports `Need type annotation for "x"` at the variable. Any other
factory (`Any`, `None`, a function returning `list[int]`) leaves an unsolved
key type, reported at once at the call (mypy docs, "Types of empty
collections": "You often need to specify the type when you assign an empty
list or dict to a new variable ... mypy can't infer the key and value types").

We report only the case where both readings agree: the scope never uses the
variable but in plain reads, or reads it before any use that could complete
it (the judgement of `x = []`, check/var_annotated, made at the end of the
scope's walk without unreachable code). A factory that is not callable (mypy
then reports only the failed call) or whose type we do not know keeps us
silent.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.check import var_annotated as va
from veritype.check.var_annotated_reach import judge_later
from veritype.evaluate.expressions import ExprEvaluator
from veritype.types.model import AnyType, CallableType, Instance, NeverType, NoneType, Overloaded, Type, TypeType, VAR_KW, VAR_POS

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker

_DEFAULTDICT = "collections.defaultdict"
_NAMES = frozenset({"defaultdict", "DefaultDict"})
_TARGETS = (ast.Name, ast.Attribute)


def report_defaultdict(mc: "ModuleChecker", stmt: ast.Assign, t: Type) -> None:
    """Report `name = defaultdict(factory)` (`stmt`, its value inferred as `t`)
    when it declares `name` and nothing in its scope completes it."""
    value = stmt.value
    assert isinstance(value, ast.Call)
    target = stmt.targets[0]
    if (len(value.args) != 1 or value.keywords or type(value.args[0]) is ast.Starred or len(stmt.targets) != 1
            or type(target) not in _TARGETS or stmt.type_comment or mc.info.is_stub):
        return
    if not (isinstance(t, AnyType) or (isinstance(t, Instance) and t.info.fullname == _DEFAULTDICT)):
        return  # (the answer of the call when it is defaultdict's: Any for a generic factory)
    func = value.func
    if (func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None) not in _NAMES:  # type: ignore[attr-defined]
        return  # (tested by name first, as most calls are not of it: a renamed import is missed)
    exprs = ExprEvaluator(mc.ev, mc.scope, mc.flow, None)  # silent: both were inferred with the call
    callee = exprs.infer(value.func)
    if not (isinstance(callee, TypeType) and isinstance(callee.item, Instance) and callee.item.info.fullname == _DEFAULTDICT):
        return
    partial = _partial_factory(exprs.infer(value.args[0]))
    if partial is None:
        return
    if isinstance(target, ast.Attribute):
        # `self.x = defaultdict(list)` in a method: judged as `self.x = []`
        # (mypy's partial types are local to the method).
        attr = va.unfinished_attribute(mc, stmt, target)
        if attr is not None:
            mc.error(target if partial else value, f'Need type annotation for "{attr}"', "var-annotated")
        return
    assert isinstance(target, ast.Name)
    name = target.id
    sym = mc.scope.table.get(name)
    if sym is None or sym.node is not stmt or sym.annotation is not None or sym.type_comment is not None:
        return  # declared elsewhere, or not first bound here
    body = va.scope_body(mc)
    if body is None:
        return  # a class body: not judged (nor is `x = []` there)
    # mypy's local partial types, as for `x = []` (check_var_annotated).
    local = mc.options.not_enforced.get("local_partial_types", True) is not False
    nested = mc.scope.kind != "module" or not local
    lines = va.name_lines(mc, name)
    params = va.param_names(mc)

    def judge(code: list[ast.stmt]) -> bool:
        return (va.needs_annotation(code, name, stmt, nested=nested, lines=lines)
                or va.read_before_completion(code, name, stmt, params, lines, mc))

    def report() -> None:
        # mypy's place: the variable for a partial type, else the call.
        mc.error(target if partial else value, f'Need type annotation for "{name}"', "var-annotated")

    judge_later(mc, stmt, body, judge, report)


def _partial_factory(factory: Type) -> bool | None:
    """Whether mypy makes `defaultdict(factory)` a partial type (True: the
    factory's result has no fixed type arguments) or an unsolved one (False);
    None where it reports the call instead (not callable) or we cannot tell."""
    if isinstance(factory, (AnyType, NoneType)):
        return False
    if isinstance(factory, TypeType):
        # A class: `list`, `int`, a user class (its instances made with no
        # arguments; a class that needs some is an arg-type error beside).
        return isinstance(factory.item, Instance)
    if isinstance(factory, Overloaded):
        items = [c for c in factory.items if _no_args(c)]
        return _open_instance(items[0].ret) if items else None
    if isinstance(factory, CallableType):
        return _open_instance(factory.ret) if _no_args(factory) else None
    return None


def _no_args(c: CallableType) -> bool:
    return all(p.has_default or p.kind in (VAR_POS, VAR_KW) for p in c.params)


def _open_instance(ret: Type) -> bool:
    return isinstance(ret, Instance) and all(isinstance(a, (AnyType, NeverType)) for a in ret.args)
