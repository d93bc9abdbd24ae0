"""Every mypy 2.4 flag and config key (veritype/config/mypy_table.py) is
either implemented or named in the run's "not enforced" warning; none is an
error, none is silently dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from veritype.cli.flags import build_parser, options_from_argv
from veritype.cli.mypy_flags import _DEST
from veritype.config.loader import load_options
from veritype.config.mypy_table import IMPLEMENTED, MYPY_OPTIONS, NOT_ENFORCED, MypyOption, describe
from veritype.config.schema import SETTINGS
from veritype.options import STRICT_FLAGS, Options

# A value other than mypy's default, for each kind of value-taking option.
_SAMPLE_VALUES = {"num_workers": "4", "sqlite_num_shards": "3", "many_errors_threshold": "5"}


def _flag_cases() -> list[tuple[str, MypyOption, object]]:
    cases: list[tuple[str, MypyOption, object]] = []
    for opt in MYPY_OPTIONS:
        if opt.kind == "bool":
            cases += [(flag, opt, True) for flag in opt.on] + [(flag, opt, False) for flag in opt.off]
        else:
            cases += [(flag, opt, None) for flag in opt.on]
    return cases


def _argv(flag: str, opt: MypyOption, tmp_path: Path) -> list[str]:
    if opt.kind == "bool":
        return [flag]
    if opt.key in ("python_executable",):
        return []  # needs a real interpreter: covered in test_cli
    if opt.key in ("verbosity", "command", "strict"):
        return [flag] if opt.key == "verbosity" else []
    if opt.nargs == 2:
        return [flag, "a.py", "b.py"]
    value = _SAMPLE_VALUES.get(opt.key, "x")
    if opt.key == "python_version":
        value = "3.12"
    elif opt.key == "output":
        value = "json"
    elif opt.key == "follow_imports":
        value = "silent"
    elif opt.key == "junit_format":
        value = "per_file"
    elif opt.key in ("config_file",):
        (tmp_path / "mypy.ini").write_text("[mypy]\n")
        value = str(tmp_path / "mypy.ini")
    return [flag, value]


@pytest.mark.parametrize("flag,opt,value", _flag_cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_mypy_flag_is_accepted_and_implemented_or_warned(flag: str, opt: MypyOption, value: object, tmp_path: Path) -> None:
    argv = _argv(flag, opt, tmp_path)
    if not argv:
        pytest.skip("needs a real value; covered by test_cli")
    options = options_from_argv(argv, str(tmp_path))
    action = build_parser()._option_string_actions[flag]
    generated = action.dest.startswith(_DEST)
    if opt.status == IMPLEMENTED or not generated:
        # Implemented: the flag is veritype's own (or another part of the CLI took it over).
        assert not generated
        assert opt.key not in options.not_enforced
    else:
        assert opt.status == NOT_ENFORCED
        if opt.kind == "bool" and value == opt.default:
            assert opt.key not in options.not_enforced  # mypy's default: nothing to warn about
        else:
            assert opt.key in options.not_enforced


@pytest.mark.parametrize("opt", [o for o in MYPY_OPTIONS if o.kind != "flag"], ids=lambda o: o.key)
def test_every_mypy_config_key_is_implemented_or_warned(opt: MypyOption, tmp_path: Path) -> None:
    if opt.kind == "bool":
        value = "False" if opt.default else "True"
    elif opt.key in ("python_version", "python_executable", "output", "follow_imports", "junit_format", "cache_dir"):
        pytest.skip("a checked value: covered by test_config")
    else:
        value = _SAMPLE_VALUES.get(opt.key, "x")
    (tmp_path / "mypy.ini").write_text(f"[mypy]\n{opt.key} = {value}\n")
    warnings: list[str] = []
    options = load_options(str(tmp_path), None, warnings.append)
    assert warnings == []
    if opt.status == IMPLEMENTED or opt.key in SETTINGS:
        # Implemented (or taken over by another part of veritype since the table was written).
        assert opt.key in SETTINGS and opt.key not in options.not_enforced
    else:
        assert opt.key in options.not_enforced


def test_config_default_values_are_not_warned(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text("[mypy]\nsqlite_cache = True\nimplicit_reexport = True\nstrict_equality = False\n")
    assert load_options(str(tmp_path)).not_enforced == {}


def test_inverted_spellings_in_config(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nno_implicit_reexport = True\nallow_untyped_globals = True\n"
        "[mypy-pkg.*]\nallow_untyped_defs = True\n"
    )
    options = load_options(str(tmp_path))
    assert options.implicit_reexport is False
    assert options.not_enforced == {"allow_untyped_globals": True}
    assert options.for_module("pkg.a").disallow_untyped_defs is False


def test_strict_is_mypys_thirteen() -> None:
    options = options_from_argv(["--strict"], ".")
    assert len(STRICT_FLAGS) == 13
    for key in STRICT_FLAGS:
        expected = key != "implicit_reexport"
        if hasattr(options, key):
            assert getattr(options, key) is expected, key
        else:
            assert options.not_enforced[key] is expected, key
    assert set(options.not_enforced) == {"extra_checks"}


def test_strict_then_inverse_flag_wins() -> None:
    options = options_from_argv(["--strict", "--allow-untyped-defs", "--no-extra-checks"], ".")
    assert options.disallow_untyped_defs is False
    assert "extra_checks" not in options.not_enforced


def test_describe() -> None:
    assert describe("strict_equality", True) == "strict_equality"
    assert describe("implicit_reexport", False) == "implicit_reexport=False"
    assert describe("plugins", ["pydantic.mypy", "x"]) == "plugins=pydantic.mypy,x"


def test_defaults_match_options() -> None:
    """An implemented bool's mypy default is veritype's default too."""
    fresh = Options()
    for opt in MYPY_OPTIONS:
        if opt.status == IMPLEMENTED and opt.kind == "bool" and hasattr(fresh, opt.key):
            assert getattr(fresh, opt.key) == opt.default, opt.key
