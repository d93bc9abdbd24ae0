"""The primer: mypy 2.4.1 and veritype on real projects, as their CI runs mypy.

For each pinned project (bench/primer_projects.py) the sdist is downloaded
and unpacked, a venv of its own gets its CI's dependencies, and both
checkers run cold from the sdist root on the paths its CI checks, with the
project's own mypy configuration and ``--python-executable`` of that venv.
Errors are compared by line (path + line): "veritype only" lines have a
veritype error and no mypy error (each one is a false positive to fix, or a
real problem reported elsewhere than mypy reports it).

    python bench/primer.py                       # all projects
    python bench/primer.py --project h11 --explain
    python bench/primer.py --strip-ignores       # copies without `# type: ignore`
    python bench/primer.py --json bench/.work/primer.json && python bench/results.py

Everything downloaded lives in the cache directory (default
``bench/.work/primer``, gitignored): ``sdists/``, ``src/`` (unpacked,
pristine), ``stripped/`` (copies for ``--strip-ignores``), ``venvs/``,
``cache/`` (the checkers' caches, emptied before every run: times are cold).
Run it with the project's venv python, like the other bench tools.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
from dataclasses import dataclass, field
from pathlib import Path

import corpus
import machine
from checkers import (Checker, CheckerError, Diagnostic, Mypy, add_veritype_options, check_output,
                      veritype_from_args)
from measure import run_measured
from primer_projects import PROJECTS, Project

DEFAULT_CACHE = corpus.WORK / "primer"
CONFIG_NAMES = ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg")
#: `# type: ignore` with or without codes, and what follows on the comment.
IGNORE_RE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?")


def log(msg: str) -> None:
    print(f"[primer] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Getting a project ready: sdist, unpacked root, venv


def _download(project: Project, cache: Path) -> Path:
    sdists = cache / "sdists"
    found = sorted(sdists.glob(f"{project.name}-{project.version}.tar.gz")) + sorted(
        sdists.glob(f"{project.name.replace('-', '_')}-{project.version}.tar.gz"))
    if found:
        return found[0]
    sdists.mkdir(parents=True, exist_ok=True)
    log(f"downloading {project.label} (sdist)")
    # --no-binary for the project only: its build backend (needed by pip to
    # read the sdist's metadata) may come as a wheel, which is much faster
    # than building Cython or a Rust toolchain from source.
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--no-binary", project.name, f"{project.name}=={project.version}",
                    "-d", str(sdists)], check=True)
    found = sorted(p for p in sdists.glob("*.tar.gz")
                   if p.name.lower().replace("_", "-").startswith(
                       f"{project.name}-{project.version}".lower().replace("_", "-")))
    if not found:
        raise SystemExit(f"pip downloaded no sdist for {project.label}")
    return found[0]


def _unpack(project: Project, sdist: Path, cache: Path) -> Path:
    dest = cache / "src" / project.label
    if (dest / ".primer-complete").exists():
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp, filter="data")
    (top,) = list(tmp.iterdir())  # an sdist holds one NAME-VERSION directory
    top.rename(dest)
    shutil.rmtree(tmp)
    if project.config is not None:
        (dest / "mypy.ini").write_text(project.config)
    elif not _has_mypy_config(dest):
        # Without one, both checkers would walk up into this repository.
        (dest / "mypy.ini").write_text("[mypy]\n")
    (dest / ".primer-complete").write_text(sdist.name + "\n")
    return dest


def _has_mypy_config(root: Path) -> bool:
    for name in CONFIG_NAMES:
        path = root / name
        if not path.exists():
            continue
        text = path.read_text(errors="replace")
        if name.endswith("mypy.ini") or re.search(r"^\[(tool\.mypy|mypy)\]", text, re.M):
            return True
    return False


def _venv(project: Project, cache: Path) -> tuple[Path, str]:
    """The project's venv (made once per dependency list); its python and pip freeze."""
    env_dir = cache / "venvs" / project.name
    python = corpus.venv_python(env_dir)
    marker = env_dir / ".requirements"
    # Made as `python -m venv` makes one: its python a symlink to the base
    # interpreter (the layout that once made veritype read its own site-packages).
    wanted = "# venv with symlinks\n" + "\n".join(project.deps) + "\n"
    if not (marker.exists() and marker.read_text().partition("\n# freeze\n")[0] + "\n"
            == wanted):
        log(f"creating the venv of {project.name}")
        shutil.rmtree(env_dir, ignore_errors=True)
        venv.EnvBuilder(with_pip=True, clear=True, symlinks=os.name != "nt").create(env_dir)
        if project.deps:
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", *project.deps],
                           check=True)
        freeze = subprocess.run([str(python), "-m", "pip", "freeze"], capture_output=True,
                                text=True, check=True).stdout
        marker.write_text(wanted.rstrip("\n") + "\n# freeze\n" + freeze)
    return python, marker.read_text().partition("\n# freeze\n")[2]


def _stripped_copy(root: Path, cache: Path) -> Path:
    """A copy of ``root`` with every ``# type: ignore[...]`` comment removed."""
    dest = cache / "stripped" / root.name
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(root, dest)
    for path in dest.rglob("*"):
        if path.suffix in (".py", ".pyi") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            new = IGNORE_RE.sub("", text)
            if new != text:
                path.write_text(new, encoding="utf-8", errors="surrogateescape")
    return dest


def expand_paths(root: Path, patterns: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern, root_dir=root)) if glob.has_magic(pattern) else [pattern]
        out.extend(m for m in matches if (root / m).exists())
    return out


def count_lines(root: Path, paths: list[str]) -> int:
    total = 0
    for rel in paths:
        p = root / rel
        files = [p] if p.is_file() else [f for f in p.rglob("*") if f.suffix in (".py", ".pyi")]
        for f in files:
            with f.open("rb") as fh:
                total += sum(1 for _ in fh)
    return total


# --------------------------------------------------------------------------
# Running and comparing


@dataclass
class Outcome:
    label: str
    lines: int
    mypy: list[Diagnostic] = field(default_factory=list)
    veritype: list[Diagnostic] = field(default_factory=list)
    mypy_time: float | None = None
    veritype_time: float | None = None
    failure: str = ""  # a checker crashed (its name and the tail of its output)
    freeze: str = ""
    note: str = ""

    @staticmethod
    def _lines(diags: list[Diagnostic]) -> set[tuple[str, int]]:
        return {(d.path, d.line) for d in diags}

    @property
    def veritype_only(self) -> list[Diagnostic]:
        m = self._lines(self.mypy)
        return [d for d in self.veritype if (d.path, d.line) not in m]

    @property
    def mypy_only(self) -> list[Diagnostic]:
        v = self._lines(self.veritype)
        return [d for d in self.mypy if (d.path, d.line) not in v]

    def counts(self) -> dict[str, int]:
        return {"lines": self.lines, "mypy": len(self._lines(self.mypy)),
                "veritype": len(self._lines(self.veritype)),
                "veritype_only": len(self._lines(self.veritype_only)),
                "mypy_only": len(self._lines(self.mypy_only))}


def run_checker(checker: Checker, root: Path, paths: list[str], python: Path,
                cache_dir: Path) -> tuple[list[Diagnostic], float]:
    checker.clear_cache(root, cache_dir)
    cmd = checker.command(paths, cache_dir=cache_dir, python_executable=python)
    m = run_measured(cmd, root, env=checker.env)
    diags = check_output(checker, m.returncode, m.stdout, m.stderr, root)
    return sorted(d for d in diags if d.severity == "error"), m.wall


def run_project(project: Project, cache: Path, checkers: tuple[Checker, Checker], *,
                strip: bool) -> Outcome:
    root = _unpack(project, _download(project, cache), cache)
    python, freeze = _venv(project, cache)
    if strip:
        root = _stripped_copy(root, cache)
    paths = expand_paths(root, project.paths)
    out = Outcome(project.label, count_lines(root, paths), freeze=freeze, note=project.note)
    mypy, veritype = checkers
    for checker in (mypy, veritype):
        try:
            diags, wall = run_checker(checker, root, paths, python,
                                      cache / "cache" / checker.name)
        except (CheckerError, OSError) as exc:
            out.failure += f"{checker.name}: {exc}\n"
            continue
        if checker is mypy:
            out.mypy, out.mypy_time = diags, wall
        else:
            out.veritype, out.veritype_time = diags, wall
    return out


# --------------------------------------------------------------------------
# Reporting


COLUMNS = ("lines", "mypy", "veritype", "veritype_only", "mypy_only")


def table(outcomes: list[Outcome]) -> str:
    head = (f"{'project':<24} {'lines':>8} {'mypy':>6} {'veritype':>9} {'vt only':>8}"
            f" {'mypy only':>10} {'cold ratio':>11}")
    rows = [head]
    totals = dict.fromkeys(COLUMNS, 0)
    time_m = time_v = 0.0
    for o in outcomes:
        c = o.counts()
        if o.failure:
            rows.append(f"{o.label:<24} {c['lines']:>8}  FAILED: "
                        + o.failure.strip().splitlines()[-1][:80])
            continue
        for k in COLUMNS:
            totals[k] += c[k]
        ratio = o.veritype_time / o.mypy_time if o.mypy_time and o.veritype_time else None
        time_m += o.mypy_time or 0
        time_v += o.veritype_time or 0
        rows.append(f"{o.label:<24} {c['lines']:>8} {c['mypy']:>6} {c['veritype']:>9}"
                    f" {c['veritype_only']:>8} {c['mypy_only']:>10}"
                    f" {f'{ratio:.2f}x' if ratio else 'n/a':>11}")
    ratio = f"{time_v / time_m:.2f}x" if time_m else "n/a"
    rows.append(f"{'total (ran)':<24} {totals['lines']:>8} {totals['mypy']:>6}"
                f" {totals['veritype']:>9} {totals['veritype_only']:>8}"
                f" {totals['mypy_only']:>10} {ratio:>11}")
    return "\n".join(rows)


def _source_line(root: Path, d: Diagnostic) -> str:
    try:
        lines = (root / d.path).read_text(encoding="utf-8", errors="replace").splitlines()
        return lines[d.line - 1].strip() if 0 < d.line <= len(lines) else ""
    except OSError:
        return ""


def explain(outcomes: list[Outcome], cache: Path, strip: bool) -> str:
    out: list[str] = []
    for o in outcomes:
        only = o.veritype_only
        if not only:
            continue
        root = cache / ("stripped" if strip else "src") / o.label
        out.append(f"== {o.label}: {len(only)} veritype-only error(s)")
        for d in only:
            src = _source_line(root, d)
            ignore = IGNORE_RE.search(src)
            flag = f"  <<< on a line with {ignore.group(0)}" if ignore else ""
            out.append(f"{d.path}:{d.line}: [{d.code}] {d.message}{flag}")
            out.append(f"    | {src}")
        out.append("")
    return "\n".join(out)


def to_json(outcomes: list[Outcome], info: dict[str, str], strip: bool) -> dict:
    def ds(diags: list[Diagnostic]) -> list[dict]:
        return [d.__dict__ for d in diags]

    return {"machine": info, "strip_ignores": strip, "projects": {
        o.label: {**o.counts(), "mypy_time_s": o.mypy_time, "veritype_time_s": o.veritype_time,
                  "failure": o.failure, "note": o.note, "freeze": o.freeze.splitlines(),
                  "mypy_errors": ds(o.mypy), "veritype_errors": ds(o.veritype),
                  "veritype_only_errors": ds(o.veritype_only),
                  "mypy_only_errors": ds(o.mypy_only)}
        for o in outcomes}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cache", nargs="?", type=Path, default=DEFAULT_CACHE,
                    help=f"directory for sdists, venvs and caches (default {DEFAULT_CACHE})")
    ap.add_argument("--project", action="append", metavar="NAME",
                    help="only this project (repeatable)")
    ap.add_argument("--explain", action="store_true",
                    help="list every veritype-only error with its source line")
    ap.add_argument("--strip-ignores", action="store_true",
                    help="check copies with every `# type: ignore` comment removed")
    ap.add_argument("--json", type=Path, metavar="FILE", help="write the results to FILE")
    add_veritype_options(ap)
    args = ap.parse_args(argv)

    projects = [p for p in PROJECTS if not args.project or p.name in args.project]
    if not projects:
        ap.error(f"no such project: {', '.join(args.project)}; "
                 f"known: {', '.join(p.name for p in PROJECTS)}")
    cache = args.cache.resolve()
    veritype = veritype_from_args(args)
    ok, why = veritype.runnable()
    if not ok:
        print(f"veritype cannot run: {why}", file=sys.stderr)
        return 2
    corpus.ensure_peers_venv()
    info = machine.describe(corpus.mypy_version())
    print(machine.header("veritype primer" + (" (type: ignore comments stripped)"
                                              if args.strip_ignores else ""), info))
    print("error lines (path + line); cold runs, ratio = veritype / mypy wall time\n", flush=True)

    outcomes = []
    for project in projects:
        log(f"checking {project.label}")
        outcomes.append(run_project(project, cache, (Mypy(), veritype),
                                    strip=args.strip_ignores))
    print(table(outcomes))
    for o in outcomes:
        if o.failure:
            print(f"\n{o.label} failed:\n{o.failure}")
    if args.explain:
        print("\n" + explain(outcomes, cache, args.strip_ignores))
    if args.json:
        args.json.write_text(json.dumps(to_json(outcomes, info, args.strip_ignores), indent=1)
                             + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
