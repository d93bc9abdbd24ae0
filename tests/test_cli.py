"""The command line end to end (veritype.cli.main): flags, targets, output, exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from veritype.cli.flags import options_from_argv
from veritype.diagnostics.enabled import code_enabled
from veritype.cli.main import main


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory as cwd, with a fake active venv of its own."""
    (tmp_path / ".git").mkdir()
    venv = tmp_path / "venv"
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    site.mkdir(parents=True)
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    monkeypatch.delenv("MYPYPATH", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def site_of(project: Path) -> Path:
    return next((project / "venv" / "lib").glob("python*/site-packages"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- bad input: one line on stderr, exit 2 --------------------------------------


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["--no-such-flag", "x.py"], "unrecognized arguments: --no-such-flag"),
        (["check", "missing.py"], "can't read file 'missing.py'"),
        (["check", "emptydir"], "no .py or .pyi files found in directory 'emptydir'"),
        (["check"], "nothing to check"),
        ([], "nothing to check"),
        (["--python-version", "three", "a.py"], "--python-version"),
        (["--python-executable", "/no/such/python", "a.py"], "--python-executable"),
        (["--output", "xml", "a.py"], "invalid choice"),
        (["-m", "no_such_module_here"], "can't find module"),
        (["--config-file", "nope.toml", "a.py"], "not found"),
    ],
)
def test_bad_input(project: Path, capsys, argv: list[str], fragment: str) -> None:
    (project / "emptydir").mkdir()
    write(project, {"a.py": "x = 1\n"})
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert fragment in err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "name,text",
    [
        ("pyproject.toml", "[tool.veritype]\nfiles = [\n"),
        ("pyproject.toml", "[tool.veritype]\nwarn_unreachable = 'sure'\n"),
        ("mypy.ini", "[mypy]\nwarn_unreachable = sure\n"),
        ("mypy.ini", "garbage without a section\n"),
    ],
)
def test_broken_config(project: Path, capsys, name: str, text: str) -> None:
    write(project, {name: text, "a.py": "x = 1\n"})
    code, out, err = run(capsys, "check", "a.py")
    assert code == 2 and out == ""
    assert err.startswith("veritype: error: ") and name in err
    assert len(err.strip().splitlines()) == 1


def test_in_process_caller_gets_the_collector_back(project: Path, capsys) -> None:
    """A check runs without the cyclic collector (cli/main.py); a caller in the
    same process (here, `main`) finds it as it was. Only the `veritype` program,
    which exits at once, leaves it off."""
    import gc

    (project / "a.py").write_text("x: int = 1\n")
    assert gc.isenabled()
    code, out, _ = run(capsys, "check", "a.py", "--no-incremental")
    assert code == 0 and "Success" in out
    assert gc.isenabled()
    gc.disable()
    try:
        run(capsys, "check", "a.py", "--no-incremental")
        assert not gc.isenabled()  # not turned on for a caller that had it off
    finally:
        gc.enable()


def test_version(capsys) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("veritype ")


# -- flags into options -----------------------------------------------------------


def test_flags_fill_options(tmp_path: Path) -> None:
    o = options_from_argv(
        [
            "--strict",
            "--allow-untyped-defs",
            "--python-version",
            "3.12",
            "--platform",
            "win32",
            "--disable-error-code",
            "misc,arg-type",
            "--enable-error-code",
            "unreachable",
            "--hide-column-numbers",
            "--no-error-summary",
            "--output",
            "json",
        ],
        str(tmp_path),
    )
    assert o.disallow_incomplete_defs and o.warn_unused_ignores and not o.disallow_untyped_defs
    assert o.python_version == (3, 12) and o.platform == "win32"
    assert o.disable_error_code == frozenset({"misc", "arg-type"})
    assert o.enable_error_code == frozenset({"unreachable"})
    assert not o.show_column_numbers and not o.error_summary and o.output == "json"


def test_flags_override_config(project: Path) -> None:
    write(project, {"mypy.ini": "[mypy]\nwarn_unreachable = True\ndisable_error_code = misc\n"})
    o = options_from_argv(["--no-warn-unreachable", "--enable-error-code", "misc"], str(project), search_config=True)
    assert not o.warn_unreachable
    assert code_enabled(o, "misc")


# -- checking ---------------------------------------------------------------------


DEMO = {
    "app/__init__.py": "",
    "app/util.py": "def double(x: int) -> int:\n    return x * 2\n",
    "app/main.py": (
        "import os\n"
        "import collections.abc\n"
        "import typing\n"
        "from app import util\n"
        "from app.util import double\n"
        "import typedlib\n"
        "import untypedlib\n"
        "import nosuchthing\n"
        "import requests\n"
    ),
}


def demo(project: Path) -> None:
    write(project, DEMO)
    write(site_of(project), {"typedlib/__init__.py": "", "typedlib/py.typed": "", "untypedlib/__init__.py": ""})


def test_reports_exactly_the_import_problems(project: Path, capsys) -> None:
    demo(project)
    code, out, err = run(capsys, "check", "app")
    assert code == 1, out + err
    lines = out.splitlines()
    p = os.path.join("app", "main.py")
    assert lines == [
        f'{p}:7:1: error: Skipping analyzing "untypedlib": module is installed, but missing library stubs or py.typed marker  [import-untyped]',
        f'{p}:8:1: error: Cannot find implementation or library stub for module named "nosuchthing"  [import-not-found]',
        f'{p}:9:1: error: Library stubs not installed for "requests"  [import-untyped]',
        f'{p}:9:1: note: Hint: "python3 -m pip install types-requests"',
        "Found 3 errors in 1 file (checked 3 source files)",
    ]


def test_ignore_missing_imports_flag_and_success_line(project: Path, capsys) -> None:
    demo(project)
    code, out, _ = run(capsys, "check", "app", "--ignore-missing-imports")
    assert (code, out) == (0, "Success: no issues found in 3 source files\n")


def test_per_module_ignore_missing_imports_names_the_imported_module(project: Path, capsys) -> None:
    demo(project)
    write(project, {"mypy.ini": "[mypy-untypedlib.*]\nignore_missing_imports = True\n[mypy-requests]\nignore_missing_imports = True\n"})
    code, out, _ = run(capsys, "check", "app")
    assert code == 1
    assert "nosuchthing" in out and "untypedlib" not in out and "requests" not in out


def test_veritype_json_output(project: Path, capsys) -> None:
    demo(project)
    code, out, _ = run(capsys, "check", "app", "--output", "veritype-json")
    assert code == 1
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 4
    assert set(data[0]) == {"path", "line", "column", "end_line", "end_column", "severity", "code", "message"}
    assert data[1]["code"] == "import-not-found" and data[1]["line"] == 8


def test_hide_columns_codes_and_summary(project: Path, capsys) -> None:
    write(project, {"m.py": "import nosuchthing\n"})
    code, out, _ = run(capsys, "m.py", "--hide-column-numbers", "--hide-error-codes", "--no-error-summary")
    assert code == 1
    assert out == 'm.py:1: error: Cannot find implementation or library stub for module named "nosuchthing"\n'


def test_no_colour_when_piped_colour_when_forced(project: Path, capsys) -> None:
    write(project, {"m.py": "import nosuchthing\n"})
    assert "\x1b[" not in run(capsys, "m.py")[1]
    assert "\x1b[31merror" in run(capsys, "m.py", "--color-output")[1]


def test_files_from_config(project: Path, capsys) -> None:
    write(project, {"pyproject.toml": '[tool.veritype]\nfiles = ["src"]\n', "src/ok.py": "x: int = 1\n", "other/bad.py": "import nosuchthing\n"})
    code, out, _ = run(capsys)
    assert (code, out) == (0, "Success: no issues found in 1 source file\n")
    code, out, _ = run(capsys, "check")
    assert code == 0


def test_module_and_package_flags(project: Path, capsys) -> None:
    write(project, {"pkg/__init__.py": "", "pkg/a.py": "import nosuchthing\n", "pkg/b.py": ""})
    code, out, _ = run(capsys, "-m", "pkg.b")
    assert (code, out) == (0, "Success: no issues found in 1 source file\n")
    code, out, _ = run(capsys, "-p", "pkg")
    assert code == 1 and "checked 3 source files" in out


def test_syntax_error_and_undecodable_file_do_not_stop_the_run(project: Path, capsys) -> None:
    write(project, {"a.py": "x = (\n", "c.py": "import nosuchthing\n"})
    (project / "b.py").write_bytes(b"x = '\xff'\n")
    code, out, err = run(capsys, ".", "--exclude", "venv")
    assert code == 1, err
    assert "a.py:1:" in out and "[syntax]" in out
    assert "b.py:1:1: error: Cannot decode file" in out
    assert "c.py:1:1: error: Cannot find implementation" in out
    assert "Found 3 errors in 3 files" in out


def test_type_ignore_and_unused_ignores(project: Path, capsys) -> None:
    # A bare ignore that silences nothing is reported unused, as mypy does.
    write(project, {"m.py": "import nosuchthing  # type: ignore[import-not-found]\nx = 1  # type: ignore[assignment]\ny = 1  # type: ignore\n"})
    code, out, _ = run(capsys, "m.py")
    assert code == 0
    code, out, _ = run(capsys, "m.py", "--warn-unused-ignores")
    assert code == 1
    # mypy names the unused codes only when the comment names more than one.
    assert out.splitlines()[0] == 'm.py:2:8: error: Unused "type: ignore" comment  [unused-ignore]'
    assert out.splitlines()[1] == 'm.py:3:8: error: Unused "type: ignore" comment  [unused-ignore]'


def test_python_m_veritype_and_check_subcommand(project: Path) -> None:
    write(project, {"m.py": "import os\n"})
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "veritype", "check", "m.py"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Success: no issues found in 1 source file\n"


def test_program_exits_at_once_after_writing_everything(project: Path) -> None:
    # console_main ends with os._exit (no interpreter teardown): every line
    # written to the pipe must still arrive, with the exit status of main.
    # 3,000 errors are more than one buffer of output; buffered, as by default.
    write(project, {"m.py": "".join(f'x{i}: int = "s"\n' for i in range(3000))})
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.run([sys.executable, "-m", "veritype", "check", "m.py", "--no-incremental"],
                          capture_output=True, text=True, env=env)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 3001 and lines[-1] == "Found 3000 errors in 1 file (checked 1 source file)"
    # A reader that goes away is not our failure: no traceback, no "Exception ignored".
    head = subprocess.run(f"{sys.executable} -m veritype check m.py --no-incremental | head -1",
                          shell=True, capture_output=True, text=True, env=env)
    assert head.stdout.startswith("m.py:1:") and head.stderr == "", head.stderr


# -- --stats ---------------------------------------------------------------------


def test_stats_line_after_summary(project: Path, capsys) -> None:
    import re

    write(project, {"a.py": "import os\nx: int = 1\ny = os.sep\n"})
    code, out, _ = run(capsys, "check", "a.py", "--stats", "--no-incremental")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0].startswith("Success:")
    m = re.fullmatch(r"Stats: (\d+) modules loaded, (\d+) symbols evaluated, (\d+) declarations in loaded modules", lines[1])
    assert m, lines
    modules, symbols, declarations = map(int, m.groups())
    assert modules >= 2  # a, builtins (and os, which the run needed)
    assert symbols >= 1  # os.sep at least
    assert declarations >= 3  # a.py's own three, plus the stubs'
    # Without the flag, no stats line.
    code, out, _ = run(capsys, "check", "a.py", "--no-incremental")
    assert "Stats:" not in out


def test_stats_with_json_output_goes_to_stderr(project: Path, capsys) -> None:
    write(project, {"a.py": "x = 1\n"})
    code, out, err = run(capsys, "check", "a.py", "--stats", "--output", "veritype-json", "--no-incremental")
    json.loads(out)
    assert err.startswith("Stats: ")

