"""Generated programs check without an internal error or a hang.

Two sources: `typed_programs` (the type system's constructs, see
typed_programs.py) and hypothesmith (arbitrary syntax from Python's grammar
and from AST nodes). The example counts are small so that CI stays fast; for
a long run set VERITYPE_FUZZ_EXAMPLES (bench/RESULTS.md notes one of 10,000).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz.runner import check_source
from fuzz.typed_programs import typed_programs

# Per test; the default keeps the four tests near a minute on a loaded 2-core machine.
EXAMPLES = int(os.environ.get("VERITYPE_FUZZ_EXAMPLES", "20"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=EXAMPLES <= 100)
# Programs from AST nodes are larger: fewer of them by default.
FUZZ_NODES = settings(FUZZ, max_examples=max(1, EXAMPLES // 2))

# Generated code may hold constructs the compiler warns about (`"a"()`).
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")


@FUZZ
@given(typed_programs())
def test_typed_programs(source: str) -> None:
    check_source(source)


@FUZZ
@given(typed_programs())
def test_typed_programs_strict_on_313(source: str) -> None:
    check_source(source, "--strict", "--python-version", "3.13", "--warn-unreachable")


hypothesmith = pytest.importorskip("hypothesmith")


@FUZZ
@given(hypothesmith.from_grammar())
def test_programs_from_the_grammar(source: str) -> None:
    check_source(source)


@FUZZ_NODES
@given(hypothesmith.from_node())
def test_programs_from_ast_nodes(source: str) -> None:
    check_source(source)
