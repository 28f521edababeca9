"""`juice-run plan` (docs/planning.md) held to the reference model in
plan_reference.py.

    JUICE_RUN=.build/debug/juice-run .build/venv/bin/python -m pytest -q Tests/Reference/test_plan.py

Two kinds of tests:

- `model` tests need no binary. They check the model against closed forms
  worked by hand in their comments (restocking up to a level, in packs;
  spoilage with `keeps`, oldest units first; an (s, S) order's arrival on
  day d + L + 1; servings of a recipe thrown away; zero-width intervals),
  and the random stream against published SplitMix64 values, hand-written
  arithmetic and statistics of the Poisson sampler.
- The others run `juice-run plan --format json` on anchor books and on
  seeded random version-2 books (fruits with cost, pack, keeps, restock;
  recipes with yield and keeps; stock; a menu with prices) and compare every
  per-run figure and the summary with the model. They FAIL, saying why,
  when JUICE_RUN is missing or `juice-run plan --help` does not describe
  `plan` (`juice-run plan --help` printing the main help and exiting 0
  would be a broken `plan`, so the exit code alone proves nothing): a
  binary that lost its planner must not pass by skipping every test.

What is compared: settings; per run: every count exactly, fillRate,
cycleServiceLevel and averageOnHand to 1e-9 (relative, at least 1e-9
absolute), money exactly as rounded once to 2 places (half to even), null
where the model says unknown; fruits in book order. Summary: every figure's
mean to 1e-9 relative, low and high to 1e-9 relative to the larger of the
mean and the half-width (low = mean - half may be near 0); money within
0.0051, since the doc does not say whether the mean is taken of the exact or
of the rounded per-run values, or whether the summary is rounded for
display; low and high null with one run; an unknown figure may be `null` or
have a null mean, low and high.

Money rule: by default the doc's "Money figures need every fruit to declare
a cost" (null otherwise). JUICE_PLAN_MONEY_RULE=used models the other
reading (null only when some fruit has no cost at all, or a cost actually
used is unknown), to check a binary that reads it so on everything else.

JUICE_PLAN_CASES (default 30) random books, from JUICE_PLAN_SEED (default 0).
"""

from __future__ import annotations

import functools
import json
import math
import os
import pathlib
import random
import shlex
import subprocess
from decimal import Decimal
from fractions import Fraction

import pytest

import batch_reference as ref
import book_generator as gen
import plan_reference as plan

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
JUICE_RUN = pathlib.Path(os.environ.get("JUICE_RUN") or REPO / ".build" / "debug" / "juice-run")
CASES = int(os.environ.get("JUICE_PLAN_CASES", "30"))
FIRST_SEED = int(os.environ.get("JUICE_PLAN_SEED", "0"))
M64 = 2 ** 64

# ---------------------------------------------------------------------------
# Books worked by hand
# ---------------------------------------------------------------------------


def book_text(fruits: str, menu: str, recipes: str = "", stock: str = "") -> str:
    text = "version: 2\nfruits:\n" + fruits
    if recipes:
        text += "recipes:\n" + recipes
    if stock:
        text += "stock:\n" + stock
    return text + "menu:\n" + menu


def load(text: str) -> plan.PlanBook:
    return plan.load_plan_book_texts([("book.yaml", text)])


def run_one(text: str, days: int, n: int, demand: str = "fixed", seed: int = 1, trace: bool = True,
            mix: str | None = None) -> plan.RunFigures:
    pb = load(text)
    stream = plan.Stream(plan.derive(seed, 1), len(pb.book.menu), plan.parse_mix(mix, pb.book))
    return plan.simulate_run(pb, days, n, demand, stream, trace=trace)


# Each anchor: the book, the settings, and the per-run figures worked by hand
# (in the comment above it). The model must give them (model tests), and so
# must the binary (anchor tests).
ANCHORS: dict[str, dict] = {}

# Up-to S = 10 in packs of 3, fixed demand of 3 orders of 2 apples (6 a day,
# a multiple of the pack), no opening stock, 5 days. Day 1 buys 4 packs (12,
# the fewest packs reaching 10); each evening leaves 12 - 6 = 6; each later
# morning buys 2 packs (6) to get back to 12 >= 10. Bought 12 + 4 * 6 = 36,
# average on hand 6, every order served. Purchases 36 * 7 = 252; revenue
# 15 * 300 = 4500; margin 4248; nothing spoils.
ANCHORS["up-to-in-packs"] = dict(
    text=book_text("  apple: { cost: 7, pack: 3, restock: { up-to: 10 } }\n",
                   "  juice: { recipe: { apple: 2 }, price: 300 }\n"),
    days=5, n=3,
    expect=dict(orders=15, served=15, refused=0, days_without_refusal=5,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 30},
                bought={"apple": 36}, revenue=4500, purchases=252, waste_at_cost=0, gross_margin=4248),
)

# Up-to S = 7 in packs of 1, 4 orders of 2 apples a day: S does not cover a
# day. Each morning holds 7: 3 orders are served (6 apples), the 4th is
# refused, short of apple; 1 apple is left and 6 are bought the next
# morning. 4 days: bought 7 + 3 * 6 = 25, served 12 of 16, no day without a
# refusal, apple short on all 4 days, on hand 1 each evening.
ANCHORS["up-to-short"] = dict(
    text=book_text("  apple: { cost: 5, restock: { up-to: 7 } }\n",
                   "  juice: { recipe: { apple: 2 }, price: 100 }\n"),
    days=4, n=4,
    expect=dict(orders=16, served=12, refused=4, days_without_refusal=0,
                short_days={"apple": 4}, wasted={"apple": 0}, on_hand_sum={"apple": 4},
                bought={"apple": 25}, revenue=1200, purchases=125, waste_at_cost=0, gross_margin=1075),
)

# keeps: 1 throws away everything left at the end of each day. Opening stock
# 5, up-to 10, 4 orders of 1 apple a day. Day 1 buys 5 (to 10), later days
# 10 each (nothing is left); each evening 6 are thrown away. 3 days: bought
# 25, wasted 18, on hand 0 every evening; waste at cost 18 * 4 = 72.
ANCHORS["keeps-one-day"] = dict(
    text=book_text("  apple: { cost: 4, keeps: 1, restock: { up-to: 10 } }\n",
                   "  juice: { recipe: { apple: 1 }, price: 50 }\n", stock="  apple: 5\n"),
    days=3, n=4,
    expect=dict(orders=12, served=12, refused=0, days_without_refusal=3,
                short_days={"apple": 0}, wasted={"apple": 18}, on_hand_sum={"apple": 0},
                bought={"apple": 25}, revenue=600, purchases=100, waste_at_cost=72, gross_margin=500),
)

# keeps: 2, oldest first. Up-to 10, 3 orders of 1 apple a day, no stock.
# Day 1: buy 10 (lot d1), use 3: d1 = 7. Day 2: buy 3 (lot d2), use 3 from
# d1: d1 = 4, d2 = 3; d1 ends its 2nd day: 4 thrown away; 3 left. Day 3:
# buy 7 (d3), use d2's 3: 7 left, nothing thrown. Day 4: buy 3 (d4), use 3
# of d3: d3 = 4 thrown away; 3 left. Bought 10 + 3 + 7 + 3 = 23, wasted 8,
# on hand 7, 3, 7, 3 (sum 20). (Newest first would throw away other amounts.)
ANCHORS["keeps-two-days-fifo"] = dict(
    text=book_text("  apple: { cost: 2, keeps: 2, restock: { up-to: 10 } }\n",
                   "  juice: { recipe: { apple: 1 }, price: 10 }\n"),
    days=4, n=3,
    expect=dict(orders=12, served=12, refused=0, days_without_refusal=4,
                short_days={"apple": 0}, wasted={"apple": 8}, on_hand_sum={"apple": 20},
                bought={"apple": 23}, revenue=120, purchases=46, waste_at_cost=16, gross_margin=74),
)

# (s, S) with lead 2: stock 20, below 10, up-to 25, 3 orders of 1 a day.
# Evenings: 17, 14, 11, 8: on day 4 the position 8 < 10, so 17 units are
# ordered (counted on day 4) and arrive at the start of day 4 + 2 + 1 = 7.
# Days 5, 6: 5, 2 (position 22, 19: no order). Day 7: 2 + 17 - 3 = 16; then
# 13, 10, and on day 10 the position 7 < 10: 18 more are ordered (counted,
# never arriving in a 10-day run). Bought 35; on hand sum
# 17+14+11+8+5+2+16+13+10+7 = 103.
ANCHORS["s-S-lead-2"] = dict(
    text=book_text("  apple: { cost: 3, restock: { below: 10, up-to: 25, lead: 2 } }\n",
                   "  juice: { recipe: { apple: 1 }, price: 20 }\n", stock="  apple: 20\n"),
    days=10, n=3,
    expect=dict(orders=30, served=30, refused=0, days_without_refusal=10,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 103},
                bought={"apple": 35}, revenue=600, purchases=105, waste_at_cost=0, gross_margin=495),
)

# (s, S) with lead 0 and packs of 4: stock 6, below 4, up-to 9, 2 orders of
# 1 a day. Day 1 evening 4 (not below 4); day 2 evening 2 < 4: the fewest
# packs reaching 9 from 2 are 2 (8 units, position 10), arriving day 3.
# Day 3: 2 + 8 - 2 = 8; day 4: 6; day 5: 4; day 6: 2 < 4: 8 more, arriving
# day 7 (outside a 6-day run). Bought 16, on hand sum 4+2+8+6+4+2 = 26.
ANCHORS["s-S-lead-0-packs"] = dict(
    text=book_text("  apple: { cost: 1, pack: 4, restock: { below: 4, up-to: 9 } }\n",
                   "  juice: { recipe: { apple: 1 }, price: 2 }\n", stock="  apple: 6\n"),
    days=6, n=2,
    expect=dict(orders=12, served=12, refused=0, days_without_refusal=6,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 26},
                bought={"apple": 16}, revenue=24, purchases=16, waste_at_cost=0, gross_margin=8),
)

# A recipe's servings spoil: syrup (3 apples, yield 4, keeps 1), one order
# a day of 1 syrup, apple up-to 3 at cost 10. Every day a batch is made,
# 1 serving is used and 3 are thrown away in the evening, at 30 / 4 = 7.50
# each. 3 days: bought 9 apples (3 a day), waste at cost 3 * 3 * 7.5 = 67.50,
# purchases 90, revenue 300, margin 210. No fruit is wasted.
ANCHORS["recipe-keeps-one"] = dict(
    text=book_text("  apple: { cost: 10, restock: { up-to: 3 } }\n",
                   "  juice: { recipe: { syrup: 1 }, price: 100 }\n",
                   recipes="  syrup: { recipe: { apple: 3 }, yield: 4, keeps: 1 }\n"),
    days=3, n=1,
    expect=dict(orders=3, served=3, refused=0, days_without_refusal=3,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 0},
                bought={"apple": 9}, revenue=300, purchases=90, waste_at_cost=Fraction(135, 2),
                gross_margin=210),
)

# The same with keeps: 2. Day 1: buy 3, batch (lot d1 = 4), 1 used, 3 kept.
# Day 2: buy 3 (apples 0 -> 3), serving from the shelf; evening: d1 = 2,
# thrown away (its 2nd day). Day 3: no purchase (3 on hand); batch (d3 = 4),
# 1 used. Day 4: buy 3; a serving from d3; d3 = 2 thrown away. Bought 9,
# 4 servings wasted at 7.50 = 30; apples on hand 0, 3, 0, 3 (sum 6).
ANCHORS["recipe-keeps-two"] = dict(
    text=book_text("  apple: { cost: 10, restock: { up-to: 3 } }\n",
                   "  juice: { recipe: { syrup: 1 }, price: 100 }\n",
                   recipes="  syrup: { recipe: { apple: 3 }, yield: 4, keeps: 2 }\n"),
    days=4, n=1,
    expect=dict(orders=4, served=4, refused=0, days_without_refusal=4,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 6},
                bought={"apple": 9}, revenue=400, purchases=90, waste_at_cost=30, gross_margin=310),
)

# Opening stock spoils too (received on day 1), no restock: 10 apples,
# keeps 2, 3 orders of 1 a day, and kiwi never used nor restocked (no cost:
# money unknown). Day 1: 7 left; day 2: 4 left, thrown away; days 3, 4:
# every order refused, short of apple. Served 6 of 12, 2 days without a
# refusal, wasted 4, on hand 7, 0, 0, 0. Revenue 6 * 5 = 30.
ANCHORS["opening-stock-spoils"] = dict(
    text=book_text("  apple: { cost: 1, keeps: 2 }\n  kiwi: { keeps: 1 }\n",
                   "  juice: { recipe: { apple: 1 }, price: 5 }\n", stock="  apple: 10\n  kiwi: 4\n"),
    days=4, n=3,
    expect=dict(orders=12, served=6, refused=6, days_without_refusal=2,
                short_days={"apple": 2, "kiwi": 0}, wasted={"apple": 4, "kiwi": 4},
                on_hand_sum={"apple": 7, "kiwi": 0}, bought={"apple": 0, "kiwi": 0},
                revenue=30, purchases=None, waste_at_cost=None, gross_margin=None),
    # JUICE_PLAN_MONEY_RULE=used: nothing bought, so purchases 0 and margin 30;
    # kiwi (no cost) was thrown away, so the waste at cost is unknown.
    used=dict(purchases=0, waste_at_cost=None, gross_margin=30),
)

# No orders: fill rate 1 (by definition), every day without a refusal.
ANCHORS["no-orders"] = dict(
    text=book_text("  apple: { cost: 2, restock: { up-to: 4 } }\n",
                   "  juice: { recipe: { apple: 1 } }\n"),
    days=3, n=0,
    expect=dict(orders=0, served=0, refused=0, days_without_refusal=3,
                short_days={"apple": 0}, wasted={"apple": 0}, on_hand_sum={"apple": 12},
                bought={"apple": 4}, revenue=None, purchases=8, waste_at_cost=0, gross_margin=None),
)


def check_expect(fig: plan.RunFigures, expect: dict) -> list[str]:
    bad = []
    for key, want in expect.items():
        got = getattr(fig, key)
        if got != want:
            bad.append(f"{key}: expected {want!r}, got {got!r}")
    return bad


@pytest.mark.model
@pytest.mark.parametrize("name", list(ANCHORS))
def test_model_anchor(name):
    a = ANCHORS[name]
    fig = run_one(a["text"], a["days"], a["n"])
    expect = dict(a["expect"])
    if plan.MONEY_RULE == "used":
        expect.update(a.get("used", {}))
    bad = check_expect(fig, expect)
    assert not bad, f"{name}:\n" + "\n".join(bad) + "\ntrace:\n" + "\n".join(map(str, fig.trace))


@pytest.mark.model
def test_model_s_s_first_arrival_is_day_d_plus_lead_plus_one():
    """Stock 20, 3 a day, below 10: the evening of day 4 leaves 8, the first
    position below 10, so the order arrives on day 4 + L + 1, for each L;
    it is counted as bought on day 4."""
    for lead in range(0, 6):
        text = book_text(f"  apple: {{ cost: 3, restock: {{ below: 10, up-to: 25, lead: {lead} }} }}\n",
                         "  juice: { recipe: { apple: 1 } }\n", stock="  apple: 20\n")
        fig = run_one(text, 12, 3)
        placed = [t["day"] for t in fig.trace if t["placed"]]
        arrived = [t["day"] for t in fig.trace if t["arrived"]["apple"]]
        assert placed[0] == 4
        assert fig.trace[3]["placed"]["apple"] == (17, 4 + lead + 1)
        assert fig.trace[3]["bought"]["apple"] == 17
        assert arrived[0] == 4 + lead + 1, (lead, arrived)
        assert fig.trace[arrived[0] - 1]["arrived"]["apple"] == 17
        # No second order while the first is on its way: the position counts it.
        assert all(d > arrived[0] for d in placed[1:]), (lead, placed)


@pytest.mark.model
@pytest.mark.parametrize("a,n,pack,s_level", [(1, 5, 1, 5), (2, 3, 1, 9), (2, 3, 3, 10), (3, 4, 4, 13),
                                               (1, 6, 2, 7), (5, 2, 5, 11)])
def test_model_up_to_closed_form(a, n, pack, s_level):
    """Fixed demand of n orders of a single item needing a apples, up-to S
    with pack p dividing a*n, S >= a*n (S covers a day), no stock: day 1
    buys p*ceil(S/p); every later day buys exactly a*n, so bought =
    p*ceil(S/p) + (D-1)*a*n, the evening level is p*ceil(S/p) - a*n, the
    cycle service level and the fill rate are 1."""
    assert (a * n) % pack == 0 and s_level >= a * n
    days = 7
    text = book_text(f"  apple: {{ cost: 3, pack: {pack}, restock: {{ up-to: {s_level} }} }}\n",
                     f"  juice: {{ recipe: {{ apple: {a} }}, price: 10 }}\n")
    fig = run_one(text, days, n)
    top = pack * -(-s_level // pack)
    assert fig.bought["apple"] == top + (days - 1) * a * n
    assert fig.average_on_hand("apple") == top - a * n
    assert fig.cycle_service_level == 1.0 and fig.fill_rate == 1.0
    assert fig.purchases == 3 * fig.bought["apple"]
    assert fig.gross_margin == days * n * 10 - fig.purchases


@pytest.mark.model
@pytest.mark.parametrize("a,n,s_level", [(2, 4, 7), (3, 5, 10), (1, 9, 4), (4, 3, 3)])
def test_model_up_to_short_closed_form(a, n, s_level):
    """Pack 1, S < a*n: each morning holds S; floor(S/a) orders are served,
    the rest refused short of apple; S mod a is left and S - S mod a bought
    the next morning."""
    days = 6
    text = book_text(f"  apple: {{ restock: {{ up-to: {s_level} }} }}\n",
                     f"  juice: {{ recipe: {{ apple: {a} }} }}\n")
    fig = run_one(text, days, n)
    k = s_level // a
    assert fig.served == days * k and fig.refused == days * (n - k)
    assert fig.fill_rate == k / n
    assert fig.cycle_service_level == 0.0 and fig.short_days["apple"] == days
    assert fig.bought["apple"] == s_level + (days - 1) * a * k
    assert fig.average_on_hand("apple") == s_level % a
    assert fig.purchases is None and fig.revenue is None


@pytest.mark.model
@pytest.mark.parametrize("s_level,n", [(10, 4), (5, 5), (8, 1)])
def test_model_keeps_one_wastes_the_evening_stock(s_level, n):
    """keeps: 1 (fruit): whatever is left in the evening is thrown away, so
    every morning buys S again: bought = D*S, wasted = D*(S - n)."""
    days = 5
    text = book_text(f"  apple: {{ cost: 2, keeps: 1, restock: {{ up-to: {s_level} }} }}\n",
                     "  juice: { recipe: { apple: 1 }, price: 3 }\n")
    fig = run_one(text, days, n)
    assert fig.bought["apple"] == days * s_level
    assert fig.wasted["apple"] == days * (s_level - n)
    assert fig.average_on_hand("apple") == 0
    assert fig.waste_at_cost == 2 * days * (s_level - n)


@pytest.mark.model
def test_model_without_keeps_nothing_spoils_and_fruit_is_conserved():
    """On random books with restocks and spoilage: opening stock + bought
    (arrived) = used + wasted + on hand, fruit by fruit, every day."""
    for seed in range(12):
        case = make_case(seed)
        pb = load(case["text"])
        stream = plan.Stream(plan.derive(case["seed"], 1), len(pb.book.menu),
                             plan.parse_mix(case["mix"], pb.book))
        fig = plan.simulate_run(pb, case["days"], case["n"], case["demand"], stream, trace=True)
        for f in pb.book.fruits:
            have = pb.book.fruit_stock.get(f, 0)
            for t in fig.trace:
                arrived = t["arrived"][f] + (0 if pb.restock.get(f) and pb.restock[f].is_s_s
                                             else t["bought"][f])
                have += arrived - t["used"][f] - t["wasted"][f]
                assert have == t["onHand"][f], (seed, f, t)
                if f not in pb.fruit_keeps:
                    assert t["wasted"][f] == 0


# Two fruits (one (s, S) with lead 1), a recipe that keeps, and two items:
# with fixed demand and a one-item mix every run is the same, so every
# interval has zero width (the model and the binary tests both use it).
ZERO_WIDTH_BOOK = book_text("  apple: { cost: 3, pack: 4, keeps: 2, restock: { up-to: 9 } }\n"
                            "  kiwi: { cost: 5, restock: { below: 3, up-to: 8, lead: 1 } }\n",
                            "  juice: { recipe: { apple: 1, syrup: 1 }, price: 40 }\n"
                            "  other: { recipe: { kiwi: 2 }, price: 7 }\n",
                            recipes="  syrup: { recipe: { kiwi: 1 }, yield: 3, keeps: 2 }\n",
                            stock="  kiwi: 6\n")


# z for 95%, as docs/planning.md gives it.
Z = 1.959963984540054


def wilson_closed_form(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval as textbooks write it (centre -/+ half):
    (p + z^2/2n -/+ z sqrt(p(1 - p)/n + z^2/4n^2)) / (1 + z^2/n), p = k/n."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def share_counts(out: dict) -> dict[str, tuple[int, int]]:
    """Each share's pooled (successes, trials) from a report's per-run
    counts: served of orders, days without a refusal and each fruit's short
    days of all days."""
    runs = out["perRun"]
    days = out["settings"]["days"] * len(runs)
    counts = {"fillRate": (sum(r["served"] for r in runs), sum(r["orders"] for r in runs)),
              "cycleServiceLevel": (sum(r["daysWithoutRefusal"] for r in runs), days)}
    for fruit in runs[0]["fruits"]:
        counts[f"fruits.{fruit}.shortDayShare"] = (sum(r["fruits"][fruit]["shortDays"] for r in runs), days)
    return counts


def check_wilson(out: dict, where: str) -> None:
    """Every share's low and high: within [0, 1], around its mean, and the
    closed-form Wilson bounds of its pooled counts to 1e-12."""
    cells = dict(flatten(out["summary"]))
    for path, (k, n) in share_counts(out).items():
        cell = cells[path]
        low, high = float(cell["low"]), float(cell["high"])
        want = wilson_closed_form(k, n)
        assert 0 <= low <= float(cell["mean"]) <= high <= 1, (where, path, cell)
        assert abs(low - want[0]) <= 1e-12 and abs(high - want[1]) <= 1e-12, (where, path, cell, k, n, want)


@pytest.mark.model
def test_model_wilson_known_values():
    """1 of 10: [0.0179, 0.4042] (the textbook example); 0 of n: [0,
    z^2/(n + z^2)] and n of n its mirror; 5 of 10: symmetric about 1/2."""
    low, high = plan.wilson(1, 10)
    assert round(low, 4) == 0.0179 and round(high, 4) == 0.4042
    assert plan.wilson(0, 10) == pytest.approx((0.0, Z * Z / (10 + Z * Z)), abs=1e-15)
    assert plan.wilson(10, 10) == pytest.approx((10 / (10 + Z * Z), 1.0), abs=1e-15)
    low, high = plan.wilson(5, 10)
    assert low + high == pytest.approx(1.0, abs=1e-15)
    for k, n in ((0, 1), (3, 7), (999, 1000), (123456, 10 ** 9)):
        assert plan.wilson(k, n) == pytest.approx(wilson_closed_form(k, n), abs=1e-12)


@pytest.mark.model
def test_model_zero_width_intervals_fixed_one_item():
    """--demand fixed and one menu item (or a mix naming one): every run is
    the same, so low == high == mean for every figure but the shares, whose
    Wilson interval is on the pooled counts (and so not a point)."""
    pb = load(ZERO_WIDTH_BOOK)
    for mix in ("juice=1", "other=2,juice=0", "juice=5"):
        out = plan.report(pb, days=9, runs=5, orders_per_day=4, demand="fixed", seed=99, mix=mix)
        flat = list(flatten(out["summary"]))
        assert flat
        shares = share_counts(json.loads(json.dumps(plan._printable(out))))
        for path, cell in flat:
            if cell["mean"] is None or path in shares:
                continue
            assert cell["low"] == cell["high"] == float(cell["mean"]), (mix, path, cell)
        check_wilson(plan._printable(out), mix)
        first = out["perRun"][0]
        assert all(r | {"run": 1} == first for r in out["perRun"]), mix


def flatten(summary: dict, prefix: str = ""):
    for key, value in summary.items():
        if isinstance(value, dict) and "mean" in value:
            yield prefix + key, value
        elif isinstance(value, dict):
            yield from flatten(value, prefix + key + ".")


@pytest.mark.model
def test_model_interval_formula():
    """[1, 2, 3]: mean 2, s = 1, half-width t(0.975, 2) / sqrt(3); one run:
    no interval; a null figure stays null."""
    got = plan.interval([1, 2, 3])
    half = plan.t975(2) / math.sqrt(3)
    assert got["mean"] == 2 and got["low"] == 2 - half and got["high"] == 2 + half
    assert plan.interval([Fraction(5, 2)]) == {"mean": Fraction(5, 2), "low": None, "high": None}
    assert plan.interval([1, None]) == {"mean": None, "low": None, "high": None}


@pytest.mark.model
def test_model_student_t_quantiles():
    """df = 1: tan(0.475 pi); df = 2: sqrt(2 q^2 / (1 - q^2)) with q = 0.95
    (F(t) = 1/2 + t / (2 sqrt(2 + t^2))); df = 30 and the normal limit from
    tables."""
    assert plan.t975(1) == pytest.approx(12.706204736174703, rel=1e-13)
    assert plan.t975(2) == pytest.approx(math.sqrt(2 * 0.9025 / 0.0975), rel=1e-13)
    assert plan.t975(4) == pytest.approx(2.7764451051977987, rel=1e-12)
    assert plan.t975(30) == pytest.approx(2.0422724563012373, rel=1e-12)
    assert plan.t975(99_999) == pytest.approx(1.959963984540054, rel=2e-5)
    assert plan.t975(99_999) > 1.959963984540054


# ---------------------------------------------------------------------------
# The random stream
# ---------------------------------------------------------------------------


@pytest.mark.model
def test_model_splitmix64_published_values():
    """SplitMix64 from state 0 (Vigna's reference) and from 1234567."""
    s = plan.Stream(0, 1)
    assert [s.next_raw() for _ in range(4)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]
    s = plan.Stream(1234567, 1)
    assert [s.next_raw() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]


@pytest.mark.model
def test_model_derive_by_hand():
    """derive(S, k) written out step by step with % 2**64, for a few (S, k),
    including a seed near 2^64 whose first sum wraps."""
    def by_hand(seed, k):
        z = (seed + k * 0xD1B54A32D192ED03) % M64
        z = ((z ^ (z >> 32)) * 0xD6E8FEB86659FD93) % M64
        z = ((z ^ (z >> 32)) * 0xD6E8FEB86659FD93) % M64
        return z ^ (z >> 32)

    for seed, k in [(0, 1), (42, 1), (42, 2), (M64 - 1, 3), (2 ** 63, 100_000)]:
        assert plan.derive(seed, k) == by_hand(seed, k)
    assert plan.derive(0, 0) == 0
    assert plan.derive(0, 1) == 0xF099AE65D67772ED
    assert plan.derive(42, 1) == 0x8DE5301372A610F8
    assert plan.derive(M64 - 1, 3) == 0x8644CF2412A19002
    # Run 1 of seed 42: its first output is SplitMix64's step from derive(42, 1).
    z = (0x8DE5301372A610F8 + 0x9E3779B97F4A7C15) % M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
    assert plan.Stream(plan.derive(42, 1), 3).next_raw() == z ^ (z >> 31) == 0x8EFA36FBD9B1078C


@pytest.mark.model
def test_model_uniform_and_bounded_draws():
    """A uniform is (raw >> 11) * 2^-53; a power-of-two bound never rejects,
    so next() over 4 items is the top 2 bits; over 3 items it is
    floor(raw * 3 / 2^64) unless the low word is 0; a mix draws by running
    totals (weights 0, 5, 0, 1: a draw below 5 is item 1, else item 3)."""
    a, b = plan.Stream(7, 4), plan.Stream(7, 4)
    for _ in range(200):
        assert a.uniform() == (b.next_raw() >> 11) / 2 ** 53
        assert a.next() == b.next_raw() >> 62
    a, b = plan.Stream(11, 3), plan.Stream(11, 3)
    for _ in range(200):
        assert a.next() == (b.next_raw() * 3) >> 64
    a, b = plan.Stream(13, 4, [0, 5, 0, 1]), plan.Stream(13, 4)
    seen = set()
    for _ in range(300):
        draw = b.bounded(6)
        got = a.next()
        seen.add(got)
        assert got == (1 if draw < 5 else 3)
    assert seen == {1, 3}


@pytest.mark.model
def test_model_exp_is_close_to_libm():
    """The hand-written e^(-mu) (Taylor to 20 terms at mu/64, squared six
    times) agrees with libm to about 1e-13 over the range the sampler uses
    (mu <= 30), and is exactly 1 at 0."""
    assert plan.exp_neg(0.0) == 1.0
    for i in range(1, 3001):
        mu = i / 100
        assert plan.exp_neg(mu) == pytest.approx(math.exp(-mu), rel=1e-12), mu


@pytest.mark.model
def test_model_poisson_uses_one_uniform_per_part():
    """m = ceil(N / 30) parts, one uniform each: the state advances by m
    steps of the golden gamma."""
    for n, m in [(1, 1), (30, 1), (31, 2), (60, 2), (61, 3), (1000, 34)]:
        s = plan.Stream(5, 1)
        plan.poisson(s, n)
        assert s.state == (5 + m * 0x9E3779B97F4A7C15) % M64, n


@pytest.mark.model
@pytest.mark.parametrize("n", [1, 7, 30, 45, 200])
def test_model_poisson_mean_and_variance(n):
    """Over 20,000 draws the sample mean of a Poisson(N) count has standard
    error sqrt(N / 20000) and the sample variance about
    sqrt((N + 2 N^2) / 20000); both must be within 5 of those (a false alarm
    is about 1 in 1.7 million per check on a correct sampler). For N = 1
    the share of zeros is e^-1 within 5 standard errors too."""
    draws = 20_000
    s = plan.Stream(plan.derive(2024, n), 1)
    xs = [plan.poisson(s, n) for _ in range(draws)]
    mean = sum(xs) / draws
    var = sum((x - mean) ** 2 for x in xs) / (draws - 1)
    assert abs(mean - n) <= 5 * math.sqrt(n / draws), mean
    assert abs(var - n) <= 5 * math.sqrt((n + 2 * n * n) / draws), var
    if n == 1:
        p0 = math.exp(-1)
        share = xs.count(0) / draws
        assert abs(share - p0) <= 5 * math.sqrt(p0 * (1 - p0) / draws), share


# ---------------------------------------------------------------------------
# Random books
# ---------------------------------------------------------------------------


def _flow(pairs) -> str:
    return "{ " + ", ".join(f"{k}: {v}" for k, v in pairs) + " }"


def make_case(seed: int) -> dict:
    """A version-2 book from book_generator (fruits, nested recipes, yields,
    stock, a priced menu) with restocking and shelf life added, and the
    settings to plan it with, all from random.Random(seed). Restock levels
    are set from a day's expected need, so that some days run short and
    some fruit spoils."""
    rng = random.Random(1_000_003 * seed + 17)
    gb = gen.generate_book(rng, seed)
    if gb.money and rng.random() < 0.6:
        for f in gb.fruits:
            if f.cost is None:
                f.cost = rng.randint(1, 9)
    days = rng.randint(3, 30)
    runs = rng.choice([1, 2, 3, 4, 6, 8])
    demand = rng.choice(["fixed", "poisson"])
    roll = rng.random()
    n = 0 if roll < 0.05 else rng.randint(31, 60) if roll < 0.15 else rng.choice([1, 2, 3, 5, 8, 12, 20])
    mix = None
    if rng.random() < 0.5:
        weights = {m.id: rng.choice([0, 1, 2, 5]) for m in gb.menu}
        if not any(weights.values()):
            weights[gb.menu[0].id] = 1
        mix = ",".join(f"{k}={v}" for k, v in weights.items() if v or rng.random() < 0.5)
        if not mix:
            mix = f"{gb.menu[0].id}=1"
    # A day's need of each fruit, from zero servings on hand, one order of each item.
    rough_text = render(gb, {}, {}, {})
    pb = load(rough_text)
    need = {f: 0.0 for f in pb.book.fruits}
    for mid in pb.book.menu:
        out = ref.plan_serially(pb.book, mid, {f: math.inf for f in pb.book.fruits},
                                {r: 0 for r in pb.book.recipes})
        for f, k in out.taken.items():
            need[f] += k / len(pb.book.menu)
    fruit_extra, recipe_extra = {}, {}
    for f in gb.fruits:
        pairs = []
        if rng.random() < 0.45:
            pairs.append(("keeps", rng.choice([1, 1, 2, 3, 5])))
        shape = rng.choices(["none", "up-to", "s-S"], [0.12, 0.44, 0.44])[0]
        pack = f.pack or 1
        daily = max(1.0, need[f.id] * max(n, 1))
        level = max(pack, int(daily * rng.choice([0.5, 0.9, 1.3, 2.0, 3.5])) + rng.randint(0, 3))
        if shape == "up-to":
            pairs.append(("restock", _flow([("up-to", level)])))
        elif shape == "s-S":
            below = rng.randint(0, level)
            sub = [("below", below), ("up-to", level)]
            if rng.random() < 0.75:
                sub.append(("lead", rng.choice([0, 1, 2, 3])))
            pairs.append(("restock", _flow(sub)))
        fruit_extra[f.id] = pairs
    for r in gb.recipes:
        if r.form != "short" and rng.random() < 0.5:
            recipe_extra[r.id] = [("keeps", rng.choice([1, 2, 3, 6]))]
    text = render(gb, fruit_extra, recipe_extra, {})
    traits = []
    if any("keeps" in dict(p) for p in fruit_extra.values()):
        traits.append("fruit keeps")
    if recipe_extra:
        traits.append("recipe keeps")
    if "lead:" in text:
        traits.append("lead")
    if all(f.cost is not None for f in gb.fruits):
        traits.append("all costs")
    return dict(seed=seed, text=text, days=days, runs=runs, demand=demand, n=n, mix=mix,
                plan_seed=rng.randrange(M64) if rng.random() < 0.5 else rng.randint(0, 1000),
                traits=traits)


def render(gb: gen.GenBook, fruit_extra: dict, recipe_extra: dict, _unused: dict) -> str:
    lines = ["version: 2", "fruits:"]
    for f in gb.fruits:
        pairs = [(k, v) for k, v in (("cost", f.cost), ("pack", f.pack)) if v is not None]
        pairs += fruit_extra.get(f.id, [])
        lines.append(f"  {f.id}: {_flow(pairs)}" if pairs else f"  {f.id}:")
    if gb.stock:
        lines.append("stock:")
        lines += [f"  {sid}: {n}" for sid, n in gb.stock]
    lines.append("recipes:")
    for r in gb.recipes:
        if r.form == "short":
            lines.append(f"  {r.id}: {_flow(r.ingredients)}")
        else:
            pairs = [("recipe", _flow(r.ingredients))]
            if r.form == "long":
                pairs.append(("yield", r.yield_))
            pairs += recipe_extra.get(r.id, [])
            lines.append(f"  {r.id}: {_flow(pairs)}")
    lines.append("menu:")
    for m in gb.menu:
        pairs = [("recipe", _flow(m.ingredients))]
        if m.price is not None:
            pairs.append(("price", m.price))
        lines.append(f"  {m.id}: {_flow(pairs)}")
    return "\n".join(lines) + "\n"


@pytest.mark.model
def test_model_generated_books_load_and_vary():
    """The random books load, and between them cover fixed and Poisson
    demand, a mix, fruit and recipe keeps, lead > 0, and books with and
    without every cost."""
    cases = [make_case(s) for s in range(FIRST_SEED, FIRST_SEED + CASES)]
    for c in cases:
        load(c["text"])
    assert {c["demand"] for c in cases} == {"fixed", "poisson"}
    assert any(c["mix"] for c in cases) and any(not c["mix"] for c in cases)
    for trait in ("fruit keeps", "recipe keeps", "lead", "all costs"):
        assert any(trait in c["traits"] for c in cases), trait
    assert any("all costs" not in c["traits"] for c in cases)
    assert any(c["runs"] == 1 for c in cases)


# ---------------------------------------------------------------------------
# The binary
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def plan_problem() -> str | None:
    if not JUICE_RUN.is_file():
        return f"juice-run not found at {JUICE_RUN} (set JUICE_RUN)"
    try:
        proc = subprocess.run([str(JUICE_RUN), "plan", "--help"], capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"`{JUICE_RUN} plan --help` could not run: {e}"
    text = proc.stdout + proc.stderr
    if proc.returncode != 0:
        return f"`{JUICE_RUN} plan --help` failed (exit {proc.returncode}): plan is not implemented"
    if "--orders-per-day" not in text or "--days" not in text:
        return (f"`{JUICE_RUN} plan --help` does not describe plan (no --days / --orders-per-day "
                f"in its help): plan is not implemented yet")
    return None


def need_plan() -> None:
    problem = plan_problem()
    if problem:
        pytest.fail(problem, pytrace=False)


def plan_args(book: pathlib.Path, days, runs, n, demand, seed, mix) -> list[str]:
    args = ["plan", "--recipes", str(book), "--format", "json", "--days", str(days), "--runs", str(runs),
            "--orders-per-day", str(n), "--demand", demand, "--seed", str(seed)]
    if mix:
        args += ["--mix", mix]
    return args


def run_plan(args: list[str]) -> tuple[dict, str]:
    proc = subprocess.run([str(JUICE_RUN), *args], capture_output=True, text=True, timeout=120)
    command = shlex.join([str(JUICE_RUN), *args])
    if proc.returncode != 0:
        pytest.fail(f"exit {proc.returncode}: {command}\n{proc.stderr[:3000]}", pytrace=False)
    try:
        return json.loads(proc.stdout, parse_float=Decimal), command
    except json.JSONDecodeError as e:
        pytest.fail(f"not one JSON object ({e}): {command}\n{proc.stdout[:2000]}", pytrace=False)


def _num(x) -> float | None:
    if x is None or isinstance(x, bool):
        return None
    return float(x)


def close(expected: float, actual, tol: float = 1e-9) -> bool:
    a = _num(actual)
    return a is not None and abs(a - expected) <= tol * max(1.0, abs(expected))


def compare(expected: dict, actual: dict, money_keys=plan.MONEY_KEYS) -> list[str]:
    """Every difference, as `path: expected X, got Y`, in document order."""
    bad: list[str] = []

    def note(path, e, a):
        bad.append(f"{path}: expected {e!r}, got {a!r}")

    # settings
    for key, value in expected["settings"].items():
        if actual.get("settings", {}).get(key) != value:
            note(f"settings.{key}", value, actual.get("settings", {}).get(key))
    runs = actual.get("perRun")
    if not isinstance(runs, list) or len(runs) != len(expected["perRun"]):
        note("perRun (length)", len(expected["perRun"]), None if not isinstance(runs, list) else len(runs))
        return bad
    for i, (e, a) in enumerate(zip(expected["perRun"], runs)):
        p = f"perRun[{i}]"
        for key in ("run", "orders", "served", "refused", "daysWithoutRefusal"):
            if type(a.get(key)) is not int or a.get(key) != e[key]:
                note(f"{p}.{key}", e[key], a.get(key))
        for key in ("fillRate", "cycleServiceLevel"):
            if not close(e[key], a.get(key)):
                note(f"{p}.{key}", e[key], a.get(key))
        fruits = a.get("fruits")
        if not isinstance(fruits, dict) or list(fruits) != list(e["fruits"]):
            note(f"{p}.fruits (keys, in book order)", list(e["fruits"]),
                 list(fruits) if isinstance(fruits, dict) else fruits)
        else:
            for f, ef in e["fruits"].items():
                af = fruits[f]
                for key in ("shortDays", "wasted", "bought"):
                    if type(af.get(key)) is not int or af.get(key) != ef[key]:
                        note(f"{p}.fruits.{f}.{key}", ef[key], af.get(key))
                if not close(ef["averageOnHand"], af.get("averageOnHand")):
                    note(f"{p}.fruits.{f}.averageOnHand", ef["averageOnHand"], af.get("averageOnHand"))
        for key in money_keys:
            want = plan.money_2dp(e[key])
            got = a.get(key, "<missing>")
            got_d = None if got is None else (Decimal(got) if isinstance(got, (int, Decimal)) else got)
            if want != got_d:
                note(f"{p}.{key}", None if want is None else str(want), got)
    # summary
    s = actual.get("summary")
    if not isinstance(s, dict):
        note("summary", "an object", s)
        return bad
    def cell(path, e, a, money):
        if e["mean"] is None and a is None:
            return  # an unknown figure: null, or (below) mean, low and high null
        if not isinstance(a, dict):
            note(path, "{mean, low, high}", a)
            return
        if e["mean"] is None:
            for k in ("mean", "low", "high"):
                if a.get(k, "<missing>") is not None:
                    note(f"{path}.{k}", None, a.get(k, "<missing>"))
            return
        tol_abs = 0.0051 if money else 0.0
        # low and high are mean -/+ half: 1e-9 relative to the larger of the two,
        # since a low near 0 is the difference of two larger numbers.
        scale = max(1.0, abs(float(e["mean"])),
                    0.0 if e["low"] is None else abs(float(e["mean"]) - e["low"]))
        for k in ("mean", "low", "high"):
            want = e[k]
            got = a.get(k, "<missing>")
            if want is None:
                if got is not None:
                    note(f"{path}.{k}", None, got)
                continue
            want_f = float(want)
            g = _num(got) if got != "<missing>" else None
            if g is None or abs(g - want_f) > max(tol_abs, 1e-9 * scale):
                note(f"{path}.{k}", want_f, got)

    es = expected["summary"]
    for key in ("fillRate", "cycleServiceLevel"):
        cell(f"summary.{key}", es[key], s.get(key), False)
    fr = s.get("fruits")
    if not isinstance(fr, dict) or list(fr) != list(es["fruits"]):
        note("summary.fruits (keys, in book order)", list(es["fruits"]),
             list(fr) if isinstance(fr, dict) else fr)
    else:
        for f, ef in es["fruits"].items():
            for key, ec in ef.items():
                cell(f"summary.fruits.{f}.{key}", ec, fr[f].get(key) if isinstance(fr[f], dict) else None,
                     False)
    for key in money_keys:
        cell(f"summary.{key}", es[key], s.get(key), True)
    return bad


def differential(text: str, days, runs, n, demand, seed, mix, where: pathlib.Path, label: str,
                 extra: list[str] | None = None) -> dict:
    need_plan()
    where.mkdir(parents=True, exist_ok=True)
    book = where / "book.yaml"
    book.write_text(text, encoding="utf-8")
    args = plan_args(book, days, runs, n, demand, seed, mix)
    actual, command = run_plan(args)
    expected = plan.report(load(text), days, runs, n, demand, seed, mix)
    bad = compare(expected, actual)
    if bad:
        model_cmd = shlex.join([".build/venv/bin/python", "Tests/Reference/plan_reference.py", str(book),
                                *args[5:]])
        shown = "\n  ".join(bad[:15]) + (f"\n  ... {len(bad) - 15} more" if len(bad) > 15 else "")
        pytest.fail(f"{label}: juice-run plan differs from the model.\n"
                    f"first difference: {bad[0]}\n  {shown}\n"
                    f"reproduce: {command}\n"
                    f"model:     {model_cmd}\n"
                    f"book ({book}):\n{text}", pytrace=False)
    return actual


@pytest.mark.parametrize("name", list(ANCHORS))
def test_binary_anchor(name, tmp_path):
    """The anchor books worked by hand, 3 runs of fixed demand (all equal),
    through the binary: the per-run figures must be the hand-worked ones
    (via the model, which test_model_anchor holds to them)."""
    a = ANCHORS[name]
    actual = differential(a["text"], a["days"], 3, a["n"], "fixed", 7, None, tmp_path, f"anchor {name}")
    first = actual["perRun"][0]
    exp = a["expect"]
    assert first["orders"] == exp["orders"] and first["served"] == exp["served"]
    for f, b in exp["bought"].items():
        assert first["fruits"][f]["bought"] == b


@pytest.mark.parametrize("seed", range(FIRST_SEED, FIRST_SEED + CASES))
def test_binary_differential(seed, tmp_path):
    case = make_case(seed)
    label = (f"case {seed} ({case['demand']}, N={case['n']}, {case['days']} days, {case['runs']} runs, "
             f"mix={case['mix']}, {', '.join(case['traits']) or 'no keeps/lead/costs'})")
    differential(case["text"], case["days"], case["runs"], case["n"], case["demand"], case["plan_seed"],
                 case["mix"], tmp_path, label)


def test_binary_poisson_larger_day(tmp_path):
    """N = 75 (3 parts of 25) and N = 1,000 (34 parts): the sampler's split,
    on a book with (s, S) lead 1 and keeps."""
    text = book_text("  apple: { cost: 3, pack: 6, keeps: 3, restock: { below: 40, up-to: 90, lead: 1 } }\n"
                     "  kiwi: { cost: 2, restock: { up-to: 50 } }\n",
                     "  juice: { recipe: { apple: 1 }, price: 40 }\n"
                     "  green: { recipe: { kiwi: 1, apple: 1 }, price: 55 }\n", stock="  apple: 30\n")
    differential(text, 8, 3, 75, "poisson", 12345, None, tmp_path / "a", "poisson N=75")
    differential(text, 2, 2, 1000, "poisson", 2 ** 64 - 1, "green=3,juice=1", tmp_path / "b",
                 "poisson N=1000")


def test_binary_adding_runs_keeps_the_first(tmp_path):
    """Run k depends on the seed and k alone: 2 runs are the first 2 of 5."""
    need_plan()
    case = make_case(3)
    (tmp_path / "book.yaml").write_text(case["text"], encoding="utf-8")
    two, _ = run_plan(plan_args(tmp_path / "book.yaml", 6, 2, 5, "poisson", 77, case["mix"]))
    five, _ = run_plan(plan_args(tmp_path / "book.yaml", 6, 5, 5, "poisson", 77, case["mix"]))
    assert two["perRun"] == five["perRun"][:2]


def test_binary_zero_width_intervals(tmp_path):
    """--demand fixed, a one-item mix: low == high == mean everywhere but
    the shares, which have the Wilson interval of their pooled counts."""
    actual = differential(ZERO_WIDTH_BOOK, 9, 4, 4, "fixed", 5, "juice=1", tmp_path, "zero width")
    shares = share_counts(actual)
    for path, c in flatten(actual["summary"]):
        if c["mean"] is not None and path not in shares:
            assert Decimal(c["low"]) == Decimal(c["high"]) == Decimal(c["mean"]), (path, c)
    check_wilson(actual, "zero width")


@pytest.mark.parametrize("runs,seed", [(2, 3), (2, 8), (3, 3), (40, 3)])
def test_binary_share_intervals_are_wilson_within_0_1(runs, seed, tmp_path):
    """One day of Poisson demand against 20 apples: with 2 runs, one day
    short and one not, mean -/+ t s / sqrt(R) gave the cycle service level
    [-5.85, 6.85]. Every share's bounds must be the Wilson score interval
    of its pooled counts, within [0, 1]."""
    need_plan()
    text = book_text("  apple: { cost: 1, restock: { up-to: 20 } }\n",
                     "  juice: { recipe: { apple: 1 }, price: 5 }\n")
    (tmp_path / "book.yaml").write_text(text, encoding="utf-8")
    out, command = run_plan(plan_args(tmp_path / "book.yaml", 1, runs, 20, "poisson", seed, None))
    check_wilson(out, command)


@pytest.mark.parametrize("runs", [2, 3, 5, 11, 31, 40, 50, 60, 101, 200, 1000])
def test_binary_t_quantile(runs, tmp_path):
    """The interval's t: (high - low) / 2 / (s / sqrt(R)), from the binary's
    own per-run apples on hand, is the 97.5% quantile of Student's t with
    R - 1 degrees of freedom to 1e-9 relative (one day of Poisson demand
    of 20 against 30 apples, so that what is left varies; the shares have
    the Wilson interval instead)."""
    need_plan()
    text = book_text("  apple: { cost: 1, restock: { up-to: 30 } }\n",
                     "  juice: { recipe: { apple: 1 }, price: 5 }\n")
    (tmp_path / "book.yaml").write_text(text, encoding="utf-8")
    out, command = run_plan(plan_args(tmp_path / "book.yaml", 1, runs, 20, "poisson", 3, None))
    xs = [Fraction(Decimal(r["fruits"]["apple"]["averageOnHand"])) for r in out["perRun"]]
    mean = sum(xs) / runs
    s = math.sqrt(float(sum((x - mean) ** 2 for x in xs) / (runs - 1)))
    cell = out["summary"]["fruits"]["apple"]["averageOnHand"]
    implied = float(Decimal(cell["high"]) - Decimal(cell["low"])) / 2 / (s / math.sqrt(runs))
    want = plan.t975(runs - 1)
    assert abs(implied / want - 1) <= 1e-9, (
        f"t({runs - 1} df): the binary's interval implies {implied!r}, the 97.5% quantile is "
        f"{want!r} (relative error {implied / want - 1:.2e}); reproduce: {command}")


def test_binary_gross_margin_without_prices(tmp_path):
    """Every fruit has a cost but no menu item a price: revenue is null.
    The doc says grossMargin is revenue - purchases and null 'when a fruit
    has no cost'; the model ASSUMES it is null here too (an unknown
    revenue), while purchases and wasteAtCost are numbers."""
    text = book_text("  apple: { cost: 3, restock: { up-to: 5 } }\n",
                     "  juice: { recipe: { apple: 1 } }\n")
    differential(text, 3, 2, 2, "fixed", 1, None, tmp_path, "no prices, all costs")
