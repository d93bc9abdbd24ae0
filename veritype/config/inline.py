"""Inline configuration: a file's own `# mypy: ...` comments.

mypy's syntax and meaning (mypy docs, "Inline configuration"): a line that
starts with `# mypy: ` holds comma-separated settings for its own file, the
config keys with dashes or underscores, a bare name meaning `True`, quotes
around a value that contains commas:

    # mypy: allow-untyped-defs, disable-error-code="attr-defined, name-defined"
    # mypy: warn-unused-ignores=False

Inverted spellings work as in config files (`allow_untyped_defs`,
`no_implicit_reexport`, `show_error_codes`: see `resolve_key`). Error-code
lists add to the module's own sets. A bad comment is an error on its line,
in mypy's words with code `misc`; `strict` and `python_version` cannot be
set inline (mypy's rule).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veritype.config.schema import (
    NOT_ENFORCED_KEYS,
    SETTINGS,
    ConfigValueError,
    convert,
    convert_not_enforced,
    differs_from_mypy_default,
    resolve_key,
)
from veritype.options import Options

PREFIX = "# mypy: "

STRICT_INLINE = (
    'Setting "strict" not supported in inline configuration: specify it in a configuration file instead, '
    'or set individual inline flags (see "mypy -h" for the list of flags enabled in strict mode)'
)
_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}


@dataclass
class InlineConfig:
    """A module's inline `# mypy:` settings, as read from its comments."""
    values: dict[str, object] = field(default_factory=dict)  # Options field -> value
    enable: set[str] = field(default_factory=set)
    disable: set[str] = field(default_factory=set)
    not_enforced: dict[str, object] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line, message)

    def module_values(self, base: Options) -> dict[str, object]:
        """The per-module changes, error codes merged into the module's own sets."""
        values = dict(self.values)
        if self.enable or self.disable:
            values["disable_error_code"] = (base.disable_error_code - self.enable) | self.disable
            values["enable_error_code"] = (base.enable_error_code - self.disable) | self.enable
        return values


def mypy_comments(source: str) -> list[tuple[int, str]]:
    if PREFIX not in source:
        return []
    return [(i + 1, line[len(PREFIX) :]) for i, line in enumerate(source.split("\n")) if line.startswith(PREFIX)]


def split_directive(text: str) -> tuple[list[str], list[str]]:
    """Split on commas outside double quotes (the quotes are dropped)."""
    parts: list[str] = []
    current: list[str] = []
    errors: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == ",":
            parts.append("".join(current).strip())
            current = []
        elif ch == '"':
            end = text.find('"', i + 1)
            if end < 0:
                errors.append("Unterminated quote in configuration comment")
                current = []
                break
            current.append(text[i + 1 : end])
            i = end
        else:
            current.append(ch)
        i += 1
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return [p for p in parts if p], errors


def _bool(text: str) -> bool | None:
    low = text.strip().lower()
    return True if low in _TRUE else False if low in _FALSE else None


def parse_inline(source: str) -> InlineConfig:
    config = InlineConfig()
    for line, text in mypy_comments(source):
        entries, errors = split_directive(text)
        config.errors.extend((line, message) for message in errors)
        for entry in entries:
            name, _, raw = entry.partition("=")
            raw_key = name.strip().replace("-", "_")
            value = raw.strip() if "=" in entry else "True"
            message = _apply(config, raw_key, value)
            if message is not None:
                config.errors.append((line, message))
    return config


def _apply(config: InlineConfig, raw_key: str, value: str) -> str | None:
    """Record one `key=value`; the error message if it is not a valid setting."""
    if raw_key == "strict":
        return STRICT_INLINE
    if raw_key == "python_version":
        return "python_version not supported in inline configuration"
    if raw_key.startswith("x_"):
        return None  # mypy ignores these
    resolved = resolve_key(raw_key)
    if resolved is None:
        return f"Unrecognized option: {raw_key} = {value}"
    key, invert = resolved
    if key in NOT_ENFORCED_KEYS:
        converted = convert_not_enforced(key, value, True)
        if invert and isinstance(converted, bool):
            converted = not converted
        if differs_from_mypy_default(key, converted):
            config.not_enforced[key] = converted
        return None
    setting = SETTINGS[key]
    if setting.kind == "bool":
        flag = _bool(value)
        if flag is None:
            return f"{key}: Not a boolean: {value}"
        value = str(flag != invert)
    try:
        field_name, converted_value = convert(key, value, True)
    except ConfigValueError as exc:
        return f"{key}: {exc}"
    if field_name == "enable_error_code":
        config.enable |= set(converted_value)
        config.disable -= set(converted_value)
    elif field_name == "disable_error_code":
        config.disable |= set(converted_value)
        config.enable -= set(converted_value)
    else:
        config.values[field_name] = converted_value
    return None
