"""When diagnostics are published: a document opened at the start of a
session hears once, with the version it was opened at. The book's
diagnostics, read at `initialize`, used to go out behind the answer to
`initialize` with no version, and a client that handled that answer first
(sending `initialized` and `didOpen`) then got two publications for its
open: that one, and the open's own."""

import asyncio
import time

from support import RawServer, canonical_text, copy_book

# How long after a publication the test waits to be sure no second one comes.
QUIET = 1.0


async def test_an_open_at_the_start_is_published_once_with_its_version(editor):
    # The fixture has just sent `initialized`; the editor opens at once, as
    # editors do. menu.yaml has an info, so every publication for it is seen.
    editor.open("menu.yaml")
    await editor.published("menu.yaml")
    await asyncio.sleep(QUIET)
    # Counted over the whole session, not from the open: the one that came
    # before it is the one that should not exist.
    published = [p for p in editor.client.publications if p.uri == editor.uri("menu.yaml")]
    assert [(p.version, [d.code for d in p.diagnostics]) for p in published] == [(1, ["never-makeable"])]


async def test_a_later_open_is_published_once_with_its_version(editor):
    await editor.published("menu.yaml")  # the book's, since nothing was opened
    since = editor.mark()
    editor.open("menu.yaml")
    await editor.published("menu.yaml", since)
    await asyncio.sleep(QUIET)
    published = [p for p in editor.client.publications[since:] if p.uri == editor.uri("menu.yaml")]
    assert [p.version for p in published] == [1]


def test_initialized_and_did_open_together_are_published_once(tmp_path):
    # A client writes `initialized` and its opens together, after reading
    # the answer to `initialize` and before reading what follows it.
    root = copy_book(tmp_path / "book")
    uri = (root / "recipes" / "menu.yaml").as_uri()
    server = RawServer()
    try:
        answer = server.request(0, "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        assert "result" in answer, answer
        server.send_bytes(
            RawServer.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
            + RawServer.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": uri, "languageId": "yaml", "version": 3, "text": canonical_text("menu.yaml")}}}))
        server.diagnostics(uri)
        server.notifications += server.nothing_within(QUIET)
        published = [m["params"] for m in server.notifications
                     if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
        assert [(p.get("version"), [d["code"] for d in p["diagnostics"]]) for p in published] == [(3, ["never-makeable"])]
    finally:
        server.kill()


def test_a_client_that_opens_nothing_still_hears_the_books_diagnostics(tmp_path):
    root = copy_book(tmp_path / "book")
    uri = (root / "recipes" / "menu.yaml").as_uri()
    server = RawServer()
    try:
        started = time.monotonic()
        server.initialize(root)
        [info] = server.diagnostics(uri)
        assert info["code"] == "never-makeable"
        # Held for the client's first opens, but not for long.
        assert time.monotonic() - started < 5
        [publication] = [m["params"] for m in server.notifications if m.get("method") == "textDocument/publishDiagnostics"]
        assert publication.get("version") is None, "a file that is not open has no version"
    finally:
        server.kill()


def test_requests_do_not_put_the_books_diagnostics_off(tmp_path):
    # The wait for the first opens is a deadline from `initialize`: a client
    # that asks things every tenth of a second, and opens nothing, still
    # hears the book's diagnostics.
    root = copy_book(tmp_path / "book")
    uri = (root / "recipes" / "menu.yaml").as_uri()
    server = RawServer()
    try:
        server.initialize(root)
        for id in range(1, 21):
            server.request(id, "workspace/symbol", {"query": "kiwi"})
            time.sleep(0.1)
        published = [m["params"] for m in server.notifications
                     if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
        assert [[d["code"] for d in p["diagnostics"]] for p in published] == [["never-makeable"]]
    finally:
        server.kill()
