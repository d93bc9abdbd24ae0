"""Class information: bases, MRO, type parameters and members, computed on demand.

A `ClassInfo` is the identity of a class. Types refer to it; it is built
once per class definition and fills itself in lazily, so a class of
typeshed that nothing uses costs only its binding.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

from veritype.semantic.binder import collect_instance_attributes
from veritype.semantic.symbols import Symbol, SymbolTable
from veritype.types.model import Instance, TupleType, Type, TypeType, TypeVarType, AnyType
from veritype.evaluate.scopes import Scope
from veritype.evaluate.special_classes import synthesize

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator
    from veritype.evaluate.program import ModuleInfo
    from veritype.evaluate.scopes import Scope


_T = TypeVar("_T")


class _KeptOnceFinal(Generic[_T]):
    """A lazily computed attribute of a `ClassInfo` that, once final, is read
    without a call.

    The members, MRO, bases, type variables and scope of a class are asked for
    again and again (about 400,000 reads on the bench corpus, most of them of
    values computed long before), and a property runs a function on each read.
    This is a non-data descriptor: `compute` gives the answer and, once that
    answer can no longer change, stores it in the instance's `__dict__` under
    the attribute's name, where later reads find it as a plain attribute. An
    answer that is not final yet (read while the class's bases are being
    evaluated, or its MRO computed) is returned without being stored, so it is
    asked again, exactly as the property did.
    """

    __slots__ = ("compute",)

    def __init__(self, compute: "Callable[[ClassInfo], _T]") -> None:
        self.compute = compute

    def __get__(self, obj: "ClassInfo", owner: object = None) -> _T:
        return self.compute(obj)


class ClassInfo:
    def __init__(self, evaluator: "Evaluator", name: str, fullname: str, module: "ModuleInfo", node: ast.ClassDef | None, defining_scope: "Scope | None") -> None:
        self.ev = evaluator
        self.name = name
        self.fullname = fullname
        self.module = module
        self.node = node
        self.defining_scope = defining_scope
        self._symbols: SymbolTable | None = None
        self._scope: Scope | None = None
        self._type_vars: tuple[TypeVarType, ...] | None = None
        self._bases: tuple[Instance, ...] | None = None
        self._mro: tuple[ClassInfo, ...] | None = None
        self._resolving = False
        self.class_object: TypeType | None = None  # see class_object_type
        self.defines_truth: bool | None = None  # see truthiness._defines_truth
        # Flags set while the bases are evaluated.
        self.is_protocol = False
        self.is_runtime_checkable = False
        self.is_final = False
        self.is_enum = False
        self.is_typeddict = False
        self.is_namedtuple = False
        self.is_newtype = False
        self.has_any_base = False
        self._unknown_decorator = False  # set with the bases; see class_bases and the property
        self.metaclass_expr: ast.expr | None = None
        self.dataclass_info: object = None
        self.decorators: list[str] = []
        # Members made by the checker rather than written in the body
        # (NamedTuple fields, NewType's constructor, dataclass __init__).
        # Filled lazily by `evaluate.special_classes` on first use (see the properties).
        self._synthesized: dict[str, Type] = {}
        self._tuple_type: TupleType | None = None
        self._special_done = False
        self.newtype_base: Type | None = None
        self.special_generic_params: tuple[TypeVarType, ...] | None = None
        # Member names of an `Enum("E", "A B")` call (see functional_classes); None otherwise.
        self.functional_enum_members: list[str] | None = None
        self.inconsistent_mro = False  # C3 linearization failed (see compute_mro)
        # Their values where the call spells them (dict and pair forms).
        self.functional_enum_values: dict[str, ast.expr] = {}
        self._no_args_instance: Instance | None = None  # see no_args_instance
        self._self_instance: Instance | None = None  # see self_instance
        # class_bases.abstract_members' answer, and the names of this body it looks at.
        self.abstract_names: list[str] | None = None
        self.abstract_candidates: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"<ClassInfo {self.fullname}>"

    @property
    def display_name(self) -> str:
        return self.name

    # -- members made up from the class body (dataclass, NamedTuple) ------------

    def _get_synthesized(self) -> dict[str, Type]:
        self._ensure_special()
        if self._special_done or self.node is None:
            # Always the same dict, filled in place; nothing is left to trigger.
            self.__dict__["synthesized"] = self._synthesized
        return self._synthesized

    synthesized = _KeptOnceFinal(_get_synthesized)

    @property
    def unknown_decorator(self) -> bool:
        """A class decorator veritype does not model may add members or change the
        constructor: lookups on the class stay lenient. `@dataclass` (and a
        dataclass_transform decorator) is modelled once the class is synthesized,
        so the answer is read after that: it must not depend on whether something
        asked for a constructor first."""
        if self._unknown_decorator and not self._special_done:
            self._ensure_special()
        return self._unknown_decorator

    @unknown_decorator.setter
    def unknown_decorator(self, value: bool) -> None:
        self._unknown_decorator = value

    @property
    def tuple_type(self) -> TupleType | None:
        if not self._special_done:  # (`_ensure_special`'s first test, without its call)
            self._ensure_special()
        return self._tuple_type

    @tuple_type.setter
    def tuple_type(self, value: TupleType | None) -> None:
        self._tuple_type = value

    def _ensure_special(self) -> None:
        # Done once, on first need: the class's fields are only evaluated when
        # something asks for a constructor or a synthesized member.
        if self._special_done or self.node is None or self._resolving:
            return
        self._special_done = True
        self._ensure_bases()

        with self.ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
            try:
                synthesize(self.ev, self)
            except RecursionError:
                self._synthesized.clear()

    # -- lazily computed ----------------------------------------------------

    def _get_symbols(self) -> SymbolTable:
        if self._symbols is None:
            if self.node is None:
                self._symbols = SymbolTable()
            else:
                binder = self.ev.program.binder_for(self.module)
                table = binder.bind_class(self.node)
                collect_instance_attributes(self.node, table)
                self._symbols = table
        self.__dict__["symbols"] = self._symbols
        return self._symbols

    symbols = _KeptOnceFinal(_get_symbols)

    def _get_scope(self) -> "Scope":
        scope = self._scope
        if scope is None:
            assert self.defining_scope is not None
            scope = self._scope = Scope("class", self.symbols, self.module, self.defining_scope, self.fullname, cls=self)
            self._ensure_bases()
            for tv in self.type_vars:
                scope.type_vars[tv.fullname] = tv
            if self.node is not None:
                for name, tv in self.ev.pep695_params(self.node, self.fullname, self.defining_scope).items():
                    scope.type_params[name] = tv
            # Kept only here, once filled in: a read while it is filled in (from the
            # bases or type parameters) finds the scope as it is so far, as before.
            self.__dict__["scope"] = scope
        return scope

    scope = _KeptOnceFinal(_get_scope)

    def _get_type_vars(self) -> tuple[TypeVarType, ...]:
        self._ensure_bases()
        assert self._type_vars is not None
        return self._type_vars

    type_vars = _KeptOnceFinal(_get_type_vars)

    def _get_bases(self) -> tuple[Instance, ...]:
        self._ensure_bases()
        assert self._bases is not None
        return self._bases

    bases = _KeptOnceFinal(_get_bases)

    def _keep_bases(self) -> None:
        """The bases and type variables are final once set outside their own
        evaluation (a cycle through the bases sets them to () for the time
        being; `functional_classes` and `newtype` set them before any read)."""
        if self._bases is not None and self._type_vars is not None and not self._resolving:
            self.__dict__["bases"] = self._bases
            self.__dict__["type_vars"] = self._type_vars

    def _ensure_bases(self) -> None:
        if self._bases is not None:
            self._keep_bases()
            return
        if self._resolving:
            # A cycle through the bases (`class A(B)`, `class B(A)`): treat as no bases.
            self._bases, self._type_vars = (), ()
            return
        self._resolving = True
        with self.ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
            try:
                bases, tvs = self.ev.class_bases(self)
            finally:
                self._resolving = False
        self._bases, self._type_vars = bases, tvs
        self._keep_bases()

    def _get_mro(self) -> tuple["ClassInfo", ...]:
        mro = self._mro
        if mro is None:
            self._mro = (self,)  # guards against cycles while computing (not kept)
            with self.ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
                mro = self._mro = compute_mro(self)
            self.__dict__["mro"] = mro
        return mro

    mro = _KeptOnceFinal(_get_mro)

    def is_enum_class(self) -> bool:
        return self.is_enum or self.has_base("enum.Enum") or self._enum_metaclass()

    def _enum_metaclass(self) -> bool:
        """Spec, "Enums": an enum class is one made by `EnumType` - also through a
        subclass of it given as `metaclass=`, without deriving from `Enum`."""
        cached = getattr(self, "_enum_meta", None)
        if cached is not None:
            return cached
        self._enum_meta = False  # also the answer while the metaclass is evaluated
        if self.node is None:
            return False
        for c in self.mro:  # (a loop, not `any()` over a generator: asked for each class)
            if c.metaclass_expr is not None:
                break
        else:
            return False
        with self.ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
            meta = self.ev.metaclass_instance(self)
        self._enum_meta = meta is not None and meta.info.has_base("enum.EnumMeta")
        return self._enum_meta

    def has_base(self, fullname: str) -> bool:
        for c in self.mro:
            if c.fullname == fullname:
                return True
        return False

    def get(self, name: str) -> "tuple[Symbol, ClassInfo] | None":
        """The member `name` found along the MRO, and the class declaring it."""
        for cls in self.mro:
            sym = cls.symbols.get(name)
            if sym is not None:
                return sym, cls
        return None

    def defines_below_object(self, name: str) -> bool:
        """Whether a class of the MRO other than `object` defines `name`
        (object's own `__eq__`, `__hash__`... say nothing about the class)."""
        for c in self.mro:  # (a loop, not `any()` over a generator)
            if name in c.symbols and c.fullname != "builtins.object":
                return True
        return False

    def self_instance(self) -> Instance:
        tvs = self.type_vars
        if not tvs:
            return self.no_args_instance()
        inst = self._self_instance
        if inst is not None:
            return inst
        inst = Instance(self, tuple(tvs))
        if any(tv.kind == "typevartuple" for tv in tvs):
            # A TypeVarTuple's argument is a packed tuple (`Array[*Ts]`: see model.UnpackType).
            from veritype.types.model import UnpackType
            from veritype.types.tuples import make_tuple

            tup = self.ev.named_class("builtins.tuple")
            if tup is not None:
                inst = Instance(self, tuple(make_tuple([UnpackType(tv)], tup) if tv.kind == "typevartuple" else tv for tv in tvs))
        if "type_vars" in self.__dict__:
            # Made once the type variables are final, as `no_args_instance`: the
            # type of `self` in every method of a generic class is then one value,
            # so the member lookups keyed by its identity (found_members) match.
            self._self_instance = inst
        return inst

    def no_args_instance(self) -> Instance:
        """`Instance(self, ())`, made once: the type of most annotations and of
        `self` in most classes. One value, not many equal ones, so the memo keys
        holding it match by identity, without `__eq__` (114k comparisons of equal
        but distinct instances without arguments on the bench corpus), and its
        hash is computed once. It lives as long as the class (no table grows)."""
        inst = self._no_args_instance
        if inst is None:
            inst = self._no_args_instance = Instance(self, ())
        return inst

    def instance_with_any(self, reason: str = "implicit") -> Instance:
        return Instance(self, tuple(AnyType(reason) for _ in self.type_vars))

    @property
    def is_abstract_class(self) -> bool:
        return bool(self.ev.abstract_members(self))


def compute_mro(info: ClassInfo) -> tuple[ClassInfo, ...]:
    """C3 linearization; on an inconsistent hierarchy, a depth-first fallback.

    Each sequence is read through a cursor, and `in_tails` counts, for each
    class, the sequences holding it after their cursor: choosing a head is
    then a count lookup, not a scan of every tail, so a class costs time
    linear in the length of its bases' MROs (the list-rebuilding version was
    quadratic per class, cubic for a long hierarchy: issue #19).
    """
    seqs: list[list[ClassInfo]] = [list(base.info.mro) for base in info.bases]
    seqs.append([b.info for b in info.bases])
    seqs = [s for s in seqs if s]
    cursor = [0] * len(seqs)
    in_tails: dict[int, int] = {}
    for seq in seqs:
        for c in seq[1:]:
            in_tails[id(c)] = in_tails.get(id(c), 0) + 1
    result: list[ClassInfo] = [info]
    while True:
        live = [i for i in range(len(seqs)) if cursor[i] < len(seqs[i])]
        if not live:
            return tuple(result)
        head = None
        for i in live:  # (a loop, not `next()` over a generator: one step per class of the MRO)
            candidate = seqs[i][cursor[i]]
            if not in_tails.get(id(candidate)):
                head = candidate
                break
        if head is None:
            # Inconsistent: fall back to a simple order without duplicates.
            info.inconsistent_mro = True
            seen = {id(c) for c in result}
            for i in live:
                for c in seqs[i][cursor[i]:]:
                    if id(c) not in seen:
                        seen.add(id(c))
                        result.append(c)
            return tuple(result)
        result.append(head)
        for i in live:
            seq = seqs[i]
            if seq[cursor[i]] is head:
                cursor[i] += 1
                if cursor[i] < len(seq):
                    # The next class of this sequence leaves its tail for its head.
                    in_tails[id(seq[cursor[i]])] -= 1


def class_object_type(info: ClassInfo) -> TypeType:
    """The type of a class object named in an expression: `type[C[Any...]]`.

    Type arguments are left as Any marked "bare": a call of the class solves
    them from the constructor's arguments instead.
    """
    # Kept once final (19k asked for on the bench corpus, 810 made): a
    # class's type variables are fixed once its bases are evaluated, which
    # is done when no lazy evaluation is in progress (a cycle through the
    # bases reads none while they are). One object for every use of the class
    # also keeps the caches keyed by a type's identity (found_members) answering.
    t = info.class_object
    if t is None:
        t = TypeType(Instance(info, tuple(AnyType("bare") for _ in info.type_vars)))
        if not info.ev.lazy_depth:
            info.class_object = t
    return t
