"""Hover, definition, references, document and workspace symbols, across
the two files of the canonical book."""

import re

from lsprotocol import types

from support import canonical_text, plain_range, span

FRUITS_TEXT = canonical_text("fruits.yaml")
MENU_TEXT = canonical_text("menu.yaml")
MENU_IDS = ["strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice",
            "strawberry-banana-juice", "mango-juice", "mango-kiwi-juice"]
FRUIT_IDS = ["strawberry", "banana", "pineapple", "kiwi", "mango"]


def definition_span(name: str, id: str) -> dict:
    """Where an id is defined: its key, at two spaces of indent."""
    text = FRUITS_TEXT if name == "fruits.yaml" else MENU_TEXT
    needle = f"\n  {id}:"
    return span(text, needle, part=id)


async def hover(editor, name, position) -> str | None:
    result = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=editor.document(name), position=position))
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent), result.contents
    assert result.contents.kind == types.MarkupKind.Markdown
    return result


def line_with(value: str, word: str) -> str:
    [line] = [l for l in value.splitlines() if word in l]
    return line


async def test_hover_on_a_menu_item(editor):
    editor.open("menu.yaml")
    editor.replace("menu.yaml", "    label: 딸바쥬스\n", "    label: 딸바쥬스\n    price: 4500\n")
    position = editor.position("menu.yaml", "strawberry-banana-juice:", delta=3)
    result = await hover(editor, "menu.yaml", position)
    value = result.contents.value
    assert "딸바쥬스" in value
    assert re.search(r"\b4500\b", value), value
    # The flattened needs: 10 strawberries and 1 banana per order.
    assert re.search(r"strawberry\W{1,4}10\b", value), value
    assert re.search(r"banana\W{1,4}1\b", value), value
    # 10 strawberries make 1, 10 bananas would make 10: strawberry limits it.
    capacity = line_with(value, "limit")
    assert "strawberry" in capacity and "banana" not in capacity and re.search(r"\b1\b", capacity), capacity
    if result.range is not None:
        assert plain_range(result.range) == span(editor.text("menu.yaml"), "strawberry-banana-juice:", part="strawberry-banana-juice")


async def test_hover_on_a_menu_item_limited_by_its_second_fruit(editor):
    position = editor.position("menu.yaml", "  mango-kiwi-juice:", delta=4)
    value = (await hover(editor, "menu.yaml", position)).contents.value
    assert "망고키위쥬스" in value
    assert re.search(r"mango\W{1,4}2\b", value) and re.search(r"kiwi\W{1,4}1\b", value), value
    capacity = line_with(value, "limit")
    assert "mango" in capacity and re.search(r"\b5\b", capacity), capacity


async def test_hover_on_a_fruit_where_it_is_used(editor):
    position = editor.position("menu.yaml", "{ kiwi: 3 }", delta=3)
    result = await hover(editor, "menu.yaml", position)
    value = result.contents.value
    assert "키위" in value and "🥝" in value
    assert re.search(r"stock\D{0,6}\b10\b", value), value
    # kiwi-juice and mango-kiwi-juice use it.
    assert re.search(r"\b2\b", line_with(value, "used")), value
    if result.range is not None:
        assert plain_range(result.range) == span(MENU_TEXT, "{ kiwi: 3 }", part="kiwi")


async def test_hover_on_a_fruit_where_it_is_defined(editor):
    position = editor.position("fruits.yaml", "  pineapple: {", delta=2)
    value = (await hover(editor, "fruits.yaml", position)).contents.value
    assert "파인애플" in value and "🍍" in value
    assert re.search(r"stock\D{0,6}\b10\b", value), value
    used = line_with(value, "used")
    assert re.search(r"\b1\b", used) and "pineapple-juice" in used, value


async def test_no_hover_on_a_comment(editor):
    assert await hover(editor, "menu.yaml", types.Position(line=0, character=4)) is None


def locations(result) -> list[tuple[str, dict]]:
    if result is None:
        return []
    if not isinstance(result, (list, tuple)):  # one Location, or a sequence
        result = [result]
    out = []
    for item in result:
        if isinstance(item, types.LocationLink):
            out.append((item.target_uri, plain_range(item.target_selection_range)))
        else:
            out.append((item.uri, plain_range(item.range)))
    return sorted(out, key=lambda l: (l[0], l[1]["start"]["line"], l[1]["start"]["character"]))


async def test_definition_across_files(editor):
    editor.open("menu.yaml")
    position = editor.position("menu.yaml", "kiwi: 1 }", delta=2)
    result = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=editor.document("menu.yaml"), position=position))
    assert locations(result) == [(editor.uri("fruits.yaml"), definition_span("fruits.yaml", "kiwi"))]


async def test_definition_from_a_stock_entry(editor):
    position = editor.position("fruits.yaml", "mango: 10", delta=0)
    result = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=editor.document("fruits.yaml"), position=position))
    assert locations(result) == [(editor.uri("fruits.yaml"), definition_span("fruits.yaml", "mango"))]


async def references(editor, name, position, include: bool):
    return locations(await editor.client.text_document_references_async(types.ReferenceParams(
        text_document=editor.document(name), position=position,
        context=types.ReferenceContext(include_declaration=include))))


async def test_references_of_a_fruit_across_files(editor):
    fruits, menu = editor.uri("fruits.yaml"), editor.uri("menu.yaml")
    uses = sorted([
        (fruits, span(FRUITS_TEXT, "kiwi", after="stock:")),
        (menu, span(MENU_TEXT, "{ kiwi: 3 }", part="kiwi")),
        (menu, span(MENU_TEXT, "kiwi: 1 }", part="kiwi")),
    ], key=lambda l: (l[0], l[1]["start"]["line"]))
    declaration = (fruits, definition_span("fruits.yaml", "kiwi"))
    at_definition = editor.position("fruits.yaml", "  kiwi: {", delta=3)
    at_use = editor.position("menu.yaml", "{ kiwi: 3 }", delta=2)
    for name, position in (("fruits.yaml", at_definition), ("menu.yaml", at_use)):
        assert await references(editor, name, position, include=False) == uses
        assert await references(editor, name, position, include=True) == sorted(
            uses + [declaration], key=lambda l: (l[0], l[1]["start"]["line"]))


async def test_references_of_an_unused_menu_item(editor):
    position = editor.position("menu.yaml", "  mango-juice:", delta=2)
    assert await references(editor, "menu.yaml", position, include=False) == []
    assert await references(editor, "menu.yaml", position, include=True) == [
        (editor.uri("menu.yaml"), definition_span("menu.yaml", "mango-juice"))]


def contains(outer: dict, inner: dict) -> bool:
    def key(p):
        return (p["line"], p["character"])
    return key(outer["start"]) <= key(inner["start"]) and key(inner["end"]) <= key(outer["end"])


async def document_symbols(editor, name) -> list[types.DocumentSymbol]:
    result = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=editor.document(name)))
    assert all(isinstance(s, types.DocumentSymbol) for s in result), "a hierarchy was asked for"
    return result


async def test_document_symbols_of_the_menu(editor):
    [menu] = await document_symbols(editor, "menu.yaml")
    assert menu.name == "menu"
    assert [s.name for s in menu.children] == MENU_IDS
    for item in menu.children:
        assert plain_range(item.selection_range) == definition_span("menu.yaml", item.name)
        assert contains(plain_range(item.range), plain_range(item.selection_range))
        assert contains(plain_range(menu.range), plain_range(item.range))
    by_name = {s.name: s for s in menu.children}
    ingredients = by_name["mango-kiwi-juice"].children
    assert [s.name for s in ingredients] == ["mango", "kiwi"]
    assert plain_range(ingredients[1].selection_range) == span(MENU_TEXT, "kiwi: 1 }", part="kiwi")
    assert [s.name for s in by_name["strawberry-juice"].children] == ["strawberry"]


async def test_document_symbols_of_the_catalog(editor):
    editor.open("fruits.yaml")
    [fruits] = await document_symbols(editor, "fruits.yaml")
    assert fruits.name == "fruits"
    assert [s.name for s in fruits.children] == FRUIT_IDS
    for fruit in fruits.children:
        assert plain_range(fruit.selection_range) == definition_span("fruits.yaml", fruit.name)
        assert contains(plain_range(fruit.range), plain_range(fruit.selection_range))


async def workspace_symbols(editor, query):
    result = await editor.client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
    return {s.name: (s.location.uri, plain_range(s.location.range)) for s in result or []}


async def test_workspace_symbols_case_insensitive(editor):
    symbols = await workspace_symbols(editor, "KIWI")
    assert symbols == {
        "kiwi": (editor.uri("fruits.yaml"), definition_span("fruits.yaml", "kiwi")),
        "kiwi-juice": (editor.uri("menu.yaml"), definition_span("menu.yaml", "kiwi-juice")),
        "mango-kiwi-juice": (editor.uri("menu.yaml"), definition_span("menu.yaml", "mango-kiwi-juice")),
    }


async def test_workspace_symbols_all(editor):
    assert set(await workspace_symbols(editor, "")) == set(FRUIT_IDS) | set(MENU_IDS)
    assert await workspace_symbols(editor, "durian") == {}


# An intermediate recipe, used by a new menu item: needs are flattened
# through it. tropical-juice needs mango 2×1, pineapple 2×2 and kiwi 1, so
# the opening 10 of each makes 2, limited by pineapple (mango would allow 5).
TROPICAL = (
    "recipes:\n"
    "  tropical-base: { mango: 1, pineapple: 2 }\n"
    "menu:\n"
    "  tropical-juice:\n"
    "    label: 트로피컬쥬스\n"
    "    price: 6000\n"
    "    recipe: { tropical-base: 2, kiwi: 1 }\n"
)


async def open_tropical(editor) -> str:
    editor.open("fruits.yaml")
    end = len(editor.text("fruits.yaml"))
    return editor.change("fruits.yaml", (end, end, TROPICAL))


async def test_hover_on_a_recipe_where_it_is_used(editor):
    text = await open_tropical(editor)
    position = editor.position("fruits.yaml", "{ tropical-base: 2", delta=4)
    value = (await hover(editor, "fruits.yaml", position)).contents.value
    assert "tropical" in value and "recipe" in value
    assert re.search(r"mango\W{1,4}1\b", value) and re.search(r"pineapple\W{1,4}2\b", value), value
    capacity = line_with(value, "limit")
    assert "pineapple" in capacity and re.search(r"\b5\b", capacity), capacity


async def test_hover_on_a_menu_item_through_a_recipe(editor):
    await open_tropical(editor)
    position = editor.position("fruits.yaml", "  tropical-juice:", delta=4)
    value = (await hover(editor, "fruits.yaml", position)).contents.value
    assert "트로피컬쥬스" in value and re.search(r"\b6000\b", value), value
    for fruit, amount in (("mango", 2), ("pineapple", 4), ("kiwi", 1)):
        assert re.search(fruit + r"\W{1,4}" + str(amount) + r"\b", value), (fruit, value)
    capacity = line_with(value, "limit")
    assert "pineapple" in capacity and re.search(r"\b2\b", capacity), capacity


async def test_definition_and_references_of_a_recipe(editor):
    text = await open_tropical(editor)
    uri = editor.uri("fruits.yaml")
    at_use = editor.position("fruits.yaml", "{ tropical-base: 2", delta=3)
    result = await editor.client.text_document_definition_async(types.DefinitionParams(
        text_document=editor.document("fruits.yaml"), position=at_use))
    definition = (uri, span(text, "  tropical-base: {", part="tropical-base"))
    use = (uri, span(text, "{ tropical-base: 2", part="tropical-base"))
    assert locations(result) == [definition]
    assert await references(editor, "fruits.yaml", at_use, include=False) == [use]
    assert await references(editor, "fruits.yaml", at_use, include=True) == [definition, use]


async def test_document_symbols_with_recipes(editor):
    await open_tropical(editor)
    symbols = await document_symbols(editor, "fruits.yaml")
    assert [s.name for s in symbols] == ["fruits", "recipes", "menu"]
    assert [[c.name for c in s.children] for s in symbols] == [FRUIT_IDS, ["tropical-base"], ["tropical-juice"]]
    assert [c.name for c in symbols[1].children[0].children] == ["mango", "pineapple"]
    assert [c.name for c in symbols[2].children[0].children] == ["tropical-base", "kiwi"]


async def test_workspace_symbols_stop_at_1000(editor):
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    items = "".join(f"  juice-{n:04}: {{ recipe: {{ kiwi: 1 }} }}\n" for n in range(1100))
    editor.change("menu.yaml", (end, end, items))
    symbols = await editor.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="JUICE-"))
    assert len(symbols) == 1000
    assert {s.name for s in symbols} <= {f"juice-{n:04}" for n in range(1100)}


async def test_initialize_offers_what_the_server_does(editor):
    capabilities = editor.client.initialize_result.capabilities
    sync = capabilities.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Incremental and sync.open_close
    assert capabilities.position_encoding == types.PositionEncodingKind.Utf16
    assert capabilities.completion_provider is not None
    assert capabilities.hover_provider and capabilities.definition_provider and capabilities.references_provider
    assert capabilities.document_symbol_provider and capabilities.workspace_symbol_provider
    assert capabilities.rename_provider.prepare_provider is True
    assert types.CodeActionKind.QuickFix in capabilities.code_action_provider.code_action_kinds
    assert editor.client.initialize_result.server_info.name == "juice-lint"


async def test_prepare_rename_where_there_is_no_id(editor):
    result = await editor.client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=editor.document("menu.yaml"), position=types.Position(line=0, character=3)))
    assert result is None
