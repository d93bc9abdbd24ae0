"""mypy 2.4's options, one row each, with what veritype does with them.

This table is the one source of truth for mypy compatibility of the command
line and the config files (taken from mypy 2.4.1's `mypy --help`, including
its hidden flags, and its config-file documentation):

- IMPLEMENTED: veritype acts on it with mypy's meaning (the flag is defined
  in `veritype.cli.flags`, the key in `veritype.config.schema`);
- NOT_ENFORCED: accepted from both places; a value other than mypy's default
  is collected in `Options.not_enforced` and named in the one warning line a
  run prints (`veritype: warning: not enforced: strict_equality, ...`), so
  a mypy command line or config never fails and is never silently ignored.

`tests/test_mypy_table.py` runs every flag and key of this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from veritype.options import STRICT_FLAGS, strict_value  # noqa: F401 - re-exported: part of the table

IMPLEMENTED = "implemented"
NOT_ENFORCED = "not enforced"


@dataclass(frozen=True)
class MypyOption:
    """One mypy option: its config key, its flags and what veritype does with it."""
    key: str  # the config-file key (mypy's Options attribute)
    kind: str  # "bool" | "value" | "list" | "flag" (command line only, no config key)
    status: str
    default: object = None  # mypy's default: a value equal to it is not warned about
    on: tuple[str, ...] = ()  # flags that set True (bool) or take the value
    off: tuple[str, ...] = ()  # flags that set False (bool)
    per_module: bool = False
    nargs: int = 1  # values a value-flag takes (--shadow-file takes 2)


def _b(key: str, default: bool, on: str | None, off: str | None, status: str = NOT_ENFORCED, per_module: bool = False) -> MypyOption:
    return MypyOption(key, "bool", status, default, (on,) if on else (), (off,) if off else (), per_module)


def _v(key: str, flag: str | None, status: str = NOT_ENFORCED, default: object = None, kind: str = "value", per_module: bool = False, nargs: int = 1) -> MypyOption:
    return MypyOption(key, kind, status, default, (flag,) if flag else (), (), per_module, nargs)


I, N = IMPLEMENTED, NOT_ENFORCED

MYPY_OPTIONS: tuple[MypyOption, ...] = (
    # -- general, config file ------------------------------------------------
    _v("verbosity", "--verbose", I, 0, kind="flag"),
    _v("output", "--output", I),
    _v("config_file", "--config-file", I, kind="flag"),
    _b("warn_unused_configs", False, "--warn-unused-configs", "--no-warn-unused-configs"),
    # -- import discovery ----------------------------------------------------
    _b("namespace_packages", True, "--namespace-packages", "--no-namespace-packages", I),
    _b("ignore_missing_imports", False, "--ignore-missing-imports", None, I, per_module=True),
    _b("follow_untyped_imports", False, "--follow-untyped-imports", None, per_module=True),
    _v("follow_imports", "--follow-imports", I, "normal", per_module=True),
    _b("follow_imports_for_stubs", False, None, None, per_module=True),
    _v("python_executable", "--python-executable", I),
    _b("no_site_packages", False, "--no-site-packages", None, I),
    _b("no_silence_site_packages", False, "--no-silence-site-packages", None),
    _v("mypy_path", None, I, kind="list"),
    _v("files", None, I, kind="list"),
    _v("modules", None, I, kind="list"),
    _v("packages", None, I, kind="list"),
    _v("exclude", "--exclude", I, kind="list"),
    _b("exclude_gitignore", False, "--exclude-gitignore", "--no-exclude-gitignore"),
    _b("explicit_package_bases", False, "--explicit-package-bases", "--no-explicit-package-bases", I),
    _v("package_root", "--package-root", default=[], kind="list"),
    _b("fast_module_lookup", False, "--fast-module-lookup", "--no-fast-module-lookup"),
    # -- platform --------------------------------------------------------------
    _v("python_version", "--python-version", I),
    _v("platform", "--platform", I),
    _v("always_true", "--always-true", I, [], kind="list", per_module=True),
    _v("always_false", "--always-false", I, [], kind="list", per_module=True),
    # -- dynamic typing ------------------------------------------------------
    _b("disallow_any_expr", False, "--disallow-any-expr", None, per_module=True),
    _b("disallow_any_decorated", False, "--disallow-any-decorated", None, I, per_module=True),
    _b("disallow_any_explicit", False, "--disallow-any-explicit", None, I, per_module=True),
    _b("disallow_any_generics", False, "--disallow-any-generics", "--allow-any-generics", I, per_module=True),
    _b("disallow_any_unimported", False, "--disallow-any-unimported", "--allow-any-unimported", I, per_module=True),
    _b("disallow_subclassing_any", False, "--disallow-subclassing-any", "--allow-subclassing-any", I, per_module=True),
    # -- untyped definitions and calls -----------------------------------------
    _b("disallow_untyped_calls", False, "--disallow-untyped-calls", "--allow-untyped-calls", I, per_module=True),
    _v("untyped_calls_exclude", "--untyped-calls-exclude", default=[], kind="list"),
    _b("disallow_untyped_defs", False, "--disallow-untyped-defs", "--allow-untyped-defs", I, per_module=True),
    _b("disallow_incomplete_defs", False, "--disallow-incomplete-defs", "--allow-incomplete-defs", I, per_module=True),
    _b("check_untyped_defs", False, "--check-untyped-defs", "--no-check-untyped-defs", I, per_module=True),
    _b("disallow_untyped_decorators", False, "--disallow-untyped-decorators", "--allow-untyped-decorators", I, per_module=True),
    # -- None and Optional -------------------------------------------------------
    _b("implicit_optional", False, "--implicit-optional", "--no-implicit-optional", per_module=True),
    _b("strict_optional", True, "--strict-optional", "--no-strict-optional", I, per_module=True),
    # -- warnings ------------------------------------------------------------
    _b("warn_redundant_casts", False, "--warn-redundant-casts", "--no-warn-redundant-casts", I),
    _b("warn_unused_ignores", False, "--warn-unused-ignores", "--no-warn-unused-ignores", I, per_module=True),
    _b("warn_no_return", True, "--warn-no-return", "--no-warn-no-return", I, per_module=True),
    _b("warn_return_any", False, "--warn-return-any", "--no-warn-return-any", I, per_module=True),
    _b("warn_unreachable", False, "--warn-unreachable", "--no-warn-unreachable", I, per_module=True),
    _b("report_deprecated_as_note", False, "--report-deprecated-as-note", "--no-report-deprecated-as-note"),
    _v("deprecated_calls_exclude", "--deprecated-calls-exclude", default=[], kind="list"),
    # -- miscellaneous strictness ------------------------------------------------
    _b("allow_untyped_globals", False, "--allow-untyped-globals", "--disallow-untyped-globals", per_module=True),
    _b("allow_redefinition", False, "--allow-redefinition", "--disallow-redefinition", I, per_module=True),
    _b("allow_redefinition_old", False, "--allow-redefinition-old", "--disallow-redefinition-old", per_module=True),
    _b("allow_redefinition_new", False, "--allow-redefinition-new", "--disallow-redefinition-new", I, per_module=True),
    _b("implicit_reexport", True, "--implicit-reexport", "--no-implicit-reexport", I, per_module=True),
    _b("strict_equality", False, "--strict-equality", "--no-strict-equality", I, per_module=True),
    _b("strict_equality_for_none", False, "--strict-equality-for-none", "--no-strict-equality-for-none", per_module=True),
    _b("strict_bytes", True, "--strict-bytes", "--no-strict-bytes", I),
    _b("extra_checks", False, "--extra-checks", "--no-extra-checks", per_module=True),
    _b("check_unreachable", False, "--check-unreachable", "--no-check-unreachable", per_module=True),
    _b("strict", False, "--strict", None, I),
    _v("disable_error_code", "--disable-error-code", I, kind="list", per_module=True),
    _v("enable_error_code", "--enable-error-code", I, kind="list", per_module=True),
    _b("ignore_errors", False, None, None, I, per_module=True),
    _b("local_partial_types", True, "--local-partial-types", "--no-local-partial-types", per_module=True),
    _b("strict_concatenate", False, "--strict-concatenate", None, per_module=True),
    _b("disable_bytearray_promotion", True, "--disable-bytearray-promotion", None),
    _b("disable_memoryview_promotion", True, "--disable-memoryview-promotion", None),
    _b("allow_empty_bodies", False, "--allow-empty-bodies", "--disallow-empty-bodies"),
    _b("mypyc", False, None, None, per_module=True),
    # -- error messages ------------------------------------------------------
    _b("show_error_context", False, "--show-error-context", "--hide-error-context", I),
    _b("show_column_numbers", True, "--show-column-numbers", "--hide-column-numbers", I),
    _b("show_error_end", False, "--show-error-end", "--hide-error-end", I),
    _b("hide_error_codes", False, "--hide-error-codes", "--show-error-codes", I),
    _b("show_error_code_links", False, "--show-error-code-links", "--hide-error-code-links", I),
    _b("pretty", False, "--pretty", "--no-pretty", I),
    _b("color_output", True, "--color-output", "--no-color-output", I),
    _b("error_summary", True, "--error-summary", "--no-error-summary", I),
    _b("show_absolute_path", False, "--show-absolute-path", "--hide-absolute-path", I),
    _v("many_errors_threshold", "--soft-error-limit", I, -1),
    # -- incremental mode ------------------------------------------------------
    _b("incremental", True, "--incremental", "--no-incremental", I),
    _v("cache_dir", "--cache-dir", I),
    _b("sqlite_cache", True, "--sqlite-cache", "--no-sqlite-cache", I),
    _v("sqlite_num_shards", "--sqlite-num-shards", default=16),
    _b("cache_fine_grained", False, "--cache-fine-grained", None),
    _b("fixed_format_cache", True, "--fixed-format-cache", "--no-fixed-format-cache"),
    _b("skip_version_check", False, "--skip-version-check", None),
    _b("skip_cache_mtime_checks", False, "--skip-cache-mtime-checks", None),
    # -- advanced ----------------------------------------------------------------
    _b("pdb", False, "--pdb", None),
    MypyOption("show_traceback", "bool", N, False, ("--show-traceback", "--tb")),
    _b("raise_exceptions", False, "--raise-exceptions", None),
    _v("custom_typing_module", "--custom-typing-module"),
    _v("custom_typeshed_dir", "--custom-typeshed-dir"),
    _b("warn_incomplete_stub", False, "--warn-incomplete-stub", "--no-warn-incomplete-stub"),
    _v("shadow_file", "--shadow-file", kind="flag", nargs=2),
    _v("num_workers", "--num-workers", I, default=0),  # also -n; engine/workers.py
    _v("enable_incomplete_feature", "--enable-incomplete-feature", default=[], kind="list"),
    _b("native_parser", True, "--native-parser", "--no-native-parser"),
    _b("fast_exit", True, "--fast-exit", "--no-fast-exit"),
    _b("old_type_inference", False, "--old-type-inference", None),
    _b("disable_expression_cache", False, "--disable-expression-cache", None),
    _b("export_ref_info", False, "--export-ref-info", None),
    _b("logical_deps", False, "--logical-deps", None),
    _b("bazel", False, "--bazel", None),
    _b("debug_serialize", False, "--debug-serialize", None),
    _b("debug_cache", False, "--debug-cache", None),
    _b("dump_deps", False, "--dump-deps", None),
    _b("dump_graph", False, "--dump-graph", None),
    _b("dump_build_stats", False, "--dump-build-stats", None),
    _b("dump_type_stats", False, None, None),
    _b("dump_inference_stats", False, "--inferstats", None),
    _b("semantic_analysis_only", False, "--semantic-analysis-only", None),
    _b("test_env", False, "--test-env", None),
    _v("timing_stats", "--timing-stats"),
    _v("line_checking_stats", "--line-checking-stats"),
    _v("cache_map", "--cache-map", kind="flag"),
    _v("quickstart_file", "--quickstart-file"),
    _v("mypyc_annotation_file", "-a", kind="flag"),
    _b("mypyc_skip_c_generation", False, "--skip-c-gen", None),
    _v("plugins", None, default=[], kind="list"),
    # -- reports -------------------------------------------------------------
    *(
        _v(f"{name.replace('-', '_')}_report", f"--{name}-report")
        for name in (
            "any-exprs", "cobertura-xml", "html", "linecount", "linecoverage",
            "lineprecision", "txt", "xml", "xslt-html", "xslt-txt",
        )
    ),
    # -- miscellaneous ---------------------------------------------------------
    _v("junit_xml", "--junit-xml", I),
    _v("junit_format", "--junit-format", I, "global"),
    _v("find_occurrences", "--find-occurrences", kind="flag"),
    _b("scripts_are_modules", False, "--scripts-are-modules", None),
    _b("install_types", False, "--install-types", "--no-install-types", I),
    _b("non_interactive", False, "--non-interactive", "--interactive", I),
    _v("command", "--command", I, kind="flag"),
)

BY_KEY: dict[str, MypyOption] = {opt.key: opt for opt in MYPY_OPTIONS}

# Config keys veritype accepts without acting on them: named in the warning.
NOT_ENFORCED_KEYS = frozenset(o.key for o in MYPY_OPTIONS if o.status == NOT_ENFORCED and o.kind != "flag")

def describe(key: str, value: object) -> str:
    """`strict_equality`, `implicit_reexport=False`, `plugins=pydantic.mypy`: for the warning line."""
    if value is True:
        return key
    if isinstance(value, (list, tuple)):
        return f"{key}={','.join(str(v) for v in value)}"
    return f"{key}={value}"
