"""The one walk for a method's stores to attributes of its first parameter
(syntax/param_stores.py), and what its three readers take from it."""

from __future__ import annotations

import ast
import textwrap

from veritype.semantic.binder import collect_instance_attributes
from veritype.semantic.symbols import SymbolTable
from veritype.syntax.param_stores import first_param_stores, forget_param_stores

SOURCE = textwrap.dedent(
    """
    class C:
        def a(self, other):
            self.x = 1
            self.y[0] = 2
            other.z = 3
            w = 4
            for self.i, (j, *self.rest) in pairs:
                pass
            with open(p) as self.f:
                self.n += 1
            del self.gone
            def inner(this):
                self.late: int = 5
        def b(this, /, self):
            self.no = 1
            this.yes = 2
        def c(*args, **kwargs):
            args.x = 1
        def d(self):
            del self.only
    """
)


def _methods() -> dict[str, ast.FunctionDef]:
    cls = ast.parse(SOURCE).body[0]
    assert isinstance(cls, ast.ClassDef)
    return {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef)}


def _shown(node: ast.FunctionDef) -> list[tuple[str, str]]:
    return [(type(stmt).__name__, ast.unparse(target)) for stmt, target in first_param_stores(node)]


def test_the_pairs_in_walk_order_any_context_del_included() -> None:
    methods = _methods()
    assert _shown(methods["a"]) == [
        ("Assign", "self.x"),
        ("Assign", "self.y[0]"),
        ("For", "(self.i, (j, *self.rest))"),
        ("With", "self.f"),
        ("Delete", "self.gone"),
        ("AugAssign", "self.n"),  # (a statement nested in the `with`: after the body's own)
        ("AnnAssign", "self.late"),
    ]
    assert _shown(methods["b"]) == [("Assign", "this.yes")]  # the first positional parameter, positional-only too
    assert _shown(methods["c"]) == []  # no positional parameter
    assert _shown(methods["d"]) == [("Delete", "self.only")]


def test_the_answer_is_kept_on_the_node_until_forgotten() -> None:
    node = _methods()["a"]
    first = first_param_stores(node)
    assert first_param_stores(node) is first
    node.body = [ast.Pass()]
    assert first_param_stores(node) is first  # kept: the readers walk once
    forget_param_stores(node)
    assert first_param_stores(node) == ()


def test_the_binder_takes_assignments_for_and_with_not_augmented_nor_del() -> None:
    cls = ast.parse(SOURCE).body[0]
    assert isinstance(cls, ast.ClassDef)
    table = SymbolTable()
    collect_instance_attributes(cls, table)
    # `self.y[0]` stores into `self.y`, declaring nothing; `this` is method b's self.
    assert sorted(table) == ["f", "i", "late", "rest", "x", "yes"]


def test_the_interface_finds_a_comprehension_store_deep_in_blocks_only_there() -> None:
    from veritype.cache.interface import _stores_on_first_param
    from veritype.syntax.word_lines import word_lines

    source = textwrap.dedent(
        """
        class C:
            def m(self):
                while a:
                    pass
                try:
                    pass
                except E:
                    match v:
                        case [x] if x:
                            y = {
                                k: 0 for self.k in z}
            def n(self):
                for i in z:
                    [0 for other.k in z]
                try:
                    pass
                except E:
                    w = [0 for self in z]
        """
    )
    cls = ast.parse(source).body[0]
    assert isinstance(cls, ast.ClassDef)
    m, n = cls.body
    assert isinstance(m, ast.FunctionDef) and isinstance(n, ast.FunctionDef)
    for lines in (word_lines(source, "for"), None):
        assert _stores_on_first_param(m, lines) is True
        assert _stores_on_first_param(n, lines) is False
