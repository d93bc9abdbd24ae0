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
    assert "def greeting(polite: bool =) -> str" in text, text
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


async def edit(client: LanguageClient, project: Path, rel: str, text: str, version: int) -> None:
    """Open `rel` with `text` (or replace its whole text) as an editor does while typing."""
    if version == 1:
        client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri(project, rel), "python", 1, text)))
    else:
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(version=version, uri=uri(project, rel)),
            [T.TextDocumentContentChangeWholeDocument(text=text)],
        ))


SCRATCH = '''\
from app.models import User, make_user
import os


def use(user: User, names: list[str]) -> None:
    first = names[0]
    user.
'''


async def complete(client: LanguageClient, project: Path, text: str, marker: str, version: int) -> dict[str, T.CompletionItem]:
    await edit(client, project, "app/scratch.py", text, version)
    result = await client.text_document_completion_async(
        T.CompletionParams(doc(project, "app/scratch.py"), position(text, marker, len(marker)))
    )
    assert isinstance(result, T.CompletionList)
    return {i.label: i for i in result.items}


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_attributes_names_modules_and_keywords(client: LanguageClient, project: Path) -> None:
    # Half-typed `user.`: the attributes of User, with their types.
    items = await complete(client, project, SCRATCH, "user.", 1)
    assert items["greeting"].kind == T.CompletionItemKind.Method
    assert items["greeting"].detail == "def (polite: bool =) -> str"
    assert items["name"].detail == "str" and items["age"].detail == "int"
    # The narrowed/inferred type left of the dot: `first` is a str.
    items = await complete(client, project, SCRATCH.replace("user.", "first.st"), "first.st", 2)
    assert "startswith" in items and "greeting" not in items
    # Names in scope (parameters, locals, imports, builtins).
    items = await complete(client, project, SCRATCH.replace("user.", "na"), "    na", 3)
    assert {"names", "make_user", "first", "len"} <= set(items)
    assert items["names"].detail == "list[str]"
    # Keyword arguments of the call being written.
    items = await complete(client, project, SCRATCH.replace("user.", "make_user(name, a"), "make_user(name, a", 4)
    assert items["age="].detail == "int"
    # Modules in an import, names in a from-import.
    items = await complete(client, project, SCRATCH.replace("user.", "import os.pa"), "import os.pa", 5)
    assert "path" in items
    items = await complete(client, project, SCRATCH.replace("user.", "from app.models import ma"), "import ma", 6)
    assert {"make_user", "User"} <= set(items)


@pytest.mark.asyncio(loop_scope="module")
async def test_signature_help_with_the_active_parameter(client: LanguageClient, project: Path) -> None:
    text = SCRATCH.replace("user.", "make_user(first, ")
    await edit(client, project, "app/sig.py", text, 1)
    result = await client.text_document_signature_help_async(
        T.SignatureHelpParams(doc(project, "app/sig.py"), position(text, "first, ", 7))
    )
    assert result is not None
    [sig] = result.signatures
    assert sig.label == "make_user(name: str, age: int = ...) -> User"
    assert result.active_parameter == 1
    assert sig.parameters is not None and sig.label[slice(*sig.parameters[1].label)] == "age: int = ..."  # type: ignore[misc]


@pytest.mark.asyncio(loop_scope="module")
async def test_inlay_hints_for_unannotated_variables_and_returns(client: LanguageClient, project: Path) -> None:
    result = await client.text_document_inlay_hint_async(
        T.InlayHintParams(doc(project), T.Range(T.Position(0, 0), T.Position(len(MAIN.splitlines()), 0)))
    )
    assert result is not None
    shown = {(h.position.line, h.position.character): h.label for h in result}
    assert shown[(position(MAIN, "label =").line, position(MAIN, "label =", 5).character)] == ": str"
    labels = sorted(str(h.label) for h in result)
    assert ": list[int]" in labels  # items
    assert " -> User" in labels  # Report.add returns a User
    assert " -> list[int]" in labels  # undocumented()
    # Annotated names and parameters get none.
    assert all(h.position.line != position(MAIN, "bad: int").line for h in result)


@pytest.mark.asyncio(loop_scope="module")
async def test_code_actions_ignore_and_import(client: LanguageClient, project: Path) -> None:
    await client.wait_for_notification("textDocument/publishDiagnostics") if uri(project, "app/main.py") not in client.diagnostics else None
    diags = client.diagnostics[uri(project, "app/main.py")]
    [bad] = [d for d in diags if d.code == "assignment"]
    result = await client.text_document_code_action_async(T.CodeActionParams(doc(project), bad.range, T.CodeActionContext([bad])))
    assert result is not None
    [action] = [a for a in result if isinstance(a, T.CodeAction)]
    assert action.title == "Add `# type: ignore[assignment]`"
    assert action.edit is not None and action.edit.changes is not None
    [change] = action.edit.changes[uri(project, "app/main.py")]
    assert change.new_text == "  # type: ignore[assignment]" and change.range.start.line == bad.range.start.line
    # A name the project defines elsewhere: import it.
    text = "x = make_user('a')\n"
    await edit(client, project, "app/imp.py", text, 1)
    undefined = T.Diagnostic(T.Range(T.Position(0, 4), T.Position(0, 13)), 'Name "make_user" is not defined', code="name-defined", source="veritype")
    result = await client.text_document_code_action_async(T.CodeActionParams(doc(project, "app/imp.py"), undefined.range, T.CodeActionContext([undefined])))
    titles = [a.title for a in result or []]
    assert "Import `make_user` from `app.models`" in titles


@pytest.mark.asyncio(loop_scope="module")
async def test_references_and_rename(client: LanguageClient, project: Path) -> None:
    at = position(MAIN, "make_user(name", 1)
    result = await client.text_document_references_async(T.ReferenceParams(context=T.ReferenceContext(include_declaration=True), text_document=doc(project), position=at))
    assert result is not None
    where = sorted((r.uri.rsplit("/", 1)[1], r.range.start.line) for r in result)
    models = FILES["app/models.py"]
    assert ("models.py", position(models, "def make_user").line) in where
    assert ("main.py", at.line) in where and ("main.py", position(MAIN, "make_user\n").line) in where
    edit_ = await client.text_document_rename_async(T.RenameParams(doc(project), at, "create_user"))
    assert edit_ is not None and edit_.changes is not None
    assert {u.rsplit("/", 1)[1] for u in edit_.changes} >= {"main.py", "models.py"}
    # Refused: a builtin lives in typeshed, and a new name already bound there.
    with pytest.raises(Exception, match="outside the workspace"):
        await client.text_document_rename_async(T.RenameParams(doc(project), position(MAIN, "sum(", 1), "total2"))
    with pytest.raises(Exception, match="already bound"):
        await client.text_document_rename_async(T.RenameParams(doc(project), position(MAIN, "label = ", 1), "items"))


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens(client: LanguageClient, project: Path) -> None:
    from veritype.engine.semantic import TOKEN_TYPES

    result = await client.text_document_semantic_tokens_full_async(T.SemanticTokensParams(doc(project)))
    assert result is not None and len(result.data) % 5 == 0
    line = col = 0
    found: dict[tuple[int, int], str] = {}
    for i in range(0, len(result.data), 5):
        dl, dc, length, kind, _ = result.data[i : i + 5]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        found[(line, col)] = TOKEN_TYPES[kind]

    def kind_at(marker: str, offset: int = 0, nth: int = 0) -> str | None:
        p = position(MAIN, marker, offset, nth)
        return found.get((p.line, p.character))

    assert kind_at("os\n", 0) == "namespace"
    assert kind_at("User, make_user") == "class"
    assert kind_at("describe(") == "function"
    assert kind_at("count)") == "parameter"
    assert kind_at("add(self") == "method"
    assert kind_at("label = ") == "variable"


@pytest.mark.asyncio(loop_scope="module")
async def test_fast_typing_is_checked_once_at_the_end(client: LanguageClient, project: Path) -> None:
    """Twenty edits in a burst: the published diagnostics are those of the last text,
    and requests are answered meanwhile."""
    import asyncio

    rel = "app/typing_burst.py"
    texts = [f"n: int = {'x' if i % 2 else i}\nlast: int = {i}\n" for i in range(20)]
    texts[-1] = "n: int = 'late'\n"
    published: list[int] = []
    target = uri(project, rel)

    class Counting(dict):  # type: ignore[type-arg]
        def __setitem__(self, key: str, value: list[T.Diagnostic]) -> None:
            if key == target:
                published.append(len(value))
            super().__setitem__(key, value)

    client.diagnostics = Counting(client.diagnostics)
    for i, text in enumerate(texts, 1):
        await edit(client, project, rel, text, i)
    hover = await client.text_document_hover_async(T.HoverParams(doc(project, rel), T.Position(0, 0)))
    assert hover is not None and "n: int" in hover.contents.value  # type: ignore[union-attr]
    for _ in range(100):
        if client.diagnostics.get(target) and client.diagnostics[target][0].range.start.line == 0 and "late" in client.diagnostics[target][0].message:
            break
        await asyncio.sleep(0.1)
    [diag] = client.diagnostics[target]
    assert diag.code == "assignment" and '"Literal[\'late\']"' not in diag.message and "str" in diag.message
    # The burst was debounced: far fewer checks published than edits made.
    assert len(published) < 10, published


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_of_a_member_refused_where_a_receiver_is_unknown(client: LanguageClient, project: Path) -> None:
    # `count` is unannotated (Any): `count.greeting` might be a User's method.
    text = "from app.models import User\n\n\ndef f(u: User, count) -> None:\n    u.greeting()\n    count.greeting()\n"
    await edit(client, project, "app/members.py", text, 1)
    with pytest.raises(Exception, match="unknown type"):
        await client.text_document_rename_async(T.RenameParams(doc(project, "app/members.py"), position(text, "greeting()", 1), "hello"))
