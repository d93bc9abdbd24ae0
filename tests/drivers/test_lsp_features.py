"""The language server's requests, driven over stdio by a real LSP client (pytest-lsp).

One server for the module, on a small real project (tests/drivers/lsp_project.py)
with the real typeshed: each test opens `app/main.py` as an editor would and
asks one request, checking the answer against what the checker knows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.drivers.lsp_project import FILES, position, write_project

MAIN = FILES["app/main.py"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lspproj")
    write_project(root)
    return root


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "veritype", "lsp"]),
)
async def client(lsp_client: LanguageClient, project: Path):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(
        T.InitializeParams(capabilities=T.ClientCapabilities(), root_uri=project.as_uri(), workspace_folders=[T.WorkspaceFolder(project.as_uri(), "proj")])
    )
    lsp_client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri(project, "app/main.py"), "python", 1, MAIN)))
    yield
    await lsp_client.shutdown_session()


def uri(project: Path, rel: str) -> str:
    return (project / rel).as_uri()


def doc(project: Path, rel: str = "app/main.py") -> T.TextDocumentIdentifier:
    return T.TextDocumentIdentifier(uri(project, rel))


async def hover_text(client: LanguageClient, project: Path, marker: str, offset: int = 0, nth: int = 0) -> str:
    result = await client.text_document_hover_async(T.HoverParams(doc(project), position(MAIN, marker, offset, nth)))
    assert result is not None, marker
    assert isinstance(result.contents, T.MarkupContent)
    return result.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_gives_the_narrowed_type_as_reveal_type_says_it(client: LanguageClient, project: Path) -> None:
    # After `if user is None: return`, `user` is a User (reveal_type would say "User").
    assert "user: User" in await hover_text(client, project, "user.greeting")
    # Declared Optional at the parameter.
    assert "user: User | None" in await hover_text(client, project, "user: Optional")
    # Inferred from the call; a comprehension variable inside its comprehension.
    assert "label: str" in await hover_text(client, project, "label = ")
    assert "part: str" in await hover_text(client, project, "part)")
    assert "items: list[int]" in await hover_text(client, project, "items = ")
    # An unannotated parameter is Any.
    assert "count: Any" in await hover_text(client, project, "count)")


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_signature_and_docstring(client: LanguageClient, project: Path) -> None:
    text = await hover_text(client, project, "greeting(", 2)
    assert "def greeting(polite: bool = ...) -> str" in text or "def greeting(polite: bool =" in text, text
    assert "Say hello." in text
    text = await hover_text(client, project, "User, make_user", 1)
    assert "class User" in text and "A user of the app." in text
    # Into typeshed: a function of the os module, and the module itself.
    assert "module os" in await hover_text(client, project, "os.sep", 0)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_into_the_project_and_typeshed(client: LanguageClient, project: Path) -> None:
    models = FILES["app/models.py"]
    result = await client.text_document_definition_async(T.DefinitionParams(doc(project), position(MAIN, "greeting(", 1)))
    assert isinstance(result, list) and len(result) == 1
    assert result[0].uri == uri(project, "app/models.py")
    assert result[0].range.start == position(models, "greeting(")
    # A name imported from the project: to the class, not to the import.
    result = await client.text_document_definition_async(T.DefinitionParams(doc(project), position(MAIN, "make_user(name", 1)))
    assert isinstance(result, list) and result[0].uri == uri(project, "app/models.py")
    assert result[0].range.start == position(models, "make_user(")
    # A builtin: into typeshed's builtins.pyi.
    result = await client.text_document_definition_async(T.DefinitionParams(doc(project), position(MAIN, "sum(items)", 1)))
    assert isinstance(result, list) and result[0].uri.endswith("/builtins.pyi")


@pytest.mark.asyncio(loop_scope="module")
async def test_declaration_stays_at_the_import_and_type_definition_goes_to_the_class(client: LanguageClient, project: Path) -> None:
    result = await client.text_document_declaration_async(T.DeclarationParams(doc(project), position(MAIN, "make_user(name", 1)))
    assert isinstance(result, list) and result[0].uri == uri(project, "app/main.py")
    assert result[0].range.start == position(MAIN, "make_user\n")
    result = await client.text_document_type_definition_async(T.TypeDefinitionParams(doc(project), position(MAIN, "u = make_user", 0)))
    assert isinstance(result, list) and result[0].uri == uri(project, "app/models.py")
    assert result[0].range.start == position(FILES["app/models.py"], "User:", 0)


@pytest.mark.asyncio(loop_scope="module")
async def test_document_and_workspace_symbols(client: LanguageClient, project: Path) -> None:
    result = await client.text_document_document_symbol_async(T.DocumentSymbolParams(doc(project)))
    assert result is not None
    names = {s.name: s for s in result if isinstance(s, T.DocumentSymbol)}
    assert {"LIMIT", "describe", "Report", "undocumented", "bad"} <= set(names)
    assert names["Report"].kind == T.SymbolKind.Class
    assert [c.name for c in names["Report"].children or []] == ["__init__", "add"]
    assert names["describe"].selection_range.start == position(MAIN, "describe(")
    found = await client.workspace_symbol_async(T.WorkspaceSymbolParams(query="mkuser"))
    assert found is not None and [s.name for s in found] == ["make_user"]
    assert found[0].location.uri == uri(project, "app/models.py")  # type: ignore[union-attr]
