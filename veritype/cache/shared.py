"""The shared stub cache: library modules parsed once per user, not per project.

The project cache (store.py) keeps a project's own results. What a cold run
of a new project spends on code it does not own is the same in every
project: parsing typeshed's stdlib stubs and the installed packages' files
the program reaches, and (for the project cache's dependency records) the
interface digest of every installed file in the import closure (a parse and
a pure-Python tokenize each; on trio's cold run 1.5 s of 7.9 s). This cache
keeps both, for files that are not the project's own (stdlib, bundled,
site-packages and stub-package modules), in one directory per user:

    <shared dir>/stubs-v1/trees/<host Python>/<d[:2]>/<d>.ast
        the parsed file: its text and `ast.Module`, for the file whose
        bytes have the sha256 digest d, parsed by this host Python (the
        tree's shape belongs to the interpreter veritype runs on);
    <shared dir>/stubs-v1/ifaces/<veritype key>/<d[:2]>/<d>
        cache/interface.py's digest of that file, per veritype build, and
        a checksum of the two.

Entries are addressed by content, so one directory serves every project,
typeshed version, target Python version, platform and environment at once:
a stub that changed (a new typeshed_client, another version of a package)
has another digest, and what it depends on (the target version's
`sys.version_info` branches, the environment's other files) is not in the
entry: binding and evaluation happen afresh in each run. Only a file that
parsed without a diagnostic is kept, so syntax error messages always come
from the parser of this run.

Where: `--shared-cache-dir DIR`, else `$VERITYPE_SHARED_CACHE_DIR`, else
`$XDG_CACHE_HOME/veritype`, else `~/.cache/veritype` (config/project.py);
`--no-shared-cache` (or `--cache-dir /dev/null`, mypy's "no cache") turns
it off. It is not under `--cache-dir`: that directory is per project, and
sharing is the point.

Safety: entries are written to a temporary file and renamed into place
(`os.replace`), so concurrent runs each see a whole entry or none. A tree
entry starts with a digest of its payload and is read by an unpickler that
can only build `ast` nodes and plain constants (never a call of anything
else), so a damaged or planted file can make a miss, never run code. A bad
entry is parsed again and rewritten, and `--verbose` says so. Nothing here
raises: the cache can only make a run faster.
"""

from __future__ import annotations

import ast
import hashlib
import io
import os
import pickle
import re
import sys
import tempfile
import tokenize

from veritype.syntax.parse import ParsedFile, parse_file, parse_source

FORMAT = "stubs-v1"
_MAGIC = b"veritype-ast-1\n"
# The interpreter whose `ast` made a tree: node classes and fields change
# between Python versions (and could between patch releases).
HOST = f"{sys.implementation.name}-{'.'.join(map(str, sys.version_info[:3]))}"
_IFACE = re.compile(r"(iface|full):[0-9a-f]{64}")
_TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# This directory is veritype's shared stub cache.\n"
# The only globals a tree's pickle names besides `ast` classes: `...` and
# complex literals.
_BUILTINS = {"Ellipsis": Ellipsis, "complex": complex}


class _TreeUnpickler(pickle.Unpickler):
    """Builds `ast` nodes and constants only: any other global is refused."""

    def find_class(self, module: str, name: str) -> object:
        if module in ("ast", "_ast"):
            cls = getattr(ast, name, None)
            if isinstance(cls, type) and issubclass(cls, ast.AST):
                return cls
        elif module == "builtins" and name in _BUILTINS:
            return _BUILTINS[name]
        raise pickle.UnpicklingError(f"not an ast entry: {module}.{name}")


class SharedCache:
    """One run's view of the shared stub cache, with counts for --verbose."""

    def __init__(self, directory: str, veritype_key: str) -> None:
        self.directory = directory
        self.root = os.path.join(directory, FORMAT)
        self.trees_dir = os.path.join(self.root, "trees", HOST)
        self.ifaces_dir = os.path.join(self.root, "ifaces", hashlib.sha256(veritype_key.encode()).hexdigest()[:32])
        self.trees_reused = 0
        self.trees_stored = 0
        self.ifaces_reused = 0
        self.ifaces_stored = 0
        self.corrupt: list[str] = []  # the files whose entries were bad (parsed again, rewritten)
        self.write_errors = 0
        self._prepared = False

    # -- parsed files ------------------------------------------------------

    def parse(self, path: str) -> ParsedFile:
        """`parse_file(path)`, from the cache when these bytes were parsed before."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            return parse_file(path)  # its diagnostic, as without the cache
        digest = hashlib.sha256(data).hexdigest()
        entry = os.path.join(self.trees_dir, digest[:2], digest + ".ast")
        cached = self._load_tree(entry, path)
        if cached is not None:
            self.trees_reused += 1
            return ParsedFile(path, cached[0], cached[1])
        source = _decode(data)
        if source is None:
            return parse_file(path)
        parsed = parse_source(path, source)
        if parsed.tree is not None and not parsed.diagnostics:
            self._store_tree(entry, source, parsed.tree)
        return parsed

    def _load_tree(self, entry: str, path: str) -> tuple[str, ast.Module] | None:
        try:
            with open(entry, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        except OSError:
            self.corrupt.append(path)
            return None
        try:
            head = len(_MAGIC)
            checksum, payload = data[head:head + 64], data[head + 65:]
            if not data.startswith(_MAGIC) or checksum.decode("ascii") != hashlib.sha256(payload).hexdigest():
                raise ValueError("checksum")
            value = _TreeUnpickler(io.BytesIO(payload)).load()
            if (
                isinstance(value, tuple) and len(value) == 2
                and isinstance(value[0], str) and isinstance(value[1], ast.Module)
            ):
                return value
        except Exception:  # noqa: BLE001 - any damage at all: a miss, rebuilt below
            pass
        self.corrupt.append(path)
        return None

    def _store_tree(self, entry: str, source: str, tree: ast.Module) -> None:
        try:
            payload = pickle.dumps((source, tree), protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PicklingError, TypeError, ValueError):
            return  # an absurdly nested file: parsed again next time
        data = _MAGIC + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload
        if self._write(entry, data):
            self.trees_stored += 1

    # -- interface digests --------------------------------------------------

    def interface(self, content_digest: str) -> str | None:
        """The stored interface digest of the file with these bytes, if any."""
        entry = os.path.join(self.ifaces_dir, content_digest[:2], content_digest)
        try:
            with open(entry, encoding="ascii") as f:
                value = f.read()
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            value = ""
        digest, _, check = value.partition(" ")
        if _IFACE.fullmatch(digest) and check == _check(content_digest, digest):
            self.ifaces_reused += 1
            return digest
        self.corrupt.append(f"interface digest {content_digest[:12]}")
        return None

    def store_interface(self, content_digest: str, value: str) -> None:
        entry = os.path.join(self.ifaces_dir, content_digest[:2], content_digest)
        if self._write(entry, f"{value} {_check(content_digest, value)}".encode("ascii")):
            self.ifaces_stored += 1

    # -- files ----------------------------------------------------------------

    def _write(self, entry: str, data: bytes) -> bool:
        try:
            self._prepare()
            folder = os.path.dirname(entry)
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.replace(tmp, entry)  # atomic: a reader sees no entry or a whole one
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError:
            self.write_errors += 1  # read-only or full: this run is not the worse for it
            return False
        return True

    def _prepare(self) -> None:
        if self._prepared:
            return
        os.makedirs(self.root, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", "*\n")):
            path = os.path.join(self.directory, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
        self._prepared = True

    def summary(self) -> list[str]:
        """--verbose lines: what the run took from the shared cache and added."""
        lines = [
            f"shared stub cache {self.directory}: {self.trees_reused} parsed file(s) reused, "
            f"{self.trees_stored} stored; {self.ifaces_reused} interface digest(s) reused, {self.ifaces_stored} stored"
        ]
        if self.corrupt:
            shown = ", ".join(self.corrupt[:5]) + (", ..." if len(self.corrupt) > 5 else "")
            lines.append(f"shared stub cache: {len(self.corrupt)} entr{'y' if len(self.corrupt) == 1 else 'ies'} unreadable or corrupt, rebuilt: {shown}")
        if self.write_errors:
            lines.append(f"shared stub cache: {self.write_errors} entr{'y' if self.write_errors == 1 else 'ies'} could not be written")
        return lines


def _check(content_digest: str, value: str) -> str:
    """An interface entry's checksum: a flipped character that still looks
    like a digest is caught, as is an entry moved to another file's name."""
    return hashlib.sha256(f"{content_digest}:{value}".encode("ascii")).hexdigest()[:16]


def _decode(data: bytes) -> str | None:
    """The text `read_source` (syntax/parse.py) reads from these bytes: the
    PEP 263 encoding, universal newlines. None where it would fail (the
    uncached path then gives its diagnostic)."""
    try:
        buffer = io.BytesIO(data)
        encoding, _ = tokenize.detect_encoding(buffer.readline)
        buffer.seek(0)
        return io.TextIOWrapper(buffer, encoding, line_buffering=True).read()
    except (SyntaxError, LookupError, UnicodeDecodeError, ValueError):
        return None


__all__ = ["HOST", "SharedCache"]
