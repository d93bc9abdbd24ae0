"""mypy's `follow_imports = normal` (the default): a module of the project
that a checked file imports is checked too, and its errors are reported,
though it was not named on the command line.

"Of the project": found in a source root (the checked files' roots,
`mypy_path`), not typeshed's standard library nor an installed package
(mypy follows those silently: their errors are never reported). A module
whose own settings say `silent`, `skip` or `error` is not checked here. The
imports followed are those the file can run on the target: statically false
branches (`if sys.version_info < ...`, `always_false` names) are skipped, as
mypy skips unreachable imports; `if TYPE_CHECKING:` ones are followed.
Followed modules do not count in the summary's "checked N source files",
as in mypy.

Finding them parsed every source file, which a warm run (every module's
diagnostics reused from the cache) otherwise never needs: half of its time.
With an import memo (from the incremental cache: digest of a module's name,
path, target and source bytes -> the modules it imports), a module whose
source is unchanged is not parsed here, nor read (its digest is known by its
stat: cache/file_digests.py). One with `# mypy:` comments (lines that start
with it: the text elsewhere, in a string or an indented comment, is no
setting) is, as those can change its settings (`for_module`) only once loaded.

A one-shot run without the memo (a cold run) would load every source here,
before the first is checked: all their whole trees at once, the peak of the
run's memory (the function bodies go once each module is checked:
engine/release.py). So the walk first reads each source's imports from the
part of its text that holds them (`_prefix_imports`: the lines up to the last
one naming `import`, parsed alone) and leaves the module unloaded, to be
loaded when it is checked (engine/checking.py). That answer is the whole
parse's, or a superset of it when the file has a syntax error further down
(the whole parse has no tree, so no imports). So it stands only when it
finds no module to follow (then neither would the whole parses); when it
finds one, the walk is made again by loading each module as before. A memo
entry made from a prefix is confirmed once the module is loaded
(`followed_sources`' `unconfirmed`). The text read and the prefix's tree
are kept for that load, which parses only the lines after the prefix
(syntax/parse.py's HeadParse): a prefix is no second parse of its lines,
nor the file a second read.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from veritype.cache.file_digests import FileDigests
from veritype.cache.fingerprint import UNREADABLE, digest_text
from veritype.config.inline import PREFIX, mypy_comments
from veritype.modules.finder import FoundModule
from veritype.modules.sources import BuildSource
from veritype.semantic.binder import absolute_import_name
from veritype.semantic.conditions import evaluate_condition
from veritype.syntax.parse import CONTINUING, HeadParse, parse_bytes, parse_source, starts_at_column_0
from veritype.syntax.read_files import decode_source, read_source
from veritype.syntax.statements import SIMPLE_STATEMENTS
from veritype.syntax.word_lines import any_in_span, span_start, word_lines

if TYPE_CHECKING:
    from veritype.evaluate.program import ModuleInfo, Program


# Loads modules elsewhere (engine/early_workers.py: in worker processes) and
# tells, of each, (the modules it imports, as `module_imports` gives them;
# whether it has `# mypy:` lines), None where it has no tree; or declines
# (None: too little to parse for a worker to pay), and they load here.
Scan = Callable[[list[BuildSource]], "dict[str, tuple[list[str], bool] | None] | None"]


def followed_sources(program: "Program", sources: list[BuildSource], memo: dict[str, list[str]] | None = None,
                     files: FileDigests | None = None, scan: Scan | None = None,
                     unconfirmed: dict[str, str] | None = None) -> list[BuildSource]:
    """The project modules the sources import, directly or not, that are not sources.

    `memo` (digest -> imports, see the module's docstring) is read and, after
    the call, holds the entries of this run's modules only. `files`: the
    run's content digests (cache/file_digests.py: by stat where unchanged).
    `scan`: where the modules to parse are loaded, if not here.
    `unconfirmed`: given, the walk may read imports from a prefix of the
    sources (the module's docstring) and fills it with module -> digest of
    the memo entries made so: each stands once the module's whole parse has
    a tree, and is for the caller to drop otherwise."""
    if files is None:
        files = FileDigests()
    known = dict(memo) if memo is not None else None
    listed = {s.module for s in sources}
    paths = {os.path.abspath(s.path) for s in sources}
    for src in sources:
        program.sources.setdefault(src.module, src)
    scanned = _scan_ahead(program, sources, known, files, scan, listed, paths) if scan is not None else {}
    if unconfirmed is not None and scan is None:
        found = _walk(program, sources, known, memo, files, scanned, listed, paths, unconfirmed)
        if found is not None:
            return found
        unconfirmed.clear()
    found = _walk(program, sources, known, memo, files, scanned, listed, paths, None)
    assert found is not None
    return found


def _walk(program: "Program", sources: list[BuildSource], known: dict[str, list[str]] | None,
          memo: dict[str, list[str]] | None, files: FileDigests,
          scanned: "dict[str, tuple[list[str], bool] | None]", listed: set[str], paths: set[str],
          prefixes: dict[str, str] | None) -> list[BuildSource] | None:
    """followed_sources' walk. With `prefixes` (module -> digest of the memo
    entries read from a prefix), imports come from prefixes where they can,
    and the walk gives up (None) at the first module it would follow."""
    if memo is not None:
        memo.clear()
    queue = [s.module for s in sources]
    seen = set(queue)
    found: list[BuildSource] = []
    while queue:
        name = queue.pop()
        digest = _digest(program, name, files) if known is not None else None
        deps = known.get(digest) if known is not None and digest is not None else None
        if deps is None and name in scanned:
            answer = scanned[name]
            if answer is None:
                continue
            deps, comments = answer
            if comments:
                digest = None  # (as below)
        elif deps is None:
            if prefixes is not None and name not in program.modules:
                deps = _prefix_imports(program, name, files.take_read(program.sources[name].path) if digest is not None else None)
            if deps is not None:
                if digest is not None:
                    prefixes[name] = digest  # type: ignore[index]
            else:
                info = program.get_module(name)
                if info is None or info.tree is None:
                    continue
                if info.parsed is not None and mypy_comments(info.parsed.source):
                    digest = None  # its settings are known once it is loaded: never from the memo
                deps = module_imports(program, info)
        if memo is not None and digest is not None:
            memo[digest] = deps
        for dep in deps:
            if dep in seen:
                continue
            seen.add(dep)
            followed = _followed(program, dep, listed, paths)
            if followed is None:
                continue
            if prefixes is not None:
                return None  # (the module's docstring) before anything is registered
            program.sources[dep] = followed  # loaded from here on as a source, under its shown path
            found.append(followed)
            queue.append(dep)
    return found


def _scan_ahead(program: "Program", sources: list[BuildSource], known: dict[str, list[str]] | None, files: FileDigests,
                scan: Scan, listed: set[str], paths: set[str]) -> "dict[str, tuple[list[str], bool] | None]":
    """What `scan` finds in each module that `followed_sources` would load: the
    same walk, breadth first, each round of modules to parse loaded in one
    call (in worker processes, in parallel). The walk of followed_sources
    then takes its answers in its own order, which decides the order of the
    followed modules. Empty when `scan` declines."""
    scanned: dict[str, tuple[list[str], bool] | None] = {}
    frontier = list(sources)
    seen = {s.module for s in sources}
    while frontier:
        todo: list[BuildSource] = []
        deps_by_module: list[list[str]] = []
        for src in frontier:
            # Not with an empty memo (a cold run's): no digest is found in it,
            # and the workers would wait for them (the walk takes them after).
            digest = _digest(program, src.module, files) if known else None
            deps = known.get(digest) if known and digest is not None else None
            if deps is None:
                todo.append(src)
            else:
                deps_by_module.append(deps)
        if todo:
            answers = scan(todo)
            if answers is None:
                return {}
            scanned.update(answers)
            deps_by_module.extend(answer[0] for answer in answers.values() if answer is not None)
        frontier = []
        for deps in deps_by_module:
            for dep in deps:
                if dep in seen:
                    continue
                seen.add(dep)
                followed = _followed(program, dep, listed, paths)
                if followed is not None:
                    program.sources[dep] = followed
                    frontier.append(followed)
    return scanned


def _followed(program: "Program", dep: str, listed: set[str], paths: set[str]) -> BuildSource | None:
    """The module `dep` as a followed source, if an import of it is followed."""
    if dep in listed or program.options.for_module(dep).follow_imports != "normal":
        return None
    target = program.find(dep)
    if not isinstance(target, FoundModule) or target.origin != "source" or target.is_namespace:
        return None
    if os.path.abspath(target.path) in paths:
        return None
    return BuildSource(_shown(target.path), dep, _root_of(target.path, dep))


def module_imports(program: "Program", info: "ModuleInfo") -> list[str]:
    """The modules a loaded module imports where it can run on its target (the module's docstring)."""
    assert info.tree is not None
    lines = info.parsed.word_lines("import") if info.parsed is not None else None
    return _tree_imports(program, info.tree, info.name, info.is_package, lines)


def _tree_imports(program: "Program", tree: ast.Module, name: str, is_package: bool,
                  lines: list[int] | None) -> list[str]:
    """The imports of `tree` (a module's whole parse, or its prefix's) under the module's settings."""
    opts = program.options.for_module(name)
    always = (frozenset(opts.always_true), frozenset(opts.always_false))
    return list(_imports(tree, name, is_package, opts.python_version, opts.platform, always, lines))


def _prefix_imports(program: "Program", name: str, read: tuple[bytes, str] | None = None) -> list[str] | None:
    """The imports of a source, from a parse of its lines up to the last one
    naming `import` (the module's docstring); None where that cannot be told
    so: unreadable text, `# mypy:` settings (known once loaded), a prefix that
    does not parse alone. `read`: the file's bytes and their digest, where
    the walk's digest of it read them just now.

    The module is loaded later from what was read here (`Program.parsed_ahead`),
    not from a second read and decoding of the file: where the answer is None,
    `_walk` loads it next, from its whole parse (`parse_file`'s of those
    bytes); else, when its turn comes, from the parse of the prefix and of
    the lines after it (syntax/parse.py's HeadParse: no line parsed twice)."""
    src = program.sources.get(name)
    found = program.find(name)
    if src is None or not isinstance(found, FoundModule) or found.is_namespace:
        return None
    try:
        if src.text is not None:
            source = src.text
        elif read is not None:
            source = decode_source(read[0], src.path)
        else:
            source = read_source(src.path)
    except (OSError, UnicodeDecodeError, SyntaxError):
        return None
    answer = _imports_of_prefix(program, name, found.is_package, src.path, source)
    ahead = read is not None and src.text is None and found.path == src.path
    if answer is None:
        if ahead:
            program.parsed_ahead[name] = parse_bytes(src.path, read[0], decoded=source, digest=read[1])  # type: ignore[index]
        return None
    deps, cut, head, lines = answer
    if ahead and head is not None:
        program.parsed_ahead[name] = HeadParse(src.path, source, cut, head, read[1], lines)  # type: ignore[index]
    return deps


def _imports_of_prefix(program: "Program", name: str, is_package: bool, path: str,
                       source: str) -> tuple[list[str], int, ast.Module | None, list[int] | None] | None:
    """`_prefix_imports` of the module's text `source`: the imports, the end
    of the prefix parsed, its tree and the lines of `source` naming `import`
    (None, None: no import, nothing parsed)."""
    # The last line naming `import` is that of its last occurrence (word_lines
    # counts the word inside other words too): its end is found without
    # counting lines, nor counting them at all unless the prefix is parsed.
    last = source.rfind("import")
    if last < 0:
        return None if PREFIX in source else ([], 0, None, None)  # no import statement (a file that does not parse has none either)
    if "\r" in source or PREFIX in source:
        return None  # (word_lines cannot tell the lines where a carriage return ends one)
    # The end of the last line naming `import`; if the statement goes on (a
    # parenthesized list of names, a `try:` whose handlers follow), the end
    # of the line before the next statement starting at column 0. Only that
    # one where the lines after the first are indented or continue it (a
    # function's import, `except:`), or the whole text if no statement
    # follows: the rest of the file must start a statement at column 0 to be
    # parsed alone when the module is loaded (syntax/parse.py's HeadParse),
    # so that no line is parsed twice. However long the prefix: the load
    # parses only the rest. (A prefix of most of the file was a second parse
    # of its lines, so such a module was loaded whole here instead, held from
    # here on with its symbols: a run's memory at the start of its checks,
    # 2 MB on the bench corpus, and its peak with the prefixes kept, 3 MB.)
    cut = source.find("\n", last)
    if cut < 0:
        cuts = [len(source) - 1]  # (the last line)
    else:
        nxt = source.find("\n", cut + 1)
        while nxt >= 0 and not _starts_statement(source, nxt + 1):
            nxt = source.find("\n", nxt + 1)
        if nxt < 0:
            nxt = len(source) - 1
        cuts = [cut, nxt] if starts_at_column_0(source, cut + 1) else [nxt]
    for end in cuts:
        tree = parse_source(path, source[: end + 1]).tree
        if tree is not None:
            lines = word_lines(source, "import")
            return _tree_imports(program, tree, name, is_package, lines), end + 1, tree, lines
    return None



def _starts_statement(source: str, pos: int) -> bool:
    """Whether the line at `pos` starts a statement at column 0 (maybe: a
    prefix that cuts a string or a statement does not parse, and is not used)."""
    first = source[pos : pos + 1]
    if not (first.isalpha() or first in ("_", "@")):
        return False
    word = source[pos : pos + 8].split(None, 1)[0].rstrip(":")  # (not blank: it starts with `first`)
    return word not in CONTINUING


def _digest(program: "Program", name: str, files: FileDigests) -> str | None:
    """What a module's import list depends on: its name and path, the target,
    and its source (the digest of its bytes); None when it is not a source
    or its file cannot be read. A module with `# mypy:` lines is never put
    in the memo (followed_sources), so a digest found there has none."""
    src = program.sources.get(name)
    if src is None:
        return None
    content = digest_text(src.text) if src.text is not None else files.digest(src.path)
    if content == UNREADABLE:
        return None
    opts = program.options.for_module(name)
    target = f"{opts.python_version}\0{opts.platform}\0{sorted(opts.always_true)}\0{sorted(opts.always_false)}"
    return digest_text(f"{name}\0{os.path.abspath(src.path)}\0{target}\0{'text' if src.text is not None else 'file'}:{content}")


def _shown(path: str) -> str:
    """Relative to the current directory when below it, as mypy prints followed files."""
    cwd = os.getcwd()
    absolute = os.path.abspath(path)
    return os.path.relpath(absolute, cwd) if absolute.startswith(cwd + os.sep) else absolute


def _root_of(path: str, module: str) -> str:
    """The directory the module name is relative to."""
    root = os.path.dirname(os.path.abspath(path))
    depth = module.count(".") + (1 if os.path.basename(path).startswith("__init__.") else 0)
    for _ in range(depth):
        root = os.path.dirname(root)
    return root


def _imports(tree: ast.Module, module: str, is_package: bool, version: tuple[int, int], platform: str,
             always: tuple[frozenset[str], frozenset[str]], lines: list[int] | None = None) -> Iterator[str]:
    """`lines`: those of the source holding the word `import` (None: not known)."""
    for node in _reachable(tree.body, version, platform, always, lines):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _prefixes(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = absolute_import_name(module, is_package, node.module, node.level)
            if not base:
                continue
            yield from _prefixes(base)
            for alias in node.names:
                if alias.name != "*":
                    yield f"{base}.{alias.name}"  # a submodule, if there is one


def _prefixes(name: str) -> Iterator[str]:
    parts = name.split(".")
    for i in range(1, len(parts) + 1):
        yield ".".join(parts[:i])


def _reachable(body: list[ast.stmt], version: tuple[int, int], platform: str, always: tuple[frozenset[str], frozenset[str]],
               lines: list[int] | None = None) -> Iterator[ast.stmt]:
    """Every statement that may run, nested ones too (functions, classes, try, with);
    with `lines` (those holding the word `import`), not those whose lines hold
    none, nor what they nest: no import is among them (syntax/word_lines.py)."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        if lines is not None and not any_in_span(lines, span_start(node), node.end_lineno):
            continue
        yield node
        if type(node) in SIMPLE_STATEMENTS:
            continue  # (no block under it)
        if isinstance(node, ast.If):
            known = evaluate_condition(node.test, version, platform, always)
            branches = [node.body] if known is True else [node.orelse] if known is False else [node.body, node.orelse]
            for branch in branches:
                stack.extend(reversed(branch))
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                for child in reversed(children):
                    if isinstance(child, ast.stmt):
                        stack.append(child)
                    elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                        stack.extend(reversed(child.body))
