"""The primer's pinned projects: what to download, install and check.

Each project is a release on PyPI, taken as its sdist and checked from the
unpacked sdist root, as its CI runs mypy there: the paths its CI checks,
its own mypy configuration (found by both checkers in the sdist root), and
a virtual environment of its own holding the dependencies and ``types-*``
packages its CI installs for the mypy run.

Where the sdist lacks the CI file or the mypy configuration, the choice made
is written beside the project. A configuration the sdist lacks is
``config``: written as ``mypy.ini`` into the unpacked root (mypy.ini is read
before pyproject.toml by both checkers), copied from the project's
repository with ``files`` left out (the paths are given here) and
display-only keys (pretty, colours) dropped. A project with no mypy
configuration at all gets an empty ``mypy.ini``, so neither checker walks up
out of the sdist into this repository's own pyproject.toml.

Dependencies are named as the CI names them (unpinned, as their CI installs
them); the versions installed are recorded (``pip freeze``) in the JSON
output and in the venv's ``.requirements`` marker.

The latest release of each on PyPI when pinned (2026-12-03), except
hypothesis: its releases after 6.155.7 build a Rust extension and their
sdist metadata cannot be generated without crates.io.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Project:
    name: str  # the PyPI name
    version: str
    paths: tuple[str, ...]  # relative to the sdist root; globs allowed
    deps: tuple[str, ...] = ()  # pip requirements for the project's venv
    config: str | None = None  # a mypy.ini to write when the sdist has none
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.name}-{self.version}"


_AIO_LIBS_STRICT = """\
[mypy]
check_untyped_defs = True
follow_imports_for_stubs = True
disallow_any_decorated = True
disallow_any_generics = True
disallow_any_unimported = True
disallow_incomplete_defs = True
disallow_subclassing_any = True
disallow_untyped_calls = True
disallow_untyped_decorators = True
disallow_untyped_defs = True
implicit_reexport = False
no_implicit_optional = True
show_error_codes = True
strict_equality = True
warn_incomplete_stub = True
warn_redundant_casts = True
warn_return_any = True
warn_unreachable = True
warn_unused_ignores = True
"""

PROJECTS: tuple[Project, ...] = (
    # .pre-commit-config.yaml: mirrors-mypy on ^(src/|testing/|scripts/) with
    # these additional_dependencies; [tool.mypy] in pyproject.toml.
    Project("pytest", "9.2.0", ("src", "testing", "scripts"),
            ("iniconfig>=1.1.0", "attrs>=19.2.0", "pluggy>=1.5.0", "packaging", "tomli",
             "types-setuptools", "types-tabulate", "exceptiongroup>=1.0.0rc8")),
    # The sdist has no noxfile; urllib3's typecheck session runs mypy on the
    # package, dummyserver and test with the "mypy" dependency group.
    Project("urllib3", "2.8.0", ("src/urllib3", "dummyserver", "test"),
            ("anyio[trio]", "h2", "httpx", "hypercorn", "pysocks", "pytest", "pytest-socket",
             "pytest-timeout", "quart", "quart-trio", "trio", "cryptography", "idna",
             "trustme", "types-requests", "types-pysocks", "pyopenssl", "backports.zstd",
             "brotli"),
            note="sdist has no noxfile: paths and deps from the mypy dependency group"),
    # No CI file in the sdist; h11 runs mypy --strict (the [tool.mypy]) on h11/.
    Project("h11", "0.16.0", ("h11",), ("pytest",),
            note="sdist has no CI file: h11/ with its [tool.mypy]"),
    # files in [tool.mypy]; trio's check.sh (not in the sdist) runs it per
    # platform, we run the default (linux).
    Project("trio", "0.35.0", ("src/trio", "docs/source/*.py"),
            ("attrs", "sortedcontainers", "idna", "outcome", "sniffio", "pytest",
             "mypy-extensions", "trustme", "pyopenssl", "cryptography", "typing-extensions",
             "types-pyopenssl", "jedi", "pylint", "sphinx"),
            note="check.sh not in the sdist: one platform (linux)"),
    # The repository's .mypy.ini is not in the sdist: written here from
    # aio-libs/yarl (files: packaging/, tests/, yarl/; we check yarl/).
    Project("yarl", "1.25.1", ("yarl",), ("multidict", "idna", "propcache"),
            config="""\
[mypy]
python_version = 3.10
enable_error_code = ignore-without-code
follow_imports = normal
ignore_missing_imports = False
show_column_numbers = true
show_error_codes = true
strict_optional = True
warn_no_return = True

[mypy-Cython.*]
ignore_missing_imports = true

[mypy-expandvars]
ignore_missing_imports = true

[mypy-idna]
ignore_missing_imports = true

[mypy-pytest]
ignore_missing_imports = true
""",
            note=".mypy.ini from the repository (not in the sdist); yarl/ only"),
    # .mypy.ini from aio-libs/multidict (not in the sdist); its files are
    # the two typed test modules, we add the package.
    Project("multidict", "7.2.1", ("multidict", "tests/test_multidict.py", "tests/test_mypy.py"),
            ("pytest", "typing-extensions", "pytest-codspeed"),
            config=_AIO_LIBS_STRICT + "disable_error_code = comparison-overlap\n\n"
                   "[mypy-tests.*]\ndisallow_any_decorated = False\n"
                   "disallow_untyped_calls = False\n",
            note=".mypy.ini from the repository (not in the sdist)"),
    # .mypy.ini from aio-libs/frozenlist (not in the sdist): files frozenlist,
    # packaging, tests; we check the package.
    Project("frozenlist", "1.8.0", ("frozenlist",), (),
            config=_AIO_LIBS_STRICT + "extra_checks = True\nenable_error_code = "
                   "ignore-without-code, possibly-undefined, redundant-expr, redundant-self,"
                   " truthy-bool, truthy-iterable, unused-awaitable\n",
            note=".mypy.ini from the repository (not in the sdist); frozenlist/ only"),
    # mypy runs in cattrs's test suite (pytest-typing); [tool.mypy] strict on src.
    Project("cattrs", "26.2.1", ("src/cattrs",),
            ("attrs", "typing-extensions", "exceptiongroup", "msgspec", "orjson", "pyyaml",
             "tomlkit", "cbor2", "ujson", "msgpack", "pymongo"),
            note="CI runs mypy through pytest-typing; src/cattrs with its [tool.mypy]"),
    # tox.ini [testenv:mypy]: the mypy dependency group, `mypy` (files in config).
    Project("marshmallow", "4.4.0", ("src", "tests", "examples"), ("types-simplejson",)),
    # tox.ini: mypy with the dev group; packages = isort, tests in [tool.mypy].
    Project("isort", "9.0.2", ("isort", "tests"),
            ("black", "colorama", "hypothesis", "hypothesmith", "libcst", "pytest",
             "pytest-benchmark", "stdlibs", "types-colorama", "example-isort-sorting-plugin",
             "example-shared-isort-profile", "mypy-extensions")),
    # The sdist has neither tests nor CI: src with its [tool.mypy].
    Project("tomli", "2.5.0", ("src",), (),
            note="sdist has no tests nor CI file: src/ with its [tool.mypy]"),
    # The sdist's pyproject.toml has no [tool.mypy]; pypa/build's is written
    # here (files: src, tests, tasks, docs; we check src).
    Project("build", "1.6.1", ("src",),
            ("packaging", "pyproject_hooks", "tomli", "typing-extensions", "importlib-metadata",
             "types-colorama", "virtualenv", "uv"),
            config="""\
[mypy]
python_version = 3.10
strict = True
disallow_any_explicit = True
disallow_any_decorated = True
disallow_any_unimported = True
disallow_untyped_globals = True
warn_unreachable = True
enable_error_code = deprecated, exhaustive-match, ignore-without-code, mutable-override, possibly-undefined, redundant-expr, redundant-self, truthy-bool, truthy-iterable, unimported-reveal, unused-awaitable

[mypy-virtualenv]
ignore_missing_imports = True
""",
            note="[tool.mypy] from the repository (not in the sdist); src/ only"),
    # Neither mypy config nor CI file in the sdist: default flags on src.
    Project("pyproject_hooks", "1.3.3", ("src",), ("tomli",),
            note="no mypy config nor CI file in the sdist: default flags on src/"),
    # hypothesis's mypy.ini lives in its repository tooling, not the sdist:
    # default flags on the package.
    Project("hypothesis", "6.155.7", ("src/hypothesis",),
            ("attrs", "sortedcontainers", "exceptiongroup", "typing-extensions"),
            note="last release without a Rust build; repo mypy config not in sdist:"
                 " default flags"),
    # noxfile.py: `mypy referencing` after installing the package.
    Project("referencing", "0.37.0", ("referencing",), ("attrs", "rpds-py", "typing-extensions")),
    # noxfile.py: `mypy --config pyproject.toml jsonschema` with types-requests
    # and the package installed.
    Project("jsonschema", "4.26.0", ("jsonschema",),
            ("attrs", "jsonschema-specifications", "referencing", "rpds-py", "types-requests")),
)
