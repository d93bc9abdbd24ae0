"""The one registry of error codes (DESIGN.md principle 5).

Each code is declared once here with its default severity and a one-line doc.
Names follow mypy's where the concept is the same, so `# type: ignore[code]`
comments and `--disable-error-code` flags carry over from mypy unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorCode:
    """An error code: its name, one-line doc, severity and whether it is on by default."""
    name: str
    doc: str
    severity: str = "error"
    # Codes off by default are switched on with --enable-error-code (as in mypy).
    default_enabled: bool = True
    # A sub-code is also silenced by an ignore of its parent (mypy's behaviour).
    parent: str | None = None
    # False: a mypy code veritype accepts (flags, ignores) but does not check
    # for, or a catch-all (`misc`) of many checks veritype does only some of.
    # An ignore naming such a code may be needed by mypy for an error veritype
    # cannot see, so `--warn-unused-ignores` never reports it (ignores.py; a bare
    # ignore that silenced nothing is reported, as mypy does).
    implemented: bool = True


REGISTRY: dict[str, ErrorCode] = {}


def _code(name: str, doc: str, **kw: object) -> ErrorCode:
    code = ErrorCode(name, doc, **kw)  # type: ignore[arg-type]
    REGISTRY[name] = code
    return code


SYNTAX = _code("syntax", "The file cannot be parsed.")
IMPORT = _code("import", "An import cannot be followed.")
IMPORT_NOT_FOUND = _code("import-not-found", "No module of that name can be found.", parent="import")
IMPORT_UNTYPED = _code("import-untyped", "The module is installed but has no types.", parent="import")
ATTR_DEFINED = _code("attr-defined", "The attribute does not exist.")
UNION_ATTR = _code("union-attr", "The attribute does not exist on every member of a union.")
NAME_DEFINED = _code("name-defined", "The name is not defined.")
CALL_ARG = _code("call-arg", "The call has the wrong number or names of arguments.")
ARG_TYPE = _code("arg-type", "An argument's type is not assignable to its parameter.")
CALL_OVERLOAD = _code("call-overload", "No overload matches the call.")
VALID_TYPE = _code("valid-type", "The expression is not a valid type.")
VALID_NEWTYPE = _code("valid-newtype", "The NewType definition is invalid.")
NAME_MATCH = _code("name-match", "The name given to a functional TypedDict differs from its variable.", implemented=False)  # checked for TypedDict only: an ignore of it is never reported unused
TYPE_ARG = _code("type-arg", "A generic type is missing its type arguments.", default_enabled=True)
TYPE_VAR = _code("type-var", "A type argument is not allowed for a type variable.")
ASSIGNMENT = _code("assignment", "The assigned value is not assignable to the target.")
METHOD_ASSIGN = _code("method-assign", "A method is assigned to (monkey-patched) on an instance or a class.", parent="assignment")
RETURN_VALUE = _code("return-value", "The returned value is not assignable to the return type.")
RETURN = _code("return", "A function that must return a value can fall off its end.")
EMPTY_BODY = _code("empty-body", "A function with a non-None return type has an empty body.")
VAR_ANNOTATED = _code("var-annotated", "The variable needs a type annotation.")
OPERATOR = _code("operator", "The operator is not supported for the operand types.")
# Partly checked (only where both sides are plain classes, literals or None):
# an ignore naming it is never reported as unused.
COMPARISON_OVERLAP = _code("comparison-overlap", "Compared values can never be equal (--strict-equality).", implemented=False)
INDEX = _code("index", "The value cannot be indexed that way.")
CALL_UNTYPED = _code("no-untyped-call", "A typed function calls an untyped one.")
NO_UNTYPED_DEF = _code("no-untyped-def", "The function has no or incomplete annotations.")
ANNOTATION_UNCHECKED = _code("annotation-unchecked", "A note: an annotation in an unchecked (untyped) function.")
UNTYPED_DECORATOR = _code("untyped-decorator", "An untyped decorator makes a typed function untyped.")
NO_ANY_RETURN = _code("no-any-return", "A function returns Any from a typed function.")
REDUNDANT_CAST = _code("redundant-cast", "The cast does not change the type.")
ASSERT_TYPE = _code("assert-type", "assert_type found a different type.")
OVERRIDE = _code("override", "A method overrides its base incompatibly.")
ABSTRACT = _code("abstract", "An abstract class is instantiated.")
# Not `implemented`: overloaded methods (an implementation with a trivial body) are
# not checked yet, so an ignore for one must not be reported as unused.
SAFE_SUPER = _code("safe-super", "An abstract method with a trivial body is called through super().", implemented=False)
LIST_ITEM = _code("list-item", "An item of a list or set display has the wrong type.")
DICT_ITEM = _code("dict-item", "A key or value of a dict display has the wrong type.")
TYPEDDICT_ITEM = _code("typeddict-item", "A TypedDict key is missing, unknown or mistyped.")
TYPEDDICT_UNKNOWN_KEY = _code("typeddict-unknown-key", "A TypedDict display or call has a key the TypedDict does not define.", parent="typeddict-item")
USED_BEFORE_DEF = _code("used-before-def", "A name is read before the statement that binds it has run.", implemented=False)  # module level only so far
HAS_TYPE = _code("has-type", "The type of the name cannot be determined.", implemented=False)
OVERLOAD_OVERLAP = _code("overload-overlap", "Overloads overlap with incompatible return types.")
OVERLOAD_CANNOT_MATCH = _code("overload-cannot-match", "An overload can never be matched: an earlier one accepts all its arguments.")
NO_OVERLOAD_IMPL = _code("no-overload-impl", "Overloads in a source file need an implementation.")
UNUSED_COROUTINE = _code("unused-coroutine", "A coroutine is created but never awaited.")
TOP_LEVEL_AWAIT = _code("top-level-await", "`await` outside any function (at module level or in a class body).")
AWAIT_NOT_ASYNC = _code("await-not-async", "`await` in a function that is not `async def`.")
# Not `implemented`: a key of type Any veritype did not see written (and mypy's other
# literal-required checks, dataclass and NamedTuple arguments) is not reported, so
# an ignore naming it is never reported unused.
LITERAL_REQUIRED = _code("literal-required", "A TypedDict key (or another value that must be a literal) is not a literal.", implemented=False)
# Not `implemented`: `update()` and `|=` with a display naming a read-only key are
# not reported under this code yet.
TYPEDDICT_READONLY_MUTATED = _code("typeddict-readonly-mutated", "A ReadOnly TypedDict item is assigned to.", implemented=False)
# Not `implemented`: the `.attr`/`[key]` parts of a `.format()` field and the count
# of a call with `*args`/`**kwargs` are not checked.
STR_FORMAT = _code("str-format", "A format string does not fit its arguments (`\"%d\" % text`, `\"{}\".format()`).", implemented=False)
STR_BYTES_SAFE = _code("str-bytes-safe", "bytes are formatted into a str (`f\"{data}\"` gives `\"b'...'\"`).")
# Not `implemented`: a conflict in a class whose MRO is inconsistent is not reported.
METACLASS = _code("metaclass", "A class's metaclass conflicts with its bases', or is not a class deriving from `type`.", implemented=False)
STR_UNPACK = _code("str-unpack", "A `str` is unpacked into several targets (`a, b = text`).")
UNUSED_AWAITABLE = _code("unused-awaitable", "An awaitable value (a Task, a Future) is created but never used.", default_enabled=False)
UNUSED_IGNORE = _code("unused-ignore", "The `# type: ignore` comment silences nothing.")
UNREACHABLE = _code("unreachable", "The statement can never run.", default_enabled=False)
EXPLICIT_OVERRIDE = _code("explicit-override", "An override lacks @override.", default_enabled=False)
FUNC_RETURNS_VALUE = _code("func-returns-value", "A function returning None is used as a value.", implemented=False)
EXIT_RETURN = _code("exit-return", "__exit__ return type does not match its behaviour.", implemented=False)
# Not `implemented`: a class object tested for truth (mypy reports it) is not,
# so an ignore naming it is never reported as unused.
TRUTHY_FUNCTION = _code("truthy-function", "A function is tested for truth (it is always true).", implemented=False)
TRUTHY_BOOL = _code("truthy-bool", "A value is always true in a boolean context.", default_enabled=False, implemented=False)
NO_REDEF = _code("no-redef", "A name is defined again where that is not allowed (a second `def`, `class` or `type` statement for it).")
TYPE_ABSTRACT = _code("type-abstract", "An abstract class or protocol is given where a concrete type[X] is expected.")
NARROWED_TYPE_NOT_SUBTYPE = _code("narrowed-type-not-subtype", "A TypeIs function narrows to a type that is not a subtype of its input.")
# Not `implemented`: NamedTuple field types (and other places mypy checks) are not checked yet.
NO_ANY_UNIMPORTED = _code("no-any-unimported", "A type becomes Any through an unfollowed import (--disallow-any-unimported).", implemented=False)
# Not `implemented`: the methods a plugin generates (attrs' __init__, reported by mypy on
# the class line) are not checked, so an ignore naming it is never reported as unused.
EXPLICIT_ANY = _code("explicit-any", "An Any is written in a type annotation (--disallow-any-explicit).", implemented=False)
DEPRECATED = _code("deprecated", "A deprecated (PEP 702) class, function or overload is used.", default_enabled=False, implemented=False)  # off by default, as in mypy; not every use mypy reports is seen, so an ignore of it is never reported unused
REDUNDANT_SELF = _code("redundant-self", "A method's first argument is annotated with Self, which it already is.", default_enabled=False)
PROP_DECORATOR = _code("prop-decorator", "A decorator is applied on top of @property (mypy cannot type it).")
UNIMPORTED_REVEAL = _code("unimported-reveal", "reveal_type or reveal_locals is used without importing it.", default_enabled=False)
IGNORE_WITHOUT_CODE = _code("ignore-without-code", "A `# type: ignore` comment names no error code.", default_enabled=False)
NONETYPE_TYPE = _code("nonetype-type", "types.NoneType is used as a type; the type of None is spelled None.")
TRUTHY_ITERABLE = _code("truthy-iterable", "An Iterable (which may always be true) is tested for truth.", default_enabled=False)
# The four below are checked only partly (see their modules: where veritype cannot
# follow mypy exactly it stays silent), so an ignore naming one is never reported unused.
EXHAUSTIVE_MATCH = _code("exhaustive-match", "A match statement leaves some values of its subject unhandled.", default_enabled=False, implemented=False)
MUTABLE_OVERRIDE = _code("mutable-override", "A mutable attribute is overridden with a narrower (covariant) type.", default_enabled=False, implemented=False)
REDUNDANT_EXPR = _code("redundant-expr", "An and/or operand or a conditional expression's test always has the same outcome.", default_enabled=False, implemented=False)
POSSIBLY_UNDEFINED = _code("possibly-undefined", "A name is read where some path to the read has not bound it.", default_enabled=False, implemented=False)
MISC = _code("misc", "Other errors.", implemented=False)
NOTE = _code("note", "An informational note.", severity="note", implemented=False)


# Where docs/error_codes.md (generated from this registry by
# veritype.diagnostics.codes_doc) is published; each code is a `## code`
# section there, so its anchor is the code's name.
ERROR_CODES_PAGE = "https://github.com/veritype/veritype/blob/main/docs/error_codes.md"


def code_doc_url(name: str | None) -> str:
    """The link to a code's section of the error-code page (the page itself for None)."""
    return ERROR_CODES_PAGE if name is None else f"{ERROR_CODES_PAGE}#{name}"


def lookup(name: str) -> ErrorCode | None:
    return REGISTRY.get(name)


def implemented(name: str) -> bool:
    """Whether veritype checks for what mypy reports under this code (unknown codes: no)."""
    info = REGISTRY.get(name)
    return info is not None and info.implemented


def silenced_by(code: str, ignored: frozenset[str]) -> bool:
    """Whether an ignore naming `ignored` codes covers `code` (or its parent)."""
    if code in ignored:
        return True
    info = REGISTRY.get(code)
    return bool(info and info.parent and info.parent in ignored)
