"""Resolve a module name to a file: source roots, typeshed's stdlib, site-packages.

Search order for a top-level name (PEP 561, with the stdlib placed where users
expect it):

1. `MYPYPATH`, then `mypy_path` from the config;
2. typeshed's standard library, if the module exists in the target Python
   version (typeshed's VERSIONS file) -- before the source roots, as a
   stray `enum.py` must not replace the stdlib for typeshed's own imports;
3. the source roots of the files being checked;
4. stub-only packages `foo-stubs` in any site-packages directory;
5. installed packages: typed ones (`py.typed`) are used;
6. the stubs mypy bundles besides the stdlib (`mypy_extensions`, in
   `bundled_stubs/`), whether or not the package is installed;
7. else an untyped installed package gives `import-untyped`.

In each directory `foo.pyi` wins over `foo.py`, and a package over a module
of the same name (as Python's own import system does for packages vs.
modules: the package directory is found first). A directory without
`__init__` is a PEP 420 namespace portion; it is used only when no regular
module or package of that name exists anywhere, and its portions from all
roots are merged. Submodules are searched only in the directories of their
parent package, so a regular package in one root hides same-named
directories in the others, as at run time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from veritype.modules import typeshed
from veritype.modules.environment import Environment, environment_for
from veritype.modules.stub_hints import install_hint, stub_key
from veritype.options import Options

IMPORT_NOT_FOUND = "import-not-found"
IMPORT_UNTYPED = "import-untyped"


@dataclass(frozen=True)
class FoundModule:
    """A module found: its file, whether a stub, and where it was found."""
    name: str
    path: str  # the .py/.pyi file; for a namespace package, its (first) directory
    is_stub: bool
    origin: str  # "source" | "stdlib" | "site" | "stub-package" | "bundled"
    is_package: bool = False
    is_namespace: bool = False
    # A namespace package's directories, in search order (path is the first).
    portions: tuple[str, ...] = ()


@dataclass(frozen=True)
class MissingModule:
    """A module not found, with the error code and message to report."""
    name: str
    code: str  # "import-not-found" | "import-untyped"
    message: str
    notes: tuple[str, ...] = ()
    # mypy's rule: `ignore_missing_imports` is looked up for the *imported*
    # module (`[mypy-yaml.*]`); this is that lookup, global flag included.
    ignored: bool = False


def typeshed_stdlib_dir() -> str:
    return typeshed.stdlib_dir()


@dataclass(frozen=True)
class _Dir:
    """A directory in which submodule names are searched, and what it is."""

    path: str
    origin: str  # as FoundModule.origin
    # For site-packages directories: does a typed marker cover this directory?
    typed: bool = True
    # A partial stub package (`partial` in its py.typed): misses fall through.
    partial: bool = False


@dataclass
class _Untyped:
    """Marker: installed, but without types."""

    path: str


@dataclass
class _Search:
    """What a search of a list of directories found."""

    regular: FoundModule | None = None
    regular_dirs: list[_Dir] = field(default_factory=list)
    namespace: list[_Dir] = field(default_factory=list)
    untyped: _Untyped | None = None


class ModuleFinder:
    def __init__(self, options: Options, source_roots: list[str]) -> None:
        self.options = options
        self.source_roots = [os.path.abspath(r) for r in dict.fromkeys(source_roots)]
        self.stdlib = typeshed.stdlib_dir()
        self._cache: dict[str, FoundModule | MissingModule] = {}
        # Directories to search for submodules of each found package.
        self._subdirs: dict[str, list[_Dir]] = {}
        self._listings: dict[str, frozenset[str]] = {}
        self._env: Environment | None = None
        self._stub_roots: list[str] | None = None

    # -- public -----------------------------------------------------------

    def find(self, name: str) -> FoundModule | MissingModule:
        hit = self._cache.get(name)
        if hit is None:
            hit = self._find(name)
            self._cache[name] = hit
        return hit

    def forget_files(self) -> None:
        """Files of the user's may have appeared or vanished (a long-lived
        engine's edit): find modules afresh, re-reading the user's directories."""
        self._cache.clear()
        self._subdirs.clear()
        roots = tuple(r.rstrip(os.sep) + os.sep for r in self.user_roots())
        self._listings = {d: n for d, n in self._listings.items() if not (d.rstrip(os.sep) + os.sep).startswith(roots)}

    def stub_roots(self) -> list[str]:
        """MYPYPATH, then mypy_path (absolute, deduplicated): searched before everything."""
        if self._stub_roots is None:
            env = [p for p in os.environ.get("MYPYPATH", "").split(os.pathsep) if p]
            roots = env + list(self.options.mypy_path)
            self._stub_roots = [os.path.abspath(r) for r in dict.fromkeys(roots)]
        return self._stub_roots

    def user_roots(self) -> list[str]:
        """MYPYPATH, then mypy_path, then the source roots (absolute, deduplicated)."""
        return list(dict.fromkeys(self.stub_roots() + self.source_roots))

    @property
    def environment(self) -> Environment:
        if self._env is None:
            self._env = environment_for(self.options)
        return self._env

    # -- search -----------------------------------------------------------

    def _listing(self, directory: str) -> frozenset[str]:
        # One listdir per directory, and exact-case matches on case-insensitive file systems.
        names = self._listings.get(directory)
        if names is None:
            try:
                names = frozenset(os.listdir(directory))
            except OSError:
                names = frozenset()
            self._listings[directory] = names
        return names

    def _find(self, name: str) -> FoundModule | MissingModule:
        parts = name.split(".")
        if not all(part.isidentifier() for part in parts):
            return self._not_found(name)
        if len(parts) == 1:
            return self._find_top(name)
        parent_name = ".".join(parts[:-1])
        parent = self.find(parent_name)
        if isinstance(parent, MissingModule):
            if parent.code == IMPORT_UNTYPED and parent.message.startswith("Skipping"):
                return self._untyped(name)
            return self._not_found(name)
        dirs = self._subdirs.get(parent_name)
        if not dirs:
            return self._not_found(name)  # the parent is a plain module
        search = self._search(dirs, parts[-1], name)
        return self._result(name, search)

    def _find_top(self, name: str) -> FoundModule | MissingModule:
        dirs = [_Dir(root, "source") for root in self.stub_roots()]
        if typeshed.in_stdlib(name, self.options.python_version):
            # Before the source roots: a stray `enum.py` beside the checked files
            # must not replace the stdlib for typeshed's own imports. (Checked
            # files that shadow the stdlib are refused by source discovery.)
            dirs.append(_Dir(self.stdlib, "stdlib"))
        dirs += [_Dir(root, "source") for root in self.source_roots if root not in self.stub_roots()]
        search = self._search(dirs, name, name)
        if search.regular is not None:
            return search.regular
        namespace = list(search.namespace)
        site = self.environment.site_dirs
        # PEP 561: stub-only packages in any site directory come before inline packages.
        for site_dir in site:
            stub_dir = os.path.join(site_dir, name + "-stubs")
            if name + "-stubs" not in self._listing(site_dir):
                continue
            entries = self._listing(stub_dir)
            partial = "py.typed" in entries and _is_partial(os.path.join(stub_dir, "py.typed"))
            if "__init__.pyi" not in entries:
                # Stubs for a namespace package (types-protobuf's `google-stubs/protobuf`).
                if entries:
                    namespace.append(_Dir(stub_dir, "stub-package", partial=partial))
                continue
            subdirs = [_Dir(stub_dir, "stub-package", partial=partial)]
            if partial:
                # What a partial stub package lacks comes from the runtime package.
                runtime = self._runtime_package_dir(name)
                if runtime is not None:
                    subdirs.append(runtime)
            self._subdirs[name] = subdirs
            return FoundModule(name, os.path.join(stub_dir, "__init__.pyi"), True, "stub-package", is_package=True)
        site_dirs = [_Dir(d, "site", typed=False) for d in site]
        editable = self.environment.editable.get(name)
        if editable is not None and os.path.basename(editable) == name and os.path.isdir(editable):
            site_dirs.insert(0, _Dir(os.path.dirname(editable), "site", typed=False))
        more = self._search(site_dirs, name, name)
        if more.regular is not None:
            return more.regular
        bundled = self._search([_Dir(typeshed.bundled_stubs_dir(), "bundled")], name, name)
        if bundled.regular is not None:
            # After the typed packages and stub packages of the environment,
            # before an untyped install: where mypy's bundled typeshed stands.
            return bundled.regular
        more.namespace = namespace + more.namespace
        return self._result(name, more)

    def _runtime_package_dir(self, name: str) -> _Dir | None:
        for site_dir in self.environment.site_dirs:
            pkg_dir = os.path.join(site_dir, name)
            entries = self._listing(pkg_dir)
            if _pick(entries, "__init__") is not None:
                return _Dir(pkg_dir, "site", typed="py.typed" in entries)
        return None

    def _search(self, dirs: list[_Dir], leaf: str, name: str) -> _Search:
        """Look for `leaf` in each directory; the first regular module or package wins."""
        result = _Search()
        for d in dirs:
            if d.origin == "stdlib" and not typeshed.in_stdlib(name, self.options.python_version):
                continue
            entries = self._listing(d.path)
            if leaf in entries:
                pkg_dir = os.path.join(d.path, leaf)
                pkg_entries = self._listing(pkg_dir)
                typed = d.typed or "py.typed" in pkg_entries
                init = _pick(pkg_entries, "__init__", stubs_only=d.origin == "stdlib")
                if init is not None:
                    if d.origin == "site" and not typed and not init.endswith(".pyi"):
                        result.untyped = result.untyped or _Untyped(pkg_dir)
                        break
                    path = os.path.join(pkg_dir, init)
                    result.regular = FoundModule(name, path, init.endswith(".pyi"), d.origin, is_package=True)
                    self._subdirs[name] = [_Dir(pkg_dir, d.origin, typed=typed)]
                    return result
                if pkg_entries and d.origin != "stdlib" and self.options.namespace_packages:
                    # --no-namespace-packages: a directory without __init__ is no package (mypy).
                    result.namespace.append(_Dir(pkg_dir, d.origin, typed=typed))
            module = _pick(entries, leaf, stubs_only=d.origin == "stdlib")
            if module is not None:
                if d.origin == "site" and not d.typed and not module.endswith(".pyi"):
                    # A single-file distribution cannot carry py.typed (PEP 561).
                    result.untyped = result.untyped or _Untyped(os.path.join(d.path, module))
                    break
                path = os.path.join(d.path, module)
                result.regular = FoundModule(name, path, module.endswith(".pyi"), d.origin)
                return result
        return result

    def _result(self, name: str, search: _Search) -> FoundModule | MissingModule:
        if search.regular is not None:
            return search.regular
        if search.untyped is not None and not search.namespace:
            return self._untyped(name)
        if search.namespace:
            first = search.namespace[0]
            self._subdirs[name] = search.namespace
            return FoundModule(
                name,
                first.path,
                False,
                first.origin,
                is_package=True,
                is_namespace=True,
                portions=tuple(d.path for d in search.namespace),
            )
        if search.untyped is not None:
            return self._untyped(name)
        return self._not_found(name)

    # -- misses -----------------------------------------------------------

    def _ignored(self, name: str) -> bool:
        return bool(self.options.for_module(name).ignore_missing_imports)

    def _untyped(self, name: str) -> MissingModule:
        hint = install_hint(name)
        # mypy 2.4.1: installed without `py.typed`, where typeshed has stubs for
        # the library (pygments: types-Pygments), it is the stubs that are missing.
        if hint is not None:
            message = f'Library stubs not installed for "{name}"'
        else:
            message = f'Skipping analyzing "{name}": module is installed, but missing library stubs or py.typed marker'
        return MissingModule(name, IMPORT_UNTYPED, message, (hint,) if hint else (), self._ignored(name))

    def _stubs_missing(self, name: str) -> bool:
        """typeshed has stubs for `name`'s library and that library itself was not found."""
        dist_key = stub_key(name)
        if dist_key is None:
            return False
        return dist_key == name or isinstance(self.find(dist_key), MissingModule)

    def _not_found(self, name: str) -> MissingModule:
        if self._stubs_missing(name):
            # mypy's wording and code for a library typeshed has stubs for.
            hint = install_hint(name)
            assert hint is not None
            return MissingModule(
                name, IMPORT_UNTYPED, f'Library stubs not installed for "{name}"', (hint,), self._ignored(name)
            )
        notes: list[str] = []
        note = typeshed.stdlib_availability_note(name, self.options.python_version)
        if note is not None:
            notes.append(note)
        message = f'Cannot find implementation or library stub for module named "{name}"'
        return MissingModule(name, IMPORT_NOT_FOUND, message, tuple(notes), self._ignored(name))


def _pick(entries: frozenset[str], stem: str, stubs_only: bool = False) -> str | None:
    """`stem.pyi` over `stem.py`."""
    if stem + ".pyi" in entries:
        return stem + ".pyi"
    if not stubs_only and stem + ".py" in entries:
        return stem + ".py"
    return None


def _is_partial(py_typed: str) -> bool:
    try:
        with open(py_typed, encoding="utf-8", errors="replace") as f:
            return "partial" in f.read().split()
    except OSError:
        return False
