#!/usr/bin/env python3
"""The juice-maker benchmark suite: `make bench` runs this.

    python3 Benchmarks/bench.py [--quick] [--target NAME ...] [--only-shapes] [--runs N] [--skip-build]
                                [--bin DIR] [--baseline-bin DIR] [--strict]

Builds the release binaries, the C references and the peers, makes the data
(Benchmarks/generate.py), times each target against its reference in one
alternating loop (medians of wall time; peak RSS from wait4 in a small C
wrapper, Benchmarks/measure.c), checks the
outputs agree, and prints a table; the same table goes to
.build/bench-results.md as Markdown and every sample to .build/bench-results.json.

Targets, in the order of issue 15's goals 1 to 10: lint-clean, lint-single,
lint-deep, lint-unused, lint-errors, run-quiet, run-mix, run-json, startup,
lsp, lint-scaling; then the five shapes of issue 27 (shape-block, shape-flow,
shape-deep8, shape-tiny, shape-fruits20k: clean books linted against rawparse);
run-batches (issue 28: the batch-heavy book's replay against the same book
with its yields removed, both on this build); run-substitutes (issue 37: the
canonical orders on a book whose fruits have substitutes against the same book
without them, both on this build); plan (issue 29: juice-run plan's
orders per second on every core against the quiet replay's on one); and peers.
--quick: 3 runs (startup 10, peers 1), no 1M-item scaling set, the 1M-order
scripts for the run targets (memory flatness then compares 100k and 1M orders).
--bin DIR: time DIR/juice-lint and DIR/juice-run instead of building them.
--baseline-bin DIR: a second build (the commit before a change): every command
of juice-lint or juice-run is also run with DIR's binary, in the same
alternating loop, and the table gains the baseline's time and peak RSS, ours /
baseline for both, and "within 10%" (pass when both ratios are at most 1.10).
The exit code is 0 once the table is written, whatever it says; with
--strict it is 1 when a goal is missed (or, with --baseline-bin, a row is not
within 10%).
"""

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = ".build/bench-data"
TOOLS = ".build/bench"
RELEASE = ".build/release"
# As `make release` builds them: the Swift runtime linked in on Linux.
RELEASE_FLAGS = ["--static-swift-stdlib"] if platform.system() == "Linux" else []
RESULTS_MD = ".build/bench-results.md"
RESULTS_JSON = ".build/bench-results.json"
YAMS_PEER = "Benchmarks/YamsPeer/.build/release/yams-peer"
# Issue 27's shapes: target and data set, the path linted under DATA, and the row's name.
SHAPES = [("shape-block", "shape-block/book.yaml", "one 15 MB file, block style"),
          ("shape-flow", "shape-flow/book.yaml", "one 15 MB file, flow style"),
          ("shape-deep8", "shape-deep8", "4 files, recipes 8 deep"),
          ("shape-tiny", "shape-tiny", "5,000 tiny files in 100 folders"),
          ("shape-fruits20k", "shape-fruits20k", "20,000 fruits, all used and stocked")]
SHAPE_TARGETS = [name for name, _, _ in SHAPES]
TARGETS = ["lint-clean", "lint-single", "lint-deep", "lint-unused", "lint-errors", "run-quiet", "run-mix", "run-json",
           "startup", "lsp", "lint-scaling"] + SHAPE_TARGETS + ["run-batches", "run-substitutes", "plan", "peers"]
# Issue 28's batch-heavy book and the same book with its yields removed (Benchmarks/generate_batches.py).
BATCHES = DATA + "/batches"
SUBSTITUTES = DATA + "/substitutes"

LINT = RELEASE + "/juice-lint"
RUN = RELEASE + "/juice-run"
RAWPARSE = TOOLS + "/rawparse"
CSIM = TOOLS + "/csim"
MEASURE = TOOLS + "/measure"
# --bin DIR sets LINT and RUN to DIR's; --baseline-bin DIR sets these (None: no baseline).
BIN_DIR = None
BASE_DIR = None
BASE_LINT = None
BASE_RUN = None


def log(message):
    print(message, file=sys.stderr, flush=True)


def fail(message):
    log("bench: error: " + message)
    sys.exit(2)


# MARK: Running commands

class Sample:
    def __init__(self, wall, rss_mb, code):
        self.wall, self.rss_mb, self.code = wall, rss_mb, code


def run_once(argv, stdout="/dev/null"):
    """One run through the measure wrapper: wall seconds, peak RSS in MB and the exit code.

    The wrapper forks and times the command itself; see Benchmarks/measure.c
    for why Python's own wait4 would overstate a small program's peak RSS.
    """
    result = subprocess.run([MEASURE, "-o", stdout, "--"] + argv, stdout=subprocess.PIPE, env=ENV, check=True)
    wall_ns, rss_kb, code = result.stdout.split()
    return Sample(int(wall_ns) / 1e9, int(rss_kb) / 1024.0, int(code))


class Measurement:
    """Every sample of one command, and what they sum up to."""

    def __init__(self, argv):
        self.argv = argv
        self.samples = []

    @property
    def median(self):
        return statistics.median(s.wall for s in self.samples)

    @property
    def peak_rss(self):
        return max(s.rss_mb for s in self.samples)

    @property
    def codes(self):
        return sorted({s.code for s in self.samples})

    def as_json(self):
        return {"argv": self.argv, "wall": [round(s.wall, 6) for s in self.samples],
                "rss_mb": [round(s.rss_mb, 2) for s in self.samples], "codes": self.codes}


MEASURED = {}
# The baseline's measurement of a command of ours, by the key of ours (with --baseline-bin).
BASELINES = {}


class Baseline(list):
    """An argv that runs the baseline build: kept apart from ours even when both are the same files."""


def key(argv):
    return (("baseline",) if isinstance(argv, Baseline) else ()) + tuple(argv)


def baseline_of(argv):
    """The same command on the baseline build, or None (no --baseline-bin, or not juice-lint or juice-run)."""
    if BASE_DIR is None or isinstance(argv, Baseline) or not argv or argv[0] not in (LINT, RUN):
        return None
    return Baseline([BASE_LINT if argv[0] == LINT else BASE_RUN] + list(argv[1:]))


def measure(commands, runs, warmup=True):
    """Times the commands `runs` times each, alternating A B A B ... in one loop.

    One untimed warm-up run of each first, so the file cache is equally warm.
    A command already measured in this session with at least `runs` samples is
    reused rather than run again (the 100k scaling point is the clean lint set).
    With --baseline-bin, each juice-lint or juice-run command is followed in
    the loop by the same command on the baseline build (A A' B A A' B ...),
    the two swapping places every other round (A' A B), so neither always
    runs first; the baseline's measurement is kept in BASELINES, and the
    return value is the same as without it.
    """
    keys = [key(c) for c in commands]
    loop = []
    for c in commands:
        loop.append(c)
        base = baseline_of(c)
        if base is not None:
            loop.append(base)
    loop = list({key(c): c for c in loop}.values())
    todo = [c for c in loop if len(MEASURED.get(key(c), Measurement(c)).samples) < runs]
    if todo:
        log("  timing: " + "  vs  ".join(display(c) for c in todo) + " (%d runs)" % runs)
        if warmup:
            for argv in todo:
                run_once(argv)
        fresh = {key(c): Measurement(c) for c in todo}
        for n in range(runs):
            for argv in (swap_baselines(todo) if n % 2 else todo):
                fresh[key(argv)].samples.append(run_once(argv))
        MEASURED.update(fresh)
        for argv in todo:
            m = MEASURED[key(argv)]
            log("    %-60s median %8.4f s  peak %7.1f MB  exit %s" % (display(argv), m.median, m.peak_rss, m.codes))
    for c, k in zip(commands, keys):
        base = baseline_of(c)
        if base is not None:
            BASELINES[k] = MEASURED[key(base)]
    return [MEASURED[k] for k in keys]


def swap_baselines(loop):
    """`loop` with each command of ours and its baseline, next to each other, swapped."""
    order = list(loop)
    for i in range(1, len(order)):
        if isinstance(order[i], Baseline) and key(baseline_of(order[i - 1]) or []) == key(order[i]):
            order[i - 1], order[i] = order[i], order[i - 1]
    return order


def capture(argv):
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    return result.returncode, result.stdout.decode("utf-8", "replace"), result.stderr.decode("utf-8", "replace")


def display(argv):
    prefix = "baseline " if isinstance(argv, Baseline) else ""
    argv = ["python3" if a == sys.executable else a for a in argv]
    argv = [os.path.basename(a) if a in (LINT, RUN, BASE_LINT, BASE_RUN) else a for a in argv]
    return prefix + " ".join(a.replace(RELEASE + "/", "").replace(TOOLS + "/", "").replace(DATA + "/", "")
                    .replace("Benchmarks/YamsPeer/.build/release/", "").replace("Benchmarks/", "") for a in argv)


# MARK: The table

# A row is within 10% of the baseline when ours / baseline is at most this, for time and for peak RSS.
WITHIN = 1.10


class Row:
    """One line of the table. `m` is the Measurement of our command, which
    finds the baseline's (with --baseline-bin); rows that are not one
    measurement (lsp) set base_time instead."""

    def __init__(self, target, command, ours=None, rss=None, reference="", ref_time=None,
                 ratio=None, goal="", passed=None, notes="", m=None):
        self.target, self.command, self.ours, self.rss = target, command, ours, rss
        self.reference, self.ref_time, self.ratio = reference, ref_time, ratio
        self.goal, self.passed, self.notes = goal, passed, notes
        self.base_time = self.base_rss = None
        if m is not None and key(m.argv) in BASELINES:
            base = BASELINES[key(m.argv)]
            self.base_time, self.base_rss = base.median, base.peak_rss
            if base.codes != m.codes:
                self.notes += "%sbaseline exit %s, ours %s" % ("; " if self.notes else "", base.codes, m.codes)

    @property
    def time_ratio(self):
        return None if self.base_time is None or self.ours is None else self.ours / self.base_time

    @property
    def rss_ratio(self):
        return None if self.base_rss is None or self.rss is None else self.rss / self.base_rss

    @property
    def within(self):
        """True or False against the baseline (time, and peak RSS where there is one); None without one."""
        if self.time_ratio is None:
            return None
        return self.time_ratio <= WITHIN and (self.rss_ratio is None or self.rss_ratio <= WITHIN)

    def cells(self):
        def seconds(x):
            return "" if x is None else ("%.4f" % x if x < 1 else "%.3f" % x)

        def ratio(x):
            return "" if x is None else "%.2f" % x
        verdict = {True: "pass", False: "FAIL", None: "-"}
        cells = [self.target, self.command, seconds(self.ours), "" if self.rss is None else "%.1f" % self.rss,
                 self.reference, seconds(self.ref_time), ratio(self.ratio), self.goal, verdict[self.passed]]
        if BASE_DIR is not None:
            cells += [seconds(self.base_time), "" if self.base_rss is None else "%.1f" % self.base_rss,
                      ratio(self.time_ratio), ratio(self.rss_ratio), verdict[self.within]]
        return cells + [self.notes]


HEADER = ["target", "command", "ours (s)", "ours peak RSS (MB)", "reference", "ref (s)", "ratio", "goal", "result", "notes"]
BASELINE_HEADER = ["baseline (s)", "baseline peak RSS (MB)", "time ours/baseline", "RSS ours/baseline", "within 10%"]


def header():
    """The columns: with --baseline-bin, the baseline's five before the notes."""
    return HEADER if BASE_DIR is None else HEADER[:-1] + BASELINE_HEADER + HEADER[-1:]


def text_table(rows):
    columns = header()
    table = [columns] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    lines = []
    for n, line in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows):
    columns = header()

    def esc(cell):
        return cell.replace("|", "\\|")
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in r.cells()) + " |" for r in rows]
    return "\n".join(lines)


# MARK: Targets

def lint_cmd(path):
    return [LINT, "--format", "json", path]


SINGLE_FILE = DATA + "/lint-single/book.yaml"


def lint_summary(path, options=()):
    """Exit code, the JSON summary and how many helps say "did you mean", from one run."""
    code, out, err = capture([LINT] + list(options) + ["--format", "json", path])
    try:
        document = json.loads(out)
    except ValueError:
        return code, None, 0, err.strip()[:200]
    return code, document.get("summary", {}), out.count("did you mean"), ""


def clean_lint_row(cfg, name, path, max_ratio, max_rss):
    """A clean book linted against rawparse of the same path: ratio, peak RSS, and no errors or warnings."""
    code, summary, _, err = lint_summary(path)
    clean = code == 0 and summary is not None and summary.get("errors") == 0 and summary.get("warnings") == 0
    ours, ref = measure([lint_cmd(path), [RAWPARSE, path]], cfg.runs)
    ratio = ours.median / ref.median
    ok = clean and ours.codes == [0] and ratio <= max_ratio and ours.peak_rss <= max_rss
    notes = ("exit %s, %s" % (code, summary_text(summary))) if summary is not None else "no JSON: " + err
    return Row(name, display(ours.argv) + " > /dev/null", ours.median, ours.peak_rss, "rawparse", ref.median, ratio,
               "≤%.1f× rawparse; ≤%d MB; exit 0, no errors or warnings" % (max_ratio, max_rss), ok, notes, m=ours)


def target_lint_clean(cfg):
    return [clean_lint_row(cfg, "1 lint, clean set", DATA + "/lint-clean", 1.0, 100)]


def target_lint_single(cfg):
    return [clean_lint_row(cfg, "2 lint, one file of 100k items", SINGLE_FILE, 1.3, 120)]


def target_lint_deep(cfg):
    return [clean_lint_row(cfg, "3 lint, 10 files, recipes 4 deep", DATA + "/lint-deep", 1.2, 150)]


UNUSED = DATA + "/lint-unused"
# The two rules the unused-fruit book fires, each once a fruit: 200,000 diagnostics.
UNUSED_RULES = ["unused-fruit", "missing-stock"]


def target_lint_unused(cfg):
    """100,000 declared fruits, none used or stocked: every format, then both rules off."""
    code, summary, _, err = lint_summary(UNUSED)
    expected = {"errors": 0, "warnings": 100_000, "infos": 100_000}
    counted = summary is not None and all(summary.get(k) == v for k, v in expected.items())
    notes = ("JSON: exit %s, %s" % (code, summary_text(summary))) if summary is not None else "no JSON: " + err
    off = sum((["--rule", rule + "=off"] for rule in UNUSED_RULES), [])
    off_code, off_summary, _, off_err = lint_summary(UNUSED, off)
    quiet = off_code == 0 and off_summary is not None and all(off_summary.get(k) == 0 for k in expected)
    formats = [("text", [LINT, "--format", "text", UNUSED], 0.25), ("JSON", lint_cmd(UNUSED), 0.5),
               ("SARIF", [LINT, "--format", "sarif", UNUSED], 0.6)]
    measured = measure([argv for _, argv, _ in formats] + [[LINT] + off + ["--format", "text", UNUSED],
                                                          [RAWPARSE, UNUSED]], cfg.runs)
    ref = measured[-1]
    rows = []
    for (name, _, limit), ours in zip(formats, measured):
        ok = counted and ours.codes == [code] and ours.median <= limit and ours.peak_rss <= 150
        rows.append(Row("4 lint, 100k unused fruits, " + name, display(ours.argv) + " > /dev/null", ours.median,
                        ours.peak_rss, "rawparse", ref.median, ours.median / ref.median,
                        "≤%g s; ≤150 MB; 100,000 warnings and 100,000 infos" % limit, ok,
                        "%s; exit %s" % (notes, ours.codes), m=ours))
    ours = measured[-2]
    ratio = ours.median / ref.median
    rows.append(Row("4 lint, 100k unused fruits, both rules off", display(ours.argv) + " > /dev/null", ours.median,
                    ours.peak_rss, "rawparse", ref.median, ratio, "≤2.0× rawparse; nothing reported",
                    quiet and ours.codes == [0] and ratio <= 2.0,
                    ("JSON: exit %s, %s" % (off_code, summary_text(off_summary))) if off_summary is not None
                    else "no JSON: " + off_err, m=ours))
    return rows


def summary_text(summary):
    return "errors %s, warnings %s, infos %s" % (summary.get("errors"), summary.get("warnings"), summary.get("infos"))


def target_lint_errors(cfg):
    folder = DATA + "/lint-errors"
    code, summary, suggestions, err = lint_summary(folder)
    ours, ref = measure([lint_cmd(folder), lint_cmd(DATA + "/lint-clean")], cfg.runs)
    ratio = ours.median / ref.median
    ok = code == 1 and suggestions == 10_000 and ratio <= 1.5
    notes = "exit %s, 'did you mean' ×%d, %s" % (code, suggestions, summary_text(summary) if summary else err)
    return [Row("5 lint, 10k misspellings", display(ours.argv) + " > /dev/null", ours.median, ours.peak_rss,
                "juice-lint, clean set", ref.median, ratio, "≤1.5× clean; 10,000 did-you-mean", ok, notes, m=ours)]


def target_lint_scaling(cfg):
    points = [("10k", DATA + "/scale-10k", 10_000), ("100k", DATA + "/lint-clean", 100_000)]
    if not cfg.quick:
        points.append(("1M", DATA + "/scale-1m", 1_000_000))
    measured = []
    for name, folder, items in points:
        ours, ref = measure([lint_cmd(folder), [RAWPARSE, folder]], cfg.runs)
        measured.append((name, items, ours, ref))
    per_item = [ours.median / items for _, items, ours, _ in measured]
    mean = statistics.mean(per_item)
    rows = []
    for (name, items, ours, ref), each in zip(measured, per_item):
        ratio = each / mean
        ok = 0.75 <= ratio <= 1.25 and ours.codes == [0]
        rows.append(Row("10 lint scaling, %s items" % name, display(ours.argv) + " > /dev/null", ours.median,
                        ours.peak_rss, "rawparse", ref.median, ratio, "per item within ±25% of the mean", ok,
                        "%.2f µs/item (mean %.2f); ratio = per item / mean" % (each * 1e6, mean * 1e6), m=ours))
    return rows


def order_scripts(cfg, mix="orders"):
    """The main script, and the smaller one the memory-flatness check compares it with.

    `mix` is "orders" (the first order mix) or "orders-mix" (the second).
    """
    if cfg.quick:
        return DATA + "/%s-1m.txt" % mix, DATA + "/%s-100k.txt" % mix
    return DATA + "/%s-10m.txt" % mix, DATA + "/%s-1m.txt" % mix


def check_totals(script):
    """Whether csim and `juice-run --quiet --format json` agree on orders, served, refused and stock."""
    _, sim_out, _ = capture([CSIM, script])
    code, run_out, run_err = capture([RUN, "--quiet", "--format", "json", script])
    try:
        sim = json.loads(sim_out)
        summary = [json.loads(line) for line in run_out.splitlines() if line.strip()][-1]
    except (ValueError, IndexError):
        return False, "cannot read totals (juice-run exit %s: %s)" % (code, run_err.strip()[:120])
    keys = ["orders", "served", "refused", "stock"]
    theirs = {k: summary.get(k) for k in keys}
    mine = {k: sim.get(k) for k in keys}
    if theirs != mine:
        return False, "totals differ: juice-run %s, csim %s" % (json.dumps(theirs), json.dumps(mine))
    return True, "totals = csim (orders %d, served %d, refused %d)" % (sim["orders"], sim["served"], sim["refused"])


def target_run_quiet(cfg):
    return quiet_run_rows(cfg, "orders", "6 run, quiet")


def target_run_mix(cfg):
    return quiet_run_rows(cfg, "orders-mix", "6 run, quiet, second mix")


def quiet_run_rows(cfg, mix, name):
    """juice-run --quiet against csim on one order mix, and its memory flatness."""
    script, small = order_scripts(cfg, mix)
    agree, agree_note = check_totals(script)
    ours, ref = measure([[RUN, "--quiet", script], [CSIM, script]], cfg.runs)
    ratio = ours.median / ref.median
    ok = agree and ours.codes == [0] and ratio <= 1.5 and ours.peak_rss <= 20
    rows = [Row(name, display(ours.argv), ours.median, ours.peak_rss, "csim", ref.median, ratio,
                "≤1.5× csim; ≤20 MB", ok, agree_note, m=ours)]
    small_ours, small_ref = measure([[RUN, "--quiet", small], [CSIM, small]], cfg.runs)
    growth = ours.peak_rss - small_ours.peak_rss
    rows.append(Row(name.replace("quiet", "memory flatness"), display(small_ours.argv), small_ours.median, small_ours.peak_rss,
                    "csim", small_ref.median, small_ours.median / small_ref.median,
                    "peak RSS within 2 MB of the larger script's", abs(growth) <= 2,
                    "peak RSS %.1f MB here, %.1f MB on %s: %+.1f MB" % (
                        small_ours.peak_rss, ours.peak_rss, display([script]), growth), m=small_ours))
    return rows


def target_run_json(cfg):
    script, _ = order_scripts(cfg)
    ours, ref = measure([[RUN, "--format", "json", script], [CSIM, script]], cfg.runs)
    ratio = ours.median / ref.median
    ok = ours.codes == [0] and ratio <= 3.0
    return [Row("7 run, JSON Lines", display(ours.argv) + " > /dev/null", ours.median, ours.peak_rss,
                "csim", ref.median, ratio, "≤3× csim", ok, "", m=ours)]


def target_startup(cfg):
    tiny = DATA + "/orders-one.txt"
    with open(tiny, "w") as f:
        f.write("banana-juice\n")
    rows = []
    pairs = [([LINT, "recipes"], [RAWPARSE, "recipes"], "rawparse"),
             ([RUN, "--order", "banana-juice"], [CSIM, tiny], "csim, one order")]
    for ours_cmd, ref_cmd, ref_name in pairs:
        ours, ref = measure([ours_cmd, ref_cmd], cfg.startup_runs)
        ok = ours.codes == [0] and ours.median <= 0.005
        rows.append(Row("8 startup", display(ours.argv), ours.median, ours.peak_rss, ref_name, ref.median,
                        ours.median / ref.median, "≤5 ms", ok,
                        "%d runs; %.1f ms" % (cfg.startup_runs, ours.median * 1000), m=ours))
    return rows


def percentile(samples, fraction):
    """The sample at `fraction` of the sorted samples (nearest rank)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))]


def target_lsp(cfg):
    """The language server (Benchmarks/lsp_bench.py): one-character edits on the
    canonical book and on the 100-file set, and the start on the 100-file set."""
    import shutil
    import tempfile
    rows = []
    edits = 100 if cfg.quick else 200
    canonical = tempfile.mkdtemp(prefix="lsp-bench-")
    shutil.copytree("recipes", os.path.join(canonical, "recipes"))
    for name, book, relpath, goal_ms in (("canonical book", canonical, "recipes/menu.yaml", 5),
                                         ("100-file book", DATA + "/lint-clean", "menu-000.yaml", 50)):
        log("  lsp: %d edits of %s in %s, %d sessions" % (edits, relpath, name, cfg.runs))
        if BASE_DIR is None:
            result = lsp_sessions(LINT, book, relpath, edits, cfg.runs)
            base = None
        else:
            result, base = lsp_alternated(cfg, book, relpath, edits)
        latencies = result.get("latencies") or [float("nan")]
        p50, p95 = statistics.median(latencies), percentile(latencies, 0.95)
        only = result.get("only_edited_parsed")
        ok = p95 <= goal_ms / 1000 and only is True and result.get("exit") == 0
        rows.append(Row("9 lsp, one-character edit, " + name, "didChange to publishDiagnostics, %d edits" % edits, p95, None,
                        "p50", p50, p95 / p50 if p50 else float("nan"), "p95 ≤ %d ms; only the edited file parsed" % goal_ms, ok,
                        "p50 %.1f ms, p95 %.1f ms; files parsed %s (1 open + %d edits)" % (
                            p50 * 1000, p95 * 1000, result.get("parsed"), edits)))
        if base is not None:
            rows[-1].base_time = percentile(base.get("latencies") or [float("nan")], 0.95)
            rows[-1].notes += "; baseline p95 %.1f ms, files parsed %s, exit %s" % (
                rows[-1].base_time * 1000, base.get("parsed"), base.get("exit"))
        if name == "100-file book":
            start, lint = statistics.median(result["starts"]), statistics.median(result["lints"])
            rows.append(Row("9 lsp, initialize + open, 100-file book", "start to first publishDiagnostics", start, None,
                            "juice-lint --format json", lint, start / lint, "≤1.5× batch lint", start / lint <= 1.5,
                            "medians of %d sessions" % len(result["starts"])))
            if base is not None and base.get("starts"):
                rows[-1].base_time = statistics.median(base["starts"])
    shutil.rmtree(canonical, ignore_errors=True)
    return rows


def lsp_sessions(lint, book, relpath, edits, runs):
    """Benchmarks/lsp_bench.py's JSON: `runs` sessions of `lint lsp`, `edits` edits in the first."""
    out = subprocess.run([sys.executable, "Benchmarks/lsp_bench.py", "--lint", lint, "--book", book, "--file", relpath,
                          "--edits", str(edits), "--runs", str(runs)], stdout=subprocess.PIPE, env=ENV)
    return json.loads(out.stdout.decode() or "{}")


def lsp_alternated(cfg, book, relpath, edits):
    """With --baseline-bin: one session of ours, one of the baseline's, `cfg.runs` times over.

    The same as lsp_bench's own loop, a batch lint then a session, but one
    lsp_bench each time so the two builds alternate; the edits are in each
    build's first session, the start times and batch lints from all of them.
    """
    merged = ({"starts": [], "lints": [], "latencies": []}, {"starts": [], "lints": [], "latencies": []})
    for run in range(cfg.runs):
        for lint, result in zip((LINT, BASE_LINT), merged):
            one = lsp_sessions(lint, book, relpath, edits if run == 0 else 0, 1)
            result["starts"] += one.get("starts", [])
            result["lints"] += one.get("lints", [])
            if run == 0:
                for k in ("latencies", "only_edited_parsed", "parsed", "exit"):
                    result[k] = one.get(k)
    return merged


# Yams's parse grows much faster than the file: one 15 MB file ran 847 s before it
# was stopped (a quick run on 2026-11-25), against 25 s for the same size in 100 files.
YAMS_ONE_FILE = "too slow on one 15 MB file: a run was stopped after 847 s (25 s on the 100-file set)"


def target_peers(cfg):
    """The peers on the clean 100-file set (goal 1's data) and on the one-file book (goal 2's)."""
    return (peer_rows(cfg, "peer, clean set", DATA + "/lint-clean", cfg.yams_ok)
            + peer_rows(cfg, "peer, one file", SINGLE_FILE, YAMS_ONE_FILE if cfg.yams_ok is True else cfg.yams_ok))


def peer_rows(cfg, label, folder, yams_ok):
    (ours,) = measure([lint_cmd(folder)], cfg.runs)
    rows = []
    peers = [("Yams+Codable", [YAMS_PEER, folder], yams_ok),
             ("PyYAML CSafeLoader", [sys.executable, "Benchmarks/pyyaml_peer.py", folder], cfg.pyyaml_ok)]
    for name, argv, available in peers:
        if available is not True:
            rows.append(Row(label, display(ours.argv), ours.median, ours.peak_rss, name, None, None, "info", None,
                            "not run: " + str(available), m=ours))
            continue
        (peer,) = measure([argv], cfg.peer_runs, warmup=False)
        trouble = ""
        if peer.codes != [0]:
            _, out, err = capture(argv)
            trouble = " (%s)" % (out.strip() or err.strip()[:120])
        rows.append(Row(label, display(ours.argv), ours.median, ours.peak_rss, name, peer.median,
                        ours.median / peer.median, "info", None,
                        "%s; %d run(s), peak RSS %.1f MB, exit %s%s" % (
                            display(argv), cfg.peer_runs, peer.peak_rss, peer.codes, trouble), m=ours))
    return rows


def shape_row(cfg, target, path, what):
    """One of issue 27's shapes: a clean book, linted against rawparse of the same path.

    Its goal is only that the book is clean: these rows are there to be read
    side by side with a baseline build (--baseline-bin); the ratio to
    rawparse is shown.
    """
    code, summary, _, err = lint_summary(path)
    clean = code == 0 and summary is not None and all(summary.get(k) == 0 for k in ("errors", "warnings", "infos"))
    ours, ref = measure([lint_cmd(path), [RAWPARSE, path]], cfg.runs)
    notes = ("exit %s, %s" % (code, summary_text(summary))) if summary is not None else "no JSON: " + err
    return Row("%s lint, %s" % (target, what), display(ours.argv) + " > /dev/null", ours.median, ours.peak_rss,
               "rawparse", ref.median, ours.median / ref.median, "exit 0, nothing reported (ratio shown)",
               clean and ours.codes == [0], notes, m=ours)


def target_run_batches(cfg):
    """Issue 28's goal: a book whose every recipe has a yield above 1, 4
    deep, replays its orders within 2x of the same book with the yields
    removed, in at most 20 MB. Both commands are this build's (a build from
    before version 2 cannot read the book), so the row has no baseline."""
    orders = BATCHES + "/orders.txt"
    # Absolute paths keep --baseline-bin from pairing these with the baseline build.
    run = os.path.abspath(RUN)
    ours, ref = measure([[run, "--recipes", BATCHES + "/batches.yaml", "--quiet", orders],
                         [run, "--recipes", BATCHES + "/flat.yaml", "--quiet", orders]], cfg.runs)
    ratio = ours.median / ref.median
    ok = ours.codes == [0] and ref.codes == [0] and ratio <= 2.0 and ours.peak_rss <= 20
    return [Row("issue 28 run, batch-heavy book", display(ours.argv).replace(run, "juice-run"), ours.median,
                ours.peak_rss, "the same book without yields", ref.median, ratio, "≤2× without yields; ≤20 MB", ok,
                "%d orders; reference peak %.1f MB" % (cfg.batch_orders, ref.peak_rss))]


def target_run_substitutes(cfg):
    """Issue 37's goal: the canonical orders replayed on a book whose every
    fruit has substitutes (a puree found short, then a frozen fruit that
    covers), within 1.5x of the same book without them. Both commands are
    this build's (a build from before issue 37 cannot read the book)."""
    script, _ = order_scripts(cfg)
    run = os.path.abspath(RUN)
    ours, ref = measure([[run, "--recipes", SUBSTITUTES + "/subs", "--quiet", script],
                         [run, "--recipes", SUBSTITUTES + "/plain", "--quiet", script]], cfg.runs)
    _, summary, _ = capture([run, "--recipes", SUBSTITUTES + "/subs", "--quiet", script])
    served = re.search(r"served: (\d+), refused: (\d+)", summary)
    ratio = ours.median / ref.median
    ok = ours.codes == [0] and ref.codes == [0] and ratio <= 1.5
    return [Row("issue 37 run, substitutes", display(ours.argv).replace(run, "juice-run"), ours.median, ours.peak_rss,
                "the same book without substitutes", ref.median, ratio, "≤1.5× without substitutes", ok,
                "%s served, %s refused with substitutes" % (served.groups() if served else ("?", "?")))]


def target_plan(cfg):
    """Issue 29's goal: `juice-run plan` on the canonical book, 1,000 runs of
    30 days at 200 orders a day (about 6 M orders, on every core), against
    the single-threaded quiet replay of 1 M orders, both as orders per
    second: at least 1.6x on 2 cores, and under 50 MB."""
    script, _ = order_scripts(cfg)
    runs = 100 if cfg.quick else 1000
    plan_cmd = [RUN, "plan", "--recipes", "recipes", "--runs", str(runs), "--days", "30", "--orders-per-day", "200",
                "--seed", "1", "--format", "csv"]
    ours, ref = measure([plan_cmd, [RUN, "--quiet", script]], cfg.runs)
    code, out, err = capture([RUN, "plan", "--recipes", "recipes", "--runs", str(runs), "--days", "30",
                              "--orders-per-day", "200", "--seed", "1", "--format", "json"])
    orders = sum(run["orders"] for run in json.loads(out)["perRun"]) if code == 0 else 0
    _, summary, _ = capture([RUN, "--quiet", script])
    found = re.search(r"^orders: (\d+)", summary, re.MULTILINE)
    replayed = int(found.group(1)) if found else 0
    plan_rate, replay_rate = orders / ours.median, replayed / ref.median
    ratio = plan_rate / replay_rate
    ok = ours.codes == [0] and ratio >= 1.6 and ours.peak_rss < 50
    return [Row("issue 29 plan, canonical book", display(ours.argv) + " > /dev/null", ours.median, ours.peak_rss,
                "quiet replay, orders/s", ref.median, ratio, "≥1.6× the replay's orders/s on 2 cores; <50 MB", ok,
                "%d orders in the plan (%.2f M/s) against %d replayed (%.2f M/s); %d cores" % (
                    orders, plan_rate / 1e6, replayed, replay_rate / 1e6, os.cpu_count() or 0), m=ours)]


def shape_runner(target, path, what):
    return lambda cfg: [shape_row(cfg, target, DATA + "/" + path, what)]


RUNNERS = {"lint-clean": target_lint_clean, "lint-single": target_lint_single, "lint-deep": target_lint_deep,
           "lint-unused": target_lint_unused, "lint-errors": target_lint_errors, "run-quiet": target_run_quiet,
           "run-mix": target_run_mix, "run-json": target_run_json, "startup": target_startup, "lsp": target_lsp,
           "lint-scaling": target_lint_scaling, "run-batches": target_run_batches,
           "run-substitutes": target_run_substitutes, "plan": target_plan, "peers": target_peers}
RUNNERS.update({target: shape_runner(target, path, what) for target, path, what in SHAPES})


# MARK: Building

def data_sets(targets, quick):
    sets = []
    for target in targets:
        if target in ("lint-clean", "lsp"):
            sets += ["lint-clean"]
        elif target == "peers":
            sets += ["lint-clean", "lint-single"]
        elif target in ("lint-single", "lint-deep", "lint-unused"):
            sets += [target]
        elif target == "lint-errors":
            sets += ["lint-clean", "lint-errors"]
        elif target == "lint-scaling":
            sets += ["scale-10k", "lint-clean"] + ([] if quick else ["scale-1m"])
        elif target in ("run-quiet", "run-json", "plan", "run-substitutes"):
            sets += ["orders-1m.txt", "orders-100k.txt"] if quick else ["orders-10m.txt", "orders-1m.txt"]
        elif target == "run-mix":
            sets += ["orders-mix-1m.txt", "orders-mix-100k.txt"] if quick else ["orders-mix-10m.txt", "orders-mix-1m.txt"]
        elif target in SHAPE_TARGETS:
            sets += [target]
    return list(dict.fromkeys(sets))


def step(argv, what):
    log("== " + what + ": " + " ".join(argv))
    if subprocess.run(argv, env=ENV).returncode != 0:
        fail(what + " failed")


def build(cfg):
    os.makedirs(TOOLS, exist_ok=True)
    if not cfg.skip_build and BIN_DIR is None:
        step([cfg.swift, "build", "-c", "release"] + RELEASE_FLAGS, "release build")
    for binary in (LINT, RUN):
        if not os.access(binary, os.X_OK):
            fail("%s is missing; build it with `make release`%s" % (
                binary, "" if BIN_DIR is None else " in the tree that --bin names"))
    for binary in (BASE_LINT, BASE_RUN) if BASE_DIR is not None else ():
        if not os.access(binary, os.X_OK):
            fail("%s is missing: --baseline-bin must name a directory holding juice-lint and juice-run" % binary)
    yaml_flags = subprocess.run(["pkg-config", "--cflags", "--libs", "yaml-0.1"], stdout=subprocess.PIPE,
                                env=ENV).stdout.decode().split()
    step([cfg.cc, "-O2", "-o", RAWPARSE, "Benchmarks/rawparse.c"] + yaml_flags, "reference rawparse")
    step([cfg.cc, "-O2", "-o", CSIM, "Benchmarks/csim.c"], "reference csim")
    step([cfg.cc, "-O2", "-o", MEASURE, "Benchmarks/measure.c"], "timer")

    cfg.yams_ok = cfg.pyyaml_ok = "not selected"
    if "peers" in cfg.targets:
        cfg.yams_ok = True
        if not cfg.skip_build or not os.access(YAMS_PEER, os.X_OK):
            log("== Yams peer: %s build -c release --package-path Benchmarks/YamsPeer (slow the first time)" % cfg.swift)
            if subprocess.run([cfg.swift, "build", "-c", "release", "--package-path", "Benchmarks/YamsPeer"],
                              env=ENV).returncode != 0:
                cfg.yams_ok = "the Yams peer did not build"
        probe = subprocess.run([sys.executable, "-c", "import yaml; yaml.CSafeLoader"],
                               stderr=subprocess.DEVNULL, env=ENV)
        cfg.pyyaml_ok = True if probe.returncode == 0 else "PyYAML with libyaml is not installed (pip install pyyaml)"

    sets = data_sets(cfg.targets, cfg.quick)
    if sets:
        step([sys.executable, "Benchmarks/generate.py", "--out", DATA] + sets, "data")
    cfg.batch_orders = 1_000_000 if cfg.quick else 10_000_000
    if "run-batches" in cfg.targets:
        step([sys.executable, "Benchmarks/generate_batches.py", "--out", BATCHES, "--orders", str(cfg.batch_orders)],
             "batch data")
    if "run-substitutes" in cfg.targets:
        step([sys.executable, "Benchmarks/generate_substitutes.py", "--out", SUBSTITUTES], "substitutes data")


# MARK: Main

def machine_line():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    commit = git_commit(".")
    if BIN_DIR is None:
        build_text = " ".join(["swift build -c release"] + RELEASE_FLAGS)
    else:
        build_text = "binaries from %s (in a tree at commit %s)" % (BIN_DIR, git_commit(BIN_DIR) or "?")
    if BASE_DIR is not None:
        build_text += "; baseline binaries from %s (in a tree at commit %s)" % (BASE_DIR, git_commit(BASE_DIR) or "?")
    return "%s, %d cores%s; %s %s; commit %s; %s" % (
        platform.machine(), os.cpu_count() or 0, (", " + cpu) if cpu else "", platform.system(),
        platform.release(), commit or "?", build_text)


def git_commit(folder):
    """The short commit of the git tree holding `folder`, or "" (the binaries in it may be older)."""
    return subprocess.run(["git", "-C", folder, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL).stdout.decode().strip()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer runs and smaller data, for iteration")
    parser.add_argument("--target", action="append", choices=TARGETS, help="run only this target (repeatable)")
    parser.add_argument("--only-shapes", action="store_true",
                        help="run only issue 27's shapes (%s), with any --target given" % ", ".join(SHAPE_TARGETS))
    parser.add_argument("--runs", type=int, help="timed runs per command (default 5, 3 with --quick)")
    parser.add_argument("--startup-runs", type=int, help="timed runs for startup (default 30, 10 with --quick)")
    parser.add_argument("--peer-runs", type=int, default=None, help="timed runs per peer (default 3, 1 with --quick)")
    parser.add_argument("--skip-build", action="store_true", help="use the binaries already built")
    parser.add_argument("--bin", metavar="DIR",
                        help="time DIR/juice-lint and DIR/juice-run, built elsewhere, and do not build the package")
    parser.add_argument("--baseline-bin", metavar="DIR",
                        help="also time DIR/juice-lint and DIR/juice-run (another build) beside ours, in the same "
                             "loop, and judge every row of ours within 10%% of them")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    cfg = parser.parse_args(argv)
    cfg.targets = (cfg.target or []) + (SHAPE_TARGETS if cfg.only_shapes else []) or TARGETS
    cfg.runs = cfg.runs or (3 if cfg.quick else 5)
    cfg.startup_runs = cfg.startup_runs or (10 if cfg.quick else 30)
    cfg.peer_runs = cfg.peer_runs or (1 if cfg.quick else 3)

    global LINT, RUN, BIN_DIR, BASE_DIR, BASE_LINT, BASE_RUN
    if cfg.bin:
        BIN_DIR = os.path.abspath(cfg.bin)
        LINT, RUN = BIN_DIR + "/juice-lint", BIN_DIR + "/juice-run"
    if cfg.baseline_bin:
        BASE_DIR = os.path.abspath(cfg.baseline_bin)
        BASE_LINT, BASE_RUN = BASE_DIR + "/juice-lint", BASE_DIR + "/juice-run"
    os.chdir(ROOT)
    build(cfg)

    started = time.time()
    rows = []
    for target in TARGETS:
        if target in cfg.targets:
            log("== " + target)
            rows += RUNNERS[target](cfg)

    checked = [r for r in rows if r.passed is not None]
    met = sum(1 for r in checked if r.passed)
    mode = "quick" if cfg.quick else "full"
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    heading = "juice-maker benchmarks (%s, %s; %d runs, startup %d): %d of %d goals met" % (
        mode, stamp, cfg.runs, cfg.startup_runs, met, len(checked))
    compared = [r for r in rows if r.within is not None]
    close = sum(1 for r in compared if r.within)
    if BASE_DIR is not None:
        heading += "; %d of %d rows within 10%% of the baseline" % (close, len(compared))
    print()
    print(heading)
    print(machine_line())
    print()
    print(text_table(rows))
    baseline_text = "" if BASE_DIR is None else (
        " Baseline: the same commands on %s's binaries, alternated with ours in the same loop; within 10%% "
        "means time and peak RSS of ours / baseline both ≤ %.2f." % (BASE_DIR, WITHIN))
    with open(RESULTS_MD, "w") as f:
        f.write("## %s\n\n%s. Medians of wall time; peak RSS is the largest of the runs; ratio is ours / "
                "reference.%s The timing took %.0f s.\n\n%s\n" % (
                    heading, machine_line(), baseline_text, time.time() - started, markdown_table(rows)))
    with open(RESULTS_JSON, "w") as f:
        measurements = [dict(m.as_json(), baseline=True) if isinstance(m.argv, Baseline) else m.as_json()
                        for m in MEASURED.values()]
        json.dump({"heading": heading, "machine": machine_line(),
                   "rows": [dict(zip(header(), r.cells())) for r in rows],
                   "measurements": measurements}, f, indent=1)
    print("\nwritten: %s, %s" % (RESULTS_MD, RESULTS_JSON))
    return 1 if cfg.strict and (met < len(checked) or close < len(compared)) else 0


ENV = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "FORCE_COLOR")}
ENV["NO_COLOR"] = "1"

if __name__ == "__main__":
    sys.exit(main())
