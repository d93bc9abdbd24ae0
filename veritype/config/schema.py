"""The settings a config file may hold, and how to read each from TOML or INI.

TOML values arrive typed (`true`, `["a", "b"]`); INI values are strings
(`True`, `a, b`), as in mypy's config files. Each known key has a kind that
converts both forms into the value `veritype.options.Options` holds, or
raises `ConfigValueError` saying what was expected.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, fields
from typing import Any

from veritype.config.mypy_table import BY_KEY, NOT_ENFORCED_KEYS
from veritype.options import OUTPUT_FORMATS, PER_MODULE, Options, parse_num_workers


class ConfigValueError(ValueError):
    """A config value of the wrong type or form; the message says what was expected."""


class UnsupportedVersion(ConfigValueError):
    """A Python version mypy 2.x no longer checks (below 3.10): its own words."""


# The oldest Python version checked, as in mypy 2.x.
MINIMUM_VERSION = (3, 10)


@dataclass(frozen=True)
class Setting:
    """One config-file key: the Options field it sets and how its value is read."""
    kind: str  # "bool" | "str" | "int" | "choice" | "version" | "workers" | "list" | "codes" | "regexes" | "paths"
    field: str  # the Options field it sets
    invert: bool = False  # `hide_error_codes = true` sets show_error_codes = False
    choices: tuple[str, ...] = ()


# Every plain-bool Options field is a config setting of the same name, so a new
# flag is settable from config files the moment it exists. `strict` is not a
# field (it turns on a group of flags) and is added below.
_BOOL_FIELDS = tuple(f.name for f in fields(Options) if f.type == "bool")

SETTINGS: dict[str, Setting] = {name: Setting("bool", name) for name in _BOOL_FIELDS}
SETTINGS.update(
    {
        "strict": Setting("bool", "strict"),  # handled specially: turns on a group of flags
        "hide_error_codes": Setting("bool", "show_error_codes", invert=True),
        "hide_column_numbers": Setting("bool", "show_column_numbers", invert=True),
        "color_output": Setting("bool", "color"),
        "python_version": Setting("version", "python_version"),
        "platform": Setting("str", "platform"),
        "python_executable": Setting("paths", "python_executable"),
        "follow_imports": Setting("choice", "follow_imports", choices=("normal", "silent", "skip", "error")),
        "output": Setting("choice", "output", choices=OUTPUT_FORMATS),
        "files": Setting("paths", "files"),
        "modules": Setting("list", "modules"),
        "always_true": Setting("list", "always_true"),
        "always_false": Setting("list", "always_false"),
        "packages": Setting("list", "packages"),
        "junit_xml": Setting("str", "junit_xml"),
        "cache_dir": Setting("str", "cache_dir"),
        "junit_format": Setting("choice", "junit_format", choices=("global", "per_file")),
        "many_errors_threshold": Setting("int", "many_errors_threshold"),
        "mypy_path": Setting("paths", "mypy_path"),
        "exclude": Setting("regexes", "exclude"),
        "disable_error_code": Setting("codes", "disable_error_code"),
        "enable_error_code": Setting("codes", "enable_error_code"),
        "num_workers": Setting("workers", "num_workers"),
    }
)

# mypy settings that veritype accepts without acting on them: the loader
# collects non-default values into Options.not_enforced (one warning per run).
ACCEPTED_MYPY_SETTINGS = NOT_ENFORCED_KEYS

# Keys allowed in a per-module section: mypy's per-module options we act on.
PER_MODULE_KEYS = frozenset(k for k, s in SETTINGS.items() if s.field in PER_MODULE)


_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}


def _as_bool(value: Any, from_ini: bool) -> bool:
    if isinstance(value, bool):
        return value
    if from_ini and isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    raise ConfigValueError(f"expected true or false, got {value!r}")


def _as_list(value: Any, from_ini: bool, split: str = r",") -> list[str]:
    if isinstance(value, str):
        if from_ini:
            return [part.strip() for part in re.split(split, value) if part.strip()]
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise ConfigValueError(f"expected a list of strings, got {value!r}")


def parse_version(value: Any) -> tuple[int, int]:
    if isinstance(value, float):
        text = repr(value)
        if len(text.split(".")[1]) == 1 and text.endswith(".1"):
            # TOML reads 3.10 as 3.1: ask for a string instead of guessing.
            raise ConfigValueError(f'write the version as a string, e.g. "3.10" (got {value!r})')
        value = text
    if not isinstance(value, str):
        raise ConfigValueError(f'expected a version like "3.12", got {value!r}')
    m = re.fullmatch(r"\s*(\d+)\.(\d+)\s*", value)
    if m is None:
        raise ConfigValueError(f'expected a version like "3.12", got {value!r}')
    version = (int(m.group(1)), int(m.group(2)))
    # mypy 2.x's words for versions it does not check.
    if version[0] == 2:  # fatal in mypy, even in a config file
        raise ConfigValueError(
            "Mypy no longer supports checking Python 2 code. "
            "Consider pinning to mypy<0.980 if you need to check Python 2 code."
        )
    if version[0] != 3:
        raise UnsupportedVersion(f"Python major version '{version[0]}' out of range (must be 3)")
    if version < MINIMUM_VERSION:
        raise UnsupportedVersion(
            f"Python {version[0]}.{version[1]} is not supported (must be {MINIMUM_VERSION[0]}.{MINIMUM_VERSION[1]} or higher)"
        )
    return version


def convert(key: str, value: Any, from_ini: bool) -> tuple[str, Any]:
    """(Options field, value) for one config entry; raises ConfigValueError."""
    setting = SETTINGS[key]
    kind = setting.kind
    if kind == "bool":
        result: Any = _as_bool(value, from_ini)
        if setting.invert:
            result = not result
    elif kind == "str":
        if not isinstance(value, str):
            raise ConfigValueError(f"expected a string, got {value!r}")
        result = value.strip()
    elif kind == "int":
        try:
            result = int(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            result = None
        if result is None:
            raise ConfigValueError(f"expected a whole number, got {value!r}")
    elif kind == "list":
        result = _as_list(value, from_ini)
    elif kind == "choice":
        if not isinstance(value, str) or value.strip() not in setting.choices:
            raise ConfigValueError(f"expected one of {', '.join(setting.choices)}, got {value!r}")
        result = value.strip()
    elif kind == "version":
        result = parse_version(value)
    elif kind == "workers":
        try:
            result = parse_num_workers(value)
        except ValueError as exc:
            raise ConfigValueError(str(exc)) from None
    elif kind == "codes":
        result = frozenset(_as_list(value, from_ini))
    elif kind == "regexes":
        # INI: one regex (it may span lines, as mypy allows); TOML: a string or a list.
        if from_ini and isinstance(value, str):
            result = ["".join(line.strip() for line in value.splitlines())]
        else:
            result = _as_list(value, False)
        for pattern in result:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ConfigValueError(f"invalid regex {pattern!r}: {exc}") from None
    elif kind == "paths":
        if setting.field == "python_executable":
            if not isinstance(value, str):
                raise ConfigValueError(f"expected a path, got {value!r}")
            result = value.strip()
        else:
            # mypy_path may also be separated by colons in INI files (as MYPYPATH is).
            split = r"[,:]" if setting.field == "mypy_path" and os.name != "nt" else r","
            result = _as_list(value, from_ini, split)
    else:  # pragma: no cover - the table above is the only source of kinds
        raise AssertionError(kind)
    return setting.field, result


def resolve_key(key: str) -> tuple[str, bool] | None:
    """(known key, inverted) for a config key, with mypy's inverted spellings:
    `no_X` and `disallow_X` invert X, `allow_X` inverts `disallow_X`,
    `show_X` inverts `hide_X`. None: not a setting mypy or veritype knows."""

    def known(name: str) -> bool:
        return name in SETTINGS or name in NOT_ENFORCED_KEYS

    if known(key):
        return key, False
    for prefix, replacement in (("no_", ""), ("allow", "disallow"), ("disallow", "allow"), ("show_", "hide_")):
        if key.startswith(prefix):
            candidate = replacement + key[len(prefix) :]
            if known(candidate) and _is_bool(candidate):
                return candidate, True
    return None


def _is_bool(key: str) -> bool:
    if key in SETTINGS:
        return SETTINGS[key].kind == "bool"
    return BY_KEY[key].kind == "bool"


def convert_not_enforced(key: str, value: Any, from_ini: bool) -> object:
    """A not-enforced mypy setting's value, in the form the warning shows it."""
    row = BY_KEY[key]
    try:
        if row.kind == "bool":
            return _as_bool(value, from_ini)
        if row.kind == "list":
            return _as_list(value, from_ini)
    except ConfigValueError:
        pass
    return value.strip() if isinstance(value, str) else value


def differs_from_mypy_default(key: str, value: object) -> bool:
    default = BY_KEY[key].default
    if isinstance(default, int) and not isinstance(default, bool) and isinstance(value, str):
        return value != str(default)
    return value != default
