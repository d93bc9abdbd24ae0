"""evaluate/type_expr.py: a string annotation's text parses as `ast.parse` parses it,
positions included, also where a plain name is made without the parser."""

from __future__ import annotations

import ast

import pytest

from veritype.evaluate.type_expr import _parse_forward


@pytest.mark.parametrize("text", ["Evaluator", "_T", "match", "type", "None", "True", "ℌ", "a.b", "list[int]", "int | None"])
def test_forward_text_parses_as_the_parser_does(text: str) -> None:
    assert ast.dump(_parse_forward(text), include_attributes=True) == ast.dump(ast.parse(text, mode="eval").body, include_attributes=True)


def test_forward_text_syntax_error() -> None:
    with pytest.raises(SyntaxError):
        _parse_forward("list[")
