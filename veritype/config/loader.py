"""Find and read the config file into `veritype.options.Options`.

Sources, first found wins, looking in the current directory and then its
parents up to the repository root (a directory holding `.git` or `.hg`):

1. `pyproject.toml` with a `[tool.veritype]` table (and `[[tool.veritype.overrides]]`);
2. `mypy.ini`, then `.mypy.ini` (`[mypy]` and `[mypy-pattern]` sections);
3. `pyproject.toml` with `[tool.mypy]` (and `[[tool.mypy.overrides]]`);
4. `setup.cfg` with a `[mypy]` section.

That is mypy's own order for its files, after ours, so a mypy user can switch
without rewriting config. Relative paths (`files`, `mypy_path`) are relative
to the config file's directory; `$MYPY_CONFIG_FILE_DIR`, other environment
variables and `~` are expanded, and `files` entries may be globs.

Every problem with a config file raises `ConfigError` with a one-line
message; unknown keys only warn (on the `warn` callback), so configs written
for newer versions or for mypy still load.
"""

from __future__ import annotations

import glob
import os
import tomllib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from veritype.config.schema import (
    PER_MODULE_KEYS,
    SETTINGS,
    ConfigValueError,
    UnsupportedVersion,
    convert,
    convert_not_enforced,
    differs_from_mypy_default,
    resolve_key,
)
from veritype.options import Options

if TYPE_CHECKING:
    import configparser

Warn = Callable[[str], None]

INI_NAMES = ("mypy.ini", ".mypy.ini")


class ConfigError(Exception):
    """A config file that cannot be used; the message is one line for the user."""


def _ignore_warning(message: str) -> None:
    pass


# -- finding ----------------------------------------------------------------


def _read_toml(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8 by definition
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except RecursionError:  # tomllib recurses per nesting level
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _read_ini(path: str) -> configparser.RawConfigParser:
    # Imported here: only an INI config needs it, and most projects keep theirs
    # in pyproject.toml (~7M instructions of every run's start).
    import configparser

    parser = configparser.RawConfigParser(strict=False)
    try:
        with open(path, encoding="utf-8") as f:
            parser.read_file(f, source=path)
    except configparser.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(f"{path}: invalid INI file: {first}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    return parser


def _tool_table(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    tool = data.get("tool")
    if not isinstance(tool, dict):
        return None
    table = tool.get(name)
    return table if isinstance(table, dict) else None


def _search_dirs(start: str) -> list[str]:
    dirs = []
    current = os.path.abspath(start)
    while True:
        dirs.append(current)
        if os.path.exists(os.path.join(current, ".git")) or os.path.exists(os.path.join(current, ".hg")):
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return dirs


def find_config_file(cwd: str) -> str | None:
    """The config file that applies in `cwd`, or None."""
    for directory in _search_dirs(cwd):
        pyproject = os.path.join(directory, "pyproject.toml")
        pyproject_data: dict[str, Any] | None = None
        if os.path.isfile(pyproject):
            pyproject_data = _read_toml(pyproject)
            if _tool_table(pyproject_data, "veritype") is not None:
                return pyproject
        for name in INI_NAMES:
            path = os.path.join(directory, name)
            if os.path.isfile(path):
                return path
        if pyproject_data is not None and _tool_table(pyproject_data, "mypy") is not None:
            return pyproject
        setup_cfg = os.path.join(directory, "setup.cfg")
        if os.path.isfile(setup_cfg) and _read_ini(setup_cfg).has_section("mypy"):
            return setup_cfg
    return None


# -- reading ----------------------------------------------------------------


def _expand(value: str, config_dir: str) -> str:
    value = value.replace("${MYPY_CONFIG_FILE_DIR}", config_dir).replace("$MYPY_CONFIG_FILE_DIR", config_dir)
    value = os.path.expanduser(os.path.expandvars(value))
    return value if os.path.isabs(value) else os.path.normpath(os.path.join(config_dir, value))


def _expand_files(values: list[str], config_dir: str) -> list[str]:
    out: list[str] = []
    for value in values:
        path = _expand(value, config_dir)
        if any(ch in value for ch in "*?["):
            matches = sorted(glob.glob(path, recursive=True))
            out += matches  # a glob matching nothing names nothing, as in mypy
        else:
            out.append(path)
    return out


class _Reader:
    def __init__(self, path: str, warn: Warn) -> None:
        self.path = path
        self.dir = os.path.dirname(os.path.abspath(path))
        self.warn = warn
        # Not-enforced mypy settings with a non-default value (key -> value).
        self.not_enforced: dict[str, object] = {}

    def values(self, section: str, items: dict[str, Any], from_ini: bool, per_module: bool) -> dict[str, Any]:
        """Options field -> value for one section; `strict` is returned under "strict"."""
        result: dict[str, Any] = {}
        for raw_key, value in items.items():
            # mypy's inverted spellings too: allow_untyped_defs, no_implicit_reexport.
            resolved = resolve_key(raw_key.strip().replace("-", "_"))
            if resolved is None:
                self.warn(f"{self.path}: [{section}]: unrecognized option {raw_key!r} ignored")
                continue
            key, invert = resolved
            if key not in SETTINGS:
                converted_value = convert_not_enforced(key, value, from_ini)
                if invert and isinstance(converted_value, bool):
                    converted_value = not converted_value
                if differs_from_mypy_default(key, converted_value):
                    self.not_enforced[key] = converted_value
                continue
            if per_module and key not in PER_MODULE_KEYS:
                self.warn(f"{self.path}: [{section}]: {raw_key!r} cannot be set per module; ignored")
                continue
            try:
                field, converted = convert(key, value, from_ini)
            except UnsupportedVersion as exc:
                # mypy warns and goes on with its default version.
                self.warn(f"{self.path}: [{section}]: {key}: {exc}")
                continue
            except ConfigValueError as exc:
                raise ConfigError(f"{self.path}: [{section}] {raw_key}: {exc}") from None
            if invert:  # only bools are ever inverted (resolve_key)
                result[field] = not converted
                continue
            if field == "files":
                converted = _expand_files(converted, self.dir)
            elif field == "mypy_path":
                converted = [_expand(v, self.dir) for v in converted]
            elif field == "python_executable":
                converted = _expand(converted, self.dir) if os.sep in converted else converted
            result[field] = converted
        return result


def _apply_global(options: Options, values: dict[str, Any]) -> None:
    strict = values.pop("strict", False)
    if strict:
        options.set_strict()
    for field, value in values.items():
        setattr(options, field, value)


def _load_toml(path: str, table_name: str | None, options: Options, warn: Warn) -> None:
    data = _read_toml(path)
    name = table_name
    if name is None:
        name = "veritype" if _tool_table(data, "veritype") is not None else "mypy"
    table = _tool_table(data, name)
    if table is None:
        return
    reader = _Reader(path, warn)
    section = f"tool.{name}"
    overrides = table.get("overrides", [])
    globals_ = {k: v for k, v in table.items() if k != "overrides"}
    _apply_global(options, reader.values(section, globals_, from_ini=False, per_module=False))
    if not isinstance(overrides, list) or not all(isinstance(o, dict) for o in overrides):
        raise ConfigError(f"{path}: [[{section}.overrides]] must be an array of tables")
    for index, override in enumerate(overrides):
        where = f"{section}.overrides #{index + 1}"
        modules = override.get("module")
        if isinstance(modules, str):
            modules = [modules]
        if not isinstance(modules, list) or not modules or not all(isinstance(m, str) for m in modules):
            raise ConfigError(f"{path}: [[{section}.overrides]] #{index + 1}: 'module' must be a string or a list of strings")
        items = {k: v for k, v in override.items() if k != "module"}
        values = reader.values(where, items, from_ini=False, per_module=True)
        for pattern in modules:
            options.overrides.append((pattern.strip(), dict(values)))
    options.not_enforced.update(reader.not_enforced)


def _load_ini(path: str, options: Options, warn: Warn) -> None:
    parser = _read_ini(path)
    reader = _Reader(path, warn)
    if parser.has_section("mypy"):
        _apply_global(options, reader.values("mypy", dict(parser.items("mypy")), from_ini=True, per_module=False))
    for section in parser.sections():
        if not section.startswith("mypy-"):
            continue
        values = reader.values(section, dict(parser.items(section)), from_ini=True, per_module=True)
        for pattern in section[len("mypy-") :].split(","):
            if pattern.strip():
                options.overrides.append((pattern.strip(), dict(values)))
    options.not_enforced.update(reader.not_enforced)


def _specificity(pattern: str) -> tuple[int, int]:
    """mypy's rule: concrete names beat patterns; among patterns, more fixed parts win."""
    parts = pattern.split(".")
    fixed = sum(1 for p in parts if "*" not in p and "?" not in p)
    return (0 if ("*" in pattern or "?" in pattern) else 1, fixed)


def load_config_file(path: str, options: Options, warn: Warn = _ignore_warning) -> None:
    """Read one config file into `options` (mutated)."""
    if not os.path.isfile(path):
        raise ConfigError(f"config file '{path}' not found")
    options.config_file = path
    base = os.path.basename(path)
    if base.endswith(".toml"):
        _load_toml(path, None, options, warn)
    else:
        _load_ini(path, options, warn)
    # Options.for_module applies overrides in order, the last winning: sort so
    # that the more specific patterns come later (stable within equal rank).
    options.overrides.sort(key=lambda item: _specificity(item[0]))


def load_options(cwd: str, config_file: str | None = None, warn: Warn = _ignore_warning) -> Options:
    """Options from the config file that applies (or `config_file`), before command-line flags."""
    options = Options()
    path = config_file if config_file is not None else find_config_file(cwd)
    if path is not None:
        load_config_file(path if os.path.isabs(path) else os.path.join(cwd, path), options, warn)
    return options


def finalize(options: Options) -> None:
    """Merge per-module error-code sets with the global ones (mypy's behaviour).

    `Options.for_module` replaces a field wholesale, but a per-module
    `disable_error_code` adds to the global set (and a per-module enable
    removes from it), so the override values are rewritten to the merged sets.
    Call once, after command-line flags have been applied.
    """
    for _, values in options.overrides:
        if "disable_error_code" not in values and "enable_error_code" not in values:
            continue
        local_off = _code_set(values.get("disable_error_code"))
        local_on = _code_set(values.get("enable_error_code"))
        values["disable_error_code"] = (options.disable_error_code - local_on) | local_off
        values["enable_error_code"] = (options.enable_error_code - local_off) | local_on


def _code_set(value: object) -> frozenset[str]:
    """An override's error-code collection as a set (absent: empty)."""
    if isinstance(value, (set, frozenset, list, tuple)):
        return frozenset(str(v) for v in value)
    return frozenset()
