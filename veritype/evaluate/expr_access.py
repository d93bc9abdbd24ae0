"""Attribute and subscript inference: member access on any type (with module re-export
rules), indexing and slicing of tuples, TypedDicts and __getitem__ owners.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.diagnostics.suggest import close_matches, quoted_choices
from veritype.evaluate.await_hint import MISSING_AWAIT, missing_await
from veritype.evaluate.calls import ARG_POS, Arg
from veritype.evaluate.reference_keys import expr_key
from veritype.evaluate.ctypes_arrays import array_member, is_ctypes_array, unboxed_item
from veritype.types.format import format_type
from veritype.types.join import widen_literals
from veritype.evaluate.special_values import NOT_CALLABLE, SUBSCRIBED_OPAQUE, subscribed_type_value
from veritype.evaluate.type_applications import check_type_application
from veritype.types.model import ANY_ERROR, ANY_REPORTED, AnyType, Instance, LiteralType, ModuleType, NeverType, NoneType, Overloaded, SpecialForm, TupleType, Type, TypedDictType, TypeType, UnionType, UnpackType, make_union, union_items, NONE
from veritype.evaluate.generic_class_access import MESSAGE, ambiguous_generic_access
from veritype.evaluate.super_access import is_super_call, super_member
from veritype.evaluate.found_members import ENUM_VALUE_NAMES

if TYPE_CHECKING:
    from veritype.evaluate.expressions import ExprEvaluator
    from veritype.semantic.symbols import Symbol


def infer_attribute(ex: "ExprEvaluator", node: ast.Attribute, expected: Type | None) -> Type:
    # The key is made only where it may be found (`a.b.c` makes `a.b`'s too).
    key = expr_key(node) if ex.overlay or ex.flow.may_hold_members() else None
    if key is not None:
        narrowed = ex.flow.lookup(key)
        if narrowed is not None:
            for layer in reversed(ex.overlay):
                if key in layer:
                    return layer[key]
            return narrowed
        for layer in reversed(ex.overlay):
            if key in layer:
                return layer[key]
    if type(node.value) is ast.Call:  # (is_super_call's first test, before the import)

        if is_super_call(ex, node.value):
            understood, found, unsafe = super_member(ex, node.value, node.attr)
            if understood:
                if found is None:
                    ex.error(node, f'"{node.attr}" undefined in superclass', "misc")  # mypy's wording
                    return ANY_ERROR
                if unsafe is not None:
                    ex.error(node, f'Call to abstract method "{node.attr}" of "{unsafe}" with trivial body via super() is unsafe', "safe-super")
                return found
    base = ex.infer(node.value)
    name = node.attr
    if type(base) is Instance:
        if name == "__init__" and _unsound_init_access(ex, base):
            # mypy: through an instance, `__init__` may be a subclass's, with another signature.
            ex.error(node, 'Accessing "__init__" on an instance is unsound, since instance.__init__ could be from an incompatible subclass', "misc")
        # `member_access`'s answer for an instance whose member was found before
        # (`self.x`, `items.append`: most attribute reads), without its two calls:
        # Members.get's look-up of the kept answer, written out (an enum's
        # value/name and a ctypes array's members are made there, not kept).
        ev = ex.ev
        if not ev.lazy_depth and name not in ENUM_VALUE_NAMES:
            hit = ev.members.found_table.get((base.info, name) if not base.args else (base, name))
            if hit is not None and hit[0] is not None and base.info.fullname != "_ctypes.Array":
                return hit[0]
        return member_access(ex, base, name, node)
    if type(base) is TypeType and ex.scope is not None:
        if ambiguous_generic_access(ex.ev, ex.scope, node):
            ex.error(node, MESSAGE, "misc")
    return member_access(ex, base, name, node)


def _unsound_init_access(ex: "ExprEvaluator", base: Instance) -> bool:
    """`obj.__init__` on an instance of a class that is not final and whose
    `__init__` is not final (mypy's rule; `super().__init__` is fine)."""
    info = base.info
    info.bases  # reads the class decorators (@final)
    if info.is_final or any(c.has_any_base or c.unknown_decorator for c in info.mro):
        return False
    hit = info.get("__init__")
    if hit is None:
        return False
    sym, cls = hit
    from veritype.evaluate.functions import decorator_names

    defs = [d for d in sym.decls if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return not any(n.endswith(".final") for d in defs for n in decorator_names(ex.ev, d, cls.scope))


def hidden_reexport(ex: "ExprEvaluator", base: "ModuleType", name: str) -> bool:
    """`module.name` where the module only imports `name` (--no-implicit-reexport)."""
    program = ex.ev.program
    module = program.get_module(base.name)
    if module is None:
        return False
    if not module.is_stub and program.options.implicit_reexport and not program.options.overrides and not program.options.inline:
        return False  # the default: every imported name of a .py module is exported
    return program.hidden_reexport(module, name)


def member_access(ex: "ExprEvaluator", base: Type, name: str, node: ast.AST | None) -> Type:
    # Exact classes (type classes are never subclassed): this runs for every attribute read.
    if type(base) is SpecialForm and base.name in NOT_CALLABLE:
        from veritype.evaluate.special_values import SHOWN, special_form_member

        t = special_form_member(ex.ev, name)
        if t is None:
            ex.error(node, f'"{SHOWN}" has no attribute "{name}"', "attr-defined")
            return ANY_ERROR
        return t
    if type(base) is UnionType:
        results: list[Type] = []
        for item in base.items:
            t = ex.ev.bound_member(item, name)
            if t is None and _plain_type(item):
                t = AnyType("special")
            if t is None:
                if isinstance(item, NoneType):
                    ex.error(node, f'Item "None" of "{format_type(base)}" has no attribute "{name}"', "union-attr")
                else:
                    ex.error(node, f'Item "{format_type(item)}" of "{format_type(base)}" has no attribute "{name}"', "union-attr")
                results.append(ANY_REPORTED)
            else:
                results.append(t)
        return make_union(results)
    if type(base) is Instance and base.info.fullname == "_ctypes.Array" and is_ctypes_array(base):
        special = array_member(ex.ev, base, name)
        if special is not None:
            if special[1] is not None:
                ex.error(node, special[1], "misc")
            return special[0]
    t = ex.ev.members.get(base, name)  # (Evaluator.bound_member, without the delegation's call)
    if t is None and _plain_type(base):
        # Spec, "type[]": a plain `type` is `type[Any]`, whose unknown
        # attributes are Any (the class could be any class).
        return AnyType("special")
    if t is None:
        if isinstance(base, ModuleType):
            # mypy names no module here (`Module has no attribute "x"`); it does for `from m import x`.
            ex.error(node, f'Module has no attribute "{name}"{maybe_suffix(ex, base, name)}', "attr-defined")
        elif isinstance(base, TypeType) and isinstance(base.item, Instance):
            ex.error(node, f'"type[{format_type(base.item)}]" has no attribute "{name}"', "attr-defined")
        elif isinstance(base, Overloaded):
            ex.error(node, f'overloaded function has no attribute "{name}"', "attr-defined")  # mypy's words, unquoted
        else:
            ex.error(node, f'"{format_type(base)}" has no attribute "{name}"{maybe_suffix(ex, base, name)}', "attr-defined")
            if missing_await(ex.ev, base, lambda awaited: ex.ev.bound_member(awaited, name) is not None):
                ex.note(node, MISSING_AWAIT)
        return ANY_REPORTED
    if type(base) is ModuleType and ex._hidden_reexport(base, name):
        ex.error(node, f'Module "{base.name}" does not explicitly export attribute "{name}"', "attr-defined")
    if type(base) is TypeType and type(base.item) is Instance and _instance_only(base.item, name):
        # Set only as `self.name = ...` in methods: the class object has no such attribute.
        ex.error(node, f'Cannot access instance-only attribute "{name}" on class object', "misc")
    return t


def maybe_suffix(ex: "ExprEvaluator", base: Type, name: str) -> str:
    """mypy's `; maybe "deposit"?` after an unknown attribute: the close
    matches among the names the class itself defines (not its bases), or
    the module's public names.

    Kept by (class or module, name) in `Members.suffixes`: the same unknown
    attribute is read again and again (425 suffixes for 91 distinct questions
    on the bench corpus: attrs' `Attribute.name`), each a similarity ratio
    against every candidate. Pure: a class's own table and a module's never
    change once bound; a forgotten module's go with `Members.forget`."""
    module = ex.ev.program.get_module(base.name) if isinstance(base, ModuleType) else None
    owner: object
    if module is not None:
        owner = module
    elif isinstance(base, Instance):
        owner = base.info
    else:
        return ""
    suffixes = ex.ev.members.suffixes
    key = (owner, name)
    kept = suffixes.get(key)
    if kept is not None:
        return kept
    if module is not None:
        candidates = [n for n, sym in module.symbols.items() if not (module.is_stub and _private_import(sym))]
    else:
        candidates = list(owner.symbols)  # type: ignore[attr-defined]
    matches = close_matches(name, candidates)
    suffix = suffixes[key] = f"; maybe {quoted_choices(matches)}?" if matches else ""
    return suffix


def _private_import(sym: "Symbol") -> bool:
    """An import a stub does not re-export (`import x`, `from m import y` without `as`)."""
    from veritype.semantic import symbols as S

    return sym.kind in (S.MODULE_REF, S.FROM_IMPORT) and not sym.explicit_reexport


def infer_subscript(ex: "ExprEvaluator", node: ast.Subscript, expected: Type | None) -> Type:
    key = expr_key(node) if ex.overlay or ex.flow.may_hold_members() else None
    if key is not None:
        for layer in reversed(ex.overlay):
            if key in layer:
                return layer[key]
        narrowed = ex.flow.lookup(key)
        if narrowed is not None:
            return narrowed
    base = ex.infer(node.value)
    if isinstance(node.value, ast.Dict) and not node.value.keys:
        # A bare `{}` has no context to take its types from: mypy's `dict[Never,
        # Never]`, which no key fits (trio: `lambda: {}["nope"]  # type: ignore[index]`).
        base = ex.ev.builtin("dict", NeverType(), NeverType())
    if type(base) is SpecialForm and base.name in SUBSCRIBED_OPAQUE:
        if ex.scope is not None:
            ex.ev.type_exprs.evaluate(node, ex.scope)
        # `Annotated[int, ""]` is a special form object, not `type[int]` (spec);
        # mypy types `Union[int, str]`, `Optional[int]`... the same way.
        return base
    if isinstance(base, (TypeType, SpecialForm)):
        # A generic alias or special form used as a value: `list[int]`, `Optional[int]`.
        check_type_application(ex, node)  # (`list[len(xs)]`: no type within)
        if ex.scope is not None:
            t = ex.ev.type_exprs.evaluate(node, ex.scope)
            if isinstance(t, (Instance, TupleType)) and isinstance(base, TypeType) and not (isinstance(base.item, Instance) and base.item.info.get("__class_getitem__") is None and not base.item.info.type_vars and base.item.info.fullname not in ("builtins.type", "builtins.tuple")):
                return TypeType(t)
        if isinstance(base, TypeType) and isinstance(base.item, Instance) and not base.item.info.type_vars and base.item.info.get("__class_getitem__") is None:
            if base.item.info.fullname == "builtins.type":
                return subscribed_type_value(ex.ev)  # `type[int]` as a value: a GenericAlias
            meta_get = ex.ev.bound_member(base, "__getitem__")
            if meta_get is not None:
                return ex._call_known(meta_get, [ex.infer(node.slice)], node)
            ex.error(node, f'The type "{format_type(base)}" is not generic and not indexable', "misc")  # (mypy: no code of its own)
            return ANY_ERROR
        return AnyType("special")
    return ex.subscript(base, node.slice, node)


def variadic_subscript(ex: "ExprEvaluator", base: TupleType, index_node: ast.expr, node: ast.AST) -> Type:
    """Indexing `tuple[int, *tuple[str, ...]]` / `tuple[T, *Ts]` (PEP 646): a constant
    index into the fixed parts is exact; no index is out of range for certain."""
    from veritype.types.tuples import index_variadic, slice_variadic, value_items

    idx = _int_literal(index_node)
    if idx is not None:
        ex.infer(index_node)
        return index_variadic(base, idx)
    if isinstance(index_node, ast.Slice) and all(_int_literal(x) is not None or x is None for x in (index_node.lower, index_node.upper, index_node.step)):
        lo, hi, st = (_int_literal(x) if x is not None else None for x in (index_node.lower, index_node.upper, index_node.step))
        cut = slice_variadic(base, lo, hi, st)
        if cut is not None:
            return cut
    ex.infer(index_node)
    if isinstance(index_node, ast.Slice):
        return ex.ev.builtin("tuple", make_union(value_items(base)))
    return make_union(value_items(base))


def subscript(ex: "ExprEvaluator", base: Type, index_node: ast.expr, node: ast.AST) -> Type:
    base = as_tuple(base)
    if isinstance(base, UnionType):
        return make_union([ex.subscript(i, index_node, node) for i in base.items])
    if isinstance(base, AnyType):
        ex.infer(index_node)
        return base
    if isinstance(base, TupleType) and any(isinstance(i, UnpackType) for i in base.items):
        return ex._variadic_subscript(base, index_node, node)
    if isinstance(base, TupleType):
        idx = _int_literal(index_node)
        if idx is not None:
            n = len(base.items)
            if -n <= idx < n:
                ex.infer(index_node)
                return base.items[idx]
            ex.error(node, "Tuple index out of range", "misc")
            return ANY_ERROR
        if isinstance(index_node, (ast.Name, ast.Attribute)):
            # Spec, "Literal": indexing a tuple with an expression of an int literal
            # type (`a: Literal[0]`) picks that item, as an int constant does.
            n = len(base.items)
            lits = union_items(ex.infer(index_node))
            idxs = [i.value for i in lits if isinstance(i, LiteralType) and type(i.value) is int]
            if idxs and len(idxs) == len(lits):
                if all(-n <= i < n for i in idxs):
                    return make_union([base.items[i] for i in idxs])  # type: ignore[index]
                if len(idxs) == 1:
                    ex.error(node, "Tuple index out of range", "misc")
                    return ANY_ERROR
        if isinstance(index_node, ast.Slice) and all(_int_literal(x) is not None or x is None for x in (index_node.lower, index_node.upper, index_node.step)):
            lo, hi, st = (_int_literal(x) if x is not None else None for x in (index_node.lower, index_node.upper, index_node.step))
            if st == 0:
                # Python raises ValueError for a zero step; mypy reports it here.
                ex.error(index_node, "Slice step cannot be zero", "misc")
                return ANY_ERROR
            return ex.ev.tuple_of(list(base.items[slice(lo, hi, st)]))
    if isinstance(base, TypedDictType):
        index_t = ex.infer(index_node)
        if isinstance(index_t, LiteralType) and isinstance(index_t.value, str):
            m = base.item_map()
            if index_t.value in m:
                return m[index_t.value]
            if base.extra is not None and not isinstance(base.extra, NeverType):
                return base.extra  # PEP 728: "infer their value type from the extra_items argument"
            ex.error(index_node, f'TypedDict "{format_type(base)}" has no key "{index_t.value}"', "typeddict-item")
            matches = close_matches(index_t.value, m)
            if matches:
                ex.note(index_node, f"Did you mean {quoted_choices(matches)}?")
            return ANY_ERROR
        from veritype.evaluate.typeddict_keys import check_key

        if check_key(ex, base, index_t, index_node):
            return ANY_ERROR
        keys = union_items(index_t)
        literal_keys = [k.value for k in keys if isinstance(k, LiteralType) and isinstance(k.value, str)]
        if len(keys) > 1 and len(literal_keys) == len(keys):
            # A union of literal keys (spec: "an expression with a suitable literal type"): the
            # union of their value types; an unknown key among them is left to the one-key path.
            m = base.item_map()
            if all(k in m for k in literal_keys):
                return make_union([m[k] for k in literal_keys])
        return ex.ev.builtin("object")
    if isinstance(base, NoneType):
        ex.infer(index_node)
        ex.error(node, 'Value of type "None" is not indexable', "index")
        return ANY_ERROR
    getitem = ex.ev.bound_member(base, "__getitem__")
    if getitem is None:
        ex.infer(index_node)
        ex.error(node, f'Value of type "{format_type(widen_literals(base))}" is not indexable', "index")
        return ANY_ERROR
    result = ex._call_node(getitem, [Arg(ARG_POS, node=index_node)], node, method="__getitem__", receiver=base)
    if isinstance(base, Instance) and is_ctypes_array(base) and isinstance(result, AnyType) and not isinstance(index_node, ast.Slice):
        # typeshed's Any item: the element type, unboxed as ctypes does (ctypes_arrays).
        item = unboxed_item(ex.ev, base)
        if item is not None:
            return item
    return result


def infer_slice(ex: "ExprEvaluator", node: ast.Slice, expected: Type | None) -> Type:
    parts = [ex.infer(x) if x is not None else NONE for x in (node.lower, node.upper, node.step)]
    t = ex.ev.instance("builtins.slice")
    if isinstance(t, Instance) and len(t.info.type_vars) == 3:
        return Instance(t.info, tuple(widen_literals(p) for p in parts))
    return t


def _plain_type(t: Type) -> bool:
    return type(t) is Instance and t.info.fullname == "builtins.type"


def as_tuple(t: Type) -> Type:
    """An instance of a class deriving from a fixed tuple (`sys.version_info`, a
    NamedTuple) as that tuple, with the instance as its fallback."""
    if type(t) is not Instance:
        return t
    # (`info.tuple_type` without the property's call where it is made already:
    # asked for every iterable and subscripted instance, 8.7k times on the bench
    # corpus, and of each class of the MRO of one of a class without parameters.)
    info = t.info
    if not info.type_vars:
        for cls in info.mro:
            tuple_type = cls._tuple_type if cls._special_done else cls.tuple_type
            if tuple_type is not None:
                return TupleType(tuple_type.items, t)
        return t
    tuple_type = info._tuple_type if info._special_done else info.tuple_type
    if tuple_type is not None and len(t.args) == len(info.type_vars) and all(v.kind == "typevar" for v in info.type_vars):
        # A generic NamedTuple's own fields, with the instance's type arguments.
        from veritype.types.substitute import substitute, tv_key

        mapping = {tv_key(v): a for v, a in zip(info.type_vars, t.args)}
        return TupleType(tuple(substitute(i, mapping) for i in tuple_type.items), t)
    return t


def _int_literal(node: ast.expr | None) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _instance_only(item: Instance, name: str) -> bool:
    """Whether `name` is, all along the MRO, an attribute set only through `self`
    (a class-level definition in any base makes it reachable on the class)."""
    found = False
    for cls in item.info.mro:
        if cls.has_any_base or cls.unknown_decorator or name in cls.synthesized:
            return False
        sym = cls.symbols.get(name)
        if sym is None:
            continue
        if not sym.is_instance_attr or cls.node is None or cls.is_enum_class() or cls.dataclass_info is not None:
            return False
        found = True
    return found
