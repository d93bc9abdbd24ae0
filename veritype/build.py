"""Run one check: parse the sources, bind them, check them, collect diagnostics.

This is the pipeline of DESIGN.md end to end. Drivers (cli, tests, server)
call `run`; nothing here prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from veritype.diagnostics.diagnostic import Diagnostic
from veritype.modules.finder import ModuleFinder
from veritype.modules.sources import BuildSource
from veritype.options import Options


@dataclass
class BuildResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0


def run(sources: list[BuildSource], options: Options) -> BuildResult:
    from veritype.evaluate.program import Program

    roots = [s.base_dir for s in sources]
    finder = ModuleFinder(options, roots)
    program = Program(options, finder)
    return program.check_sources(sources)
