"""Recipe language version 2: the reference model's self-check, named anchor
cases worked by hand, and a differential test of juice-run against the model.

    .build/venv/bin/python -m pytest Tests/Reference -q                 # everything
    .build/venv/bin/python -m pytest Tests/Reference -q -k "model or self"   # the model only
    .build/venv/bin/python -m pytest Tests/Reference -q -m v2_binary    # needs version 2

JUICE_RUN=PATH picks the binary (default .build/debug/juice-run).
JUICE_REF_CASES (default 150) and JUICE_REF_SEED (default 0) choose the
differential seeds; JUICE_REF_SELF_CASES (default 300) the self-check's.

A test marked v2_binary first checks that juice-run reads a trivial long-form
book; when it does not, the test FAILS with a message saying so. It never
skips: a missing feature must not look like a pass.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import random
import subprocess
import tempfile
from decimal import Decimal
from fractions import Fraction

import pytest

import batch_reference as ref
import book_generator as gen

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
JUICE_RUN = pathlib.Path(os.environ.get("JUICE_RUN") or REPO / ".build" / "debug" / "juice-run")

DIFF_CASES = int(os.environ.get("JUICE_REF_CASES", "150"))
DIFF_SEED = int(os.environ.get("JUICE_REF_SEED", "0"))
SELF_CASES = int(os.environ.get("JUICE_REF_SELF_CASES", "300"))
V1_CASES = 30
V1_SEED = 1_000_000

# ---------------------------------------------------------------------------
# Running juice-run
# ---------------------------------------------------------------------------


def run_juice(book_dir: pathlib.Path, script: pathlib.Path) -> tuple[int, list[dict], str]:
    """`JUICE_RUN --recipes BOOK --format json SCRIPT`, run in the script's
    folder with relative paths, so `source` is the script's file name.
    Numbers with a fraction part parse as Decimal, exactly as printed."""
    if not JUICE_RUN.is_file():
        pytest.fail(f"juice-run not found at {JUICE_RUN}: build it, or set JUICE_RUN", pytrace=False)
    cwd = script.parent
    proc = subprocess.run(
        [str(JUICE_RUN), "--recipes", os.path.relpath(book_dir, cwd), "--format", "json", script.name],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )
    events = []
    for line in proc.stdout.splitlines():
        if line.strip():
            events.append(json.loads(line, parse_float=Decimal))
    return proc.returncode, events, proc.stderr


# Only the long form and its yield: money and the rest are checked case by case.
TRIVIAL_V2_BOOK = """\
version: 2
fruits:
  apple:
stock:
  apple: 5
recipes:
  base:
    recipe: { apple: 1 }
    yield: 2
menu:
  juice: { recipe: { base: 1 } }
"""


@functools.lru_cache(maxsize=None)
def v2_problem() -> str | None:
    """None when juice-run reads a trivial long-form book and reports its
    batch; otherwise why not. Run once per session."""
    if not JUICE_RUN.is_file():
        return f"juice-run not found at {JUICE_RUN}: build it, or set JUICE_RUN"
    with tempfile.TemporaryDirectory(prefix="juice-v2-probe-") as tmp:
        folder = pathlib.Path(tmp)
        gen.write_book({"book.yaml": TRIVIAL_V2_BOOK}, folder / "book")
        script = gen.write_script(["juice"], folder / "orders.txt")
        rc, events, stderr = run_juice(folder / "book", script)
    head = (
        f"{JUICE_RUN} does not implement recipe language version 2 yet "
        f"(or not the contract these tests hold it to)"
    )
    if rc != 0 or not events or events[-1].get("type") != "summary":
        return (f"{head}: it rejected a trivial long-form book (exit {rc}); the book is "
                f"TRIVIAL_V2_BOOK in {pathlib.Path(__file__).name}.\n{stderr.strip()[:2000]}")
    order = events[0]
    if order.get("status") != "served" or order.get("batches") != {"base": 1}:
        return f"{head}: the order event should be served with \"batches\":{{\"base\":1}}; got {order}"
    if events[-1].get("onHand") != {"base": 1}:
        return f"{head}: the summary should have \"onHand\":{{\"base\":1}}; got {events[-1]}"
    return None


def require_v2_binary() -> None:
    problem = v2_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


# ---------------------------------------------------------------------------
# Comparing events
# ---------------------------------------------------------------------------


def _show(value) -> str:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_show(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _same(key: str, expected, actual) -> bool:
    if key in ref.MONEY_KEYS:
        if expected is None or actual is None:
            return expected is None and actual is None
        if isinstance(actual, bool) or not isinstance(actual, (int, Decimal)):
            return False
        printed = Decimal(actual)
        # At most 2 decimal places, as the contract prints money.
        return printed == expected and printed.as_tuple().exponent >= -2
    if isinstance(expected, dict) and isinstance(actual, dict):
        # Maps are compared in order: every map follows declaration order.
        return list(expected.items()) == list(actual.items())
    return expected == actual


# Keys the model writes that juice-run may leave out (unspecified so far).
OPTIONAL = {"stock": {"onHand"}}


def diff_event(expected: dict, actual: dict) -> list[str]:
    """The keys that differ, one line each; empty when the events agree.
    A key present on one side only is a difference: that is how a missing
    `batches`, `onHand` or money field, or one that should not be there,
    is caught."""
    problems = []
    optional = OPTIONAL.get(expected.get("type"), set())
    for key, value in expected.items():
        if key not in actual:
            if key not in optional:
                problems.append(f"{key}: missing; expected {_show(value)}")
        elif not _same(key, value, actual[key]):
            note = ""
            if isinstance(value, dict) and isinstance(actual[key], dict) and value == actual[key]:
                note = " (same entries, another order)"
            problems.append(f"{key}: expected {_show(value)}, got {_show(actual[key])}{note}")
    for key, value in actual.items():
        if key not in expected:
            problems.append(f"{key}: not expected here; got {_show(value)}")
    return problems


def first_difference(expected: list[dict], actual: list[dict]) -> tuple[int, list[str]] | None:
    for index, (e, a) in enumerate(zip(expected, actual)):
        if e.get("type") != a.get("type"):
            return index, [f"expected a {e.get('type')} event {_show(e)}, got {_show(a)}"]
        problems = diff_event(e, a)
        if problems:
            return index, problems
    if len(expected) != len(actual):
        index = min(len(expected), len(actual))
        extra = expected[index] if len(expected) > index else actual[index]
        side = "the model has" if len(expected) > index else "juice-run printed"
        return index, [f"{len(expected)} events expected, {len(actual)} printed; "
                       f"{side} one more: {_show(extra)}"]
    return None


# ---------------------------------------------------------------------------
# (a) The model checks itself: one serving at a time == the closed form
# ---------------------------------------------------------------------------


def _load(case: gen.Case) -> ref.Book:
    return ref.load_book_texts(sorted(case.files.items()))


@pytest.mark.model
def test_model_self_check_orders_agree_with_closed_form():
    """On random books and random states (stock, servings on hand), every
    menu item planned one serving at a time takes the same fruit, makes the
    same batches, leaves the same servings and lists the same shortages as
    the issue's closed formula. SELF_CASES books, 3 states each."""
    checked = 0
    for seed in range(SELF_CASES):
        case = gen.generate_case(seed)
        book = _load(case)
        rng = random.Random(f"state-{seed}")
        for _ in range(3):
            stock = {f: rng.choice([0, rng.randint(0, 10), rng.randint(0, 60)]) for f in book.fruits}
            on_hand = {r: rng.choice([0, 0, rng.randint(0, 7)]) for r in book.recipes}
            for mid in book.menu:
                serial = ref.plan_serially(book, mid, stock, on_hand)
                closed = ref.plan_closed_form(book, mid, stock, on_hand)
                assert serial == closed, f"seed {seed}, {mid}, stock {stock}, on hand {on_hand}"
                if serial.served:
                    assert all(serial.taken.get(f, 0) <= stock[f] for f in stock)
                checked += 1
    assert checked >= SELF_CASES * 3


@pytest.mark.model
def test_model_self_check_runs_agree_with_closed_form():
    """Whole scripts (orders, xN, restocks and sets of fruits and recipes,
    the shortfall's all-served run, money) give the same events with either
    planner, on 100 random cases."""
    for seed in range(100):
        case = gen.generate_case(seed)
        book = _load(case)
        serial = ref.run_script(book, case.script_text, "orders.txt", ref.plan_serially)
        closed = ref.run_script(book, case.script_text, "orders.txt", ref.plan_closed_form)
        where = first_difference(ref.to_wire(closed.events), ref.to_wire(serial.events))
        assert where is None, f"seed {seed}: event {where[0]}: {where[1]}"
        assert closed.events == serial.events, f"seed {seed}: exact money differs"


@pytest.mark.model
def test_model_self_check_conservation():
    """Fruit is conserved: the final stock is the opening stock plus
    restocks (for fruits never `set`) minus what served orders took."""
    for seed in range(60):
        case = gen.generate_case(seed)
        book = _load(case)
        run = ref.run_script(book, case.script_text, "orders.txt")
        sets = {e["fruit"] for e in run.events if e["type"] == "set" and "fruit" in e}
        added = {f: 0 for f in book.fruits}
        for e in run.events:
            if e["type"] == "restock" and "fruit" in e:
                added[e["fruit"]] += e["amount"]
        final = run.events[-1]["stock"]
        for f, opening in book.opening_stock().items():
            if f not in sets:
                assert final[f] == opening + added[f] - run.served_taken[f], (seed, f)


def _flattened(book: ref.Book, ident: str) -> dict[str, int]:
    """Version 1 flattening, by paths: for books whose yields are all 1."""
    if ident in book.fruits:
        return {ident: 1}
    node = book.recipes.get(ident) or book.menu[ident]
    out: dict[str, int] = {}
    for ing, amount in node.ingredients:
        for f, n in _flattened(book, ing).items():
            out[f] = out.get(f, 0) + amount * n
    return out


@pytest.mark.model
def test_model_capacity_without_yields_is_version_one_division():
    """Closed form for books without yields or leftovers: capacity is
    min(stock // need) and limitedBy the first fruit in order on a tie,
    today's `--capacity` rule."""
    for seed in range(80):
        book = _load(gen.generate_case(V1_SEED + seed, v1_only=True))
        for mid in book.menu:
            need = _flattened(book, mid)
            stock = book.opening_stock()
            expected = min((stock[f] // need[f], i, f) for i, f in enumerate(book.fruits) if need.get(f))
            assert ref.capacity(book, mid) == (expected[0], expected[2]), (seed, mid)


@pytest.mark.model
def test_model_money_rounds_half_to_even():
    cases = {Fraction(1, 8): "0.12", Fraction(3, 8): "0.38", Fraction(5, 8): "0.62",
             Fraction(-1, 8): "-0.12", Fraction(1, 3): "0.33", Fraction(2, 3): "0.67",
             Fraction(3, 4): "0.75", Fraction(5835, 2): "2917.50", Fraction(0): "0.00",
             Fraction(49, 8): "6.12", Fraction(35, 8): "4.38"}
    for value, printed in cases.items():
        assert ref.money_2dp(value) == Decimal(printed) and str(ref.money_2dp(value)) == printed
    assert ref.money_2dp(None) is None


# ---------------------------------------------------------------------------
# (c) Anchor cases, worked by hand; each checks the model and juice-run
# ---------------------------------------------------------------------------


def order(seq, line, menu, status="served", short=(), batches=None, source="orders.txt"):
    """An order event as printed; `batches=None` means the key is absent."""
    event = {"type": "order", "seq": seq, "line": line, "source": source, "menu": menu,
             "status": status, "short": [{"fruit": f, "need": n, "have": h} for f, n, h in short]}
    if batches is not None:
        event["batches"] = batches
    return event


def summary(**fields):
    """The summary as printed; money given as decimal strings ("0.75")."""
    event = {"type": "summary", **fields}
    for key in ref.MONEY_KEYS:
        if isinstance(event.get(key), str):
            event[key] = Decimal(event[key])
    return event


# Three levels, a yield other than 1 at each. Per order of `tall` (1 juice-base):
#   juice-base: demand 1;  puree: demand 3 per juice-base batch;  pulp: 5 per puree batch.
# o1 (all on hand 0): jb 1 batch (on hand 2-1=1, kiwi 1); puree ceil(3/4)=1 (4-3=1);
#    pulp ceil(5/3)=2 (6-5=1, apple 4).                 apple 96, kiwi 99
# o2: jb from the shelf (1->0). No batch, no fruit.
# o3: jb 1 batch (->1, kiwi 1); puree ceil((3-1)/4)=1 (1+4-3=2); pulp ceil((5-1)/3)=2
#    (1+6-5=2, apple 4).                                apple 92, kiwi 98
# set apple 3.
# o4: jb from the shelf (->0).
# o5: jb 1 batch (->1, kiwi 1); puree ceil((3-2)/4)=1 (2+4-3=3); pulp ceil((5-2)/3)=1
#    (2+3-5=0, apple 2).                                apple 1, kiwi 97
# o6: jb from the shelf (->0).
# o7: jb 1 batch (->1, kiwi 1); puree 3 on hand, 0 batches (->0).   kiwi 96
# o8: jb from the shelf (->0).
# o9: jb 1 batch, puree 1 batch, pulp 2 batches: apple 4 > 1: refused, nothing changes.
# Money: apple taken 4+4+2=10 (x10), kiwi 4 (x30): fruitCost 220; on hand back to 0:
#   leftoverValue 0; grossMargin 8 x 1000 - 220 = 7780.
# Shortfall: the all-served run takes o9 too: apple 1-4 = -3 -> 3.
NESTED_BOOK = """\
version: 2
fruits:
  apple: { cost: 10 }
  kiwi: { cost: 30 }
stock:
  apple: 100
  kiwi: 100
recipes:
  juice-base:
    yield: 2
    recipe: { puree: 3, kiwi: 1 }
  puree:
    yield: 4
    recipe: { pulp: 5 }
  pulp:
    yield: 3
    recipe: { apple: 2 }
menu:
  tall: { price: 1000, recipe: { juice-base: 1 } }
"""
NESTED_SCRIPT = "tall x3\nset apple 3\ntall x6\n"
NESTED_EVENTS = [
    order(1, 1, "tall", batches={"juice-base": 1, "puree": 1, "pulp": 2}),
    order(2, 1, "tall"),
    order(3, 1, "tall", batches={"juice-base": 1, "puree": 1, "pulp": 2}),
    {"type": "set", "line": 2, "source": "orders.txt", "fruit": "apple", "stock": 3},
    order(4, 3, "tall"),
    order(5, 3, "tall", batches={"juice-base": 1, "puree": 1, "pulp": 1}),
    order(6, 3, "tall"),
    order(7, 3, "tall", batches={"juice-base": 1}),
    order(8, 3, "tall"),
    order(9, 3, "tall", "refused", short=[("apple", 4, 1)]),
    summary(orders=9, served=8, refused=1, skipped=0, stock={"apple": 1, "kiwi": 96},
            onHand={"juice-base": 0, "puree": 0, "pulp": 0}, revenue=8000,
            refusedByMenu={"tall": 1}, shortfall={"apple": 3, "kiwi": 0},
            fruitCost="220", leftoverValue="0", grossMargin="7780"),
]

# `syrup` (yield 3) is shared by green-base and red-base inside one order of
# `duo`, and by `shot` across orders. Opening: 10 of each fruit, syrup 1 on hand.
# Per duo: green-base 1 batch (syrup 2, kiwi 1), red-base 1 batch (syrup 1, berry 2):
#   syrup demand 3. Per shot: syrup 1, lime 1.
# o1 duo: syrup ceil((3-1)/3)=1 batch (lime 1, sugar 2), on hand 1+3-3=1.
#    lime 9, sugar 8, kiwi 9, berry 8
# o2 shot: syrup from the shelf (->0), lime 8.
# o3 shot: syrup 1 batch (->2), lime 1+1: lime 6, sugar 6.
# o4 duo: syrup ceil((3-2)/3)=1 batch (->2): lime 5, sugar 4, kiwi 8, berry 6.
# set sugar 1.
# o5 duo: syrup needs a batch: sugar 2 > 1: refused (lime 1, kiwi 1, berry 2 suffice).
# o6, o7 shot: syrup 2 -> 1 -> 0, lime 4 -> 3.
# restock syrup 3: on hand 3.
# o8 duo: syrup 3 on hand covers the demand of 3: batches only for the bases.
#    kiwi 7, berry 4; syrup 0.
# Revenue: duo x3 (500) + shot x4 (200) = 2300. fruitCost: lime 7 x4 + sugar 6 x1
#   + kiwi 3 x6 + berry 6 x5 = 82. syrup costs (4 + 2x1)/3 = 2 a serving and went
#   from 1 to 0: leftoverValue -2. grossMargin 2300 - 82 - 2 = 2216.
# Shortfall: the all-served run makes o5's syrup batch: sugar 1-2 = -1 -> 1; it then
#   has syrup 2 on hand like the real run before the restock, so nothing else goes short.
SHARED_BOOK = """\
version: 2
fruits:
  lime: { cost: 4 }
  sugar: { cost: 1 }
  kiwi: { cost: 6 }
  berry: { cost: 5 }
stock: { lime: 10, sugar: 10, kiwi: 10, berry: 10, syrup: 1 }
recipes:
  syrup: { recipe: { lime: 1, sugar: 2 }, yield: 3 }
  green-base: { syrup: 2, kiwi: 1 }
  red-base: { syrup: 1, berry: 2 }
menu:
  duo: { price: 500, recipe: { green-base: 1, red-base: 1 } }
  shot: { price: 200, recipe: { syrup: 1, lime: 1 } }
"""
SHARED_SCRIPT = "duo\nshot x2\nduo\nset sugar 1\nduo\nshot x2\nrestock syrup 3\nduo\n"
SHARED_EVENTS = [
    order(1, 1, "duo", batches={"syrup": 1, "green-base": 1, "red-base": 1}),
    order(2, 2, "shot"),
    order(3, 2, "shot", batches={"syrup": 1}),
    order(4, 3, "duo", batches={"syrup": 1, "green-base": 1, "red-base": 1}),
    {"type": "set", "line": 4, "source": "orders.txt", "fruit": "sugar", "stock": 1},
    order(5, 5, "duo", "refused", short=[("sugar", 2, 1)]),
    order(6, 6, "shot"),
    order(7, 6, "shot"),
    {"type": "restock", "line": 7, "source": "orders.txt", "recipe": "syrup", "amount": 3, "onHand": 3},
    order(8, 8, "duo", batches={"green-base": 1, "red-base": 1}),
    summary(orders=8, served=7, refused=1, skipped=0,
            stock={"lime": 3, "sugar": 1, "kiwi": 7, "berry": 4},
            onHand={"syrup": 0, "green-base": 0, "red-base": 0}, revenue=2300,
            refusedByMenu={"duo": 1, "shot": 0},
            shortfall={"lime": 0, "sugar": 1, "kiwi": 0, "berry": 0},
            fruitCost="82", leftoverValue="-2", grossMargin="2216"),
]

# Fractions of the smallest unit. drop: 3 sugar (cost 1) make 4: 3/4 = 0.75 a serving.
# grain: 1 sugar makes 8: 1/8 = 0.125 a serving.
FRACTION_BOOK = """\
version: 2
fruits:
  sugar: { cost: 1 }
stock:
  sugar: 20
recipes:
  drop:
    recipe: { sugar: 3 }
    yield: 4
  grain:
    recipe: { sugar: 1 }
    yield: 8
menu:
  sip: { price: 1, recipe: { drop: 1 } }
  pinch: { price: 1, recipe: { grain: 1 } }
"""
# sip x3: one drop batch (sugar 3), 1 serving left: leftoverValue 0.75;
#   grossMargin 3 - 3 + 0.75 = 0.75.
FRACTION_075_SCRIPT = "sip x3\n"
FRACTION_075_EVENTS = [
    order(1, 1, "sip", batches={"drop": 1}),
    order(2, 1, "sip"),
    order(3, 1, "sip"),
    summary(orders=3, served=3, refused=0, skipped=0, stock={"sugar": 17},
            onHand={"drop": 1, "grain": 0}, revenue=3, refusedByMenu={"sip": 0, "pinch": 0},
            shortfall={"sugar": 0}, fruitCost="3", leftoverValue="0.75", grossMargin="0.75"),
]
# pinch x7: one grain batch (sugar 1), 1 serving left: 0.125 prints 0.12 (half to
# even; half up would print 0.13); grossMargin 7 - 1 + 0.125 = 6.125 prints 6.12.
FRACTION_0125_SCRIPT = "pinch x7\n"
FRACTION_0125_EVENTS = [order(1, 1, "pinch", batches={"grain": 1})] + [
    order(n, 1, "pinch") for n in range(2, 8)
] + [
    summary(orders=7, served=7, refused=0, skipped=0, stock={"sugar": 19},
            onHand={"drop": 0, "grain": 1}, revenue=7, refusedByMenu={"sip": 0, "pinch": 0},
            shortfall={"sugar": 0}, fruitCost="1", leftoverValue="0.12", grossMargin="6.12"),
]
# pinch x5: 3 servings left: 0.375 prints 0.38 (the even neighbour is up this time);
# grossMargin 5 - 1 + 0.375 = 4.375 prints 4.38.
FRACTION_0375_SCRIPT = "pinch x5\n"
FRACTION_0375_EVENTS = [order(1, 1, "pinch", batches={"grain": 1})] + [
    order(n, 1, "pinch") for n in range(2, 6)
] + [
    summary(orders=5, served=5, refused=0, skipped=0, stock={"sugar": 19},
            onHand={"drop": 0, "grain": 3}, revenue=5, refusedByMenu={"sip": 0, "pinch": 0},
            shortfall={"sugar": 0}, fruitCost="1", leftoverValue="0.38", grossMargin="4.38"),
]

# kiwi has no cost. The one order makes a syrup batch taking a kiwi, and leaves a
# syrup serving whose cost is unknown: all three money fields are null (but
# present: the book declares a cost).
NO_COST_BOOK = """\
version: 2
fruits:
  mango: { label: 망고, emoji: 🥭, cost: 800, pack: 6 }
  kiwi: { label: 키위 }
stock:
  mango: 10
  kiwi: 10
recipes:
  syrup:
    recipe: { mango: 1, kiwi: 1 }
    yield: 2
menu:
  sunrise: { price: 5000, recipe: { syrup: 1 } }
"""
NO_COST_SCRIPT = "sunrise\n"
NO_COST_EVENTS = [
    order(1, 1, "sunrise", batches={"syrup": 1}),
    summary(orders=1, served=1, refused=0, skipped=0, stock={"mango": 9, "kiwi": 9},
            onHand={"syrup": 1}, revenue=5000, refusedByMenu={"sunrise": 0},
            shortfall={"mango": 0, "kiwi": 0}, fruitCost=None, leftoverValue=None, grossMargin=None),
]

# Version 1: short forms, no cost, no recipe stock. cooler flattens to lime 1 + 2 x
# syrup(lime 1, sugar 2) = lime 3, sugar 4. o1 takes lime 3, sugar 4 (lime 2, sugar 0);
# o2 is short of both; restock sugar 4; o3 is short of lime only. No batches, no
# onHand, no money keys. Shortfall: lime 5-3-3-3 = -4, sugar 4-4-4+4-4 = -4.
V1_BOOK = """\
fruits:
  lime:
  sugar:
stock:
  lime: 5
  sugar: 4
recipes:
  syrup: { lime: 1, sugar: 2 }
  base: { syrup: 2, lime: 1 }
menu:
  cooler: { price: 300, recipe: { base: 1 } }
"""
V1_SCRIPT = "cooler x2\nrestock sugar 4\ncooler\n"
V1_EVENTS = [
    order(1, 1, "cooler"),
    order(2, 1, "cooler", "refused", short=[("lime", 3, 2), ("sugar", 4, 0)]),
    {"type": "restock", "line": 2, "source": "orders.txt", "fruit": "sugar", "amount": 4, "stock": 4},
    order(3, 3, "cooler", "refused", short=[("lime", 3, 2)]),
    summary(orders=3, served=1, refused=2, skipped=0, stock={"lime": 2, "sugar": 4}, revenue=300,
            refusedByMenu={"cooler": 2}, shortfall={"lime": 4, "sugar": 4}),
]

# A stock entry naming a recipe is enough to keep servings, even with only short
# forms, so batches of yield-1 recipes are reported. kiwi-base (kiwi 2) has 1 on hand;
# topping (long form, no yield: yield 1) has none.
# o1: kiwi-base from the shelf, topping 1 batch (kiwi 1): kiwi 5.
# o2: both 1 batch: kiwi 5-3 = 2.   o3: needs 3 > 2: refused; all-served: 2-3 = -1.
STOCKED_SHORT_BOOK = """\
version: 2
fruits:
  kiwi:
stock:
  kiwi: 6
  kiwi-base: 1
recipes:
  kiwi-base: { kiwi: 2 }
  topping:
    recipe: { kiwi: 1 }
    label: Topping
menu:
  green: { recipe: { kiwi-base: 1, topping: 1 } }
"""
STOCKED_SHORT_SCRIPT = "green x3\n"
STOCKED_SHORT_EVENTS = [
    order(1, 1, "green", batches={"topping": 1}),
    order(2, 1, "green", batches={"kiwi-base": 1, "topping": 1}),
    order(3, 1, "green", "refused", short=[("kiwi", 3, 2)]),
    summary(orders=3, served=2, refused=1, skipped=0, stock={"kiwi": 2},
            onHand={"kiwi-base": 0, "topping": 0}, revenue=None, refusedByMenu={"green": 1},
            shortfall={"kiwi": 1}),
]

# `version: 2` with a long form that has no `yield:`, no recipe stock and a pack
# but no cost: nothing new is reported (no batches, no onHand, no money).
# green takes 2 toppings = kiwi 2: o1 served (kiwi 1), o2 refused.
LONG_NO_YIELD_BOOK = """\
version: 2
fruits:
  kiwi: { pack: 4 }
stock:
  kiwi: 3
recipes:
  topping:
    recipe: { kiwi: 1 }
    label: Topping
menu:
  green: { price: 10, recipe: { topping: 2 } }
"""
LONG_NO_YIELD_SCRIPT = "green x2\n"
LONG_NO_YIELD_EVENTS = [
    order(1, 1, "green"),
    order(2, 1, "green", "refused", short=[("kiwi", 2, 1)]),
    summary(orders=2, served=1, refused=1, skipped=0, stock={"kiwi": 1}, revenue=10,
            refusedByMenu={"green": 1}, shortfall={"kiwi": 1}),
]

ANCHORS = {
    "three-levels-yields": (NESTED_BOOK, NESTED_SCRIPT, NESTED_EVENTS),
    "shared-recipe": (SHARED_BOOK, SHARED_SCRIPT, SHARED_EVENTS),
    "fraction-0.75": (FRACTION_BOOK, FRACTION_075_SCRIPT, FRACTION_075_EVENTS),
    "fraction-0.125-half-even": (FRACTION_BOOK, FRACTION_0125_SCRIPT, FRACTION_0125_EVENTS),
    "fraction-0.375-half-even": (FRACTION_BOOK, FRACTION_0375_SCRIPT, FRACTION_0375_EVENTS),
    "fruit-without-cost": (NO_COST_BOOK, NO_COST_SCRIPT, NO_COST_EVENTS),
    "stocked-recipe-short-form": (STOCKED_SHORT_BOOK, STOCKED_SHORT_SCRIPT, STOCKED_SHORT_EVENTS),
    "long-form-without-yield": (LONG_NO_YIELD_BOOK, LONG_NO_YIELD_SCRIPT, LONG_NO_YIELD_EVENTS),
    "version-1-book": (V1_BOOK, V1_SCRIPT, V1_EVENTS),
}
# Anchors any juice-run must pass (version 1 output); the rest need version 2.
V1_ANCHORS = {"version-1-book"}


def _anchor_message(name: str, who: str, events: list[dict], expected: list[dict]) -> str | None:
    where = first_difference(expected, events)
    if where is None:
        return None
    index, problems = where
    return f"anchor {name}: {who} differs at event {index}:\n  " + "\n  ".join(problems)


@pytest.mark.model
@pytest.mark.parametrize("name", list(ANCHORS))
def test_model_anchor(name):
    """The model against the hand-worked results."""
    book_text, script, expected = ANCHORS[name]
    book = ref.load_book_texts([("book.yaml", book_text)])
    events = ref.to_wire(ref.run_script(book, script, "orders.txt").events)
    message = _anchor_message(name, "the model", events, expected)
    assert message is None, message


def _binary_anchor(name, tmp_path):
    book_text, script, expected = ANCHORS[name]
    gen.write_book({"book.yaml": book_text}, tmp_path / "book")
    rc, events, stderr = run_juice(tmp_path / "book", gen.write_script(script, tmp_path / "orders.txt"))
    assert rc == 0, f"anchor {name}: juice-run exited {rc}:\n{stderr}"
    message = _anchor_message(name, "juice-run", events, expected)
    assert message is None, message


@pytest.mark.binary
@pytest.mark.parametrize("name", sorted(V1_ANCHORS))
def test_binary_anchor_version_one(name, tmp_path):
    _binary_anchor(name, tmp_path)


@pytest.mark.v2_binary
@pytest.mark.parametrize("name", [n for n in ANCHORS if n not in V1_ANCHORS])
def test_binary_anchor(name, tmp_path):
    require_v2_binary()
    _binary_anchor(name, tmp_path)


# ---------------------------------------------------------------------------
# Menu card, capacity and shopping list: the model only, ready for later
# ---------------------------------------------------------------------------


def _anchor_book(name: str) -> ref.Book:
    return ref.load_book_texts([("book.yaml", ANCHORS[name][0])])


@pytest.mark.model
def test_model_menu_card_shared_recipe():
    # duo: green-base (2 syrup x 2 + kiwi 6 = 10) + red-base (2 + 2 berry x 5 = 12) = 22;
    #   margin 478 = 95.6 %. Each duo makes one syrup batch and leaves 1 on hand as it
    #   found it, taking lime 1, sugar 2, kiwi 1, berry 2: 5 duos; the 6th is short of
    #   sugar and berry, and sugar comes first among the fruits.
    # shot: syrup 2 + lime 4 = 6; margin 194 = 97 %. Opening syrup 1; a batch every
    #   third shot: lime 1 | 2 (+sugar 2) | 1 | 1 | 2 (+sugar 2) | 1 | 1 = 9 of 10, then
    #   the 8th needs a batch and lime 2 > 1: 7, limited by lime.
    card = ref.menu_card(_anchor_book("shared-recipe"))
    assert card == [
        {"menu": "duo", "price": 500, "cost": 22, "margin": 478, "marginPercent": Fraction(478, 5),
         "capacity": 5, "limitedBy": "sugar"},
        {"menu": "shot", "price": 200, "cost": 6, "margin": 194, "marginPercent": 97,
         "capacity": 7, "limitedBy": "lime"},
    ]


@pytest.mark.model
def test_model_menu_card_three_levels():
    # pulp 2 x 10 / 3 = 20/3; puree 5 x 20/3 / 4 = 25/3; juice-base (3 x 25/3 + 30) / 2 = 55/2.
    # Margin 1000 - 27.5 = 972.5 = 97.25 %. Every 8 orders the shelf is empty again after
    # apple 10, kiwi 4 (see NESTED_BOOK): 100 apples make 80; the 81st needs apple 4.
    card = ref.menu_card(_anchor_book("three-levels-yields"))
    assert card == [{"menu": "tall", "price": 1000, "cost": Fraction(55, 2), "margin": Fraction(1945, 2),
                     "marginPercent": Fraction(389, 4), "capacity": 80, "limitedBy": "apple"}]
    assert ref.cost_per_serving(_anchor_book("three-levels-yields"), "pulp") == Fraction(20, 3)


@pytest.mark.model
def test_model_menu_card_unknown_cost():
    # kiwi has no cost: cost and margin unknown. One syrup batch (mango 1, kiwi 1) serves
    # 2: 10 of each make 20; the 21st is short of both, mango first.
    card = ref.menu_card(_anchor_book("fruit-without-cost"))
    assert card == [{"menu": "sunrise", "price": 5000, "cost": None, "margin": None,
                     "marginPercent": None, "capacity": 20, "limitedBy": "mango"}]


@pytest.mark.model
def test_model_fraction_costs():
    book = _anchor_book("fraction-0.75")
    assert ref.cost_per_serving(book, "drop") == Fraction(3, 4)
    assert ref.cost_per_serving(book, "grain") == Fraction(1, 8)
    assert ref.money_2dp(ref.cost_per_serving(book, "drop")) == Decimal("0.75")
    assert str(ref.money_2dp(ref.cost_per_serving(book, "grain"))) == "0.12"
    # price 1 - cost 1/8 = 7/8 = 87.5 %
    assert ref.menu_card(book)[1]["marginPercent"] == Fraction(175, 2)


@pytest.mark.model
def test_model_shopping_list():
    # mango: pack 6, cost 800: 7 short -> 2 packs, 12 units, 9600. kiwi: pack 1, no cost.
    book = _anchor_book("fruit-without-cost")
    assert ref.shopping_list(book, {"mango": 7, "kiwi": 3}) == [
        {"fruit": "mango", "shortfall": 7, "packs": 2, "units": 12, "cost": 9600},
        {"fruit": "kiwi", "shortfall": 3, "packs": 3, "units": 3, "cost": None},
    ]
    assert ref.shopping_list(book, {"mango": 6, "kiwi": 0}) == [
        {"fruit": "mango", "shortfall": 6, "packs": 1, "units": 6, "cost": 4800}]
    assert ref.shopping_list(book, {"mango": 0, "kiwi": 0}) == []


@pytest.mark.model
def test_model_shopping_list_after_shared_run():
    # The shared-recipe run is 1 sugar short at its worst; sugar costs 1, pack 1.
    book = _anchor_book("shared-recipe")
    run = ref.run_script(book, SHARED_SCRIPT, "orders.txt")
    assert ref.shopping_list(book, run.events[-1]["shortfall"]) == [
        {"fruit": "sugar", "shortfall": 1, "packs": 1, "units": 1, "cost": 1}]


# ---------------------------------------------------------------------------
# (b) The differential test: juice-run against the model
# ---------------------------------------------------------------------------


def _describe(case: gen.Case) -> str:
    b = case.book
    traits = [f"version {b.version}" if b.version else "no version key",
              "keeps servings" if b.keeps_servings else "no servings kept",
              "money" if b.money else "no cost",
              f"{len(case.files)} file(s)"]
    return ", ".join(traits)


def differential(seed: int, v1_only: bool, tmp_path: pathlib.Path) -> None:
    case = gen.generate_case(seed, v1_only=v1_only)
    book_dir, script = gen.write_case(case, tmp_path)
    book = ref.load_book(book_dir)
    expected = ref.to_wire(ref.run_script(book, case.script_text, script.name).events)
    rc, actual, stderr = run_juice(book_dir, script)
    flag = " --v1" if v1_only else ""
    reproduce = (f"reproduce: python Tests/Reference/book_generator.py {seed} DIR{flag}, then "
                 f"juice-run --recipes DIR/book --format json DIR/orders.txt (kept in {tmp_path})")
    if rc != 0:
        pytest.fail(f"seed {seed} ({_describe(case)}): juice-run exited {rc}\n{stderr.strip()}\n{reproduce}",
                    pytrace=False)
    fail_at_difference(first_difference(expected, actual), expected, actual, case,
                       f"seed {seed} ({_describe(case)})", reproduce)


def fail_at_difference(where, expected: list[dict], actual: list[dict], case: gen.Case, title: str,
                       reproduce: str) -> None:
    """Fails with the first differing event (`where`, from a comparison;
    nothing when None), the script line it came from, the reproduction and
    the book's files."""
    if where is None:
        return
    index, problems = where
    e = expected[index] if index < len(expected) else actual[index]
    line = e.get("line")
    context = ""
    if line:
        context = f" (orders.txt:{line}: {case.script[line - 1].strip()!r}"
        context += f", order {e['seq']})" if e.get("type") == "order" else ")"
    files = "\n".join(f"--- {name}\n{text}" for name, text in sorted(case.files.items()))
    upto = case.script[:line] if line else case.script
    pytest.fail(
        f"{title}: event {index}{context} differs:\n  "
        + "\n  ".join(problems)
        + f"\n{reproduce}\n{files}--- orders.txt (up to that line)\n"
        + "".join(f"{n:3}  {text}\n" for n, text in enumerate(upto, start=1)),
        pytrace=False,
    )


@pytest.mark.v2_binary
def test_binary_reads_version_2():
    """Fails with the reason when juice-run does not implement version 2."""
    require_v2_binary()


@pytest.mark.v2_binary
@pytest.mark.parametrize("seed", range(DIFF_SEED, DIFF_SEED + DIFF_CASES))
def test_differential_v2(seed, tmp_path):
    require_v2_binary()
    differential(seed, False, tmp_path)


@pytest.mark.binary
@pytest.mark.parametrize("seed", range(V1_SEED, V1_SEED + V1_CASES))
def test_differential_v1_books(seed, tmp_path):
    """Books with version 1 features only: today's juice-run must match the
    model too, and version 2 must not add a key to them."""
    differential(seed, True, tmp_path)
