"""`cache`: incremental state on disk (DESIGN.md, drivers; principle 6).

A checked module's diagnostics are stored with a fingerprint, and the next
run reuses them, without checking the module, only if the fingerprint still
matches. The fingerprint covers:

- the module's own source (bytes on disk, or the unsaved text given);
- veritype itself (its version and a digest of its own code files, so a
  development checkout never reuses results of older code);
- the options that affect checking, per-module overrides included, and the
  target Python version and platform;
- every module the check may have depended on: the static import closure of
  the module over the modules this run loaded (with the loaded submodules of
  any package bound by `import pkg`, which `pkg.sub.x` reaches without an
  import of its own), each recorded as where it resolves now and a digest
  of its *interface* (interface.py: module- and class-level statements in
  full, function signatures and decorators, from function bodies only the
  yield/await/placeholder flags, except that a method storing `self.x`
  keeps its whole body, which the method walker reads; no docstrings, no
  comments but `# type:` annotations); one that no check of the run loaded
  (an import on a branch the target never runs, a library's submodule that
  nothing used) only by where it resolves: its contents decided nothing
  (closures.UNLOADED). typeshed's stdlib is keyed by the
  bundled typeshed_client version; a module that could not be found is
  "missing", so that creating it invalidates its importers.

So an edit inside a function body (or to a docstring or comment) of a
dependency re-checks that module only; its importers are reused.

Honest limit: the interface is a digest of *source text*, not of evaluated
types, and it is compared over the whole import closure. An edit that does
change a dependency's interface (a signature, a module-level assignment, a
class body, a `self.x =` method, a `yield` added) re-checks every module
that imports it directly or not, even where the types the importers read
came out the same: there is no "interface unchanged after re-checking"
cut-off at the next module yet. Editing a method that assigns `self.x`
counts as an interface change even when only other lines of it changed.

The entries live in one SQLite database written in one transaction per run
(database.py), or with `--no-sqlite-cache` in one file each, replaced
atomically (store.py); an unreadable, corrupt or foreign cache entry, or
database, is treated as absent: the cache can never make a run fail, only
make it faster.

The shared stub cache (shared.py) is the per-user counterpart for files the
project does not own: the installed files' interface digests, addressed by
content so that every project's first run reuses them.
"""

from veritype.cache.incremental import check_incrementally
from veritype.cache.store import CacheStore

__all__ = ["CacheStore", "check_incrementally"]
