#!/usr/bin/env python3
"""Deterministic benchmark data for juice-lint and juice-run.

Every set comes from fixed seeds, so two runs anywhere write the same bytes.
A set is rewritten only when its stamp (this script's hash and the set's
parameters) has changed, so `make bench` pays for generation once.

    python3 Benchmarks/generate.py [--out .build/bench-data] [--quick] [SET ...]

Sets (folders or files under --out):
  lint-clean/          fruits.yaml (200 fruits, catalog and stock) + 100 menu files, 100,000 items
  lint-errors/         the same, with 10,000 ingredient names one edit away from a real fruit
  scale-10k/           the lint-clean shape at 10,000 items (1,000 items a file)
  scale-1m/            ... at 1,000,000 items (the 100,000-item point is lint-clean itself)
  orders-10m.txt       10,000,000 orders for recipes/ and a restock after every 10th: 11,000,000 lines
  orders-1m.txt        1,000,000 orders (1,100,000 lines), for the memory-flatness check
  orders-100k.txt      100,000 orders (110,000 lines), the --quick flatness partner
  lint-single/         shape 2: book.yaml, one file: 300 fruits, 1,000 recipes 3 levels deep and
                       100,000 labelled menu items of 1 to 5 ingredients, all in block style; 15 MB
  lint-deep/           shape 3: 10 files, 1 MB each, holding between them 2,000 fruits, 5,000
                       recipes nested 4 deep and 50,000 menu items of 3 to 8 ingredients
  lint-unused/         shape 4: fruits.yaml, 100,000 fruits never used nor stocked (1.3 MB), and a
                       one-item menu.yaml: 100,000 unused-fruit warnings, 100,000 missing-stock infos
  orders-mix-10m.txt   the second order mix: 10,000,000 order lines uniform over recipes/'s menu,
                       10% of them `ID xN` (N 2 to 10), and a restock at a random place in every 10
  orders-mix-1m.txt    ... 1,000,000 order lines
  orders-mix-100k.txt  ... 100,000 order lines
  shape-block/         book.yaml, one file in block style throughout (every mapping on lines of its
                       own): 1,000 fruits, 2,000 recipes 3 deep, 98,000 labelled items; 15 MB
  shape-flow/          book.yaml, one file in flow style (`id: { label: x, price: 1, recipe: { a: 1 } }`,
                       the stock one multi-line flow mapping): the same counts, 111,000 items; 15 MB
  shape-deep8/         4 files: 1,500 fruits, 6,000 recipes nested 8 deep, 40,000 items of 3 to 8
                       ingredients
  shape-tiny/          5,000 files of 9 to 12 lines in 100 folders two deep (area-NN/shop-NN/), each
                       one fruit, its stock and one item (every fifth also a recipe)
  shape-fruits20k/     fruits.yaml with 20,000 fruits (catalog and stock) and 4 menu files of 5,000
                       items that between them use every fruit
--quick leaves out scale-1m, orders-10m.txt and orders-mix-10m.txt.

Shape 3 follows issue 15's goal 3, "10 files with 2,000 fruits, 5,000 recipes
nested 4 deep and 50,000 menu items each using 3-8 ingredients", read as one
book of 10 files with those totals ("each" is each menu item): each file
holds a tenth of every section, so its ingredients name fruits and recipes
declared in the other nine. Shapes 2 and 3 are clean: juice-lint reports
nothing on them, and neither does it on the five shape-* sets (issue 27's
side-by-side comparison with a baseline build, `bench.py --baseline-bin`).
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import sys

FRUIT_COUNT = 200
ITEMS_PER_FILE = 1000
LINT_ITEMS = 100_000
MISSPELLINGS = 10_000
SEED = 20_240_601

# Real fruit names first; a name is kept only if it is at least 3 edits from
# every name kept before it, so a one-edit misspelling has exactly one fruit
# within reach and can never be another fruit's id.
REAL_FRUITS = """
apple apricot avocado banana bilberry blackberry blackcurrant blueberry boysenberry
cantaloupe cherimoya cherry clementine cloudberry coconut cranberry currant damson
date dragonfruit durian elderberry feijoa fig gooseberry grape grapefruit guava
honeydew huckleberry jabuticaba jackfruit jambul jujube kiwi kumquat lemon lime
longan loquat lychee mandarine mango mangosteen marionberry melon mulberry nectarine
olive orange papaya passionfruit peach pear persimmon pineapple plantain plum
pomegranate pomelo quince raisin rambutan raspberry redcurrant salak satsuma
soursop strawberry tamarillo tamarind tangerine watermelon yuzu
""".split()

CONSONANTS = "bcdfghjklmnprstvwz"
VOWELS = "aeiou"
LABEL_PREFIXES = ["", "Fresh ", "House ", "Iced ", "Morning ", "Double ", "신선한 ", "시원한 "]
LABEL_SUFFIXES = ["Juice", "Smoothie", "Cooler", "Blend", "Shake", "쥬스", "스무디", "에이드"]


def osa_distance(a, b, bound):
    """Optimal-string-alignment distance, or bound + 1 once it must exceed bound."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    prev2 = None
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
        if min(cur) > bound:
            return bound + 1
        prev2, prev = prev, cur
    return prev[len(b)]


def fruit_names():
    """200 ids, each at least 3 edits from every other, all of length >= 4."""
    rng = random.Random(SEED)
    names = []

    def accept(name):
        if len(name) >= 4 and all(osa_distance(name, other, 2) > 2 for other in names):
            names.append(name)

    for name in REAL_FRUITS:
        accept(name)
    while len(names) < FRUIT_COUNT:
        syllables = rng.randint(2, 4)
        name = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(syllables))
        if rng.random() < 0.4:
            name += rng.choice("nrlst")
        accept(name)
    return names[:FRUIT_COUNT]


def write_fruits(path, fruits):
    rng = random.Random(SEED + 1)
    out = ["# Benchmark catalog: %d fruits, every one stocked above any recipe's need.\n" % len(fruits),
           "version: 1\n\nfruits:\n"]
    for name in fruits:
        style = rng.random()
        if style < 0.6:
            out.append("  %s: { label: %s }\n" % (name, name.capitalize()))
        elif style < 0.8:
            out.append("  %s:\n    label: %s\n" % (name, name.capitalize()))
        else:
            out.append("  %s:\n" % name)
    out.append("\nstock:\n")
    for name in fruits:
        # Each recipe needs at most 20 of a fruit, so nothing is never-makeable.
        out.append("  %s: %d\n" % (name, rng.randint(20, 999)))
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(out))


def item_recipe(rng, index, fruits):
    """1 to 5 distinct fruits with amounts 1 to 20; the first 200 items use every fruit."""
    count = rng.randint(1, 5)
    chosen = rng.sample(range(len(fruits)), count)
    if index < len(fruits) and index not in chosen:
        chosen[0] = index
    return [(fruits[c], rng.randint(1, 20)) for c in chosen]


def misspell(rng, name, forbidden):
    """One edit (substitute, insert, delete, swap neighbours) away from `name`."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    while True:
        kind = rng.randrange(4)
        i = rng.randrange(len(name))
        if kind == 0:
            candidate = name[:i] + rng.choice(letters) + name[i + 1:]
        elif kind == 1:
            candidate = name[:i] + rng.choice(letters) + name[i:]
        elif kind == 2:
            candidate = name[:i] + name[i + 1:]
        else:
            if i + 1 >= len(name):
                continue
            candidate = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        if candidate != name and len(candidate) >= 4 and candidate not in forbidden:
            return candidate


def file_items(f, items, fruits):
    """The items of menu file `f`: (index, label or None, price or None, recipe, flow style).

    One generator per file, so the 10k, 100k and 1M sets share their first files.
    """
    rng = random.Random(SEED * 1000 + f)
    first = f * ITEMS_PER_FILE
    for index in range(first, min(items, first + ITEMS_PER_FILE)):
        recipe = item_recipe(rng, index, fruits)
        label = price = None
        if rng.random() < 0.95:
            words = " ".join(name.capitalize() for name, _ in recipe[:4])
            label = "%s%s %s" % (rng.choice(LABEL_PREFIXES), words, rng.choice(LABEL_SUFFIXES))
        if rng.random() < 0.95:
            price = rng.randint(10, 90) * 100
        yield index, label, price, recipe, rng.random() < 0.4


def write_menu_set(folder, items, fruits, misspelled=None):
    """Writes fruits.yaml and items / ITEMS_PER_FILE menu files into `folder`.

    `misspelled` maps a global item index to (ingredient position, wrong name).
    """
    os.makedirs(folder, exist_ok=True)
    write_fruits(os.path.join(folder, "fruits.yaml"), fruits)
    files = (items + ITEMS_PER_FILE - 1) // ITEMS_PER_FILE
    width = max(3, len(str(files - 1)))
    for f in range(files):
        out = ["# Benchmark menu %d of %d.\nversion: 1\n\nmenu:\n" % (f + 1, files)]
        for index, label, price, recipe, flow in file_items(f, items, fruits):
            if misspelled and index in misspelled:
                position, wrong = misspelled[index]
                recipe[position] = (wrong, recipe[position][1])
            out.append("  juice-%07d:\n" % index)
            if label is not None:
                out.append("    label: %s\n" % label)
            if price is not None:
                out.append("    price: %d\n" % price)
            if flow:
                out.append("    recipe: { %s }\n" % ", ".join("%s: %d" % pair for pair in recipe))
            else:
                out.append("    recipe:\n")
                out.extend("      %s: %d\n" % pair for pair in recipe)
        name = "menu-%0*d.yaml" % (width, f)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
            fh.write("".join(out))


def misspelling_plan(fruits, items):
    """10,000 distinct items, one ingredient each, replaced by a one-edit misspelling."""
    rng = random.Random(SEED + 2)
    chosen = set(rng.sample(range(items), MISSPELLINGS))
    forbidden = set(fruits)
    plan = {}
    for f in range((items + ITEMS_PER_FILE - 1) // ITEMS_PER_FILE):
        for index, _, _, recipe, _ in file_items(f, items, fruits):
            if index in chosen:
                position = rng.randrange(len(recipe))
                plan[index] = (position, misspell(rng, recipe[position][0], forbidden))
    return plan


# The canonical book (recipes/): its 7 menu items, and its 5 fruits for restocks.
CANONICAL_MENU = ["strawberry-juice", "banana-juice", "kiwi-juice", "pineapple-juice",
                  "strawberry-banana-juice", "mango-juice", "mango-kiwi-juice"]
CANONICAL_FRUITS = ["strawberry", "banana", "pineapple", "kiwi", "mango"]


def write_orders(path, orders):
    """`orders` uniform orders, with `restock FRUIT N` (N 1..30) after every 10th."""
    rng = random.Random(SEED + 3)
    menu = [m + "\n" for m in CANONICAL_MENU]
    restocks = ["restock %s %d\n" % (fruit, n) for fruit in CANONICAL_FRUITS for n in range(1, 31)]
    with open(path, "w", encoding="ascii") as f:
        chunk = []
        for block in range(orders // 10):
            chunk.extend(rng.choices(menu, k=10))
            chunk.append(restocks[rng.randrange(len(restocks))])
            if len(chunk) >= 110_000:
                f.write("".join(chunk))
                chunk.clear()
        chunk.extend(rng.choices(menu, k=orders % 10))
        f.write("".join(chunk))


# MARK: Other shapes (issue 15): one big file, a deep book, many diagnostics

SYLLABLE_CONSONANTS = "bdfghklmnprstvwz"  # 16 x 5 vowels: 80 syllables
SYLLABLE_COUNT = len(SYLLABLE_CONSONANTS) * len(VOWELS)


def syllable_names(count, seed, syllables=3):
    """`count` distinct pronounceable ids, shuffled but reproducible.

    Name i spells (i * 7919 + seed) modulo 80^syllables in base 80, one
    consonant-vowel syllable a digit: 7919 is prime and shares no factor with
    80, so the map is one to one and no set of seen names is needed. A suffix
    ("", "n", "berry" or "fruit") varies the lengths; names with the same
    suffix have distinct stems, names with different ones differ in length or
    ending, so the suffixed names stay distinct too.
    """
    space = SYLLABLE_COUNT ** syllables
    if count > space:
        raise ValueError("%d names do not fit in %d syllables" % (count, syllables))
    rng = random.Random(seed)
    suffixes = ["", "n", "berry", "fruit"]
    names = []
    for i in range(count):
        code = (i * 7919 + seed) % space
        stem = []
        for _ in range(syllables):
            code, digit = divmod(code, SYLLABLE_COUNT)
            consonant, vowel = divmod(digit, len(VOWELS))
            stem.append(SYLLABLE_CONSONANTS[consonant] + VOWELS[vowel])
        names.append("".join(stem) + rng.choice(suffixes))
    return names


def covered(lower, upper, i):
    """Which of `lower` things the i-th of `upper` things must use so that every one is used."""
    if lower >= upper:
        return list(range(i, lower, upper))
    return [i % lower]


class NestedBook:
    """A book of fruits, recipes in `levels` levels, and menu items, and its stock.

    A level-1 recipe uses only fruits; a level-k recipe uses at least one
    level-(k-1) recipe (so the top level is nested `len(levels)` deep) and
    1 or 2 more fruits or lower recipes, amounts 1 to 3. A menu item uses
    `ingredients` (a range) distinct fruits and recipes, amounts 1 to 5; the
    first items take the top-level recipes in turn. Every fruit and recipe is
    used, so juice-lint reports no unused-fruit or unused-recipe; each fruit's
    stock is at least the most any item can need of it, so none is
    never-makeable. The book is clean: no diagnostics at all.
    """

    ITEM_AMOUNT = 5

    def __init__(self, seed, fruits, levels, items, ingredients):
        rng = random.Random(seed)
        self.fruits = syllable_names(fruits, seed)
        self.recipes = []  # (level, id, [(ingredient, amount)])
        needs = {}  # id -> {fruit: amount}, flattened
        for fruit in self.fruits:
            needs[fruit] = {fruit: 1}
        below = list(self.fruits)  # ids a recipe of the current level may draw extras from
        previous = self.fruits
        for level, count in enumerate(levels, 1):
            ids = ["blend%d-%05d" % (level, i) for i in range(count)]
            for i, rid in enumerate(ids):
                chosen = [previous[j] for j in covered(len(previous), count, i)]
                wanted = min(6, len(chosen) + rng.randint(1, 2))
                while len(chosen) < wanted:
                    extra = rng.choice(below)
                    if extra not in chosen:
                        chosen.append(extra)
                recipe = [(name, rng.randint(1, 3)) for name in chosen]
                self.recipes.append((level, rid, recipe))
                total = {}
                for name, amount in recipe:
                    for fruit, need in needs[name].items():
                        total[fruit] = total.get(fruit, 0) + amount * need
                needs[rid] = total
            below = below + ids
            previous = ids
        top = previous
        most = {}
        for rid, need in needs.items():
            for fruit, amount in need.items():
                most[fruit] = max(most.get(fruit, 0), amount)
        low, high = ingredients
        self.stock = [(f, high * self.ITEM_AMOUNT * most[f] + rng.randint(0, 99)) for f in self.fruits]
        self.items = []  # (id, label, price or None, [(ingredient, amount)])
        for i in range(items):
            count = rng.randint(low, high)
            chosen = [top[i]] if i < len(top) else []
            while len(chosen) < count:
                extra = rng.choice(below)
                if extra not in chosen:
                    chosen.append(extra)
            recipe = [(name, rng.randint(1, self.ITEM_AMOUNT)) for name in chosen]
            words = " ".join(f.capitalize() for f in rng.sample(self.fruits, rng.randint(1, 3)))
            label = "%s%s %s" % (rng.choice(LABEL_PREFIXES), words, rng.choice(LABEL_SUFFIXES))
            price = rng.randint(10, 90) * 100 if rng.random() < 0.95 else None
            self.items.append(("juice-%07d" % i, label, price, recipe))


def mapping_lines(indent, entries, flow):
    """`entries` as a nested block mapping, or on one line in flow style."""
    if flow:
        return [" {%s }\n" % ",".join(" %s: %d" % pair for pair in entries)]
    return ["\n"] + ["%s%s: %d\n" % (indent, name, amount) for name, amount in entries]


def write_nested_book(folder, book, files, flow_share, seed):
    """Writes `book` into `files` files, the i-th thing of each section into file i mod `files`.

    Spreading every section keeps each file a whole book's mix, so every
    file's ingredients name fruits and recipes declared in the other files.
    """
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(seed)
    width = max(2, len(str(files - 1)))
    per_file = (len(book.items) + files - 1) // files
    for f in range(files):
        out = ["# Benchmark book, file %d of %d.\nversion: 1\n\nfruits:\n" % (f + 1, files)]
        for fruit in book.fruits[f::files]:
            if rng.random() < 0.5:
                out.append("  %s: { label: %s }\n" % (fruit, fruit.capitalize()))
            else:
                out.append("  %s:\n    label: %s\n" % (fruit, fruit.capitalize()))
        out.append("\nstock:\n")
        out.extend("  %s: %d\n" % pair for pair in book.stock[f::files])
        out.append("\nrecipes:\n")
        for _, rid, recipe in book.recipes[f::files]:
            out.append("  %s:" % rid)
            out.extend(mapping_lines("    ", recipe, rng.random() < flow_share))
        out.append("\nmenu:\n")
        for iid, label, price, recipe in book.items[f * per_file:(f + 1) * per_file]:
            out.append("  %s:\n    label: %s\n" % (iid, label))
            if price is not None:
                out.append("    price: %d\n" % price)
            out.append("    recipe:")
            out.extend(mapping_lines("      ", recipe, rng.random() < flow_share))
        name = "book.yaml" if files == 1 else "book-%0*d.yaml" % (width, f)
        with open(os.path.join(folder, name), "w", encoding="utf-8") as fh:
            fh.write("".join(out))


def write_single(folder):
    """Shape 2: one file, 300 fruits, 1,000 recipes 3 levels deep, 100,000 items, all block style."""
    book = NestedBook(SEED + 10, fruits=300, levels=(500, 300, 200), items=LINT_ITEMS, ingredients=(1, 5))
    write_nested_book(folder, book, files=1, flow_share=0.0, seed=SEED + 11)


def write_deep(folder):
    """Shape 3: 10 files; in all 2,000 fruits, 5,000 recipes 4 deep, 50,000 items of 3 to 8 ingredients."""
    book = NestedBook(SEED + 20, fruits=2_000, levels=(2_000, 1_500, 1_000, 500), items=50_000,
                      ingredients=(3, 8))
    write_nested_book(folder, book, files=10, flow_share=0.4, seed=SEED + 21)


UNUSED_FRUITS = 100_000


def write_unused(folder):
    """Shape 4: 100,000 fruits declared, never used and never stocked, beside one small menu.

    Each of them is an unused-fruit warning and a missing-stock info: 200,000
    diagnostics. The menu sells one juice of one more, stocked fruit, so the
    book is otherwise a working one.
    """
    os.makedirs(folder, exist_ok=True)
    fruits = syllable_names(UNUSED_FRUITS, SEED + 30)
    with open(os.path.join(folder, "fruits.yaml"), "w", encoding="utf-8") as f:
        f.write("# %d fruits, none of them used or stocked.\nversion: 1\n\nfruits:\n" % len(fruits))
        f.write("".join("  %s:\n" % name for name in fruits))
    with open(os.path.join(folder, "menu.yaml"), "w", encoding="utf-8") as f:
        f.write("version: 1\n\nfruits:\n  apple: { label: Apple }\n\nstock:\n  apple: 10\n\n"
                "menu:\n  apple-juice:\n    label: Apple Juice\n    recipe: { apple: 2 }\n")


# MARK: More shapes (issue 27): the side-by-side comparison with a baseline build

EMOJIS = ["🍓", "🍌", "🍍", "🥝", "🥭", "🍎", "🍐", "🍑", "🍒", "🍇", "🍉", "🍋"]


def flattened_stock(fruits, recipes, items, rng, margin=99):
    """Each fruit's stock: the most of it that any one menu item needs, flattened, plus 0 to `margin`.

    `recipes` and `items` are lists of (id, [(ingredient, amount)]), recipes
    listed after everything they use. So no item is never-makeable.
    """
    needs = {fruit: {fruit: 1} for fruit in fruits}
    for rid, recipe in recipes:
        total = {}
        for name, amount in recipe:
            for fruit, need in needs[name].items():
                total[fruit] = total.get(fruit, 0) + amount * need
        needs[rid] = total
    most = dict.fromkeys(fruits, 1)
    for _, recipe in items:
        total = {}
        for name, amount in recipe:
            for fruit, need in needs[name].items():
                total[fruit] = total.get(fruit, 0) + amount * need
        for fruit, amount in total.items():
            if amount > most[fruit]:
                most[fruit] = amount
    stock = [(fruit, most[fruit] + rng.randint(0, margin)) for fruit in fruits]
    if max(amount for _, amount in stock) >= 2 ** 62:
        raise ValueError("a stock amount is too large")
    return stock


def write_styled_book(path, book, style, seed):
    """`book` (a NestedBook) as one file, every mapping below the top level in `style`.

    block: each mapping on its own lines (`recipe:`, then `  fruit: 1` lines),
    a fruit's label (and for some an emoji) on lines of their own, stock one
    entry a line. flow: `id: { label: x, price: 1, recipe: { a: 1, b: 2 } }`
    one line an item, a fruit `id: { label: X }`, a recipe `id: { a: 1 }`, and
    the stock one flow mapping over many lines, eight entries a line.
    """
    rng = random.Random(seed)
    out = ["# Benchmark book in %s style: %d fruits, %d recipes, %d menu items.\nversion: 1\n\nfruits:\n" % (
        style, len(book.fruits), len(book.recipes), len(book.items))]
    flow = style == "flow"
    for fruit in book.fruits:
        emoji = rng.choice(EMOJIS) if rng.random() < 0.2 else None
        if flow:
            out.append("  %s: { label: %s%s }\n" % (fruit, fruit.capitalize(), ", emoji: " + emoji if emoji else ""))
        else:
            out.append("  %s:\n    label: %s\n" % (fruit, fruit.capitalize()))
            if emoji:
                out.append("    emoji: %s\n" % emoji)
    if flow:
        out.append("\nstock: {\n")
        entries = ["%s: %d" % pair for pair in book.stock]
        lines = [", ".join(entries[i:i + 8]) for i in range(0, len(entries), 8)]
        out.append(",\n".join("  " + line for line in lines))
        out.append("\n}\n\nrecipes:\n")
    else:
        out.append("\nstock:\n")
        out.extend("  %s: %d\n" % pair for pair in book.stock)
        out.append("\nrecipes:\n")
    for _, rid, recipe in book.recipes:
        if flow:
            out.append("  %s: { %s }\n" % (rid, ", ".join("%s: %d" % pair for pair in recipe)))
        else:
            out.append("  %s:\n" % rid)
            out.extend("    %s: %d\n" % pair for pair in recipe)
    out.append("\nmenu:\n")
    for iid, label, price, recipe in book.items:
        if flow:
            out.append("  %s: { label: %s, %srecipe: { %s } }\n" % (
                iid, label, "" if price is None else "price: %d, " % price,
                ", ".join("%s: %d" % pair for pair in recipe)))
        else:
            out.append("  %s:\n    label: %s\n" % (iid, label))
            if price is not None:
                out.append("    price: %d\n" % price)
            out.append("    recipe:\n")
            out.extend("      %s: %d\n" % pair for pair in recipe)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(out))


SHAPE_BLOCK_ITEMS = 98_000
SHAPE_FLOW_ITEMS = 111_000


def write_shape_block(folder):
    """One file, block style throughout: 1,000 fruits, 2,000 recipes 3 deep, 98,000 labelled items; 15 MB."""
    os.makedirs(folder, exist_ok=True)
    book = NestedBook(SEED + 40, fruits=1_000, levels=(1_000, 600, 400), items=SHAPE_BLOCK_ITEMS, ingredients=(1, 5))
    write_styled_book(os.path.join(folder, "book.yaml"), book, "block", SEED + 41)


def write_shape_flow(folder):
    """One file, flow style throughout: 1,000 fruits, 2,000 recipes 3 deep, 111,000 labelled items; 15 MB."""
    os.makedirs(folder, exist_ok=True)
    book = NestedBook(SEED + 50, fruits=1_000, levels=(1_000, 600, 400), items=SHAPE_FLOW_ITEMS, ingredients=(1, 5))
    write_styled_book(os.path.join(folder, "book.yaml"), book, "flow", SEED + 51)


DEEP8_LEVELS = (1_500, 1_200, 1_000, 800, 600, 400, 300, 200)


def write_shape_deep8(folder):
    """4 files; in all 1,500 fruits, 6,000 recipes nested 8 deep, 40,000 items of 3 to 8 ingredients."""
    book = NestedBook(SEED + 60, fruits=1_500, levels=DEEP8_LEVELS, items=40_000, ingredients=(3, 8))
    if max(amount for _, amount in book.stock) >= 2 ** 62:
        raise ValueError("shape-deep8: a stock amount is too large")
    write_nested_book(folder, book, files=4, flow_share=0.4, seed=SEED + 61)


TINY_FILES = 5_000
TINY_FANOUT = (10, 10)  # 10 folders of 10 folders, 50 files in each of the 100


def write_shape_tiny(folder):
    """5,000 files of 9 to 12 lines in 100 folders two levels deep: one fruit, its stock and one item each.

    The item uses its own file's fruit and 0 to 2 fruits of other files;
    every fifth file also has a recipe of its fruit and another file's,
    which its item uses. Every fruit is used and stocked.
    """
    rng = random.Random(SEED + 70)
    fruits = syllable_names(TINY_FILES, SEED + 70)
    recipes, items = [], []
    for i, fruit in enumerate(fruits):
        chosen = [fruit]
        if i % 5 == 0:
            other = fruits[(i * 7 + 3) % TINY_FILES]
            if other == fruit:
                other = fruits[(i + 1) % TINY_FILES]
            rid = "tiny-blend-%04d" % i
            recipes.append((rid, [(fruit, rng.randint(1, 2)), (other, 1)]))
            chosen.append(rid)
        wanted = len(chosen) + rng.randint(0, 2)
        while len(chosen) < wanted:
            other = rng.choice(fruits)
            if other not in chosen:
                chosen.append(other)
        items.append(("tiny-juice-%04d" % i, [(name, rng.randint(1, 5)) for name in chosen]))
    stock = flattened_stock(fruits, recipes, items, rng)
    recipe_of = dict(recipes)
    per_folder = TINY_FILES // (TINY_FANOUT[0] * TINY_FANOUT[1])
    for i, fruit in enumerate(fruits):
        outer, rest = divmod(i, TINY_FANOUT[1] * per_folder)
        inner = rest // per_folder
        sub = os.path.join(folder, "area-%02d" % outer, "shop-%02d" % inner)
        os.makedirs(sub, exist_ok=True)
        iid, recipe = items[i]
        out = ["version: 1\nfruits:\n  %s: { label: %s }\nstock:\n  %s: %d\n" % (
            fruit, fruit.capitalize(), fruit, stock[i][1])]
        rid = "tiny-blend-%04d" % i
        if rid in recipe_of:
            out.append("recipes:\n  %s: { %s }\n" % (rid, ", ".join("%s: %d" % p for p in recipe_of[rid])))
        out.append("menu:\n  %s:\n    label: %s %s\n" % (iid, fruit.capitalize(), rng.choice(LABEL_SUFFIXES)))
        if rng.random() < 0.5:
            out.append("    price: %d\n" % (rng.randint(10, 90) * 100))
        out.append("    recipe: { %s }\n" % ", ".join("%s: %d" % p for p in recipe))
        with open(os.path.join(sub, "shop-%04d.yaml" % i), "w", encoding="utf-8") as fh:
            fh.write("".join(out))


FRUITS_20K = 20_000
FRUITS_20K_MENU_FILES = 4


def write_shape_fruits20k(folder):
    """20,000 fruits, catalog and stock, in fruits.yaml; 20,000 items of 1 to 4 fruits in 4 menu files.

    Item i uses fruit i and up to 3 others, amounts 1 to 20; every fruit is
    stocked at 20 or more, so every fruit is used and nothing is never-makeable.
    """
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(SEED + 80)
    fruits = syllable_names(FRUITS_20K, SEED + 80)
    out = ["# %d fruits, every one used and stocked.\nversion: 1\n\nfruits:\n" % len(fruits)]
    for name in fruits:
        style = rng.random()
        if style < 0.6:
            out.append("  %s: { label: %s }\n" % (name, name.capitalize()))
        elif style < 0.8:
            out.append("  %s:\n    label: %s\n" % (name, name.capitalize()))
        else:
            out.append("  %s:\n" % name)
    out.append("\nstock:\n")
    out.extend("  %s: %d\n" % (name, rng.randint(20, 999)) for name in fruits)
    with open(os.path.join(folder, "fruits.yaml"), "w", encoding="utf-8") as fh:
        fh.write("".join(out))
    per_file = FRUITS_20K // FRUITS_20K_MENU_FILES
    for f in range(FRUITS_20K_MENU_FILES):
        out = ["# Menu %d of %d.\nversion: 1\n\nmenu:\n" % (f + 1, FRUITS_20K_MENU_FILES)]
        for i in range(f * per_file, (f + 1) * per_file):
            chosen = [fruits[i]]
            wanted = rng.randint(1, 4)
            while len(chosen) < wanted:
                other = rng.choice(fruits)
                if other not in chosen:
                    chosen.append(other)
            recipe = ", ".join("%s: %d" % (name, rng.randint(1, 20)) for name in chosen)
            label = "%s%s %s" % (rng.choice(LABEL_PREFIXES), " ".join(n.capitalize() for n in chosen[:3]),
                                 rng.choice(LABEL_SUFFIXES))
            if rng.random() < 0.5:
                out.append("  juice-%05d: { label: %s, recipe: { %s } }\n" % (i, label, recipe))
            else:
                out.append("  juice-%05d:\n    label: %s\n    price: %d\n    recipe: { %s }\n" % (
                    i, label, rng.randint(10, 90) * 100, recipe))
        with open(os.path.join(folder, "menu-%d.yaml" % f), "w", encoding="utf-8") as fh:
            fh.write("".join(out))


def write_orders_mix(path, order_lines):
    """The second order mix: `order_lines` order lines uniform over the canonical menu,
    10% of them `ID xN` (N 2 to 10), and one `restock FRUIT N` (N 1 to 99) per 10
    order lines at a random place among them rather than after the 10th.
    """
    rng = random.Random(SEED + 4)
    restocks = ["restock %s %d\n" % (fruit, n) for fruit in CANONICAL_FRUITS for n in range(1, 100)]
    plain = [m + "\n" for m in CANONICAL_MENU]
    with open(path, "w", encoding="ascii") as f:
        chunk = []
        written = 0
        while written < order_lines:
            block = []
            for _ in range(min(10, order_lines - written)):
                if rng.random() < 0.1:
                    block.append("%s x%d\n" % (rng.choice(CANONICAL_MENU), rng.randint(2, 10)))
                else:
                    block.append(rng.choice(plain))
            written += len(block)
            if len(block) == 10:
                block.insert(rng.randrange(11), restocks[rng.randrange(len(restocks))])
            chunk.extend(block)
            if len(chunk) >= 110_000:
                f.write("".join(chunk))
                chunk.clear()
        f.write("".join(chunk))


def script_hash():
    with open(__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def build(out, name, params, make):
    """Runs `make(target)` unless `name` under `out` is already stamped with these params."""
    target = os.path.join(out, name)
    stamp_path = os.path.join(out, "." + name.rstrip("/") + ".stamp")
    stamp = json.dumps({"script": script_hash(), **params}, sort_keys=True)
    if os.path.exists(target) and os.path.exists(stamp_path):
        with open(stamp_path) as f:
            if f.read() == stamp:
                return False
    print("generating %s ..." % target, file=sys.stderr, flush=True)
    if os.path.isdir(target):
        shutil.rmtree(target)
    elif os.path.exists(target):
        os.remove(target)
    make(target)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return True


SETS = ["lint-clean", "lint-errors", "scale-10k", "scale-1m", "lint-single", "lint-deep", "lint-unused",
        "orders-10m.txt", "orders-1m.txt", "orders-100k.txt", "orders-mix-10m.txt", "orders-mix-1m.txt",
        "orders-mix-100k.txt", "shape-block", "shape-flow", "shape-deep8", "shape-tiny", "shape-fruits20k"]
QUICK_SKIPS = {"scale-1m", "orders-10m.txt", "orders-mix-10m.txt"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=".build/bench-data")
    parser.add_argument("--quick", action="store_true", help="leave out scale-1m and orders-10m.txt")
    parser.add_argument("sets", nargs="*", help="the sets to make (default: all, or all but the large ones with --quick)")
    args = parser.parse_args(argv)
    wanted = args.sets or [s for s in SETS if not (args.quick and s in QUICK_SKIPS)]
    for name in wanted:
        if name not in SETS:
            parser.error("unknown set %r; sets: %s" % (name, ", ".join(SETS)))
    os.makedirs(args.out, exist_ok=True)

    fruits = fruit_names()
    makers = {
        "lint-clean": (dict(items=LINT_ITEMS), lambda t: write_menu_set(t, LINT_ITEMS, fruits)),
        "lint-errors": (dict(items=LINT_ITEMS, misspellings=MISSPELLINGS),
                        lambda t: write_menu_set(t, LINT_ITEMS, fruits, misspelling_plan(fruits, LINT_ITEMS))),
        "scale-10k": (dict(items=10_000), lambda t: write_menu_set(t, 10_000, fruits)),
        "scale-1m": (dict(items=1_000_000), lambda t: write_menu_set(t, 1_000_000, fruits)),
        "orders-10m.txt": (dict(orders=10_000_000), lambda t: write_orders(t, 10_000_000)),
        "orders-1m.txt": (dict(orders=1_000_000), lambda t: write_orders(t, 1_000_000)),
        "orders-100k.txt": (dict(orders=100_000), lambda t: write_orders(t, 100_000)),
        "lint-single": (dict(items=LINT_ITEMS), write_single),
        "lint-deep": (dict(items=50_000), write_deep),
        "lint-unused": (dict(fruits=UNUSED_FRUITS), write_unused),
        "orders-mix-10m.txt": (dict(order_lines=10_000_000), lambda t: write_orders_mix(t, 10_000_000)),
        "orders-mix-1m.txt": (dict(order_lines=1_000_000), lambda t: write_orders_mix(t, 1_000_000)),
        "orders-mix-100k.txt": (dict(order_lines=100_000), lambda t: write_orders_mix(t, 100_000)),
        "shape-block": (dict(items=SHAPE_BLOCK_ITEMS), write_shape_block),
        "shape-flow": (dict(items=SHAPE_FLOW_ITEMS), write_shape_flow),
        "shape-deep8": (dict(levels=list(DEEP8_LEVELS)), write_shape_deep8),
        "shape-tiny": (dict(files=TINY_FILES), write_shape_tiny),
        "shape-fruits20k": (dict(fruits=FRUITS_20K), write_shape_fruits20k),
    }
    for name in wanted:
        params, make = makers[name]
        build(args.out, name, params, make)


if __name__ == "__main__":
    main()
