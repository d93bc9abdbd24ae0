"""Config files: [tool.veritype], [tool.mypy], mypy.ini, setup.cfg (veritype.config)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from veritype.config import ConfigError, finalize, find_config_file, load_options
from veritype.diagnostics.enabled import code_enabled


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_no_config(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    assert find_config_file(str(tmp_path)) is None
    options = load_options(str(tmp_path))
    assert options.config_file is None and options.overrides == []


def test_tool_veritype(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[tool.veritype]
files = ["src", "tests/*.py"]
python_version = "3.11"
disallow_untyped_defs = true
disable_error_code = ["misc"]
mypy_path = ["stubs"]
exclude = ["build/", "_old\\\\.py$"]

[[tool.veritype.overrides]]
module = ["legacy", "legacy.*"]
ignore_errors = true
""",
    )
    write(tmp_path / "tests" / "test_a.py", "")
    options = load_options(str(tmp_path))
    assert options.files == [str(tmp_path / "src"), str(tmp_path / "tests" / "test_a.py")]
    assert options.python_version == (3, 11)
    assert options.disallow_untyped_defs
    assert options.disable_error_code == frozenset({"misc"})
    assert options.mypy_path == [str(tmp_path / "stubs")]
    assert options.exclude == ["build/", "_old\\.py$"]
    assert options.for_module("legacy.sub").ignore_errors
    assert not options.for_module("fresh").ignore_errors


def test_tool_veritype_wins_over_mypy_ini_and_tool_mypy(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.veritype]\nstrict = true\n[tool.mypy]\nwarn_unreachable = true\n")
    write(tmp_path / "mypy.ini", "[mypy]\nignore_missing_imports = True\n")
    options = load_options(str(tmp_path))
    assert options.config_file == str(tmp_path / "pyproject.toml")
    assert options.disallow_untyped_defs and options.warn_unused_ignores  # strict
    assert not options.warn_unreachable and not options.ignore_missing_imports


def test_mypy_ini_before_tool_mypy(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.mypy]\nwarn_unreachable = true\n")
    write(tmp_path / "mypy.ini", "[mypy]\nignore_missing_imports = True\n")
    assert find_config_file(str(tmp_path)) == str(tmp_path / "mypy.ini")


def test_tool_mypy_with_overrides(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        """
[tool.mypy]
python_version = "3.12"
warn_unused_ignores = true
disable_error_code = "misc"
plugins = ["pydantic.mypy"]

[[tool.mypy.overrides]]
module = "yaml.*"
ignore_missing_imports = true

[[tool.mypy.overrides]]
module = "pkg.*"
disable_error_code = ["arg-type"]
enable_error_code = ["misc"]
""",
    )
    warnings: list[str] = []
    options = load_options(str(tmp_path), warn=warnings.append)
    finalize(options)
    assert warnings == []  # plugins is a known mypy setting
    assert options.python_version == (3, 12)
    assert options.disable_error_code == frozenset({"misc"})
    assert options.for_module("yaml").ignore_missing_imports
    assert options.for_module("yaml.constructor").ignore_missing_imports
    pkg = options.for_module("pkg.mod")
    # Per-module code sets merge with the global ones, as in mypy.
    assert pkg.disable_error_code == frozenset({"arg-type"})
    assert code_enabled(pkg, "misc") and not code_enabled(pkg, "arg-type")
    assert not code_enabled(options.for_module("other"), "misc")


def test_mypy_ini_sections(tmp_path: Path) -> None:
    write(
        tmp_path / "mypy.ini",
        """
[mypy]
python_version = 3.10
files = src, scripts
disallow_untyped_defs = True
check_untyped_defs = yes
disable_error_code = misc, arg-type
mypy_path = $MYPY_CONFIG_FILE_DIR/stubs

[mypy-somelib.*,otherlib]
ignore_missing_imports = True

[mypy-pkg.legacy.*]
disallow_untyped_defs = False
""",
    )
    options = load_options(str(tmp_path))
    assert options.python_version == (3, 10)
    assert options.files == [str(tmp_path / "src"), str(tmp_path / "scripts")]
    assert options.disallow_untyped_defs and options.check_untyped_defs
    assert options.disable_error_code == frozenset({"misc", "arg-type"})
    assert options.mypy_path == [str(tmp_path / "stubs")]
    assert options.for_module("somelib.x").ignore_missing_imports
    assert options.for_module("otherlib").ignore_missing_imports
    assert not options.for_module("otherlib.x").ignore_missing_imports
    assert not options.for_module("pkg.legacy.old").disallow_untyped_defs


def test_setup_cfg(tmp_path: Path) -> None:
    write(tmp_path / "setup.cfg", "[metadata]\nname = x\n[mypy]\nwarn_return_any = true\n")
    options = load_options(str(tmp_path))
    assert options.warn_return_any and options.config_file == str(tmp_path / "setup.cfg")


def test_setup_cfg_without_mypy_section_is_not_a_config(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path / "setup.cfg", "[metadata]\nname = x\n")
    assert find_config_file(str(tmp_path)) is None


def test_found_in_a_parent_up_to_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path / "mypy.ini", "[mypy]\nstrict = True\n")
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert find_config_file(str(sub)) == str(tmp_path / "mypy.ini")


def test_specific_patterns_win_over_general_ones(tmp_path: Path) -> None:
    write(
        tmp_path / "mypy.ini",
        "[mypy-a.b]\nignore_errors = False\n[mypy-a.*]\nignore_errors = True\n",
    )
    options = load_options(str(tmp_path))
    assert not options.for_module("a.b").ignore_errors
    assert options.for_module("a.c").ignore_errors


def test_explicit_config_file(tmp_path: Path) -> None:
    cfg = write(tmp_path / "conf" / "custom.ini", "[mypy]\nwarn_unreachable = True\n")
    options = load_options(str(tmp_path), str(cfg))
    assert options.warn_unreachable
    with pytest.raises(ConfigError, match="not found"):
        load_options(str(tmp_path), str(tmp_path / "nope.ini"))


def test_unknown_keys_warn(tmp_path: Path) -> None:
    write(tmp_path / "mypy.ini", "[mypy]\nno_such_option = 1\n[mypy-x]\npython_version = 3.11\n")
    warnings: list[str] = []
    load_options(str(tmp_path), warn=warnings.append)
    assert len(warnings) == 2
    assert "no_such_option" in warnings[0] and "per module" in warnings[1]


@pytest.mark.parametrize(
    "name,text,fragment",
    [
        ("pyproject.toml", "[tool.veritype\nfiles = 1\n", "invalid TOML"),
        ("pyproject.toml", "[tool.veritype]\ndisallow_untyped_defs = 'yes'\n", "expected true or false"),
        ("pyproject.toml", "[tool.veritype]\nfiles = 3\n", "expected a list of strings"),
        ("pyproject.toml", "[tool.veritype]\npython_version = 3.10\n", 'as a string, e.g. "3.10"'),
        ("pyproject.toml", "[tool.veritype]\npython_version = 'three'\n", "expected a version"),
        ("pyproject.toml", "[tool.veritype]\nfollow_imports = 'sometimes'\n", "expected one of"),
        ("pyproject.toml", "[tool.veritype]\nexclude = ['(']\n", "invalid regex"),
        ("pyproject.toml", "[[tool.veritype.overrides]]\nignore_errors = true\n", "'module'"),
        ("mypy.ini", "[mypy]\nstrict = maybe\n", "expected true or false"),
        ("mypy.ini", "not an ini file\n", "invalid INI"),
        ("setup.cfg", "[mypy]\npython_version = 2.7\n", "no longer supports checking Python 2 code"),
    ],
)
def test_broken_configs_give_one_line(tmp_path: Path, name: str, text: str, fragment: str) -> None:
    write(tmp_path / name, text)
    with pytest.raises(ConfigError) as info:
        load_options(str(tmp_path))
    message = str(info.value)
    assert fragment in message and "\n" not in message
    assert message.startswith(str(tmp_path / name))


def test_env_vars_and_home_expand(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STUBS_AT", str(tmp_path / "elsewhere"))
    write(tmp_path / "mypy.ini", "[mypy]\nmypy_path = $STUBS_AT\n")
    assert load_options(str(tmp_path)).mypy_path == [str(tmp_path / "elsewhere")]
    assert os.path.isabs(load_options(str(tmp_path)).mypy_path[0])
