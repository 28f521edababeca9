"""pytest-lsp fixtures: the real `juice-lint lsp` binary on a temporary copy
of the canonical book, driven by pytest-lsp's client (pygls), and an
`Editor` that keeps its own copy of every open text, as an editor does, so
edits the server proposes are applied by the test, not trusted."""

from __future__ import annotations

import asyncio
import itertools
import pathlib
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from support import (
    BINARY, BOOK_FILES, apply_edits, cli_diagnostics, copy_book, find, offset_of,
    plain_range, position_at,
)


def pytest_configure(config):
    if not BINARY.is_file():
        raise pytest.UsageError(f"{BINARY} is not built: run `swift build` (or `make build`) first")


def make_client() -> LanguageClient:
    """pytest-lsp's client, recording every publishDiagnostics in order (its
    own `diagnostics` keeps only the latest per file) and every
    registration the server asks for."""
    client = LanguageClient(converter_factory=default_converter)
    client.publications = []
    client.registrations = []

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.publications.append(params)

    def register(client: LanguageClient, params: types.RegistrationParams):
        client.registrations.append(params)

    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.CLIENT_REGISTER_CAPABILITY] = register
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=[str(BINARY), "lsp"], client_factory=make_client)

# What a typical editor says it can do. Tests that need another answer
# (UTF-8 positions, documentChanges, file watching) override one part.
CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "publishDiagnostics": {"relatedInformation": True, "codeDescriptionSupport": True},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "completion": {"completionItem": {"snippetSupport": False}},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}},
        "rename": {"prepareSupport": True},
        "definition": {"linkSupport": False},
    },
    "workspace": {
        "workspaceFolders": True,
        "workspaceEdit": {"documentChanges": False},
        "didChangeWatchedFiles": {"dynamicRegistration": False},
        "symbol": {},
    },
}


def merged(base: dict, override: dict) -> dict:
    result = dict(base)
    for key, value in override.items():
        result[key] = merged(result[key], value) if isinstance(value, dict) and isinstance(result.get(key), dict) else value
    return result


async def initialize(client: LanguageClient, root: pathlib.Path, override: dict | None = None) -> types.InitializeResult:
    capabilities = default_converter().structure(merged(CAPABILITIES, override or {}), types.ClientCapabilities)
    result = await asyncio.wait_for(client.initialize_session(types.InitializeParams(
        capabilities=capabilities,
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="book")],
    )), 20)
    client.initialize_result = result
    return result


async def shut_down(client: LanguageClient):
    """shutdown then exit, and the server must end with status 0; a server
    that does not is killed, so a test never hangs."""
    try:
        await asyncio.wait_for(client.shutdown_session(), 10)
    except BaseException:
        if client._server and client._server.returncode is None:
            client._server.kill()
        raise
    if client.error is None and client._server is not None:
        assert client._server.returncode == 0, f"exit after shutdown ended with {client._server.returncode}"


@pytest.fixture
def book(tmp_path) -> pathlib.Path:
    """A temporary copy of the canonical book: tmp_path/recipes/{fruits,menu}.yaml."""
    return copy_book(tmp_path / "book")


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, book):
    await initialize(lsp_client, book)
    yield
    await shut_down(lsp_client)


@pytest_lsp.fixture(config=CONFIG)
async def utf8_client(lsp_client: LanguageClient, book):
    await initialize(lsp_client, book, {"general": {"positionEncodings": ["utf-8", "utf-16"]}})
    yield
    await shut_down(lsp_client)


@pytest_lsp.fixture(config=CONFIG)
async def document_changes_client(lsp_client: LanguageClient, book):
    await initialize(lsp_client, book, {"workspace": {"workspaceEdit": {"documentChanges": True}}})
    yield
    await shut_down(lsp_client)


@pytest_lsp.fixture(config=CONFIG)
async def unprepared_rename_client(lsp_client: LanguageClient, book):
    """A client that renames without `textDocument/prepareRename` first."""
    await initialize(lsp_client, book, {"textDocument": {"rename": {"prepareSupport": False}}})
    yield
    await shut_down(lsp_client)


@pytest_lsp.fixture(config=CONFIG)
async def watching_client(lsp_client: LanguageClient, book):
    await initialize(lsp_client, book, {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}})
    yield
    await shut_down(lsp_client)


class Editor:
    """An editor's side of a session: its own copy of each open text, edits
    sent as incremental changes, positions computed from the text."""

    def __init__(self, client: LanguageClient, root: pathlib.Path, tmp: pathlib.Path, encoding: str = "utf-16"):
        self.client = client
        self.root = root
        self.encoding = encoding
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self._tmp = tmp
        self._cli_runs = itertools.count()

    # Files

    def path(self, name: str) -> pathlib.Path:
        return self.root / "recipes" / name

    def uri(self, name: str) -> str:
        return self.path(name).as_uri()

    def disk(self, name: str) -> str:
        return self.path(name).read_bytes().decode("utf-8")

    def text(self, name: str) -> str:
        """The open text, or the disk's for a file that is not open."""
        return self.texts[name] if name in self.texts else self.disk(name)

    def document(self, name: str) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(uri=self.uri(name))

    # Sync

    def open(self, name: str, text: str | None = None) -> str:
        text = self.disk(name) if text is None else text
        self.texts[name] = text
        self.versions[name] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=self.uri(name), language_id="yaml", version=1, text=text)))
        return text

    def close(self, name: str):
        del self.texts[name]
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=self.document(name)))

    def _send(self, name: str, events: list):
        self.versions[name] += 1
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=self.uri(name), version=self.versions[name]),
            content_changes=events))

    def change(self, name: str, *changes: tuple[int, int, str]) -> str:
        """One didChange of several (start, end, new text) string-offset
        edits, each against the text the previous one left, as LSP applies
        them."""
        text = self.texts[name]
        events = []
        for start, end, new in changes:
            (sl, sc), (el, ec) = position_at(text, start, self.encoding), position_at(text, end, self.encoding)
            events.append(types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
                text=new))
            text = text[:start] + new + text[end:]
        self.texts[name] = text
        self._send(name, events)
        return text

    def change_range(self, name: str, r: dict, new: str) -> str:
        """A didChange with an LSP range as given (it may lie past the end)."""
        text = self.texts[name]
        start = offset_of(text, r["start"]["line"], r["start"]["character"], self.encoding)
        end = offset_of(text, r["end"]["line"], r["end"]["character"], self.encoding)
        self.texts[name] = text[:start] + new + text[end:]
        self._send(name, [types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(**r["start"]), end=types.Position(**r["end"])), text=new)])
        return self.texts[name]

    def replace_all(self, name: str, text: str) -> str:
        """A didChange without a range: the whole text."""
        self.texts[name] = text
        self._send(name, [types.TextDocumentContentChangeWholeDocument(text=text)])
        return text

    def replace(self, name: str, old: str, new: str, nth: int = 0, after: str | None = None) -> str:
        start = find(self.texts[name], old, nth, after)
        return self.change(name, (start, start + len(old), new))

    def send_edits(self, name: str, edits) -> str:
        """Applies a server's TextEdit[] to the open text and sends it as
        incremental changes, the last edit first so that every range still
        refers to unchanged text."""
        expected = apply_edits(self.texts[name], edits, self.encoding)
        events = []
        for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            events.append(types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
        self.texts[name] = expected
        self._send(name, events)
        return expected

    # Positions

    def position(self, name: str, needle: str, nth: int = 0, after: str | None = None, delta: int = 0) -> types.Position:
        """The position `delta` characters into the nth occurrence of needle."""
        text = self.text(name)
        line, character = position_at(text, find(text, needle, nth, after) + delta, self.encoding)
        return types.Position(line=line, character=character)

    # Diagnostics

    def mark(self) -> int:
        return len(self.client.publications)

    async def published(self, name: str, since: int = 0, predicate=lambda diagnostics: True, timeout: float = 10,
                        uri: str | None = None) -> list:
        """The diagnostics of the latest publication for `name` (or `uri`)
        after the mark `since`, once it satisfies predicate."""
        uri = uri or self.uri(name)
        deadline = time.monotonic() + timeout
        while True:
            latest = [p for p in self.client.publications[since:] if p.uri == uri]
            if latest and predicate(latest[-1].diagnostics):
                return list(latest[-1].diagnostics)
            if time.monotonic() > deadline:
                shown = [(plain_range(d.range), d.code, d.message) for d in latest[-1].diagnostics] if latest else "nothing"
                raise AssertionError(f"no publication for {name} as expected within {timeout} s; the last: {shown}")
            await asyncio.sleep(0.02)

    def expected(self, texts: dict[str, str] | None = None) -> dict[str, list[dict]]:
        """The command line's diagnostics for the book as the editor sees
        it (open texts over the disk), or for `texts` over it."""
        book = {name: self.text(name) for name in BOOK_FILES}
        for extra in sorted(self.path("").iterdir()):
            if extra.name not in book and extra.suffix in (".yaml", ".yml"):
                book[extra.name] = self.text(extra.name)
        book.update(texts or {})
        return cli_diagnostics(book, self._tmp / f"cli-{next(self._cli_runs)}")


@pytest.fixture
def editor(client, book, tmp_path) -> Editor:
    return Editor(client, book, tmp_path)


@pytest.fixture
def utf8_editor(utf8_client, book, tmp_path) -> Editor:
    return Editor(utf8_client, book, tmp_path, encoding="utf-8")


@pytest.fixture
def document_changes_editor(document_changes_client, book, tmp_path) -> Editor:
    return Editor(document_changes_client, book, tmp_path)


@pytest.fixture
def unprepared_rename_editor(unprepared_rename_client, book, tmp_path) -> Editor:
    return Editor(unprepared_rename_client, book, tmp_path)
