"""Digests for the incremental cache: sources, options, veritype, dependencies.

Every function here is pure over its inputs (and the file system); none
raises on an unreadable file: a file that cannot be read digests to a marker
that never equals a real digest, so the entry simply does not match.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import json
import os
from bisect import bisect_left
from collections.abc import Iterator
from typing import TYPE_CHECKING

from veritype import __version__
from veritype.options import Options
from veritype.syntax.statements import SIMPLE_STATEMENTS
from veritype.syntax.word_lines import DECORATED, span_start

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo

UNREADABLE = "unreadable"
MISSING = "missing"

# Options that change only how results are printed or what is checked at the
# top level, never a module's diagnostics: left out of the options key.
_OUTPUT_ONLY = frozenset(
    {"files", "exclude", "config_file", "show_column_numbers", "show_error_codes",
     "error_summary", "output", "color", "verbose", "cache_dir", "incremental",
     "modules", "packages", "show_error_end", "show_error_context", "show_error_code_links",
     "show_absolute_path", "pretty", "many_errors_threshold", "junit_xml", "junit_format",
     "not_enforced", "inline", "install_types", "non_interactive",
     "num_workers",
     "shared_cache", "shared_cache_dir", "sqlite_cache"}  # a cache of parses: the same trees either way  # workers report what a serial run reports (engine/workers.py)
)


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digest_text(text: str) -> str:
    return digest_bytes(text.encode("utf-8", "surrogatepass"))


def options_key(options: Options) -> str:
    """A digest of every option that may change a module's diagnostics.

    Per-module overrides are part of `options.overrides`, so any change to
    them invalidates every module: coarse, but never wrong.
    """
    fields = {
        f.name: getattr(options, f.name)
        for f in dataclasses.fields(options)
        # Not init: state kept while checking (Options._by_module), no setting.
        if f.init and f.name not in _OUTPUT_ONLY
    }
    text = json.dumps(fields, sort_keys=True, default=_jsonable)
    return digest_text(text)


def _jsonable(value: object) -> object:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return repr(value)


@functools.cache
def typeshed_key() -> str:
    """typeshed's stdlib stubs change only with the typeshed_client package:
    its version (the name of its `.dist-info` directory beside it, read
    without importlib.metadata, whose import and search of sys.path were a
    twentieth of a warm run), its place, and the stat of its VERSIONS file
    (a reinstall of the same version in place)."""
    from veritype.modules import typeshed

    package = typeshed.package_dir()
    site = os.path.dirname(package)
    try:
        infos = sorted(n for n in os.listdir(site) if n.startswith("typeshed_client-") and n.endswith(".dist-info"))
    except OSError:
        infos = []
    try:
        st = os.stat(os.path.join(typeshed.stdlib_dir(), "VERSIONS"))
        versions = f"{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        versions = UNREADABLE
    return f"typeshed_client {'|'.join(infos) or 'unknown'} at {typeshed.stdlib_dir()} VERSIONS {versions}"


@functools.cache
def veritype_key() -> str:
    """veritype's version plus (path, size, mtime) of its own code files.

    The version alone is not enough while veritype is developed: the version
    string stays the same while the rules change.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [__version__]
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        # The path relative to root, as os.path.relpath gives it: os.walk joins
        # each name to root (already absolute and normal), so cutting root off
        # is the same string, without relpath's two abspaths per file.
        rel_dir = dirpath[len(root) + 1:]
        for name in sorted(filenames):
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                parts.append(f"{os.path.join(rel_dir, name)}:{st.st_size}:{st.st_mtime_ns}")
    return digest_text("\n".join(parts))


def loaded_static_imports(info: "ModuleInfo") -> tuple[set[str], set[str]] | None:
    """`static_imports` of a loaded module, read from its own parse (only the
    statements on the lines naming `import`); None where it has no tree (a
    namespace package)."""
    if info.tree is None:
        return None
    lines = info.parsed.word_lines("import") if info.parsed is not None else None
    return static_imports(info.tree, info.name, info.is_package, lines)


def static_imports(tree: ast.Module, module: str, is_package: bool, lines: list[int] | None = None) -> tuple[set[str], set[str]]:
    """(every module name `tree` may import, the module names it binds).

    Conservative: `import a.b.c` gives a, a.b and a.b.c; `from p import x`
    gives p and the candidate submodule p.x (if it does not exist it is
    recorded as missing, so creating it later re-checks the importer).
    Imports anywhere in the file count, inside functions and
    `if TYPE_CHECKING:` blocks too; relative imports are resolved.

    The second set names the modules bound as values (`import a.b` binds
    `a`; `from p import x` may bind the module p.x): attribute access on them
    can reach submodules no import names (`pkg.sub.x` after `import pkg`),
    so the caller counts their loaded submodules as dependencies too.

    `lines`: those of the source holding the word `import` (None: not known);
    a statement whose lines hold none holds no import (syntax/word_lines.py).
    """
    names: set[str] = set()
    bound: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    # `names` holds the prefixes of each of its names (an added `p.x` has p's):
    # a name in it needs its prefixes added no more (a module importing
    # from one place many times).
    for node in _statements(tree.body) if lines is None else _import_statements(tree.body, lines):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in names:
                    names.update(_prefixes(alias.name))
                bound.add(alias.name if alias.asname else alias.name.partition(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_from(node, package)
            if base is None:
                continue
            if base and base not in names:
                names.update(_prefixes(base))
            for alias in node.names:
                if alias.name == "*":
                    bound.add(base)
                else:
                    sub = f"{base}.{alias.name}" if base else alias.name
                    names.add(sub)
                    bound.add(sub)
    return names, bound


def _import_statements(body: list[ast.stmt], lines: list[int]) -> Iterator[ast.stmt]:
    """The import statements of `body`, nested ones too, among the statements
    whose lines hold one of the sorted `lines` (those of the word `import`),
    in no particular order.

    Each block (a body, an `else:`, a handler's or a case's body) is read in
    step with `lines`: the statements of a block follow each other, so the
    first line at or after a statement's start is found from the previous
    one's, the statement holds a line if that one is not past its end, and
    once no line is left the rest of the block holds none (most modules
    import at the top: their other top-level statements are not looked at).
    A statement with no end (a body released by engine/release.py) is no
    import and holds none."""
    count = len(lines)
    decorated = DECORATED
    simple = SIMPLE_STATEMENTS
    blocks: list[list[ast.stmt]] = [body]
    while blocks:
        block = blocks.pop()
        at = 0
        for stmt in block:
            kind = type(stmt)
            at = bisect_left(lines, stmt.lineno if kind not in decorated else span_start(stmt), at)
            if at == count:
                break  # no line at or after this statement: none in the rest of the block
            end = stmt.end_lineno
            if end is None or lines[at] > end:
                continue
            if kind is ast.Import or kind is ast.ImportFrom:
                yield stmt
            elif kind not in simple:
                for name in ("body", "orelse", "finalbody"):
                    child = getattr(stmt, name, None)
                    if child and isinstance(child, list):
                        blocks.append(child)
                for holder in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                    blocks.append(holder.body)


def _statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every statement, nested ones too (and the except handlers and match
    cases holding them); expressions are not entered (an import is always a
    statement, and most of a tree is expressions)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if type(node) in SIMPLE_STATEMENTS:
            continue  # (no block under it)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            child = getattr(node, name, None)
            if isinstance(child, list):
                stack.extend(c for c in child if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)))


def _prefixes(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


def _resolve_from(node: ast.ImportFrom, package: str) -> str | None:
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    up = node.level - 1
    if up > len(parts):
        return None  # beyond the top-level package: the checker reports it
    base_parts = parts[: len(parts) - up] if up else parts
    if node.module:
        base_parts = base_parts + node.module.split(".")
    return ".".join(base_parts)
