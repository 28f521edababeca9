"""Positions both ways: UTF-16 code units by default, UTF-8 bytes when the
client offers them, after Korean labels and emoji and with CRLF line ends.
Every expected `character` is computed here from the text."""

import pytest
from lsprotocol import types

from support import (
    apply_edits, assert_same_diagnostics, canonical_text, codes, find, plain_range, position_at, span,
    workspace_edits,
)

# A Korean label and an emoji (two UTF-16 units, four UTF-8 bytes) before a
# misspelled fruit and a correct one, on one line.
ITEM = "  kimchi-juice: { label: 김치🥬주스, recipe: { mangoo: 1, kiwi: 2 } }\n"


def test_the_fixture_line_tells_the_encodings_apart():
    # Otherwise a server counting scalars or bytes could pass by accident.
    prefix = ITEM[: ITEM.index("mangoo")]
    counts = {len(prefix), len(prefix.encode("utf-16-le")) // 2, len(prefix.encode("utf-8"))}
    assert len(counts) == 3, counts


async def check_item(editor, name: str, text: str):
    """The diagnostic of the misspelled fruit and a definition from the
    correct one, in the editor's encoding."""
    published = await editor.published(name, 0, lambda ds: bool(codes(ds, "unknown-fruit")))
    [typo] = codes(published, "unknown-fruit")
    assert plain_range(typo.range) == span(text, "mangoo", encoding=editor.encoding)
    assert "did you mean 'mango'" in typo.message

    # From the other side: a position after the emoji finds kiwi.
    line, character = position_at(text, find(text, "kiwi: 2") + 2, editor.encoding)
    result = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=editor.document(name), position=types.Position(line=line, character=character)))
    result = result if isinstance(result, (list, tuple)) else [result]
    assert [(l.uri, plain_range(l.range)) for l in result] == [
        (editor.uri("fruits.yaml"), span(canonical_text("fruits.yaml"), "kiwi", encoding=editor.encoding))]
    return published


async def test_utf16_after_korean_and_emoji(editor):
    assert editor.client.initialize_result.capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, ITEM))
    published = await check_item(editor, "menu.yaml", text)
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])


async def test_utf16_in_a_crlf_file(editor):
    text = (canonical_text("menu.yaml") + ITEM).replace("\n", "\r\n")
    editor.open("menu.yaml", text)
    published = await check_item(editor, "menu.yaml", text)
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])
    # The last line's end is right too (a stray \r would shift it).
    [info] = codes(published, "never-makeable")
    assert plain_range(info.range) == span(text, "  strawberry-juice:", part="strawberry-juice")

    # An incremental edit in the CRLF text, after the emoji line.
    since = editor.mark()
    text = editor.replace("menu.yaml", "kiwi: 2 }", "kiwii: 2 }")
    published = await editor.published("menu.yaml", since, lambda ds: len(codes(ds, "unknown-fruit")) == 2)
    assert sorted(plain_range(d.range)["start"]["character"] for d in codes(published, "unknown-fruit")) == sorted(
        [span(text, "mangoo")["start"]["character"], span(text, "kiwii")["start"]["character"]])
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])


async def test_utf8_when_the_client_offers_it(utf8_editor):
    editor = utf8_editor
    assert editor.client.initialize_result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, ITEM))
    await check_item(editor, "menu.yaml", text)

    # An edit in bytes lands where it should: after the emoji, 'mangoo' -> 'mango'.
    since = editor.mark()
    at = find(text, "mangoo") + len("mango")
    text = editor.change("menu.yaml", (at, at + 1, ""))
    assert "recipe: { mango: 1, kiwi: 2 }" in text
    published = await editor.published("menu.yaml", since, lambda ds: not codes(ds, "unknown-fruit"))
    assert [d.code for d in published] == ["never-makeable"]


async def rename_kiwi(editor, name: str, text: str):
    """Renames kiwi from its use after the emoji; returns the edited texts."""
    line, character = position_at(text, find(text, "kiwi: 2") + 1, editor.encoding)
    edit = await editor.client.text_document_rename_async(types.RenameParams(
        text_document=editor.document(name), position=types.Position(line=line, character=character), new_name="gold-kiwi"))
    names = {editor.uri(n): n for n in ("fruits.yaml", "menu.yaml")}
    return {names[uri]: apply_edits(editor.text(names[uri]), edits, editor.encoding)
            for uri, edits in workspace_edits(edit).items()}


def expected_rename(menu: str) -> str:
    for old, new in (("{ kiwi: 3 }", "{ gold-kiwi: 3 }"), ("kiwi: 1 }", "gold-kiwi: 1 }"), ("kiwi: 2 }", "gold-kiwi: 2 }")):
        assert menu.count(old) == 1
        menu = menu.replace(old, new)
    return menu


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
async def test_rename_after_an_emoji(editor, line_end):
    text = (canonical_text("menu.yaml") + ITEM).replace("\n", line_end)
    editor.open("menu.yaml", text)
    result = await rename_kiwi(editor, "menu.yaml", text)
    assert result["menu.yaml"] == expected_rename(text)
    assert result["fruits.yaml"] == canonical_text("fruits.yaml").replace("  kiwi:", "  gold-kiwi:")


async def test_rename_after_an_emoji_in_utf8(utf8_editor):
    editor = utf8_editor
    text = canonical_text("menu.yaml") + ITEM
    editor.open("menu.yaml", text)
    result = await rename_kiwi(editor, "menu.yaml", text)
    assert result["menu.yaml"] == expected_rename(text)


async def test_an_id_with_an_emoji_in_it(editor):
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, "  emoji-juice: { label: 🥝🥝, recipe: { 🥝kiwi: 1 } }\n"))
    published = await editor.published("menu.yaml", 0, lambda ds: bool(codes(ds, "unknown-fruit")))
    [typo] = codes(published, "unknown-fruit")
    assert plain_range(typo.range) == span(text, "🥝kiwi")
    assert typo.range.end.character - typo.range.start.character == 6
    assert_same_diagnostics(published, editor.expected()["menu.yaml"])


async def test_completion_after_an_emoji(editor):
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, "  kimchi-juice: { label: 김치🥬, recipe: { kiwi: 1,  } }\n"))
    line, character = position_at(text, find(text, "{ kiwi: 1, ") + len("{ kiwi: 1, "))
    result = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=editor.document("menu.yaml"), position=types.Position(line=line, character=character)))
    items = result.items if isinstance(result, types.CompletionList) else result
    labels = {i.label for i in items}
    assert "kiwi" not in labels and "kimchi-juice" not in labels
    assert {"mango", "banana", "kiwi-juice"} <= labels


async def test_hover_range_after_an_emoji(editor):
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, ITEM))
    line, character = position_at(text, find(text, "kiwi: 2") + 4)  # touching the end of kiwi
    result = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=editor.document("menu.yaml"), position=types.Position(line=line, character=character)))
    assert "키위" in result.contents.value
    assert plain_range(result.range) == span(text, "kiwi: 2", part="kiwi")
