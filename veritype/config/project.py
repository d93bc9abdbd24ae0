"""A project directory's options: its config file and its default cache.

What `veritype check` run in a directory without flags would use. The
command line (cli/flags.py) adds its flags on top; the language server,
which has no command line, takes these as they are. Here, below every
driver, so that `server` need not import `cli` (DESIGN.md, the layers).
"""

from __future__ import annotations

import os

from veritype.config.loader import finalize, load_options
from veritype.options import Options


def set_default_cache_dir(options: Options, cwd: str) -> None:
    """The CLI's default cache: `.veritype_cache` beside the config file, else in cwd."""
    if options.incremental and options.cache_dir is None:
        root = os.path.dirname(options.config_file) if options.config_file else cwd
        options.cache_dir = os.path.join(root, ".veritype_cache")
    set_default_shared_cache_dir(options)


def set_default_shared_cache_dir(options: Options) -> None:
    """The shared stub cache (veritype/cache/shared.py), unless turned off:
    `--no-shared-cache`, or mypy's "no cache", `--cache-dir /dev/null`."""
    if not options.shared_cache or options.cache_dir == os.devnull:
        options.shared_cache_dir = None
    elif options.shared_cache_dir is None:
        options.shared_cache_dir = default_shared_cache_dir()


def default_shared_cache_dir() -> str:
    """`$VERITYPE_SHARED_CACHE_DIR`, else `$XDG_CACHE_HOME/veritype` (the XDG
    base directory rule: only an absolute XDG_CACHE_HOME counts), else
    `~/.cache/veritype`."""
    explicit = os.environ.get("VERITYPE_SHARED_CACHE_DIR")
    if explicit:
        return os.path.abspath(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "veritype")


def project_options(root: str) -> Options:
    """The options of a `veritype check` in `root` with no flags: its config, its cache.
    (Warnings about the config are dropped: there is no terminal to show them.)"""
    options = load_options(root, None, lambda message: None)
    finalize(options)
    set_default_cache_dir(options, root)
    return options
