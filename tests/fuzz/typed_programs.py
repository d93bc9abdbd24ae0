"""A hypothesis strategy for typed programs that exercise the type system.

A program is a sequence of fragments, each drawn from a family (generics,
overloads, protocols, TypedDict, ParamSpec, recursive aliases, match, type
comments, lambdas and comprehensions, nested calls), with its names, types and
literals drawn too, and uses of earlier fragments mixed in. Programs need not
be correct: the checker must end without an internal error either way.
"""

from __future__ import annotations

from hypothesis import strategies as st

TYPES = ["int", "str", "bytes", "float", "bool", "None", "list[int]", "dict[str, int]", "tuple[int, str]",
         "int | None", "tuple[int, ...]", "object", "type[int]", "Callable[[int], str]", "Any", "Literal[1, 'a']",
         "Sequence[T]", "T", "list[T]", "Iterable[str]", "Mapping[str, T]"]
VALUES = ["0", "1", "'a'", "b''", "1.5", "True", "None", "[1, 2]", "{'k': 1}", "(1, 'a')", "[]", "{}", "()",
          "lambda x: x", "[i for i in range(3)]", "{k: v for k, v in {}.items()}", "(x for x in [1])", "...",
          "len('abc')", "max(1, 2)", "abs(-1)", "sorted([3, 1])", "dict(zip(['a'], [1]))", "f'{1}'", "not 1",
          "1 if True else 'a'", "[*range(2)]", "{**{}}"]

HEADER = """from __future__ import annotations
import dataclasses
import enum
from typing import (Any, Callable, Generic, Iterable, Literal, Mapping, NamedTuple, NewType, ParamSpec,
    Protocol, Sequence, TypedDict, TypeVar, overload)
T = TypeVar("T")
K = TypeVar("K", bound=str)
P = ParamSpec("P")
"""


@st.composite
def _generic_class(draw: st.DrawFn, n: int) -> str:
    t, v = draw(st.sampled_from(TYPES)), draw(st.sampled_from(VALUES))
    return (f"class Box{n}(Generic[T]):\n    def __init__(self, item: T) -> None:\n        self.item = item\n"
            f"    def get(self) -> T:\n        return self.item\n"
            f"    def map(self, f: Callable[[T], K]) -> Box{n}[K]:\n        return Box{n}(f(self.item))\n"
            f"b{n}: Box{n}[{t}] = Box{n}({v})\nreveal_type(b{n}.get())\n")


@st.composite
def _overload(draw: st.DrawFn, n: int) -> str:
    a, b = draw(st.sampled_from(TYPES)), draw(st.sampled_from(TYPES))
    depth = draw(st.integers(1, 8))
    v = draw(st.sampled_from(VALUES))
    return (f"@overload\ndef ov{n}(x: {a}) -> {a}: ...\n@overload\ndef ov{n}(x: {b}, y: int = 0) -> {b}: ...\n"
            f"def ov{n}(x: Any, y: int = 0) -> Any:\n    return x\n"
            f"r{n} = " + f"ov{n}(" * depth + v + ")" * depth + "\n")


@st.composite
def _protocol(draw: st.DrawFn, n: int) -> str:
    t = draw(st.sampled_from(TYPES))
    member = draw(st.sampled_from(["def meth(self) -> {t}: ...", "attr: {t}", "@property\n    def prop(self) -> {t}: ..."]))
    impl = draw(st.sampled_from(["def meth(self) -> {t}:\n        raise ValueError", "attr: {t}", "x: int = 0"]))
    return (f"class Proto{n}(Protocol):\n    " + member.format(t=t) + "\n"
            f"class Impl{n}:\n    " + impl.format(t=t) + "\n"
            f"def use{n}(p: Proto{n}) -> None: ...\nuse{n}(Impl{n}())\n")


@st.composite
def _typeddict(draw: st.DrawFn, n: int) -> str:
    t = draw(st.sampled_from(TYPES))
    total = draw(st.booleans())
    v = draw(st.sampled_from(VALUES))
    key = draw(st.sampled_from(["'a'", "'b'", "'c'"]))
    return (f"class TD{n}(TypedDict, total={total}):\n    a: {t}\n    b: int\n"
            f"td{n}: TD{n} = {{'a': {v}, 'b': 1}}\nreveal_type(td{n}[{key}])\ntd{n}.get({key})\n")


@st.composite
def _paramspec(draw: st.DrawFn, n: int) -> str:
    t = draw(st.sampled_from(TYPES))
    v = draw(st.sampled_from(VALUES))
    return (f"def deco{n}(f: Callable[P, T]) -> Callable[P, list[T]]:\n"
            f"    def inner(*args: P.args, **kwargs: P.kwargs) -> list[T]:\n        return [f(*args, **kwargs)]\n"
            f"    return inner\n@deco{n}\ndef g{n}(a: {t}, *, b: int = 1) -> {t}:\n    return a\n"
            f"reveal_type(g{n}({v}, b=2))\n")


@st.composite
def _alias(draw: st.DrawFn, n: int) -> str:
    v = draw(st.sampled_from(VALUES))
    form = draw(st.sampled_from([f"Json{n} = int | str | list['Json{n}'] | dict[str, 'Json{n}']",
                                 f"Tree{n} = tuple[int, list['Tree{n}']]", f"A{n} = list[int]",
                                 f"B{n} = 'list[B{n}]'"]))
    name = form.split(" ")[0]
    return f"{form}\nv{n}: {name} = {v}\n"


@st.composite
def _match(draw: st.DrawFn, n: int) -> str:
    t = draw(st.sampled_from(TYPES))
    pats = draw(st.lists(st.sampled_from(["int()", "str(s)", "[a, *rest]", "{'k': v}", "(1 | 2)", "None",
                                           "Box0(item=i)", "_", "x if x", "[]", "{**kw}"]), min_size=1, max_size=5))
    body = "".join(f"        case {p}:\n            pass\n" for p in pats)
    return f"def m{n}(x: {t}) -> None:\n    match x:\n{body}"


@st.composite
def _type_comment(draw: st.DrawFn, n: int) -> str:
    t, u = draw(st.sampled_from(TYPES)), draw(st.sampled_from(TYPES))
    v = draw(st.sampled_from(VALUES))
    return (f"tc{n} = {v}  # type: {t}\n"
            f"def fc{n}(a, b=None):\n    # type: ({t}, {u}) -> {u}\n    return b\n")


@st.composite
def _nested(draw: st.DrawFn, n: int) -> str:
    depth = draw(st.integers(1, 30))
    inner = draw(st.sampled_from(VALUES))
    fn = draw(st.sampled_from(["list", "tuple", "max", "abs", "sorted", "str", "id", "len", "iter", "set"]))
    wrap = draw(st.sampled_from(["{fn}(", "[", "(", "[{fn}(", "{{'k': "]))
    close = {"{fn}(": ")", "[": "]", "(": ",)", "[{fn}(": ")]", "{{'k': ": "}"}[wrap]
    return f"n{n} = " + wrap.format(fn=fn) * depth + inner + close * depth + "\n"


@st.composite
def _misc(draw: st.DrawFn, n: int) -> str:
    t = draw(st.sampled_from(TYPES))
    v = draw(st.sampled_from(VALUES))
    return draw(st.sampled_from([
        f"U{n} = NewType('U{n}', int)\nu{n} = U{n}({v})\n",
        f"class E{n}(enum.Enum):\n    A = 1\n    B = {v}\nreveal_type(E{n}.A.value)\n",
        f"@dataclasses.dataclass\nclass D{n}:\n    x: {t}\n    y: int = 0\nD{n}({v})\n",
        f"class NT{n}(NamedTuple):\n    a: {t}\n    b: int = 1\nNT{n}({v})[0]\n",
        f"async def co{n}(x: {t}) -> {t}:\n    return x\nasync def run{n}() -> None:\n    await co{n}({v})\n",
        f"def gen{n}() -> Iterable[{t}]:\n    yield {v}\n    yield from [{v}]\n",
        f"x{n}: {t} = {v}\nif isinstance(x{n}, int):\n    reveal_type(x{n})\nelif x{n}:\n    pass\n",
        f"l{n} = [(lambda q: q)({v}) for _ in range(2) if _]\nreveal_type(l{n})\n",
        f"def f{n}[V](x: V) -> V:\n    return x\ntype Al{n}[V] = list[V]\n",
    ]))


FAMILIES = [_generic_class, _overload, _protocol, _typeddict, _paramspec, _alias, _match, _type_comment, _nested, _misc]


@st.composite
def typed_programs(draw: st.DrawFn) -> str:
    count = draw(st.integers(1, 6))
    parts = [HEADER]
    for n in range(count):
        family = draw(st.sampled_from(FAMILIES))
        parts.append(draw(family(n)))
    if draw(st.booleans()):
        # Indent the whole program into a function body: the same code in a local scope.
        body = "".join(parts[1:])
        parts = [HEADER, "def wrapper() -> None:\n" + "".join("    " + line + "\n" for line in body.splitlines())]
    return "".join(parts)
