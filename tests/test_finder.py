"""Module resolution (veritype.modules.finder) on layouts built in a temporary directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from veritype.modules.finder import FoundModule, MissingModule, ModuleFinder
from veritype.options import Options


def make(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


@pytest.fixture
def layout(tmp_path: Path):
    src, site = tmp_path / "src", tmp_path / "site"
    make(
        src,
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": "",
            "pkg/mod.pyi": "",
            "ns/inner/leaf.py": "",
            "single.py": "",
        },
    )
    make(
        site,
        {
            "typedpkg/__init__.py": "",
            "typedpkg/py.typed": "",
            "typedpkg/sub/__init__.py": "",
            "untyped/__init__.py": "",
            "yaml/__init__.py": "",
            "flat.py": "",
            "flatstub.pyi": "",
            "stubbed-stubs/__init__.pyi": "",
            "stubbed-stubs/sub.pyi": "",
            "stubbed/__init__.py": "",
            "stubbed/other.py": "",
            "partial-stubs/__init__.pyi": "",
            "partial-stubs/py.typed": "partial\n",
            "partial/__init__.py": "",
            "partial/py.typed": "",
            "partial/extra.py": "",
            "google-stubs/protobuf/__init__.pyi": "",
            "google/auth/__init__.py": "",
            "google/auth/py.typed": "",
        },
    )
    options = Options(site_packages=[str(site)])
    return ModuleFinder(options, [str(src)]), src, site


def found(finder: ModuleFinder, name: str) -> FoundModule:
    result = finder.find(name)
    assert isinstance(result, FoundModule), result
    return result


def missing(finder: ModuleFinder, name: str) -> MissingModule:
    result = finder.find(name)
    assert isinstance(result, MissingModule), result
    return result


def test_stdlib_from_typeshed(layout) -> None:
    finder = layout[0]
    for name in ("os", "os.path", "collections.abc", "typing", "builtins"):
        m = found(finder, name)
        assert m.origin == "stdlib" and m.is_stub and m.path.endswith(".pyi")


def test_source_roots_and_stub_beside_source(layout) -> None:
    finder, src, _ = layout
    assert found(finder, "pkg").path == str(src / "pkg" / "__init__.py")
    assert found(finder, "pkg").is_package
    mod = found(finder, "pkg.mod")
    assert mod.path.endswith("mod.pyi") and mod.is_stub
    assert found(finder, "single").origin == "source"


def test_namespace_packages(layout) -> None:
    finder, src, _ = layout
    ns = found(finder, "ns")
    assert ns.is_namespace and ns.path == str(src / "ns")
    assert found(finder, "ns.inner").is_namespace
    assert found(finder, "ns.inner.leaf").path.endswith("leaf.py")


def test_namespace_portions_merge_across_roots(tmp_path: Path) -> None:
    make(tmp_path / "a", {"shared/one.py": ""})
    make(tmp_path / "b", {"shared/two.py": ""})
    finder = ModuleFinder(Options(site_packages=[]), [str(tmp_path / "a"), str(tmp_path / "b")])
    assert found(finder, "shared").portions == (str(tmp_path / "a" / "shared"), str(tmp_path / "b" / "shared"))
    assert found(finder, "shared.one").path.startswith(str(tmp_path / "a"))
    assert found(finder, "shared.two").path.startswith(str(tmp_path / "b"))


def test_regular_package_hides_later_portions(tmp_path: Path) -> None:
    make(tmp_path / "a", {"p/__init__.py": ""})
    make(tmp_path / "b", {"p/two.py": ""})
    finder = ModuleFinder(Options(site_packages=[]), [str(tmp_path / "a"), str(tmp_path / "b")])
    assert not found(finder, "p").is_namespace
    assert missing(finder, "p.two").code == "import-not-found"


def test_mypy_path_and_MYPYPATH(tmp_path: Path, monkeypatch) -> None:
    make(tmp_path / "stubs", {"extlib.pyi": ""})
    make(tmp_path / "env", {"envlib.pyi": ""})
    monkeypatch.setenv("MYPYPATH", str(tmp_path / "env"))
    finder = ModuleFinder(Options(site_packages=[], mypy_path=[str(tmp_path / "stubs")]), [])
    assert found(finder, "extlib").origin == "source"
    assert found(finder, "envlib").origin == "source"


def test_typed_and_untyped_installed_packages(layout) -> None:
    finder = layout[0]
    assert found(finder, "typedpkg").origin == "site"
    assert found(finder, "typedpkg.sub").origin == "site"
    m = missing(finder, "untyped")
    assert m.code == "import-untyped"
    assert m.message == 'Skipping analyzing "untyped": module is installed, but missing library stubs or py.typed marker'
    assert m.notes == ()
    assert missing(finder, "flat").code == "import-untyped"
    assert found(finder, "flatstub").is_stub


def test_untyped_with_known_stubs_hints_the_package(layout) -> None:
    m = missing(layout[0], "yaml")
    assert m.code == "import-untyped"
    assert m.notes == ('Hint: "python3 -m pip install types-PyYAML"',)
    assert missing(layout[0], "yaml.loader").code == "import-untyped"


def test_stub_packages(layout) -> None:
    finder = layout[0]
    m = found(finder, "stubbed")
    assert m.origin == "stub-package" and m.path.endswith(os.path.join("stubbed-stubs", "__init__.pyi"))
    assert found(finder, "stubbed.sub").origin == "stub-package"
    # A complete stub package is the whole truth: the runtime's other modules are not used.
    assert missing(finder, "stubbed.other").code == "import-not-found"


def test_partial_stub_packages_fall_through(layout) -> None:
    finder = layout[0]
    assert found(finder, "partial").origin == "stub-package"
    extra = found(finder, "partial.extra")
    assert extra.origin == "site" and extra.path.endswith("extra.py")


def test_namespace_stub_package_merges_with_installed_namespace(layout) -> None:
    finder = layout[0]
    google = found(finder, "google")
    assert google.is_namespace and len(google.portions) == 2
    assert found(finder, "google.protobuf").origin == "stub-package"
    assert found(finder, "google.auth").origin == "site"
    assert missing(finder, "google.protobuf.nope").code == "import-not-found"


def test_not_found_and_library_stub_hints(layout) -> None:
    finder = layout[0]
    m = missing(finder, "nosuchmodule")
    assert m.code == "import-not-found"
    assert m.message == 'Cannot find implementation or library stub for module named "nosuchmodule"'
    r = missing(finder, "requests")
    assert r.code == "import-untyped"
    assert r.message == 'Library stubs not installed for "requests"'
    assert r.notes == ('Hint: "python3 -m pip install types-requests"',)
    assert missing(finder, "pkg.nosuch").code == "import-not-found"
    assert missing(finder, "os.nosuch").code == "import-not-found"
    assert missing(finder, "single.sub").code == "import-not-found"


@pytest.mark.parametrize(
    "name,version,present",
    [
        ("tomllib", (3, 10), False),
        ("tomllib", (3, 11), True),
        ("distutils", (3, 11), True),
        ("distutils", (3, 12), False),
        ("asyncio.taskgroups", (3, 10), False),
        ("asyncio.taskgroups", (3, 11), True),
    ],
)
def test_stdlib_versions(name: str, version: tuple[int, int], present: bool) -> None:
    finder = ModuleFinder(Options(site_packages=[], python_version=version), [])
    result = finder.find(name)
    assert isinstance(result, FoundModule) == present
    if not present:
        assert isinstance(result, MissingModule) and result.code == "import-not-found"
        assert any("standard library" in n for n in result.notes)


def test_ignore_missing_imports_is_looked_up_for_the_imported_module(tmp_path: Path) -> None:
    options = Options(site_packages=[], overrides=[("nosuch.*", {"ignore_missing_imports": True})])
    finder = ModuleFinder(options, [])
    assert missing(finder, "nosuch.sub").ignored
    assert not missing(finder, "other").ignored
    assert missing(ModuleFinder(Options(site_packages=[], ignore_missing_imports=True), []), "x").ignored


def test_pth_files_and_editable_finders(tmp_path: Path) -> None:
    make(tmp_path / "proj", {"devpkg/__init__.py": "", "devpkg/py.typed": ""})
    make(tmp_path / "proj2" / "src", {"edpkg/__init__.py": "", "edpkg/py.typed": ""})
    site = tmp_path / "site"
    edpkg_dir = str(tmp_path / "proj2" / "src" / "edpkg")
    make(
        site,
        {
            "dev.pth": f"# comment\nimport os\n{tmp_path / 'proj'}\n",
            "__editable___ed_0_1_finder.py": f"MAPPING = {{'edpkg': {edpkg_dir!r}}}\n",
        },
    )
    finder = ModuleFinder(Options(site_packages=[str(site)]), [])
    assert found(finder, "devpkg").origin == "site"
    assert found(finder, "edpkg").path == os.path.join(edpkg_dir, "__init__.py")


def test_case_sensitive_names(tmp_path: Path) -> None:
    make(tmp_path, {"Mixed.py": ""})
    finder = ModuleFinder(Options(site_packages=[]), [str(tmp_path)])
    assert isinstance(finder.find("Mixed"), FoundModule)
    assert isinstance(finder.find("mixed"), MissingModule)


def test_results_are_cached(layout) -> None:
    finder = layout[0]
    assert finder.find("pkg") is finder.find("pkg")


def test_stdlib_wins_over_stray_files_in_source_roots_but_not_over_mypy_path(tmp_path: Path) -> None:
    make(tmp_path / "src", {"enum.py": "", "mine.py": ""})
    make(tmp_path / "stubs", {"json.pyi": ""})
    finder = ModuleFinder(Options(site_packages=[], mypy_path=[str(tmp_path / "stubs")]), [str(tmp_path / "src")])
    assert found(finder, "enum").origin == "stdlib"
    assert found(finder, "mine").origin == "source"
    assert found(finder, "json").path == str(tmp_path / "stubs" / "json.pyi")


def test_python_executable_is_asked_for_its_site_packages(tmp_path: Path) -> None:
    site = tmp_path / "othersite"
    make(site, {"otherlib/__init__.py": "", "otherlib/py.typed": ""})
    fake = tmp_path / "python"
    # Stands in for another interpreter: prints what the real one would.
    fake.write_text(f"#!/bin/sh\necho '[\"{site}\", \"/no/such/dir\"]'\n")
    fake.chmod(0o755)
    finder = ModuleFinder(Options(python_executable=str(fake)), [])
    assert finder.environment.site_dirs == (str(site),)
    assert found(finder, "otherlib").origin == "site"


def test_broken_python_executable_raises_a_clear_error(tmp_path: Path) -> None:
    from veritype.modules.environment import TargetEnvironmentError, environment_for

    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    with pytest.raises(TargetEnvironmentError, match="cannot get site-packages"):
        environment_for(Options(python_executable=str(fake)))


def test_namespace_in_site_packages_needs_py_typed_in_each_subpackage(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make(site, {"corp/typed/__init__.py": "", "corp/typed/py.typed": "", "corp/plain/__init__.py": ""})
    finder = ModuleFinder(Options(site_packages=[str(site)]), [])
    assert found(finder, "corp").is_namespace
    assert found(finder, "corp.typed").origin == "site"
    assert missing(finder, "corp.plain").code == "import-untyped"


def test_stub_only_package_in_source_root(tmp_path: Path) -> None:
    make(tmp_path, {"api/__init__.pyi": "", "api/client.pyi": ""})
    finder = ModuleFinder(Options(site_packages=[]), [str(tmp_path)])
    assert found(finder, "api").is_stub and found(finder, "api.client").is_stub
