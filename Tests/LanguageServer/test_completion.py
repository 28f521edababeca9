"""Completion: ids where an ingredient or a stock entry goes, leaving out
those already there and the item itself; keys where the language allows
them. Block and flow style."""

import pytest
from lsprotocol import types

from support import find, position_at

FRUITS = {"strawberry": ("딸기", "🍓"), "banana": ("바나나", "🍌"), "pineapple": ("파인애플", "🍍"),
          "kiwi": ("키위", "🥝"), "mango": ("망고", "🥭")}
MENU = {"strawberry-juice": "딸기쥬스", "banana-juice": "바나나쥬스", "kiwi-juice": "키위쥬스",
        "pineapple-juice": "파인애플쥬스", "strawberry-banana-juice": "딸바쥬스", "mango-juice": "망고쥬스",
        "mango-kiwi-juice": "망고키위쥬스"}
IDS = set(FRUITS) | set(MENU)
TOP_LEVEL_KEYS = {"version", "fruits", "stock", "recipes", "menu"}
MENU_ITEM_KEYS = {"label", "price", "recipe"}
FRUIT_KEYS = {"label", "emoji"}


async def complete(editor, name: str, offset: int) -> list[types.CompletionItem]:
    line, character = position_at(editor.text(name), offset, editor.encoding)
    result = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=editor.document(name), position=types.Position(line=line, character=character)))
    items = result.items if isinstance(result, types.CompletionList) else (result or [])
    labels = [item.label for item in items]
    assert len(labels) == len(set(labels)), f"an item offered twice: {labels}"
    return items


def check_details(items):
    """Each id comes with its kind, label and emoji in the detail."""
    for item in items:
        assert item.kind is not None, item
        if item.label in FRUITS:
            label, emoji = FRUITS[item.label]
            assert "fruit" in item.detail and label in item.detail and emoji in item.detail, item
        elif item.label in MENU:
            assert "menu" in item.detail and MENU[item.label] in item.detail, item


async def test_ids_in_a_flow_recipe(editor):
    editor.open("menu.yaml")
    at = find(editor.text("menu.yaml"), "strawberry: 16") + len("strawberry: 16")
    text = editor.change("menu.yaml", (at, at, ", "))
    assert "    recipe: { strawberry: 16,  }\n" in text
    items = await complete(editor, "menu.yaml", at + 2)
    # strawberry is listed already; strawberry-juice is the item itself.
    assert {i.label for i in items} == IDS - {"strawberry", "strawberry-juice"}
    check_details(items)
    kinds = {i.label: i.kind for i in items}
    assert kinds["banana"] != kinds["banana-juice"], "a fruit and a menu item should differ in kind"


async def test_ids_in_a_block_recipe(editor):
    editor.open("menu.yaml")
    text = editor.replace("menu.yaml", "    recipe: { kiwi: 3 }\n", "    recipe:\n      kiwi: 3\n      \n")
    cursor = find(text, "      kiwi: 3\n      \n") + len("      kiwi: 3\n      ")
    items = await complete(editor, "menu.yaml", cursor)
    assert {i.label for i in items} == IDS - {"kiwi", "kiwi-juice"}
    check_details(items)


async def test_ids_in_a_recipes_entry(editor):
    editor.open("menu.yaml")
    end = len(editor.text("menu.yaml"))
    text = editor.change("menu.yaml", (end, end, "recipes:\n  tropical-base: { mango: 1,  }\n"))
    cursor = find(text, "{ mango: 1, ") + len("{ mango: 1, ")
    items = await complete(editor, "menu.yaml", cursor)
    # Menu items are ingredients too; tropical-base is the recipe itself.
    assert {i.label for i in items} == IDS - {"mango"}
    check_details(items)


async def test_fruits_not_yet_stocked_under_stock(editor):
    editor.open("fruits.yaml")
    text = editor.replace("fruits.yaml", "  kiwi: 10\n  mango: 10\n", "  ")
    assert text.endswith("  pineapple: 10\n  ")
    items = await complete(editor, "fruits.yaml", len(text))
    assert {i.label for i in items} == {"kiwi", "mango"}
    check_details(items)


async def test_fruits_not_yet_stocked_in_a_flow_stock(editor):
    editor.open("fruits.yaml")
    text = editor.replace("fruits.yaml", "stock:\n  strawberry: 10\n  banana: 10\n  pineapple: 10\n  kiwi: 10\n  mango: 10\n",
                          "stock: { banana: 10,  }\n")
    items = await complete(editor, "fruits.yaml", find(text, "banana: 10, ") + len("banana: 10, "))
    assert {i.label for i in items} == set(FRUITS) - {"banana"}


async def test_top_level_keys(editor):
    editor.open("menu.yaml")
    text = editor.text("menu.yaml")
    items = await complete(editor, "menu.yaml", len(text))  # the empty last line
    labels = {i.label for i in items}
    # version and menu are there already: offering them again is allowed,
    # but nothing else may be offered, and the missing ones must be.
    assert TOP_LEVEL_KEYS - {"version", "menu"} <= labels <= TOP_LEVEL_KEYS


async def test_menu_item_keys(editor):
    editor.open("menu.yaml")
    text = editor.replace("menu.yaml", "    label: 키위쥬스\n", "    label: 키위쥬스\n    \n")
    cursor = find(text, "    label: 키위쥬스\n    ") + len("    label: 키위쥬스\n    ")
    labels = {i.label for i in await complete(editor, "menu.yaml", cursor)}
    assert MENU_ITEM_KEYS - {"label", "recipe"} <= labels <= MENU_ITEM_KEYS


async def test_fruit_keys_in_flow_style(editor):
    editor.open("fruits.yaml")
    text = editor.replace("fruits.yaml", "kiwi: { label: 키위, emoji: 🥝 }", "kiwi: { label: 키위,  }")
    cursor = find(text, "kiwi: { label: 키위, ") + len("kiwi: { label: 키위, ")
    labels = {i.label for i in await complete(editor, "fruits.yaml", cursor)}
    assert FRUIT_KEYS - {"label"} <= labels <= FRUIT_KEYS


@pytest.mark.parametrize("where", ["a comment", "a value"])
async def test_no_ids_where_none_belong(editor, where):
    text = editor.open("menu.yaml")
    cursor = 5 if where == "a comment" else find(text, "label: 딸기쥬스") + len("label: 딸")
    items = await complete(editor, "menu.yaml", cursor)
    assert not {i.label for i in items} & IDS
