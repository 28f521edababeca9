"""`juice-run plan --history FILE`: demand learnt from a journal export
(issue 39, "Plans learnt from the journal"), through the real binary
($JUICE_RUN), on exports written by `history_export.py`, a writer of the
format that shares no code with the Swift side.

- (a) Each estimated mean's 95% interval holds the true mean the export was
  drawn from, as often as a 95% interval should: with n intervals, at most
  the misses that Binomial(n, 0.05) exceeds with probability 0.001 (the
  Garwood interval covers at least 95%, so this bound is safe). The seeds
  used have no miss at all. The same check fails on an export drawn from
  doubled means.
- (b) A plan from the history agrees with a plan from the true means within
  the intervals (see `test_a_plan_from_the_history_matches_the_true_means_within_the_intervals`).
- (c) Voids are left out, a refusal made good counts once, refunds count,
  exactly, on a small fixture.
- (d) Per-weekday estimation starts at 28 days with a day-open entry, plan
  days take their weekday's means, and the output names the days learnt from.
- CSV and JSONL exports give the same plan, byte for byte; the same seed
  gives the same bytes on one core and on all; bad input is a clear error.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import shutil
import subprocess

import pytest

from history_export import ExportWriter, poisson_history

JUICE_RUN = os.environ.get("JUICE_RUN", "")

BOOK = """\
version: 2
fruits:
  apple: { cost: 10, restock: { up-to: 18 } }
  kiwi: { cost: 20, restock: { up-to: 7 } }
  fig: { cost: 30, restock: { up-to: 2 } }
menu:
  apple-juice: { price: 50, recipe: { apple: 2 } }
  kiwi-juice: { price: 60, recipe: { kiwi: 1 } }
  mix-juice: { price: 70, recipe: { apple: 1, kiwi: 1 } }
  fig-juice: { price: 90, recipe: { fig: 1 } }
"""

# One mean for every day: 12 orders a day, mixed 6:3:2:1, so that
# `--orders-per-day 12 --mix apple-juice=6,...` gives the same means.
TRUE_MEANS = {"apple-juice": [6.0], "kiwi-juice": [3.0], "mix-juice": [2.0], "fig-juice": [1.0]}

# Different means by weekday (Monday first).
WEEKDAY_MEANS = {
    "apple-juice": [4, 4, 5, 5, 8, 10, 2],
    "kiwi-juice": [2, 2, 2, 3, 3, 5, 1],
    "mix-juice": [1, 1, 1, 1, 2, 3, 0.5],
    "fig-juice": [0.5, 0.5, 1, 1, 1, 2, 0.2],
}


def plan(tmp_path, *args, book=BOOK, export=None, name="history.jsonl", cores=None):
    assert JUICE_RUN, "set JUICE_RUN to the juice-run binary (make test does)"
    (tmp_path / "book.yaml").write_text(book)
    argv = [JUICE_RUN, "plan", "--recipes", str(tmp_path / "book.yaml"), *args]
    if export is not None:
        (tmp_path / name).write_text(export)
        argv += ["--history", str(tmp_path / name)]
    if cores is not None:
        argv = ["taskset", "-c", cores] + argv
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def learnt(tmp_path, export, *args):
    """The history block of a one-run plan's JSON."""
    result = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", "--format", "json", *args, export=export)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["settings"]["history"]


def binomial_tail(n: int, p: float, k: int) -> float:
    """P(X > k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k + 1, n + 1))


def allowed_misses(n: int) -> int:
    """The misses of n 95% intervals that are exceeded with probability at most 0.001."""
    return next(k for k in range(n + 1) if binomial_tail(n, 0.05, k) <= 0.001)


def misses(history: dict, means: dict[str, list[float]]) -> list[tuple]:
    """The (item, weekday, truth, low, high) whose interval misses the truth."""
    names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    out = []
    for row in history["means"]:
        by_weekday = means[row["item"]]
        truth = by_weekday[names.index(row["weekday"])] if row["weekday"] else by_weekday[0]
        if not row["low"] <= truth <= row["high"]:
            out.append((row["item"], row["weekday"], truth, row["low"], row["high"]))
    return out


def garwood(total: int, days: int) -> tuple[float, float]:
    """The exact 95% Poisson interval for a mean a day, by bisection on the
    Poisson distribution function: the low end λ with P(X ≥ T) = 0.025, the
    high end with P(X ≤ T) = 0.025, for X ~ Poisson(nλ)."""

    def cdf(k: int, mu: float) -> float:
        if mu == 0:
            return 1.0
        return sum(math.exp(-mu + j * math.log(mu) - math.lgamma(j + 1)) for j in range(k + 1))

    def solve(f, lo, hi):
        for _ in range(200):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    top = total + 20 * math.sqrt(total + 1) + 20
    low = 0.0 if total == 0 else solve(lambda mu: 1 - cdf(total - 1, mu) < 0.025, 0, top)
    high = solve(lambda mu: cdf(total, mu) > 0.025, 0, top)
    return low / days, high / days


# (a)


@pytest.mark.parametrize("days, means, seed", [(63, WEEKDAY_MEANS, 3), (20, TRUE_MEANS, 4)])
def test_the_true_means_fall_within_their_intervals(tmp_path, days, means, seed):
    history = learnt(tmp_path, poisson_history(means, days, seed).jsonl())
    rows = history["means"]
    assert len(rows) == len(means) * (7 if days >= 28 else 1)
    for row in rows:
        # The interval is the exact one for the units counted over the days.
        low, high = garwood(row["units"], row["days"])
        assert row["low"] == pytest.approx(low, rel=1e-6, abs=1e-9), row
        assert row["high"] == pytest.approx(high, rel=1e-6), row
        assert row["mean"] == pytest.approx(row["units"] / row["days"])
    missed = misses(history, means)
    assert len(missed) <= allowed_misses(len(rows)), missed
    assert missed == []  # the seeds were picked so that every interval holds


def test_the_interval_check_fails_on_a_history_of_doubled_means(tmp_path):
    doubled = {item: [2 * m for m in means] for item, means in WEEKDAY_MEANS.items()}
    history = learnt(tmp_path, poisson_history(doubled, 63, 3).jsonl())
    assert len(misses(history, WEEKDAY_MEANS)) > allowed_misses(len(history["means"]))


# (b)


def figures(result) -> dict:
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)["summary"]
    out = {("cycleServiceLevel", ""): summary["cycleServiceLevel"]}
    for fruit, estimates in summary["fruits"].items():
        out[("bought", fruit)] = estimates["bought"]
    return out


def mean_plan(tmp_path, means: dict[str, float], round_total, args):
    """A plan whose every item's mean is at most (`math.floor`) or at least
    (`math.ceil`) `means`: --orders-per-day is the rounded total, and --mix
    the means in proportion (in ten-thousandths)."""
    total = round_total(sum(means.values()))
    mix = ",".join(f"{item}={max(round(mean * 10_000), 1)}" for item, mean in means.items())
    return figures(plan(tmp_path, "--orders-per-day", str(total), "--mix", mix, *args))


def within(envelope_low: dict, envelope_high: dict, plan_figures: dict) -> list:
    """The figures of a plan outside the envelope of the plans at the
    intervals' ends: bought rises with demand, the service level falls; the
    plans' own 95% intervals absorb the simulation's noise."""
    outside = []
    for key, estimate in plan_figures.items():
        if key[0] == "bought":
            low, high = envelope_low[key]["low"], envelope_high[key]["high"]
        else:
            low, high = envelope_high[key]["low"], envelope_low[key]["high"]
        if not low <= estimate["mean"] <= high:
            outside.append((key, low, estimate["mean"], high))
    return outside


def envelope(tmp_path, history, args):
    low = {row["item"]: row["low"] for row in history["means"]}
    high = {row["item"]: row["high"] for row in history["means"]}
    return mean_plan(tmp_path, low, math.floor, args), mean_plan(tmp_path, high, math.ceil, args)


def test_a_plan_from_the_history_matches_the_true_means_within_the_intervals(tmp_path):
    """What "matches within the intervals" means for this planner: every
    figure compared here is monotone in each item's demand (the units of a
    fruit bought each morning up to its level rise with the orders; the
    share of days without a refusal falls), so the plans run at the
    intervals' low ends and at their high ends bound the plan at any means
    inside the intervals. The low plan's means are each at most the
    interval's low end (its --orders-per-day is the sum of the low ends
    rounded down, its --mix the low ends in proportion), the high plan's at
    least the high ends. Both the plan from the history (at the estimated
    means) and the plan from the true means (--orders-per-day 12 --mix
    6:3:2:1) must fall between them, each plan's figure taken as its mean
    and the envelope's ends as the bounding plans' own 95% intervals, which
    absorb the runs' noise. A history drawn from doubled means fails it."""
    args = ("--days", "30", "--runs", "200", "--seed", "7", "--format", "json")
    history_export = poisson_history(TRUE_MEANS, 27, 11).jsonl()
    history = learnt(tmp_path, history_export)
    assert misses(history, TRUE_MEANS) == []
    low, high = envelope(tmp_path, history, args)
    from_history = figures(plan(tmp_path, *args, export=history_export))
    from_truth = figures(plan(tmp_path, "--orders-per-day", "12", "--mix", "apple-juice=6,kiwi-juice=3,mix-juice=2,fig-juice=1", *args))
    assert within(low, high, from_history) == []
    assert within(low, high, from_truth) == []
    # The envelope is not so wide that anything fits: doubled demand falls outside.
    doubled = learnt(tmp_path, poisson_history({k: [2 * v[0]] for k, v in TRUE_MEANS.items()}, 27, 11).jsonl())
    low2, high2 = envelope(tmp_path, doubled, args)
    assert within(low2, high2, from_truth) != []


def test_csv_and_jsonl_exports_give_the_same_plan(tmp_path):
    writer = poisson_history(WEEKDAY_MEANS, 30, 5)
    args = ("--days", "10", "--runs", "20", "--seed", "3", "--format", "json")
    from_jsonl = plan(tmp_path, *args, export=writer.jsonl(), name="h.jsonl")
    from_csv = plan(tmp_path, *args, export=writer.csv(), name="h.csv")
    assert from_jsonl.returncode == 0, from_jsonl.stderr
    assert from_csv.returncode == 0, from_csv.stderr
    assert from_jsonl.stdout == from_csv.stdout
    assert json.loads(from_csv.stdout)["settings"]["history"]["perWeekday"] is True


def test_the_same_seed_gives_the_same_bytes_on_one_core_and_on_all(tmp_path):
    # taskset is util-linux's, on every Debian system: a missing one fails, not skips.
    assert shutil.which("taskset"), "taskset (util-linux) is needed"
    export = poisson_history(WEEKDAY_MEANS, 35, 6).jsonl()
    args = ("--days", "14", "--runs", "64", "--seed", "99", "--format", "json")
    everywhere = plan(tmp_path, *args, export=export)
    one_core = plan(tmp_path, *args, export=export, cores="0")
    assert everywhere.returncode == 0 and everywhere.stdout == one_core.stdout
    other = plan(tmp_path, "--days", "14", "--runs", "64", "--seed", "100", "--format", "json", export=export)
    assert other.stdout != everywhere.stdout


# (c)

FIXTURE_BOOK = BOOK + "  plum-juice: { price: 10, recipe: { fig: 2 } }\n"


def test_voids_are_left_out_and_a_refusal_made_good_counts_once(tmp_path):
    w = ExportWriter()
    w.day_open("2026-03-02")
    w.order("2026-03-02", "apple-juice", 2)                      # apple 2
    early = w.order("2026-03-02", "apple-juice", 4)              # voided the next day
    mistake = w.order("2026-03-02", "apple-juice", 1)
    w.void("2026-03-02", mistake, "apple-juice")                 # voided
    refused = w.refusal("2026-03-02", "kiwi-juice", 1)
    w.order("2026-03-02", "kiwi-juice", 1, resolves=refused)     # kiwi 1, not 2
    w.refusal("2026-03-02", "kiwi-juice", 3)                     # kiwi 3
    fig = w.order("2026-03-02", "fig-juice", 1)
    w.refund("2026-03-02", fig, "fig-juice")                     # refunded: still fig 1
    w.order("2026-03-02", "lemon-juice", 1)                      # not on the menu
    refused_mix = w.refusal("2026-03-02", "mix-juice", 1)
    good = w.order("2026-03-02", "mix-juice", 1, resolves=refused_mix)
    w.void("2026-03-02", good, "mix-juice")                      # the refusal stands: mix 1
    w.day_close("2026-03-02")
    w.day_open("2026-03-03")
    w.void("2026-03-03", early, "apple-juice")
    w.order("2026-03-03", "apple-juice", 1)                      # apple 1
    w.day_close("2026-03-03")
    w.order("2026-03-04", "apple-juice", 5)                      # no day-open that day
    result = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", "--format", "json", book=FIXTURE_BOOK, export=w.csv(), name="h.csv")
    assert result.returncode == 0, result.stderr
    history = json.loads(result.stdout)["settings"]["history"]
    units = {row["item"]: row["units"] for row in history["means"]}
    assert units == {"apple-juice": 3, "kiwi-juice": 4, "mix-juice": 1, "fig-juice": 1, "plum-juice": 0}
    assert {row["item"]: row["mean"] for row in history["means"]} == {
        "apple-juice": 1.5, "kiwi-juice": 2, "mix-juice": 0.5, "fig-juice": 0.5, "plum-juice": 0}
    assert history["days"] == 2 and history["first"] == "2026-03-02" and history["last"] == "2026-03-03"
    assert history["unknownItems"] == ["lemon-juice"]
    assert history["unseenItems"] == ["plum-juice"]
    assert history["entriesOutsideDays"] == 1
    assert "juice-run: warning: the history names 'lemon-juice', which the menu does not have: left out" in result.stderr
    text = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", book=FIXTURE_BOOK, export=w.jsonl())
    assert text.returncode == 0, text.stderr
    assert "note: 'plum-juice' never appears in the history: a mean of 0" in text.stdout
    assert "note: 1 order or refusal on a day with no day-open entry left out" in text.stdout


# (d)


def test_per_weekday_estimation_starts_at_28_days_and_the_output_names_the_days(tmp_path):
    short = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", export=poisson_history(WEEKDAY_MEANS, 27, 8).jsonl())
    assert short.returncode == 0, short.stderr
    assert ("history: learnt from shop 'main', 27 days, 2026-01-05 to 2026-01-31 (the days with a day-open entry); "
            "one mean for every day (fewer than 28 days, so not per weekday)") in short.stdout
    assert "plan day 1 is 2026-02-01, a Sunday: the day after the last day learnt from" in short.stdout
    long = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", export=poisson_history(WEEKDAY_MEANS, 28, 8).jsonl())
    assert long.returncode == 0, long.stderr
    assert ("history: learnt from shop 'main', 28 days, 2026-01-05 to 2026-02-01 (the days with a day-open entry); "
            "per weekday (28 days or more)") in long.stdout
    assert "plan day 1 is 2026-02-02, a Monday: the day after the last day learnt from" in long.stdout
    table = long.stdout.split("95% interval\n", 1)[1]
    assert table.splitlines()[0].split()[:4] == ["apple-juice", "Monday", "4", str(table.splitlines()[0].split()[3])]
    assert sum(1 for line in table.splitlines() if line.startswith("apple-juice")) == 7


def test_plan_days_take_their_weekdays_means(tmp_path):
    """Only Sundays sell, 20 a day: a plan day on a Monday gets no order,
    one on a Sunday about 20, and a week about 20."""
    w = ExportWriter()
    first = datetime.date(2026, 1, 5)  # a Monday
    for index in range(28):
        day = first + datetime.timedelta(days=index)
        w.day_open(day.isoformat())
        if day.weekday() == 6:
            w.order(day.isoformat(), "apple-juice", 20)
    export = w.jsonl()

    def orders(*args):
        result = plan(tmp_path, "--runs", "50", "--seed", "2", "--format", "json", *args, export=export)
        assert result.returncode == 0, result.stderr
        return [run["orders"] for run in json.loads(result.stdout)["perRun"]]

    assert orders("--days", "1") == [0] * 50                       # 2026-02-02, a Monday
    assert orders("--days", "6") == [0] * 50                       # Monday to Saturday
    sunday = orders("--days", "1", "--start", "2026-02-08")
    assert all(count > 0 for count in sunday) and 15 < sum(sunday) / 50 < 25
    week = orders("--days", "7", "--start", "2026-03-04")          # a Wednesday to a Tuesday
    assert 15 < sum(week) / 50 < 25


def test_a_weekday_the_shop_never_opened_has_no_demand(tmp_path):
    w = ExportWriter()
    first = datetime.date(2026, 1, 5)
    for index in range(35):
        day = first + datetime.timedelta(days=index)
        if day.weekday() != 6:
            w.day_open(day.isoformat())
            w.order(day.isoformat(), "kiwi-juice", 2)
    result = plan(tmp_path, "--runs", "1", "--days", "1", "--seed", "1", export=w.jsonl())
    assert result.returncode == 0, result.stderr
    assert "30 days, 2026-01-05 to 2026-02-07" in result.stdout
    assert "note: no Sunday in the history: no demand on that day" in result.stdout
    assert "kiwi-juice   Sunday        0      0  0.00  n/a (no such day)" in result.stdout


def test_the_html_report_shows_the_history(tmp_path):
    report = tmp_path / "plan.html"
    result = plan(tmp_path, "--runs", "2", "--days", "3", "--seed", "1", "--report", str(report),
                  export=poisson_history(WEEKDAY_MEANS, 28, 8).jsonl())
    assert result.returncode == 0, result.stderr
    page = report.read_text()
    assert "<h2>Demand learnt from the history</h2>" in page
    assert "<p>Learnt from shop &#39;main&#39;, 28 days, 2026-01-05 to 2026-02-01 (the days with a day-open entry); per weekday (28 days or more). " \
        "Plan day 1 is 2026-02-02, a Monday: the day after the last day learnt from.</p>" in page
    assert "<td>apple-juice</td><td>Monday</td>" in page


# Bad input


def test_bad_history_input_is_a_clear_error(tmp_path):
    good = poisson_history(TRUE_MEANS, 3, 1)
    cases = [
        # (export text or None for a missing file, extra args, exit code, words in the message)
        (None, (), 2, "cannot read the history"),
        ("", (), 1, "the export holds no journal entry"),
        (good.jsonl() + "{not json\n", (), 1, f"line {len(good.entries) + 1}: the line is not a JSON object"),
        (good.jsonl().replace('"kind": "day-close"', '"kind": "party"', 1), (), 1, "unknown journal entry kind 'party'"),
        (good.csv().replace("\r\n", "\r\n\r\n", 1).replace(",detail", ""), (), 1, "line 1: the header has no 'detail' column"),
        ("".join(line for line in good.jsonl().splitlines(True) if "day-open" not in line), (), 1, "has no day-open entry"),
        (good.jsonl(), ("--mix", "apple-juice=1"), 2, "in place of --mix"),
        (good.jsonl(), ("--orders-per-day", "5"), 2, "in place of --orders-per-day"),
        (good.jsonl(), ("--demand", "fixed"), 2, "in place of --demand fixed"),
        (good.jsonl(), ("--start", "2026-02-30"), 2, "--start takes a date written YYYY-MM-DD"),
        (good.jsonl(), ("--history-shop", "north"), 1, "it holds no shop 'north'; it holds 'main'"),
    ]
    for export, args, code, words in cases:
        if export is None:
            result = plan(tmp_path, "--runs", "1", *args, "--history", str(tmp_path / "missing.csv"))
        else:
            result = plan(tmp_path, "--runs", "1", *args, export=export)
        assert result.returncode == code, (words, result.returncode, result.stderr)
        assert words in result.stderr, (words, result.stderr)
        assert result.stdout == ""
        assert "Fatal error" not in result.stderr


def test_an_export_of_several_shops_needs_a_choice(tmp_path):
    north = poisson_history(TRUE_MEANS, 3, 1, shop="north")
    south = poisson_history({k: [2 * v[0]] for k, v in TRUE_MEANS.items()}, 5, 2, shop="south")
    export = north.jsonl() + south.jsonl()
    result = plan(tmp_path, "--runs", "1", export=export)
    assert result.returncode == 1
    assert "it holds several shops ('north', 'south')" in result.stderr
    assert "help: choose one with --history-shop NAME" in result.stderr
    chosen = plan(tmp_path, "--runs", "1", "--history-shop", "south", export=export)
    assert chosen.returncode == 0, chosen.stderr
    assert "learnt from shop 'south', 5 days" in chosen.stdout


def test_history_options_need_plan_and_history(tmp_path):
    assert JUICE_RUN, "set JUICE_RUN to the juice-run binary (make test does)"
    (tmp_path / "book.yaml").write_text(BOOK)
    replay = subprocess.run([JUICE_RUN, "--recipes", str(tmp_path / "book.yaml"), "--history", "x.csv", "--order", "kiwi-juice"],
                            capture_output=True, text=True)
    assert replay.returncode == 2 and "--history is for 'juice-run plan'" in replay.stderr
    alone = plan(tmp_path, "--history-shop", "main")
    assert alone.returncode == 2 and "--history-shop is for --history FILE" in alone.stderr
