"""Score veritype on the typing conformance suite (python/typing, conformance/tests).

    python bench/conformance.py --suite /path/to/typing/conformance/tests
    python bench/conformance.py --suite DIR --file generics_basic.py   # details
    python bench/conformance.py --suite DIR --json results.json
    python bench/conformance.py --suite DIR --checker mypy   # score the peer

How it runs the checker, as the suite's own harness does
(conformance/src/type_checker.py): once, over the whole directory, with
the tests directory as the working directory (``check .``), so tests that
import their helper modules (``_protocols_modules1.py`` and the like) find
them. Diagnostics are grouped by file name; only errors count (notes do
not). The harness runs under Python 3.12, so the target version defaults to
3.12 here. ``--per-file`` instead runs the checker once per test file (same
working directory), so that one crash costs only that file.

Which files are tests: ``*.py`` and ``*.pyi`` whose name up to the first
``_`` is a chapter listed in the suite's ``src/test_groups.toml`` (helper
modules start with ``_``, so they are not tests).

How a file is scored, following the harness (conformance/src/main.py),
from the comments on each line (lines holding only a comment are skipped):

- ``# E`` (alone, or followed by ``:`` or a space) — the line must have at
  least one error; ``# E?`` — the line may have errors;
- ``# E[tag]`` on several lines — exactly one of those lines must have an
  error; ``# E[tag+]`` — at least one, more are allowed;
- an error on any other line is unexpected.

A file passes when nothing is missing and nothing is unexpected.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import corpus
import machine
from checkers import add_veritype_options, veritype_from_args, Checker, CheckerError, Diagnostic, Mypy, check_output

_MARK = re.compile(r"# E\??(?=:|$| )")
_GROUP = re.compile(r"# E\[([^\]]+)\]")


@dataclass
class Expectations:
    """What one test file asks for."""

    required: dict[int, int] = field(default_factory=dict)  # line -> number of `# E`
    optional: set[int] = field(default_factory=set)  # lines with only `# E?`
    groups: dict[str, tuple[list[int], bool]] = field(default_factory=dict)  # tag -> (lines, multi)
    problems: list[str] = field(default_factory=list)  # malformed markers in the test itself

    @property
    def marked(self) -> set[int]:
        return set(self.required) | self.optional


def read_expectations(path: Path) -> Expectations:
    exp = Expectations()
    with path.open(encoding="utf-8") as f:  # line numbering as the harness's readlines()
        lines = f.readlines()
    for lineno, line in enumerate(lines, start=1):
        line = line.rstrip("\n")
        if not line.split("#", 1)[0].strip():
            continue  # a comment-only line: a commented-out case
        required = optional = 0
        for m in _MARK.finditer(line):
            if m.group() == "# E":
                required += 1
            else:
                optional += 1
        if required:
            exp.required[lineno] = required
        elif optional:
            exp.optional.add(lineno)
        for m in _GROUP.finditer(line):
            tag, multi = m.group(1), False
            if tag.endswith("+"):
                tag, multi = tag[:-1], True
            lines, was_multi = exp.groups.setdefault(tag, ([], multi))
            if was_multi != multi:
                exp.problems.append(f"group {tag!r} mixes [{tag}] and [{tag}+]")
            lines.append(lineno)
    for tag, (lines, _) in exp.groups.items():
        if len(lines) == 1:
            exp.problems.append(f"group {tag!r} appears on a single line")
    return exp


@dataclass
class Score:
    name: str
    missing: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    missing_lines: list[int] = field(default_factory=list)
    unexpected_lines: list[int] = field(default_factory=list)
    unexpected_codes: list[str] = field(default_factory=list)
    crash: str = ""

    @property
    def passed(self) -> bool:
        return not (self.missing or self.unexpected or self.crash)


def score_file(name: str, exp: Expectations, errors: dict[int, list[Diagnostic]]) -> Score:
    s = Score(name)
    for lineno, count in sorted(exp.required.items()):
        if lineno not in errors:
            s.missing.append(f"line {lineno}: expected {count} error{'s' * (count > 1)}")
            s.missing_lines.append(lineno)
        # A different count is fine: checkers may report one problem as several errors.
    used_by_groups: set[int] = set()
    for tag, (lines, multi) in exp.groups.items():
        hit = [n for n in lines if n in errors]
        where = ", ".join(map(str, lines))
        if not hit:
            s.missing.append(f"lines {where}: expected an error on one of them (tag {tag!r})")
            s.missing_lines.extend(lines)
        elif len(hit) == 1 or multi:
            used_by_groups.update(lines)
        else:
            s.unexpected.append(f"lines {where}: expected exactly one error (tag {tag!r}),"
                                f" got errors on {', '.join(map(str, hit))}")
    for lineno in sorted(errors):
        if lineno not in exp.marked and lineno not in used_by_groups:
            msgs = "; ".join(f"{d.message} [{d.code}]" for d in errors[lineno])
            s.unexpected.append(f"line {lineno}: unexpected: {msgs}")
            s.unexpected_lines.append(lineno)
            s.unexpected_codes.extend(d.code for d in errors[lineno])
    return s


# --------------------------------------------------------------------------
# Running the checker


def find_tests_dir(suite: Path) -> Path:
    for cand in (suite, suite / "tests", suite / "conformance" / "tests"):
        if cand.is_dir() and any(cand.glob("*_*.py")):
            return cand
    raise SystemExit(f"no conformance tests found in {suite}")


def chapters(tests_dir: Path) -> list[str]:
    """The suite's chapters in its own order (from src/test_groups.toml if present)."""
    toml = tests_dir.parent / "src" / "test_groups.toml"
    if toml.exists():
        with toml.open("rb") as f:
            return list(tomllib.load(f))
    names = {p.name.split("_")[0] for p in tests_dir.glob("*.py*") if not p.name.startswith("_")}
    return sorted(names)


def test_files(tests_dir: Path, groups: list[str]) -> list[Path]:
    files = [p for p in [*tests_dir.glob("*.py"), *tests_dir.glob("*.pyi")]
             if p.name.split("_")[0] in groups]
    return sorted(files, key=lambda p: p.name)


def checker_args(checker: Checker, python_version: str) -> list[str]:
    """Flags matching the suite harness's mypy invocation, where supported."""
    if isinstance(checker, Mypy):
        return ["--enable-error-code", "deprecated", "--enable-incomplete-feature=TypeForm",
                "--python-version", python_version]
    extra = []
    if checker.supports("--python-version"):
        extra += ["--python-version", python_version]
    if checker.supports("--enable-error-code"):
        extra += ["--enable-error-code", "deprecated"]
    return extra


def run_checker(checker: Checker, tests_dir: Path, paths: list[str], extra: list[str],
                timeout: float) -> list[Diagnostic]:
    cmd = checker.command(paths, cache_dir=None, python_executable=None, extra=extra)
    try:
        proc = subprocess.run(cmd, cwd=tests_dir, capture_output=True, text=True, env=checker.env,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CheckerError(f"{checker.name} timed out after {timeout:.0f} s")
    return check_output(checker, proc.returncode, proc.stdout, proc.stderr, tests_dir)


def errors_by_file(diags: list[Diagnostic]) -> dict[str, dict[int, list[Diagnostic]]]:
    out: dict[str, dict[int, list[Diagnostic]]] = defaultdict(lambda: defaultdict(list))
    for d in diags:
        if d.severity == "error":
            out[Path(d.path).name][d.line].append(d)
    return out


# --------------------------------------------------------------------------
# Output


def print_detail(path: Path, exp: Expectations, s: Score,
                 errors: dict[int, list[Diagnostic]], checker: str) -> None:
    src = path.read_text(encoding="utf-8").splitlines()
    print(f"{'PASS' if s.passed else 'FAIL'} {s.name}")
    if s.crash:
        print(f"  crash: {s.crash}")
    for problem in exp.problems:
        print(f"  (suite problem: {problem})")
    for title, items, lines in (("missing", s.missing, s.missing_lines),
                                ("unexpected", s.unexpected, s.unexpected_lines)):
        print(f"  {title}: {len(items)}")
        for item in items:
            print(f"    {item}")
        for n in sorted(set(lines)):
            print(f"      {n:>4} | {src[n - 1].rstrip()}")
    print(f"  all {checker} errors in this file:")
    for n in sorted(errors):
        for d in errors[n]:
            print(f"    {n}:{d.column}: {d.message}  [{d.code}]")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", type=Path, required=True,
                    help="the suite's tests directory (conformance/tests of python/typing)")
    ap.add_argument("--file", help="show one file's missing and unexpected lines in detail")
    ap.add_argument("--json", type=Path, help="write per-file results to this JSON file")
    ap.add_argument("--checker", choices=("veritype", "mypy"), default="veritype",
                    help="which checker to score (mypy: to validate this scorer)")
    add_veritype_options(ap)
    ap.add_argument("--python-version", default="3.12",
                    help="target version passed to the checker (default 3.12, as the suite)")
    ap.add_argument("--per-file", action="store_true",
                    help="run the checker once per test file instead of once on the directory")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per checker run")
    args = ap.parse_args(argv)
    corpus.use_veritype_rev(args.veritype_rev)

    tests_dir = find_tests_dir(args.suite.resolve())
    groups = chapters(tests_dir)
    files = test_files(tests_dir, groups)
    if args.file:
        wanted = [p for p in files if p.name == args.file or p.stem == args.file]
        if not wanted:
            raise SystemExit(f"{args.file}: not a test file in {tests_dir}")

    if args.checker == "mypy":
        corpus.ensure_peers_venv()
        checker: Checker = Mypy()
    else:
        checker = veritype_from_args(args)
        ok, why = checker.runnable()
        if not ok:
            raise SystemExit(f"veritype cannot run: {why}")
    extra = checker_args(checker, args.python_version)

    crashes: dict[str, str] = {}
    if args.per_file:
        diags: list[Diagnostic] = []
        for p in (wanted if args.file else files):
            try:
                diags += run_checker(checker, tests_dir, [p.name], extra, args.timeout)
            except CheckerError as exc:
                crashes[p.name] = str(exc).splitlines()[-1]
    else:
        try:
            diags = run_checker(checker, tests_dir, ["."], extra, args.timeout)
        except CheckerError as exc:
            print(f"{checker.name} failed on the suite directory:\n{exc}\n"
                  "(try --per-file to score the files it does not crash on)", file=sys.stderr)
            return 2
    by_file = errors_by_file(diags)

    if args.file:
        for p in wanted:
            exp = read_expectations(p)
            s = score_file(p.name, exp, by_file.get(p.name, {}))
            s.crash = crashes.get(p.name, "")
            print_detail(p, exp, s, by_file.get(p.name, {}), checker.name)
        return 0

    scores: list[Score] = []
    for p in files:
        s = score_file(p.name, read_expectations(p), by_file.get(p.name, {}))
        s.crash = crashes.get(p.name, "")
        scores.append(s)
        status = "PASS" if s.passed else "FAIL"
        detail = "" if s.passed else (f"  missing {len(s.missing)}, unexpected {len(s.unexpected)}"
                                      + (f", crashed: {s.crash}" if s.crash else ""))
        print(f"{status}  {p.name}{detail}")

    passed = sum(s.passed for s in scores)
    print(f"\nconformance: {passed}/{len(scores)} files pass ({checker.name})")
    print(f"\n{'chapter':<14} {'pass':>5} {'total':>6}")
    per_chapter: dict[str, list[Score]] = defaultdict(list)
    for s in scores:
        per_chapter[s.name.split("_")[0]].append(s)
    for ch in groups:
        if per_chapter.get(ch):
            ss = per_chapter[ch]
            print(f"{ch:<14} {sum(x.passed for x in ss):>5} {len(ss):>6}")

    codes = Counter(c for s in scores for c in s.unexpected_codes)
    if codes:
        print("\nunexpected errors by code (errors on lines the suite marks as correct):")
        for code, n in codes.most_common(12):
            print(f"  {n:>5}  {code or '(no code)'}")

    if args.json:
        info = machine.describe(corpus.mypy_version() if args.checker == "mypy" else "")
        doc = {
            "checker": checker.name, "machine": info, "suite": str(tests_dir),
            "passed": passed, "total": len(scores),
            "chapters": {ch: {"passed": sum(x.passed for x in per_chapter[ch]),
                              "total": len(per_chapter[ch])} for ch in groups if per_chapter[ch]},
            "files": {s.name: {"pass": s.passed, "missing": s.missing,
                               "unexpected": s.unexpected, "crash": s.crash} for s in scores},
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
