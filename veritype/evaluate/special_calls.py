"""Calls the checker understands by name: reveal_type, assert_type, cast, super().

These are defined in typeshed as ordinary functions, but their meaning is
fixed by the spec ("Special functions"), so they are evaluated here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.typeddict_key_methods import typeddict_key_method
from veritype.evaluate.typeddict_merges import update_call
from veritype.evaluate.returns_value import allow_none_value
from veritype.semantic import symbols as S
from veritype.types.format import format_revealed, format_type
from veritype.types.join import widen_literals
from veritype.types.model import AnyType, CallableType, Instance, NoneType, Overloaded, Type, TypeType, TypeVarType, holds_any, is_any_class_object, TypedDictType
from veritype.types.subtype import map_instance_to_supertype
from veritype.evaluate.newtype import is_newtype_class_expr
from veritype.evaluate.class_info_checks import check_class_info_item
from veritype.evaluate.singledispatch_calls import check_singledispatch_call

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Ref
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.semantic.symbols import Symbol


# The modules whose functions are special here, and what names them besides their own.
_MODULES = ("typing", "typing_extensions", "builtins")
_IMPORTS = (S.MODULE_REF, S.FROM_IMPORT, S.CLASS)
# The methods of a TypedDict evaluated by typeddict_key_method and update_call.
TYPEDDICT_METHODS = ("get", "pop", "setdefault", "update")
# The short names named_special_call evaluates (in one of _MODULES), and their full names.
_SPECIAL_NAMES = frozenset(("reveal_type", "reveal_locals", "assert_type", "cast", "isinstance", "issubclass", "super"))
_SPECIAL_FULLNAMES = frozenset(f"{module}.{short}" for module in _MODULES for short in _SPECIAL_NAMES)
# The short names of what named_special_call takes: those, and functools.singledispatch.
CALLEE_NAMES = _SPECIAL_NAMES | {"singledispatch"}
# The two taken as builtins where no import binds them (mypy's reveal_type outside typing).
REVEALS = ("reveal_type", "reveal_locals")


def _outside_ref(exprs: "ExprEvaluator", node: ast.expr, callee: bool = False) -> "tuple[Ref, Symbol] | None":
    """What a name or dotted attribute refers to, with the symbol its first name is
    bound to, where that name is an import, a class or a name of _MODULES; None
    for anything else (no name; a variable, parameter or function of this code).

    `Evaluator.resolve_expr`, unrolled: the chain's first name is looked up once,
    and only a name that may lead elsewhere is followed (this runs for every call).
    For a `callee` (named_special_call's question), None also where the answer cannot
    be one of _SPECIAL_NAMES in _MODULES.
    """
    scope = exprs.scope
    if scope is None:
        return None
    root = node
    while type(root) is ast.Attribute:
        root = root.value  # type: ignore[attr-defined]
    if type(root) is not ast.Name:
        return None
    name = root.id  # type: ignore[attr-defined]
    ev = exprs.ev
    if ev.type_params_seen and scope.lookup_type_param(name) is not None:
        # A type parameter (and its attributes) is never one of them. (Only a
        # program with PEP 695 parameters has any: Evaluator.pep695_params.)
        return None
    hit = ev.lookup(name, scope)
    if hit is None:
        return None
    sym, where = hit
    kind = sym.kind
    if kind not in _IMPORTS and not (where.kind == "module" and where.module.name in _MODULES):
        # A variable, parameter or function of this code: what it names, and each
        # attribute of it, is spelled after its scope (`pkg.mod.f.x.attr`), in
        # no module of _MODULES.
        return None
    if callee and root is node and kind != S.MODULE_REF and kind != S.FROM_IMPORT:
        # A bare name bound by its own definition names itself (`<scope>.<name>`,
        # Evaluator._own_ref): a class of this code (`C()`, most of these), or a
        # builtins name (`len()`, `str()`), special only if that name is.
        module = where.module.name
        if module not in _MODULES or (module == "builtins" and name not in _SPECIAL_NAMES):
            return None
    ref: Ref | None = ev.resolve_symbol(sym, where)
    if root is not node:
        # The chain's attributes, collected only now (most chains end above), followed from the root.
        attrs: list[str] = []
        while node is not root:
            attrs.append(node.attr)  # type: ignore[attr-defined]
            node = node.value  # type: ignore[attr-defined]
        for attr in reversed(attrs):
            ref = ev.member_ref(ref, attr)  # type: ignore[arg-type]
            if ref is None:
                return None
    return (ref, sym) if ref is not None else None


def may_be_special(callee: Type) -> bool:
    """Whether a call whose function has the type `callee` may be one that
    named_special_call takes by its function's full name: False where that type is
    a function, overloaded function or class of a name none of those has. The
    function each full name names is a def or class of that short name (typeshed's
    `def cast`, `class super`), whose type a name or attribute resolving to it has
    (an import under another name included: a def's type keeps its own name).
    Asked instead of resolving the function's name at every call (0.6% of a cold
    run's instructions on the bench corpus, for 27k calls of which 70 are special)."""
    kind = type(callee)
    if kind is CallableType or kind is Overloaded:
        name = callee.name  # type: ignore[attr-defined]
        return not name or name in CALLEE_NAMES
    if kind is TypeType:
        item = callee.item  # type: ignore[attr-defined]
        return type(item) is not Instance or item.info.name in CALLEE_NAMES
    return True  # (an Any, a union, a callable object...: resolved as before)


def typeddict_call(exprs: "ExprEvaluator", node: ast.Call) -> Type | None:
    """A call of a TypedDict's `get`, `pop`, `setdefault` or `update` (the call's
    function an attribute of one of those names, TYPEDDICT_METHODS): its type,
    else None."""
    td_get = typeddict_key_method(exprs, node)
    if td_get is not None:
        return td_get
    return update_call(exprs, node)


def named_special_call(exprs: "ExprEvaluator", node: ast.Call, expected: Type | None) -> Type | None:
    """The type of a call of a special function named by its full name (reveal_type,
    cast, super()...), else None; reports about `functools.singledispatch` calls."""
    func = node.func
    # The full name of what the call's function names, where it may be special.
    if type(func) is ast.Name and func.id in REVEALS and (exprs.scope is None or exprs.ev.lookup(func.id, exprs.scope) is None):
        name = f"builtins.{func.id}"
    else:
        found = _outside_ref(exprs, func, callee=True)
        if found is None:
            return None
        name = found[0].fullname
        if name not in _SPECIAL_FULLNAMES:
            if name == "functools.singledispatch":
                check_singledispatch_call(exprs, node)  # reports only; the call is evaluated as usual
            return None  # (no branch below takes it: most calls of imported functions)
    module, _, short = name.rpartition(".")
    if module == "builtins" and short in ("reveal_type", "reveal_locals"):
        _unimported_reveal(exprs, node, short)
    if short == "reveal_type" and len(node.args) == 1:
        allow_none_value(node.args[0])
        t = exprs.infer(node.args[0])
        exprs.note(node, f'Revealed type is "{format_revealed(t)}"')
        return t
    if short == "reveal_locals":
        _reveal_locals(exprs, node)
        return NoneType()
    if short == "assert_type" and len(node.args) == 2 and module != "builtins":
        allow_none_value(node.args[0])
        t = exprs.infer(node.args[0])
        if exprs.scope is None:
            return t
        expected_t = exprs.ev.type_exprs.evaluate(node.args[1], exprs.scope, report=_type_reporter(exprs))
        if not _same_for_assert(exprs, t, expected_t) or _failed_lookup(node.args[0], t, expected_t):
            exprs.error(node, f'Expression is of type "{format_type(t)}", not "{format_type(expected_t)}"', "assert-type")
        return t
    if short == "cast" and len(node.args) == 2 and module != "builtins":
        if exprs.scope is None:
            return AnyType("special")
        target = exprs.ev.type_exprs.evaluate(node.args[0], exprs.scope, report=_type_reporter(exprs))
        allow_none_value(node.args[1])
        source = exprs.infer(node.args[1])
        # An inferred literal (`cast(int, 1)`) counts as its class, as mypy's `Literal[1]?`.
        same = source == target or (isinstance(node.args[1], ast.Constant) and widen_literals(source) == target)
        if exprs.options.warn_redundant_casts and not isinstance(source, AnyType) and same:
            exprs.error(node, f'Redundant cast to "{format_type(target)}"', "redundant-cast")
        return target
    if short in ("isinstance", "issubclass") and module == "builtins" and len(node.args) == 2 and exprs.scope is not None:
        _newtype_in_class_check(exprs, node, short)  # reports only; the call is evaluated as usual
    if short == "super" and module == "builtins" and not node.args:
        return _super(exprs, node)
    return None


def _newtype_in_class_check(exprs: "ExprEvaluator", node: ast.Call, short: str) -> None:
    # A NewType is a plain function at run time: isinstance() raises TypeError.
    assert exprs.scope is not None
    classes = node.args[1]
    for item in classes.elts if isinstance(classes, ast.Tuple) else [classes]:
        if _plain_class(exprs, item):
            continue  # neither check concerns it
        check_class_info_item(exprs, node, item, short)  # (parameterized generics, Literal, Any)
        if is_newtype_class_expr(exprs.ev, item, exprs.scope) is not None:
            exprs.error(node, f"Cannot use {short}() with NewType type", "misc")  # (at the call, as mypy)
            continue
        _protocol_in_class_check(exprs, node, item, short)


def _plain_class(exprs: "ExprEvaluator", item: ast.expr) -> bool:
    """`item` names a class (`str`, `mod.C`) that is neither a protocol nor a
    TypedDict, by a name bound once: its value is that class object (flow has
    no other binding to give it), a NewType is no class, and the protocol and
    TypedDict rules do not concern it. Known from the reference alone, without
    inferring the expression (most isinstance() calls name such classes)."""
    found = _outside_ref(exprs, item)
    if found is None:
        return False
    ref, sym = found
    if ref.kind != "class" or ref.info is None or ref.sym is None or len(sym.decls) != 1 or len(ref.sym.decls) != 1:
        return False
    info = ref.info
    info.bases  # evaluating the bases sets the protocol and TypedDict flags
    return not info.is_protocol and not info.is_typeddict


def _protocol_in_class_check(exprs: "ExprEvaluator", call: ast.Call, item: ast.expr, short: str) -> None:
    """Typing spec ("Protocols", "runtime_checkable"): isinstance()/issubclass() need a
    @runtime_checkable protocol, and issubclass() one without data members."""
    from veritype.evaluate.expressions import ExprEvaluator

    if not isinstance(item, (ast.Name, ast.Attribute)):
        return
    t = ExprEvaluator(exprs.ev, exprs.scope, exprs.flow, None).infer(item)

    if isinstance(t, TypeType) and (isinstance(t.item, TypedDictType) or (isinstance(t.item, Instance) and t.item.info.is_typeddict)):
        # Spec, "TypedDict": a TypedDict type "cannot be used in isinstance() tests"
        # (at run time it is a plain dict).
        exprs.error(call, f"Cannot use {short}() with TypedDict type", "misc")
        return
    if not (isinstance(t, TypeType) and isinstance(t.item, Instance)):
        return
    info = t.item.info
    info.bases  # evaluating the bases sets the protocol flags
    if not info.is_protocol or info.has_any_base:
        return
    if not info.is_runtime_checkable:
        exprs.error(call, "Only @runtime_checkable protocols can be used with instance and class checks", "misc")
        return
    if short != "issubclass":
        return
    data: list[str] = []
    for cls in info.mro:
        if not cls.is_protocol or cls.fullname in ("typing.Protocol", "typing.Generic", "builtins.object"):
            continue
        data.extend(n for n, sym in cls.symbols.items() if sym.kind == S.VAR and not n.startswith("__") and n not in data)
    if data:
        exprs.error(call, "Only protocols that don't have non-method members can be used with issubclass()", "misc")
        exprs.note(call, f'Protocol "{info.name}" has non-method member(s): {", ".join(sorted(data))}')


def _failed_lookup(arg: ast.expr, t: Type, expected: Type) -> bool:
    """`assert_type(raises.Exception, Failed)` where the name or attribute was
    reported missing: its type is Any, and mypy 2.4.1 reports `Expression is of
    type "Any"` as well (pytest's `# type: ignore[assert-type, attr-defined]`).
    Only a failed lookup of the argument itself: an Any from an error elsewhere
    stays silent."""
    return isinstance(arg, (ast.Name, ast.Attribute)) and isinstance(t, AnyType) and t.reason == "error" \
        and not isinstance(expected, AnyType)


def _same_for_assert(exprs: "ExprEvaluator", a: Type, b: Type) -> bool:
    # assert_type asks for the same type, Any only matching Any (spec, "assert_type").
    if isinstance(a, AnyType) and a.reason not in ("explicit", "unannotated"):
        return True  # a construct we do not understand yet: stay silent (principle 4)
    if isinstance(a, AnyType) or isinstance(b, AnyType):
        return isinstance(a, AnyType) and isinstance(b, AnyType)
    if a == b:
        return True
    if is_any_class_object(a) and is_any_class_object(b):
        return True  # spec, "type[]": plain `type` is `type[Any]`
    if holds_any(a, "special"):
        return True  # part of it is a construct we do not model yet (`tuple[*Ts]`): silent
    if format_type(a) == format_type(b):
        return True
    from veritype.types.substitute import substitute, type_vars_in

    selfs = {k: v.upper_bound for k, v in type_vars_in(b).items() if v.kind == "self" and v.upper_bound is not None}
    if selfs:
        # An unannotated `self`/`cls` is typed as the enclosing class's instance, which
        # stands for `Self` inside that class (spec, "Self": self is implicitly Self).
        return _same_for_assert(exprs, a, substitute(b, selfs))  # type: ignore[arg-type]
    # Union order does not matter (`list[int | A]` is `list[A | int]`).
    from veritype.types.subtype import is_subtype

    return is_subtype(exprs.ev, a, b) and is_subtype(exprs.ev, b, a) and not _has_any(a) and not _has_any(b)


def _has_any(t: Type) -> bool:
    from veritype.types.format import format_type as fmt

    return "Any" in fmt(t)


def _type_reporter(exprs: "ExprEvaluator"):  # type: ignore[no-untyped-def]
    return exprs.type_report if exprs.reporting else None


def _super(exprs: "ExprEvaluator", node: ast.Call) -> Type:
    scope = exprs.scope
    while scope is not None and scope.kind != "function":
        scope = scope.parent
    if scope is None or scope.parent is None or scope.parent.kind != "class" or scope.parent.cls is None:
        return AnyType("special")
    cls = scope.parent.cls
    mro = cls.mro
    if len(mro) < 2:
        return AnyType("special")
    fn = scope.function
    # The receiver: the method's first parameter (self or cls).
    first_name = None
    if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = [*fn.args.posonlyargs, *fn.args.args]
        if params:
            first_name = params[0].arg
    receiver = exprs.flow.lookup(first_name) if first_name else None
    if receiver is None and first_name is not None:
        t = scope.param_types.get(first_name)
        receiver = t if isinstance(t, Type) else None
    base = mro[1]
    if cls.has_any_base:
        return AnyType("special")
    if isinstance(receiver, TypeType) and isinstance(receiver.item, Instance):
        mapped = map_instance_to_supertype(receiver.item, base)
        return TypeType(mapped) if mapped is not None else AnyType("special")
    if isinstance(receiver, TypeVarType):
        receiver = receiver.upper_bound
    if isinstance(receiver, Instance):
        mapped = map_instance_to_supertype(receiver, base)
        if mapped is not None:
            return mapped
    return AnyType("special")


def _unimported_reveal(exprs: "ExprEvaluator", node: ast.Call, name: str) -> None:
    """mypy's optional `unimported-reveal`: reveal_type/reveal_locals used as a
    builtin (they exist only for the checker) rather than imported from typing.
    Only a bare name no import binds is reported: mypy 2.4.1 also reports
    `typing.reveal_type(x)` and an imported alias, which do run."""
    from veritype.diagnostics.enabled import code_enabled

    if exprs.scope is None or not code_enabled(exprs.ev.program.options.for_module(exprs.scope.module.name), "unimported-reveal"):
        return  # off: not even an error for ignores to drop, as its notes would go with it
    exprs.error(node, f'Name "{name}" is not defined', "unimported-reveal")
    if name == "reveal_type":
        source = "typing" if exprs.ev.program.options.python_version >= (3, 11) else "typing_extensions"
        exprs.note(node, f'Did you forget to import it from "{source}"? (Suggestion: "from {source} import {name}")')


def _reveal_locals(exprs: "ExprEvaluator", node: ast.Call) -> None:
    """mypy's output: a header note, then `name: type` per variable of the
    current scope (parameters included), sorted by name."""
    from veritype.semantic.symbols import PARAM, VAR

    if exprs.scope is None or not exprs.reporting:
        return
    lines = []
    for name, sym in sorted(exprs.scope.table.items()):
        if sym.kind not in (VAR, PARAM) or name.startswith("__"):
            continue
        t = exprs.infer(ast.Name(id=name, ctx=ast.Load(), lineno=node.lineno, col_offset=node.col_offset))
        lines.append(f"    {name}: {format_revealed(t)}")
    exprs.note(node, "Revealed local types are:")
    for line in lines:
        exprs.note(node, line)
