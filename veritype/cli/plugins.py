"""mypy's `plugins` setting: veritype cannot run a mypy plugin (it is code
written against mypy's internals), but it reports one that mypy could not
load either, as mypy does.

mypy imports each plugin (`module` or `module:entry_point`, or a path to a
`.py` file, relative to the config file) before it checks anything; one that
cannot be imported is a blocking error: `CONFIG:LINE: error: Error importing
plugin "X": No module named 'Y'  [misc]` on stderr, then `Found 1 error in
1 file (errors prevented further checking)`, exit status 2. veritype finds
the plugin's module by looking for its files, never importing it: in the
config file's directory (mypy puts it on sys.path), the target environment's
site-packages and veritype's own (where mypy is usually installed next to
it). A plugin found is named in the `not enforced` warning (what it would
have typed is Any); one found nowhere is mypy's error.
"""

from __future__ import annotations

import os
import re
import sysconfig
from collections.abc import Iterable

from veritype.modules.environment import Environment, _running_site_dirs, environment_for
from veritype.options import Options

_EXTENSIONS = (".py", ".pyc", ".so", ".pyd")


def _is_module_file(directory: str, name: str) -> bool:
    try:
        entries = os.listdir(directory)
    except OSError:
        return False
    # `name.py`, or an extension module `name.cpython-311-x86_64-linux-gnu.so`.
    return any(e == name + ext or (e.startswith(name + ".") and e.endswith(ext)) for e in entries for ext in _EXTENSIONS)


def missing_prefix(module: str, roots: Iterable[str], editable: dict[str, str]) -> str | None:
    """The first dotted prefix of `module` that cannot be found (as Python's
    `No module named '...'` names it), or None when the module is there."""
    parts = module.split(".")
    dirs: list[str] = []  # package directories for the prefix found so far
    files = False
    top = parts[0]
    for root in roots:
        if os.path.isdir(os.path.join(root, top)):
            dirs.append(os.path.join(root, top))
        elif _is_module_file(root, top):
            files = True
    target = editable.get(top)
    if target is not None:
        if os.path.isdir(target):
            dirs.append(target)
        elif os.path.isfile(target):
            files = True
    if not dirs and not files:
        return top
    for i, part in enumerate(parts[1:], 1):
        found = [os.path.join(d, part) for d in dirs if os.path.isdir(os.path.join(d, part))]
        if not found and not any(_is_module_file(d, part) for d in dirs):
            return ".".join(parts[: i + 1])
        dirs = found
    return None


def _config_line(config_file: str | None) -> int:
    """The line mypy names: the `plugins` key in an INI file, else 1 (as mypy for TOML)."""
    if not config_file or config_file.endswith(".toml"):
        return 1
    try:
        with open(config_file, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if re.match(r"\s*plugins\s*[=:]", line):
                    return number
    except OSError:
        pass
    return 1


def plugin_error(options: Options, cwd: str) -> str | None:
    """mypy's error line for the first plugin that cannot be loaded (mypy stops
    at it), or None when every plugin is found."""
    plugins = options.not_enforced.get("plugins")
    if not isinstance(plugins, (list, tuple)) or not plugins:
        return None
    config_dir = os.path.dirname(options.config_file) if options.config_file else cwd
    shown = options.config_file or "config"
    if options.config_file and options.config_file.startswith(cwd + os.sep):
        shown = os.path.relpath(options.config_file, cwd)
    where = f"{shown}:{_config_line(options.config_file)}"
    env: Environment = environment_for(options)
    roots = [config_dir, *env.site_dirs, *_running_site_dirs(), sysconfig.get_paths()["stdlib"]]
    for entry in (str(p).strip() for p in plugins):
        if not entry:
            continue
        name = entry.rsplit(":", 1)[0] if ":" in entry and not re.match(r"[A-Za-z]:[\\/]", entry) else entry
        if name.endswith(".py") or os.sep in name or "/" in name:
            path = name if os.path.isabs(name) else os.path.join(config_dir, name)
            if not os.path.isfile(path):
                return f'{where}: error: Can\'t find plugin "{name}"  [misc]'
            continue
        missing = missing_prefix(name, roots, env.editable)
        if missing is not None:
            return f'{where}: error: Error importing plugin "{name}": No module named \'{missing}\'  [misc]'
    return None

