"""The case-file runner (DESIGN.md, "Tests"): Markdown documents as type-checker tests.

A case file under `tests/cases/` is Markdown. Each `##` (or deeper) heading
whose section holds one or more ```py / ```pyi blocks is one test case:

    <!-- file: pkg/mod.py -->         names the next block's file (default main.py / main.pyi)
    <!-- options: --strict -->       command-line flags for the case
    <!-- xfail: reason -->           a known gap: the case is expected to fail
    <!-- python: <3.12 -->           run only on such an interpreter (skipped elsewhere)

Blocks of other languages (```toml, ```ini) are written too when a file
comment names them, so a case can carry a `pyproject.toml` or `mypy.ini`.
Files under `site-packages/` form the case's only site-packages directory
(the real environment is never searched), and files under a `mypy_path`
entry are search roots, not sources; every other .py/.pyi file is checked.

Assertions are end-of-line comments on the line a diagnostic is reported on:

    x: int = ""  # error: [assignment]
    f(1)         # error: [arg-type] "substring of the message"
    g()          # error: [a] # error: [b]
    import yaml  # error: [import-untyped] # note: "types-PyYAML"
    reveal_type(x)  # revealed: int

Every error must be asserted, every assertion must be met; notes are checked
only where asserted. `# revealed: T` equals T in the note `Revealed type is "T"`.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from dataclasses import dataclass, field

from veritype.diagnostics.diagnostic import Diagnostic

CONFIG_NAMES = ("pyproject.toml", "mypy.ini", ".mypy.ini", "setup.cfg")


# -- parsing case files -----------------------------------------------------


@dataclass
class CaseFile:
    path: str  # relative, posix separators
    text: str
    line: int  # line in the Markdown file where the block's code starts


@dataclass
class Case:
    name: str
    md_path: str
    line: int  # line of the heading
    files: list[CaseFile] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    xfail: str | None = None
    python: str | None = None  # e.g. "<3.12": the running interpreter this case needs


def python_matches(spec: str, running: tuple[int, int]) -> bool:
    """Whether the running version satisfies `<3.12`, `>=3.13`, `==3.11` and the like."""
    m = re.fullmatch(r"\s*(<=|>=|==|<|>)\s*(\d+)\.(\d+)\s*", spec)
    if m is None:
        raise CaseSyntaxError(f"cannot read python version condition {spec!r}")
    op, version = m.group(1), (int(m.group(2)), int(m.group(3)))
    return {
        "<": running < version,
        "<=": running <= version,
        ">": running > version,
        ">=": running >= version,
        "==": running == version,
    }[op]


_HEADING = re.compile(r"^(#{2,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)\s*(.*)$")
_DIRECTIVE = re.compile(r"^\s*<!--\s*(file|options|xfail|python)\s*:\s*(.*?)\s*-->\s*$")

_PY_LANGS = {"py": "main.py", "python": "main.py", "pyi": "main.pyi"}


class CaseSyntaxError(Exception):
    """The case file itself is malformed."""


def parse_case_file(md_path: str, text: str) -> list[Case]:
    cases: list[Case] = []
    current: Case | None = None
    pending_file: str | None = None
    lines = text.splitlines()
    i = 0
    names: dict[str, int] = {}
    while i < len(lines):
        line = lines[i]
        heading = _HEADING.match(line)
        if heading:
            name = heading.group(2)
            count = names.get(name, 0)
            names[name] = count + 1
            if count:
                name = f"{name} ({count + 1})"
            current = Case(name, md_path, i + 1)
            cases.append(current)
            pending_file = None
            i += 1
            continue
        directive = _DIRECTIVE.match(line)
        if directive and current is not None:
            kind, value = directive.groups()
            if kind == "file":
                pending_file = value
            elif kind == "options":
                import shlex

                current.flags += shlex.split(value)
            elif kind == "python":
                python_matches(value, (3, 0))  # validate now, at collection
                current.python = value
            else:
                current.xfail = value or "known gap"
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            indent, marker, lang, _ = fence.groups()
            body: list[str] = []
            start = i + 2
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
                i += 1
            if i >= len(lines):
                raise CaseSyntaxError(f"{md_path}:{start - 1}: unclosed code block")
            i += 1  # closing fence
            lang = lang.lower()
            if current is None:
                if (lang in _PY_LANGS or pending_file is not None) and any(re.search(r"#\s*(error|revealed):", b) for b in body):
                    # An intro example is prose, but one with assertions was meant as a
                    # case: it would belong to no case and never run (a test that cannot fail).
                    raise CaseSyntaxError(f"{md_path}:{start - 1}: code block with assertions before the first ## heading (it would never run)")
                pending_file = None
                continue
            if pending_file is not None:
                filename = pending_file
            elif lang in _PY_LANGS:
                filename = _PY_LANGS[lang]
            else:
                continue  # prose examples in other languages
            pending_file = None
            if any(f.path == filename for f in current.files):
                raise CaseSyntaxError(f"{md_path}:{start - 1}: file {filename} given twice in one case")
            current.files.append(CaseFile(filename, "\n".join(body) + "\n", start))
            continue
        i += 1
    return [c for c in cases if any(f.path.endswith((".py", ".pyi")) for f in c.files)]


# -- expectations -----------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    kind: str  # "error" | "note" | "revealed"
    code: str | None = None
    text: str | None = None  # message substring (error/note) or exact type (revealed)

    def describe(self) -> str:
        if self.kind == "revealed":
            return f"revealed: {self.text}"
        parts = [self.kind + ":"]
        if self.code:
            parts.append(f"[{self.code}]")
        if self.text is not None:
            parts.append(f'"{self.text}"')
        return " ".join(parts)


_ASSERTION_START = re.compile(r"#\s*(error|note|revealed)\s*:")
_ERROR_BODY = re.compile(r'^\s*(?:\[([\w-]+)\])?\s*(?:"((?:[^"\\]|\\.)*)")?\s*$')


def _comments(source: str) -> dict[int, str]:
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        # A file that is meant not to parse: fall back to a plain scan of `#` comments.
        for n, line in enumerate(source.splitlines(), 1):
            m = _ASSERTION_START.search(line)
            if m:
                out[n] = line[m.start() :]
    return out


def parse_expectations(source: str, where: str) -> dict[int, list[Expectation]]:
    """line -> expectations, from the assertion comments of one file."""
    result: dict[int, list[Expectation]] = {}
    for line, comment in _comments(source).items():
        matches = list(_ASSERTION_START.finditer(comment))
        for index, m in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(comment)
            body = comment[m.end() : end].strip()
            kind = m.group(1)
            if kind == "revealed":
                if not body:
                    raise CaseSyntaxError(f"{where}:{line}: '# revealed:' needs a type")
                result.setdefault(line, []).append(Expectation("revealed", None, body))
                continue
            parsed = _ERROR_BODY.match(body)
            if parsed is None or (parsed.group(1) is None and parsed.group(2) is None):
                raise CaseSyntaxError(f'{where}:{line}: cannot read assertion "{comment[m.start():end].strip()}"; '
                                      'write # error: [code] "message substring"')
            text = parsed.group(2)
            if text is not None:
                text = text.replace('\\"', '"')
            result.setdefault(line, []).append(Expectation(kind, parsed.group(1), text))
    return result


# -- matching ---------------------------------------------------------------

_REVEALED = re.compile(r'^Revealed type is "(.*)"$', re.S)


def _revealed(diag: Diagnostic) -> str | None:
    if diag.severity != "note":
        return None
    m = _REVEALED.match(diag.message)
    return m.group(1) if m else None


def _matches(exp: Expectation, diag: Diagnostic) -> bool:
    if exp.kind == "revealed":
        return _revealed(diag) == exp.text
    if exp.kind == "error" and diag.severity == "note":
        return False
    if exp.kind == "note" and diag.severity != "note":
        return False
    if exp.code is not None and diag.code != exp.code:
        return False
    return exp.text is None or exp.text in diag.message


def _describe_diag(diag: Diagnostic) -> str:
    revealed = _revealed(diag)
    if revealed is not None:
        return f"revealed: {revealed}"
    code = f" [{diag.code}]" if diag.code and diag.severity != "note" else ""
    return f'{diag.severity}:{code} "{diag.message}"'


@dataclass
class LineReport:
    file: str
    line: int
    missing: list[Expectation]
    unexpected: list[Diagnostic]
    actual: list[Diagnostic]


def compare(
    expectations: dict[tuple[str, int], list[Expectation]],
    diagnostics: list[Diagnostic],
) -> list[LineReport]:
    """Per line, the expectations not met and the diagnostics not expected."""
    by_line: dict[tuple[str, int], list[Diagnostic]] = {}
    for diag in diagnostics:
        by_line.setdefault((diag.path, diag.line), []).append(diag)
    reports: list[LineReport] = []
    for key in sorted(set(expectations) | set(by_line)):
        expected = expectations.get(key, [])
        actual = by_line.get(key, [])
        remaining = list(actual)
        missing: list[Expectation] = []
        # Most specific assertions first, so a bare `[code]` does not steal a message match.
        for exp in sorted(expected, key=lambda e: (e.kind == "revealed", e.code is None, e.text is None)):
            hit = next((d for d in remaining if _matches(exp, d)), None)
            if hit is None:
                missing.append(exp)
            else:
                remaining.remove(hit)
        # Notes and reveal notes are only checked where asserted.
        unexpected = [d for d in remaining if d.severity != "note"]
        if missing or unexpected:
            reports.append(LineReport(key[0], key[1], missing, unexpected, actual))
    return reports


def format_reports(reports: list[LineReport], all_diagnostics: list[Diagnostic]) -> str:
    out: list[str] = []
    for r in reports:
        out.append(f"{r.file}:{r.line}:")
        for exp in r.missing:
            out.append(f"    expected, not reported:  {exp.describe()}")
        for diag in r.unexpected:
            out.append(f"    reported, not expected:  {_describe_diag(diag)}")
        others = [d for d in r.actual if d not in r.unexpected]
        for diag in others:
            out.append(f"    (also reported:          {_describe_diag(diag)})")
    out.append("")
    out.append("all diagnostics of the case:")
    for diag in all_diagnostics or []:
        code = f"  [{diag.code}]" if diag.code else ""
        out.append(f"    {diag.path}:{diag.line}:{diag.column}: {diag.severity}: {diag.message}{code}")
    if not all_diagnostics:
        out.append("    (none)")
    return "\n".join(out)


# -- running ----------------------------------------------------------------


class CaseFailure(AssertionError):
    pass


def write_files(case: Case, root: str) -> None:
    for f in case.files:
        target = os.path.join(root, *f.path.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as out:
            out.write(f.text)


def _module_name(rel: str) -> str:
    stem = rel.rsplit(".", 1)[0]
    parts = stem.split("/")
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def run_case(case: Case, root: str) -> None:
    """Write the case into `root` (an empty directory), check it, compare; raises CaseFailure."""
    from veritype.engine.build import run as build_run
    from veritype.cli.flags import options_from_argv
    from veritype.modules.sources import BuildSource

    write_files(case, root)
    flags = list(case.flags)
    config = next((f.path for f in case.files if f.path in CONFIG_NAMES), None)
    if config is not None and "--config-file" not in flags:
        flags = ["--config-file", os.path.join(root, config)] + flags
    old_cwd = os.getcwd()
    os.chdir(root)  # relative paths in configs and flags are the case's own
    try:
        options = options_from_argv(flags, root, search_config=False)
        site = os.path.join(root, "site-packages")
        options.site_packages = [site] if os.path.isdir(site) else []
        search_roots = [os.path.relpath(os.path.abspath(p), root).replace(os.sep, "/") for p in options.mypy_path]
        sources: list[BuildSource] = []
        for f in case.files:
            if not f.path.endswith((".py", ".pyi")):
                continue
            if f.path.startswith("site-packages/") or any(
                f.path.startswith(r.rstrip("/") + "/") for r in search_roots if r != "."
            ):
                continue
            if f.path.endswith(".py") and any(g.path == f.path + "i" for g in case.files):
                continue  # the stub beside it is what gets checked
            sources.append(BuildSource(os.path.join(root, *f.path.split("/")), _module_name(f.path), root))
        # As `veritype check` runs: bodies released once checked (engine/release.py).
        result = build_run(sources, options, release_bodies=True)
    finally:
        os.chdir(old_cwd)

    expectations: dict[tuple[str, int], list[Expectation]] = {}
    for f in case.files:
        if f.path.endswith((".py", ".pyi")):
            for line, exps in parse_expectations(f.text, f"{case.md_path}:{f.path}").items():
                expectations[(f.path, line)] = exps
    diagnostics = [_relative(d, root) for d in result.diagnostics]
    reports = compare(expectations, diagnostics)
    if reports:
        raise CaseFailure(format_reports(reports, diagnostics))


def _relative(diag: Diagnostic, root: str) -> Diagnostic:
    from dataclasses import replace

    path = diag.path
    absolute = os.path.abspath(os.path.join(root, path))
    if absolute.startswith(os.path.abspath(root) + os.sep):
        path = os.path.relpath(absolute, root).replace(os.sep, "/")
    return replace(diag, path=path)
