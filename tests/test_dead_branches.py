"""semantic/dead_branches.py: a library stub's statically dead branches go
once it is bound (one-shot runs), the live ones and undecided ones stay."""

from __future__ import annotations

import ast
from pathlib import Path

from veritype.semantic.binder import Binder
from veritype.semantic.dead_branches import drop_dead_branches

STUB = '''
import sys
if sys.version_info >= (3, 12):
    def new() -> int: ...
elif sys.version_info >= (3, 11):
    def middle() -> int: ...
else:
    def old() -> int: ...
class C:
    if sys.platform == "win32":
        def windows(self) -> None: ...
    else:
        def posix(self) -> None: ...
    if FLAG:
        def maybe(self) -> None: ...
    else:
        def maybe_not(self) -> None: ...
'''


def _defs(tree: ast.Module) -> set[str]:
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def _binder(always: tuple[frozenset[str], frozenset[str]] | None = None) -> Binder:
    return Binder("m", False, (3, 11), "linux", True, always=always)


def test_dead_sides_go_and_the_rest_stays() -> None:
    tree = ast.parse(STUB)
    binder = _binder()
    symbols = binder.bind_module(tree)
    drop_dead_branches(tree, binder)
    assert _defs(tree) == {"middle", "posix", "maybe", "maybe_not"}
    # What the binder bound is what stays: the class body binds the same.
    assert "middle" in symbols and "new" not in symbols and "old" not in symbols
    cls = tree.body[2]
    assert isinstance(cls, ast.ClassDef)
    assert set(binder.bind_class(cls)) == {"posix", "maybe", "maybe_not"}


def test_a_stub_under_always_true_names_is_kept_whole() -> None:
    tree = ast.parse(STUB)
    binder = _binder((frozenset({"FLAG"}), frozenset()))
    binder.bind_module(tree)
    drop_dead_branches(tree, binder)
    assert _defs(tree) == {"new", "middle", "old", "windows", "posix", "maybe", "maybe_not"}


def _dead_nodes(tree: ast.Module, binder: Binder) -> int:
    """Statements on a dead side of a module-level `if` of `tree`."""
    return sum(len(s.body) if binder.static_branch(s.test) is False else len(s.orelse) if binder.static_branch(s.test) else 0
               for s in tree.body if isinstance(s, ast.If))


def test_a_one_shot_run_drops_them_from_stdlib_stubs_only(tmp_path: Path) -> None:
    from veritype.cli.flags import options_from_argv
    from veritype.engine.build import run
    from veritype.modules.sources import BuildSource

    (tmp_path / "app.py").write_text("import sys, os\nif sys.platform == 'win32':\n    x = 1\nreveal_type(os.sep)\n")
    (tmp_path / "lib.pyi").write_text("import sys\nif sys.platform == 'win32':\n    y: int\n")
    srcs = [BuildSource(str(tmp_path / "app.py"), "app", str(tmp_path)), BuildSource(str(tmp_path / "lib.pyi"), "lib", str(tmp_path))]
    dead = {}
    for release in (False, True):
        program = run(srcs, options_from_argv(["--no-incremental"], str(tmp_path)), release_bodies=release).program
        assert program is not None
        dead[release] = {name: _dead_nodes(info.tree, program.binder_for(info))
                         for name in ("os", "app", "lib") if (info := program.modules[name]) is not None and info.tree is not None}
    assert dead[False]["os"] > 0 and dead[True]["os"] == 0
    assert dead[False]["app"] == dead[True]["app"] == 1  # the run's own files are whole
    assert dead[False]["lib"] == dead[True]["lib"] == 1  # (any stub but stdlib's: see the module)
