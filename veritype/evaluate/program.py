"""The program: every module a run has loaded, and lookups across them.

Modules are parsed and bound only when something asks for them (an import
being followed, a name being resolved), so typeshed is read file by file as
needed and most of it never is (DESIGN.md principle 2). Checking the loaded
modules is the engine's (engine/checking.py): this stage does not know the
check stage exists.
"""

from __future__ import annotations

import ast
import functools
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from veritype.config.inline import PREFIX, parse_inline
from veritype.diagnostics.diagnostic import Diagnostic
from veritype.modules.finder import FoundModule, MissingModule, ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options
from veritype.semantic import symbols as S
from veritype.semantic.binder import Binder
from veritype.semantic.dead_branches import drop_dead_branches
from veritype.semantic.symbols import Symbol, SymbolTable
from veritype.syntax.parse import HeadParse, ParsedFile, parse_file, parse_source
from veritype.syntax.word_lines import NOWHERE

if TYPE_CHECKING:
    from veritype.evaluate.evaluator import Evaluator

_DECLARING: tuple[type[ast.AST], ...] = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.Import,
    ast.ImportFrom,
    *((ast.TypeAlias,) if hasattr(ast, "TypeAlias") else ()),
)

TYPING_MODULES = ("typing", "typing_extensions", "_typeshed", "typing._type_checking")


@dataclass(eq=False)
class ModuleInfo:
    """One loaded module: where it comes from, its tree and its bound names."""
    name: str
    path: str
    is_stub: bool
    is_package: bool
    origin: str  # "source" | "stdlib" | "site" | "stub-package" | "namespace"
    parsed: ParsedFile | None
    symbols: SymbolTable = field(default_factory=SymbolTable)
    checked: bool = False  # a file of this run (diagnostics are reported for it)
    binder: Binder | None = field(default=None, repr=False)  # see Program.binder_for

    @property
    def tree(self) -> ast.Module | None:
        return self.parsed.tree if self.parsed else None


class Program:
    def __init__(self, options: Options, finder: ModuleFinder) -> None:
        self.options = options
        self.finder = finder
        self.modules: dict[str, ModuleInfo | None] = {}
        self.sources: dict[str, BuildSource] = {}
        self.stats = {"modules_loaded": 0, "symbols_evaluated": 0}
        # module -> the lines of its source holding `:=`, and those holding
        # `yield` (see Binder): a textual test that spares walking
        # expressions for what cannot be there.
        self._source_facts: dict[str, tuple[list[int] | None, list[int] | None]] = {}
        # Trees a long-lived engine already holds for modules it will load
        # again with the same text (it forgot them after another's edit); a
        # one-shot run's, read or begun by its import walk (engine/followed_imports.py).
        self.parsed_ahead: dict[str, ParsedFile | HeadParse] = {}
        # The modules the run checks, marked `checked` as they load: a worker
        # process forked before loading them (engine/early_workers.py) loads
        # most while checking others, as a serial run has them all marked.
        self.checking: frozenset[str] = frozenset()
        # A one-shot check (engine/build.py): typeshed's stdlib stubs lose
        # their statically dead branches once bound (semantic/dead_branches.py).
        self.drop_dead_stub_branches = False

    @functools.cached_property
    def evaluator(self) -> "Evaluator":
        """Made on first use: a warm run (every result from the cache) needs
        none, nor the import of the evaluate stage it costs."""
        from veritype.evaluate.evaluator import Evaluator

        return Evaluator(self)

    # -- modules ------------------------------------------------------------

    def find(self, name: str) -> FoundModule | MissingModule:
        if name in self.sources:
            src = self.sources[name]
            return FoundModule(name, src.path, src.path.endswith(".pyi"), "source", os.path.basename(src.path).startswith("__init__."))
        found = self.finder.find(name)
        if isinstance(found, FoundModule) and not found.is_stub and not found.is_namespace:
            follow = self.options.for_module(name).follow_imports
            if follow in ("skip", "error"):
                return _not_followed(name, follow)
        return found

    def get_module(self, name: str) -> ModuleInfo | None:
        if name in self.modules:
            return self.modules[name]
        self.modules[name] = None  # guards against re-entry while loading
        found = self.find(name)
        if isinstance(found, MissingModule):
            return None
        ev = self.evaluator
        with ev.lazy_evaluation:  # (see Evaluator.lazy_depth)
            info = self._load(found)
        if name in self.checking:
            info.checked = True
        self.modules[name] = info
        return info

    def _load(self, found: FoundModule) -> ModuleInfo:
        self.stats["modules_loaded"] += 1
        if found.is_namespace:
            return ModuleInfo(found.name, found.path, False, True, "namespace", None)
        src = self.sources.get(found.name)
        parsed = self.parsed_ahead.pop(found.name, None)
        if parsed is not None and parsed.path == found.path and (src is None or src.text is None or src.text == parsed.source):
            if isinstance(parsed, HeadParse):
                parsed = parsed.whole()  # (syntax/parse.py)
        elif src is not None and src.text is not None:
            parsed = parse_source(src.path, src.text)
        else:
            parsed = parse_file(found.path)
        info = ModuleInfo(found.name, found.path, found.is_stub, found.is_package, found.origin, parsed)
        self._inline_config(info)
        if parsed.tree is not None:
            binder = self.binder_for(info)
            info.symbols = binder.bind_module(parsed.tree)
            if self.drop_dead_stub_branches and found.origin == "stdlib":
                drop_dead_branches(parsed.tree, binder)
        return info

    def _inline_config(self, info: ModuleInfo) -> None:
        """The module's own `# mypy:` comments (veritype/config/inline.py):
        per-module settings applied after the config's, and an error [misc]
        on each comment line that is not a valid setting."""
        inline = self.options.inline
        inline.pop(info.name, None)
        if info.parsed is None or info.is_stub or PREFIX not in info.parsed.source:
            return
        config = parse_inline(info.parsed.source)
        values = config.module_values(self.options.for_module(info.name))
        if values:
            inline[info.name] = values
        self.options.not_enforced.update(config.not_enforced)
        for line, message in config.errors:
            info.parsed.diagnostics.append(Diagnostic(info.path, line, 1, "error", message, "misc"))

    def binder_for(self, info: ModuleInfo) -> Binder:
        # A binder holds nothing but what it is made with (the module's facts
        # and options, fixed for a loaded module), so one serves every bind
        # and static condition of the module (19.6k were made on the bench
        # corpus, 529 modules). Kept on the module info, so that a module
        # loaded again gets its own.
        binder = info.binder
        if binder is None:
            binder = info.binder = self._new_binder(info)
        return binder

    def _new_binder(self, info: ModuleInfo) -> Binder:
        facts = self._source_facts.get(info.name)
        if facts is None:
            parsed = info.parsed
            # (No `:=` in the text: no line holds one, and no memo entry is kept for it.)
            facts = (None, None) if parsed is None else (parsed.word_lines(":=") if ":=" in parsed.source else NOWHERE,
                                                         parsed.word_lines("yield"))
            self._source_facts[info.name] = facts
        walrus_lines, yields = facts
        opts = self.options.for_module(info.name)
        always = (frozenset(opts.always_true), frozenset(opts.always_false)) if opts.always_true or opts.always_false else None
        return Binder(info.name, info.is_package, self.options.python_version, self.options.platform, info.is_stub, always, yields,
                      walrus_lines)

    # -- names --------------------------------------------------------------

    def lookup_in_module(self, module: ModuleInfo, name: str, *, from_import: bool = False, _seen: frozenset[str] = frozenset()) -> Symbol | None:
        """The symbol `module.name` as seen from outside the module."""
        sym = module.symbols.get(name)
        if sym is not None:
            if module.is_stub and from_import is False and not self._exported_from_stub(module, sym):
                sym = None
            if sym is not None:
                return sym
        if module.name in _seen:
            return None
        for star in module.symbols.star_imports:
            target = self.get_module(star)
            if target is None:
                continue
            inner = self.lookup_in_module(target, name, _seen=_seen | {module.name})
            if inner is not None and self._star_exported(target, name):
                return inner
        return None

    def _exported_from_stub(self, module: ModuleInfo, sym: Symbol) -> bool:
        # Stub rules (typing spec, "Import conventions"): imports are private
        # unless re-exported with `as` the same name, via __all__, or with
        # `from . import x` in a package.
        if sym.kind not in (S.MODULE_REF, S.FROM_IMPORT):
            return True
        if sym.explicit_reexport:
            return True
        all_names = module.symbols.all_names
        return all_names is not None and sym.name in all_names

    def hidden_reexport(self, module: ModuleInfo, name: str) -> bool:
        """mypy's `implicit_reexport = False` (--no-implicit-reexport, part of
        --strict) for the .py module `module`: a name it only imports is not
        exported unless imported `as` the same name, listed in `__all__`, or
        taken from its own package (`from . import x`). Looked up for the
        module that does the importing, as in mypy. A stub never re-exports
        implicitly (typing spec, "Import conventions"), whatever the option."""
        if not module.is_stub and self.options.for_module(module.name).implicit_reexport:
            return False
        sym = module.symbols.get(name)
        if sym is None or sym.kind not in (S.MODULE_REF, S.FROM_IMPORT) or sym.explicit_reexport:
            return False
        all_names = module.symbols.all_names
        if all_names is not None and name in all_names:
            return False
        # A submodule of a package is reachable as its attribute whatever the imports say.
        return not (module.is_package and isinstance(self.find(f"{module.name}.{name}"), FoundModule))

    def _star_exported(self, module: ModuleInfo, name: str) -> bool:
        all_names = module.symbols.all_names
        if all_names is not None:
            return name in all_names
        if name.startswith("_"):
            return False
        sym = module.symbols.get(name)
        if sym is not None and module.is_stub and sym.kind in (S.MODULE_REF, S.FROM_IMPORT):
            return sym.explicit_reexport
        return not self.hidden_reexport(module, name)

    def builtins(self) -> ModuleInfo:
        mod = self.get_module("builtins")
        assert mod is not None, "typeshed builtins.pyi not found"
        return mod

    def lookup_qualified(self, fullname: str) -> Symbol | None:
        """`typing.Sequence` -> the Symbol, following the longest module prefix."""
        parts = fullname.split(".")
        for i in range(len(parts) - 1, 0, -1):
            mod = self.get_module(".".join(parts[:i]))
            if mod is None:
                continue
            sym: Symbol | None = None
            scope = mod.symbols
            for j, part in enumerate(parts[i:]):
                sym = scope.get(part) if j else self.lookup_in_module(mod, part, from_import=True)
                if sym is None:
                    break
                if sym.kind == S.CLASS and j < len(parts) - i - 1:
                    scope = self.evaluator.class_info_of(sym, mod).symbols
            if sym is not None:
                return sym
        return None

    # -- statistics (--stats) ------------------------------------------------

    def statistics(self) -> dict[str, int]:
        """What this run touched: modules loaded (parsed and bound), symbols
        whose type was evaluated (the evaluator's Symbol.cache misses), and
        the declaring statements in the loaded modules' sources (def, class,
        assignments, imports, `type` statements, at any depth) - the work
        there was to do, next to the part of it that was done. Counted only
        when asked, by one walk over the loaded trees."""
        declarations = 0
        for info in self.modules.values():
            if info is not None and info.tree is not None:
                declarations += sum(1 for node in ast.walk(info.tree) if isinstance(node, _DECLARING))
        return {**self.stats, "declarations": declarations}


def _not_followed(name: str, follow: str) -> MissingModule:
    """mypy's `follow_imports = skip | error` for a .py module not among the
    sources: it is not read, its names are Any; `error` also reports the
    import (stubs are always followed, as in mypy)."""
    if follow == "skip":
        return MissingModule(name, "misc", "", ignored=True)
    return MissingModule(
        name,
        "misc",
        f'Import of "{name}" ignored',
        ("(Using --follow-imports=error, module not passed on command line)",),
    )
