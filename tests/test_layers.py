"""The pipeline's direction (DESIGN.md): import-linter's contracts in
pyproject.toml hold, and every stage of `veritype` has its place in the
layers contract (a package left out of it would be free to import anything).

CI runs `lint-imports` too (.ci/run); this test makes the suite say so first.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "veritype"
# Not stages: the package marker and `python -m veritype` (which only calls cli).
NOT_STAGES = {"__init__", "__main__"}


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["importlinter"]["contracts"]


def _layers() -> list[str]:
    [layers] = [c for c in _contracts() if c["type"] == "layers"]
    return list(layers["layers"])  # type: ignore[arg-type]


def test_every_stage_has_a_layer() -> None:
    stages = {
        p.stem if p.suffix == ".py" else p.name
        for p in PACKAGE.iterdir()
        if (p.suffix == ".py" or (p / "__init__.py").exists()) and p.stem not in NOT_STAGES
    }
    listed = {name.removeprefix("veritype.") for name in _layers()}
    assert stages - listed == set(), "add the new stage to [tool.importlinter] layers (DESIGN.md order)"
    assert listed - stages == set(), "a layer names a stage that does not exist"


def test_layers_follow_design_md() -> None:
    """The contract's order is DESIGN.md's "Layer order" sentence, lowest first there."""
    design = Path(os.environ.get("VERITYPE_DESIGN", ROOT.parent / "shared" / "DESIGN.md"))
    if not design.exists():
        pytest.skip("DESIGN.md (shared/) is not beside the repository")
    text = " ".join(design.read_text().split())
    lead = "Layer order, enforced in CI with import-linter:"
    if lead not in text:
        pytest.skip("DESIGN.md no longer states the layer order in that sentence")
    start = text.index(lead) + len(lead)
    order = [w.strip(" .") for w in text[start:].split(".", 1)[0].split(",")]
    assert [name.removeprefix("veritype.") for name in reversed(_layers())] == order


def test_contracts_are_kept() -> None:
    from importlinter.cli import lint_imports

    cwd = os.getcwd()
    os.chdir(ROOT)  # import-linter reads the config and imports veritype from here
    try:
        assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0
    finally:
        os.chdir(cwd)
