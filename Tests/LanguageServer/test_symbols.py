"""Document symbols as an outline wants them: a symbol's range is its whole
entry (the comment lines directly above its key, the key, its value, a
comment after the value on its last line), its selectionRange is the id's
key and lies inside the range, and every child lies inside its parent."""

from lsprotocol import types

from support import canonical_text, find, plain_range, position_at, span

MENU_TEXT = canonical_text("menu.yaml")


async def document_symbols(editor, name) -> list[types.DocumentSymbol]:
    result = await editor.client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=editor.document(name)))
    assert all(isinstance(s, types.DocumentSymbol) for s in result), "a hierarchy was asked for"
    return result


def key(position: dict) -> tuple[int, int]:
    return position["line"], position["character"]


def contains(outer: dict, inner: dict) -> bool:
    return key(outer["start"]) <= key(inner["start"]) and key(inner["end"]) <= key(outer["end"])


def check_nesting(symbols, parent=None) -> int:
    """selectionRange ⊆ range for every symbol and child.range ⊆
    parent.range; returns how many symbols were checked."""
    checked = 0
    for symbol in symbols:
        whole, selection = plain_range(symbol.range), plain_range(symbol.selection_range)
        assert key(whole["start"]) <= key(whole["end"]), symbol
        assert contains(whole, selection), f"{symbol.name}: selection {selection} outside range {whole}"
        if parent is not None:
            assert contains(plain_range(parent.range), whole), f"{symbol.name} outside {parent.name}"
        checked += 1 + check_nesting(symbol.children or [], symbol)
    return checked


def by_name(symbols) -> dict:
    return {s.name: s for s in symbols}


def end_of_line_with(text: str, needle: str) -> dict:
    """The LSP position at the end of the line holding needle."""
    at = find(text, needle)
    end = text.index("\n", at)
    line, character = position_at(text, end)
    return {"line": line, "character": character}


async def test_every_symbol_of_the_book_nests(editor):
    editor.open("menu.yaml")
    editor.open("fruits.yaml")
    # Both files, with a recipe, a long-form recipe and a fruit with a cost.
    end = len(editor.text("fruits.yaml"))
    editor.change("fruits.yaml", (end, end,
                                  "recipes:\n  tropical-base: { mango: 1, pineapple: 2 }\n"
                                  "  syrup:\n    recipe:\n      mango: 3\n    yield: 4\n"))
    editor.replace("fruits.yaml", "version: 1", "version: 2")
    checked = 0
    for name in ("fruits.yaml", "menu.yaml"):
        checked += check_nesting(await document_symbols(editor, name))
    # fruits, 5 fruits, recipes, 2 recipes, 4 ingredients; menu, 7 items, 9 ingredients.
    assert checked == 1 + 5 + 1 + 2 + 3 + 1 + 7 + 9


async def test_a_multi_line_item_covers_its_last_line(editor):
    [menu] = await document_symbols(editor, "menu.yaml")
    items = by_name(menu.children)
    # strawberry-juice: its key, its label and its recipe, on three lines.
    item = items["strawberry-juice"]
    assert plain_range(item.selection_range) == span(MENU_TEXT, "  strawberry-juice:", part="strawberry-juice")
    assert plain_range(item.range)["start"] == plain_range(item.selection_range)["start"]
    assert plain_range(item.range)["end"] == end_of_line_with(MENU_TEXT, "    recipe: { strawberry: 16 }")
    # The last item ends at its last line, not at the end of the file.
    last = items["mango-kiwi-juice"]
    assert plain_range(last.range)["end"] == end_of_line_with(MENU_TEXT, "    recipe: { mango: 2, kiwi: 1 }")
    # The section, from its key to the end of its last item.
    assert plain_range(menu.selection_range) == span(MENU_TEXT, "menu:", part="menu")
    assert plain_range(menu.range)["end"] == plain_range(last.range)["end"]


async def test_comments_above_and_after_belong_to_the_entry(editor):
    editor.open("menu.yaml")
    text = editor.replace("menu.yaml", "  mango-juice:\n", "  # the best seller,\n  # every summer\n  mango-juice:  # since 2019\n")
    text = editor.replace("menu.yaml", "    recipe: { mango: 3 }\n", "    recipe: { mango: 3 }  # ripe ones\n")
    [menu] = await document_symbols(editor, "menu.yaml")
    item = by_name(menu.children)["mango-juice"]
    line, character = position_at(text, find(text, "# the best seller"))
    assert plain_range(item.range)["start"] == {"line": line, "character": character}
    assert plain_range(item.range)["end"] == end_of_line_with(text, "    recipe: { mango: 3 }  # ripe ones")
    assert plain_range(item.selection_range) == span(text, "  mango-juice:", part="mango-juice")
    # The item above ends at its own last line: the comments are not its.
    above = by_name(menu.children)["strawberry-banana-juice"]
    assert plain_range(above.range)["end"] == end_of_line_with(text, "    recipe: { strawberry: 10, banana: 1 }")
    check_nesting([menu])


async def test_an_entry_on_one_line_of_a_flow_mapping(editor):
    editor.open("fruits.yaml")
    text = editor.replace("fruits.yaml", "  mango: { label: 망고, emoji: 🥭 }\n",
                          "  mango: { label: 망고, emoji: 🥭 }\n  lime: {}\n  fig:   # dried\n")
    [fruits] = await document_symbols(editor, "fruits.yaml")
    fruit = by_name(fruits.children)
    # A flow body ends at its brace, counted in UTF-16 after Korean and an emoji.
    assert plain_range(fruit["mango"].range) == span(text, "mango: { label: 망고, emoji: 🥭 }")
    assert plain_range(fruit["lime"].range) == span(text, "lime: {}")
    # No value: the key, its colon and its comment.
    assert plain_range(fruit["fig"].range) == span(text, "fig:   # dried")
    check_nesting([fruits])
