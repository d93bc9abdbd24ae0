"""Options: every setting a run can have, from the command line or config files.

One `Options` object holds the global settings; `for_module(name)` returns the
settings that apply to one module after per-module overrides (mypy's
`[mypy-pkg.*]` sections and `[[tool.mypy.overrides]]`).
"""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field, fields, replace

# The values of `--output` / `output =`: veritype/report/formats.py writes each.
OUTPUT_FORMATS = ("text", "json", "veritype-json", "sarif", "github", "gitlab")

# Options that may differ per module (mypy's per-module options).
PER_MODULE = frozenset(
    {
        "ignore_missing_imports",
        "follow_imports",
        "disallow_untyped_defs",
        "disallow_incomplete_defs",
        "check_untyped_defs",
        "disallow_untyped_calls",
        "disallow_any_generics",
        "disallow_any_explicit",
        "disallow_any_unimported",
        "disallow_any_decorated",
        "disallow_untyped_decorators",
        "warn_return_any",
        "warn_unreachable",
        "ignore_errors",
        "disable_error_code",
        "enable_error_code",
        "strict_optional",
        "warn_unused_ignores",
        "allow_redefinition",
        "allow_redefinition_new",
        "warn_no_return",
        "disallow_subclassing_any",
        "implicit_reexport",
        "strict_equality",
        "always_true",
        "always_false",
    }
)


@dataclass
class Options:
    """Every setting of a run: flags and config, global and per module."""
    python_version: tuple[int, int] = (sys.version_info[0], sys.version_info[1])
    platform: str = sys.platform
    python_executable: str | None = None
    mypy_path: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)  # mypy's `modules` / `packages` config keys
    packages: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    # Explicit site-packages directories: when set, used instead of asking the
    # target interpreter (the case-file tests set it; no command-line flag).
    site_packages: list[str] | None = None
    no_site_packages: bool = False
    namespace_packages: bool = True
    explicit_package_bases: bool = False
    # Where the options came from, for messages (None: defaults and flags only).
    config_file: str | None = None
    # Incremental cache (veritype/cache): used when `incremental` and a
    # directory is set. The CLI sets `.veritype_cache` in the project root.
    incremental: bool = True
    cache_dir: str | None = None
    sqlite_cache: bool = True  # the cache in one SQLite database, else a file per entry (cache/store.py)
    # The shared stub cache (veritype/cache/shared.py): installed files'
    # interface digests, once per user. `shared_cache` is off with `--no-shared-cache`; the
    # directory is set by the drivers (config/project.py), None: not used.
    shared_cache: bool = True
    shared_cache_dir: str | None = None
    # Worker processes that check the program's modules (`-n N`, `num_workers`,
    # mypy's spelling); 0 or 1: all in this process. "auto" is resolved to the
    # number of usable CPUs when read (see parse_num_workers).
    num_workers: int = 0

    ignore_missing_imports: bool = False
    follow_imports: str = "normal"
    disallow_untyped_defs: bool = False
    disallow_incomplete_defs: bool = False
    check_untyped_defs: bool = False
    disallow_untyped_calls: bool = False
    disallow_any_generics: bool = False
    disallow_any_explicit: bool = False
    disallow_any_unimported: bool = False
    disallow_any_decorated: bool = False
    disallow_untyped_decorators: bool = False
    disallow_subclassing_any: bool = False
    # False: a .py module's imported names are not exported unless `as`-aliased or in __all__ (mypy).
    implicit_reexport: bool = True
    strict_equality: bool = False  # report comparisons of non-overlapping types (mypy)
    warn_return_any: bool = False
    warn_unreachable: bool = False
    warn_redundant_casts: bool = False
    warn_unused_ignores: bool = False
    strict_optional: bool = True
    # mypy 2.x's default: bytearray and memoryview are not bytes.
    strict_bytes: bool = True
    # Names taken as always true / false in conditions (`if DEBUG:`), mypy's options.
    always_true: list[str] = field(default_factory=list)
    always_false: list[str] = field(default_factory=list)
    warn_no_return: bool = True  # off: "Missing return statement" [return] is not reported (mypy)
    ignore_errors: bool = False
    # mypy's: let an unannotated variable be redefined with another type
    # (check.inferred_decls enforces the first assignment's type otherwise).
    allow_redefinition: bool = False
    allow_redefinition_new: bool = False
    disable_error_code: frozenset[str] = frozenset()
    enable_error_code: frozenset[str] = frozenset()

    show_column_numbers: bool = True
    show_error_codes: bool = True
    error_summary: bool = True
    show_error_end: bool = False
    show_error_context: bool = False
    show_error_code_links: bool = False
    show_absolute_path: bool = False
    pretty: bool = False
    many_errors_threshold: int = -1  # --soft-error-limit: above it, fewer notes (mypy)
    junit_xml: str | None = None
    junit_format: str = "global"
    install_types: bool = False  # pip-install missing types-* packages (veritype/cli/install_types.py)
    non_interactive: bool = False
    # None: not given; text, or github annotations under GitHub Actions
    # (veritype.report.formats.output_format decides).
    output: str | None = None
    color: bool | None = None
    verbose: bool = False

    # mypy options given with a value other than mypy's default that veritype
    # does not act on (config key -> value): named in one warning per run.
    not_enforced: dict[str, object] = field(default_factory=dict)
    # Per-module settings from a file's own `# mypy:` comments (module ->
    # {option: value}), applied after the config's overrides. Filled while the
    # modules load; a module's source is part of its cache key already.
    inline: dict[str, dict[str, object]] = field(default_factory=dict, compare=False)

    # (pattern, {option: value}) in file order; later patterns win, as in mypy.
    overrides: list[tuple[str, dict[str, object]]] = field(default_factory=list)

    # for_module's answers (module -> (its inline settings then, the options)).
    # Asked tens of thousands of times in a run, and `replace` copies every
    # field: with per-module overrides it was 3.5% of pytest's cold check.
    _by_module: dict[str, tuple[object, "Options"]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def for_module(self, module: str) -> "Options":
        if not self.overrides and not self.inline:
            return self  # (no per-module setting anywhere: most runs, asked 28k times on the bench corpus)
        inline = self.inline.get(module)
        known = self._by_module.get(module)
        # The overrides are fixed once the configuration is read; a module's
        # inline settings arrive when it loads, so an answer given before
        # then is not reused after.
        if known is not None and known[0] is inline:
            return known[1]
        changes: dict[str, object] = {}
        for pattern, values in self.overrides:
            if module_matches(pattern, module):
                changes.update(values)
        if inline:
            changes.update(inline)
        answer = replace(self, **changes) if changes else self
        self._by_module[module] = (inline, answer)
        return answer

    def set_strict(self) -> None:
        """`--strict`: mypy 2.4's strict set (STRICT_FLAGS).

        The flags veritype implements are set; the others are recorded as not
        enforced, so the run's warning names them."""
        names = {f.name for f in fields(self)}
        for key in STRICT_FLAGS:
            if key in names:
                setattr(self, key, strict_value(key))
            else:
                self.not_enforced[key] = strict_value(key)


# mypy 2.4's --strict, in the order its `--help` lists them.
STRICT_FLAGS: tuple[str, ...] = (
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_redundant_casts",
    "warn_unused_ignores",
    "warn_return_any",
    "implicit_reexport",  # --no-implicit-reexport: the one --strict turns off
    "strict_equality",
    "extra_checks",
)


def strict_value(key: str) -> bool:
    """The value --strict gives `key`."""
    return key != "implicit_reexport"


def module_matches(pattern: str, module: str) -> bool:
    """mypy's section patterns: `a.b` exact, `a.b.*` the package and below, globs."""
    if pattern.endswith(".*"):
        base = pattern[:-2]
        if module == base or module.startswith(base + "."):
            return True
        return fnmatch.fnmatchcase(module, pattern)
    return fnmatch.fnmatchcase(module, pattern)


def parse_num_workers(value: object) -> int:
    """`N` (0 or more) or `auto` (the CPUs this process may run on), as mypy's
    `--num-workers`; ValueError with a readable message otherwise."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number of workers or 'auto', got {value!r}")
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "auto":
            import os

            try:
                return len(os.sched_getaffinity(0))
            except AttributeError:  # not on Linux
                return os.cpu_count() or 1
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"expected a number of workers or 'auto', got {value!r}") from None
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"expected a number of workers (0 or more) or 'auto', got {value!r}")
    return value
