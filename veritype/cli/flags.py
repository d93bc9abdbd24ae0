"""The command-line flags, with mypy's names, and how they fill `Options`.

Flags default to "not given" (argparse.SUPPRESS), so a flag overrides the
config file only when it is on the command line. Order of application:
config file, then `--strict`, then every other flag given (so
`--strict --allow-untyped-defs` keeps untyped defs allowed, as in mypy).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any, NoReturn

from veritype import __version__
from veritype.cli.mypy_flags import add_not_enforced_flags, apply_not_enforced_flags
from veritype.config.loader import finalize, load_options
from veritype.config.project import set_default_cache_dir  # noqa: F401 - the CLI's name for it
from veritype.config.schema import ConfigValueError, UnsupportedVersion, parse_version
from veritype.diagnostics.codes import REGISTRY
from veritype.options import OUTPUT_FORMATS, Options, parse_num_workers


class UsageError(Exception):
    """Bad command-line input; the message is one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    # The one formatter that serves add_argument while build_parser adds the flags.
    metavar_check: argparse.HelpFormatter | None = None

    def error(self, message: str) -> NoReturn:
        # One clear line instead of argparse's usage block.
        raise UsageError(message)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's add_argument makes a help formatter for every flag only to
        # check that its metavar fits its nargs, and each new formatter asks the
        # terminal for its size: ~40% of building the parser (~10M instructions
        # of every run, for its ~200 flags). That check reads nothing the width
        # decides, so while the flags are added one formatter serves them all;
        # help and usage texts still get a fresh one.
        if self.metavar_check is not None:
            return self.metavar_check
        return super()._get_formatter()


# (flag, inverse flag or None, Options field, help). Both set a boolean field.
BOOL_FLAGS: list[tuple[str, str | None, str, str]] = [
    ("--ignore-missing-imports", None, "ignore_missing_imports", "don't report imports that cannot be resolved"),
    ("--disallow-untyped-defs", "--allow-untyped-defs", "disallow_untyped_defs", "report functions without annotations"),
    (
        "--disallow-incomplete-defs",
        "--allow-incomplete-defs",
        "disallow_incomplete_defs",
        "report functions with some annotations missing",
    ),
    ("--check-untyped-defs", "--no-check-untyped-defs", "check_untyped_defs", "check the bodies of unannotated functions"),
    (
        "--disallow-untyped-calls",
        "--allow-untyped-calls",
        "disallow_untyped_calls",
        "report calls to unannotated functions from annotated ones",
    ),
    (
        "--disallow-any-generics",
        "--allow-any-generics",
        "disallow_any_generics",
        "report generic types without type arguments",
    ),
    (
        "--disallow-untyped-decorators",
        "--allow-untyped-decorators",
        "disallow_untyped_decorators",
        "report untyped decorators that make a typed function untyped",
    ),
    (
        "--disallow-any-unimported",
        "--allow-any-unimported",
        "disallow_any_unimported",
        "report annotations whose types become Any through an unfollowed import (no-any-unimported)",
    ),
    (
        "--disallow-any-decorated",
        None,
        "disallow_any_decorated",
        "report functions that an untyped decorator makes untyped (misc)",
    ),
    (
        "--disallow-any-explicit",
        None,
        "disallow_any_explicit",
        "report an Any written in a type annotation (explicit-any)",
    ),
    (
        "--disallow-subclassing-any",
        "--allow-subclassing-any",
        "disallow_subclassing_any",
        "report classes whose base is Any (from a missing import, or Any itself)",
    ),
    (
        "--implicit-reexport",
        "--no-implicit-reexport",
        "implicit_reexport",
        "names a module imports are exported (default on; off: only `import x as x` and __all__)",
    ),
    (
        "--strict-equality",
        "--no-strict-equality",
        "strict_equality",
        "report ==, is and in between types that cannot overlap",
    ),
    ("--warn-return-any", "--no-warn-return-any", "warn_return_any", "report returning Any from a typed function"),
    ("--warn-unreachable", "--no-warn-unreachable", "warn_unreachable", "report code that can never run"),
    ("--warn-redundant-casts", "--no-warn-redundant-casts", "warn_redundant_casts", "report casts that change nothing"),
    ("--warn-unused-ignores", "--no-warn-unused-ignores", "warn_unused_ignores", "report '# type: ignore' comments that silence nothing"),
    ("--strict-optional", "--no-strict-optional", "strict_optional", "None is not a member of every type (default on)"),
    ("--strict-bytes", "--no-strict-bytes", "strict_bytes", "bytearray and memoryview are not bytes (default on)"),
    ("--show-error-codes", "--hide-error-codes", "show_error_codes", "print error codes (default on)"),
    ("--show-column-numbers", "--hide-column-numbers", "show_column_numbers", "print column numbers (default on)"),
    ("--error-summary", "--no-error-summary", "error_summary", "print the summary line (default on)"),
    ("--color-output", "--no-color-output", "color", "colour the output (default: only on a terminal)"),
    ("--namespace-packages", "--no-namespace-packages", "namespace_packages", "PEP 420 namespace packages (default on)"),
    (
        "--explicit-package-bases",
        "--no-explicit-package-bases",
        "explicit_package_bases",
        "module names relative to mypy_path entries or the current directory",
    ),
    ("--no-site-packages", None, "no_site_packages", "don't search installed packages"),
    ("--allow-redefinition", "--disallow-redefinition", "allow_redefinition", "let an unannotated variable be redefined with another type"),
    ("--allow-redefinition-new", "--disallow-redefinition-new", "allow_redefinition_new", "let an unannotated variable be redefined with another type (mypy 2.x's form)"),
    ("--warn-no-return", "--no-warn-no-return", "warn_no_return", "report functions that can end without returning (default on)"),
    ("--show-error-end", "--hide-error-end", "show_error_end", "print end line and column too (implies column numbers)"),
    ("--show-error-context", "--hide-error-context", "show_error_context", "precede errors with notes naming the function or class"),
    ("--show-error-code-links", "--hide-error-code-links", "show_error_code_links", "add a link to each error code's documentation"),
    ("--show-absolute-path", "--hide-absolute-path", "show_absolute_path", "print absolute paths"),
    ("--pretty", "--no-pretty", "pretty", "show the source line and a marker under each error; wrap long messages"),
    ("--install-types", "--no-install-types", "install_types", "pip-install the missing types-* stub packages found"),
    ("--non-interactive", "--interactive", "non_interactive", "--install-types: install without asking, then check again"),
]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="veritype",
        usage="veritype [check] [options] [PATH ...]\n       veritype watch [options] [PATH ...]\n       veritype lsp",
        description="A static type checker for Python, a drop-in for mypy.\n\n"
        "subcommands:\n"
        "  check   check the files, directories, modules (-m) and packages (-p) given, or the\n"
        "          `files` named in the config (the default: `check` may be left out, as with mypy)\n"
        "  watch   check, then check again whenever a file changes (same options as check)\n"
        "  lsp     the language server, speaking LSP on stdin/stdout\n\n"
        "mypy's flags and config keys are all accepted; those veritype does not act on are\n"
        "named in one `not enforced` warning per run.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        argument_default=argparse.SUPPRESS,
    )
    parser.metavar_check = parser._get_formatter()
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to check")
    parser.add_argument("-m", "--module", dest="modules", action="append", metavar="MODULE", help="check a module")
    parser.add_argument("-p", "--package", dest="packages", action="append", metavar="PACKAGE", help="check a package")
    parser.add_argument("-V", "--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--list-codes", action="store_true",
        help="print every error code: enabled by default, checked by veritype, meaning (docs/error_codes.md)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="say more about what is done")
    parser.add_argument("--config-file", metavar="FILE", help="read this config file instead of searching for one")
    parser.add_argument("--strict", action="store_true", help="mypy's strict mode: its 13 strictness flags (those not enforced are named in the warning)")
    parser.add_argument("--python-version", metavar="X.Y", help="check for this Python version")
    parser.add_argument("--platform", metavar="PLATFORM", help="check for this sys.platform")
    parser.add_argument("--python-executable", metavar="PATH", help="find installed packages of this interpreter")
    parser.add_argument(
        "--follow-imports", choices=("normal", "silent", "skip", "error"), help="how to treat imported modules"
    )
    parser.add_argument("--always-true", action="append", metavar="NAME", help="a name to take as always true in conditions")
    parser.add_argument("--always-false", action="append", metavar="NAME", help="a name to take as always false in conditions")
    parser.add_argument("--exclude", action="append", metavar="REGEX", help="skip paths matching this regex in directories")
    parser.add_argument(
        "--enable-error-code", action="append", metavar="CODE", help="turn an error code on (comma-separated allowed)"
    )
    parser.add_argument(
        "--disable-error-code", action="append", metavar="CODE", help="turn an error code off (comma-separated allowed)"
    )
    parser.add_argument("--cache-dir", metavar="DIR", help="keep the incremental cache here (default .veritype_cache)")
    parser.add_argument(
        "--no-incremental", dest="incremental", action="store_false", help="check everything; don't read or write the cache"
    )
    parser.add_argument("--incremental", dest="incremental", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--no-sqlite-cache", dest="sqlite_cache", action="store_false",
        help="keep the cache as one file per module instead of one SQLite database (for NFS and other shared storage)",
    )
    parser.add_argument("--sqlite-cache", dest="sqlite_cache", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--shared-cache-dir", metavar="DIR",
        help="keep the shared stub cache (installed files' interface digests, once per user) here "
        "(default $VERITYPE_SHARED_CACHE_DIR, $XDG_CACHE_HOME/veritype or ~/.cache/veritype)",
    )
    parser.add_argument(
        "--no-shared-cache", dest="shared_cache", action="store_false",
        help="don't read or write the shared stub cache",
    )
    parser.add_argument(
        "-n", "--num-workers", dest="num_workers", type=_num_workers, metavar="N",
        help="check modules in N worker processes ('auto': one per CPU; 0: none, the default)",
    )
    parser.add_argument(
        "--watch", action="store_true", help="check, then check again whenever a file changes (`veritype watch`)"
    )
    parser.add_argument(
        "--stats", action="store_true", help="after the summary, print how many modules and symbols the run evaluated"
    )
    parser.add_argument(
        "-O",
        "--output",
        choices=OUTPUT_FORMATS,
        help="output format: text (the default; github under GitHub Actions); json: mypy's JSON lines; "
        "veritype-json: one JSON array with end positions; sarif: a SARIF 2.1.0 log; "
        "github: GitHub Actions annotations; gitlab: a GitLab Code Quality report",
    )
    parser.add_argument(
        "-c", "--command", dest="commands", action="append", metavar="PROGRAM_TEXT", help="check this program text"
    )
    parser.add_argument(
        "--soft-error-limit",
        dest="many_errors_threshold",
        type=int,
        metavar="N",
        help="above N errors, leave out the notes of errors past the first N (mypy's meaning; -1: no limit)",
    )
    parser.add_argument("--junit-xml", metavar="FILE", help="also write the result as a JUnit XML document to FILE")
    parser.add_argument(
        "--junit-format", choices=("global", "per_file"), help="--junit-xml: one test for the run (default) or one per file"
    )
    parser.add_argument("-i", dest="incremental", action="store_true", help=argparse.SUPPRESS)
    for flag, inverse, field, help_text in BOOL_FLAGS:
        parser.add_argument(flag, dest=field, action="store_true", help=help_text)
        if inverse is not None:
            parser.add_argument(inverse, dest=field, action="store_false", help=argparse.SUPPRESS)
    add_not_enforced_flags(parser)
    parser.metavar_check = None
    return parser


def split_codes(values: list[str]) -> frozenset[str]:
    return frozenset(code.strip() for value in values for code in value.split(",") if code.strip())


def warn_unknown_codes(codes: frozenset[str], where: str, warn: Callable[[str], None]) -> None:
    unknown = sorted(c for c in codes if c not in REGISTRY)
    if unknown:
        warn(f"{where}: unknown error code(s) {', '.join(unknown)} (ignored)")


def apply_flags(options: Options, ns: argparse.Namespace, warn: Callable[[str], None]) -> None:
    given: dict[str, Any] = vars(ns)
    if given.get("strict"):
        options.set_strict()
    if "python_version" in given:
        try:
            options.python_version = parse_version(given["python_version"])
        except UnsupportedVersion as exc:
            raise UsageError(f"argument --python-version: {exc}") from None
        except ConfigValueError as exc:
            raise UsageError(str(exc) if "Python 2" in str(exc) else f"argument --python-version: {exc}") from None
    for name in ("platform", "follow_imports", "output", "many_errors_threshold", "junit_format"):
        if name in given:
            setattr(options, name, given[name])
    if "junit_xml" in given:
        options.junit_xml = os.path.abspath(given["junit_xml"])
    if "python_executable" in given:
        exe = given["python_executable"]
        if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
            raise UsageError(f"--python-executable: '{exe}' is not an executable file")
        options.python_executable = exe
    for name in ("always_true", "always_false"):
        if name in given:
            setattr(options, name, [*getattr(options, name), *given[name]])
    if "exclude" in given:
        options.exclude = list(options.exclude) + list(given["exclude"])
    for _, _, field, _ in BOOL_FLAGS:
        if field in given:
            setattr(options, field, given[field])
    if "verbose" in given:
        options.verbose = True
    apply_not_enforced_flags(options, given)
    if "incremental" in given:
        options.incremental = given["incremental"]
    if "sqlite_cache" in given:
        options.sqlite_cache = given["sqlite_cache"]
    if "cache_dir" in given:
        if given["cache_dir"]:
            options.cache_dir = os.path.abspath(given["cache_dir"])
        else:
            # `--cache-dir ""` would be the current directory (mypy writes its
            # cache there); an empty name is taken as "no cache" instead.
            options.cache_dir = None
            options.incremental = False
    if "shared_cache" in given:
        options.shared_cache = given["shared_cache"]
    if given.get("shared_cache_dir"):
        options.shared_cache_dir = os.path.abspath(given["shared_cache_dir"])
    if "num_workers" in given:
        options.num_workers = given["num_workers"]
    enable = split_codes(given.get("enable_error_code", []))
    disable = split_codes(given.get("disable_error_code", []))
    warn_unknown_codes(enable | disable, "command line", warn)
    options.enable_error_code = (options.enable_error_code - disable) | enable
    options.disable_error_code = (options.disable_error_code - enable) | disable


def _num_workers(text: str) -> int:
    try:
        return parse_num_workers(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_args(argv: list[str]) -> argparse.Namespace:
    if argv and argv[0] == "check":
        argv = argv[1:]
    elif argv and argv[0] == "watch":
        argv = [*argv[1:], "--watch"]
    return build_parser().parse_args(argv)


def options_from_args(
    ns: argparse.Namespace,
    cwd: str,
    warn: Callable[[str], None],
    search_config: bool = True,
) -> Options:
    """Config file (found or given), then flags; ready for a run."""
    config_file = getattr(ns, "config_file", None)
    if config_file is None and not search_config:
        options = Options()
    else:
        options = load_options(cwd, config_file, warn)
    warn_unknown_codes(options.enable_error_code | options.disable_error_code, options.config_file or "config", warn)
    apply_flags(options, ns, warn)
    finalize(options)
    return options


def options_from_argv(argv: list[str], cwd: str, search_config: bool = False) -> Options:
    """Options from CLI-style flags (the case-file runner's `<!-- options: -->` line)."""
    ns = parse_args(argv)
    return options_from_args(ns, cwd, lambda message: None, search_config=search_config)


def version_text() -> str:
    return f"veritype {__version__}"
