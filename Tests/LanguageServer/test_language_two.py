"""Version 2 of the recipe language in the editor: a fruit's `cost:`,
`pack:`, `keeps:` and `restock:`, a recipe's long form (`recipe:`, `yield:`,
`label:`, `keeps:`) and stock entries that name recipes. Completion offers the new keys where they apply
(not in a `version: 1` file, where each is an error); rename and references
reach a stock entry that names a recipe."""

import pytest
from lsprotocol import types

from support import apply_edits, find, position_at, span, workspace_edits

# fruits.yaml made version 2, with a long-form recipe, a short one, and
# servings of the long one on hand; menu.yaml (version 1) uses it.
RECIPES = (
    "recipes:\n"
    "  syrup:\n"
    "    recipe: { mango: 3 }\n"
    "    yield: 4\n"
    "    label: 시럽\n"
    "  tropical-base: { mango: 1, pineapple: 2 }\n"
)


async def labels(editor, name: str, offset: int) -> list[str]:
    """What completion offers at a string offset, in the order shown."""
    line, character = position_at(editor.text(name), offset, editor.encoding)
    result = await editor.client.text_document_completion_async(types.CompletionParams(
        text_document=editor.document(name), position=types.Position(line=line, character=character)))
    items = result.items if isinstance(result, types.CompletionList) else (result or [])
    return [item.label for item in sorted(items, key=lambda item: item.sort_text or item.label)]


def version_two(editor) -> str:
    """Opens fruits.yaml as version 2 with RECIPES and syrup stocked."""
    editor.open("fruits.yaml")
    editor.replace("fruits.yaml", "version: 1", "version: 2")
    editor.replace("fruits.yaml", "  mango: 10\n", "  mango: 10\n  syrup: 2\n")
    end = len(editor.text("fruits.yaml"))
    return editor.change("fruits.yaml", (end, end, RECIPES))


async def test_cost_and_pack_in_a_version_two_fruit(editor):
    version_two(editor)
    text = editor.replace("fruits.yaml", "kiwi: { label: 키위, emoji: 🥝 }", "kiwi: { label: 키위,  }")
    cursor = find(text, "kiwi: { label: 키위, ") + len("kiwi: { label: 키위, ")
    assert await labels(editor, "fruits.yaml", cursor) == ["emoji", "cost", "pack", "keeps", "restock", "substitutes"]


async def test_long_form_keys_in_a_recipe(editor):
    text = version_two(editor)
    # Block style, beside the keys already there.
    text = editor.replace("fruits.yaml", "    yield: 4\n", "    yield: 4\n    \n")
    cursor = find(text, "    yield: 4\n    ") + len("    yield: 4\n    ")
    # recipe and yield above, label below: keeps is left to offer.
    assert await labels(editor, "fruits.yaml", cursor) == ["keeps"]
    text = editor.replace("fruits.yaml", "    label: 시럽\n", "")
    cursor = find(text, "    yield: 4\n    ") + len("    yield: 4\n    ")
    assert await labels(editor, "fruits.yaml", cursor) == ["label", "keeps"]
    # Flow style, after the ingredients' own mapping.
    text = editor.replace("fruits.yaml", "  tropical-base: { mango: 1, pineapple: 2 }\n",
                          "  tropical-base: { recipe: { mango: 1, pineapple: 2 },  }\n")
    cursor = find(text, "pineapple: 2 }, ") + len("pineapple: 2 }, ")
    assert await labels(editor, "fruits.yaml", cursor) == ["yield", "label", "keeps"]


async def test_ids_inside_a_long_form_recipe(editor):
    text = version_two(editor)
    text = editor.replace("fruits.yaml", "    recipe: { mango: 3 }\n", "    recipe: { mango: 3,  }\n")
    cursor = find(text, "{ mango: 3, ") + len("{ mango: 3, ")
    offered = await labels(editor, "fruits.yaml", cursor)
    # Fruits, recipes and menu items; not mango (there), not syrup (itself).
    assert "mango" not in offered and "syrup" not in offered
    assert {"kiwi", "tropical-base", "kiwi-juice"} <= set(offered)
    assert "yield" not in offered, "keys of the long form are not ingredients"


async def test_an_empty_recipe_body_offers_both_forms(editor):
    text = version_two(editor)
    text = editor.replace("fruits.yaml", "  tropical-base: { mango: 1, pineapple: 2 }\n", "  tropical-base: {  }\n")
    offered = await labels(editor, "fruits.yaml", find(text, "tropical-base: { ") + len("tropical-base: { "))
    # Ids first (fruits, recipes, menu items), then the long form's keys.
    assert offered[-4:] == ["recipe", "yield", "label", "keeps"]
    assert offered[:5] == ["banana", "kiwi", "mango", "pineapple", "strawberry"]
    assert "syrup" in offered and "tropical-base" not in offered


async def test_stock_offers_recipes_in_version_two_only(editor):
    text = version_two(editor)
    text = editor.replace("fruits.yaml", "  kiwi: 10\n", "  \n")
    cursor = find(text, "  pineapple: 10\n  ") + len("  pineapple: 10\n  ")
    # kiwi is the fruit left; syrup is stocked already; tropical-base is not.
    assert await labels(editor, "fruits.yaml", cursor) == ["kiwi", "tropical-base"]
    text = editor.replace("fruits.yaml", "version: 2", "version: 1")
    assert await labels(editor, "fruits.yaml", cursor) == ["kiwi"]


async def references(editor, name, position) -> list[tuple[str, dict]]:
    result = await editor.client.text_document_references_async(types.ReferenceParams(
        text_document=editor.document(name), position=position, context=types.ReferenceContext(include_declaration=True)))
    return sorted(((l.uri, l.range.start.line, l.range.start.character) for l in result or []))


async def test_references_of_a_recipe_list_its_stock_entry(editor):
    text = version_two(editor)
    editor.open("menu.yaml")
    menu = editor.replace("menu.yaml", "{ mango: 3 }", "{ syrup: 1 }")
    fruits, menu_uri = editor.uri("fruits.yaml"), editor.uri("menu.yaml")

    def at(uri, text, needle, part="syrup"):
        r = span(text, needle, part=part)["start"]
        return (uri, r["line"], r["character"])

    expected = sorted([at(fruits, text, "  syrup:\n"), at(fruits, text, "  syrup: 2"), at(menu_uri, menu, "{ syrup: 1 }")])
    for name, needle in (("fruits.yaml", "  syrup:\n"), ("fruits.yaml", "  syrup: 2"), ("menu.yaml", "{ syrup: 1 }")):
        position = editor.position(name, needle, delta=needle.index("syrup") + 1)
        assert await references(editor, name, position) == expected, name


@pytest.mark.parametrize("start", ["the definition", "the stock entry", "a use in menu.yaml"])
async def test_rename_a_recipe_renames_its_stock_entry(editor, start):
    version_two(editor)
    editor.open("menu.yaml")
    editor.replace("menu.yaml", "{ mango: 3 }", "{ syrup: 1 }")
    name, needle = {
        "the definition": ("fruits.yaml", "  syrup:\n"),
        "the stock entry": ("fruits.yaml", "  syrup: 2"),
        "a use in menu.yaml": ("menu.yaml", "{ syrup: 1 }"),
    }[start]
    edit = await editor.client.text_document_rename_async(types.RenameParams(
        text_document=editor.document(name), position=editor.position(name, needle, delta=needle.index("syrup")),
        new_name="mango-syrup"))
    per_uri = workspace_edits(edit)
    result = {n: apply_edits(editor.text(n), per_uri.get(editor.uri(n), [])) for n in ("fruits.yaml", "menu.yaml")}
    expected_fruits = editor.text("fruits.yaml").replace("  syrup:\n", "  mango-syrup:\n").replace("  syrup: 2\n", "  mango-syrup: 2\n")
    assert result == {
        "fruits.yaml": expected_fruits,
        "menu.yaml": editor.text("menu.yaml").replace("{ syrup: 1 }", "{ mango-syrup: 1 }"),
    }
    # The command line reads the renamed book as it read the old one: the
    # stock entry still names a recipe, and nothing is unknown.
    assert not [d for ds in editor.expected(result).values() for d in ds if d["code"] == "unknown-fruit"]


async def test_hover_shows_yield_cost_and_servings(editor):
    """Hover on version 2 facts: a recipe's yield, cost per serving and
    servings on hand, a fruit's cost and pack, and a menu item's cost and
    margin. mango costs 300 and pineapple 200 (both packs of 1 but mango, 6):
    syrup is 3 × 300 ÷ 4 = 225.00 a serving; the juice below takes syrup 2 and
    mango 1: 2 × 225 + 300 = 750.00, priced 2000: margin 1250.00."""
    version_two(editor)
    editor.replace("fruits.yaml", "mango: { label: 망고, emoji: 🥭 }", "mango: { label: 망고, emoji: 🥭, cost: 300, pack: 6 }")
    editor.replace("fruits.yaml", "pineapple: { label: 파인애플, emoji: 🍍 }", "pineapple: { label: 파인애플, emoji: 🍍, cost: 200 }")
    text = editor.text("fruits.yaml")
    end = len(text)
    editor.change("fruits.yaml", (end, end, "menu:\n  syrup-juice: { price: 2000, recipe: { syrup: 2, mango: 1 } }\n"))
    recipe = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=editor.document("fruits.yaml"), position=editor.position("fruits.yaml", "  syrup:\n", delta=3)))
    value = recipe.contents.value
    assert "yield 4" in value and "cost per serving 225.00" in value and "2 on hand" in value, value
    fruit = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=editor.document("fruits.yaml"), position=editor.position("fruits.yaml", "  mango: {", delta=3)))
    assert "cost 300" in fruit.contents.value and "pack 6" in fruit.contents.value, fruit.contents.value
    item = await editor.client.text_document_hover_async(types.HoverParams(
        text_document=editor.document("fruits.yaml"), position=editor.position("fruits.yaml", "  syrup-juice:", delta=3)))
    assert "cost per serving 750.00" in item.contents.value and "margin 1250.00" in item.contents.value, item.contents.value


async def test_the_planners_keys_in_a_fruit_and_its_restock(editor):
    """keeps and restock beside cost and pack; inside restock, its own
    three keys less those written; none of it in a `version: 1` file."""
    version_two(editor)
    text = editor.replace("fruits.yaml", "kiwi: { label: 키위, emoji: 🥝 }", "kiwi: { label: 키위, keeps: 5, restock: { up-to: 40,  } }")
    cursor = find(text, "up-to: 40, ") + len("up-to: 40, ")
    assert await labels(editor, "fruits.yaml", cursor) == ["below", "lead"]
    cursor = find(text, "keeps: 5, ") + len("keeps: 5, ")
    assert await labels(editor, "fruits.yaml", cursor) == ["emoji", "cost", "pack", "substitutes"]
    # Block style.
    text = editor.replace("fruits.yaml", "  mango: { label: 망고, emoji: 🥭 }\n", "  mango:\n    restock:\n      lead: 1\n      \n")
    cursor = find(text, "      lead: 1\n      ") + len("      lead: 1\n      ")
    assert await labels(editor, "fruits.yaml", cursor) == ["up-to", "below"]
    editor.replace("fruits.yaml", "version: 2", "version: 1")
    assert await labels(editor, "fruits.yaml", cursor) == []


async def test_hover_shows_shelf_life_and_restock(editor):
    """A fruit's keeps and restock, and a recipe's keeps, as the book reads
    them: lead only where it is not 0, days in the singular for one."""
    version_two(editor)
    editor.replace("fruits.yaml", "mango: { label: 망고, emoji: 🥭 }",
                   "mango: { label: 망고, emoji: 🥭, pack: 6, keeps: 3, restock: { up-to: 30 } }")
    editor.replace("fruits.yaml", "kiwi: { label: 키위, emoji: 🥝 }",
                   "kiwi: { label: 키위, emoji: 🥝, keeps: 1, restock: { below: 10, up-to: 40, lead: 2 } }")
    editor.replace("fruits.yaml", "    yield: 4\n", "    yield: 4\n    keeps: 2\n")

    async def hover(needle):
        result = await editor.client.text_document_hover_async(types.HoverParams(
            text_document=editor.document("fruits.yaml"), position=editor.position("fruits.yaml", needle, delta=3)))
        return result.contents.value

    mango = await hover("  mango: {")
    assert "pack 6 · keeps 3 days · restock up-to 30\n" in mango, mango
    kiwi = await hover("  kiwi: {")
    assert "keeps 1 day · restock up-to 40, below 10, lead 2\n" in kiwi, kiwi
    syrup = await hover("  syrup:\n")
    assert "yield 4 · keeps 2 days" in syrup, syrup
    banana = await hover("  banana: {")
    assert "keeps" not in banana and "restock" not in banana, banana
