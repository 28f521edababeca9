"""An independent reference model of juice-run for recipe language version 2.

What it models: a recipe book (fruits with an optional cost and pack,
recipes with a yield, a menu, opening stock of fruit and of recipe servings),
an order script, and every event `juice-run --format json` prints for it,
including the shortfall, the money fields, the menu card and the shopping
list.

Why it is independent: the Swift engine plans an order top-down with a
closed formula (demand, then batches = ceil((demand - on hand) / yield) per
recipe, in dependency order). This model does not. It makes servings *one at
a time*, the way a person in the shop would: to get one serving of a recipe,
use one from the shelf if there is one, otherwise make a batch (taking each
fruit unit and each sub-recipe serving one at a time, recursively), put its
servings on the shelf and use one. Nothing here orders recipes, counts
demand or divides by a yield, so a mistake in the formula (or in its
dependency order) cannot be repeated here by construction.

The closed formula is still written out below (`plan_closed_form`), but only
so that the model's own self-test can check that the two agree on many
random books. It is never used to produce expected output, unless a caller
asks for it explicitly (the self-test does, to compare whole runs).

Substitutes (issue 37): a fruit may list fruits that stand in for it
(`substitutes: { frozen-strawberry: 1 }`, ratio = units per missing unit).
An order is first planned as above on a scratch copy with unlimited fruit,
which gives its total need of each fruit without taking anything; each fruit
then serves its own need, and the units still missing are covered *one
missing unit at a time* (`cover_unit_by_unit`): walk the fruit's substitutes
in the listed order and take `ratio` units, one by one, from the first that
still has that many. No division; the closed form's `cover_closed_form`
(min(missing, left // ratio) at once, as the engine does) exists only for
the self-test. The shortfall's all-served run has unlimited fruit, so it
never substitutes: the shortfall ignores substitutes, as specified.

Exact arithmetic: money is kept as `fractions.Fraction`; it is rounded only
where the tool prints it (`money_2dp`, half to even, 2 places).

The model accepts only valid books (it raises `BookError` otherwise): the
generator writes only valid books, and the Swift linter owns diagnostics.
"""

from __future__ import annotations

import dataclasses
import math
import os
import pathlib
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Iterable

import yaml

# ---------------------------------------------------------------------------
# The book
# ---------------------------------------------------------------------------


class BookError(ValueError):
    """The book is not one the model accepts (invalid, or outside the model)."""


@dataclasses.dataclass(frozen=True)
class Fruit:
    id: str
    label: str | None = None
    emoji: str | None = None
    cost: int | None = None  # the cost of one unit; None when the book gives none
    pack: int = 1  # bought in packs of this many units
    # (substitute fruit id, units that replace ONE missing unit), in the
    # order written: the order of preference. Empty: no substitutes.
    substitutes: tuple[tuple[str, int], ...] = ()


@dataclasses.dataclass(frozen=True)
class Recipe:
    id: str
    ingredients: tuple[tuple[str, int], ...]  # (fruit or recipe id, amount), as written
    yield_: int = 1  # servings one batch makes
    long_form: bool = False  # written with a `recipe:` key
    has_yield_key: bool = False  # the long form had a `yield:` key
    label: str | None = None


@dataclasses.dataclass(frozen=True)
class MenuItem:
    id: str
    ingredients: tuple[tuple[str, int], ...]
    price: int | None = None
    label: str | None = None


@dataclasses.dataclass
class Book:
    """A merged book. Dicts keep declaration order (file order, then order
    within the file), which is the order every map in the output uses."""

    version: int | None = None
    fruits: dict[str, Fruit] = dataclasses.field(default_factory=dict)
    recipes: dict[str, Recipe] = dataclasses.field(default_factory=dict)
    menu: dict[str, MenuItem] = dataclasses.field(default_factory=dict)
    fruit_stock: dict[str, int] = dataclasses.field(default_factory=dict)
    recipe_stock: dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def keeps_servings(self) -> bool:
        """The contract: a book keeps servings when any recipe is written in
        the long form with a `yield:` key, or any stock entry names a recipe
        (even with 0). Only such a book reports batches and servings on hand;
        every other book prints exactly what version 1 prints."""
        return any(r.long_form and r.has_yield_key for r in self.recipes.values()) or bool(
            self.recipe_stock
        )

    @property
    def has_substitutes(self) -> bool:
        """Some fruit declares a non-empty `substitutes:` mapping."""
        return any(f.substitutes for f in self.fruits.values())

    @property
    def has_money(self) -> bool:
        """The money fields appear only when some fruit declares `cost:`."""
        return any(f.cost is not None for f in self.fruits.values())

    @property
    def has_prices(self) -> bool:
        """Revenue is a number when some menu item declares a price, else null
        (as in version 1: an item without a price then counts 0)."""
        return any(m.price is not None for m in self.menu.values())

    def opening_stock(self) -> dict[str, int]:
        return {f: self.fruit_stock.get(f, 0) for f in self.fruits}

    def opening_on_hand(self) -> dict[str, int]:
        return {r: self.recipe_stock.get(r, 0) for r in self.recipes}


def _is_whole(value, minimum: int) -> bool:
    return type(value) is int and value >= minimum


def _ingredients(owner: str, body) -> tuple[tuple[str, int], ...]:
    if not isinstance(body, dict) or not body:
        raise BookError(f"{owner}: the ingredients must be a non-empty mapping")
    out = []
    for key, amount in body.items():
        if not isinstance(key, str) or not _is_whole(amount, 1):
            raise BookError(f"{owner}: bad ingredient {key!r}: {amount!r}")
        out.append((key, amount))
    return tuple(out)


def _optional_text(owner: str, body: dict, key: str) -> str | None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise BookError(f"{owner}: {key} must be text")
    return value


def book_files(path: str | os.PathLike) -> list[pathlib.Path]:
    """The files of a book, as docs/recipes.md says: every *.yaml and *.yml
    under the path, recursively, hidden entries skipped, in sorted path
    order. (Books written by book_generator.py use names that sort the same
    whether paths are compared whole or component by component.)"""
    root = pathlib.Path(path)
    if root.is_file():
        return [root]
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if not name.startswith(".") and name.endswith((".yaml", ".yml")):
                found.append(pathlib.Path(dirpath) / name)
    return sorted(found, key=lambda p: str(p))


def load_book(path: str | os.PathLike) -> Book:
    """Load a book from a file or a folder with PyYAML."""
    return load_book_texts([(str(p), p.read_text(encoding="utf-8")) for p in book_files(path)])


def load_book_texts(files: Iterable[tuple[str, str]]) -> Book:
    """Load a book from (name, text) pairs, in the order given. Sections of
    every document of every file merge; ids must be unique (the generator
    guarantees it), so merging needs no precedence rules."""
    book = Book()
    raw_stock: list[tuple[str, int]] = []
    for name, text in files:
        for doc in yaml.safe_load_all(text):
            if doc is None:
                continue
            if not isinstance(doc, dict):
                raise BookError(f"{name}: a document must be a mapping")
            for key in doc:
                if key not in ("version", "fruits", "stock", "recipes", "menu"):
                    raise BookError(f"{name}: unknown key {key!r}")
            if "version" in doc:
                if doc["version"] not in (1, 2):
                    raise BookError(f"{name}: version {doc['version']!r}")
                book.version = max(book.version or 0, doc["version"])
            for fid, body in (doc.get("fruits") or {}).items():
                body = body or {}
                cost = body.get("cost")
                pack = body.get("pack", 1)
                if cost is not None and not _is_whole(cost, 0):
                    raise BookError(f"{name}: fruit {fid}: bad cost {cost!r}")
                if not _is_whole(pack, 1):
                    raise BookError(f"{name}: fruit {fid}: bad pack {pack!r}")
                _declare(book, fid)
                book.fruits[fid] = Fruit(
                    fid, _optional_text(fid, body, "label"), _optional_text(fid, body, "emoji"), cost, pack,
                    _substitutes(name, fid, body.get("substitutes")),
                )
            for sid, amount in (doc.get("stock") or {}).items():
                if not _is_whole(amount, 0):
                    raise BookError(f"{name}: stock {sid}: {amount!r}")
                if any(sid == s for s, _ in raw_stock):
                    raise BookError(f"{name}: stock {sid} set twice")
                raw_stock.append((sid, amount))
            for rid, body in (doc.get("recipes") or {}).items():
                _declare(book, rid)
                if isinstance(body, dict) and "recipe" in body:
                    for key in body:
                        if key not in ("recipe", "yield", "label"):
                            raise BookError(f"{name}: recipe {rid}: unknown key {key!r}")
                    y = body.get("yield", 1)
                    if not _is_whole(y, 1):
                        raise BookError(f"{name}: recipe {rid}: bad yield {y!r}")
                    book.recipes[rid] = Recipe(
                        rid, _ingredients(rid, body["recipe"]), y, True, "yield" in body,
                        _optional_text(rid, body, "label"),
                    )
                else:
                    book.recipes[rid] = Recipe(rid, _ingredients(rid, body))
            for mid, body in (doc.get("menu") or {}).items():
                _declare(book, mid)
                if not isinstance(body, dict) or "recipe" not in body:
                    raise BookError(f"{name}: menu item {mid} has no recipe")
                price = body.get("price")
                if price is not None and not _is_whole(price, 0):
                    raise BookError(f"{name}: menu item {mid}: bad price {price!r}")
                book.menu[mid] = MenuItem(
                    mid, _ingredients(mid, body["recipe"]), price, _optional_text(mid, body, "label")
                )
    for sid, amount in raw_stock:
        if sid in book.fruits:
            book.fruit_stock[sid] = amount
        elif sid in book.recipes:
            book.recipe_stock[sid] = amount
        else:
            raise BookError(f"stock names {sid!r}, which is no fruit or recipe")
    _check_substitutes(book)
    _check_graph(book)
    return book


def _substitutes(name: str, fid, body) -> tuple[tuple[str, int], ...]:
    """A fruit's `substitutes:`: a mapping of fruit id -> whole number >= 1,
    in the order written. Whether each key is a fruit is checked once the
    whole book is read (`_check_substitutes`): it may be declared later."""
    if body is None:
        return ()
    if not isinstance(body, dict):
        raise BookError(f"{name}: fruit {fid}: substitutes must be a mapping")
    out = []
    for sid, ratio in body.items():
        if not isinstance(sid, str) or not sid or not _is_whole(ratio, 1):
            raise BookError(f"{name}: fruit {fid}: bad substitute {sid!r}: {ratio!r}")
        out.append((sid, ratio))
    return tuple(out)


def _check_substitutes(book: Book) -> None:
    """Every substitute is another declared fruit (not itself, not a recipe
    or menu item, not unknown)."""
    for fruit in book.fruits.values():
        for sid, _ in fruit.substitutes:
            if sid == fruit.id:
                raise BookError(f"fruit {fruit.id}: a fruit cannot substitute for itself")
            if sid not in book.fruits:
                what = "a recipe" if sid in book.recipes else "a menu item" if sid in book.menu else "unknown"
                raise BookError(f"fruit {fruit.id}: substitute {sid!r} is {what}, not a fruit")


def _declare(book: Book, ident) -> None:
    if not isinstance(ident, str) or not ident:
        raise BookError(f"bad id {ident!r}")
    if ident in book.fruits or ident in book.recipes or ident in book.menu:
        raise BookError(f"{ident!r} is defined twice")


def _check_graph(book: Book) -> None:
    """Every ingredient is a fruit or a recipe (never a menu item), and the
    recipes form no cycle: the model's recursion relies on both."""
    for owner in list(book.recipes.values()) + list(book.menu.values()):
        for ing, _ in owner.ingredients:
            if ing not in book.fruits and ing not in book.recipes:
                raise BookError(f"{owner.id}: unknown ingredient {ing!r}")
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def visit(rid: str, path: list[str]) -> None:
        if state.get(rid) == 2:
            return
        if state.get(rid) == 1:
            raise BookError("recipe cycle: " + " -> ".join(path + [rid]))
        state[rid] = 1
        for ing, _ in book.recipes[rid].ingredients:
            if ing in book.recipes:
                visit(ing, path + [rid])
        state[rid] = 2

    for rid in book.recipes:
        visit(rid, [])


# ---------------------------------------------------------------------------
# One order: making servings one at a time (the model)
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Outcome:
    """What one order does. `served` says whether it can be made with the
    stock given; `taken`, `batches` and `on_hand_after` describe the plan as
    if it were made (for a refused order: with unlimited fruit, from the same
    state), which the all-served shortfall run needs. `short` lists each
    fruit whose total exceeds the stock, in fruit declaration order.

    With substitutes: `taken` of a served order includes the substitutes'
    units; `short` lists only the fruits still short after their
    substitutes; `short_for[F]` lists, for such a fruit F, each substitute
    that ran short while covering it as (substitute, asked, stock), in
    listed order; `substituted[F][S]` is the units of S a served order took
    for F (F in fruit order, S in the order drawn). Both are empty for a
    book without substitutes, and `substituted` is empty for a refusal."""

    served: bool
    taken: dict[str, int]  # fruit -> units, fruit declaration order, > 0 only
    batches: dict[str, int]  # recipe -> batches, recipe declaration order, > 0 only
    on_hand_after: dict[str, int]  # every recipe
    short: list[tuple[str, int, int]]  # (fruit, need, have)
    substituted: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)
    short_for: dict[str, list[tuple[str, int, int]]] = dataclasses.field(default_factory=dict)


class _Short(Exception):
    """A fruit would go below zero: the order cannot be made."""


class _Shelf:
    """A scratch copy of the shop for one order, worked one unit at a time."""

    def __init__(self, book: Book, stock: dict[str, int], on_hand: dict[str, int], limited: bool):
        self.book = book
        self.stock = dict(stock)
        self.on_hand = dict(on_hand)
        self.limited = limited
        self.taken = {f: 0 for f in book.fruits}
        self.batches = {r: 0 for r in book.recipes}

    def use(self, ident: str) -> None:
        if ident in self.book.fruits:
            self.take_fruit(ident)
        else:
            self.obtain_serving(ident)

    def take_fruit(self, fruit: str) -> None:
        self.stock[fruit] -= 1
        self.taken[fruit] += 1
        if self.limited and self.stock[fruit] < 0:
            raise _Short(fruit)

    def obtain_serving(self, recipe: str) -> None:
        """One serving: from the shelf when there is one, else make a batch
        first. A batch is made only when the shelf is empty, so no more
        batches are made than the servings asked for need."""
        if self.on_hand[recipe] == 0:
            self.make_batch(recipe)
        self.on_hand[recipe] -= 1

    def make_batch(self, recipe: str) -> None:
        r = self.book.recipes[recipe]
        for ing, amount in r.ingredients:
            for _ in range(amount):
                self.use(ing)
        self.batches[recipe] += 1
        self.on_hand[recipe] += r.yield_


def _order_on(shelf: _Shelf, item: MenuItem) -> _Shelf:
    for ing, amount in item.ingredients:
        for _ in range(amount):
            shelf.use(ing)
    return shelf


def plan_serially(book: Book, menu_id: str, stock: dict[str, int], on_hand: dict[str, int]) -> Outcome:
    """The model's planner: make the order one unit at a time on a scratch
    copy; if any fruit would go below zero the order is refused, and a
    second run with unlimited fruit, from the same state, counts the totals
    the refusal reports (need = total, have = stock)."""
    if book.has_substitutes:
        return _plan_with_substitutes(book, menu_id, stock, on_hand)
    item = book.menu[menu_id]
    try:
        shelf = _order_on(_Shelf(book, stock, on_hand, limited=True), item)
        served = True
    except _Short:
        shelf = _order_on(_Shelf(book, stock, on_hand, limited=False), item)
        served = False
    short = [(f, n, stock[f]) for f, n in shelf.taken.items() if n > stock[f]]
    assert served == (not short)
    return Outcome(
        served,
        {f: n for f, n in shelf.taken.items() if n},
        {r: n for r, n in shelf.batches.items() if n},
        shelf.on_hand,
        short,
    )


# ---------------------------------------------------------------------------
# Substitutes, one missing unit at a time (the model)
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class Cover:
    """How an order's fruit needs meet the stock, substitutes included."""

    served: bool
    taken: dict[str, int]  # fruit -> units the order would take (own + as a substitute), > 0 only
    substituted: dict[str, dict[str, int]]  # F -> S -> units of S taken for F (served only)
    short: list[tuple[str, int, int]]  # (F, need, have): still short after its substitutes
    short_for: dict[str, list[tuple[str, int, int]]]  # F -> [(S, asked, have)]


def cover_unit_by_unit(book: Book, need: dict[str, int], stock: dict[str, int]) -> Cover:
    """The substitutes rule, worked one missing unit at a time and one unit
    of substitute at a time; no division anywhere.

    1. Each fruit first serves the order's own need for it (as far as its
       stock goes), a fruit that is some other fruit's substitute included.
    2. Then, fruit by fruit in declaration order, each missing unit walks the
       fruit's substitutes in the listed order and takes `ratio` units, one
       by one, from the first that still has at least `ratio` left.
    3. A substitute's own substitutes are never consulted.
    4. A unit no substitute can cover leaves the order short. Covering goes
       on for the later fruits all the same (what a short fruit drew still
       counts as drawn), so every short fruit is reported.

    For a fruit still short, each substitute after which units were still
    missing is reported with everything the order would have asked of it:
    what was already used of it before this fruit (its own need as far as
    the stock goes, and what earlier fruits drew), what it gave this fruit,
    and `ratio` for each unit still missing after it."""
    fruits = list(book.fruits)
    left: dict[str, int] = {}
    taken: dict[str, int] = {}
    for f in fruits:
        own, remaining = 0, stock[f]
        for _ in range(need.get(f, 0)):
            if remaining <= 0:
                break
            remaining -= 1
            own += 1
        left[f], taken[f] = remaining, own
    substituted: dict[str, dict[str, int]] = {}
    short: list[tuple[str, int, int]] = []
    short_for: dict[str, list[tuple[str, int, int]]] = {}
    for f in fruits:
        missing = need.get(f, 0) - taken[f]
        if missing <= 0:
            continue
        before = dict(left)  # what each fruit had left before covering f
        covered_by = {s: 0 for s, _ in book.fruits[f].substitutes}
        uncovered = 0
        for _ in range(missing):  # one missing unit at a time
            for s, ratio in book.fruits[f].substitutes:
                if left[s] >= ratio:
                    for _ in range(ratio):  # one unit of the substitute at a time
                        left[s] -= 1
                        taken[s] += 1
                        substituted.setdefault(f, {}).setdefault(s, 0)
                        substituted[f][s] += 1
                    covered_by[s] += 1
                    break
            else:
                uncovered += 1
        if not uncovered:
            continue
        short.append((f, need[f], stock[f]))
        listed = []
        still = missing
        for s, ratio in book.fruits[f].substitutes:
            still -= covered_by[s]
            if still <= 0:
                break
            used_before = stock[s] - before[s]
            drawn_here = before[s] - left[s]
            asked = used_before + drawn_here + sum(ratio for _ in range(still))
            listed.append((s, asked, stock[s]))
        short_for[f] = listed
    served = not short
    return Cover(served, {f: n for f, n in taken.items() if n}, substituted if served else {},
                 short, short_for)


def _plan_with_substitutes(book: Book, menu_id: str, stock: dict[str, int], on_hand: dict[str, int]) -> Outcome:
    """Plan the order one serving at a time on a scratch copy with unlimited
    fruit (nothing is taken yet), which gives the fruit it needs in all,
    then cover that need from the stock and the substitutes, unit by unit.
    A refused order reports the plan as if made (`taken` = its own needs,
    no substitute), as `plan_serially` does; the all-served run plans with
    unlimited stock, where nothing is ever short or substituted."""
    shelf = _order_on(_Shelf(book, stock, on_hand, limited=False), book.menu[menu_id])
    need = dict(shelf.taken)
    cover = cover_unit_by_unit(book, need, stock)
    taken = cover.taken if cover.served else {f: n for f, n in need.items() if n}
    return Outcome(
        cover.served,
        taken,
        {r: n for r, n in shelf.batches.items() if n},
        shelf.on_hand,
        cover.short,
        cover.substituted,
        cover.short_for,
    )


# ---------------------------------------------------------------------------
# The closed form (the formula): used only to check the model
# ---------------------------------------------------------------------------


def _top_down(book: Book, roots: Iterable[str]) -> list[str]:
    """Recipes reachable from `roots`, each after every recipe that uses it
    (reverse post-order of a depth-first walk)."""
    done: set[str] = set()
    post: list[str] = []

    def visit(rid: str) -> None:
        if rid in done:
            return
        done.add(rid)
        for ing, _ in book.recipes[rid].ingredients:
            if ing in book.recipes:
                visit(ing)
        post.append(rid)

    for root in roots:
        if root in book.recipes:
            visit(root)
    return post[::-1]


def plan_closed_form(book: Book, menu_id: str, stock: dict[str, int], on_hand: dict[str, int]) -> Outcome:
    """demand(r) = direct + sum over users p of batches(p) * amount(p->r);
    batches(r) = ceil(max(0, demand(r) - onHand(r)) / yield(r));
    onHand'(r) = onHand(r) + batches(r) * yield(r) - demand(r).
    Only the self-test calls this."""
    item = book.menu[menu_id]
    demand = {r: 0 for r in book.recipes}
    fruit = {f: 0 for f in book.fruits}
    for ing, amount in item.ingredients:
        (fruit if ing in book.fruits else demand)[ing] += amount
    batches = {r: 0 for r in book.recipes}
    after = dict(on_hand)
    for rid in _top_down(book, [ing for ing, _ in item.ingredients]):
        r = book.recipes[rid]
        missing = max(0, demand[rid] - on_hand[rid])
        batches[rid] = -(-missing // r.yield_)
        for ing, amount in r.ingredients:
            (fruit if ing in book.fruits else demand)[ing] += batches[rid] * amount
        after[rid] = on_hand[rid] + batches[rid] * r.yield_ - demand[rid]
    if book.has_substitutes:
        cover = cover_closed_form(book, fruit, stock)
        return Outcome(
            cover.served,
            cover.taken if cover.served else {f: n for f, n in fruit.items() if n},
            {r: n for r, n in batches.items() if n},
            after,
            cover.short,
            cover.substituted,
            cover.short_for,
        )
    short = [(f, n, stock[f]) for f, n in fruit.items() if n > stock[f]]
    return Outcome(
        not short,
        {f: n for f, n in fruit.items() if n},
        {r: n for r, n in batches.items() if n},
        after,
        short,
    )


def cover_closed_form(book: Book, need: dict[str, int], stock: dict[str, int]) -> Cover:
    """The substitutes rule as the issue states it, with division: each
    substitute covers min(missing, what is left of it // ratio) units at
    once. Only the self-test calls this (against `cover_unit_by_unit`)."""
    own = {f: min(need.get(f, 0), stock[f]) for f in book.fruits}
    drawn = {f: 0 for f in book.fruits}
    substituted: dict[str, dict[str, int]] = {}
    short, short_for = [], {}
    for f in book.fruits:
        missing = need.get(f, 0) - own[f]
        if missing <= 0:
            continue
        ran_short = []
        for s, ratio in book.fruits[f].substitutes:
            used = own[s] + drawn[s]
            covered = min(missing, (stock[s] - used) // ratio)
            if covered > 0:
                drawn[s] += covered * ratio
                substituted.setdefault(f, {})[s] = covered * ratio
                missing -= covered
            if missing == 0:
                break
            ran_short.append((s, used + max(covered, 0) * ratio + missing * ratio, stock[s]))
        if missing:
            short.append((f, need[f], stock[f]))
            short_for[f] = ran_short
    taken = {f: own[f] + drawn[f] for f in book.fruits if own[f] + drawn[f]}
    return Cover(not short, taken, substituted if not short else {}, short, short_for)


Planner = Callable[[Book, str, dict, dict], Outcome]

# ---------------------------------------------------------------------------
# Scripts and runs
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Command:
    line: int
    kind: str  # "order", "restock", "set", "stock"
    ident: str | None = None
    count: int = 1  # orders for "order"; the amount for "restock"/"set"


class ScriptError(ValueError):
    pass


def parse_script(text: str, book: Book) -> tuple[list[Command], int]:
    """Commands and the number of lines skipped as invalid. The generator
    writes valid lines only; skipping is modelled just enough to count."""
    commands, skipped = [], 0
    for number, raw in enumerate(text.split("\n"), start=1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        cmd = _parse_words(words, number, book)
        if cmd is None:
            skipped += 1
        else:
            commands.append(cmd)
    return commands, skipped


def _parse_words(words: list[str], number: int, book: Book) -> Command | None:
    def count(text: str, minimum: int) -> int | None:
        return int(text) if text.isdigit() and int(text) >= minimum else None

    if words == ["stock"]:
        return Command(number, "stock")
    if words[0] in ("restock", "set") and len(words) == 3:
        n = count(words[2], 1 if words[0] == "restock" else 0)
        target = words[1]
        if n is None or not (target in book.fruits or (target in book.recipes and book.keeps_servings)):
            return None
        return Command(number, words[0], target, n)
    if words[0] in book.menu and len(words) == 1:
        return Command(number, "order", words[0], 1)
    if words[0] in book.menu and len(words) == 2 and words[1].startswith("x"):
        n = count(words[1][1:], 1)
        return None if n is None else Command(number, "order", words[0], n)
    return None


def short_entries(out: Outcome) -> list[dict]:
    """A refusal's `short` list: each fruit still short, in fruit order, as
    {fruit, need, have}, each followed at once by the substitutes that ran
    short covering it, in listed order, as {fruit, need, have, for}."""
    entries = []
    for f, n, h in out.short:
        entries.append({"fruit": f, "need": n, "have": h})
        for s, asked, have in out.short_for.get(f, []):
            entries.append({"fruit": s, "need": asked, "have": have, "for": f})
    return entries


@dataclasses.dataclass
class RunResult:
    events: list[dict]  # as juice-run prints them; money as exact Fractions
    served_taken: dict[str, int]  # fruit units taken by served orders


def run_script(book: Book, text: str, source: str, planner: Planner = plan_serially) -> RunResult:
    """Every event `juice-run --format json SCRIPT` prints, in order.

    Two shops run side by side: the real one, and the all-served one behind
    the shortfall, whose fruit may go negative and whose servings on hand
    follow its own (always served) orders. Restocks and sets apply to both.
    """
    commands, skipped = parse_script(text, book)
    keeps = book.keeps_servings
    stock, on_hand = book.opening_stock(), book.opening_on_hand()
    v_stock, v_on_hand = dict(stock), dict(on_hand)
    worst = {f: 0 for f in book.fruits}  # the lowest all-served stock, capped at 0
    unlimited = {f: math.inf for f in book.fruits}
    served_taken = {f: 0 for f in book.fruits}
    refused_by_menu = {m: 0 for m in book.menu}
    events: list[dict] = []
    seq = served = refused = 0
    revenue = 0
    for cmd in commands:
        where = {"line": cmd.line, "source": source}
        if cmd.kind == "order":
            for _ in range(cmd.count):
                seq += 1
                out = planner(book, cmd.ident, stock, on_hand)
                event = {"type": "order", "seq": seq, **where, "menu": cmd.ident,
                         "status": "served" if out.served else "refused",
                         "short": short_entries(out)}
                if out.served:
                    served += 1
                    revenue += book.menu[cmd.ident].price or 0
                    for f, n in out.taken.items():
                        stock[f] -= n
                        served_taken[f] += n
                    on_hand = dict(out.on_hand_after)
                    if keeps and out.batches:
                        event["batches"] = dict(out.batches)
                    if out.substituted:
                        event["substituted"] = {f: dict(s) for f, s in out.substituted.items()}
                else:
                    refused += 1
                    refused_by_menu[cmd.ident] += 1
                events.append(event)
                # The all-served run plans on its own leftovers; fruit is unlimited there.
                v_out = planner(book, cmd.ident, unlimited, v_on_hand)
                for f, n in v_out.taken.items():
                    v_stock[f] -= n
                    worst[f] = min(worst[f], v_stock[f])
                v_on_hand = dict(v_out.on_hand_after)
        elif cmd.kind in ("restock", "set"):
            if cmd.ident in book.fruits:
                new = stock[cmd.ident] + cmd.count if cmd.kind == "restock" else cmd.count
                stock[cmd.ident] = new
                v_stock[cmd.ident] = v_stock[cmd.ident] + cmd.count if cmd.kind == "restock" else cmd.count
                event = {"type": cmd.kind, **where, "fruit": cmd.ident}
                if cmd.kind == "restock":
                    event["amount"] = cmd.count
                event["stock"] = new
            else:
                new = on_hand[cmd.ident] + cmd.count if cmd.kind == "restock" else cmd.count
                on_hand[cmd.ident] = new
                v_on_hand[cmd.ident] = v_on_hand[cmd.ident] + cmd.count if cmd.kind == "restock" else cmd.count
                event = {"type": cmd.kind, **where, "recipe": cmd.ident}
                if cmd.kind == "restock":
                    event["amount"] = cmd.count
                event["onHand"] = new
            events.append(event)
        else:  # stock
            event = {"type": "stock", **where, "stock": dict(stock)}
            if keeps:
                event["onHand"] = dict(on_hand)  # assumed; juice-run may leave it out
            events.append(event)
    summary = {"type": "summary", "orders": seq, "served": served, "refused": refused,
               "skipped": skipped, "stock": dict(stock)}
    if keeps:
        summary["onHand"] = dict(on_hand)
    summary["revenue"] = revenue if book.has_prices else None
    summary["refusedByMenu"] = refused_by_menu
    summary["shortfall"] = {f: -w for f, w in worst.items()}
    if book.has_money:
        summary.update(money(book, served_taken, book.opening_on_hand(), on_hand, summary["revenue"]))
    events.append(summary)
    return RunResult(events, served_taken)


# ---------------------------------------------------------------------------
# Money
# ---------------------------------------------------------------------------


def cost_per_serving(book: Book, ident: str, _memo: dict | None = None) -> Fraction | None:
    """A fruit's cost; a recipe's (sum of amount * cost of each ingredient,
    recipes per serving) / yield; a menu item's sum of amount * cost.
    None when any fruit underneath has no cost."""
    memo = {} if _memo is None else _memo
    if ident in memo:
        return memo[ident]
    if ident in book.fruits:
        c = book.fruits[ident].cost
        result = None if c is None else Fraction(c)
    else:
        node = book.recipes.get(ident) or book.menu[ident]
        total = Fraction(0)
        for ing, amount in node.ingredients:
            c = cost_per_serving(book, ing, memo)
            if c is None:
                total = None
                break
            total += amount * c
        if total is not None and ident in book.recipes:
            total /= book.recipes[ident].yield_
        result = total
    memo[ident] = result
    return result


def money(book: Book, served_taken: dict[str, int], opening: dict[str, int],
          closing: dict[str, int], revenue: int | None) -> dict:
    """fruitCost, leftoverValue and grossMargin, exact.

    Assumed reading of "null when a cost it needs is unknown": fruitCost
    needs the cost of each fruit a served order actually took (units > 0);
    leftoverValue needs the cost per serving of each recipe whose servings
    on hand changed between opening and end; grossMargin needs both and a
    revenue (null when no menu item has a price)."""
    memo: dict = {}
    fruit_cost: Fraction | None = Fraction(0)
    for f, n in served_taken.items():
        if n:
            c = book.fruits[f].cost
            fruit_cost = None if (c is None or fruit_cost is None) else fruit_cost + n * c
    leftover: Fraction | None = Fraction(0)
    for r in book.recipes:
        delta = closing[r] - opening[r]
        if delta:
            c = cost_per_serving(book, r, memo)
            leftover = None if (c is None or leftover is None) else leftover + delta * c
    margin = None
    if fruit_cost is not None and leftover is not None and revenue is not None:
        margin = revenue - fruit_cost + leftover
    return {"fruitCost": fruit_cost, "leftoverValue": leftover, "grossMargin": margin}


MONEY_KEYS = ("fruitCost", "leftoverValue", "grossMargin")


def money_2dp(value: Fraction | None) -> Decimal | None:
    """As juice-run prints money: rounded to 2 places, half to even.
    (round() of a Fraction rounds half to even.)"""
    if value is None:
        return None
    return Decimal(round(value * 100)).scaleb(-2)


def to_wire(events: list[dict]) -> list[dict]:
    """The events with money rounded as printed, ready to compare with the
    tool's output parsed with parse_float=Decimal."""
    out = []
    for e in events:
        e = dict(e)
        for key in MONEY_KEYS:
            if key in e:
                e[key] = money_2dp(e[key])
        out.append(e)
    return out


# ---------------------------------------------------------------------------
# Capacity, the menu card and the shopping list (for `juice-run menu`, later)
# ---------------------------------------------------------------------------


def capacity(book: Book, menu_id: str, stock: dict[str, int] | None = None,
             on_hand: dict[str, int] | None = None, limit: int = 1_000_000) -> tuple[int, str | None]:
    """How many of a menu item the stock makes one after another, leftovers
    carried from one to the next, and the fruit that runs out first: the
    first short fruit (in fruit declaration order) of the first order that
    cannot be made. For a book without yields this is today's answer:
    min(stock // need), the first fruit in order on a tie. With substitutes,
    each order draws on them as a run's order does, limitedBy is the first
    fruit still short after its substitutes, and `limit` caps the loop."""
    stock = book.opening_stock() if stock is None else dict(stock)
    on_hand = book.opening_on_hand() if on_hand is None else dict(on_hand)
    for count in range(limit + 1):
        out = plan_serially(book, menu_id, stock, on_hand)
        if not out.served:
            return count, out.short[0][0]
        for f, n in out.taken.items():
            stock[f] -= n
        on_hand = out.on_hand_after
    raise ValueError(f"capacity of {menu_id} is over {limit}")


def menu_card(book: Book) -> list[dict]:
    """Per menu item, in menu order: price, cost per serving, margin =
    price - cost, marginPercent = margin / price * 100, capacity, limitedBy.
    Exact; None where a price or a cost is missing (and the percent for a
    price of 0)."""
    memo: dict = {}
    rows = []
    for mid, item in book.menu.items():
        cost = cost_per_serving(book, mid, memo)
        price = item.price
        margin = None if (price is None or cost is None) else price - cost
        percent = None if (margin is None or not price) else margin / price * 100
        count, limited_by = capacity(book, mid)
        rows.append({"menu": mid, "price": price, "cost": cost, "margin": margin,
                     "marginPercent": percent, "capacity": count, "limitedBy": limited_by})
    return rows


def shopping_list(book: Book, shortfall: dict[str, int]) -> list[dict]:
    """Per fruit with a shortfall, in fruit order: the shortfall, whole packs
    to buy (ceil(shortfall / pack)), the units they hold, and their cost
    (None when the fruit has no cost)."""
    rows = []
    for fid, fruit in book.fruits.items():
        need = shortfall.get(fid, 0)
        if need <= 0:
            continue
        packs = -(-need // fruit.pack)
        units = packs * fruit.pack
        rows.append({"fruit": fid, "shortfall": need, "packs": packs, "units": units,
                     "cost": None if fruit.cost is None else units * fruit.cost})
    return rows


# ---------------------------------------------------------------------------
# `juice-run menu` and `juice-run buy`: the lines they print, exact
# ---------------------------------------------------------------------------

MENU_KEYS = ("id", "label", "price", "cost", "margin", "marginPercent", "capacity", "limitedBy")
MENU_MONEY_KEYS = ("cost", "margin", "marginPercent")
BUY_KEYS = ("type", "fruit", "shortfall", "pack", "packs", "units", "cost")


def menu_label(book: Book, menu_id: str) -> str:
    """A menu item's label; the id when it declares none (docs/recipes.md:
    'optional; defaults to the id')."""
    label = book.menu[menu_id].label
    return menu_id if label is None else label


def menu_lines(book: Book) -> list[dict]:
    """One object per menu item, in menu order, keys in the printed order,
    money exact (Fractions): what `juice-run menu --format json` prints
    before rounding. Capacity is `capacity()`: whole orders made one after
    another, each one serving at a time (plan_serially), never a formula."""
    lines = []
    for row in menu_card(book):
        mid = row["menu"]
        lines.append({"id": mid, "label": menu_label(book, mid), "price": row["price"],
                      "cost": row["cost"], "margin": row["margin"],
                      "marginPercent": row["marginPercent"], "capacity": row["capacity"],
                      "limitedBy": row["limitedBy"]})
    return lines


def buy_lines(book: Book, shortfall: dict[str, int]) -> list[dict]:
    """What `juice-run buy --format json` prints for a shortfall: one `buy`
    object per fruit with a shortfall > 0 (fruit order), then the `total`,
    None when any line's cost is unknown (0 when nothing is to be bought)."""
    lines = []
    total: Fraction | None = Fraction(0)
    for row in shopping_list(book, shortfall):
        lines.append({"type": "buy", "fruit": row["fruit"], "shortfall": row["shortfall"],
                      "pack": book.fruits[row["fruit"]].pack, "packs": row["packs"],
                      "units": row["units"], "cost": row["cost"]})
        total = None if (total is None or row["cost"] is None) else total + row["cost"]
    lines.append({"type": "total", "cost": total})
    return lines


def buy_for_script(book: Book, text: str, source: str = "orders.txt") -> list[dict]:
    """The shopping list of a script: the run's shortfall (restocks and sets
    included, as in the summary) in whole packs."""
    summary = run_script(book, text, source).events[-1]
    return buy_lines(book, summary["shortfall"])


def with_fruit_stock(book: Book, fruit_stock: dict[str, int]) -> Book:
    """The same book with another opening fruit stock (servings on hand as
    they were): what a stock file listing those amounts, and the book's own
    recipe entries, makes of it."""
    return dataclasses.replace(book, fruit_stock=dict(fruit_stock),
                               recipe_stock=dict(book.recipe_stock))


def stock_after_buying(book: Book, lines: Iterable[dict], fewer: str | None = None) -> dict[str, int]:
    """Every fruit's opening stock plus the units bought; with `fewer`, one
    pack fewer of that fruit."""
    stock = book.opening_stock()
    for line in lines:
        if line.get("type") == "buy":
            stock[line["fruit"]] += line["units"] - (line["pack"] if line["fruit"] == fewer else 0)
    return stock


def money_text(value: Fraction | None) -> str:
    """A money figure as a CSV cell: 2 places, half to even; empty when unknown."""
    return "" if value is None else str(money_2dp(value))


def menu_csv_rows(book: Book) -> list[list[str]]:
    """The cells of `juice-run menu --format csv`, header first."""
    rows = [list(MENU_KEYS)]
    for line in menu_lines(book):
        rows.append([line["id"], line["label"], "" if line["price"] is None else str(line["price"]),
                     money_text(line["cost"]), money_text(line["margin"]),
                     money_text(line["marginPercent"]), str(line["capacity"]),
                     line["limitedBy"] or ""])
    return rows


def buy_csv_rows(lines: list[dict]) -> list[list[str]]:
    """The cells of `juice-run buy --format csv`, header first, total last."""
    rows = [["fruit", "shortfall", "pack", "packs", "units", "cost"]]
    for line in lines:
        if line["type"] == "buy":
            rows.append([line["fruit"], str(line["shortfall"]), str(line["pack"]), str(line["packs"]),
                         str(line["units"]), money_text(line["cost"])])
        else:
            rows.append(["total", "", "", "", "", money_text(line["cost"])])
    return rows
