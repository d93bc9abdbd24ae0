"""The target environment's site-packages directories (PEP 561 search roots).

Which environment: `--python-executable` if given (we run that interpreter
once, isolated with `-I` and from a neutral directory, to print its paths:
no code of the project checked can run); else the active
virtual environment (`VIRTUAL_ENV`); else the interpreter veritype runs on.
`.pth` files that name directories (editable installs, `pip install -e`)
add those directories, and setuptools' finder-style editable installs are
read (never imported) for their package -> directory mapping.
"""

from __future__ import annotations

import ast
import functools
import glob
import json
import os
import sys
from dataclasses import dataclass, field

from veritype.modules import interpreter_memo
from veritype.options import Options

# Printed by the target interpreter: its site-packages and user site. It runs
# with -I, which turns the user site off for itself; the user site is still
# searched where that interpreter would use it: outside a virtual
# environment, or in one that includes the system site-packages (its base
# prefix is then among site.PREFIXES), unless PYTHONNOUSERSITE is set.
_PATHS_SCRIPT = """
import json, os, site, sys, sysconfig
paths = []
try:
    paths += site.getsitepackages()
except AttributeError:
    pass
for key in ("purelib", "platlib"):
    paths.append(sysconfig.get_paths()[key])
system_site = sys.prefix == sys.base_prefix or sys.base_prefix in getattr(site, "PREFIXES", ())
if system_site and not os.environ.get("PYTHONNOUSERSITE"):
    try:
        paths.append(site.getusersitepackages())
    except AttributeError:
        pass
print(json.dumps(paths))
"""


class TargetEnvironmentError(Exception):
    """The target interpreter could not be asked for its paths."""


@dataclass(frozen=True)
class Environment:
    """The target environment's site-packages and editable installs."""
    # Directories searched as site-packages, in order.
    site_dirs: tuple[str, ...] = ()
    # Top-level package -> directory, from setuptools' editable finders.
    editable: dict[str, str] = field(default_factory=dict)


def _dedupe_existing(paths: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for p in paths:
        if p and os.path.isdir(p):
            seen.setdefault(os.path.abspath(p), None)
    return list(seen)


@functools.cache
def interpreter_site_dirs(executable: str, memo_dir: str | None = None) -> tuple[str, ...]:
    """site-packages of another interpreter, by running it with `-c` (cached
    per run, and across runs in `memo_dir`: see interpreter_memo.py)."""
    given, executable = executable, _resolve(executable)
    # Only the very path we run on is our own environment. Not samefile():
    # a virtual environment's python is a symlink to its base interpreter,
    # so every venv made from the same base would look like ours, and we
    # would read our own site-packages instead of the target's.
    if os.path.abspath(executable) == os.path.abspath(sys.executable):
        return tuple(_running_site_dirs())
    key = interpreter_memo.key(executable, _PATHS_SCRIPT) if memo_dir else None
    paths = interpreter_memo.read(memo_dir, key) if memo_dir and key else None
    if paths is None:
        paths = _ask(executable, given)
        if memo_dir and key:
            interpreter_memo.write(memo_dir, key, paths)
    return tuple(_dedupe_existing(paths))


def _resolve(executable: str) -> str:
    """The interpreter to run, as mypy's subprocess would find it: a path is
    relative to the current directory (made absolute: the query runs from
    another one), a bare name is looked up on PATH."""
    if os.sep in executable or (os.altsep and os.altsep in executable):
        return os.path.abspath(executable)
    import shutil

    return shutil.which(executable) or executable


def _ask(executable: str, given: str) -> list[str]:
    # Imported here: a run whose answer is in the memo never asks, and the two
    # modules (with shutil and random, which tempfile imports) were ~25M
    # instructions of every such run's start.
    import subprocess
    import tempfile

    try:
        out = subprocess.run(
            # -I: no PYTHON* variables, no user site, no current directory on
            # sys.path; run from the temporary directory, so no module of the
            # project being checked can shadow one the script imports.
            [executable, "-I", "-c", _PATHS_SCRIPT],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
            stdin=subprocess.DEVNULL,
            cwd=tempfile.gettempdir(),
        ).stdout
        paths = json.loads(out.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        raise TargetEnvironmentError(f"cannot get site-packages of {given}: {exc}") from exc
    return [str(p) for p in paths]


def _running_site_dirs() -> list[str]:
    import site
    import sysconfig

    paths: list[str] = []
    try:
        paths += site.getsitepackages()
    except AttributeError:
        pass
    paths += [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    if site.ENABLE_USER_SITE:
        paths.append(site.getusersitepackages())
    return _dedupe_existing(paths)


def venv_site_dirs(venv: str) -> list[str]:
    """site-packages of a virtual environment found by its layout (no interpreter run)."""
    patterns = [
        os.path.join(venv, "lib", "python*", "site-packages"),
        os.path.join(venv, "lib64", "python*", "site-packages"),
        os.path.join(venv, "Lib", "site-packages"),
    ]
    found: list[str] = []
    for pattern in patterns:
        found += sorted(glob.glob(pattern))
    return _dedupe_existing(found)


def base_site_dirs(options: Options) -> list[str]:
    if options.site_packages is not None:
        return _dedupe_existing(list(options.site_packages))
    if options.no_site_packages:
        return []
    if options.python_executable:
        # Beside the cache's entries (cache/store.py's format directory, whose
        # stale temporary files it removes); not with mypy's "no cache".
        memo_dir = os.path.join(options.cache_dir, "v1") if options.incremental and options.cache_dir and options.cache_dir != os.devnull else None
        return list(interpreter_site_dirs(options.python_executable, memo_dir))
    venv = os.environ.get("VIRTUAL_ENV")
    if venv and os.path.isdir(venv):
        return venv_site_dirs(venv)
    return _running_site_dirs()


def _read_pth(path: str, site_dir: str) -> list[str]:
    dirs: list[str] = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return dirs
    for line in lines:
        line = line.strip()
        # `import ...` lines are code that `site` would run; we never run it.
        if not line or line.startswith(("#", "import ", "import\t")):
            continue
        dirs.append(os.path.join(site_dir, line))
    return dirs


def _read_editable_finder(path: str) -> dict[str, str]:
    """`MAPPING = {...}` in setuptools' `__editable___*_finder.py`, read as a literal."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return {}
    for node in tree.body:
        value: ast.expr | None = None
        names: list[str] = []
        if isinstance(node, ast.Assign):
            value = node.value
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            value = node.value
            names = [node.target.id]
        if value is not None and "MAPPING" in names:
            try:
                mapping = ast.literal_eval(value)
            except ValueError:
                return {}
            if isinstance(mapping, dict):
                return {str(k): str(v) for k, v in mapping.items()}
    return {}


@functools.cache
def _environment(site_dirs: tuple[str, ...]) -> Environment:
    extra: list[str] = []
    editable: dict[str, str] = {}
    for site_dir in site_dirs:
        try:
            names = sorted(os.listdir(site_dir))
        except OSError:
            continue
        for name in names:
            full = os.path.join(site_dir, name)
            if name.endswith(".pth"):
                extra += _read_pth(full, site_dir)
            elif name.startswith("__editable__") and name.endswith("_finder.py"):
                for pkg, target in _read_editable_finder(full).items():
                    editable.setdefault(pkg, target)
    return Environment(tuple(_dedupe_existing(list(site_dirs) + extra)), editable)


def environment_cache_clear() -> None:
    """Forget what was read of the environments (after packages were installed into one)."""
    _environment.cache_clear()


def environment_for(options: Options) -> Environment:
    return _environment(tuple(base_site_dirs(options)))
