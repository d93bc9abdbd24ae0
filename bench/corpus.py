"""The fixed benchmark corpus and the environments the bench tools run in.

Everything lives under ``bench/.work/`` (gitignored):

``downloads/``   the pinned wheels, fetched with ``pip download --no-deps``
                 and verified against the sha256 digests below;
``corpus/``      each wheel unpacked once (pristine, never edited);
``tree/``        a working copy of every corpus package side by side, plus a
                 snapshot of veritype's own source; rebuilt by the tools that
                 edit it, so edits never touch the originals;
``peers-venv/``  a venv with the peer checker (mypy, pinned). mypy is a peer
                 to measure against, never a dependency of veritype;
``deps-venv/``   a venv with the corpus packages' own runtime dependencies
                 (pinned). Both checkers get ``--python-executable`` pointing
                 at it, so both see the same third-party packages.

Run ``python bench/corpus.py`` to prepare all of it and print the corpus.
"""

from __future__ import annotations

import ast
import hashlib
import shutil
import subprocess
import sys
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
WORK = BENCH_DIR / ".work"
DOWNLOADS = WORK / "downloads"
CORPUS = WORK / "corpus"
TREE = WORK / "tree"
PEERS_VENV = WORK / "peers-venv"
DEPS_VENV = WORK / "deps-venv"

#: The peer checker, pinned.
MYPY_REQUIREMENT = "mypy==2.4.1"

#: Runtime dependencies of the corpus packages (rich needs markdown-it-py and
#: pygments; veritype needs typeshed_client), pinned and installed without
#: resolution so the environment is the same on every machine.
DEPS_REQUIREMENTS = (
    "markdown-it-py==4.0.0",
    "mdurl==0.1.2",
    "pygments==2.19.2",
    "typeshed_client==2.15.0",
    "typing_extensions==4.15.0",
)


@dataclass(frozen=True)
class Package:
    """One corpus package: a pinned wheel and the top-level dirs to check."""

    name: str
    version: str
    wheel: str  # file name of the wheel on the index
    sha256: str
    roots: tuple[str, ...]  # top-level import packages in the wheel

    @property
    def label(self) -> str:
        return f"{self.name}-{self.version}"


#: Ordered smallest first, so "1 → 2 → all" scaling grows steadily.
PYPI_PACKAGES = (
    Package("packaging", "25.0", "packaging-25.0-py3-none-any.whl",
            "29572ef2b1f17581046b3a2227d5c611fb25ec70ca1ba8554b24b0e69331a484",
            ("packaging",)),
    Package("attrs", "25.4.0", "attrs-25.4.0-py3-none-any.whl",
            "adcf7e2a1fb3b36ac48d97835bb6d8ade15b8dcce26aba8bf1d14847b57a3373",
            ("attr", "attrs")),
    Package("click", "8.3.1", "click-8.3.1-py3-none-any.whl",
            "981153a64e25f12d547d3426c367a4857371575ee7ad18df2a6183ab0545b2a6",
            ("click",)),
    Package("rich", "14.2.0", "rich-14.2.0-py3-none-any.whl",
            "76bc51fe2e57d2b1be1f96c524b890b816e334ab4c1e45888799bfaab0021edd",
            ("rich",)),
)

#: veritype's own source, snapshotted from the repository on every run.
SELF = Package("veritype", "HEAD", "", "", ("veritype",))


def log(msg: str) -> None:
    print(f"[corpus] {msg}", file=sys.stderr, flush=True)


def venv_python(env_dir: Path) -> Path:
    return env_dir / "bin" / "python"


# --------------------------------------------------------------------------
# Downloading and unpacking


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _download(pkg: Package) -> Path:
    wheel = DOWNLOADS / pkg.wheel
    if not wheel.exists():
        DOWNLOADS.mkdir(parents=True, exist_ok=True)
        log(f"downloading {pkg.name}=={pkg.version}")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary", ":all:", f"{pkg.name}=={pkg.version}",
             "-d", str(DOWNLOADS)],
            check=True,
        )
    digest = _sha256(wheel)
    if digest != pkg.sha256:
        wheel.unlink()
        raise SystemExit(f"sha256 mismatch for {wheel.name}: got {digest}, pinned {pkg.sha256}")
    return wheel


def _unpack(pkg: Package, wheel: Path) -> Path:
    dest = CORPUS / pkg.label
    if (dest / ".complete").exists():
        return dest
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as zf:
        for member in zf.namelist():
            top = member.split("/", 1)[0]
            if top in pkg.roots:
                zf.extract(member, dest)
    (dest / ".complete").write_text(pkg.sha256 + "\n")
    return dest


#: Which veritype is measured and checked: a git revision of this
#: repository (default HEAD, so colleagues' uncommitted edits in a shared
#: work tree never break a run), or "worktree" for the files as they are.
#: Set by the tools' ``--veritype-rev`` option via :func:`use_veritype_rev`.
_veritype_rev = "HEAD"


def use_veritype_rev(rev: str) -> None:
    global _veritype_rev
    _veritype_rev = rev


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True,
                          text=True, check=True).stdout.strip()


def veritype_rev_label() -> str:
    """The revision measured, as a short hash (``+dirty`` for a dirty work tree)."""
    if _veritype_rev == "worktree":
        try:
            rev = _git("rev-parse", "--short", "HEAD")
        except subprocess.CalledProcessError:
            rev = "no commit"
        dirty = _git("status", "--porcelain", "--", "veritype")
        return f"worktree at {rev}" + ("+dirty" if dirty else "")
    return _git("rev-parse", "--short", _veritype_rev)


def veritype_source() -> Path:
    """A directory holding the ``veritype`` package at the chosen revision."""
    if _veritype_rev == "worktree":
        return REPO_ROOT
    sha = _git("rev-parse", _veritype_rev + "^{commit}")
    dest = WORK / "veritype-at" / sha
    if not (dest / ".complete").exists():
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", sha, "veritype"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
        (dest / ".complete").write_text(sha + "\n")
    return dest


def _snapshot_self() -> Path:
    """Copy veritype's source at the chosen revision (the original is never edited)."""
    dest = CORPUS / SELF.label
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(
        veritype_source() / "veritype", dest / "veritype",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    return dest


def all_packages() -> tuple[Package, ...]:
    return PYPI_PACKAGES + (SELF,)


def ensure_corpus() -> dict[str, Path]:
    """Download, verify and unpack every package; return name -> source root."""
    roots: dict[str, Path] = {}
    for pkg in PYPI_PACKAGES:
        roots[pkg.name] = _unpack(pkg, _download(pkg))
    roots[SELF.name] = _snapshot_self()
    return roots


def build_tree(packages: tuple[Package, ...] | None = None) -> Path:
    """Lay a fresh working copy of the corpus out in ``.work/tree``.

    All top-level packages sit side by side in one directory, which is the
    directory the checkers run in; the originals under ``corpus/`` stay
    untouched.
    """
    roots = ensure_corpus()
    shutil.rmtree(TREE, ignore_errors=True)
    TREE.mkdir(parents=True)
    for pkg in packages or all_packages():
        for top in pkg.roots:
            shutil.copytree(roots[pkg.name] / top, TREE / top)
    # Both checkers look for a config file up the directory tree and would
    # find the repository's own pyproject.toml; this one, found first, gives
    # both their default settings.
    (TREE / "pyproject.toml").write_text(
        "# Written by bench/corpus.py: default settings for both checkers.\n"
        "[tool.veritype]\n\n[tool.mypy]\n"
    )
    return TREE


# --------------------------------------------------------------------------
# Virtual environments


def _make_venv(env_dir: Path, requirements: tuple[str, ...], *, no_deps: bool) -> Path:
    marker = env_dir / ".requirements"
    wanted = "\n".join(requirements) + "\n"
    if marker.exists() and marker.read_text() == wanted:
        return venv_python(env_dir)
    log(f"creating {env_dir.relative_to(REPO_ROOT)} with {', '.join(requirements)}")
    shutil.rmtree(env_dir, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    cmd = [str(venv_python(env_dir)), "-m", "pip", "install", "--quiet"]
    if no_deps:
        cmd.append("--no-deps")
    subprocess.run(cmd + list(requirements), check=True)
    marker.write_text(wanted)
    return venv_python(env_dir)


def ensure_peers_venv() -> Path:
    """The venv holding mypy; returns its python."""
    return _make_venv(PEERS_VENV, (MYPY_REQUIREMENT,), no_deps=False)


def ensure_deps_venv() -> Path:
    """The venv holding the corpus packages' dependencies; returns its python."""
    return _make_venv(DEPS_VENV, DEPS_REQUIREMENTS, no_deps=True)


def mypy_version() -> str:
    out = subprocess.run(
        [str(venv_python(PEERS_VENV)), "-m", "mypy", "--version"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    return out.split(" (")[0]


# --------------------------------------------------------------------------
# Facts about the corpus


def source_files(tree: Path, pkg: Package) -> list[Path]:
    files: list[Path] = []
    for top in pkg.roots:
        files.extend(p for p in sorted((tree / top).rglob("*")) if p.suffix in (".py", ".pyi"))
    return files


def count_lines(tree: Path, pkg: Package) -> int:
    """Physical lines of every .py/.pyi file of the package (blank lines too)."""
    total = 0
    for path in source_files(tree, pkg):
        with path.open("rb") as f:
            total += sum(1 for _ in f)
    return total


def _module_name(tree: Path, path: Path) -> str:
    parts = list(path.relative_to(tree).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported_modules(tree: Path, path: Path) -> set[str]:
    """Absolute names of the modules ``path`` imports (relative ones resolved)."""
    try:
        module = ast.parse(path.read_bytes())
    except SyntaxError:
        return set()
    name = _module_name(tree, path)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level > 1:
                    base_parts = base_parts[: -(node.level - 1)]
                base = ".".join(base_parts)
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return found


def pick_leaf_module(tree: Path, pkg: Package) -> Path:
    """A module of ``pkg`` that no other corpus module imports.

    The largest such ``.py`` module (not ``__init__``/``__main__``, and with
    no ``.pyi`` beside it that would shadow it) is chosen, so the one-line
    edit benchmark re-checks a real amount of code.
    """
    all_files = [p for p in tree.rglob("*.py")]
    imported: set[str] = set()
    for path in all_files:
        imported |= _imported_modules(tree, path)
    candidates = []
    for path in source_files(tree, pkg):
        if path.suffix != ".py" or path.stem in ("__init__", "__main__"):
            continue
        if path.with_suffix(".pyi").exists():
            continue
        if _module_name(tree, path) in imported:
            continue
        candidates.append((path.stat().st_size, str(path), path))
    if not candidates:
        raise SystemExit(f"no leaf module found in {pkg.name}")
    return max(candidates)[2]


def main() -> int:
    ensure_corpus()
    ensure_peers_venv()
    ensure_deps_venv()
    tree = build_tree()
    print(f"corpus in {tree}")
    print(f"peer: {mypy_version()} in {PEERS_VENV}")
    print(f"{'package':<20} {'files':>6} {'lines':>8}  roots")
    for pkg in all_packages():
        print(f"{pkg.label:<20} {len(source_files(tree, pkg)):>6} "
              f"{count_lines(tree, pkg):>8}  {', '.join(pkg.roots)}")
    last = PYPI_PACKAGES[-1]
    print(f"leaf module for edits: {pick_leaf_module(tree, last).relative_to(tree)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
