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
  import of its own), each recorded as where it
  resolves now and a digest of its source (typeshed's stdlib by the bundled
  typeshed_client version; a module that could not be found as "missing", so
  that creating it invalidates its importers).

Honest limit: dependencies are fingerprinted over their *whole source*, not
yet over their *interfaces* (principle 6's interface hashing is a later
step). So an edit to a leaf, even inside a function body, re-checks the leaf
and every module that imports it, directly or not. Nothing else is re-checked.

Writes are atomic (a temporary file, then `os.replace`), and an unreadable,
corrupt or foreign cache entry is treated as absent: the cache can never make
a run fail, only make it faster.
"""

from veritype.cache.incremental import check_incrementally
from veritype.cache.store import CacheStore

__all__ = ["CacheStore", "check_incrementally"]
