"""How the bench tools invoke veritype and mypy, and read their diagnostics.

veritype runs as ``sys.executable -m veritype`` (run the bench tools with
the project's venv); ``--veritype-cmd`` overrides that for comparing another
build. mypy runs from ``bench/.work/peers-venv``. Both print JSON:
veritype's ``--output veritype-json`` (one array) and mypy's ``-O json`` (one object
per line); both are read into :class:`Diagnostic`.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import corpus


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str  # posix, relative to the directory the checker ran in
    line: int
    column: int
    code: str
    severity: str  # "error" or "note"
    message: str

    def render(self) -> str:
        return f"{self.path}:{self.line}: {self.severity}: {self.message}  [{self.code}]"


class CheckerError(Exception):
    """The checker crashed or printed something that is not its JSON output."""


def _rel(path: str, cwd: Path) -> str:
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(cwd.resolve())
        except ValueError:
            pass
    return p.as_posix().removeprefix("./")


class Checker:
    name: str
    #: True once we know the checker keeps an on-disk cache between runs.
    has_cache: bool
    #: Environment for the checker's process (None: inherit ours).
    env: dict[str, str] | None = None

    def command(self, paths: list[str], *, cache_dir: Path | None,
                python_executable: Path | None, extra: list[str] = ()) -> list[str]:
        raise NotImplementedError

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        raise NotImplementedError

    def clear_cache(self, cwd: Path, cache_dir: Path, shared: bool = True) -> None:
        """Empty the checker's cache (and, where it has one, its shared stub
        cache too, unless `shared` is False)."""
        _rmtree(cache_dir)


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


class Mypy(Checker):
    name = "mypy"
    has_cache = True

    def __init__(self) -> None:
        self.python = corpus.venv_python(corpus.PEERS_VENV)

    def command(self, paths, *, cache_dir, python_executable, extra=()):
        # -P: the corpus tree is the working directory; never import from it.
        cmd = [str(self.python), "-P", "-m", "mypy", "-O", "json", "--no-error-summary"]
        cmd += ["--cache-dir", str(cache_dir) if cache_dir else os.devnull]
        if python_executable:
            cmd += ["--python-executable", str(python_executable)]
        return cmd + list(extra) + list(paths)

    def parse(self, stdout, cwd):
        diags = []
        for line in stdout.splitlines():
            line = line.strip()
            if not line.startswith("{"):
                continue  # e.g. "Success: no issues found"
            d = json.loads(line)
            diags.append(Diagnostic(_rel(d["file"], cwd), int(d["line"]),
                                    int(d.get("column") or 0), d.get("code") or "",
                                    d["severity"], d["message"]))
        return diags


class Veritype(Checker):
    name = "veritype"

    def __init__(self, cmd: str | None = None) -> None:
        if cmd:
            self.base = shlex.split(cmd)
        else:
            # The corpus holds a snapshot of veritype's source, and the checker
            # runs inside the corpus: with -P the working directory is not put
            # on sys.path, so the checker that runs is the chosen revision of
            # veritype (PYTHONPATH, see corpus.veritype_source), never the snapshot
            # being checked.
            self.base = [sys.executable, "-P", "-m", "veritype"]
            path = os.environ.get("PYTHONPATH")
            self.env = {**os.environ, "PYTHONPATH": str(corpus.veritype_source())
                        + (os.pathsep + path if path else "")}
            # An installed veritype has its bytecode compiled (pip does it at
            # install; mypy's wheel is compiled to C): without it every run
            # recompiles veritype's ~60 modules, a third of a warm run. The
            # first run (`--help` below) writes the .pyc files.
            self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        # veritype's shared stub cache (veritype/cache/shared.py): a directory
        # of the bench's own, never the user's, emptied with the cache for a
        # cold run (mypy has nothing like it: cold is cold for both).
        self.shared_dir = corpus.WORK / "cache" / "veritype-shared"
        self.env = {**(self.env or os.environ), "VERITYPE_SHARED_CACHE_DIR": str(self.shared_dir)}
        self.has_cache = self.supports("--cache-dir")

    @cached_property
    def _help(self) -> tuple[int, str]:
        try:
            proc = subprocess.run(self.base + ["check", "--help"], capture_output=True, env=self.env,
                                  text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return -1, f"cannot run: {exc}"
        return proc.returncode, proc.stdout + proc.stderr

    def supports(self, flag: str) -> bool:
        return flag in self._help[1]

    def runnable(self) -> tuple[bool, str]:
        """Whether ``veritype check`` runs at all, and if not, why."""
        rc, text = self._help
        if rc == 0:
            return True, ""
        tail = text.strip().splitlines()[-1:] or ["?"]
        return False, f"`{' '.join(self.base)} check --help` exited {rc}: {tail[0]}"

    def command(self, paths, *, cache_dir, python_executable, extra=()):
        cmd = self.base + ["check", *paths, "--output", "veritype-json", "--no-error-summary"]
        if python_executable:
            cmd += ["--python-executable", str(python_executable)]
        if cache_dir and self.has_cache:
            cmd += ["--cache-dir", str(cache_dir)]
        return cmd + list(extra)

    def clear_cache(self, cwd, cache_dir, shared=True):
        _rmtree(cache_dir)
        _rmtree(cwd / ".veritype_cache")  # the default location, if it uses one
        if shared:
            _rmtree(self.shared_dir)

    def parse(self, stdout, cwd):
        text = stdout.strip()
        if not text:
            return []
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CheckerError(f"veritype printed no JSON array ({exc}): {text[:200]!r}")
        return [
            Diagnostic(_rel(d["path"], cwd), int(d["line"]), int(d.get("column") or 0),
                       d.get("code") or "", d.get("severity", "error"), d.get("message", ""))
            for d in data
        ]


def check_output(checker: Checker, returncode: int, stdout: str, stderr: str,
                 cwd: Path) -> list[Diagnostic]:
    """Parse a finished run; a crash (exit status other than 0/1) is an error."""
    if returncode not in (0, 1):
        tail = "\n".join((stderr or stdout).strip().splitlines()[-8:])
        raise CheckerError(f"{checker.name} exited {returncode}:\n{tail}")
    return checker.parse(stdout, cwd)


def add_veritype_options(ap) -> None:
    """The options every bench tool takes to choose which veritype runs."""
    ap.add_argument("--veritype-rev", default="HEAD", metavar="REV",
                    help="git revision of veritype to run and to check as corpus (default"
                         " HEAD: committed code only); 'worktree' for the files as they are")
    ap.add_argument("--veritype-cmd", metavar="CMD",
                    help="command to run instead of `python -m veritype` at --veritype-rev")


def veritype_from_args(args) -> Veritype:
    corpus.use_veritype_rev(args.veritype_rev)
    return Veritype(args.veritype_cmd)
