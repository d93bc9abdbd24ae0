"""Members made up from a class body: dataclasses and NamedTuple classes.

Run once per class, lazily, the first time `ClassInfo.synthesized` or
`ClassInfo.tuple_type` is read (typically for a constructor call or an
attribute lookup), so unused typeshed classes cost nothing.

NamedTuple (spec, "Named Tuples"): the fields are the annotated names of the
class body, in order; the class is a tuple of their types (for indexing and
unpacking) and its constructor takes them positionally or by keyword, those
with a value in the body being optional.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.types.model import POS_OR_KW, AnyType, CallableType, NoneType, Param, TupleType, Type
from veritype.evaluate.dataclasses import DATACLASS, dataclass_spec, process

if TYPE_CHECKING:
    from veritype.evaluate.classes import ClassInfo
    from veritype.evaluate.evaluator import Evaluator


def synthesize(ev: "Evaluator", info: "ClassInfo") -> None:
    if info.is_namedtuple and info.node is not None:
        _namedtuple_class(ev, info)
        return
    from veritype.evaluate.class_bases import KNOWN_CLASS_DECORATORS

    dc = process(ev, info)
    if dc is not None and not dc.unknown and info.unknown_decorator:
        # The dataclass decorator is modelled now; only other unknown ones keep the class lenient.
        others = [n for n in info.decorators if n not in KNOWN_CLASS_DECORATORS and n not in DATACLASS]
        if len(others) <= 1 and dataclass_spec(ev, info) is not None:
            # `others` may hold the transform decorator itself: drop it when it is the only one.
            if not others or _is_transform_decorator(ev, info, others[0]):
                info.unknown_decorator = False


def _is_transform_decorator(ev: "Evaluator", info: "ClassInfo", name: str) -> bool:
    from veritype.evaluate.dataclasses import _function_transform

    assert info.node is not None and info.defining_scope is not None
    for dec, n in zip(info.node.decorator_list, info.decorators):
        if n == name:
            return _function_transform(ev, dec, info.defining_scope) is not None
    return False


def namedtuple_fields(ev: "Evaluator", info: "ClassInfo") -> list[tuple[str, Type, bool]]:
    node = info.node
    assert node is not None
    scope = info.scope
    out: list[tuple[str, Type, bool]] = []
    for stmt in static_body(node.body):
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        sym = info.symbols.get(stmt.target.id)
        if sym is None or stmt not in sym.decls:
            continue  # in a branch the binder found unreachable (`if sys.version_info ...`)
        t = ev.declared_type(sym, scope)
        out.append((stmt.target.id, t if t is not None else AnyType("special"), stmt.value is not None))
    return out


def static_body(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a class body with those of `if` blocks spliced in (spec,
    "Named Tuples": fields "may be conditional, via checks of the same
    statically-known conditions"); which branches count is left to the binder."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out += static_body(stmt.body) + static_body(stmt.orelse)
        else:
            out.append(stmt)
    return out


def _namedtuple_class(ev: "Evaluator", info: "ClassInfo") -> None:
    fields = namedtuple_fields(ev, info)
    self_inst = info.self_instance()
    info._tuple_type = TupleType(tuple(t for _, t, _ in fields), self_inst)
    params = [Param("self", self_inst, POS_OR_KW)]
    params += [Param(name, t, POS_OR_KW, has_default) for name, t, has_default in fields]
    if "__init__" not in info.symbols and "__new__" not in info.symbols:
        info._synthesized["__init__"] = CallableType(tuple(params), NoneType(), name=info.name)
    info._synthesized.setdefault("_fields", ev.tuple_of([ev.builtin("str") for _ in fields]))
    if "_replace" not in info.symbols:
        # `_replace(**changes)`: each field by keyword, all optional; returns the type of
        # the receiver, so a subclass's `_replace` keeps the subclass (typeshed's
        # `NamedTuple._replace(...) -> Self`; mypy's synthesized one is self-typed too).
        from veritype.types.model import KW_ONLY, TypeVarType

        self_tv = TypeVarType("Self", f"{info.fullname}.Self", f"{info.fullname}._replace", self_inst, kind="self")
        replace_params = [Param("self", self_tv, POS_OR_KW)] + [Param(name, t, KW_ONLY, True) for name, t, _ in fields]
        info._synthesized["_replace"] = CallableType(tuple(replace_params), self_tv, (self_tv,), name="_replace")
    info._synthesized.setdefault(
        "__match_args__", ev.tuple_of([ev.literal(name) for name, _, _ in fields]),
    )
