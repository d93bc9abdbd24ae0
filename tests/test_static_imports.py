"""cache/fingerprint.py's static_imports: every import of a tree, found by
the lines holding the word `import` as by the walk of every statement."""

from __future__ import annotations

import ast
import textwrap

from veritype.cache.fingerprint import static_imports
from veritype.syntax.word_lines import word_lines

SOURCE = textwrap.dedent(
    """
    import a.b.c; x = 1; import d as e
    from . import sibling
    from .. import up
    from .pkg.mod import name, other
    from typing import TYPE_CHECKING
    if TYPE_CHECKING:
        import checking_only
    else:
        from runtime import thing
    @decorator(import_word="import")
    def f():
        try:
            pass
        except ImportError:
            from fallback import *
        finally:
            import in_finally
    class C:
        def m(self):
            match v:
                case [x]:
                    import in_case
            for y in z:
                pass
            else:
                import in_loop_else
    y = (
        1)
    z = 2
    """
)


def test_the_imports_everywhere_resolved() -> None:
    tree = ast.parse(SOURCE)
    names, bound = static_imports(tree, "top.pkg.here", False, word_lines(SOURCE, "import"))
    assert names == {
        "a", "a.b", "a.b.c", "d", "top", "top.pkg", "top.pkg.sibling", "top.up",
        "top.pkg.pkg", "top.pkg.pkg.mod", "top.pkg.pkg.mod.name", "top.pkg.pkg.mod.other",
        "typing", "typing.TYPE_CHECKING", "checking_only", "runtime", "runtime.thing",
        "fallback", "in_finally", "in_case", "in_loop_else",
    }
    assert bound == {
        "a", "d", "top.pkg.sibling", "top.up", "top.pkg.pkg.mod.name", "top.pkg.pkg.mod.other",
        "typing.TYPE_CHECKING", "checking_only", "runtime.thing", "fallback", "in_finally",
        "in_case", "in_loop_else",
    }


def test_with_the_lines_as_without() -> None:
    tree = ast.parse(SOURCE)
    lines = word_lines(SOURCE, "import")
    assert lines is not None
    assert static_imports(tree, "top.pkg.here", False, lines) == static_imports(tree, "top.pkg.here", False, None)
    # Lines that name no import statement change nothing; no lines, no import found.
    assert static_imports(tree, "m", True, sorted({*lines, 41, 42})) == static_imports(tree, "m", True, None)
    assert static_imports(tree, "m", True, []) == (set(), set())
