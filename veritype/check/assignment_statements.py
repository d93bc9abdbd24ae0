"""Assignment statements: =, annotated and augmented assignments, their targets (names,
attributes, items, unpacking), declared-type narrowing on assignment and the first-
assignment declaration rules.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from veritype.evaluate.expressions import ExprEvaluator
from veritype.evaluate.reference_keys import expr_key
from veritype.semantic import symbols as S
from veritype.types.format import format_pair, format_type
from veritype.types.join import keep_context_literals, widen_literals
from veritype.types.model import AnyType, CallableType, Instance, LiteralType, ModuleType, TupleType, Type, TypedDictType, TypeType, TypeVarType, UnionType, UnpackType, union_items
from veritype.types.subtype import is_subtype
from veritype.check.unsolved_call import report_unsolved_call
from veritype.check.annotated_redefinition import check_annotated_redefinition, check_final_again, redefined_symbol
from veritype.check.assign_context import reassigned_empty_display
from veritype.check.declaring_values import infer_declaring_value
from veritype.check.assign_narrowing import keep_declared_over_any, narrow_on_assign, narrow_on_reassign
from veritype.check.attribute_targets import check_final_name, check_final_name_of, PLAIN, check_written_attribute, written_type
from veritype.check.partial_types import maybe_complete
from veritype.check.special_assignments import special_assignment, special_annassign
from veritype.check.special_form_imports import check_special_form_name
from veritype.check.type_targets import check_type_target
from veritype.evaluate.declarations import qualifiers, bind_in_callables
# (Modules, imported here: a `from package import module` in a function runs
# importlib's _handle_fromlist at each call, 22k calls on the bench corpus.
# The names above are read for every assignment: an import in the function
# costs about 0.5 us a call, 90k calls.)
from veritype.check import inferred_decls, var_annotated as va
from veritype.check.alias_rules import report_circular
from veritype.check.attribute_rules import check_attribute_assignment
from veritype.check.display_items import report_display_items
from veritype.check.inferred_attrs import inferred_attribute_type
from veritype.check.inferred_decls import lenient
from veritype.check.object_attribute_writes import object_attribute_declared
from veritype.check.qualifier_rules import check_qualifier_declaration
from veritype.check.var_annotated_reach import judge_var_annotated
from veritype.check.self_attributes import through_annotated_self
from veritype.check.typevar_scope_rules import check_alias_of_bound_type_var, check_unbound_in_annotation
from veritype.evaluate.calls import ARG_POS, Arg
from veritype.evaluate.lambda_returns import report_lambda_return
from veritype.evaluate.str_unpack import check_str_unpack
from veritype.evaluate.type_expr import TypeContext
from veritype.evaluate.typeddict_keys import check_key
from veritype.evaluate.typeddict_merges import merge_display

if TYPE_CHECKING:
    from veritype.check.module_checker import ModuleChecker
    from veritype.evaluate.classes import ClassInfo


_MAYBE_SPECIAL_IN_FUNCTION = (ast.Call, ast.Subscript)


def check_assign(mc: "ModuleChecker", stmt: ast.Assign) -> None:
    # Only a name assigned may be special, in a function only by a call or a
    # subscript (`A = list[len(xs)]`, an alias reported there): the first tests
    # of `special_assignment`, made here, as most assignments are neither.
    if (len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name
            and (type(stmt.value) in _MAYBE_SPECIAL_IN_FUNCTION or mc.scope.kind != "function")
            and special_assignment(mc, stmt)):
        return
    declared = None
    known: tuple[Type, Type | None, object] | None = None
    named: tuple[Type | None, object] | None = None
    if len(stmt.targets) == 1:
        first = stmt.targets[0]
        if type(first) is ast.Attribute:
            # The object's type and the attribute's declared type, which `assign`
            # asks again after the value's inference: handed over (`known`).
            base = ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(first.value)
            declared, through = attribute_facts(mc, first, base)
            known = (base, declared, through)
        elif type(first) is ast.Name:
            hit = local_symbol(mc, first.id)
            declared = _name_declared(mc, first, hit)
            if hit is not None and not stmt.type_comment:
                # `assign` asks again after `before_assign`, which may change the
                # record the answer read (the only part of it that can change):
                # handed over with that record (`named`).
                named = (declared, mc.inferred.get(id(hit[0])))
        if stmt.type_comment and isinstance(stmt.targets[0], ast.Name):
            from veritype.evaluate.type_comments import parse_type_comment_expr

            expr = parse_type_comment_expr(stmt.type_comment)
            if expr is not None:
                declared = mc.ev.type_exprs.evaluate(expr, mc.scope, report=mc.type_report(), allow_qualifiers=True)
            elif not stmt.type_comment.strip().startswith("ignore"):
                mc.error(stmt, f'Syntax error in type comment "{stmt.type_comment.strip()}"', "syntax")
    if declared is not None and mc.info.is_stub and isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis:
        return  # `x = ...  # type: int` in a stub (spec, "Module Level Attributes")
    # Each rule below but the inference judges one shape of statement, tested here
    # first (each is asked of every assignment, 12k on the bench corpus): a display
    # re-binding a name (infer_redisplay), an item assigned (setitem_context), an
    # empty display (maybe_complete, check_var_annotated; as `empty_display_kind`).
    value = stmt.value
    t = infer_redisplay(mc, stmt) if declared is None and type(value) in _DISPLAY_CLASSES else None
    if t is None:
        if declared is not None:
            t = mc.infer(value, declared)
        elif type(stmt.targets[0]) is ast.Subscript:
            t = mc.infer(value, setitem_context(mc, stmt.targets))
        else:
            t = infer_declaring_value(mc, stmt)  # (kept for the declaration when it is the same question)
    empty = va.empty_display_kind(value) is not None
    if empty:
        t = maybe_complete(mc, stmt, t, declared)
    for target in stmt.targets:
        assign(mc, target, t, value, known=known, named=named)
    if empty and declared is None and not stmt.type_comment:
        check_var_annotated(mc, stmt, t)
    elif declared is None and type(value) is ast.Call:
        report_unsolved_call(mc, stmt, t)


def setitem_context(mc: "ModuleChecker", targets: list[ast.expr]) -> Type | None:
    """`d[k] = value`: the value type `d.__setitem__` takes, as the context the
    value is inferred in (`[1, 2]` for a `dict[str, list[float]]`)."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Subscript):
        return None
    base = ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(targets[0].value)
    if not isinstance(base, Instance):
        return None
    setitem = mc.ev.bound_member(base, "__setitem__")
    if isinstance(setitem, CallableType) and not setitem.type_vars and len(setitem.params) == 2:
        return setitem.params[1].type
    return None


def check_var_annotated(mc: "ModuleChecker", stmt: ast.Assign, t: Type) -> None:
    attr = va.attribute_needs_annotation(mc, stmt, t)
    if attr is not None:
        mc.error(stmt.targets[0], va.message(*attr), "var-annotated")
        return
    if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) or mc.info.is_stub:
        return
    kind = va.empty_display_kind(stmt.value)
    if kind is None or not (isinstance(t, Instance) and t.info.fullname == f"builtins.{kind}"):
        return
    body = va.scope_body(mc)
    if body is None:
        return
    name = stmt.targets[0].id
    # mypy's local partial types (its default; a project's `local_partial_types =
    # false` is accepted, not enforced, and keeps the module's lax reading).
    local = mc.options.not_enforced.get("local_partial_types", True) is not False
    # Judged at the end of the scope's walk, without what it did not reach.
    judge_var_annotated(mc, stmt, t, name, kind, body, local, va.name_lines(mc, name), va.param_names(mc))


def infer_redisplay(mc: "ModuleChecker", stmt: ast.Assign) -> Type | None:
    """`xs = [Styled(x) for x in xs]` re-binding an unannotated list variable: the
    display is inferred in the context of the variable's current type, which it
    keeps if the items fit (mypy's inference from the first assignment), so a
    later `xs.append(other_item)` still works."""
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    if not isinstance(target, ast.Name) or not isinstance(stmt.value, _DISPLAYS):
        return None
    prior = mc.flow.lookup(target.id)
    if not isinstance(prior, Instance) or prior.info.fullname not in ("builtins.list", "builtins.set", "builtins.dict"):
        return None
    if any(isinstance(a, AnyType) for a in prior.args):
        return None
    silent = ExprEvaluator(mc.ev, mc.scope, mc.flow, None)
    t = silent.infer(stmt.value, prior)
    if not is_subtype(mc.ev, t, prior):
        return None
    return mc.infer(stmt.value, prior)


def declared_for_target(mc: "ModuleChecker", target: ast.expr) -> Type | None:
    # (Exact node classes here and in `assign`: ast nodes are never subclassed.)
    if type(target) is ast.Name:
        return _name_declared(mc, target, mc._local_symbol(target.id))  # type: ignore[attr-defined]
    if type(target) is ast.Attribute:
        return mc._attribute_declared(target)
    return None


def _name_declared(mc: "ModuleChecker", target: ast.Name, hit) -> Type | None:  # type: ignore[no-untyped-def]
    """`declared_for_target` of a name, whose symbol and scope `hit` are (`local_symbol`)."""
    if hit is None:
        return None
    sym, scope = hit
    d = mc.ev.declared_type(sym, scope)
    if d is not None:
        return d
    if sym.kind == S.PARAM:
        return _annotated_param_type(sym, scope)
    # An unannotated variable: the type its first assignment declared (mypy's rule).
    return inferred_decls.declared(mc, target)


def attribute_declared(mc: "ModuleChecker", target: ast.Attribute, base: Type | None = None) -> Type | None:
    """`target`'s declared type; `base`: the type of its object, if inferred (silently) already."""
    if base is None:
        base = ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(target.value)
    return attribute_facts(mc, target, base)[0]


def attribute_facts(mc: "ModuleChecker", target: ast.Attribute, base: Type) -> "tuple[Type | None, object]":
    """`target`'s declared type, with what a write to it goes through (`written_type`:
    PLAIN, or a setter's or `__set__`'s value type, or None), which `assign` asks
    again to decide whether the write narrows: both answered once."""
    through = written_type(mc.ev, base, target.attr)
    if through is not PLAIN:
        return through, through  # type: ignore[return-value]  # a property setter or a data descriptor
    return _plain_declared(mc, target, base), through


def _plain_declared(mc: "ModuleChecker", target: ast.Attribute, base: Type) -> Type | None:
    """`attribute_declared` of an attribute written plainly (no setter, no `__set__`)."""
    if isinstance(base, Instance):
        hit = base.info.get(target.attr)
        if hit is None:
            return None
        sym, cls = hit
        if sym.kind != S.VAR:
            return None
        declared = mc.ev.declared_type(sym, cls.scope)
        if declared is None:
            inherited = _base_declaration(mc, base, cls, target.attr) if sym.is_instance_attr and sym.annotation is None else None
            return inherited[0] if inherited is not None else None
        return mc.ev.members.get(base, target.attr)

    return object_attribute_declared(mc.ev, base, target.attr)


def _base_declaration(mc: "ModuleChecker", base: Instance, cls: "ClassInfo", name: str) -> "tuple[Type, ClassInfo] | None":
    """`self.x = v` in a class whose base declares `x: T`: the assignment writes the
    inherited attribute (mypy checks `v` against `T`); the declared type as seen
    from `base`, and the class declaring it."""
    mro = base.info.mro
    if cls not in mro:
        return None
    for sup in mro[mro.index(cls) + 1:]:
        sym = sup.symbols.get(name)
        if sym is None:
            continue
        if sym.kind != S.VAR:
            return None
        declared = mc.ev.declared_type(sym, sup.scope)
        if declared is None:
            if sym.is_instance_attr and sym.annotation is None:
                continue
            return None
        if qualifiers(mc.ev, sym, sup.scope) & {"ClassVar", "Final"}:
            return None  # reported by the ClassVar / Final rules
        from veritype.types.subtype import map_instance_to_supertype

        mapped = map_instance_to_supertype(base, sup) if sup.type_vars else None
        if sup.type_vars and mapped is None:
            return None
        if mapped is not None:
            from veritype.types.substitute import substitute, tv_key

            declared = substitute(declared, {tv_key(v): a for v, a in zip(sup.type_vars, mapped.args)})
        return declared, sup
    return None


def local_symbol(mc: "ModuleChecker", name: str):  # type: ignore[no-untyped-def]
    # Asked about five times for each name assigned (the rules of check_assign
    # and assign each look the target up; 64k times for 13k names on the bench
    # corpus): kept for the name and scope last asked about. Pure: a name
    # found in the scope's own chain of tables is found there for good (see
    # Evaluator.lookup); one found elsewhere (builtins, a star import) is not kept.
    scope = mc.scope
    kept = mc.local_symbol_kept
    if kept is not None and kept[0] == name and kept[1] is scope:
        return kept[2]
    hit = mc.ev.lookup(name, scope)
    if hit is not None and hit[1].module is scope.module:
        mc.local_symbol_kept = (name, scope, hit)
    return hit


def assign(mc: "ModuleChecker", target: ast.expr, t: Type, value: ast.expr | None, unpack_at: ast.AST | None = None,
           known: tuple[Type, Type | None, object] | None = None, named: tuple[Type | None, object] | None = None) -> None:
    """Assign `t` (of `value`, when there is one) to `target`; `unpack_at`: where
    unpacking a str into a tuple target is reported (a loop's `for` statement;
    by default the value, else the target); `known`: an attribute target's
    object type, declared type and `written_type`, as found before the value was
    inferred (used while the object's type is still that: `attribute_facts` is a
    function of the two); `named`: a name target's declared type, with the
    variable's record in `ModuleChecker.inferred` it was found with (used while
    that record is still the same object: `_name_declared` reads nothing else that
    can change)."""
    if type(target) is ast.Name:
        # (`local_symbol`'s kept answer read first: check_assign asked it of this name.)
        kept = mc.local_symbol_kept
        hit = kept[2] if kept is not None and kept[0] == target.id and kept[1] is mc.scope else mc._local_symbol(target.id)  # type: ignore[attr-defined]
        if hit is not None and (hit[0].kind != S.VAR or hit[0].annotation is not None or mc.scope.table.star_imports):
            # (`check_final_name_of`'s first test made here: most names assigned are
            # variables without an annotation, where no star import could bring a Final.)
            check_final_name_of(mc, target, hit)
        # Both rules judge a name bound to a class, an import or a module, never a
        # variable, parameter or function (most names assigned): asked only then.
        kind = hit[0].kind if hit is not None else None
        if (kind == S.CLASS or kind == S.FROM_IMPORT or kind == S.MODULE_REF) and (
                check_type_target(mc, target, t, value) or inferred_decls.check_module_name(mc, target, t, value) or check_special_form_name(mc, target, t, value)):
            return
        # The inferred-declaration rule acts only on a variable it tracks:
        # `before_assign` where `target` assigns it again, `declared_as` (what
        # `record` does) where `target` declares it; asked once here, for every
        # name assigned (13k on the bench corpus).
        tracked, declaring = inferred_decls.declaration(mc, target)
        if tracked is not None and not declaring:
            inferred_decls.before_assign(mc, target, value, t, tracked)
        if named is not None and hit is not None and mc.inferred.get(id(hit[0])) is named[1]:
            declared = named[0]
        else:
            declared = _name_declared(mc, target, hit)  # (`hit` is `local_symbol`'s, which is pure)
        if declared is not None and isinstance(t, AnyType) and inferred_decls.declared(mc, target) is not None:
            # mypy's binder: an Any value narrows a variable whose type was inferred
            # (`provider_cls = getattr(module, name)` after `provider_cls = d[k]`) to
            # Any; only an explicit annotation keeps its type (narrowing/assign_any_value.md).
            mc.flow.bind(target.id, t)
            return
        lenient_over: Type | None = None
        if declared is not None and inferred_decls.declared(mc, target) is not None and inferred_decls.lenient(mc, target, t, value, declared):
            lenient_over, declared = declared, None  # an inferred declaration mypy would not enforce here
        if declared is not None:
            if not is_subtype(mc.ev, t, declared):
                if value is None or not report_display_items(mc, value, declared):
                    got, exp = format_pair(t, declared)
                    mc.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
                    mc.explain_protocol(value if value is not None else target, t, declared)

                    report_lambda_return(mc.ev, value, t, declared, mc.error)
                # mypy keeps the type the name had before a rejected assignment
                # (`last = bytearray(last)` into `bytes | None` after `last is None` ruled out);
                # where nothing narrowed it on this path, that is its declared type
                # (cattrs: `if handler:` after a rejected `handler = find(...)`).
                if mc.flow.lookup(target.id) is None:
                    mc.flow.bind(target.id, declared)
                return
            _concrete_class_assigned(mc, value, declared)
            mc.flow.bind(target.id, narrow_on_reassign(mc.ev, declared, t))
        else:
            keep = value is not None and _declared_literal_source(mc, value)
            # Kept are the literals a declaration wrote; an inferred one (an enum's
            # `.value`, mypy's `Literal[1]?`) widens even through an attribute.
            if keep:
                bound = keep_context_literals(t)
            elif isinstance(value, ast.Tuple):
                # A tuple display's items keep the literal types a declaration gave
                # them (`k = (choice_type, key)`), as mypy; literal expressions widen.
                bound = _widen_for_variable(mc.ev, t, hit, keep_declared=True)
            else:
                bound = _widen_for_variable(mc.ev, t, hit, keep_declared=value is None)
            bound = reassigned_empty_display(mc, target, bound, hit)
            if lenient_over is not None and is_subtype(mc.ev, bound, lenient_over):
                bound = keep_declared_over_any(mc.ev, lenient_over, bound)
            mc.flow.bind(target.id, bound)
            if tracked is not None and declaring:
                inferred_decls.declared_as(mc, target, bound, tracked)
    elif type(target) is ast.Attribute:
        mc.infer(target.value)
        # The object's type, as the rules below read it (silently: reported above).
        # Nothing between them binds: inferred once for them all, and handed down.
        base_t = ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(target.value)
        # Only an attribute of a module or a class object can name a class (check_type_target).
        if type(base_t) in _MODULE_OR_CLASS_OBJECT and check_type_target(mc, target, t, value):
            return
        if known is not None and (known[0] is base_t or known[0] == base_t):
            declared, through = known[1], known[2]
        else:
            declared, through = attribute_facts(mc, target, base_t)
        enforced = declared
        if enforced is None:
            # An unannotated attribute: the type its first assignment declared.
            enforced = inferred_attribute_type(mc, target, base_t)

            if enforced is not None and lenient(mc, target, t, value, enforced):
                enforced = None
        if enforced is not None and not is_subtype(mc.ev, t, enforced):
            got, exp = format_pair(t, enforced)
            mc.error(value if value is not None else target, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
            return

        unknown = check_attribute_assignment(mc, target, t, value, base_t)
        # An attribute nothing declares is not narrowed either: mypy reads it as before.
        refused = check_written_attribute(mc, target, base_t) or unknown
        mc._record_self_assignment(target, t, value)
        key = expr_key(target)
        if key is not None:
            if isinstance(base_t, AnyType):
                # An attribute of an Any value is Any, and assigning it narrows
                # nothing (mypy: `c = copy(c)` with `c: Any`, then `c.name = i`
                # on one branch leaves `c.name` Any after the branches).
                mc.flow.invalidate(key)
            elif refused or through is not PLAIN:
                # Through a setter or `__set__`: reading goes through the getter, not narrowed.
                mc.flow.invalidate(key)
            else:
                # An Any value does not narrow an unannotated attribute either: it keeps the
                # type its first assignment declared (mypy: `self.n = 0`, later `self.n = any_value`).
                narrow_to = declared if declared is not None else enforced if isinstance(t, AnyType) else None
                # A declared attribute narrows to the value's class as a declared name does
                # (mypy: `cls.proxy = Sub()` for `proxy: ClassVar[Base]` reads as `Sub`).
                mc.flow.bind(key, (narrow_on_reassign(mc.ev, narrow_to, t) if declared is not None else narrow_on_assign(mc.ev, narrow_to, t)) if narrow_to is not None else t)
    elif isinstance(target, ast.Subscript):
        base = mc.infer(target.value)
        mc._setitem(target, base, t, value)
        key = expr_key(target)
        if key is not None:
            mc.flow.invalidate(key)
    elif isinstance(target, (ast.Tuple, ast.List)):
        exprs = mc.exprs()
        at = unpack_at or value or target
        # mypy reports a str unpacked by a nested target on the display's item,
        # or else on the whole value.
        sub_at: list[ast.AST] = [at] * len(target.elts)
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(isinstance(e, ast.Starred) for e in target.elts + value.elts) and isinstance(t, TupleType):
            items = list(t.items)
            sub_at = list(value.elts)
        else:
            check_str_unpack(exprs, t, at)
            items = exprs.unpack(t, len(target.elts), target)
        for k, (sub, item) in enumerate(zip(target.elts, items)):
            if isinstance(sub, ast.Starred):
                mc.assign(sub.value, _star_target_list(mc, sub.value, item, _fixed_middle(t, k, len(target.elts))), None)
            else:
                mc.assign(sub, item, None, sub_at[k])
    elif isinstance(target, ast.Starred):
        mc.assign(target.value, t, value)


_MODULE_OR_CLASS_OBJECT = frozenset((ModuleType, TypeType))


def _fixed_middle(t: Type, star: int, n: int) -> list[Type] | None:
    """The items of a fixed-length tuple value that a starred target at `star`
    (of `n` targets) receives, of each member for a union of such tuples
    (mypy assigns from each member); None for any other value."""
    if isinstance(t, UnionType):
        out: list[Type] = []
        for item in t.items:
            part = _fixed_middle(item, star, n)
            if part is None:
                return None
            out.extend(part)
        return out
    if not isinstance(t, TupleType) or any(isinstance(i, UnpackType) for i in t.items) or len(t.items) < n - 1:
        return None
    return list(t.items[star:len(t.items) - (n - star - 1)])


def _star_target_list(mc: "ModuleChecker", target: ast.expr, item: Type, middle: list[Type] | None) -> Type:
    """The list a starred target receives. From a fixed-length tuple, mypy checks
    it as a list display of those items with the target's declared type as
    context, so `unused: list[object]` takes `val, *unused = (1, "a", b"")`, and
    an item that does not fit is a `list-item` error (mypy's message)."""
    declared = mc._declared_for_target(target) if isinstance(target, ast.Name) else None
    if middle is not None and isinstance(declared, Instance) and declared.info.fullname == "builtins.list" and len(declared.args) == 1:
        want = declared.args[0]
        for i, m in enumerate(middle):
            if not is_subtype(mc.ev, m, want):
                got, exp = format_pair(m, want)
                mc.error(target, f'List item {i} has incompatible type "{got}"; expected "{exp}"', "list-item")
        return declared
    return mc.ev.builtin("list", _widen_lit(item))


def record_self_assignment(mc: "ModuleChecker", target: ast.Attribute, t: Type, value: ast.expr | None) -> None:
    """Remember the type assigned to `self.x` here, narrowing included, for the
    inference of unannotated instance attributes (declarations._flow_assigned)."""
    if value is None or not isinstance(target.value, ast.Name):
        return
    cls = mc.scope.method_class()
    fn = mc.scope.function
    if cls is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return
    params = [*fn.args.posonlyargs, *fn.args.args]
    if not params or params[0].arg != target.value.id:
        return
    sym = cls.symbols.get(target.attr)
    if sym is not None and sym.is_instance_attr and (sym.annotation is None or mc.ev.declared_type(sym, cls.scope) is None):
        # Unannotated, or a bare `Final` whose type comes from the value.
        sym.cache.setdefault("assigned", {})[id(value)] = t  # type: ignore[index]


def setitem(mc: "ModuleChecker", target: ast.Subscript, base: Type, value_t: Type, value: ast.expr | None) -> None:
    for item in union_items(base):
        if isinstance(item, AnyType):
            mc.infer(target.slice)
            continue
        if isinstance(item, Instance) or isinstance(item, (TupleType,)) or True:
            if isinstance(item, TypedDictType):
                key_t = mc.infer(target.slice)
                if isinstance(key_t, LiteralType) and isinstance(key_t.value, str):
                    m = item.item_map()
                    if key_t.value not in m:
                        mc.error(target.slice, f'TypedDict "{format_type(item)}" has no key "{key_t.value}"', "typeddict-item")
                    elif not is_subtype(mc.ev, value_t, m[key_t.value]):
                        mc.error(value or target, f'Value of "{key_t.value}" has incompatible type "{format_type(value_t)}"; expected "{format_type(m[key_t.value])}"', "typeddict-item")
                    elif key_t.value in item.readonly:
                        mc.error(target, f'ReadOnly TypedDict key "{key_t.value}" TypedDict is mutated', "typeddict-readonly-mutated")
                else:
                    check_key(mc.exprs(), item, key_t, target.slice)
                continue
            setitem = mc.ev.bound_member(item, "__setitem__")
            if setitem is None:
                mc.infer(target.slice)
                mc.error(target, f'Unsupported target for indexed assignment ("{format_type(item)}")', "index")
                continue
            if isinstance(setitem, CallableType) and not setitem.type_vars and len(setitem.params) == 2:
                # mypy's wording for `d["a"] = "b"` when only the value is wrong.
                key_p, val_p = setitem.params
                if is_subtype(mc.ev, mc.infer(target.slice), key_p.type) and not is_subtype(mc.ev, value_t, val_p.type):
                    got, exp = format_pair(value_t, val_p.type)
                    mc.error(value or target, f'Incompatible types in assignment (expression has type "{got}", target has type "{exp}")', "assignment")
                    continue
            exprs = mc.exprs()
            exprs._call_node(setitem, [Arg(ARG_POS, node=target.slice), Arg(ARG_POS, type=value_t, node=value)], target, method="__setitem__", receiver=item)


def check_ann_assign(mc: "ModuleChecker", stmt: ast.AnnAssign) -> None:
    check_final_again(mc, stmt)
    first = redefined_symbol(stmt)
    if first is not None:
        check_annotated_redefinition(mc, stmt, first)
        return
    if special_annassign(mc, stmt):
        return
    ctx = TypeContext(mc.scope, report=mc.type_report(), allow_qualifiers=True, self_class=mc.scope.enclosing_class())

    declared = bind_in_callables(mc.ev.type_exprs.eval(stmt.annotation, ctx))
    if isinstance(stmt.target, ast.Attribute):
        declared = through_annotated_self(mc, stmt.target, declared)
    if "TypeAlias" not in ctx.qualifiers:
        check_unbound_in_annotation(mc, stmt.annotation, declared)
    elif stmt.value is not None:
        check_alias_of_bound_type_var(mc, stmt.value)
    bare_qualifier = ctx.qualifiers & {"Final", "ClassVar"} and isinstance(stmt.annotation, (ast.Name, ast.Attribute))

    check_qualifier_declaration(mc, stmt, ctx.qualifiers, declared)
    if "TypeAlias" in ctx.qualifiers:
        if stmt.value is None and not mc.info.is_stub:
            mc.error(stmt, "A type alias declared with TypeAlias needs a value", "valid-type")
        if stmt.value is not None:
            sym = mc.scope.table.get(stmt.target.id) if isinstance(stmt.target, ast.Name) else None
            if sym is None or sym.node is not stmt or not report_circular(mc, sym, stmt):
                mc.ev.type_exprs.evaluate(stmt.value, mc.scope, report=mc.type_report())
        return
    if "ClassVar" in ctx.qualifiers and mc.scope.kind != "class":
        mc.error(stmt.annotation, "ClassVar can only be used for assignments in class body", "misc")
    if stmt.value is None:
        if "Final" in ctx.qualifiers and mc.scope.kind != "class" and not mc.info.is_stub:
            mc.error(stmt, "Final name must be initialized with a value", "misc")
        return
    if bare_qualifier:
        t = mc.infer(stmt.value)
        mc.assign_literal_ok(stmt.target, t)
        if isinstance(stmt.target, ast.Attribute):
            # `self.scope: Final = scope` after `scope` was narrowed: mypy infers the
            # attribute from the value's type here, narrowing included.
            record_self_assignment(mc, stmt.target, t, stmt.value)
        return
    if mc.info.is_stub and isinstance(stmt.value, ast.Constant) and stmt.value.value is Ellipsis:
        return  # `x: int = ...` in a stub: the value is elided, not an EllipsisType
    t = mc.infer(stmt.value, declared)
    if not is_subtype(mc.ev, t, declared):
        if not report_display_items(mc, stmt.value, declared):
            got, exp = format_pair(t, declared)
            mc.error(stmt.value, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
            mc.explain_protocol(stmt.value, t, declared)

            report_lambda_return(mc.ev, stmt.value, t, declared, mc.error)
        return
    _concrete_class_assigned(mc, stmt.value, declared)
    if isinstance(stmt.target, ast.Name):
        # mypy 2.4 does not narrow a name by the value of its own annotated
        # declaration: after `x: int | str = 10` x is `int | str` (a later plain
        # assignment narrows). Attributes are narrowed, below.
        mc.flow.bind(stmt.target.id, declared)
    elif isinstance(stmt.target, ast.Attribute):
        mc.infer(stmt.target.value)
        key = expr_key(stmt.target)
        if key is not None:
            # `self.s: Sequence[str] = []` narrows `self.s` to the list (mypy does, for
            # attributes though not for plain names), so `self.s.append(x)` follows.
            mc.flow.bind(key, narrow_on_reassign(mc.ev, declared, t))
    else:
        mc.infer(stmt.target)


def _concrete_class_assigned(mc: "ModuleChecker", value: ast.expr | None, declared: Type) -> None:
    if isinstance(declared, TypeType) and value is not None:
        from veritype.evaluate.abstract_class_objects import abstract_class_given, assignment_message

        if abstract_class_given(mc.ev, mc.scope, value, declared):
            mc.error(value, assignment_message(declared), "type-abstract")


def assign_literal_ok(mc: "ModuleChecker", target: ast.expr, t: Type) -> None:
    if isinstance(target, ast.Name):
        mc.flow.bind(target.id, t)


def check_aug_assign(mc: "ModuleChecker", stmt: ast.AugAssign) -> None:
    target_t = mc.infer(stmt.target)
    if isinstance(stmt.op, ast.Add) and isinstance(stmt.value, ast.List) and isinstance(target_t, Instance) and target_t.info.fullname == "builtins.list":
        # `l += ["a"]` on a list[int]: mypy checks the display's items against the list's.
        if report_display_items(mc, stmt.value, target_t):
            return
        value_t = mc.infer(stmt.value, target_t)
    elif isinstance(stmt.op, ast.BitOr) and isinstance(target_t, TypedDictType) and isinstance(stmt.value, ast.Dict):
        if merge_display(mc.exprs(), target_t, stmt.value, mutates=True):
            return  # `td |= {...}`: the TypedDict keeps its type
        value_t = mc.infer(stmt.value)
    else:
        value_t = mc.infer(stmt.value)
    result = mc.exprs().binary(stmt, target_t, value_t, stmt.op, augmented=True)

    if isinstance(stmt.target, ast.Name):
        check_final_name(mc, stmt.target)
    elif isinstance(stmt.target, ast.Attribute):
        check_written_attribute(mc, stmt.target, ExprEvaluator(mc.ev, mc.scope, mc.flow, None).infer(stmt.target.value))
    if isinstance(stmt.target, ast.Name):
        declared = mc._declared_for_target(stmt.target)
        if declared is not None and not is_subtype(mc.ev, result, declared):
            got, exp = format_pair(result, declared)
            mc.error(stmt, f'Incompatible types in assignment (expression has type "{got}", variable has type "{exp}")', "assignment")
            return
        mc.flow.bind(stmt.target.id, narrow_on_assign(mc.ev, declared, result) if declared is not None else result)
    elif isinstance(stmt.target, ast.Subscript):
        base = mc.infer(stmt.target.value)
        mc._setitem(stmt.target, base, result, stmt.value)
    else:
        key = expr_key(stmt.target)
        if key is not None:
            # `node.count -= 1` keeps the narrowing of `node.count` as the result.
            mc.flow.bind(key, result)


def _annotated_param_type(sym, scope) -> Type | None:  # type: ignore[no-untyped-def]
    """An annotated parameter's declared type: assigning to it must fit (spec,
    "Type annotations": a parameter annotation declares the name's type for the
    whole body). An unannotated `self`/`cls` has its inferred type, any other
    unannotated one is Any. An annotated `Any` is kept: mypy does not narrow it by assignment (binder.assign_type)."""
    node = sym.node
    func = scope.function
    if not isinstance(node, ast.arg) or func is None:
        return None
    if node.annotation is None and getattr(func, "type_comment", None) is None:
        implicit = _implicit_self_type(sym, scope)
        if implicit is not None:
            return implicit
        # Any other unannotated parameter is declared Any (implicitly): mypy's
        # binder does not narrow it by an assignment either, as its Var is no
        # inferred variable (`def test(self, schema): schema = MySchema()`
        # leaves `schema` Any; marshmallow's tests).
        t = scope.param_types.get(sym.name)
        return t if isinstance(t, AnyType) else None
    t = scope.param_types.get(sym.name)
    if isinstance(t, AnyType):
        return t if t.reason == "explicit" else None
    return t if isinstance(t, Type) else None


def _implicit_self_type(sym, scope) -> Type | None:  # type: ignore[no-untyped-def]
    """A method's unannotated `self` / `cls`: mypy declares it the type it gives it
    (`P`, `type[P]`, or `Self` / `type[Self]` in a method using Self), so `cls = Q`
    in a `-> Self` method is `Incompatible types in assignment (expression has
    type "type[Q]", variable has type "type[Self]")` (mypy 2.4.1; trio's
    `Path.__new__`)."""
    func = scope.function
    parent = scope.parent
    if parent is None or parent.kind != "class" or not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [*func.args.posonlyargs, *func.args.args]
    if not params or params[0] is not sym.node:
        return None
    t = scope.param_types.get(sym.name)
    if isinstance(t, TypeType):
        return t if isinstance(t.item, (Instance, TypeVarType)) else None
    return t if isinstance(t, (Instance, TypeVarType)) else None


def _widen_lit(t: Type) -> Type:
    if isinstance(t, LiteralType):
        return t.fallback
    return t


def _widen_for_variable(ev, t: Type, hit, keep_declared: bool = False) -> Type:  # type: ignore[no-untyped-def]
    """The type a name takes from an assigned value: literals widen (mypy's
    `x = "a"` is `str`), except for a Final name. `keep_declared`: the value is
    an item of something (a for-loop's item, an unpacked part), whose declared
    literal types stay, as mypy keeps `Literal` (only an inferred literal is
    widened): `for d in ds` with `ds: Sequence[Literal["a", "b"]]`. `hit`: the
    name looked up in the checker's scope (`local_symbol`, which `assign` asked)."""
    # (Only an annotation gives a variable qualifiers: declarations.compute_declared_type.)
    if hit is not None and hit[0].annotation is not None and "Final" in qualifiers(ev, *hit):
        return t
    return widen_literals(t, keep_declared=keep_declared)


_DISPLAYS = (ast.List, ast.ListComp, ast.Set, ast.SetComp, ast.Dict, ast.DictComp)
_DISPLAY_CLASSES = frozenset(_DISPLAYS)  # (exact node classes: ast nodes are never subclassed)
_MEMBER_OR_CALL = frozenset((ast.Attribute, ast.Subscript, ast.Call, ast.Await))


def _declared_literal_source(checker: ModuleChecker, value: ast.expr) -> bool:
    """Whether a literal type of `value` comes from a declaration (`align = self.align`
    where `align: Literal[...]`, a call returning a Literal), not from a literal
    expression: mypy widens only the latter when inferring a variable's type."""
    cls = type(value)  # (exact node classes: ast nodes are never subclassed)
    if cls in _MEMBER_OR_CALL:
        return True
    if cls is ast.BoolOp:
        # `kind() or ""`: mypy infers the right operand in the context of the
        # left one, so a str constant after a declared Literal is a literal too.
        first, rest = value.values[0], value.values[1:]  # type: ignore[attr-defined]
        return _declared_literal_source(checker, first) and all(
            type(v) is ast.Constant or _declared_literal_source(checker, v) for v in rest)
    if cls is ast.IfExp:
        return _declared_literal_source(checker, value.body) and _declared_literal_source(checker, value.orelse)  # type: ignore[attr-defined]
    if cls is ast.Name:
        hit = checker.ev.lookup(value.id, checker.scope)  # type: ignore[attr-defined]
        if hit is None:
            return False
        sym = hit[0]
        if sym.kind == S.PARAM:
            return True
        ann = sym.annotation
        if ann is None:
            return False
        # `X: Final = 1` infers `Literal[1]` from the value: that one widens.
        bare_final = isinstance(ann, (ast.Name, ast.Attribute)) and (ann.id if isinstance(ann, ast.Name) else ann.attr) == "Final"
        return not bare_final
    return False
