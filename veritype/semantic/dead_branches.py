"""Dropping the statically dead branches of a stdlib stub once it is bound.

typeshed writes one stub for every Python version and platform: `if
sys.version_info >= (3, 12):` / `if sys.platform == "win32":` blocks, whose
dead side the binder never binds (Binder.static_branch) and nothing else of a
run reads: a stdlib stub is never checked, and whatever walks its class
bodies again asks the same question of the same test node and skips the same
side. Yet they stay in the tree: a fifth of the nodes of the stdlib stubs a
run loads (39k of 201k on the bench corpus, builtins 2.4k of 19.1k, ast 6.7k
of 15.5k), ~280 bytes each. For a one-shot check (engine/build.py, as it
releases function bodies: engine/release.py) the program drops them as it
loads each stub: the dead side becomes an empty list, the `if` and its test
stay.

Only typeshed's stdlib: the incremental cache keys those by path (covered by
typeshed's version), while another library's stub is keyed by an interface
digest computed from its tree (cache/interface.py), which must not depend on
whether the run dropped anything (the shared cache serves every kind of run).
Only when no `always_true`/`always_false` names apply to the module: the
binder's answer then depends on settings that other readers of class bodies
(evaluate/dataclasses.py) do not pass, and the stub is kept whole.
"""

from __future__ import annotations

import ast

from veritype.semantic.binder import Binder
from veritype.syntax.shapes import elif_branch


def drop_dead_branches(tree: ast.Module, binder: Binder) -> None:
    """Empty the dead sides of the static `if`s of `tree` (module level and
    class bodies, as the binder walks them), by `binder`'s answers."""
    if binder.always is not None:
        return
    _block(tree.body, binder)


def _block(body: list[ast.stmt], binder: Binder) -> None:
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            _block(stmt.body, binder)
        elif isinstance(stmt, ast.If):
            # An elif chain walked as a loop, as the binder walks it (no stack).
            branch_if = stmt
            while True:
                branch = binder.static_branch(branch_if.test)
                if branch is False:
                    branch_if.body = []
                else:
                    _block(branch_if.body, binder)
                if branch is True:
                    branch_if.orelse = []
                    break
                nxt = elif_branch(branch_if)
                if nxt is None:
                    _block(branch_if.orelse, binder)
                    break
                branch_if = nxt
