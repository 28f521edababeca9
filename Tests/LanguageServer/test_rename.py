"""Rename across the two files: the edit is applied by the test and the
result checked byte for byte, and read back by the command line; refusals
are errors with no edit."""

import pygls.exceptions
import pytest
from lsprotocol import types

from support import RawServer, apply_edits, canonical_text, plain_range, span, workspace_edits

FRUITS_TEXT = canonical_text("fruits.yaml")
MENU_TEXT = canonical_text("menu.yaml")
REQUEST_FAILED = -32803


def renamed_kiwi(written: str) -> dict[str, str]:
    """The canonical book with the fruit kiwi written as `written`: its
    definition, its stock entry and its two uses, nothing else (not
    kiwi-juice, not mango-kiwi-juice, not the labels)."""
    fruits = FRUITS_TEXT.replace("  kiwi: { label: 키위", f"  {written}: {{ label: 키위").replace("  kiwi: 10\n", f"  {written}: 10\n")
    menu = MENU_TEXT.replace("{ kiwi: 3 }", f"{{ {written}: 3 }}").replace("kiwi: 1 }", f"{written}: 1 }}")
    assert fruits.count(written) == 2 and menu.count(written) == 2
    return {"fruits.yaml": fruits, "menu.yaml": menu}


async def rename(editor, name, position, new_name):
    return await editor.client.text_document_rename_async(types.RenameParams(
        text_document=editor.document(name), position=position, new_name=new_name))


def apply(editor, edit: types.WorkspaceEdit) -> dict[str, str]:
    per_uri = workspace_edits(edit)
    names = {editor.uri(n): n for n in ("fruits.yaml", "menu.yaml")}
    assert set(per_uri) <= set(names), f"edits outside the book: {set(per_uri)}"
    return {names[uri]: apply_edits(editor.text(names[uri]), edits) for uri, edits in per_uri.items()}


@pytest.mark.parametrize("start", ["a use in menu.yaml", "the definition", "the stock entry"])
async def test_rename_a_fruit_across_two_files(editor, start):
    editor.open("menu.yaml")
    position = {
        "a use in menu.yaml": ("menu.yaml", editor.position("menu.yaml", "{ kiwi: 3 }", delta=4)),
        "the definition": ("fruits.yaml", editor.position("fruits.yaml", "  kiwi: {", delta=2)),
        "the stock entry": ("fruits.yaml", editor.position("fruits.yaml", "kiwi: 10", delta=1)),
    }[start]
    edit = await rename(editor, *position, "gold-kiwi")
    assert edit.document_changes is None, "the client did not offer documentChanges"
    result = apply(editor, edit)
    assert result == renamed_kiwi("gold-kiwi")

    # Applied as an editor would, one file and then the other, the book is
    # as sound as before.
    since = editor.mark()
    editor.send_edits("menu.yaml", workspace_edits(edit)[editor.uri("menu.yaml")])
    assert editor.text("menu.yaml") == result["menu.yaml"]
    published = await editor.published("menu.yaml", since, lambda ds: sum(d.code == "unknown-fruit" for d in ds) == 2)
    since = editor.mark()
    editor.open("fruits.yaml", result["fruits.yaml"])
    published = await editor.published("menu.yaml", since, lambda ds: not any(d.code == "unknown-fruit" for d in ds))
    assert [d.code for d in published] == ["never-makeable"]
    assert [d["code"] for d in editor.expected(result)["menu.yaml"]] == ["never-makeable"]


async def test_prepare_rename_gives_the_id_range(editor):
    result = await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=editor.document("menu.yaml"), position=editor.position("menu.yaml", "{ kiwi: 3 }", delta=3)))
    if isinstance(result, types.PrepareRenamePlaceholder):
        assert result.placeholder == "kiwi"
        result = result.range
    assert plain_range(result) == span(MENU_TEXT, "{ kiwi: 3 }", part="kiwi")


async def test_a_quoted_key_stays_quoted(editor):
    editor.open("menu.yaml")
    editor.replace("menu.yaml", "{ kiwi: 3 }", '{ "kiwi": 3 }')
    edit = await rename(editor, "menu.yaml", editor.position("menu.yaml", "kiwi: 1 }"), "gold-kiwi")
    result = apply(editor, edit)
    expected = renamed_kiwi("gold-kiwi")
    expected["menu.yaml"] = expected["menu.yaml"].replace("{ gold-kiwi: 3 }", '{ "gold-kiwi": 3 }')
    assert result == expected


async def test_a_name_yaml_would_misread_is_single_quoted(editor):
    # `@` cannot begin a plain scalar, yet "@kiwi" is a valid id.
    edit = await rename(editor, "fruits.yaml", editor.position("fruits.yaml", "  kiwi: {", delta=2), "@kiwi")
    result = apply(editor, edit)
    assert result == renamed_kiwi("'@kiwi'")
    assert [d["code"] for d in editor.expected(result)["menu.yaml"]] == ["never-makeable"]
    assert editor.expected(result)["fruits.yaml"] == []


async def test_rename_a_menu_item(editor):
    edit = await rename(editor, "menu.yaml", editor.position("menu.yaml", "  mango-juice:", delta=2), "mango-smoothie")
    assert apply(editor, edit) == {"menu.yaml": MENU_TEXT.replace("  mango-juice:", "  mango-smoothie:")}


@pytest.mark.parametrize("new_name, why", [
    ("mango", "a fruit's id"),
    ("mango-kiwi-juice", "a menu item's id"),
    ("stock", "reserved"),
    ("restock", "reserved"),
    ("set", "reserved"),
    ("gold kiwi", "whitespace"),
    ("kiwi#2", "a comment sign"),
    ("", "empty"),
    ("ki\twi", "a control character"),
])
async def test_rename_refused(editor, new_name, why):
    with pytest.raises(pygls.exceptions.JsonRpcException) as refused:
        await rename(editor, "menu.yaml", editor.position("menu.yaml", "{ kiwi: 3 }", delta=2), new_name)
    assert refused.value.code == REQUEST_FAILED, (refused.value.code, refused.value.message)
    assert refused.value.message.strip(), "the reason"
    if why.endswith("id"):
        assert new_name in refused.value.message


async def test_document_changes_when_the_client_supports_them(document_changes_editor):
    editor = document_changes_editor
    editor.open("menu.yaml")
    editor.replace("menu.yaml", "# The", "# the")  # version 2
    edit = await rename(editor, "menu.yaml", editor.position("menu.yaml", "{ kiwi: 3 }", delta=2), "gold-kiwi")
    assert edit.changes is None
    versions = {c.text_document.uri: c.text_document.version for c in edit.document_changes}
    # The open file at the version the server has; the closed one as on disk.
    assert versions == {editor.uri("menu.yaml"): 2, editor.uri("fruits.yaml"): None}
    result = apply(editor, edit)
    expected = renamed_kiwi("gold-kiwi")
    expected["menu.yaml"] = expected["menu.yaml"].replace("# The", "# the")
    assert result == expected


@pytest.mark.parametrize("written", ['"ki\\x77i"', '"ki\\u0077i"', "!!str kiwi"])
async def test_rename_refused_where_a_use_cannot_be_followed(editor, written):
    # An escape or a tag reads as kiwi, but an edit of its text would not
    # keep it reading as the new name.
    editor.open("menu.yaml")
    since = editor.mark()
    editor.replace("menu.yaml", "{ kiwi: 3 }", "{ " + written + ": 3 }")
    # Still kiwi: the book is as sound as before.
    published = await editor.published("menu.yaml", since)
    assert [d.code for d in published] == ["never-makeable"], published
    with pytest.raises(pygls.exceptions.JsonRpcException) as refused:
        await rename(editor, "fruits.yaml", editor.position("fruits.yaml", "  kiwi: {", delta=2), "gold-kiwi")
    assert refused.value.code == REQUEST_FAILED, (refused.value.code, refused.value.message)


# The capability: LSP 3.17 lets a server answer `renameProvider` with
# RenameOptions (`prepareProvider`) only when the client declared
# `textDocument.rename.prepareSupport`; otherwise it is a boolean.


async def test_a_client_that_prepares_is_offered_prepare(editor):
    provider = editor.client.initialize_result.capabilities.rename_provider
    assert isinstance(provider, types.RenameOptions) and provider.prepare_provider is True


async def test_a_client_that_does_not_prepare_gets_a_boolean_and_still_renames(unprepared_rename_editor):
    editor = unprepared_rename_editor
    assert editor.client.initialize_result.capabilities.rename_provider is True
    edit = await rename(editor, "fruits.yaml", editor.position("fruits.yaml", "  kiwi: {", delta=2), "gold-kiwi")
    assert apply(editor, edit) == renamed_kiwi("gold-kiwi")


@pytest.mark.parametrize("capabilities", [{}, {"textDocument": {"rename": {"dynamicRegistration": False}}}])
def test_a_client_that_says_nothing_of_prepare_gets_a_boolean(tmp_path, capabilities):
    server = RawServer()
    try:
        result = server.initialize(tmp_path, capabilities)
        assert result["capabilities"]["renameProvider"] is True
    finally:
        server.kill()
