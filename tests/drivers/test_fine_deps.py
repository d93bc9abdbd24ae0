"""Fine-grained re-checking (engine/fine_deps.py, engine/workspace.py): after
each edit of a sequence, the engine that `watch` and the daemon share reports
exactly what a full run of `veritype check` reports, and re-checks only the
modules that use a name the edit changed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from veritype.cli.daemon import Engine
from veritype.cli.main import run

FILES = {
    "base.py": (
        "class Thing:\n"
        "    def size(self) -> int:\n"
        "        return 1\n"
        "\n"
        "def make() -> Thing:\n"
        "    return Thing()\n"
        "\n"
        "def helper(x: int) -> int:\n"
        "    return x\n"
    ),
    # Sees base.Thing only through make()'s return type.
    "mid.py": "from base import make, Thing\n\ndef build() -> Thing:\n    return make()\n",
    "user.py": "from mid import build\n\nn: int = build().size()\n",
    "other.py": "import base\n\nv: int = base.helper(1)\nw: int = base.added()\n",
    "star.py": "from base import *\n\nk: int = helper(2)\n",
    "lonely.py": "import extra\n\nz: int = extra.value\n",
    "extra.py": "value = 1\n",
    "quiet.py": "import base\n\nq = 1\n",
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _full(project: Path) -> str:
    out = io.StringIO()
    run(["check", ".", "--no-incremental"], out, str(project))
    return out.getvalue()


def test_edits_recheck_what_they_change_and_agree_with_a_full_run(
    project: Path, monkeypatch: pytest.MonkeyPatch, checked_by_engine: list[str]
) -> None:
    checked = checked_by_engine
    import veritype.engine.body_edits as body_edits

    real_recheck = body_edits.recheck

    def recheck(program, loaded, *args):  # type: ignore[no-untyped-def]
        checked.append(f"{loaded.name} (body)")
        return real_recheck(program, loaded, *args)

    monkeypatch.setattr(body_edits, "recheck", recheck)
    import veritype.engine.toplevel_edits as toplevel_edits

    real_top = toplevel_edits.recheck

    def top(program, loaded, *args):  # type: ignore[no-untyped-def]
        out = real_top(program, loaded, *args)
        checked.append(f"{loaded.name} (top)" if out is not None else f"{loaded.name} (top refused)")
        return out

    monkeypatch.setattr(toplevel_edits, "recheck", top)
    engine = Engine()

    def step() -> str:
        checked.clear()
        reply = engine.check(["check", ".", "--no-incremental"], str(project))
        assert reply["stderr"] == ""
        got = checked[:]
        full = _full(project)
        assert reply["stdout"] == full
        checked[:] = got
        return full

    first = step()
    assert 'Module has no attribute "added"' in first
    assert sorted(checked) == sorted(n[:-3] for n in FILES)

    # 1. A body edit: only that body of base is checked again (the new error is its own).
    base = project / "base.py"
    base.write_text(base.read_text().replace("    return x\n", '    return "x"\n'))
    out = step()
    assert 'Incompatible return value type (got "str", expected "int")' in out
    assert checked == ["base (body)"]

    # 2. A signature edit: base.Thing changed, so mid.build changed (its
    # return type names Thing), so user (which calls build().size()) is
    # checked again, and reports it; star imports all of base's names.
    base.write_text(base.read_text().replace("def size(self) -> int:\n        return 1", 'def size(self) -> str:\n        return ""'))
    out = step()
    assert "user.py:3:10: error: Incompatible types in assignment" in out
    assert sorted(checked) == ["base", "mid", "star", "user"]

    # 3. A function added: only the modules that use that name (other asked
    # for it before it existed) or all of base's names (star); in base,
    # only the new function (engine.toplevel_edits).
    base.write_text(base.read_text() + "\ndef added() -> int:\n    return 1\n")
    out = step()
    assert "added" not in out
    assert sorted(checked) == ["base (top)", "other", "star"]

    # 4. A module deleted: its importers are checked again.
    (project / "extra.py").unlink()
    out = step()
    assert 'lonely.py:1:1: error: Cannot find implementation or library stub for module named "extra"' in out
    assert checked == ["lonely"]

    # 5. ... and created again, with another type.
    (project / "extra.py").write_text('value = "s"\n')
    out = step()
    assert "lonely.py:3:10: error: Incompatible types in assignment" in out
    assert sorted(checked) == ["extra", "lonely"]

    # 6. Nothing changed: nothing is checked.
    step()
    assert checked == []


def test_a_module_read_from_disk_is_watched_too(project: Path) -> None:
    """A module the run imports but does not name (not a document of the
    engine) that changes on disk is an edit like any other."""
    (project / "app.py").write_text("from lib import f\n\nx: int = f()\n")
    (project / "lib.py").write_text("def f() -> int:\n    return 1\n")
    engine = Engine()

    def step() -> str:
        reply = engine.check(["check", "app.py", "--no-incremental"], str(project))
        out = io.StringIO()
        run(["check", "app.py", "--no-incremental"], out, str(project))
        assert reply["stdout"] == out.getvalue()
        return out.getvalue()

    assert "Success" in step()
    (project / "lib.py").write_text("def f() -> str:\n    return ''\n")
    assert "app.py:3:10: error: Incompatible types in assignment" in step()
    (project / "lib.py").unlink()
    assert 'Cannot find implementation or library stub for module named "lib"' in step()


TOP = (
    "from typing import Callable\n"
    "\n"
    "def first() -> int:\n"
    "    return 'a'\n"
    "\n"
    "class Box:\n"
    "    def get(self) -> int:\n"
    "        return 1\n"
    "\n"
    "def use(b: Box) -> str:\n"
    "    return b.get()\n"
    "\n"
    "x: int = later()\n"
)


def test_top_level_definitions_edited_check_only_themselves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked_by_engine: list[str]
) -> None:
    """An edit of whole top-level definitions that nothing else in the module
    mentions checks only those definitions; the other statements keep their
    diagnostics (moved by the lines added). Anything else checks the module
    whole. Each step agrees with a full run."""
    (tmp_path / ".git").mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "novenv"))
    monkeypatch.chdir(tmp_path)
    mod = tmp_path / "mod.py"
    mod.write_text(TOP)
    checked = checked_by_engine
    import veritype.engine.toplevel_edits as toplevel_edits

    real_top = toplevel_edits.recheck

    def top(program, loaded, *args):  # type: ignore[no-untyped-def]
        out = real_top(program, loaded, *args)
        checked.append("top" if out is not None else "top refused")
        return out

    monkeypatch.setattr(toplevel_edits, "recheck", top)
    engine = Engine()

    def step(text: str) -> str:
        mod.write_text(text)
        checked.clear()
        reply = engine.check(["check", ".", "--no-incremental"], str(tmp_path))
        assert reply["stderr"] == ""
        got = checked[:]
        assert reply["stdout"] == _full(tmp_path)
        checked[:] = got
        return reply["stdout"]

    out = step(TOP)
    assert out.count("error:") == 3  # first's return, use's return, `later` undefined
    # A new function in the middle, with an error of its own: the errors after it move down.
    text = TOP.replace("class Box:", "def added(n: int) -> str:\n    return n\n\nclass Box:")
    out = step(text)
    assert checked == ["top"]
    assert "mod.py:7:12: error: Incompatible return value type" in out and "mod.py:16:" in out
    # Two more at the end, one redefining the other.
    text += "\ndef twice() -> None:\n    pass\n\ndef twice() -> None:\n    pass\n"
    out = step(text)
    assert checked == ["top"]
    assert 'Name "twice" already defined' in out
    # A definition whose name the module mentions elsewhere: checked whole.
    out = step(text + "\ndef later() -> int:\n    return 1\n")
    assert checked == ["mod"]
    assert '"later" is used before definition' in out
    # A class rewritten that another definition uses: checked whole.
    out = step(text.replace("    def get(self) -> int:\n        return 1", "    def get(self) -> str:\n        return ''"))
    assert checked == ["mod"]
    assert "mod.py:14:" not in out
    # A statement that is not a definition: checked whole.
    step(text + "\ny = 1\n")
    assert checked == ["mod"]
