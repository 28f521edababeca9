"""An independent reference model of `juice-run plan` (docs/planning.md).

What it models: many simulated days of random demand against a version-2
recipe book with restocking (`restock: { up-to: S }`, or an (s, S) policy
`restock: { below: s, up-to: S, lead: L }`) and shelf life (`keeps: N` on
fruits and recipes), repeated over independent runs, and the figures
`juice-run plan --format json` prints per run and across runs.

How it is independent of the Swift code:
- Making an order is `batch_reference.plan_serially`: one serving at a
  time, never the engine's closed formula.
- Inventory is a list of lots (received day, units) per fruit and per
  recipe; the day's use comes out of the oldest lots first in the evening,
  then every lot on its last day is thrown away.
- The random stream is written out from docs/planning.md "The random
  stream, exactly": SplitMix64 with Python ints masked to 64 bits, the
  Lemire bounded draw, uniforms, and the Poisson sampler with the
  hand-written e^(-mu). Python floats are IEEE 754 doubles and CPython does
  not fuse operations, so the draws are bit for bit those of the spec.
- Money is exact (`fractions.Fraction`), rounded once (2 places, half to
  even) only where it is compared with what the binary prints.
- Across runs: the mean and the sample variance are exact Fractions of the
  per-run values, so identical runs give an interval of width exactly 0;
  the 97.5% Student-t quantile is computed here from the regularized
  incomplete beta function (no scipy in the venv). The shares (fill rate,
  cycle service level, short days) have the Wilson score interval instead,
  on the counts pooled over the runs: here the two roots of its quadratic,
  with exact rational coefficients.

`python plan_reference.py BOOK [--days D] [--runs R] [--orders-per-day N]
[--demand poisson|fixed] [--mix ID=W,...] [--seed S]` prints the JSON the
model expects, to compare with the binary by hand.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import pathlib
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Iterable

import yaml

import batch_reference as ref

MASK = (1 << 64) - 1

# ---------------------------------------------------------------------------
# The random stream, exactly (docs/planning.md)
# ---------------------------------------------------------------------------

GOLDEN = 0x9E3779B97F4A7C15
DERIVE_STEP = 0xD1B54A32D192ED03
DERIVE_MUL = 0xD6E8FEB86659FD93


def derive(seed: int, k: int) -> int:
    """Run k's starting state: z = S + k*0xD1B5...; two xor-shift-multiply
    rounds by 0xD6E8...; a last xor-shift. All wrapping 64-bit."""
    z = (seed + k * DERIVE_STEP) & MASK
    z = ((z ^ (z >> 32)) * DERIVE_MUL) & MASK
    z = ((z ^ (z >> 32)) * DERIVE_MUL) & MASK
    return z ^ (z >> 32)


class Stream:
    """OrderGenerator (Sources/JuiceSimulation/OrderGenerator.swift):
    SplitMix64, Lemire's bounded draw, and `next()` by the mix's running
    totals (saturating at 2^64 - 1, as the Swift does)."""

    def __init__(self, state: int, menu_count: int, weights: list[int] | None = None):
        self.state = state & MASK
        self.count = max(menu_count, 1)
        self.cumulative: list[int] | None = None
        if weights is not None:
            running, cum = 0, []
            for w in weights:
                running = MASK if running + w > MASK else running + w
                cum.append(running)
            self.cumulative = cum

    def next_raw(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def bounded(self, bound: int) -> int:
        """Uniform in 0..<bound: the high word of raw * bound, redrawn while
        the low word is below (2^64 - bound) mod bound."""
        product = self.next_raw() * bound
        low = product & MASK
        if low < bound:
            threshold = ((1 << 64) - bound) % bound
            while low < threshold:
                product = self.next_raw() * bound
                low = product & MASK
        return product >> 64

    def next(self) -> int:
        """The next order's menu index."""
        if not self.cumulative or self.cumulative[-1] == 0:
            return self.bounded(self.count)
        draw = self.bounded(self.cumulative[-1])
        lo, hi = 0, len(self.cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cumulative[mid] > draw:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def uniform(self) -> float:
        """(next 64-bit output >> 11) * 2^-53, in [0, 1)."""
        return (self.next_raw() >> 11) * (2.0 ** -53)


def exp_neg(mu: float) -> float:
    """e^(-mu) as the spec computes it: y = mu / 64; the Taylor series of
    e^(-y) to 20 terms; squared six times."""
    y = mu / 64.0
    s = 1.0
    t = 1.0
    for i in range(1, 21):
        t = t * (-y) / float(i)
        s = s + t
    for _ in range(6):
        s = s * s
    return s


POISSON_CAP = 100_000


def poisson(stream: Stream, n: int) -> int:
    """A day's count, Poisson with mean n > 0: m = ceil(n / 30) parts of
    mu = n / m, each drawn by inversion from one uniform."""
    if n <= 0:
        return 0  # assumed: N = 0 draws nothing (the doc defines the sampler for N > 0)
    m = -(-n // 30)
    mu = float(n) / float(m)
    total = 0
    for _ in range(m):
        u = stream.uniform()
        p = exp_neg(mu)
        f = p
        k = 0
        while u >= f and k < POISSON_CAP:
            k += 1
            p = p * mu / float(k)
            f = f + p
        total += k
    return total


# ---------------------------------------------------------------------------
# Student's t, 97.5% quantile
# ---------------------------------------------------------------------------


def t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with an integer df, by the finite sums of
    Abramowitz and Stegun 26.7.3 and 26.7.4 (theta = atan(t / sqrt(df))):
    odd df:  (2 / pi) (theta + sin theta (cos theta + 2/3 cos^3 theta + ...
              + (2 4 ... (df-3)) / (1 3 ... (df-2)) cos^(df-2) theta)),
    even df: sin theta (1 + 1/2 cos^2 theta + ... + (1 3 ... (df-3)) /
              (2 4 ... (df-2)) cos^(df-2) theta).
    Every term is positive, so the sum is accurate to a few ulps."""
    theta = math.atan(t / math.sqrt(df))
    c, sn = math.cos(theta), math.sin(theta)
    c2 = c * c
    if df % 2 == 1:
        if df == 1:
            return 2.0 * theta / math.pi
        term = c
        total = c
        for j in range(3, df - 1, 2):  # term for cos^j: previous * (j-1)/j * cos^2
            term = term * (j - 1) / j * c2
            total += term
        return 2.0 / math.pi * (theta + sn * total)
    term = 1.0
    total = 1.0
    for j in range(2, df - 1, 2):  # term for cos^j: previous * (j-1)/j * cos^2
        term = term * (j - 1) / j * c2
        total += term
    return sn * total


_T975: dict[int, float] = {}


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with df degrees of freedom."""
    if df in _T975:
        return _T975[df]
    if df == 1:
        value = math.tan(math.pi * 0.475)
    else:
        lo, hi = 1.95, 13.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid == lo or mid == hi:
                break
            if t_two_sided(mid, df) < 0.95:
                lo = mid
            else:
                hi = mid
        value = (lo + hi) / 2
    _T975[df] = value
    return value


# ---------------------------------------------------------------------------
# The book: batch_reference's book plus keeps and restock
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Restock:
    up_to: int
    below: int | None = None  # None: `up-to` only (bought every morning)
    lead: int = 0

    @property
    def is_s_s(self) -> bool:
        return self.below is not None


@dataclasses.dataclass
class PlanBook:
    book: ref.Book
    fruit_keeps: dict[str, int]  # fruit -> days; absent: never spoils
    recipe_keeps: dict[str, int]
    restock: dict[str, Restock]  # fruit -> policy; absent: never restocked

    @property
    def has_all_costs(self) -> bool:
        return all(f.cost is not None for f in self.book.fruits.values())


def _whole(value, minimum: int, what: str) -> int:
    if type(value) is not int or value < minimum:
        raise ref.BookError(f"{what}: {value!r} is not a whole number >= {minimum}")
    return value


def load_plan_book(path: str | os.PathLike) -> PlanBook:
    return load_plan_book_texts([(str(p), p.read_text(encoding="utf-8")) for p in ref.book_files(path)])


def load_plan_book_texts(files: Iterable[tuple[str, str]]) -> PlanBook:
    """Takes `keeps` and `restock` out of fruits and long-form recipes, and
    hands the rest to batch_reference.load_book_texts."""
    fruit_keeps: dict[str, int] = {}
    recipe_keeps: dict[str, int] = {}
    restock: dict[str, Restock] = {}
    cleaned: list[tuple[str, str]] = []
    for name, text in files:
        docs = []
        for doc in yaml.safe_load_all(text):
            if isinstance(doc, dict):
                for fid, body in (doc.get("fruits") or {}).items():
                    if not isinstance(body, dict):
                        continue
                    if "keeps" in body:
                        fruit_keeps[fid] = _whole(body.pop("keeps"), 1, f"{fid} keeps")
                    if "restock" in body:
                        r = body.pop("restock")
                        if not isinstance(r, dict) or "up-to" not in r:
                            raise ref.BookError(f"{fid}: restock needs up-to")
                        for key in r:
                            if key not in ("up-to", "below", "lead"):
                                raise ref.BookError(f"{fid}: restock: unknown key {key!r}")
                        up_to = _whole(r["up-to"], 0, f"{fid} up-to")
                        below = None if "below" not in r else _whole(r["below"], 0, f"{fid} below")
                        if below is not None and below > up_to:
                            raise ref.BookError(f"{fid}: restock-below-above-up-to")
                        lead = _whole(r.get("lead", 0), 0, f"{fid} lead")
                        if below is None and "lead" in r:
                            # Outside the model: the doc gives lead only with below.
                            raise ref.BookError(f"{fid}: lead without below")
                        restock[fid] = Restock(up_to, below, lead)
                for rid, body in (doc.get("recipes") or {}).items():
                    if isinstance(body, dict) and "recipe" in body and "keeps" in body:
                        recipe_keeps[rid] = _whole(body.pop("keeps"), 1, f"{rid} keeps")
            docs.append(doc)
        cleaned.append((name, yaml.safe_dump_all(docs, sort_keys=False, allow_unicode=True)))
    book = ref.load_book_texts(cleaned)
    if book.version != 2:
        raise ref.BookError("keeps and restock need version: 2")
    return PlanBook(book, fruit_keeps, recipe_keeps, restock)


# ---------------------------------------------------------------------------
# Lots
# ---------------------------------------------------------------------------


class Lots:
    """Units of one fruit or one recipe, as [received day, units] oldest
    first."""

    def __init__(self, keeps: int | None):
        self.keeps = keeps
        self.lots: list[list[int]] = []

    @property
    def total(self) -> int:
        return sum(n for _, n in self.lots)

    def receive(self, day: int, units: int) -> None:
        if units <= 0:
            return
        if self.lots and self.lots[-1][0] == day:
            self.lots[-1][1] += units  # received today: one lot
        else:
            assert not self.lots or self.lots[-1][0] < day
            self.lots.append([day, units])

    def use(self, units: int) -> None:
        """The oldest lots first."""
        while units:
            lot = self.lots[0]
            taken = min(units, lot[1])
            lot[1] -= taken
            units -= taken
            if lot[1] == 0:
                self.lots.pop(0)
        assert units == 0

    def spoil(self, day: int) -> int:
        """Throw away every lot on its last day (received r, keeps N: the
        end of day r + N - 1); the units thrown away."""
        if self.keeps is None:
            return 0
        thrown = sum(n for r, n in self.lots if r + self.keeps - 1 <= day)
        self.lots = [lot for lot in self.lots if lot[0] + self.keeps - 1 > day]
        return thrown


# ---------------------------------------------------------------------------
# One run
# ---------------------------------------------------------------------------


@dataclasses.dataclass
class RunFigures:
    orders: int = 0
    served: int = 0
    refused: int = 0
    days_without_refusal: int = 0
    days: int = 0
    short_days: dict[str, int] = dataclasses.field(default_factory=dict)
    wasted: dict[str, int] = dataclasses.field(default_factory=dict)
    on_hand_sum: dict[str, int] = dataclasses.field(default_factory=dict)  # end of day, summed
    bought: dict[str, int] = dataclasses.field(default_factory=dict)
    wasted_servings: dict[str, int] = dataclasses.field(default_factory=dict)
    revenue: int | None = None
    purchases: Fraction | None = None
    waste_at_cost: Fraction | None = None
    gross_margin: Fraction | None = None
    trace: list[dict] | None = None

    @property
    def fill_rate(self) -> float:
        return 1.0 if self.orders == 0 else self.served / self.orders

    @property
    def cycle_service_level(self) -> float:
        return self.days_without_refusal / self.days

    def average_on_hand(self, fruit: str) -> float:
        return self.on_hand_sum[fruit] / self.days

    def short_day_share(self, fruit: str) -> float:
        return self.short_days[fruit] / self.days


def packs_to_reach(have: int, target: int, pack: int) -> int:
    """Units in the fewest whole packs that bring `have` to at least `target`."""
    missing = target - have
    return 0 if missing <= 0 else -(-missing // pack) * pack


def simulate_run(pb: PlanBook, days: int, orders_per_day: int, demand: str, stream: Stream,
                 trace: bool = False) -> RunFigures:
    book = pb.book
    fruits = list(book.fruits)
    recipes = list(book.recipes)
    menu_ids = list(book.menu)
    fl = {f: Lots(pb.fruit_keeps.get(f)) for f in fruits}
    rl = {r: Lots(pb.recipe_keeps.get(r)) for r in recipes}
    for f in fruits:
        fl[f].receive(1, book.fruit_stock.get(f, 0))  # the opening stock: received on day 1
    for r in recipes:
        rl[r].receive(1, book.recipe_stock.get(r, 0))
    on_order: dict[str, list[tuple[int, int]]] = {f: [] for f in fruits}  # (arrival day, units)
    fig = RunFigures(days=days, short_days={f: 0 for f in fruits}, wasted={f: 0 for f in fruits},
                     on_hand_sum={f: 0 for f in fruits}, bought={f: 0 for f in fruits},
                     wasted_servings={r: 0 for r in recipes}, trace=[] if trace else None)
    revenue = 0
    for d in range(1, days + 1):
        # 1. Morning: (s, S) arrivals, then up-to-only purchases; one lot for today.
        arrived = {f: 0 for f in fruits}
        bought_today = {f: 0 for f in fruits}
        for f in fruits:
            policy = pb.restock.get(f)
            if policy is None:
                continue
            if policy.is_s_s:
                due = [u for day, u in on_order[f] if day == d]
                on_order[f] = [(day, u) for day, u in on_order[f] if day != d]
                arrived[f] = sum(due)
                fl[f].receive(d, arrived[f])
        for f in fruits:
            policy = pb.restock.get(f)
            if policy is not None and not policy.is_s_s:
                units = packs_to_reach(fl[f].total, policy.up_to, book.fruits[f].pack)
                fl[f].receive(d, units)
                fig.bought[f] += units
                bought_today[f] += units
        # 2. Orders: the count, then the items, one per order.
        count = orders_per_day if demand == "fixed" else poisson(stream, orders_per_day)
        items = [menu_ids[stream.next()] for _ in range(count)]
        stock = {f: fl[f].total for f in fruits}
        on_hand = {r: rl[r].total for r in recipes}
        used = {f: 0 for f in fruits}
        made = {r: 0 for r in recipes}
        servings_used = {r: 0 for r in recipes}
        short_today: set[str] = set()
        refused_today = served_today = 0
        for mid in items:
            out = ref.plan_serially(book, mid, stock, on_hand)
            if out.served:
                served_today += 1
                revenue += book.menu[mid].price or 0
                for f, n in out.taken.items():
                    stock[f] -= n
                    used[f] += n
                for r in recipes:
                    produced = out.batches.get(r, 0) * book.recipes[r].yield_
                    made[r] += produced
                    servings_used[r] += on_hand[r] + produced - out.on_hand_after[r]
                on_hand = dict(out.on_hand_after)
            else:
                refused_today += 1
                short_today.update(f for f, _, _ in out.short)
        fig.orders += count
        fig.served += served_today
        fig.refused += refused_today
        if refused_today == 0:
            fig.days_without_refusal += 1
        for f in short_today:
            fig.short_days[f] += 1
        # 3. Evening: the day's use from the oldest lots, then spoilage.
        wasted_today = {}
        for f in fruits:
            fl[f].use(used[f])
            assert fl[f].total == stock[f]
            w = fl[f].spoil(d)
            fig.wasted[f] += w
            wasted_today[f] = w
            fig.on_hand_sum[f] += fl[f].total
        for r in recipes:
            rl[r].receive(d, made[r])
            rl[r].use(servings_used[r])
            assert rl[r].total == on_hand[r]
            fig.wasted_servings[r] += rl[r].spoil(d)
        # 4. Review: (s, S) orders, counted when placed.
        placed = {}
        for f in fruits:
            policy = pb.restock.get(f)
            if policy is None or not policy.is_s_s:
                continue
            position = fl[f].total + sum(u for _, u in on_order[f])
            if position < policy.below:
                units = packs_to_reach(position, policy.up_to, book.fruits[f].pack)
                on_order[f].append((d + policy.lead + 1, units))
                fig.bought[f] += units
                bought_today[f] += units
                placed[f] = (units, d + policy.lead + 1)
        if trace:
            fig.trace.append({"day": d, "arrived": arrived, "bought": bought_today, "orders": count,
                              "served": served_today, "refused": refused_today,
                              "short": sorted(short_today), "used": used, "wasted": wasted_today,
                              "onHand": {f: fl[f].total for f in fruits},
                              "servings": {r: rl[r].total for r in recipes}, "placed": placed})
    fig.revenue = revenue if book.has_prices else None
    fig.purchases, fig.waste_at_cost, fig.gross_margin = run_money(pb, fig)
    return fig


# docs/planning.md: "Money figures need every fruit to declare a `cost`;
# otherwise they are unknown". JUICE_PLAN_MONEY_RULE=used switches to the
# other reading (as `juice-run` does for a day: money only when some fruit
# has a cost, and a figure unknown only when a cost it actually uses is: a
# fruit bought, a fruit or a recipe serving thrown away), to see whether a
# binary that reads it so agrees on everything else.
MONEY_RULE = os.environ.get("JUICE_PLAN_MONEY_RULE", "every-fruit")


def run_money(pb: PlanBook, fig: RunFigures) -> tuple[Fraction | None, Fraction | None, Fraction | None]:
    """purchases, wasteAtCost, grossMargin, exact."""
    book = pb.book
    memo: dict = {}

    def total(terms: list[tuple[int, Fraction | None]]) -> Fraction | None:
        if not (pb.has_all_costs if MONEY_RULE == "every-fruit" else book.has_money):
            return None
        out = Fraction(0)
        for units, cost in terms:
            if units:
                if cost is None:
                    return None
                out += units * cost
        return out

    def fruit_cost(f: str) -> Fraction | None:
        c = book.fruits[f].cost
        return None if c is None else Fraction(c)

    purchases = total([(fig.bought[f], fruit_cost(f)) for f in book.fruits])
    waste = total([(fig.wasted[f], fruit_cost(f)) for f in book.fruits]
                  + [(fig.wasted_servings[r], ref.cost_per_serving(book, r, memo)) for r in book.recipes])
    # Assumed: unknown (null) when the revenue is (no menu item has a price).
    margin = None if (fig.revenue is None or purchases is None) else fig.revenue - purchases
    return purchases, waste, margin


# ---------------------------------------------------------------------------
# Many runs and the report
# ---------------------------------------------------------------------------


def parse_mix(mix: str | None, book: ref.Book) -> list[int] | None:
    if mix is None:
        return None
    weights = [0] * len(book.menu)
    ids = list(book.menu)
    for part in mix.split(","):
        if not part:
            continue
        key, _, value = part.partition("=")
        weights[ids.index(key.strip())] = int(value.strip())
    return weights


def plan(pb: PlanBook, days: int, runs: int, orders_per_day: int, demand: str, seed: int,
         mix: str | None = None) -> list[RunFigures]:
    weights = parse_mix(mix, pb.book)
    out = []
    for k in range(1, runs + 1):
        stream = Stream(derive(seed, k), len(pb.book.menu), weights)
        out.append(simulate_run(pb, days, orders_per_day, demand, stream))
    return out


def money_2dp(value: Fraction | int | None) -> Decimal | None:
    return ref.money_2dp(None if value is None else Fraction(value))


def per_run_json(pb: PlanBook, k: int, fig: RunFigures) -> dict:
    """The per-run object, money exact (Fraction) and floats as floats."""
    return {
        "run": k, "orders": fig.orders, "served": fig.served, "refused": fig.refused,
        "daysWithoutRefusal": fig.days_without_refusal,
        "fillRate": fig.fill_rate, "cycleServiceLevel": fig.cycle_service_level,
        "fruits": {f: {"shortDays": fig.short_days[f], "wasted": fig.wasted[f],
                       "averageOnHand": fig.average_on_hand(f), "bought": fig.bought[f]}
                   for f in pb.book.fruits},
        "revenue": None if fig.revenue is None else Fraction(fig.revenue),
        "purchases": fig.purchases, "wasteAtCost": fig.waste_at_cost, "grossMargin": fig.gross_margin,
    }


def interval(values: list) -> dict:
    """mean, and mean -/+ t * s / sqrt(R); None for low and high with one
    run; None throughout when any value is None. The mean and s^2 are exact
    over the values (each a float or a Fraction, exactly as a rational)."""
    if any(v is None for v in values):
        return {"mean": None, "low": None, "high": None}
    exact = [Fraction(v) for v in values]
    r = len(exact)
    mean = sum(exact, Fraction(0)) / r
    if r == 1:
        return {"mean": mean, "low": None, "high": None}
    var = sum(((x - mean) ** 2 for x in exact), Fraction(0)) / (r - 1)
    half = t975(r - 1) * math.sqrt(float(var)) / math.sqrt(r)
    return {"mean": mean, "low": float(mean) - half, "high": float(mean) + half}


# The normal distribution's 97.5% quantile, as docs/planning.md gives it.
Z975 = 1.959963984540054


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval for `successes` of `trials` (> 0): the
    p in [0, 1] with (k/n - p)^2 <= z^2 p (1 - p) / n, that is, between the
    roots of (n + z^2) p^2 - (2k + z^2) p + k^2/n = 0. The coefficients and
    the discriminant, z^2 (z^2 + 4k(n - k)/n), are exact Fractions (z is
    the double above, exactly); only its square root is a float. The larger
    root has no cancellation; the smaller is the product of the roots,
    (k^2/n) / (n + z^2), over it (Vieta), so 0 successes give exactly 0.
    The high end is 1 less the low end of the failures (the interval is
    symmetric under k -> n - k), so n successes give exactly 1."""
    def low(k: Fraction, n: Fraction) -> Fraction:
        if k == 0:
            return Fraction(0)
        zz = Fraction(Z975) ** 2
        a, b, c = n + zz, 2 * k + zz, k * k / n
        larger = (b + Fraction(math.sqrt(float(zz * (zz + 4 * k * (n - k) / n))))) / (2 * a)
        return c / (a * larger)
    k, n = Fraction(successes), Fraction(trials)
    return float(low(k, n)), float(1 - low(n - k, n))


def share_interval(mean, successes: list[int], trials: list[int]) -> dict:
    """A share across runs: `mean` as given, and the Wilson interval on the
    successes and trials pooled over the runs; None for low and high with
    one run, [mean, mean] with no trials at all."""
    if len(successes) == 1:
        return {"mean": mean, "low": None, "high": None}
    k, n = sum(successes), sum(trials)
    if n == 0:
        return {"mean": mean, "low": float(mean), "high": float(mean)}
    low, high = wilson(k, n)
    return {"mean": mean, "low": low, "high": high}


def ratio_interval(served: list[int], orders: list[int]) -> dict:
    """The fill rate across runs: all orders served / all orders (1 with no
    orders), with the Wilson interval on those totals."""
    total_orders = sum(orders)
    ratio = Fraction(1) if total_orders == 0 else Fraction(sum(served), total_orders)
    return share_interval(ratio, served, orders)


def summary_json(pb: PlanBook, figs: list[RunFigures]) -> dict:
    return {
        "fillRate": ratio_interval([f.served for f in figs], [f.orders for f in figs]),
        "cycleServiceLevel": share_interval(interval([f.cycle_service_level for f in figs])["mean"],
                                            [f.days_without_refusal for f in figs], [f.days for f in figs]),
        "fruits": {fr: {"shortDayShare": share_interval(interval([f.short_day_share(fr) for f in figs])["mean"],
                                                        [f.short_days[fr] for f in figs], [f.days for f in figs]),
                        "wasted": interval([f.wasted[fr] for f in figs]),
                        "averageOnHand": interval([f.average_on_hand(fr) for f in figs]),
                        "bought": interval([f.bought[fr] for f in figs])}
                   for fr in pb.book.fruits},
        "revenue": interval([f.revenue for f in figs]),
        "purchases": interval([f.purchases for f in figs]),
        "wasteAtCost": interval([f.waste_at_cost for f in figs]),
        "grossMargin": interval([f.gross_margin for f in figs]),
    }


MONEY_KEYS = ("revenue", "purchases", "wasteAtCost", "grossMargin")


def report(pb: PlanBook, days: int, runs: int, orders_per_day: int, demand: str, seed: int,
           mix: str | None = None) -> dict:
    """What the model expects `juice-run plan --format json` to print, with
    exact values (Fractions) left unrounded."""
    figs = plan(pb, days, runs, orders_per_day, demand, seed, mix)
    return {"settings": {"days": days, "runs": runs, "ordersPerDay": orders_per_day,
                         "demand": demand, "seed": seed},
            "perRun": [per_run_json(pb, k, f) for k, f in enumerate(figs, start=1)],
            "summary": summary_json(pb, figs)}


def _printable(value):
    if isinstance(value, dict):
        return {k: _printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_printable(v) for v in value]
    if isinstance(value, Fraction):
        return float(value)
    return value


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="the reference model of juice-run plan")
    ap.add_argument("book")
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--orders-per-day", type=int, default=50)
    ap.add_argument("--demand", choices=["poisson", "fixed"], default="poisson")
    ap.add_argument("--mix")
    ap.add_argument("--seed", type=int, required=True)
    a = ap.parse_args(argv)
    pb = load_plan_book(a.book)
    out = report(pb, a.days, a.runs, a.orders_per_day, a.demand, a.seed, a.mix)
    json.dump(_printable(out), sys.stdout, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
