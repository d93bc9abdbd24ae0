"""The pathological shapes of issue #19 at moderate sizes: each checks, with no
internal error, no hang, and no false error (every shape is a correct program).

`python bench/pathological.py` prints how time grows with the size of each
shape; here only the outcome is asserted (the hang guard in `runner` is far
above the time a linear check takes: about a second each).
"""

from __future__ import annotations


import os
import sys

import pytest

from fuzz.runner import check_source, errors

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
import pathological  # noqa: E402

SIZES = {
    "nested_call": 150,
    "nested_builtin_overload": 20,
    "nested_user_overload": 20,
    "nested_generic": 40,
    "nested_containers": 80,
    "nested_tuple_merged": 60,
    "nested_binop": 3000,
    "diamond": 60,
    "class_chain": 120,
    "assignments": 3000,
    "annotated_assignments": 3000,
    "elif_chain": 1000,
    "nested_if": 80,
    "nested_functions": 60,
    "string_annotation": 80,
    "long_union": 200,
}


def test_every_shape_has_a_size() -> None:
    assert set(SIZES) == set(pathological.SHAPES)


@pytest.mark.parametrize("shape", sorted(SIZES))
def test_shape_checks_without_error(shape: str) -> None:
    source = pathological.SHAPES[shape](SIZES[shape])
    assert errors(check_source(source)) == []


def test_nested_calls_keep_their_types() -> None:
    """Memoized inference must give the answer full inference gives."""
    source = pathological.nested_generic(40) + "reveal_type(y)\n"
    source += pathological.nested_user_overload(20).replace("y = ", "u = ") + "reveal_type(u)\n"
    source += "c = " + "list(" * 60 + "[1]" + ")" * 60 + "\nreveal_type(c)\n"
    notes = [d.message for d in check_source(source) if d.severity == "note"]
    assert notes == ['Revealed type is "int"', 'Revealed type is "int"', 'Revealed type is "list[int]"']


def test_elif_chain_merges_every_branch() -> None:
    # `r` is declared, so each branch narrows it (unannotated, its first
    # assignment would declare it int and 'x' would be an assignment error).
    source = "r: int | str\n" + pathological.elif_chain(1000).replace("    r = 999\n", "    r = 'x'\n")
    diags = check_source(source)
    assert errors(diags) == []
    assert [d.message for d in diags if d.severity == "note"] == ['Revealed type is "int | str"']


def test_expression_past_the_depth_bound_is_any() -> None:
    """A 30,000-term chain: Any past the bound, no internal error, no false error;
    a chain within the bound keeps its type."""
    source = "x = 1" + " + 1" * 1500 + "\nreveal_type(x)\ny = 1" + " + 1" * 30000 + "\nreveal_type(y)\n"
    diags = check_source(source)
    if sys.version_info >= (3, 12) and any(d.code == "syntax" for d in diags):
        # Python 3.12+'s parser has its own C-stack bound, whatever the
        # recursion limit: the file does not parse, and that is one clean
        # syntax error (mypy, on the same ast, cannot parse it either).
        assert [d.code for d in diags] == ["syntax"]
        return
    assert errors(diags) == []
    assert [d.message for d in diags] == ['Revealed type is "int"', 'Revealed type is "Any"']


def test_nested_calls_with_an_error_inside_report_it_once() -> None:
    """An argument error under nested calls: each level re-reported its
    sub-expressions' errors once per inference and per memo hit, so the
    reports multiplied by four a level (found by bench/fuzz.py: `abs(...)` 22
    deep around `None` took over 2 GB and did not finish). Now the errors
    are reported once and the check takes about a second, far within the guard."""
    source = (
        "from typing import TypeVar\nT = TypeVar('T')\n"
        "def ident(x: T) -> T:\n    return x\n"
        "a = " + "abs(" * 40 + "None" + ")" * 40 + "\n"
        "b = " + "ident(" * 40 + "ident(1, 2)" + ")" * 40 + "\n"
        "def f() -> None:\n    c = " + "max(" * 30 + "None, 1" + ", 2)" * 30 + "\n"
    )
    found = errors(check_source(source, timeout=30))
    assert found and len(found) == len(set(found)) <= 6


def test_a_deep_elif_chain_in_a_function_takes_linear_memory() -> None:
    """The paths indexed for a function's inferred declarations were whole
    tuples per statement, memory quadratic in the nesting depth (3,000 elif
    branches: a 125 MiB peak; now 25 MiB)."""
    import tracemalloc

    source = "def f(v: int) -> None:\n" + "".join("    " + line + "\n" for line in pathological.elif_chain(3000).splitlines()[1:])
    check_source("x = 1\n")  # the builtins, loaded once, are not what is measured
    tracemalloc.start()
    try:
        assert errors(check_source(source)) == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60 * 2**20
