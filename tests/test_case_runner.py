"""The case-file runner itself: parsing Markdown cases and matching assertions."""

from __future__ import annotations

import pytest

from case_runner import (
    CaseSyntaxError,
    compare,
    format_reports,
    parse_case_file,
    parse_expectations,
    python_matches,
)
from veritype.diagnostics.diagnostic import Diagnostic

DOC = '''# Title

Intro prose with an example that is not a case:

```py
x = 1
```

## First case

<!-- options: --strict --python-version 3.12 -->

```py
x: int = ""  # error: [assignment]
```

## Two files

<!-- file: pkg/mod.py -->
```py
A = 1
```

<!-- file: pkg/py.typed -->
```text
partial
```

```text
not a file: no file comment
```

```py
from pkg.mod import A
```

## Prose only

Nothing to run here.

## Stub

<!-- xfail: not supported yet -->
<!-- python: >=3.12 -->

```pyi
def f() -> int: ...
```

## First case
```python
pass
```
'''


def test_parse_cases() -> None:
    cases = parse_case_file("cases/x.md", DOC)
    assert [c.name for c in cases] == ["First case", "Two files", "Stub", "First case (2)"]
    first, two, stub, again = cases
    assert first.flags == ["--strict", "--python-version", "3.12"]
    assert [f.path for f in first.files] == ["main.py"]
    assert first.files[0].text == 'x: int = ""  # error: [assignment]\n'
    assert [f.path for f in two.files] == ["pkg/mod.py", "pkg/py.typed", "main.py"]
    assert two.files[1].text == "partial\n"
    assert stub.files[0].path == "main.pyi" and stub.xfail == "not supported yet" and stub.python == ">=3.12"
    assert again.files[0].path == "main.py"


def test_malformed_cases() -> None:
    with pytest.raises(CaseSyntaxError, match="unclosed"):
        parse_case_file("x.md", "## A\n```py\nx = 1\n")
    with pytest.raises(CaseSyntaxError, match="twice"):
        parse_case_file("x.md", "## A\n```py\n```\n```py\n```\n")
    with pytest.raises(CaseSyntaxError, match="before the first ## heading"):
        parse_case_file("x.md", "# Title\n\n```py\nx = f()  # error: [name-defined]\n```\n## A\n```py\ny = 1\n```\n")


def test_parse_expectations() -> None:
    src = (
        'f(1)  # error: [arg-type] "Argument 1" # error: [call-arg]\n'
        "reveal_type(x)  # revealed: list[tuple[int, str]]\n"
        'import yaml  # type: ignore  # note: "types-PyYAML"\n'
        's = "# error: [not-a-comment]"\n'
        'g()  # error: "only a \\"quoted\\" message"\n'
    )
    exps = parse_expectations(src, "m.py")
    assert [e.describe() for e in exps[1]] == ['error: [arg-type] "Argument 1"', "error: [call-arg]"]
    assert exps[2][0].text == "list[tuple[int, str]]"
    assert exps[3][0].kind == "note" and exps[3][0].text == "types-PyYAML"
    assert 4 not in exps
    assert exps[5][0].text == 'only a "quoted" message' and exps[5][0].code is None


def test_bad_assertion() -> None:
    with pytest.raises(CaseSyntaxError, match="cannot read assertion"):
        parse_expectations("x  # error: arg-type\n", "m.py")


def test_expectations_in_a_file_that_does_not_tokenize() -> None:
    assert parse_expectations("x = (  # error: [syntax]\n", "m.py")[1][0].code == "syntax"


def d(line: int, code: str | None, msg: str, severity: str = "error") -> Diagnostic:
    return Diagnostic("main.py", line, 1, severity, msg, code)


def test_compare() -> None:
    src = (
        "a  # error: [arg-type]\n"
        'b  # error: [x] "two" # error: [x]\n'
        "c  # revealed: int\n"
        'd  # note: "hint"\n'
        "e\n"
    )
    exps = {("main.py", line): e for line, e in parse_expectations(src, "m").items()}
    good = [
        d(1, "arg-type", "bad arg"),
        d(2, "x", "one"),
        d(2, "x", "two"),
        d(3, None, 'Revealed type is "int"', "note"),
        d(4, "misc", "some error"),  # not asserted: a failure
        d(4, None, "a hint", "note"),
        d(5, None, "unasserted notes are fine", "note"),
    ]
    reports = compare(exps, good)
    assert [(r.line, [x.describe() for x in r.missing], [u.message for u in r.unexpected]) for r in reports] == [
        (4, [], ["some error"])
    ]
    bad = [d(2, "x", "one"), d(3, None, 'Revealed type is "str"', "note")]
    reports = compare(exps, bad)
    text = format_reports(reports, bad)
    assert "main.py:1:" in text and "expected, not reported:  error: [arg-type]" in text
    assert "expected, not reported:  revealed: int" in text
    assert "(also reported:          revealed: str)" in text


def test_python_conditions() -> None:
    assert python_matches("<3.12", (3, 11)) and not python_matches("<3.12", (3, 12))
    assert python_matches(">=3.13", (3, 13)) and python_matches("==3.11", (3, 11))
    with pytest.raises(CaseSyntaxError):
        python_matches("3.12+", (3, 11))
