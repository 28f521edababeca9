"""Seeded random recipe books (version 2) and order scripts.

Everything comes from one `random.Random(seed)`, so a seed names a case
for good: `python book_generator.py SEED OUTDIR` writes it out to look at or
to replay by hand.

A book: 2-8 fruits (some without a cost, some with a pack), 1-8 recipes
nested up to 4 deep as a DAG (a recipe at level k uses one at level k-1
and maybe others below it, so sub-recipes are shared), yields 1-5, a mix of
short and long forms, some recipes stocked, 1-5 menu items with prices.
Flags per seed decide whether the book keeps servings (a long form with a
`yield:` or a stocked recipe) and whether it has money (a `cost:`), so
version-2 books without either feature are covered too. With `v1_only`,
the book uses nothing that version 1 lacks.

With `substitutes=True` (off by default, so every seed's book and script
stay byte for byte what they were), about half the fruits get 1-2 other
fruits as substitutes (ratios 1-3), written `substitutes: { a: 2, b: 1 }`
in the order of preference; the opening stock of those fruits is low and
their substitutes' higher, and the script sets them low again now and
then, so that orders really run short and draw on substitutes (and are
sometimes refused even so).

Ids are unique across the whole book and chosen from fixed lists that
PyYAML and libyaml read alike (no `yes`, `no`, `on`, numbers...), so the
files merge trivially. The file names of a split book sort the same way
whether a path is compared whole or component by component.
"""

from __future__ import annotations

import dataclasses
import pathlib
import random
import sys

FRUIT_POOL = [
    ("apple", "사과", "🍎"), ("banana", "바나나", "🍌"), ("cherry", "체리", "🍒"),
    ("grape", "포도", "🍇"), ("kiwi", "키위", "🥝"), ("lemon", "레몬", "🍋"),
    ("mango", "망고", "🥭"), ("melon", "멜론", "🍈"), ("orange", "오렌지", "🍊"),
    ("peach", "복숭아", "🍑"), ("pear", "배", "🍐"), ("pineapple", "파인애플", "🍍"),
    ("strawberry", "딸기", "🍓"), ("coconut", "코코넛", "🥥"),
]
RECIPE_POOL = ["syrup", "puree", "foam", "jam", "cream", "glaze", "mash", "zest",
               "nectar", "kiwi-base", "tropical-base", "berry-mix"]
RECIPE_LABELS = ["Syrup", "시럽", "Base", "퓨레", "Mix"]
MENU_POOL = ["sunrise", "sunset", "breeze", "lagoon", "monsoon", "aurora", "daybreak", "twilight"]
MENU_LABELS = ["선라이즈", "Sunset Cooler", "바람", "Lagoon", "오로라"]


@dataclasses.dataclass
class GenFruit:
    id: str
    label: str | None
    emoji: str | None
    cost: int | None
    pack: int | None  # None: not written (pack 1)
    substitutes: list[tuple[str, int]] | None = None  # None: not written


@dataclasses.dataclass
class GenRecipe:
    id: str
    ingredients: list[tuple[str, int]]
    form: str  # "short", "long" (with yield:), "long-noyield"
    yield_: int
    label: str | None
    level: int


@dataclasses.dataclass
class GenMenu:
    id: str
    ingredients: list[tuple[str, int]]
    price: int | None
    label: str | None


@dataclasses.dataclass
class GenBook:
    seed: int
    version: int | None
    fruits: list[GenFruit]
    stock: list[tuple[str, int]]  # fruits and recipes, in the order written
    recipes: list[GenRecipe]  # declaration order (not level order)
    menu: list[GenMenu]
    keeps_servings: bool
    money: bool
    substitutes: bool = False  # some fruit has substitutes


@dataclasses.dataclass
class Case:
    seed: int
    book: GenBook
    files: dict[str, str]  # relative path -> YAML text
    script: list[str]  # lines

    @property
    def script_text(self) -> str:
        return "".join(line + "\n" for line in self.script)


def _amount(rng: random.Random) -> int:
    return rng.choice([1, 1, 1, 2, 2, 3])


def generate_book(rng: random.Random, seed: int, v1_only: bool = False,
                  substitutes: bool = False) -> GenBook:
    if v1_only and substitutes:
        raise ValueError("substitutes need version 2")
    if v1_only:
        version, keeps, money = rng.choice([None, 1]), False, False
    else:
        version, keeps, money = 2, rng.random() < 0.8, rng.random() < 0.75

    fruits = []
    for fid, label, emoji in rng.sample(FRUIT_POOL, rng.randint(2, 8)):
        cost = pack = None
        if money and rng.random() < 0.85:
            cost = rng.choice([rng.randint(1, 9), rng.randrange(50, 1000, 50)])
        if not v1_only and rng.random() < 0.35:
            pack = rng.randint(1, 12)
        fruits.append(GenFruit(fid, label if rng.random() < 0.6 else None,
                               emoji if rng.random() < 0.4 else None, cost, pack))
    if money and all(f.cost is None for f in fruits):
        fruits[rng.randrange(len(fruits))].cost = rng.randint(1, 9)
    fruit_ids = [f.id for f in fruits]
    if substitutes:
        _add_substitutes(rng, fruits)

    n_recipes = rng.randint(1, 8)
    depth = rng.randint(1, min(4, n_recipes))
    levels = list(range(1, depth + 1)) + [rng.randint(1, depth) for _ in range(n_recipes - depth)]
    ids = rng.sample(RECIPE_POOL, n_recipes)
    recipes: list[GenRecipe] = []
    for rid, level in sorted(zip(ids, levels), key=lambda p: p[1]):
        ings: dict[str, int] = {}
        if level > 1:
            ings[rng.choice([r.id for r in recipes if r.level == level - 1])] = _amount(rng)
            pool = [r.id for r in recipes if r.level < level] + fruit_ids
            extra = rng.randint(0, 2)
        else:
            pool, extra = fruit_ids, rng.randint(1, 3)
        for ing in rng.sample(pool, min(extra, len(pool))):
            ings.setdefault(ing, _amount(rng))
        if keeps:
            form = rng.choices(["long", "long-noyield", "short"], [0.6, 0.1, 0.3])[0]
        elif not v1_only:
            form = rng.choices(["long-noyield", "short"], [0.2, 0.8])[0]
        else:
            form = "short"
        yield_ = rng.randint(1, 5) if form == "long" else 1
        label = rng.choice(RECIPE_LABELS) if form != "short" and rng.random() < 0.4 else None
        items = list(ings.items())
        rng.shuffle(items)
        recipes.append(GenRecipe(rid, items, form, yield_, label, level))
    rng.shuffle(recipes)  # declaration order is not dependency order

    stock: list[tuple[str, int]] = []
    if substitutes:
        stock += _substitute_stock(rng, fruits)
    else:
        for f in fruit_ids:
            if rng.random() < 0.85:
                stock.append((f, rng.choice([rng.randint(0, 30), rng.randint(0, 8), rng.randint(30, 80)])))
    if keeps:
        for r in recipes:
            if rng.random() < 0.35:
                stock.append((r.id, rng.randint(0, 6)))
        if not any(r.form == "long" for r in recipes) and not any(s in {r.id for r in recipes} for s, _ in stock):
            r = rng.choice(recipes)
            r.form, r.yield_ = "long", rng.randint(1, 5)
    rng.shuffle(stock)

    menu = []
    recipe_ids = [r.id for r in recipes]
    top = max(r.level for r in recipes)
    for mid in rng.sample(MENU_POOL, rng.randint(1, 5)):
        ings = {}
        if rng.random() < 0.85:
            deep = [r.id for r in recipes if r.level >= top - 1]
            ings[rng.choice(deep if rng.random() < 0.6 else recipe_ids)] = rng.choice([1, 1, 2])
        for ing in rng.sample(recipe_ids + fruit_ids, rng.randint(0 if ings else 1, 2)):
            ings.setdefault(ing, rng.choice([1, 1, 2]))
        price = rng.choice([None, 0, rng.randrange(500, 9000, 100), rng.randint(1, 50)])
        items = list(ings.items())
        rng.shuffle(items)
        menu.append(GenMenu(mid, items, price, rng.choice(MENU_LABELS) if rng.random() < 0.4 else None))
    if money and all(m.price is None for m in menu):
        menu[0].price = rng.randrange(500, 9000, 100)
    return GenBook(seed, version, fruits, stock, recipes, menu, keeps, money,
                   any(f.substitutes for f in fruits))


def _add_substitutes(rng: random.Random, fruits: list[GenFruit]) -> None:
    """1-2 other fruits (ratios 1-3) for about half the fruits, at least one."""
    ids = [f.id for f in fruits]
    for f in fruits:
        if rng.random() < 0.5:
            others = [i for i in ids if i != f.id]
            chosen = rng.sample(others, min(len(others), rng.choice([1, 1, 2])))
            f.substitutes = [(s, rng.choice([1, 1, 2, 3])) for s in chosen]
    if not any(f.substitutes for f in fruits):
        f = rng.choice(fruits)
        f.substitutes = [(rng.choice([i for i in ids if i != f.id]), rng.choice([1, 2, 3]))]


def _substitute_stock(rng: random.Random, fruits: list[GenFruit]) -> list[tuple[str, int]]:
    """Low stock for fruits with substitutes, more for the fruits that
    stand in, so that substitutes are used and sometimes run out."""
    standing_in = {s for f in fruits for s, _ in (f.substitutes or [])}
    stock = []
    for f in fruits:
        if f.substitutes:
            n = rng.choice([0, rng.randint(0, 3), rng.randint(0, 8)])
        elif f.id in standing_in:
            n = rng.choice([rng.randint(0, 12), rng.randint(10, 40)])
        else:
            n = rng.choice([rng.randint(0, 30), rng.randint(30, 80)])
        if n or rng.random() < 0.85:
            stock.append((f.id, n))
    return stock


def generate_script(rng: random.Random, book: GenBook) -> list[str]:
    """0-60 lines: orders, `ID xN`, restocks and sets of fruits (and of
    recipes when the book keeps servings), `stock`, comments, blank lines."""
    fruit_ids = [f.id for f in book.fruits]
    recipe_ids = [r.id for r in book.recipes]
    menu_ids = [m.id for m in book.menu]
    kinds = ["order", "times", "restock", "set", "stock", "comment"]
    weights = [45, 20, 10, 5, 3, 7]
    if book.keeps_servings:
        kinds += ["restock-recipe", "set-recipe"]
        weights += [6, 4]
    short_ids = [f.id for f in book.fruits if f.substitutes]
    if book.substitutes:
        kinds += ["set-low", "restock-sub"]
        weights += [6, 6]
        subs = sorted({s for f in book.fruits for s, _ in (f.substitutes or [])})
    lines = []
    for _ in range(rng.randint(0, 60)):
        kind = rng.choices(kinds, weights)[0]
        if kind == "order":
            line = rng.choice(menu_ids)
        elif kind == "times":
            line = f"{rng.choice(menu_ids)} x{rng.choice([1, 2, 2, 3, 3, 4, 5])}"
        elif kind == "restock":
            line = f"restock {rng.choice(fruit_ids)} {rng.randint(1, 20)}"
        elif kind == "set":
            line = f"set {rng.choice(fruit_ids)} {rng.randint(0, 30)}"
        elif kind == "restock-recipe":
            line = f"restock {rng.choice(recipe_ids)} {rng.randint(1, 5)}"
        elif kind == "set-recipe":
            line = f"set {rng.choice(recipe_ids)} {rng.randint(0, 5)}"
        elif kind == "set-low":
            line = f"set {rng.choice(short_ids)} {rng.randint(0, 2)}"
        elif kind == "restock-sub":
            line = f"restock {rng.choice(subs)} {rng.randint(1, 12)}"
        elif kind == "stock":
            line = "stock"
        else:
            line = rng.choice(["", "# a comment", "   "])
        if line.strip() and rng.random() < 0.1:
            line += "   # note"
        lines.append(line)
    return lines


# ---------------------------------------------------------------------------
# Writing YAML
# ---------------------------------------------------------------------------


def _flow(pairs) -> str:
    return "{ " + ", ".join(f"{k}: {v}" for k, v in pairs) + " }"


def _fruit_lines(f: GenFruit) -> list[str]:
    parts = [(k, v) for k, v in (("label", f.label), ("emoji", f.emoji), ("cost", f.cost), ("pack", f.pack))
             if v is not None]
    if f.substitutes:
        parts.append(("substitutes", _flow(f.substitutes)))
    return [f"  {f.id}: {_flow(parts)}" if parts else f"  {f.id}:"]


def _recipe_lines(r: GenRecipe, rng: random.Random) -> list[str]:
    if r.form == "short":
        if rng.random() < 0.5:
            return [f"  {r.id}: {_flow(r.ingredients)}"]
        return [f"  {r.id}:"] + [f"    {k}: {v}" for k, v in r.ingredients]
    keys = [("recipe", _flow(r.ingredients))]
    if r.form == "long":
        keys.append(("yield", r.yield_))
    if r.label is not None:
        keys.append(("label", r.label))
    rng.shuffle(keys)
    if rng.random() < 0.3:
        return [f"  {r.id}: {_flow(keys)}"]
    return [f"  {r.id}:"] + [f"    {k}: {v}" for k, v in keys]


def _menu_lines(m: GenMenu, rng: random.Random) -> list[str]:
    keys = [("recipe", _flow(m.ingredients))]
    if m.price is not None:
        keys.append(("price", m.price))
    if m.label is not None:
        keys.append(("label", m.label))
    rng.shuffle(keys)
    if rng.random() < 0.3:
        return [f"  {m.id}: {_flow(keys)}"]
    return [f"  {m.id}:"] + [f"    {k}: {v}" for k, v in keys]


def render_files(rng: random.Random, book: GenBook) -> dict[str, str]:
    """One file, one file of several `---` documents, or several files
    (one maybe in a subfolder) with every entry put in a random one. Each
    document gets the book's `version:` line."""
    layout = rng.choice(["single", "single", "documents", "split", "split-sub"])
    if layout == "single":
        names = ["book.yaml"]
    elif layout == "documents":
        names = ["book.yaml#0", "book.yaml#1", "book.yaml#2"]
    else:
        names = [f"p{i}.yaml" for i in range(rng.randint(2, 4))]
        if layout == "split-sub":
            names[-1] = "q/" + names[-1]
    parts = {n: {"fruits": [], "stock": [], "recipes": [], "menu": []} for n in names}

    def put(section: str, lines: list[str]) -> None:
        parts[rng.choice(names)][section].extend(lines)

    for f in book.fruits:
        put("fruits", _fruit_lines(f))
    for sid, n in book.stock:
        put("stock", [f"  {sid}: {n}"])
    for r in book.recipes:
        put("recipes", _recipe_lines(r, rng))
    for m in book.menu:
        put("menu", _menu_lines(m, rng))

    texts: dict[str, list[str]] = {}
    for name in names:
        doc = [f"# seed {book.seed}: {name}"]
        if book.version is not None:
            doc.append(f"version: {book.version}")
        for section, lines in parts[name].items():
            if lines:
                doc += [f"{section}:"] + lines
        path = name.split("#")[0]
        if path in texts:
            texts[path].append("---")
        texts.setdefault(path, []).extend(doc)
    return {path: "\n".join(lines) + "\n" for path, lines in texts.items()}


def generate_case(seed: int, v1_only: bool = False, substitutes: bool = False) -> Case:
    """A book, its files and a script, all from random.Random(seed); with
    `substitutes`, a book whose fruits have substitutes (see the top)."""
    rng = random.Random(seed)
    book = generate_book(rng, seed, v1_only, substitutes)
    files = render_files(rng, book)
    script = generate_script(rng, book)
    return Case(seed, book, files, script)


def write_book(files: dict[str, str], folder: pathlib.Path) -> pathlib.Path:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def write_script(lines_or_text, path: pathlib.Path) -> pathlib.Path:
    text = lines_or_text if isinstance(lines_or_text, str) else "".join(l + "\n" for l in lines_or_text)
    path.write_text(text, encoding="utf-8")
    return path


def write_case(case: Case, folder: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """`folder/book/...` and `folder/orders.txt`."""
    book = write_book(case.files, folder / "book")
    script = write_script(case.script, folder / "orders.txt")
    return book, script


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: book_generator.py SEED OUTDIR [--v1] [--substitutes]")
    case = generate_case(int(sys.argv[1]), v1_only="--v1" in sys.argv[3:],
                         substitutes="--substitutes" in sys.argv[3:])
    book_dir, script_path = write_case(case, pathlib.Path(sys.argv[2]))
    print(f"juice-run --recipes {book_dir} --format json {script_path}")
