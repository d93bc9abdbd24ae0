"""`--install-types`: pip-install the `types-*` stub packages a run found missing.

mypy's behaviour, step for step. The packages are the ones named by the
`Hint: "python3 -m pip install types-X"` notes of `import-untyped` errors,
installed with `PYTHON -m pip install ...` into the target environment (the
`--python-executable`, else the active virtual environment, else the
interpreter veritype runs on):

- with `--non-interactive`, the run's output is held back; if stubs are
  missing they are installed and the check runs again, and only the second
  run's output is shown (so CI passes once the stubs exist);
- without it, the output is shown, then the command, and `Install? [yN]`
  asks on stdin; either way the exit status is 2, with mypy's closing lines.

`--non-interactive` alone is a usage error, as in mypy.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from typing import TextIO

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.options import Options

_HINT = re.compile(r'^Hint: "python3 -m pip install (types-[A-Za-z0-9._-]+)"$')


def missing_stub_packages(diagnostics: Sequence[Diagnostic]) -> list[str]:
    found: list[str] = []
    for diag in diagnostics:
        m = _HINT.match(diag.message) if diag.severity == "note" else None
        if m and m.group(1) not in found:
            found.append(m.group(1))
    return sorted(found)


def target_interpreter(options: Options) -> str:
    if options.python_executable:
        return options.python_executable
    venv = os.environ.get("VIRTUAL_ENV")
    if venv:
        for name in ("bin/python", "Scripts/python.exe"):
            candidate = os.path.join(venv, name)
            if os.path.isfile(candidate):
                return candidate
    return sys.executable


def install_command(options: Options, packages: list[str]) -> list[str]:
    return [target_interpreter(options), "-m", "pip", "install", *packages]


def install(command: list[str], stdout: TextIO, interactive: bool, stdin: TextIO | None = None) -> bool:
    """Print and run the pip command; False when the user said no."""
    stdout.write("Installing missing stub packages:\n" + " ".join(command) + "\n\n")
    if interactive:
        stdout.write("Install? [yN] ")
        stdout.flush()
        answer = (stdin or sys.stdin).readline()
        if not answer.strip().lower().startswith("y"):
            stdout.write("veritype: Skipping installation\n")
            return False
        stdout.write("\n")
    stdout.flush()
    subprocess.run(command, check=False)
    return True
