"""docs/error_codes.md is generated from diagnostics/codes.py and its examples
are real: each example of a checked code reports that code on its `# E` line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from veritype.cli.main import main
from veritype.diagnostics.code_examples import EXAMPLES
from veritype.diagnostics.codes import REGISTRY, code_doc_url
from veritype.diagnostics.codes_doc import doc_path, render

# Examples that need something a test directory does not have.
NEEDS_ENVIRONMENT = {"import-untyped"}  # an installed package without types
if sys.version_info < (3, 12):
    NEEDS_ENVIRONMENT.add("no-redef")  # a `type` statement: veritype parses with the running Python


def test_committed_page_is_the_generated_one() -> None:
    committed = Path(doc_path()).read_text(encoding="utf-8")
    assert committed == render(), "docs/error_codes.md is stale: run `python -m veritype.diagnostics.codes_doc --write`"


def test_every_code_has_a_section_and_an_example() -> None:
    page = render()
    for name in REGISTRY:
        assert f"\n## {name}\n" in page
        assert name in EXAMPLES, f"add an example for {name} to veritype/diagnostics/code_examples.py"
    assert set(EXAMPLES) <= set(REGISTRY)


def test_links_point_at_the_sections() -> None:
    assert code_doc_url("arg-type").endswith("docs/error_codes.md#arg-type")


@pytest.mark.parametrize(
    "name", [n for n, c in REGISTRY.items() if c.implemented and n in EXAMPLES and n not in NEEDS_ENVIRONMENT]
)
def test_example_reports_its_code(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    flags, source = EXAMPLES[name]
    (tmp_path / ".git").mkdir()
    (tmp_path / "example.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    marked = [i for i, line in enumerate(source.splitlines(), 1) if "# E" in line]
    assert len(marked) == 1
    main(["example.py", *flags, "--no-incremental", "--no-site-packages", "--python-version", "3.12", "-O", "veritype-json"])
    found = json.loads(capsys.readouterr().out)
    codes = {(d["line"], d["code"]) for d in found}
    wanted = {name} | {c for c, info in REGISTRY.items() if info.parent == name}
    assert any(line == marked[0] and code in wanted for line, code in codes), found


def test_list_codes(capsys) -> None:
    assert main(["--list-codes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["code", "enabled", "checked", "meaning"]
    rows = {line.split()[0]: line.split()[1:3] for line in lines[1:]}
    assert set(rows) == set(REGISTRY)
    assert rows["arg-type"] == ["yes", "yes"]
    assert rows["unreachable"] == ["no", "yes"]  # off by default: --warn-unreachable
    assert rows["misc"] == ["yes", "no"]  # mypy's catch-all, only partly checked


def test_no_code_has_two_examples() -> None:
    """A dict literal keeps the last of two equal keys silently (merges of two
    branches that each added an example did that once)."""
    import ast
    import veritype.diagnostics.code_examples as module

    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    keys = [k.value for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys if isinstance(k, ast.Constant)]
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})
