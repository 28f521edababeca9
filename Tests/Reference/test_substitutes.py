"""Fruit substitutes (recipe language version 2, issue 37): the reference
model's own tests, anchor cases worked by hand, and a differential test of
juice-run against the model on random books with substitutes.

    .build/venv/bin/python -m pytest Tests/Reference/test_substitutes.py -q            # everything
    .build/venv/bin/python -m pytest Tests/Reference/test_substitutes.py -q -m model   # the model only
    .build/venv/bin/python -m pytest Tests/Reference/test_substitutes.py -q -m v2_binary

JUICE_RUN=PATH picks the binary (default .build/debug/juice-run);
JUICE_REF_SUB_CASES (default 120) and JUICE_REF_SUB_SEED (default 0) choose
the differential seeds.

The binary tests never skip. Each first checks that juice-run reads a
trivial book with `substitutes:` and reports the substitution; when it does
not (it rejects the key, or prints something else), the test FAILS and says
so. When the binary is missing (being rebuilt), they wait for it a while
and then fail.

Maps are compared in order, nested ones too: `substituted` (short fruits in
fruit declaration order, substitutes in the order drawn) and each entry of
`short` (`fruit`, `need`, `have`, then `for`).
"""

from __future__ import annotations

import functools
import os
import pathlib
import random
import tempfile
import time

import pytest

import batch_reference as ref
import book_generator as gen
from test_batches import JUICE_RUN, _show, fail_at_difference, first_difference, run_juice, summary

SUB_CASES = int(os.environ.get("JUICE_REF_SUB_CASES", "120"))
SUB_SEED = int(os.environ.get("JUICE_REF_SUB_SEED", "0"))
SELF_SEEDS = 250

# ---------------------------------------------------------------------------
# Events, as printed
# ---------------------------------------------------------------------------


def order(seq, line, menu, status="served", short=(), batches=None, substituted=None, source="orders.txt"):
    """An order event as juice-run prints it. `short` holds (fruit, need,
    have) for a short fruit and (fruit, need, have, for) for a substitute
    that ran short covering it; `batches` / `substituted` None: key absent."""
    entries = []
    for row in short:
        entry = {"fruit": row[0], "need": row[1], "have": row[2]}
        if len(row) == 4:
            entry["for"] = row[3]
        entries.append(entry)
    event = {"type": "order", "seq": seq, "line": line, "source": source, "menu": menu,
             "status": status, "short": entries}
    if batches is not None:
        event["batches"] = batches
    if substituted is not None:
        event["substituted"] = substituted
    return event


def restock(line, fruit, amount, stock):
    return {"type": "restock", "line": line, "source": "orders.txt", "fruit": fruit, "amount": amount,
            "stock": stock}


def _ordered(value):
    """Dicts as lists of pairs, all the way down, so == checks key order."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


def strict_difference(expected: list[dict], actual: list[dict]) -> tuple[int, list[str]] | None:
    """test_batches.first_difference, and then the order of the keys inside
    `substituted` (both levels) and inside each `short` entry."""
    where = first_difference(expected, actual)
    if where is not None:
        return where
    for index, (e, a) in enumerate(zip(expected, actual)):
        for key in ("substituted", "short"):
            if key in e and _ordered(e[key]) != _ordered(a.get(key)):
                return index, [f"{key}: expected {_show(e[key])} in this order, got {_show(a.get(key))}"]
    return None


def _message(name: str, who: str, events: list[dict], expected: list[dict]) -> str | None:
    where = strict_difference(expected, events)
    if where is None:
        return None
    index, problems = where
    return f"anchor {name}: {who} differs at event {index}:\n  " + "\n  ".join(problems)


def model_events(book_text: str, script: str) -> list[dict]:
    book = ref.load_book_texts([("book.yaml", book_text)])
    return ref.to_wire(ref.run_script(book, script, "orders.txt").events)


# ---------------------------------------------------------------------------
# Anchor cases, worked by hand
# ---------------------------------------------------------------------------

ISSUE_FRUITS = """\
version: 2
fruits:
  strawberry: { cost: 300, substitutes: { frozen-strawberry: 1 } }
  frozen-strawberry: { cost: 180 }
  mango: { cost: 1200, substitutes: { mango-puree: 2, frozen-mango: 1 } }
  mango-puree: { cost: 500 }
  frozen-mango: { cost: 700 }
"""
FRUIT_IDS = ["strawberry", "frozen-strawberry", "mango", "mango-puree", "frozen-mango"]


def issue_stock(**stock) -> dict:
    """Every fruit of the issue's book, in declaration order (0 if left out)."""
    return {f: stock.get(f.replace("-", "_"), 0) for f in FRUIT_IDS}


# berry takes strawberry 6. Opening: strawberry 8, frozen-strawberry 10.
# o1: strawberry 6 of 8, nothing substituted (no `substituted` key).   strawberry 2
# o2: strawberry 2 of 6: short by 4 -> 4 frozen-strawberry (ratio 1).  strawberry 0, frozen 6
# o3: short by 6 -> 6 frozen-strawberry.                               frozen 0
# o4: short by 6, frozen-strawberry has 0: refused. It lists strawberry (need 6, have 0)
#     and then frozen-strawberry for it: used before 0 + drawn 0 + 6 missing x 1 = 6, have 0.
# Money: strawberry 8 x 300 + frozen-strawberry 10 x 180 = 2400 + 1800 = 4200;
#   revenue 3 x 2000 = 6000; no recipes: leftoverValue 0; grossMargin 1800.
# Shortfall ignores substitutes: strawberry 8 - 4 x 6 = -16 -> 16; the others 0.
STRAWBERRY_BOOK = ISSUE_FRUITS + """\
stock:
  strawberry: 8
  frozen-strawberry: 10
menu:
  berry: { price: 2000, recipe: { strawberry: 6 } }
"""
STRAWBERRY_SCRIPT = "berry x4\n"
STRAWBERRY_EVENTS = [
    order(1, 1, "berry"),
    order(2, 1, "berry", substituted={"strawberry": {"frozen-strawberry": 4}}),
    order(3, 1, "berry", substituted={"strawberry": {"frozen-strawberry": 6}}),
    order(4, 1, "berry", "refused", short=[("strawberry", 6, 0), ("frozen-strawberry", 6, 0, "strawberry")]),
    summary(orders=4, served=3, refused=1, skipped=0, stock=issue_stock(), revenue=6000,
            refusedByMenu={"berry": 1},
            shortfall={"strawberry": 16, "frozen-strawberry": 0, "mango": 0, "mango-puree": 0, "frozen-mango": 0},
            fruitCost="4200", leftoverValue="0", grossMargin="1800"),
]

# tropic takes mango 4. Opening: mango 1, mango-puree 2, frozen-mango 5.
# o1: mango 1 of 4: short by 3. Unit 1: mango-puree has 2 >= 2: takes 2 (left 0).
#     Unit 2: mango-puree 0 < 2; frozen-mango 5 >= 1: takes 1. Unit 3: frozen-mango 1.
#     substituted {mango: {mango-puree: 2, frozen-mango: 2}}; left: mango-puree 0, frozen-mango 3.
# o2: short by 4. mango-puree covers 0: 4 still missing -> listed: 0 + 0 + 4 x 2 = 8, have 0.
#     frozen-mango covers 3, 1 still missing -> listed: 0 + 3 + 1 x 1 = 4, have 3. Refused.
# Money: mango 1200 + mango-puree 2 x 500 + frozen-mango 2 x 700 = 3600; revenue 5000;
#   grossMargin 1400. Shortfall: mango 1 - 8 = -7 -> 7.
MANGO_BOOK = ISSUE_FRUITS + """\
stock:
  mango: 1
  mango-puree: 2
  frozen-mango: 5
menu:
  tropic: { price: 5000, recipe: { mango: 4 } }
"""
MANGO_SCRIPT = "tropic x2\n"
MANGO_EVENTS = [
    order(1, 1, "tropic", substituted={"mango": {"mango-puree": 2, "frozen-mango": 2}}),
    order(2, 1, "tropic", "refused", short=[
        ("mango", 4, 0), ("mango-puree", 8, 0, "mango"), ("frozen-mango", 4, 3, "mango")]),
    summary(orders=2, served=1, refused=1, skipped=0, stock=issue_stock(frozen_mango=3), revenue=5000,
            refusedByMenu={"tropic": 1},
            shortfall={"strawberry": 0, "frozen-strawberry": 0, "mango": 7, "mango-puree": 0, "frozen-mango": 0},
            fruitCost="3600", leftoverValue="0", grossMargin="1400"),
]

# A ratio that leaves a remainder, and a refusal after a partial cover.
# Opening: mango 1, mango-puree 3, frozen-mango 1. tropic (mango 4) is short by 3.
# o1: unit 1: mango-puree 3 >= 2: takes 2 (left 1). Unit 2: mango-puree 1 < 2; frozen-mango
#     takes 1 (left 0). Unit 3: neither: refused, nothing taken. Listed:
#     mango-puree: 0 used before + 2 drawn + (3 - 1 covered = 2 missing) x 2 = 6, have 3;
#     frozen-mango: 0 + 1 + 1 x 1 = 2, have 1.
# restock frozen-mango 1: 2.
# o2: the same units, now unit 3 takes frozen-mango: served,
#     {mango: {mango-puree: 2, frozen-mango: 2}}; left mango 0, mango-puree 1, frozen-mango 0.
# Money: 1200 + 2 x 500 + 2 x 700 = 3600; revenue 5000; grossMargin 1400.
# Shortfall: mango 1 - 4 - 4 = -7 -> 7; frozen-mango 1 + 1, never taken there: 0.
REMAINDER_BOOK = ISSUE_FRUITS + """\
stock:
  mango: 1
  mango-puree: 3
  frozen-mango: 1
menu:
  tropic: { price: 5000, recipe: { mango: 4 } }
"""
REMAINDER_SCRIPT = "tropic\nrestock frozen-mango 1\ntropic\n"
REMAINDER_EVENTS = [
    order(1, 1, "tropic", "refused", short=[
        ("mango", 4, 1), ("mango-puree", 6, 3, "mango"), ("frozen-mango", 2, 1, "mango")]),
    restock(2, "frozen-mango", 1, 2),
    order(2, 3, "tropic", substituted={"mango": {"mango-puree": 2, "frozen-mango": 2}}),
    summary(orders=2, served=1, refused=1, skipped=0, stock=issue_stock(mango_puree=1), revenue=5000,
            refusedByMenu={"tropic": 1},
            shortfall={"strawberry": 0, "frozen-strawberry": 0, "mango": 7, "mango-puree": 0, "frozen-mango": 0},
            fruitCost="3600", leftoverValue="0", grossMargin="1400"),
]

# A fruit that is also a substitute serves the order's own need for it first, even
# though strawberry (declared first) is covered first.
# mix takes strawberry 3, frozen-strawberry 2. Opening: strawberry 1, frozen-strawberry 3.
# o1: own needs: strawberry 1 (of 3), frozen-strawberry 2 (of 3, 1 left). strawberry is
#     short by 2: unit 1 takes the 1 frozen-strawberry left, unit 2 finds none: refused.
#     strawberry (need 3, have 1), then frozen-strawberry for it:
#     2 own + 1 drawn + 1 missing x 1 = 4, have 3. frozen-strawberry is not short itself.
# restock frozen-strawberry 1: 4.
# o2: own: strawberry 1, frozen-strawberry 2 (2 left); strawberry short by 2: 2
#     frozen-strawberry. Served, {strawberry: {frozen-strawberry: 2}}; all 0.
# Money: strawberry 1 x 300 + frozen-strawberry 4 x 180 = 1020; revenue 1000;
#   grossMargin -20. Shortfall: strawberry 1 - 3 - 3 = -5 -> 5;
#   frozen-strawberry 3 - 2 + 1 - 2 = 0 -> 0.
OWN_NEED_BOOK = ISSUE_FRUITS + """\
stock:
  strawberry: 1
  frozen-strawberry: 3
menu:
  mix: { price: 1000, recipe: { strawberry: 3, frozen-strawberry: 2 } }
"""
OWN_NEED_SCRIPT = "mix\nrestock frozen-strawberry 1\nmix\n"
OWN_NEED_EVENTS = [
    order(1, 1, "mix", "refused", short=[("strawberry", 3, 1), ("frozen-strawberry", 4, 3, "strawberry")]),
    restock(2, "frozen-strawberry", 1, 4),
    order(2, 3, "mix", substituted={"strawberry": {"frozen-strawberry": 2}}),
    summary(orders=2, served=1, refused=1, skipped=0, stock=issue_stock(), revenue=1000,
            refusedByMenu={"mix": 1},
            shortfall={"strawberry": 5, "frozen-strawberry": 0, "mango": 0, "mango-puree": 0, "frozen-mango": 0},
            fruitCost="1020", leftoverValue="0", grossMargin="-20"),
]

# Two short fruits share one substitute: covered in fruit declaration order (lime,
# then kiwi), not in the order the menu item lists them (kiwi first).
# sour takes kiwi 2, lime 2. Opening: lemon 5 only.
# o1: lime short by 2: 2 lemon (ratio 1; left 3). kiwi short by 2: unit 1 takes 2 lemon
#     (left 1), unit 2 finds 1 < 2: refused. kiwi (need 2, have 0), then lemon for it:
#     2 drawn for lime + 2 drawn for kiwi + 1 missing x 2 = 6, have 5. lime is covered:
#     not listed. (Covering kiwi first would take 4 lemon and leave lime short.)
# restock lemon 1: 6.
# o2: lime 2 lemon, kiwi 4 lemon: served, {lime: {lemon: 2}, kiwi: {lemon: 4}}.
# Money: lemon 6 x 40 = 240; revenue 900; grossMargin 660.
# Shortfall: lime 4, kiwi 4 (2 per order); lemon never taken there: 0.
SHARED_BOOK = """\
version: 2
fruits:
  lime: { cost: 50, substitutes: { lemon: 1 } }
  kiwi: { cost: 80, substitutes: { lemon: 2 } }
  lemon: { cost: 40 }
stock:
  lemon: 5
menu:
  sour: { price: 900, recipe: { kiwi: 2, lime: 2 } }
"""
SHARED_SCRIPT = "sour\nrestock lemon 1\nsour\n"
SHARED_EVENTS = [
    order(1, 1, "sour", "refused", short=[("kiwi", 2, 0), ("lemon", 6, 5, "kiwi")]),
    restock(2, "lemon", 1, 6),
    order(2, 3, "sour", substituted={"lime": {"lemon": 2}, "kiwi": {"lemon": 4}}),
    summary(orders=2, served=1, refused=1, skipped=0, stock={"lime": 0, "kiwi": 0, "lemon": 0}, revenue=900,
            refusedByMenu={"sour": 1}, shortfall={"lime": 4, "kiwi": 4, "lemon": 0},
            fruitCost="240", leftoverValue="0", grossMargin="660"),
]

# A substitute's own substitutes are not followed. apple <- pear <- quince.
# Opening: pear 1, quince 10. No cost, no price: no money keys, revenue null.
# o1 cider (apple 3): pear covers 1, 2 still missing; quince is pear's substitute, not
#     apple's: refused. apple (3, 0), pear for it: 0 + 1 + 2 x 1 = 3, have 1.
# o2 both (apple 1, pear 1): pear's own need first (left 0); apple short by 1, pear has
#     none left: refused. apple (1, 0), pear for it: 1 own + 0 + 1 x 1 = 2, have 1.
# o3 perry (pear 2): pear 1 of 2, short by 1: quince 1. Served, {pear: {quince: 1}}.
# Shortfall: apple 0 - 3 - 1 = -4 -> 4; pear 1 - 1 - 2 = -2 -> 2; quince 0.
CHAIN_BOOK = """\
version: 2
fruits:
  apple: { substitutes: { pear: 1 } }
  pear: { substitutes: { quince: 1 } }
  quince:
stock:
  pear: 1
  quince: 10
menu:
  cider: { recipe: { apple: 3 } }
  perry: { recipe: { pear: 2 } }
  both: { recipe: { apple: 1, pear: 1 } }
"""
CHAIN_SCRIPT = "cider\nboth\nperry\n"
CHAIN_EVENTS = [
    order(1, 1, "cider", "refused", short=[("apple", 3, 0), ("pear", 3, 1, "apple")]),
    order(2, 2, "both", "refused", short=[("apple", 1, 0), ("pear", 2, 1, "apple")]),
    order(3, 3, "perry", substituted={"pear": {"quince": 1}}),
    summary(orders=3, served=1, refused=2, skipped=0, stock={"apple": 0, "pear": 0, "quince": 9},
            revenue=None, refusedByMenu={"cider": 1, "perry": 0, "both": 1},
            shortfall={"apple": 4, "pear": 2, "quince": 0}),
]

# Batches: the fruit a batch needs is covered too. mango-syrup (mango 2) makes 3.
# Opening: mango 1, mango-puree 2, frozen-mango 5; lassi takes 1 mango-syrup.
# o1: a batch: mango 1 of 2, short by 1: 2 mango-puree. batches then substituted.
# o2, o3: from the shelf (3 -> 2 -> 1 -> 0): plain events.
# o4: a batch: mango 0, short by 2: mango-puree 0 < 2; 2 frozen-mango (left 3).
# o7: a batch: 2 frozen-mango (left 1).
# o10: a batch: short by 2: mango-puree covers 0 (listed 0 + 0 + 2 x 2 = 4, have 0),
#     frozen-mango 1 (listed 0 + 1 + 1 x 1 = 2, have 1): refused, no batch, shelf as is.
# Money: mango 1200 + mango-puree 2 x 500 + frozen-mango 4 x 700 = 5000; revenue
#   9 x 1000; the shelf is back at 0: leftoverValue 0; grossMargin 4000.
# Shortfall: 4 batches in the all-served run: mango 1 - 8 = -7 -> 7.
BATCH_BOOK = ISSUE_FRUITS + """\
stock:
  mango: 1
  mango-puree: 2
  frozen-mango: 5
recipes:
  mango-syrup:
    recipe: { mango: 2 }
    yield: 3
menu:
  lassi: { price: 1000, recipe: { mango-syrup: 1 } }
"""
BATCH_SCRIPT = "lassi x10\n"
BATCH_EVENTS = [
    order(1, 1, "lassi", batches={"mango-syrup": 1}, substituted={"mango": {"mango-puree": 2}}),
    order(2, 1, "lassi"),
    order(3, 1, "lassi"),
    order(4, 1, "lassi", batches={"mango-syrup": 1}, substituted={"mango": {"frozen-mango": 2}}),
    order(5, 1, "lassi"),
    order(6, 1, "lassi"),
    order(7, 1, "lassi", batches={"mango-syrup": 1}, substituted={"mango": {"frozen-mango": 2}}),
    order(8, 1, "lassi"),
    order(9, 1, "lassi"),
    order(10, 1, "lassi", "refused", short=[
        ("mango", 2, 0), ("mango-puree", 4, 0, "mango"), ("frozen-mango", 2, 1, "mango")]),
    summary(orders=10, served=9, refused=1, skipped=0, stock=issue_stock(frozen_mango=1),
            onHand={"mango-syrup": 0}, revenue=9000, refusedByMenu={"lassi": 1},
            shortfall={"strawberry": 0, "frozen-strawberry": 0, "mango": 7, "mango-puree": 0, "frozen-mango": 0},
            fruitCost="5000", leftoverValue="0", grossMargin="4000"),
]

ANCHORS = {
    "strawberry-short-by-4": (STRAWBERRY_BOOK, STRAWBERRY_SCRIPT, STRAWBERRY_EVENTS),
    "mango-puree-then-frozen": (MANGO_BOOK, MANGO_SCRIPT, MANGO_EVENTS),
    "ratio-remainder-partial-refusal": (REMAINDER_BOOK, REMAINDER_SCRIPT, REMAINDER_EVENTS),
    "own-need-first": (OWN_NEED_BOOK, OWN_NEED_SCRIPT, OWN_NEED_EVENTS),
    "shared-substitute-declaration-order": (SHARED_BOOK, SHARED_SCRIPT, SHARED_EVENTS),
    "substitutes-not-followed": (CHAIN_BOOK, CHAIN_SCRIPT, CHAIN_EVENTS),
    "batches-and-substitutes": (BATCH_BOOK, BATCH_SCRIPT, BATCH_EVENTS),
}


# ---------------------------------------------------------------------------
# (a) The model: anchors, reading the book, self-checks
# ---------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize("name", list(ANCHORS))
def test_model_substitute_anchor(name):
    book_text, script, expected = ANCHORS[name]
    message = _message(name, "the model", model_events(book_text, script), expected)
    assert message is None, message


@pytest.mark.model
def test_model_reads_substitutes_in_order():
    book = ref.load_book_texts([("book.yaml", STRAWBERRY_BOOK)])
    assert book.fruits["mango"].substitutes == (("mango-puree", 2), ("frozen-mango", 1))
    assert book.fruits["strawberry"].substitutes == (("frozen-strawberry", 1),)
    assert book.fruits["mango-puree"].substitutes == ()
    assert book.has_substitutes
    # The written order is the order of preference, whatever the ids.
    book = ref.load_book_texts([("b.yaml", "fruits:\n  a: { substitutes: { z: 1, b: 3 } }\n  b:\n  z:\n")])
    assert book.fruits["a"].substitutes == (("z", 1), ("b", 3))
    # A substitute may be declared in a later file.
    book = ref.load_book_texts([("a.yaml", "fruits:\n  a: { substitutes: { b: 2 } }\n"),
                                ("b.yaml", "fruits:\n  b:\n")])
    assert book.fruits["a"].substitutes == (("b", 2),)
    assert not ref.load_book_texts([("b.yaml", "fruits:\n  a:\n  b: { cost: 3 }\n")]).has_substitutes


BAD_SUBSTITUTES = {
    "unknown id": "fruits:\n  a: { substitutes: { nope: 1 } }\n",
    "itself": "fruits:\n  a: { substitutes: { a: 1 } }\n",
    "a recipe": "fruits:\n  a: { substitutes: { r: 1 } }\nrecipes:\n  r: { a: 1 }\n",
    "a menu item": "fruits:\n  a: { substitutes: { m: 1 } }\nmenu:\n  m: { recipe: { a: 1 } }\n",
    "ratio 0": "fruits:\n  a: { substitutes: { b: 0 } }\n  b:\n",
    "ratio -1": "fruits:\n  a: { substitutes: { b: -1 } }\n  b:\n",
    "ratio 1.5": "fruits:\n  a: { substitutes: { b: 1.5 } }\n  b:\n",
    "ratio quoted": "fruits:\n  a: { substitutes: { b: \"2\" } }\n  b:\n",
    "ratio true": "fruits:\n  a: { substitutes: { b: true } }\n  b:\n",
    "ratio missing": "fruits:\n  a: { substitutes: { b: } }\n  b:\n",
    "a list": "fruits:\n  a: { substitutes: [b] }\n  b:\n",
    "a scalar": "fruits:\n  a: { substitutes: b }\n  b:\n",
}


@pytest.mark.model
@pytest.mark.parametrize("what", list(BAD_SUBSTITUTES))
def test_model_rejects_bad_substitutes(what):
    with pytest.raises(ref.BookError):
        ref.load_book_texts([("book.yaml", BAD_SUBSTITUTES[what])])


@pytest.mark.model
def test_model_cover_unit_by_unit_by_hand():
    """The cover on its own, for the issue's fruits: needs in, units out."""
    book = ref.load_book_texts([("book.yaml", ISSUE_FRUITS)])
    stock = issue_stock(strawberry=2, frozen_strawberry=10, mango=1, mango_puree=2, frozen_mango=5)
    cover = ref.cover_unit_by_unit(book, {"strawberry": 6, "mango": 4}, stock)
    assert cover.served
    assert cover.substituted == {"strawberry": {"frozen-strawberry": 4},
                                 "mango": {"mango-puree": 2, "frozen-mango": 2}}
    assert cover.taken == {"strawberry": 2, "frozen-strawberry": 4, "mango": 1, "mango-puree": 2,
                           "frozen-mango": 2}
    assert cover.short == [] and cover.short_for == {}
    # Enough stock: nothing substituted.
    cover = ref.cover_unit_by_unit(book, {"strawberry": 2, "mango": 1}, stock)
    assert cover.served and cover.substituted == {} and cover.taken == {"strawberry": 2, "mango": 1}
    # Two fruits short: both listed, each followed by its substitutes (a refusal
    # reports no substitution, and `taken` is only the plan).
    cover = ref.cover_unit_by_unit(book, {"strawberry": 13, "mango": 9}, stock)
    assert not cover.served and cover.substituted == {}
    assert cover.short == [("strawberry", 13, 2), ("mango", 9, 1)]
    # strawberry: 11 missing, frozen-strawberry covers 10: 0 + 10 + 1 = 11.
    # mango: 8 missing; mango-puree covers 1 (8 - 1 = 7 missing: 0 + 2 + 14 = 16);
    #   frozen-mango covers 5 (2 missing: 0 + 5 + 2 = 7).
    assert cover.short_for == {"strawberry": [("frozen-strawberry", 11, 10)],
                               "mango": [("mango-puree", 16, 2), ("frozen-mango", 7, 5)]}
    # A substitute that covers the rest is not listed, even if an earlier one is.
    cover = ref.cover_unit_by_unit(book, {"mango": 4}, issue_stock(frozen_mango=4))
    assert cover.served and cover.substituted == {"mango": {"frozen-mango": 4}}


@pytest.mark.model
def test_model_capacity_counts_substitutes():
    """Capacity: orders in a row, each on the stock the one before left,
    substitutes included; limitedBy is the first fruit still short."""
    # berry: strawberry 8 + frozen-strawberry 10 = 18 units: 3 orders (STRAWBERRY_EVENTS).
    assert ref.capacity(ref.load_book_texts([("b.yaml", STRAWBERRY_BOOK)]), "berry") == (3, "strawberry")
    # lassi: 9 (BATCH_EVENTS); without substitutes it would be 0 (a batch needs mango 2).
    assert ref.capacity(ref.load_book_texts([("b.yaml", BATCH_BOOK)]), "lassi") == (9, "mango")
    # sour: lemon 5 covers one lime pair (2) but not kiwi's 4 as well: 0.
    assert ref.capacity(ref.load_book_texts([("b.yaml", SHARED_BOOK)]), "sour") == (0, "kiwi")
    # perry: pear 1 + quince 10 -> 1st: pear 1 + quince 1; then quince 2 each: 1 + 4 = 5;
    #   the 6th finds quince 1: one unit still missing.
    assert ref.capacity(ref.load_book_texts([("b.yaml", CHAIN_BOOK)]), "perry") == (5, "pear")


def _sub_case(seed: int) -> gen.Case:
    return gen.generate_case(seed, substitutes=True)


def _load(case: gen.Case) -> ref.Book:
    return ref.load_book_texts(sorted(case.files.items()))


@pytest.mark.model
def test_model_self_check_unit_by_unit_agrees_with_division():
    """On random books with substitutes and random states, planning one
    serving and one missing unit at a time gives the same fruit taken,
    batches, leftovers, substitutions and shortage listing as the closed
    form (batch formula, then each substitute covering min(missing,
    left // ratio) at once)."""
    checked = substituted = refused_with_for = 0
    for seed in range(SELF_SEEDS):
        book = _load(_sub_case(seed))
        rng = random.Random(f"sub-state-{seed}")
        for _ in range(4):
            stock = {f: rng.choice([0, rng.randint(0, 4), rng.randint(0, 12), rng.randint(0, 60)])
                     for f in book.fruits}
            on_hand = {r: rng.choice([0, 0, rng.randint(0, 7)]) for r in book.recipes}
            for mid in book.menu:
                serial = ref.plan_serially(book, mid, stock, on_hand)
                closed = ref.plan_closed_form(book, mid, stock, on_hand)
                assert serial == closed, f"seed {seed}, {mid}, stock {stock}, on hand {on_hand}"
                if serial.served:
                    assert all(serial.taken.get(f, 0) <= stock[f] for f in stock)
                substituted += bool(serial.substituted)
                refused_with_for += any(serial.short_for.values())
                checked += 1
    assert checked >= SELF_SEEDS * 4
    # The states really exercise the rule.
    assert substituted >= checked // 10 and refused_with_for >= checked // 20, (checked, substituted,
                                                                                 refused_with_for)


@pytest.mark.model
def test_model_self_check_runs_agree_with_division():
    for seed in range(120):
        case = _sub_case(seed)
        book = _load(case)
        serial = ref.run_script(book, case.script_text, "orders.txt", ref.plan_serially)
        closed = ref.run_script(book, case.script_text, "orders.txt", ref.plan_closed_form)
        assert closed.events == serial.events, f"seed {seed}"


@pytest.mark.model
def test_model_self_check_conservation_with_substitutes():
    """Fruit is conserved (substitutes are taken from their own stock), a
    served order's `substituted` units are part of what it took, and every
    refused order lists first a fruit without `for`, each `for` naming the
    nearest such fruit before it, which the fruit lists as a substitute."""
    for seed in range(120):
        case = _sub_case(seed)
        book = _load(case)
        run = ref.run_script(book, case.script_text, "orders.txt")
        sets = {e["fruit"] for e in run.events if e["type"] == "set" and "fruit" in e}
        added = {f: 0 for f in book.fruits}
        for e in run.events:
            if e["type"] == "restock" and "fruit" in e:
                added[e["fruit"]] += e["amount"]
            if e["type"] == "order" and e["status"] == "refused":
                assert "for" not in e["short"][0], (seed, e)
                primary = None
                for entry in e["short"]:
                    if "for" in entry:
                        assert entry["for"] == primary, (seed, e)
                        assert entry["fruit"] in dict(book.fruits[primary].substitutes), (seed, e)
                    else:
                        primary = entry["fruit"]
            if e["type"] == "order" and "substituted" in e:
                assert e["status"] == "served" and list(e["substituted"]) == [
                    f for f in book.fruits if f in e["substituted"]], (seed, e)
        final = run.events[-1]["stock"]
        for f, opening in book.opening_stock().items():
            if f not in sets:
                assert final[f] == opening + added[f] - run.served_taken[f], (seed, f)


@pytest.mark.model
def test_model_books_without_substitutes_unchanged():
    """A book without substitutes plans as before (the substitutes path is
    not taken) and its events carry no new key."""
    for seed in range(60):
        case = gen.generate_case(seed)
        book = _load(case)
        assert not book.has_substitutes
        for e in ref.run_script(book, case.script_text, "orders.txt").events:
            assert "substituted" not in e
            assert all("for" not in s for s in e.get("short", []))


@pytest.mark.model
def test_generator_substitutes_option():
    """Off by default (the same book as before, no `substitutes:`); on, the
    books have substitutes, YAML that reads back the same, and scripts in
    which substitutes are used, with and without batches, and run out."""
    for seed in range(40):
        assert "substitutes" not in "".join(gen.generate_case(seed).files.values())
    with_sub = with_batches = without_keeps = with_for = 0
    for seed in range(100):
        case = _sub_case(seed)
        book = _load(case)
        assert book.has_substitutes
        for f in case.book.fruits:
            assert book.fruits[f.id].substitutes == tuple(f.substitutes or ())
            for s, ratio in f.substitutes or ():
                assert s != f.id and 1 <= ratio <= 3
            assert len(f.substitutes or ()) <= 2
        events = ref.run_script(book, case.script_text, "orders.txt").events
        used = any("substituted" in e for e in events)
        with_sub += used
        with_batches += any("substituted" in e and "batches" in e for e in events)
        without_keeps += used and not book.keeps_servings
        with_for += any("for" in s for e in events for s in e.get("short", []))
    assert with_sub >= 50 and with_batches >= 20 and without_keeps >= 5 and with_for >= 40, (
        with_sub, with_batches, without_keeps, with_for)


# ---------------------------------------------------------------------------
# (b) juice-run against the anchors and the model
# ---------------------------------------------------------------------------

PROBE_BOOK = """\
version: 2
fruits:
  apple: { substitutes: { pear: 2 } }
  pear:
stock:
  apple: 1
  pear: 5
menu:
  juice: { recipe: { apple: 2 } }
"""
PROBE_EVENTS = [order(1, 1, "juice", substituted={"apple": {"pear": 2}}),
                summary(orders=1, served=1, refused=0, skipped=0, stock={"apple": 0, "pear": 3},
                        revenue=None, refusedByMenu={"juice": 0}, shortfall={"apple": 1, "pear": 0})]


def run_binary(book_dir: pathlib.Path, script: pathlib.Path):
    """test_batches.run_juice, after waiting up to 3 minutes for the binary
    to be there (another build may be replacing it); then it fails."""
    for _ in range(36):
        if JUICE_RUN.is_file():
            break
        time.sleep(5)
    return run_juice(book_dir, script)


@functools.lru_cache(maxsize=None)
def substitutes_problem() -> str | None:
    """None when juice-run reads a trivial book with `substitutes:` and
    prints the expected events; otherwise why not. Once per session."""
    with tempfile.TemporaryDirectory(prefix="juice-sub-probe-") as tmp:
        folder = pathlib.Path(tmp)
        gen.write_book({"book.yaml": PROBE_BOOK}, folder / "book")
        script = gen.write_script(["juice"], folder / "orders.txt")
        rc, events, stderr = run_binary(folder / "book", script)
    head = f"{JUICE_RUN} does not implement fruit substitutes yet (or not this contract)"
    if rc != 0:
        return (f"{head}: it rejected a trivial book with `substitutes:` (exit {rc}); the book is "
                f"PROBE_BOOK in {pathlib.Path(__file__).name}.\n{stderr.strip()[:2000]}")
    message = _message("probe", "juice-run", events, PROBE_EVENTS)
    return None if message is None else f"{head}:\n{message}"


def require_substitutes() -> None:
    problem = substitutes_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.mark.v2_binary
def test_binary_reads_substitutes():
    """Fails with the reason when juice-run does not implement substitutes."""
    require_substitutes()


@pytest.mark.v2_binary
@pytest.mark.parametrize("name", list(ANCHORS))
def test_binary_substitute_anchor(name, tmp_path):
    require_substitutes()
    book_text, script, expected = ANCHORS[name]
    gen.write_book({"book.yaml": book_text}, tmp_path / "book")
    rc, events, stderr = run_binary(tmp_path / "book", gen.write_script(script, tmp_path / "orders.txt"))
    assert rc == 0, f"anchor {name}: juice-run exited {rc}:\n{stderr}"
    message = _message(name, "juice-run", events, expected)
    assert message is None, message


def _describe(case: gen.Case, book: ref.Book) -> str:
    b = case.book
    return ", ".join([
        "keeps servings" if b.keeps_servings else "no servings kept",
        "money" if b.money else "no cost",
        f"{sum(1 for f in b.fruits if f.substitutes)} fruit(s) with substitutes",
        f"{len(case.files)} file(s)",
    ])


def differential_substitutes(seed: int, tmp_path: pathlib.Path) -> None:
    case = _sub_case(seed)
    book_dir, script = gen.write_case(case, tmp_path)
    book = ref.load_book(book_dir)
    expected = ref.to_wire(ref.run_script(book, case.script_text, script.name).events)
    rc, actual, stderr = run_binary(book_dir, script)
    reproduce = (f"reproduce: python Tests/Reference/book_generator.py {seed} DIR --substitutes, then "
                 f"juice-run --recipes DIR/book --format json DIR/orders.txt (kept in {tmp_path})")
    if rc != 0:
        pytest.fail(f"seed {seed} ({_describe(case, book)}): juice-run exited {rc}\n{stderr.strip()[:3000]}\n"
                    f"{reproduce}", pytrace=False)
    fail_at_difference(strict_difference(expected, actual), expected, actual, case,
                       f"seed {seed} ({_describe(case, book)})", reproduce)


@pytest.mark.v2_binary
@pytest.mark.parametrize("seed", range(SUB_SEED, SUB_SEED + SUB_CASES))
def test_differential_substitutes(seed, tmp_path):
    """No require_substitutes() here on purpose: each seed fails on its own
    with juice-run's exit code and message, or with the first event that
    differs from the model."""
    differential_substitutes(seed, tmp_path)
