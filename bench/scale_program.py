"""A generated program of any size, for measuring how checking scales (issue #15).

`generate(root, lines, seed)` writes the package `scaleprog` under `root`:
about `lines` lines in `lines // 500` modules (2,000 modules at 1M lines),
grouped 50 to a subpackage. Each module imports names from a few earlier
modules (a widely imported core, near neighbours, one module anywhere),
and every tenth module is in an import cycle with the next (through
`if TYPE_CHECKING:`), as real programs are. Its body is made of units
taken in turn: generic classes, subclasses of an imported generic base
with overrides and `super()` calls, dataclasses, protocols with a class that
meets them structurally, functions with loops, comprehensions, narrowing
and calls into the imported modules. One module in three holds one
deliberate error, of a kind taken in turn (`assignment`, `arg-type`,
`attr-defined`, `return-value`, `call-arg`, `union-attr`), and its line is
recorded: both checkers are expected to report exactly those lines.

Everything is decided by `random.Random(seed)`: the same seed and size give
the same program byte for byte.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "scaleprog"
LINES_PER_MODULE = 500
MODULES_PER_PACKAGE = 50
#: The first modules form the core that many others import.
CORE = 20
ERROR_KINDS = ("assignment", "arg-type", "attr-defined", "return-value", "call-arg", "union-attr")


@dataclass
class Program:
    """What `generate` wrote."""

    root: Path
    modules: int
    lines: int
    #: (path relative to root, line, error code) of each deliberate error.
    errors: list[tuple[str, int, str]] = field(default_factory=list)


def module_name(i: int) -> str:
    return f"{PACKAGE}.p{i // MODULES_PER_PACKAGE:03d}.m{i:04d}"


def module_path(i: int) -> str:
    return module_name(i).replace(".", "/") + ".py"


class _Module:
    """The text of one module, built unit by unit."""

    def __init__(self, i: int, deps: list[int], cycle_with: int | None) -> None:
        self.i = i
        self.deps = deps
        self.cycle_with = cycle_with
        self.lines: list[str] = []
        self.errors: list[tuple[int, str]] = []

    def add(self, block: str) -> None:
        self.lines.extend(block.strip("\n").split("\n"))
        self.lines.extend(["", ""])

    def error(self, kind: str, block: str) -> None:
        """Add `block`, whose line marked `# ERR` holds the error `kind`."""
        start = len(self.lines)
        self.add(block)
        for n in range(start, len(self.lines)):
            if self.lines[n].endswith("  # ERR"):
                self.lines[n] = self.lines[n][: -len("  # ERR")]
                self.errors.append((n + 1, kind))


def _header(m: _Module) -> str:
    i = m.i
    out = [f'"""Generated module {i} of the scale program."""', "",
           "from __future__ import annotations", "",
           "import dataclasses",
           "from collections.abc import Callable, Iterable, Iterator, Sequence",
           "from typing import TYPE_CHECKING, Final, Generic, Protocol, TypeVar", ""]
    for j in m.deps:
        out.append(f"from {module_name(j)} import Base{j}, Record{j}, make{j}, total{j}")
    if m.cycle_with is not None:
        out += ["", "if TYPE_CHECKING:",
                f"    from {module_name(m.cycle_with)} import Base{m.cycle_with}"]
    out += ["", 'T = TypeVar("T")', 'K = TypeVar("K")', 'V = TypeVar("V")', "",
            f"LIMIT{i}: Final = {i % 97 + 3}"]
    return "\n".join(out)


def _core(m: _Module) -> str:
    """What every module exports: a generic base, a record, two functions."""
    i = m.i
    peer = ""
    if m.cycle_with is not None:
        peer = f"""

    def pair(self, other: Base{m.cycle_with}[T]) -> tuple[T, T]:
        return (self.value, other.get())"""
    return f'''
class Base{i}(Generic[T]):
    """The module's exported generic class."""

    def __init__(self, value: T, tag: str) -> None:
        self.value = value
        self.tag = tag
        self.seen: list[T] = []

    def get(self) -> T:
        return self.value

    def put(self, value: T) -> None:
        self.seen.append(self.value)
        self.value = value

    def describe(self) -> str:
        return f"{{self.tag}}:{{self.value!r}} after {{len(self.seen)}}"

    def apply(self, f: Callable[[T], V]) -> Base{i}[V]:
        return Base{i}(f(self.value), self.tag){peer}


@dataclasses.dataclass
class Record{i}:
    name: str
    size: int
    parts: list[str] = dataclasses.field(default_factory=list)

    def weight(self) -> float:
        return self.size * 1.5 + len(self.parts)


def make{i}(n: int) -> Base{i}[int]:
    return Base{i}(n + LIMIT{i}, "m{i}")


def total{i}(items: Sequence[Base{i}[int]]) -> int:
    return sum(item.get() for item in items)
'''


def _generic_class(m: _Module, u: int, rng: random.Random) -> str:
    i = m.i
    return f'''
class Stack{i}_{u}(Generic[T]):
    def __init__(self) -> None:
        self.items: list[T] = []

    def push(self, item: T) -> Stack{i}_{u}[T]:
        self.items.append(item)
        return self

    def pop(self) -> T | None:
        if not self.items:
            return None
        return self.items.pop()

    def peek_or(self, default: T) -> T:
        top = self.items[-1] if self.items else None
        if top is None:
            return default
        return top

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def use_stack{i}_{u}(values: Iterable[int]) -> int:
    stack: Stack{i}_{u}[int] = Stack{i}_{u}()
    for v in values:
        stack.push(v * {rng.randint(2, 9)})
    top = stack.pop()
    return (top or 0) + stack.peek_or({rng.randint(0, 99)}) + len(stack)
'''


def _subclass(m: _Module, u: int, rng: random.Random) -> str:
    i = m.i
    j = rng.choice(m.deps) if m.deps else i
    return f'''
class Derived{i}_{u}(Base{j}[str]):
    def __init__(self, value: str, level: int = 0) -> None:
        super().__init__(value, "d{i}_{u}")
        self.level = level

    def describe(self) -> str:
        base = super().describe()
        return base + "/" + str(self.level)

    def grow(self, by: int) -> Derived{i}_{u}:
        self.put(self.get() + "x" * by)
        self.level += by
        return self


def chain{i}_{u}(n: int) -> list[str]:
    d = Derived{i}_{u}("start", n)
    out = [d.grow(k).describe() for k in range(n)]
    lengths = d.apply(len)
    out.append(str(lengths.get() + make{j}(n).get()))
    return out
'''


def _dataclass(m: _Module, u: int, rng: random.Random) -> str:
    i = m.i
    j = rng.choice(m.deps) if m.deps else i
    return f'''
@dataclasses.dataclass(frozen=True)
class Point{i}_{u}:
    x: int
    y: int
    label: str = "p"

    def moved(self, dx: int, dy: int) -> Point{i}_{u}:
        return dataclasses.replace(self, x=self.x + dx, y=self.y + dy)

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


def records{i}_{u}(points: Sequence[Point{i}_{u}]) -> list[Record{j}]:
    result: list[Record{j}] = []
    for p in points:
        rec = Record{j}(p.label, p.norm1())
        rec.parts.extend(str(c) for c in (p.x, p.y))
        result.append(rec)
    by_name = {{r.name: r.weight() for r in result}}
    return [r for r in result if by_name.get(r.name, 0.0) > {rng.randint(1, 50)}]
'''


def _protocol(m: _Module, u: int, rng: random.Random) -> str:
    i = m.i
    return f'''
class Sized{i}_{u}(Protocol):
    def size(self) -> int: ...

    def name(self) -> str: ...


class Box{i}_{u}:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def size(self) -> int:
        return self.width * self.height

    def name(self) -> str:
        return f"box{{self.width}}x{{self.height}}"


def largest{i}_{u}(things: Iterable[Sized{i}_{u}]) -> str | None:
    best: Sized{i}_{u} | None = None
    for t in things:
        if best is None or t.size() > best.size():
            best = t
    return best.name() if best is not None else None


def boxes{i}_{u}(n: int) -> str:
    found = largest{i}_{u}(Box{i}_{u}(k, {rng.randint(1, 9)}) for k in range(n))
    return found if found is not None else ""
'''


def _functions(m: _Module, u: int, rng: random.Random) -> str:
    i = m.i
    j = rng.choice(m.deps) if m.deps else i
    k = rng.choice(m.deps) if m.deps else i
    return f'''
def group{i}_{u}(pairs: Iterable[tuple[K, V]]) -> dict[K, list[V]]:
    out: dict[K, list[V]] = {{}}
    for key, value in pairs:
        out.setdefault(key, []).append(value)
    return out


def mixed{i}_{u}(values: list[int | str | None]) -> tuple[int, str]:
    count = 0
    text = ""
    for v in values:
        if v is None:
            continue
        if isinstance(v, int):
            count += v
        else:
            text += v.upper()
    return count, text


def compute{i}_{u}(n: int) -> int:
    bases = [make{j}(x) for x in range(n)]
    groups = group{i}_{u}((b.get() % 3, b) for b in bases)
    acc = total{j}(bases) + total{k}([make{k}(n)])
    for key in sorted(groups):
        acc += key * len(groups[key])
    count, text = mixed{i}_{u}([n, str(n), None, {rng.randint(0, 99)}])
    return acc + count + len(text)
'''


def _error(m: _Module, u: int, rng: random.Random, kind: str) -> None:
    i = m.i
    body = {
        "assignment": f'''
def wrong{i}_{u}() -> int:
    value: int = "not a number"  # ERR
    return value''',
        "arg-type": f'''
def wrong{i}_{u}() -> int:
    return make{i}("seven").get()  # ERR''',
        "attr-defined": f'''
def wrong{i}_{u}(r: Record{i}) -> int:
    return r.volume  # ERR''',
        "return-value": f'''
def wrong{i}_{u}(b: Base{i}[int]) -> str:
    return b.get()  # ERR''',
        "call-arg": f'''
def wrong{i}_{u}() -> float:
    return Record{i}("r", 1, [], 4).weight()  # ERR''',
        "union-attr": f'''
def wrong{i}_{u}(s: str | None) -> str:
    return s.strip()  # ERR''',
    }[kind]
    m.error(kind, body)


UNITS = (_generic_class, _subclass, _dataclass, _protocol, _functions)


def _module_text(m: _Module, target: int, rng: random.Random, error_kind: str | None) -> str:
    m.add(_header(m))
    m.add(_core(m))
    u = 0
    error_at = rng.randrange(3) if error_kind else -1
    while len(m.lines) < target:
        if u == error_at and error_kind:
            _error(m, u, rng, error_kind)
        m.add(UNITS[(m.i + u) % len(UNITS)](m, u, rng))
        u += 1
    while m.lines and m.lines[-1] == "":
        m.lines.pop()
    return "\n".join(m.lines) + "\n"


def _deps(i: int, rng: random.Random) -> list[int]:
    """Earlier modules that module `i` imports from (the import graph is a DAG
    apart from the cycles `generate` adds)."""
    if i == 0:
        return []
    chosen = {rng.randrange(min(i, CORE))}
    for _ in range(2):
        chosen.add(rng.randrange(max(0, i - 50), i))
    chosen.add(rng.randrange(i))
    return sorted(chosen)


def generate(root: Path, lines: int, seed: int = 0) -> Program:
    """Write a program of about `lines` lines under `root` (emptied first)."""
    rng = random.Random(seed)
    n_modules = max(2, lines // LINES_PER_MODULE)
    target = lines // n_modules
    shutil.rmtree(root / PACKAGE, ignore_errors=True)
    program = Program(root, n_modules, 0)
    for p in range(0, n_modules, MODULES_PER_PACKAGE):
        pkg = root / PACKAGE / f"p{p // MODULES_PER_PACKAGE:03d}"
        pkg.mkdir(parents=True, exist_ok=True)
        (pkg / "__init__.py").write_text("")
    (root / PACKAGE / "__init__.py").write_text("")
    for i in range(n_modules):
        # A cycle: module i (i % 10 == 0) names module i + 1's class in a
        # TYPE_CHECKING import, and module i + 1 imports module i.
        cycle_with = i + 1 if i % 10 == 0 and i + 1 < n_modules else None
        deps = _deps(i, rng)
        if i % 10 == 1 and i - 1 not in deps:
            deps = sorted([*deps, i - 1])
        kind = ERROR_KINDS[(i // 3) % len(ERROR_KINDS)] if i % 3 == 2 else None
        m = _Module(i, deps, cycle_with)
        text = _module_text(m, target, rng, kind)
        path = root / module_path(i)
        path.write_text(text)
        program.lines += text.count("\n")
        program.errors += [(module_path(i), line, code) for line, code in m.errors]
    return program
