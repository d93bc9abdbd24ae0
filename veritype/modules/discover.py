"""Turn command-line targets (paths, `-m module`, `-p package`) into BuildSources.

A file's module name comes from walking up through directories that hold an
`__init__.py`/`__init__.pyi` (and, with namespace packages, directories
without one that lie inside such a package): the first directory that is no
package is the file's source root (mypy's behaviour). With `explicit_package_bases`, the name is
instead relative to the nearest enclosing `mypy_path` entry or the current
directory, so namespace packages without `__init__` files get dotted names.

Directory walks skip hidden directories, caches and environments, and paths
matching the config's `exclude` regexes; when `foo.pyi` sits beside
`foo.py`, only the stub is checked. Bad targets raise `DiscoveryError` with a
one-line message for the CLI to print.
"""

from __future__ import annotations

import os
import re
import stat

from veritype.modules import typeshed
from veritype.modules.finder import FoundModule, ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options

PYTHON_EXTENSIONS = (".py", ".pyi")

# Directory names never walked into: they hold environments, caches or vendored code.
SKIP_DIRS = frozenset({"__pycache__", ".venv", "venv", "site-packages", "node_modules", ".git", ".hg", ".tox"})


class DiscoveryError(Exception):
    """A target that cannot be checked; the message is one line for the user."""


def _display_path(path: str, cwd: str) -> str:
    """The path as diagnostics show it: relative to cwd when inside it."""
    absolute = os.path.abspath(path)
    try:
        rel = os.path.relpath(absolute, cwd)
    except ValueError:  # another drive on Windows
        return absolute
    return absolute if rel.startswith(os.pardir) else rel


def module_for_path(path: str, options: Options, cwd: str,
                    crawled: dict[str, tuple[list[str], str]] | None = None) -> tuple[str, str]:
    """(module name, source root) for a Python file. `crawled`: the package
    parts and root of the directories looked at so far (`_crawl_up`), for a
    caller that asks for many files at once (each would stat the same
    `__init__` files of its directory and every one above it)."""
    absolute = os.path.abspath(path)
    directory, filename = os.path.split(absolute)
    stem = filename.rsplit(".", 1)[0] if filename.endswith(PYTHON_EXTENSIONS) else filename
    if options.explicit_package_bases:
        bases = [os.path.abspath(p) for p in options.mypy_path] + [cwd]
        for base in sorted(bases, key=len, reverse=True):
            if directory == base or directory.startswith(base + os.sep):
                rel = os.path.relpath(directory, base)
                parts = [] if rel == os.curdir else rel.split(os.sep)
                if stem != "__init__":
                    parts.append(stem)
                return ".".join(parts) or stem, base
    parts = [] if stem == "__init__" else [stem]
    if crawled is None:
        prefix, directory = _crawl_up(directory, options.namespace_packages)
    else:
        if directory not in crawled:
            crawled[directory] = _crawl_up(directory, options.namespace_packages)
        prefix, directory = crawled[directory]
    parts = prefix + parts
    if not parts:  # an `__init__.py` in a directory that is not a package
        parts = [os.path.basename(directory)]
        directory = os.path.dirname(directory)
    return ".".join(parts), directory


def _crawl_up(directory: str, namespaces: bool) -> tuple[list[str], str]:
    """(package parts, source root) of the files in ``directory``.

    mypy's rule: a directory with an ``__init__`` is a package, and so is,
    with namespace packages on, a directory without one that lies inside a
    package: ``pkg/sub/app.py`` with ``pkg/__init__.py`` and no
    ``pkg/sub/__init__.py`` is ``pkg.sub.app``, so its relative imports
    resolve. A directory with no package above it is the source root.
    """
    return _crawl_up_package(directory, namespaces) or ([], directory)


def _crawl_up_package(directory: str, namespaces: bool) -> tuple[list[str], str] | None:
    parent, name = os.path.split(directory)
    if name.endswith("-stubs"):
        name = name[: -len("-stubs")]
    if parent == directory or not name.isidentifier():
        return None
    if _is_package_dir(directory):
        prefix, root = _crawl_up(parent, namespaces)
        return prefix + [name], root
    if not namespaces:
        return None
    above = _crawl_up_package(parent, namespaces)
    if above is None:
        return None
    return above[0] + [name], above[1]


def _is_package_dir(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "__init__.py")) or os.path.isfile(
        os.path.join(directory, "__init__.pyi")
    )


def _compile_excludes(patterns: list[str]) -> list[re.Pattern[str]]:
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re.compile(pattern))
        except re.error as exc:
            raise DiscoveryError(f"invalid exclude regex {pattern!r}: {exc}") from None
    return compiled


def _excluded(path: str, excludes: list[re.Pattern[str]], cwd: str, is_dir: bool) -> bool:
    if not excludes:
        return False
    # mypy matches against the cwd-relative path with `/` separators, directories with a trailing `/`.
    rel = _display_path(path, cwd).replace(os.sep, "/")
    if is_dir:
        rel += "/"
    return any(p.search(rel) for p in excludes)


def _walk(root: str, excludes: list[re.Pattern[str]], cwd: str) -> list[str]:
    files: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".")
            and d not in SKIP_DIRS
            and not _excluded(os.path.join(dirpath, d), excludes, cwd, is_dir=True)
        )
        for name in sorted(filenames):
            if name.endswith(PYTHON_EXTENSIONS):
                full = os.path.join(dirpath, name)
                if _special_file(full):
                    continue
                if not _excluded(full, excludes, cwd, is_dir=False):
                    files.append(full)
    return files


def _special_file(path: str) -> bool:
    """A FIFO, socket or device found in a directory walk: never a source file.

    Opening a FIFO blocks until something writes to it, so the run would wait
    forever (issue #19); such a file is skipped, as it would not be a module.
    A path that cannot be stat'ed is left to the reader, which reports it.
    """
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _prefer_stubs(files: list[str]) -> list[str]:
    """Drop `foo.py` when `foo.pyi` is in the list too."""
    present = {os.path.abspath(f) for f in files}
    return [f for f in files if not (f.endswith(".py") and os.path.abspath(f) + "i" in present)]


def sources_from_paths(paths: list[str], options: Options, cwd: str | None = None) -> list[BuildSource]:
    cwd = os.path.abspath(cwd or os.getcwd())
    excludes = _compile_excludes(options.exclude)
    files: list[str] = []
    for path in paths:
        full = path if os.path.isabs(path) else os.path.join(cwd, path)
        if os.path.isdir(full):
            found = _walk(full, excludes, cwd)
            if not found:
                raise DiscoveryError(f"no .py or .pyi files found in directory '{path}'")
            files += found
        elif os.path.isfile(full):
            files.append(full)  # named explicitly: checked even if excluded, whatever its suffix
        elif os.path.exists(full):
            raise DiscoveryError(f"can't read '{path}': not a file or directory")
        else:
            raise DiscoveryError(f"can't read file '{path}': No such file or directory")
    sources: list[BuildSource] = []
    seen: set[str] = set()
    crawled: dict[str, tuple[list[str], str]] = {}
    for file in _prefer_stubs(files):
        key = os.path.normcase(os.path.abspath(file))
        if key in seen:
            continue
        seen.add(key)
        module, base = module_for_path(file, options, cwd, crawled)
        sources.append(BuildSource(_display_path(file, cwd), module, base))
    return sources


def _finder(options: Options, cwd: str) -> ModuleFinder:
    return ModuleFinder(options, [cwd])


def source_for_module(name: str, options: Options, cwd: str | None = None) -> BuildSource:
    """`-m name`: the one module, found like an import from the current directory."""
    cwd = os.path.abspath(cwd or os.getcwd())
    found = _finder(options, cwd).find(name)
    if not isinstance(found, FoundModule) or found.is_namespace:
        raise DiscoveryError(f"can't find module '{name}'")
    return BuildSource(_display_path(found.path, cwd), name, _root_of(found, name))


def sources_for_package(name: str, options: Options, cwd: str | None = None) -> list[BuildSource]:
    """`-p name`: the package and every module below it."""
    cwd = os.path.abspath(cwd or os.getcwd())
    found = _finder(options, cwd).find(name)
    if not isinstance(found, FoundModule):
        raise DiscoveryError(f"can't find package '{name}'")
    if not found.is_package:
        return [BuildSource(_display_path(found.path, cwd), name, _root_of(found, name))]
    excludes = _compile_excludes(options.exclude)
    dirs = found.portions if found.is_namespace else (os.path.dirname(found.path),)
    sources: list[BuildSource] = []
    for directory in dirs:
        base = directory
        for _ in name.split("."):
            base = os.path.dirname(base)
        for file in _prefer_stubs(_walk(directory, excludes, cwd)):
            rel = os.path.relpath(file, base)
            parts = rel[: rel.rfind(".")].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            sources.append(BuildSource(_display_path(file, cwd), ".".join(parts), base))
    if not sources:
        raise DiscoveryError(f"no .py or .pyi files found in package '{name}'")
    return sources


def _root_of(found: FoundModule, name: str) -> str:
    root = os.path.dirname(found.path)
    if found.is_package and not found.is_namespace:
        root = os.path.dirname(root)
    for _ in name.split(".")[1:]:
        root = os.path.dirname(root)
    return root


def sources_from_targets(
    paths: list[str],
    modules: list[str],
    packages: list[str],
    options: Options,
    cwd: str | None = None,
) -> list[BuildSource]:
    """All targets of a run; an empty list of targets is the caller's business."""
    sources = sources_from_paths(paths, options, cwd) if paths else []
    for name in modules:
        sources.append(source_for_module(name, options, cwd))
    for name in packages:
        sources += sources_for_package(name, options, cwd)
    # A file named twice (as a path and through -p) is checked once.
    unique: dict[str, BuildSource] = {}
    for source in sources:
        unique.setdefault(os.path.abspath(source.path), source)
    for source in unique.values():
        _refuse_stdlib_shadowing(source, options)
    _refuse_duplicate_modules(list(unique.values()))
    return list(unique.values())


def _refuse_duplicate_modules(sources: list[BuildSource]) -> None:
    """Two files that map to one module name: mypy stops with "Duplicate module
    named" (exit 2), as only one of them could be imported. A stub beside its
    own .py (same directory) is the stub of that module, not a duplicate."""
    seen: dict[str, BuildSource] = {}
    for source in sources:
        other = seen.setdefault(source.module, source)
        if other is source or os.path.dirname(os.path.abspath(other.path)) == os.path.dirname(os.path.abspath(source.path)):
            continue
        raise DiscoveryError(
            f'{source.path}: Duplicate module named "{source.module}" (also at "{other.path}"); '
            "use --exclude to leave one out, add __init__.py files, "
            "or use --explicit-package-bases or adjust MYPYPATH"
        )


def _refuse_stdlib_shadowing(source: BuildSource, options: Options) -> None:
    """A checked top-level module named like a stdlib module would replace it everywhere."""
    if "." in source.module or not typeshed.in_stdlib(source.module, options.python_version):
        return
    # typeshed's own stub files, checked as such, are what they shadow.
    if os.path.abspath(source.path).startswith(typeshed.stdlib_dir() + os.sep):
        return
    raise DiscoveryError(
        f"'{source.path}' shadows the standard-library module '{source.module}'; "
        "rename it, or check it as part of a package"
    )
