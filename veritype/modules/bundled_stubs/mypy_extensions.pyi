"""Types of the `mypy_extensions` package, which ships no `py.typed`.

mypy bundles stubs for this one third-party package, so its users never
install any: veritype does the same (veritype.modules.finder). Written for
veritype from the package's documented API.
"""

from collections.abc import Callable
from typing import Any, Generic, TypeVar
from typing import TypedDict as TypedDict  # the old spelling of typing.TypedDict

_T = TypeVar("_T")
_U = TypeVar("_U")

# Extended Callable arguments: Callable[[Arg(int, "x"), VarArg(str)], None].
def Arg(type: _T = ..., name: str | None = ...) -> _T: ...
def DefaultArg(type: _T = ..., name: str | None = ...) -> _T: ...
def NamedArg(type: _T = ..., name: str | None = ...) -> _T: ...
def DefaultNamedArg(type: _T = ..., name: str | None = ...) -> _T: ...
def VarArg(type: _T = ...) -> _T: ...
def KwArg(type: _T = ...) -> _T: ...

class NoReturn: ...

# mypyc's class and attribute markers: they return what they are given.
def trait(cls: _T) -> _T: ...
def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[_T], _T]: ...

class FlexibleAlias(Generic[_T, _U]): ...

# mypyc's native integers. For mypy they are int's own subtypes that int is
# also accepted as; as aliases of int they accept and give exactly what int
# does, so no code mypy passes is refused.
i64 = int
i32 = int
i16 = int
u8 = int
