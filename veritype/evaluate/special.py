"""The typing module's special forms, recognised by their fully qualified name."""

from __future__ import annotations

TYPING = ("typing", "typing_extensions")

# Names whose meaning is built into the checker (typing spec, "Special types
# in annotations" and "Type qualifiers").
SPECIAL_FORMS = frozenset(
    {
        "Any", "Union", "Optional", "Callable", "Tuple", "Type", "Literal", "Final", "ClassVar",
        "Annotated", "TypeAlias", "NoReturn", "Never", "Self", "LiteralString", "TypeGuard",
        "TypeIs", "Unpack", "Required", "NotRequired", "ReadOnly", "Concatenate", "Generic",
        "Protocol", "TypedDict", "NamedTuple", "NewType", "TypeVar", "ParamSpec", "TypeVarTuple",
        "ParamSpecArgs", "ParamSpecKwargs", "TypeAliasType", "TypeForm",
    }
)

# typing aliases of concrete classes (`List[int]` means `list[int]`).
CLASS_ALIASES = {
    "List": "builtins.list",
    "Dict": "builtins.dict",
    "Set": "builtins.set",
    "FrozenSet": "builtins.frozenset",
    "Type": "builtins.type",
    "DefaultDict": "collections.defaultdict",
    "OrderedDict": "collections.OrderedDict",
    "Counter": "collections.Counter",
    "ChainMap": "collections.ChainMap",
    "Deque": "collections.deque",
    "Text": "builtins.str",
}


def special_name(fullname: str) -> str | None:
    """`typing.Union` -> "Union"; None for anything that is not special."""
    module, _, name = fullname.rpartition(".")
    if module in TYPING and (name in SPECIAL_FORMS or name in CLASS_ALIASES):
        return name
    if fullname == "builtins.tuple":
        return None
    return None
