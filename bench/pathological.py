"""Pathological but legal inputs, and how checking time grows with their size.

Each shape is a generator `size -> source text`. `python bench/pathological.py`
checks each shape at growing sizes (one process per run, with a hang guard)
and prints wall seconds, CPU seconds and peak resident memory (MiB) per size,
so that growth can be read off: linear is the goal (issue #19). `--shape NAME` runs one shape; `--sizes 10,20,40` sets the
sizes; `--timeout S` bounds each run. The shapes are also used by
tests/fuzz/test_pathological.py at moderate sizes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable


def nested_call(n: int) -> str:
    """`f(f(f(...)))` with a plain function."""
    return "def f(x: int) -> int:\n    return x\n\ny = " + "f(" * n + "1" + ")" * n + "\n"


def nested_builtin_overload(n: int) -> str:
    """`max(max(...))` and `abs(abs(...))`: overloaded builtins."""
    return (
        "a = " + "max(" * n + "1, 2" + ", 3)" * n + "\n"
        "b = " + "abs(" * n + "-1" + ")" * n + "\n"
    )


def nested_user_overload(n: int) -> str:
    """Nested calls of a user-defined overload."""
    return (
        "from typing import overload\n"
        "@overload\n"
        "def g(x: int) -> int: ...\n"
        "@overload\n"
        "def g(x: str) -> str: ...\n"
        "def g(x: int | str) -> int | str:\n"
        "    return x\n"
        "y = " + "g(" * n + "1" + ")" * n + "\n"
    )


def nested_generic(n: int) -> str:
    """Nested calls of a generic function, and a list display of them."""
    return (
        "from typing import TypeVar\n"
        "T = TypeVar('T')\n"
        "def ident(x: T) -> T:\n"
        "    return x\n"
        "def box(x: T) -> list[T]:\n"
        "    return [x]\n"
        "y = " + "ident(" * n + "1" + ")" * n + "\n"
        "z = [" + "box(" * n + "1" + ")" * n + "]\n"
    )


def nested_containers(n: int) -> str:
    """Nested list displays and dict(zip(map(...))) chains."""
    return (
        "a = " + "[" * n + "1" + "]" * n + "\n"
        "b = " + "(" * n + "1" + ",)" * n + "\n"
        "c = " + "list(" * n + "[1]" + ")" * n + "\n"
    )


def nested_tuple_merged(n: int) -> str:
    """A tuple nested n deep in a function, its type merged after an `if`."""
    return (
        "import sys\ndef f() -> None:\n    t = " + "(" * n + "1.5" + ",)" * n + "\n"
        "    if len(sys.argv) > 1:\n        t = t\n    u = [t, t]\n"
    )


def nested_binop(n: int) -> str:
    """A long chain of binary operators (left-nested in the AST)."""
    return "x = 1" + " + 1" * n + "\ny = 'a'" + " + 'b'" * n + "\n"


def diamond(n: int) -> str:
    """A wide diamond hierarchy: n classes each deriving from all earlier ones' top."""
    lines = ["class A0: pass"]
    for i in range(1, n):
        lines.append(f"class A{i}(A{i - 1}, A0): pass" if i > 1 else "class A1(A0): pass")
    # Then a layered diamond: every layer derives from the two classes of the layer below.
    lines.append("class L0a: pass\nclass L0b: pass")
    for i in range(1, n):
        lines.append(f"class L{i}a(L{i - 1}a, L{i - 1}b): pass")
        lines.append(f"class L{i}b(L{i - 1}b, L{i - 1}a): pass" if False else f"class L{i}b(L{i - 1}a, L{i - 1}b): pass")
    lines.append(f"x: L0a = L{n - 1}a()")
    lines.append(f"y: A0 = A{n - 1}()")
    return "\n".join(lines) + "\n"


def class_chain(n: int) -> str:
    """A linear chain of n classes; the last must be a subtype of the first."""
    lines = ["class C0:\n    def m(self) -> int:\n        return 0"]
    lines += [f"class C{i}(C{i - 1}): pass" for i in range(1, n)]
    lines.append(f"x: C0 = C{n - 1}()\ny: int = C{n - 1}().m()")
    return "\n".join(lines) + "\n"


def assignments(n: int) -> str:
    """`x0 = 0 ... xN = xN-1 + 1` at module level."""
    return "x0 = 0\n" + "".join(f"x{i} = x{i - 1} + 1\n" for i in range(1, n))


def annotated_assignments(n: int) -> str:
    """`x0: int = 0 ...` at module level."""
    return "".join(f"x{i}: int = {i}\n" for i in range(n))


def elif_chain(n: int) -> str:
    """An if/elif chain of n branches at module level."""
    out = ["import sys", "v = len(sys.argv)", "if v == 0:", "    r = 0"]
    for i in range(1, n):
        out += [f"elif v == {i}:", f"    r = {i}"]
    out += ["else:", "    r = -1", "reveal_type(r)"]
    return "\n".join(out) + "\n"


def nested_if(n: int) -> str:
    """Statements nested n blocks deep (if inside if inside ...)."""
    out = ["x = 1"]
    for i in range(n):
        out.append("    " * i + f"if x > {i}:")
    out.append("    " * n + "x = 2")
    return "\n".join(out) + "\n"


def nested_functions(n: int) -> str:
    """Functions nested n deep."""
    out = []
    for i in range(n):
        out.append("    " * i + f"def f{i}(a: int) -> int:")
    out.append("    " * n + "return a")
    for i in range(n - 1, 0, -1):
        out.append("    " * i + f"return f{i}(a)")
    return "\n".join(out) + "\n"


def string_annotation(n: int) -> str:
    """A string annotation nesting list[...] n deep."""
    return "x: '" + "list[" * n + "int" + "]" * n + "' = []\n"


def long_union(n: int) -> str:
    """A union of n literal types, and narrowing over it."""
    lits = ", ".join(str(i) for i in range(n))
    return (
        "from typing import Literal\n"
        f"def f(x: Literal[{lits}]) -> None:\n"
        "    if x == 0:\n        pass\n"
        "    elif x == 1:\n        pass\n"
    )


SHAPES: dict[str, Callable[[int], str]] = {
    "nested_call": nested_call,
    "nested_builtin_overload": nested_builtin_overload,
    "nested_user_overload": nested_user_overload,
    "nested_generic": nested_generic,
    "nested_containers": nested_containers,
    "nested_tuple_merged": nested_tuple_merged,
    "nested_binop": nested_binop,
    "diamond": diamond,
    "class_chain": class_chain,
    "assignments": assignments,
    "annotated_assignments": annotated_assignments,
    "elif_chain": elif_chain,
    "nested_if": nested_if,
    "nested_functions": nested_functions,
    "string_annotation": string_annotation,
    "long_union": long_union,
}

DEFAULT_SIZES: dict[str, list[int]] = {
    "nested_call": [25, 50, 100, 200],
    "nested_builtin_overload": [3, 6, 12, 24],
    "nested_user_overload": [3, 6, 12, 24],
    "nested_generic": [8, 15, 30, 60],
    "nested_containers": [25, 50, 100, 200],
    "nested_tuple_merged": [10, 20, 40, 80],
    "nested_binop": [250, 500, 1000, 2000],
    "diamond": [10, 20, 40, 80],
    "class_chain": [25, 50, 100, 200],
    "assignments": [1250, 2500, 5000, 10000],
    "annotated_assignments": [1250, 2500, 5000, 10000],
    "elif_chain": [125, 250, 500, 1000],
    "nested_if": [10, 25, 50, 90],
    "nested_functions": [10, 25, 50, 90],
    "string_annotation": [10, 25, 50, 100],
    "long_union": [50, 100, 200, 400],
}


def run_one(source: str, timeout: float) -> tuple[float | None, int, str, int, float]:
    """Check `source` in a fresh process: (seconds or None on timeout, exit
    status, last output line, peak resident MiB, CPU seconds of the process).
    On a loaded machine the CPU time is the figure to compare."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.py")
        with open(path, "w") as f:
            f.write(source)
        log = os.path.join(tmp, "out.txt")
        cmd = [sys.executable, "-m", "veritype", "check", "--no-incremental", path]
        start = time.perf_counter()
        with open(log, "w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=tmp)
        # wait4 rather than Popen.wait: it gives the child's own peak RSS.
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout:
                proc.kill()
                os.wait4(proc.pid, 0)
                return None, -1, "", 0, 0.0
            time.sleep(0.02)
        elapsed = time.perf_counter() - start
        with open(log) as f:
            lines = f.read().strip().splitlines()
        tail = lines[-1] if lines else ""
        return elapsed, os.waitstatus_to_exitcode(status), tail, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--shape", action="append", help="shape name (repeatable); default all")
    ap.add_argument("--sizes", help="comma-separated sizes (overrides the defaults)")
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args(argv)
    names = args.shape or list(SHAPES)
    for name in names:
        sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else DEFAULT_SIZES[name]
        cells = []
        for size in sizes:
            secs, status, tail, rss, cpu = run_one(SHAPES[name](size), args.timeout)
            cell = f"{size}: " + (f">{args.timeout:.0f}s" if secs is None else f"{secs:.2f}s (cpu {cpu:.2f}s) {rss}MiB")
            if secs is not None and (status not in (0, 1) or "internal error" in tail.lower() or "Traceback" in tail):
                cell += f" [exit {status}: {tail[:80]}]"
            cells.append(cell)
            if secs is None:
                break
        print(f"{name:24} " + "  ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
