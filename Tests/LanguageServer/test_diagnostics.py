"""Diagnostics as the editor sees them: the command line's, on every file of
the book, cross-file, after edits; and the code actions that fix them."""

import asyncio

from lsprotocol import types

from support import (
    apply_edits, assert_same_diagnostics, canonical_text, codes, find,
    plain_range, span, workspace_edits,
)


def has(code: str, count: int | None = None):
    return lambda diagnostics: len(codes(diagnostics, code)) == count if count is not None else bool(codes(diagnostics, code))


def lacks(code: str):
    return lambda diagnostics: not codes(diagnostics, code)


async def code_actions(editor, name, diagnostic) -> list:
    result = await editor.client.text_document_code_action_async(types.CodeActionParams(
        text_document=editor.document(name), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic])))
    return [a for a in (result or []) if isinstance(a, types.CodeAction)]


def fixes_for(actions, diagnostic) -> list:
    """The quick fixes that say they fix this diagnostic."""
    return [
        a for a in actions
        if a.kind == types.CodeActionKind.QuickFix
        and any(d.code == diagnostic.code and plain_range(d.range) == plain_range(diagnostic.range) for d in a.diagnostics or [])
    ]


async def test_the_book_is_checked_at_start_without_opening_a_file(editor):
    # The canonical book's one info (strawberry-juice needs 16 of 10
    # strawberries) is published for menu.yaml, which nobody opened.
    published = await editor.published("menu.yaml", 0, has("never-makeable"))
    expected = editor.expected()
    assert [d["code"] for d in expected["menu.yaml"]] == ["never-makeable"]
    assert_same_diagnostics(published, expected["menu.yaml"])
    assert plain_range(published[0].range) == span(canonical_text("menu.yaml"), "  strawberry-juice:", part="strawberry-juice")
    assert published[0].severity == types.DiagnosticSeverity.Information


async def test_a_typo_gets_did_you_mean_and_its_quick_fix_clears_it(editor):
    name = "menu.yaml"
    editor.open(name)
    since = editor.mark()
    at = find(editor.text(name), "mango: 3") + len("mango")
    text = editor.change(name, (at, at, "o"))  # typing one letter
    assert "recipe: { mangoo: 3 }" in text

    published = await editor.published(name, since, has("unknown-fruit"))
    [typo] = codes(published, "unknown-fruit")
    assert plain_range(typo.range) == span(text, "mangoo")
    assert typo.severity == types.DiagnosticSeverity.Error
    assert typo.source == "juice-lint"
    assert typo.message.startswith("unknown fruit 'mangoo'")
    assert "help: did you mean 'mango'?" in typo.message
    assert_same_diagnostics(published, editor.expected()[name])

    actions = await code_actions(editor, name, typo)
    # An error cannot be suppressed, so the did-you-mean is the one fix.
    [fix] = fixes_for(actions, typo)
    assert "mango" in fix.title
    edits = workspace_edits(fix.edit)
    assert list(edits) == [editor.uri(name)]
    assert apply_edits(text, edits[editor.uri(name)]) == canonical_text(name)

    since = editor.mark()
    fixed = editor.send_edits(name, edits[editor.uri(name)])
    assert fixed == canonical_text(name)
    published = await editor.published(name, since, lacks("unknown-fruit"))
    assert_same_diagnostics(published, editor.expected()[name])
    assert [d.code for d in published] == ["never-makeable"]


async def test_removing_a_fruit_reports_its_uses_in_a_closed_file_and_restoring_it_clears_them(editor):
    fruits = editor.open("fruits.yaml")
    menu = canonical_text("menu.yaml")
    definition = "  kiwi: { label: 키위, emoji: 🥝 }\n"
    stock = "  kiwi: 10\n"
    a, b = find(fruits, definition), find(fruits, stock)
    since = editor.mark()
    # Two changes in one notification: the second's range is in the text
    # the first one left (b moved up by the removed line).
    editor.change("fruits.yaml", (a, a + len(definition), ""), (b - len(definition), b - len(definition) + len(stock), ""))
    assert "kiwi" not in editor.text("fruits.yaml")

    published = await editor.published("menu.yaml", since, has("unknown-fruit", 2))
    uses = sorted((plain_range(d.range) for d in codes(published, "unknown-fruit")), key=lambda r: r["start"]["line"])
    assert uses == [span(menu, "{ kiwi: 3 }", part="kiwi"), span(menu, "kiwi: 1 }", part="kiwi")]
    assert all(d.message.startswith("unknown fruit 'kiwi'") for d in codes(published, "unknown-fruit"))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])

    since = editor.mark()
    editor.change("fruits.yaml", (a, a, definition), (b, b, stock))
    assert editor.text("fruits.yaml") == canonical_text("fruits.yaml")
    published = await editor.published("menu.yaml", since, lacks("unknown-fruit"))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    assert [d.code for d in published] == ["never-makeable"]


async def test_a_restock_in_one_file_clears_the_info_in_another_with_an_empty_list(editor):
    editor.open("fruits.yaml")
    await editor.published("menu.yaml", 0, has("never-makeable"))
    since = editor.mark()
    editor.replace("fruits.yaml", "strawberry: 10", "strawberry: 16")
    assert await editor.published("menu.yaml", since) == []

    since = editor.mark()
    editor.replace("fruits.yaml", "strawberry: 16", "strawberry: 10")
    published = await editor.published("menu.yaml", since)
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    assert [d.code for d in published] == ["never-makeable"]


async def test_notes_are_related_information_across_files(editor):
    # A menu item named like a fruit: a duplicate, with a note at the fruit.
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    since = editor.mark()
    text = editor.change("menu.yaml", (end, end, "  kiwi:\n    recipe: { mango: 1 }\n"))
    published = await editor.published("menu.yaml", since, has("duplicate-definition"))
    expected = editor.expected()["menu.yaml"]
    [duplicate] = [d for d in expected if d["code"] == "duplicate-definition"]
    assert duplicate["notes"], "the duplicate should carry a note at the first definition"
    assert duplicate["range"] == span(text, "  kiwi:\n", part="kiwi")
    assert_same_diagnostics(published, expected)
    [related] = codes(published, "duplicate-definition")[0].related_information
    assert related.location.uri == editor.uri("fruits.yaml")
    assert plain_range(related.location.range)["start"] == span(canonical_text("fruits.yaml"), "kiwi")["start"]


async def test_add_a_stock_entry_on_missing_stock(editor):
    editor.open("fruits.yaml")
    since = editor.mark()
    editor.replace("fruits.yaml", "  mango: 10\n", "")
    published = await editor.published("fruits.yaml", since, has("missing-stock"))
    assert_same_diagnostics(published, editor.expected()["fruits.yaml"])
    [missing] = codes(published, "missing-stock")
    assert "mango" in missing.message

    actions = fixes_for(await code_actions(editor, "fruits.yaml", missing), missing)
    [add] = [a for a in actions if "stock" in a.title.lower() and "mango" in a.title]
    edits = workspace_edits(add.edit)
    assert list(edits) == [editor.uri("fruits.yaml")]
    since = editor.mark()
    fixed = editor.send_edits("fruits.yaml", edits[editor.uri("fruits.yaml")])
    # The entry it adds is read as a stock entry for mango: the command line
    # finds nothing missing in the result.
    assert editor.expected()["fruits.yaml"] == []
    assert "mango:" in fixed[fixed.index("stock:"):]
    assert await editor.published("fruits.yaml", since) == []


async def test_suppress_an_info_on_its_line(editor):
    editor.open("menu.yaml")
    [info] = await editor.published("menu.yaml", 0, has("never-makeable"))
    actions = fixes_for(await code_actions(editor, "menu.yaml", info), info)
    [suppress] = [a for a in actions if "never-makeable" in a.title and "suppress" in a.title.lower()]
    edits = workspace_edits(suppress.edit)[editor.uri("menu.yaml")]
    line = info.range.start.line
    assert all(e.range.start.line == line and e.range.end.line == line for e in edits), edits
    since = editor.mark()
    fixed = editor.send_edits("menu.yaml", edits)
    assert fixed.splitlines()[line].startswith("  strawberry-juice:")
    # Suppressed, and the comment is used: nothing is left, by the command
    # line's reading too.
    assert editor.expected()["menu.yaml"] == []
    assert await editor.published("menu.yaml", since) == []


async def test_an_edit_past_the_end_of_a_line_or_of_the_file_lands_at_the_end(editor):
    editor.open("menu.yaml")
    since = editor.mark()
    # Past the end of line 2 (`version: 1`): read as its end.
    text = editor.change_range("menu.yaml", {"start": {"line": 2, "character": 999}, "end": {"line": 2, "character": 999}}, "0")
    assert "version: 10\n" in text
    # Past the end of the file: read as the end.
    text = editor.change_range("menu.yaml", {"start": {"line": 9999, "character": 0}, "end": {"line": 9999, "character": 5}},
                               "  lime-juice:\n    recipe: { mangoo: 1 }\n")
    assert text.endswith("kiwi: 1 }\n  lime-juice:\n    recipe: { mangoo: 1 }\n")
    published = await editor.published("menu.yaml", since, has("unknown-fruit"))
    [typo] = codes(published, "unknown-fruit")
    assert plain_range(typo.range) == span(text, "mangoo")
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    assert any(d["range"]["start"]["line"] == 2 for d in editor.expected()["menu.yaml"]), "version: 10 should be reported"


async def test_closing_a_book_file_returns_it_to_the_disk(editor):
    editor.open("menu.yaml")
    since = editor.mark()
    editor.replace("menu.yaml", "mango: 3", "mangoo: 3")
    await editor.published("menu.yaml", since, has("unknown-fruit"))
    since = editor.mark()
    editor.close("menu.yaml")
    published = await editor.published("menu.yaml", since, lacks("unknown-fruit"))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])


async def test_a_file_outside_the_book_is_checked_alone_and_cleared_on_close(editor, tmp_path):
    loose = tmp_path / "loose" / "extra.yaml"
    loose.parent.mkdir()
    text = "menu:\n  lime-juice:\n    recipe: { lime: 1 }\n"
    loose.write_text(text)
    uri = loose.as_uri()
    since = editor.mark()
    editor.client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    # A book of one file: lime is not a fruit there (the canonical book's
    # fruits do not count), mango would not be either.
    published = await editor.published("extra.yaml", since, has("unknown-fruit"), uri=uri)
    assert [plain_range(d.range) for d in codes(published, "unknown-fruit")] == [span(text, "lime: 1", part="lime")]
    since = editor.mark()
    editor.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await editor.published("extra.yaml", since, uri=uri) == []


async def test_files_changed_on_disk_reach_the_book(editor):
    fruits = editor.path("fruits.yaml")
    fruits.write_text(canonical_text("fruits.yaml").replace("  kiwi: { label: 키위, emoji: 🥝 }\n", "").replace("  kiwi: 10\n", ""))
    since = editor.mark()
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=editor.uri("fruits.yaml"), type=types.FileChangeType.Changed)]))
    published = await editor.published("menu.yaml", since, has("unknown-fruit", 2))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])

    # A new file joins the book; deleted, its diagnostics are cleared.
    extra = editor.path("extra.yaml")
    extra.write_text("menu:\n  lime-juice:\n    recipe: { mangoo: 1 }\n")
    since = editor.mark()
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=editor.uri("extra.yaml"), type=types.FileChangeType.Created)]))
    published = await editor.published("extra.yaml", since, has("unknown-fruit"))
    assert_same_diagnostics(published, editor.expected()["extra.yaml"])
    extra.unlink()
    since = editor.mark()
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=editor.uri("extra.yaml"), type=types.FileChangeType.Deleted)]))
    assert await editor.published("extra.yaml", since) == []


async def test_the_server_registers_for_file_events_when_allowed(watching_client):
    for _ in range(250):
        if watching_client.registrations:
            break
        await asyncio.sleep(0.02)
    [params] = watching_client.registrations
    [registration] = params.registrations
    assert registration.method == "workspace/didChangeWatchedFiles"
    # register_options is LSPAny: plain JSON as sent.
    globs = [w["globPattern"] for w in registration.register_options["watchers"]]
    assert any("yaml" in str(g) for g in globs), globs


async def test_no_registration_without_dynamic_registration(editor):
    await editor.published("menu.yaml", 0, has("never-makeable"))
    assert editor.client.registrations == []


async def test_a_plainly_written_number_fix(editor):
    editor.open("menu.yaml")
    since = editor.mark()
    text = editor.replace("menu.yaml", "{ kiwi: 3 }", "{ kiwi: 03 }")
    published = await editor.published("menu.yaml", since, lambda ds: any(d.severity == types.DiagnosticSeverity.Error for d in ds))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    [amount] = [d for d in published if d.severity == types.DiagnosticSeverity.Error]
    assert plain_range(amount.range) == span(text, "{ kiwi: 03 }", part="03")
    assert "write 3" in amount.message
    [fix] = fixes_for(await code_actions(editor, "menu.yaml", amount), amount)
    since = editor.mark()
    assert editor.send_edits("menu.yaml", workspace_edits(fix.edit)[editor.uri("menu.yaml")]) == canonical_text("menu.yaml")
    assert [d.code for d in await editor.published("menu.yaml", since)] == ["never-makeable"]


async def test_remove_a_suppression_that_suppresses_nothing(editor):
    editor.open("menu.yaml")
    since = editor.mark()
    # banana-juice can be made: nothing to suppress.
    text = editor.replace("menu.yaml", "  banana-juice:\n", "  banana-juice:  # juice-lint disable-line never-makeable\n")
    published = await editor.published("menu.yaml", since, has("unused-suppression"))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    [unused] = codes(published, "unused-suppression")
    assert unused.severity == types.DiagnosticSeverity.Warning
    assert plain_range(unused.range)["start"]["line"] == span(text, "  banana-juice:")["start"]["line"]
    actions = fixes_for(await code_actions(editor, "menu.yaml", unused), unused)
    [remove] = [a for a in actions if "remove" in a.title.lower()]
    since = editor.mark()
    fixed = editor.send_edits("menu.yaml", workspace_edits(remove.edit)[editor.uri("menu.yaml")])
    assert "juice-lint disable" not in fixed
    assert [line.rstrip() for line in fixed.splitlines()] == canonical_text("menu.yaml").splitlines()
    assert [d.code for d in await editor.published("menu.yaml", since)] == ["never-makeable"]


async def test_yaml_syntax_errors_while_typing(editor):
    editor.open("menu.yaml")
    since = editor.mark()
    text = editor.replace("menu.yaml", "{ mango: 3 }", "{ mango: 3")
    published = await editor.published("menu.yaml", since, has("yaml-syntax"))
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    since = editor.mark()
    at = find(text, "{ mango: 3") + len("{ mango: 3")
    editor.change("menu.yaml", (at, at, " }"))
    assert editor.text("menu.yaml") == canonical_text("menu.yaml")
    assert [d.code for d in await editor.published("menu.yaml", since)] == ["never-makeable"]


async def test_a_whole_document_change(editor):
    # A change without a range replaces the text, even under incremental sync.
    editor.open("menu.yaml")
    since = editor.mark()
    text = canonical_text("menu.yaml").replace("{ banana: 2 }", "{ bananna: 2 }")
    editor.replace_all("menu.yaml", text)
    published = await editor.published("menu.yaml", since, has("unknown-fruit"))
    assert [plain_range(d.range) for d in codes(published, "unknown-fruit")] == [span(text, "bananna")]
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])


async def test_a_published_version_is_the_version_checked(editor):
    editor.open("menu.yaml")
    for typo in ("mangoo", "mangooo", "mangoooo"):
        since = editor.mark()
        text = editor.replace("menu.yaml", "{ " + typo[:-1] + ": 3 }", "{ " + typo + ": 3 }")
        await editor.published("menu.yaml", since, lambda ds: any(f"'{typo}'" in d.message for d in ds))
        [latest] = [p for p in editor.client.publications[since:] if p.uri == editor.uri("menu.yaml")][-1:]
        assert latest.version in (None, editor.versions["menu.yaml"]), (latest.version, editor.versions)
    assert "{ mangoooo: 3 }" in text


async def test_a_new_file_not_on_disk_joins_the_book_and_leaves_it_on_close(editor):
    name = "specials.yaml"
    text = "menu:\n  kiwi-special:\n    recipe: { kiwi-juice: 1, mangoo: 1 }\n"
    since = editor.mark()
    editor.texts[name] = text
    editor.versions[name] = 1
    editor.client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=editor.uri(name), language_id="yaml", version=1, text=text)))
    # kiwi-juice (menu.yaml) is found; mangoo is not.
    published = await editor.published(name, since, has("unknown-fruit"))
    assert [plain_range(d.range) for d in published if d.severity == types.DiagnosticSeverity.Error] == [span(text, "mangoo")]
    since = editor.mark()
    editor.close(name)
    assert await editor.published(name, since) == []


async def test_a_new_juice_lint_yaml_reaches_the_book(editor):
    await editor.published("menu.yaml", 0, has("never-makeable"))
    config = editor.root / ".juice-lint.yaml"
    config.write_text("rules:\n  never-makeable: off\n")
    since = editor.mark()
    editor.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]))
    assert await editor.published("menu.yaml", since) == []
