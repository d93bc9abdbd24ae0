"""One short example per error code, for the error-code page.

Each example is (flags, source): the source, checked with those flags,
reports the code on the line marked `# E`. docs/error_codes.md is generated
from these (veritype.diagnostics.codes_doc), and tests/test_error_codes_doc.py
checks every example of an implemented code really reports it, so the page
cannot show an example veritype does not flag.
"""

from __future__ import annotations

EXAMPLES: dict[str, tuple[tuple[str, ...], str]] = {
    "syntax": ((), "def f(:  # E\n    pass\n"),
    "import": ((), "import nosuchmodule  # E\n"),
    "import-not-found": ((), "import nosuchmodule  # E\n"),
    "import-untyped": ((), "import an_installed_package_without_types  # E (one that is installed)\n"),
    "attr-defined": ((), "class Account:\n    balance: int = 0\n\nAccount().balanse  # E\n"),
    "union-attr": ((), "def f(x: int | None) -> None:\n    x.bit_length()  # E\n"),
    "name-defined": ((), "print(undefined_name)  # E\n"),
    "call-arg": ((), "def f(x: int) -> None: ...\n\nf(1, 2)  # E\n"),
    "arg-type": ((), 'def f(x: int) -> None: ...\n\nf("one")  # E\n'),
    "call-overload": (
        (),
        "from typing import overload\n\n@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\n"
        "def f(x: int | str) -> int | str:\n    return x\n\nf(b\"bytes\")  # E\n",
    ),
    "valid-type": ((), "x = 1\n\ndef f(a: x) -> None: ...  # E\n"),
    "valid-newtype": ((), 'from typing import NewType\n\nBad = NewType("Bad", int | str)  # E\n'),
    "type-arg": (("--disallow-any-generics",), "def f(x: list) -> None: ...  # E\n"),
    "type-var": (
        (),
        'from typing import TypeVar\n\nN = TypeVar("N", bound=int)\n\ndef f(x: N) -> N:\n    return x\n\nf("text")  # E\n',
    ),
    "assignment": ((), 'x: int = "text"  # E\n'),
    "return-value": ((), 'def f() -> int:\n    return "text"  # E\n'),
    "return": ((), "def f(x: bool) -> int:  # E\n    if x:\n        return 1\n"),
    "empty-body": ((), "def f() -> int:  # E\n    pass\n"),
    "var-annotated": ((), "items = []  # E\n"),
    "operator": ((), 'x = 1 + "text"  # E\n'),
    "comparison-overlap": (("--strict-equality",), 'def f(x: int) -> bool:\n    return x == "text"  # E\n'),
    "index": ((), "x = 1\nx[0]  # E\n"),
    "no-untyped-call": (
        ("--disallow-untyped-calls",),
        "def untyped(x):\n    return x\n\ndef typed() -> None:\n    untyped(1)  # E\n",
    ),
    "no-untyped-def": (("--disallow-untyped-defs",), "def f(x):  # E\n    return x\n"),
    "annotation-unchecked": ((), "def f():\n    x: int = 1  # E\n"),
    "untyped-decorator": (
        ("--disallow-untyped-decorators",),
        "def deco(f):\n    return f\n\n@deco  # E\ndef g() -> None: ...\n",
    ),
    "no-any-return": (
        ("--warn-return-any",),
        "from typing import Any\n\ndef f(x: Any) -> int:\n    return x  # E\n",
    ),
    "redundant-cast": (("--warn-redundant-casts",), "from typing import cast\n\nx = cast(int, 1)  # E\n"),
    "assert-type": ((), "from typing import assert_type\n\nassert_type(1, str)  # E\n"),
    "override": (
        (),
        "class Base:\n    def f(self, x: int) -> None: ...\n\n"
        "class Child(Base):\n    def f(self, x: str) -> None: ...  # E\n",
    ),
    "abstract": (
        (),
        "from abc import ABC, abstractmethod\n\nclass Shape(ABC):\n    @abstractmethod\n"
        "    def area(self) -> float: ...\n\nShape()  # E\n",
    ),
    "safe-super": (
        (),
        "from abc import ABC, abstractmethod\n\nclass Base(ABC):\n    @abstractmethod\n"
        "    def f(self) -> int: ...\n\nclass Child(Base):\n    def f(self) -> int:\n"
        "        return super().f()  # E\n",
    ),
    "list-item": ((), 'x: list[int] = [1, "two"]  # E\n'),
    "dict-item": ((), 'x: dict[str, int] = {"a": "b"}  # E\n'),
    "typeddict-item": (
        (),
        "from typing import TypedDict\n\nclass Movie(TypedDict):\n    title: str\n\n"
        "m: Movie = {\"title\": 1}  # E\n",
    ),
    "narrowed-type-not-subtype": (
        (),
        "from typing_extensions import TypeIs\n\ndef is_str(x: int) -> TypeIs[str]:  # E\n    return False\n",
    ),
    "deprecated": (
        ("--enable-error-code", "deprecated"),
        'from typing_extensions import deprecated\n\n@deprecated("use g")\ndef f() -> None: ...\n\nf()  # E\n',
    ),
    "typeddict-unknown-key": (
        (),
        "from typing import TypedDict\n\nclass Movie(TypedDict):\n    title: str\n\n"
        'm: Movie = {"title": "Up", "year": 2009}  # E\n',
    ),
    "used-before-def": ((), "print(greeting)  # E\ngreeting = \"hello\"\n"),
    "has-type": (
        (),
        "class A:\n    def f(self) -> None:\n        self.x = self.y  # E (mypy: a cycle it cannot resolve)\n"
        "    def g(self) -> None:\n        self.y = self.x\n",
    ),
    "overload-overlap": (
        (),
        "from typing import overload\n\n@overload\ndef f(x: bool) -> int: ...  # E\n"
        "@overload\ndef f(x: int) -> str: ...\ndef f(x: int) -> int | str:\n    return 1\n",
    ),
    "overload-cannot-match": (
        (),
        "from typing import overload\n\n@overload\ndef f(x: int) -> int: ...\n"
        "@overload\ndef f(x: bool) -> str: ...  # E\ndef f(x: int) -> int | str:\n    return 1\n",
    ),
    "no-overload-impl": (
        (),
        "from typing import overload\n\n@overload  # E\ndef f(x: int) -> int: ...\n"
        "@overload\ndef f(x: str) -> str: ...\n",
    ),
    "unused-coroutine": (
        (),
        "async def work() -> None: ...\n\nasync def main() -> None:\n    work()  # E\n",
    ),
    "top-level-await": (
        (),
        "async def work() -> int:\n    return 1\n\nresult = await work()  # E\n",
    ),
    "await-not-async": (
        (),
        "async def work() -> int:\n    return 1\n\ndef main() -> None:\n    await work()  # E\n",
    ),
    "str-unpack": ((), "def f(text: str) -> None:\n    first, second = text  # E\n"),
    "literal-required": (
        (),
        "from typing import TypedDict\n\nclass Movie(TypedDict):\n    title: str\n\n"
        "def f(movie: Movie, key: str) -> None:\n    movie[key]  # E\n",
    ),
    "typeddict-readonly-mutated": (
        (),
        "from typing import TypedDict\nfrom typing_extensions import ReadOnly\n\nclass Movie(TypedDict):\n"
        "    title: ReadOnly[str]\n\ndef f(movie: Movie) -> None:\n    movie[\"title\"] = \"\"  # E\n",
    ),
    "str-format": ((), 'def f(count: str) -> str:\n    return "%d items" % count  # E\n'),
    "str-bytes-safe": ((), 'def f(data: bytes) -> str:\n    return f"{data}"  # E\n'),
    "metaclass": (
        (),
        "class Meta1(type): ...\nclass Meta2(type): ...\n\nclass A(metaclass=Meta1): ...\nclass B(metaclass=Meta2): ...\n\n"
        "class C(A, B): ...  # E\n",
    ),
    "unused-awaitable": (
        ("--enable-error-code", "unused-awaitable"),
        "import asyncio\n\nasync def work() -> None: ...\n\nasync def main() -> None:\n    asyncio.create_task(work())  # E\n",
    ),
    "unused-ignore": (("--warn-unused-ignores",), "x: int = 1  # type: ignore[assignment]  # E\n"),
    "unreachable": (
        ("--warn-unreachable",),
        "def f(x: int) -> None:\n    if isinstance(x, int):\n        return\n    print(x)  # E\n",
    ),
    "explicit-override": (
        ("--enable-error-code", "explicit-override"),
        "class Base:\n    def f(self) -> None: ...\n\nclass Child(Base):\n    def f(self) -> None: ...  # E\n",
    ),
    "func-returns-value": (
        (),
        "def f() -> None: ...\n\nx = f()  # E\n",
    ),
    "exit-return": (
        (),
        "class Resource:\n    def __enter__(self) -> None: ...\n"
        "    def __exit__(self, *args: object) -> bool:  # E\n        return False\n",
    ),
    "truthy-function": (
        (),
        "def ready() -> bool: ...\n\nif ready:  # E\n    pass\n",
    ),
    "truthy-bool": (
        ("--enable-error-code", "truthy-bool"),
        "class Foo: ...\n\ndef f(x: Foo) -> None:\n    if x:  # E\n        pass\n",
    ),
    "no-redef": ((), "type Pair = tuple[int, int]\ntype Pair = tuple[str, str]  # E\n"),
    "name-match": ((), 'from typing import TypedDict\n\nMovie = TypedDict("Film", {"title": str})  # E\n'),
    "method-assign": (
        (),
        "class Account:\n    def deposit(self) -> None: ...\n\nAccount().deposit = lambda: None  # E\n",
    ),
    "type-abstract": (
        (),
        "from typing import Protocol\n\nclass Greeter(Protocol):\n    def greet(self) -> str: ...\n\ndef make(cls: type[Greeter]) -> Greeter:\n    return cls()\n\nmake(Greeter)  # E\n",
    ),
    "no-any-unimported": (
        ("--ignore-missing-imports", "--disallow-any-unimported"),
        "from not_installed import Thing\n\ndef f(x: Thing) -> None: ...  # E\n",
    ),
    "explicit-any": (("--disallow-any-explicit",), "from typing import Any\n\ndef f(x: Any) -> None: ...  # E\n"),
    "redundant-self": (
        ("--enable-error-code", "redundant-self"),
        "from typing import Self\n\nclass Node:\n    def copy(self: Self) -> Self:  # E\n        return self\n",
    ),
    "prop-decorator": (
        (),
        "from typing import Any, Callable\n\ndef logged(f: Callable[..., Any]) -> Callable[..., Any]: ...\n\n"
        "class Account:\n    @logged  # E\n    @property\n    def balance(self) -> int:\n        return 0\n",
    ),
    "unimported-reveal": (("--enable-error-code", "unimported-reveal"), "reveal_type(1)  # E\n"),
    "ignore-without-code": (
        ("--enable-error-code", "ignore-without-code"),
        'x: int = "text"  # type: ignore  # E\n',
    ),
    "nonetype-type": ((), "from types import NoneType\n\ndef f(x: int | NoneType) -> None: ...  # E\n"),
    "exhaustive-match": (
        ("--enable-error-code", "exhaustive-match"),
        "def f(x: int | str) -> None:\n    match x:  # E\n        case int():\n            pass\n",
    ),
    "mutable-override": (
        ("--enable-error-code", "mutable-override"),
        "class Base:\n    limit: float\n\nclass Child(Base):\n    limit: int  # E\n",
    ),
    "truthy-iterable": (
        ("--enable-error-code", "truthy-iterable"),
        "from typing import Iterable\n\ndef f(items: Iterable[int]) -> None:\n    if items:  # E\n        pass\n",
    ),
    "redundant-expr": (
        ("--enable-error-code", "redundant-expr"),
        "def f(x: int) -> int:\n    return x is not None and x  # E\n",
    ),
    "possibly-undefined": (
        ("--enable-error-code", "possibly-undefined"),
        "def f(ready: bool) -> None:\n    if ready:\n        value = 1\n    print(value)  # E\n",
    ),
    "misc": ((), "from typing import Final\n\nLIMIT: Final = 1\nLIMIT = 2  # E\n"),
    "note": ((), "reveal_type(1)  # E\n"),
}
