"""The web counter in a real browser: Debian's Chromium, headless, driven by
Playwright, with axe-core for accessibility.

Each test runs the real juice-serve (release) on the canonical book (5 fruits
at 10 each; strawberry-juice needs 16 strawberries, so it is sold out at
opening; kiwi-juice takes 3 kiwi), signs in through the sign-in page, and
asserts on what the page shows, not only on status codes. Screenshots of
every screen at tablet and phone sizes go to .build/screenshots/.
"""
import json
import os
import re
import struct
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect, sync_playwright

from conftest import MANAGER, OWNER, ROOT, STAFF, fresh_server, new_id

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SHOTS = ROOT / ".build" / "screenshots"
SIZES = {"tablet-landscape": (1024, 768), "tablet-portrait": (768, 1024), "phone": (390, 844)}
# WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
TARGETS = "a[href], button, input, select, textarea, summary, [role=button], [role=link]"

# The canonical book's labels, as the pages show them.
LABEL = {"strawberry": "딸기", "banana": "바나나", "kiwi": "키위", "mango": "망고", "pineapple": "파인애플",
         "strawberry-juice": "딸기쥬스", "kiwi-juice": "키위쥬스", "banana-juice": "바나나쥬스"}

# A version 2 book with prices and a kept recipe (servings on hand), for what the canonical book lacks.
PRICED_BOOK = """\
version: 2
fruits:
  strawberry: { label: 딸기, emoji: 🍓 }
  banana: { label: 바나나, emoji: 🍌 }
  mango: { label: 망고, emoji: 🥭 }
  kiwi: { label: 키위, emoji: 🥝 }
stock: { strawberry: 10, banana: 10, mango: 10, kiwi: 10, syrup: 2 }
recipes:
  syrup: { yield: 4, label: 시럽, recipe: { mango: 3, kiwi: 1 } }
menu:
  strawberry-juice: { label: 딸기쥬스, price: 6500, recipe: { strawberry: 16 } }
  kiwi-juice: { label: 키위쥬스, price: 4500, recipe: { kiwi: 3 } }
  syrup-banana-juice: { label: 시럽바나나쥬스, price: 12000, recipe: { syrup: 1, banana: 1 } }
"""

expect.set_options(timeout=5_000)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


class Till:
    """One browser context (its own cookies and till name) and its page."""

    def __init__(self, browser, server, size=(1024, 768)):
        self.server = server
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        # A blocked inline script or an outside resource shows as a CSP report on the console.
        self.page.on("console", lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None)

    def sign_in(self, who):
        page = self.page
        page.goto(self.server.url + "/")
        expect(page).to_have_url(self.server.url + "/signin")
        page.get_by_label("User name").fill(who[0])
        page.get_by_label("Password").fill(who[1])
        page.get_by_role("button", name="Sign in").click()
        expect(page).to_have_url(self.server.url + "/")
        expect(page.locator("header .who")).to_contain_text(who[0])
        return self

    def goto(self, path):
        response = self.page.goto(self.server.url + path)
        assert response is not None
        return response


@pytest.fixture
def tills(browser):
    opened = []

    def open_till(server, who=None, size=(1024, 768)):
        till = Till(browser, server, size)
        opened.append(till)
        return till.sign_in(who) if who else till

    yield open_till
    errors = [e for till in opened for e in till.errors]
    for till in opened:
        till.context.close()
    assert errors == [], f"script errors on the pages: {errors}"


def wait_live(page):
    """Waits until the page's event stream is connected. Predicates are functions: the CSP forbids eval."""
    page.wait_for_function("() => document.documentElement.dataset.live === 'on'", timeout=5_000)


def count(page, fruit):
    return page.locator(f'[data-fruit="{fruit}"] .count')


def item(page, menu_id):
    return page.locator(f'button.item[data-item="{menu_id}"]')


def mark(page):
    """Marks the window, so a reload (which would clear the mark) shows."""
    page.evaluate("window.__noReload = 'still here'")


def still_marked(page):
    return page.evaluate("window.__noReload") == "still here"


def api_order(server, who, menu_id, quantity=1, till="front"):
    r = server.session(who).post(server.url + "/api/orders", json={"id": new_id(), "item": menu_id, "quantity": quantity, "till": till}, timeout=10)
    return r


# MARK: sign in, counter, ×N, sold out


def test_sign_in_refuses_a_wrong_password_then_opens_the_counter(server, tills):
    till = tills(server)
    page = till.page
    page.goto(server.url + "/stock")
    expect(page).to_have_url(server.url + "/signin")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    page.get_by_label("User name").fill("anna")
    page.get_by_label("Password").fill("not-her-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#sign-in-error")).to_have_text("the user name or password is wrong")
    expect(page).to_have_url(server.url + "/signin")
    till.sign_in(MANAGER)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Counter")
    expect(page.locator("header .who")).to_contain_text("anna (manager)")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link")).to_have_text(["Counter", "Stock", "Journal", "Day report"])
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(server.url + "/signin")
    page.goto(server.url + "/")
    expect(page).to_have_url(server.url + "/signin")


def test_the_counter_shows_each_fruit_and_item_and_a_tap_orders_one(server, tills):
    page = tills(server, MANAGER).page
    fruits = page.locator("#fruits li")
    expect(fruits).to_have_count(5)
    for fruit, emoji in [("strawberry", "🍓"), ("banana", "🍌"), ("pineapple", "🍍"), ("kiwi", "🥝"), ("mango", "🥭")]:
        row = page.locator(f'[data-fruit="{fruit}"]')
        expect(row).to_contain_text(emoji)
        expect(row).to_contain_text(LABEL[fruit])
        expect(count(page, fruit)).to_have_text("10")
    expect(page.locator("#menu button.item")).to_have_count(7)
    expect(item(page, "strawberry-juice")).to_contain_text("딸기쥬스")
    expect(item(page, "strawberry-juice").locator(".state")).to_have_text("Sold out")
    expect(item(page, "kiwi-juice").locator(".state")).to_have_text("Ready · 3 can be made")
    expect(item(page, "banana-juice").locator(".state")).to_have_text("Ready · 5 can be made")
    # Each item is a big button, named by its label and state.
    expect(page.get_by_role("button", name="키위쥬스 Ready · 3 can be made")).to_be_visible()
    box = item(page, "kiwi-juice").bounding_box()
    assert box["width"] >= 150 and box["height"] >= 80, box

    wait_live(page)
    mark(page)
    item(page, "kiwi-juice").click()
    expect(count(page, "kiwi")).to_have_text("7")
    expect(item(page, "kiwi-juice").locator(".state")).to_have_text("Ready · 2 can be made")
    expect(page.locator("#status")).to_have_text("1 × 키위쥬스 made.")
    # The mango-kiwi item shares the kiwi: its capacity follows.
    expect(item(page, "mango-kiwi-juice").locator(".state")).to_have_text("Ready · 5 can be made")
    assert still_marked(page), "the counter reloaded to show the order"
    # The server agrees with the screen.
    shop = page.request.get(server.url + "/api/shop").json()
    assert {f["id"]: f["count"] for f in shop["fruits"]}["kiwi"] == 7


def test_times_n_orders_several_at_once_then_goes_back_to_one(server, tills):
    page = tills(server, MANAGER).page
    quantity = page.get_by_label("Quantity ×")
    expect(quantity).to_have_value("1")
    page.get_by_role("button", name="One more").click()
    page.get_by_role("button", name="One more").click()
    expect(quantity).to_have_value("3")
    page.get_by_role("button", name="One fewer").click()
    expect(quantity).to_have_value("2")
    item(page, "banana-juice").click()
    expect(count(page, "banana")).to_have_text("6")  # 2 × 2 bananas
    expect(page.locator("#status")).to_have_text("2 × 바나나쥬스 made.")
    expect(quantity).to_have_value("1")
    quantity.fill("3")
    item(page, "banana-juice").click()
    expect(count(page, "banana")).to_have_text("0")
    expect(item(page, "banana-juice").locator(".state")).to_have_text("Sold out")
    expect(item(page, "strawberry-banana-juice").locator(".state")).to_have_text("Sold out")
    # The whole order or nothing: ×2 of kiwi-juice needs 6 of 10 kiwi, ×4 needs 12.
    quantity.fill("4")
    item(page, "kiwi-juice").click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    expect(count(page, "kiwi")).to_have_text("10")


def test_prices_and_servings_on_hand_of_kept_recipes(tmp_path, users_database, tills):
    book = tmp_path / "book"
    book.mkdir()
    (book / "shop.yaml").write_text(PRICED_BOOK)
    server = fresh_server(tmp_path / "shop", users_database, book)
    server.start()
    try:
        page = tills(server, STAFF).page
        expect(item(page, "strawberry-juice").locator(".price")).to_have_text("6,500")
        expect(item(page, "syrup-banana-juice").locator(".price")).to_have_text("12,000")
        expect(item(page, "kiwi-juice")).to_contain_text("4,500")
        servings = page.locator('[data-servings="syrup"]')
        expect(page.get_by_role("heading", name="Servings on hand")).to_be_visible()
        expect(servings).to_contain_text("시럽")
        expect(servings.locator(".count")).to_have_text("2")
        check_screen(page, "counter-priced", "tablet-landscape", SIZES["tablet-landscape"])
        wait_live(page)
        item(page, "syrup-banana-juice").click()
        expect(servings.locator(".count")).to_have_text("1")
        expect(count(page, "banana")).to_have_text("9")
        # A manager steps the servings on hand on the stock page; the counter follows.
        stock = tills(server, MANAGER).page
        stock.get_by_role("link", name="Stock").click()
        row = stock.locator('.stock-row[data-stock="syrup"]')
        expect(row).to_contain_text("시럽")
        expect(row.locator(".count")).to_have_text("1")
        check_screen(stock, "stock-priced", "tablet-landscape", SIZES["tablet-landscape"])
        stock.get_by_role("button", name="Add one 시럽").click()
        expect(row.locator(".count")).to_have_text("2")
        expect(servings.locator(".count")).to_have_text("2", timeout=1_000)
        stock.get_by_role("button", name="Take one 시럽").click()
        stock.get_by_role("button", name="Take one 시럽").click()
        expect(row.locator(".count")).to_have_text("0")
        expect(stock.get_by_role("button", name="Take one 시럽")).to_be_disabled()
        expect(servings.locator(".count")).to_have_text("0", timeout=1_000)
    finally:
        server.stop()


# MARK: refusals: edit stock and make now, or ask a manager


def test_a_refusal_offers_a_manager_edit_stock_and_make_now(server, tills):
    page = tills(server, MANAGER).page
    item(page, "strawberry-juice").click()
    dialog = page.get_by_role("alertdialog", name="Not enough fruit")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("딸기쥬스 × 1 was refused: not enough 🍓 딸기 (10 on hand).")
    assert dialog.evaluate("(d) => d.matches(':modal')"), "the refusal is not a modal dialog"
    expect(dialog.get_by_role("link", name="Edit stock")).to_be_focused()
    expect(dialog.get_by_role("button", name="Make now")).to_be_visible()
    expect(dialog).not_to_contain_text("Ask a manager")
    expect(count(page, "strawberry")).to_have_text("10")

    # Another till adds strawberries; "make now" in the dialog makes the refused order.
    r = server.session(MANAGER).post(server.url + "/api/stock", json={"fruit": "strawberry", "add": 6}, timeout=10)
    assert r.status_code == 201, r.text
    expect(count(page, "strawberry")).to_have_text("16")
    dialog.get_by_role("button", name="Make now").click()
    expect(dialog).to_be_hidden()
    expect(count(page, "strawberry")).to_have_text("0")
    expect(page.locator("#status")).to_have_text("1 × 딸기쥬스 made.")

    # Refused again: edit stock leads to the stock page, which remembers the order.
    item(page, "strawberry-juice").click()
    expect(dialog).to_contain_text("not enough 🍓 딸기 (0 on hand)")
    dialog.get_by_role("link", name="Edit stock").click()
    expect(page).to_have_url(re.compile(re.escape(server.url) + r"/stock\?refusal=\d+&item=strawberry-juice&quantity=1&short=strawberry$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Stock")
    retry = page.locator("#retry")
    expect(retry.get_by_role("heading")).to_have_text("Refused: 딸기쥬스 × 1")
    expect(retry).to_contain_text("Short: 🍓 딸기.")
    row = page.locator('.stock-row[data-stock="strawberry"]')
    expect(row).to_contain_text("(short)")
    expect(row.locator(".count")).to_have_text("0")
    # Never below 0: the step down is off at 0, and a negative count is refused.
    expect(page.get_by_role("button", name="Take one 딸기")).to_be_disabled()
    field = page.get_by_label("Set to").and_(page.locator("#set-fruit-strawberry"))
    field.fill("-4")
    page.get_by_role("button", name="Set 딸기").click()
    expect(page.locator("#status")).to_have_text("🍓 딸기: stock cannot go below 0.")
    expect(row.locator(".count")).to_have_text("0")
    # The number field, then the stepper.
    field.fill("15")
    page.get_by_role("button", name="Set 딸기").click()
    expect(row.locator(".count")).to_have_text("15")
    expect(page.locator("#status")).to_have_text("🍓 딸기 is now 15.")
    page.get_by_role("button", name="Add one 딸기").click()
    expect(row.locator(".count")).to_have_text("16")
    expect(field).to_have_value("16")
    page.get_by_role("button", name="Take one 딸기").click()
    expect(row.locator(".count")).to_have_text("15")
    page.get_by_role("button", name="Add one 딸기").click()
    expect(row.locator(".count")).to_have_text("16")
    retry.get_by_role("button", name="Make now").click()
    expect(page.locator("#status")).to_have_text("Made: 딸기쥬스 × 1.")
    expect(retry.get_by_role("button", name="Make now")).to_be_disabled()
    expect(row.locator(".count")).to_have_text("0")
    # The journal says the order made the refusal good.
    page.get_by_role("link", name="Journal").click()
    newest = page.locator("#journal tbody tr").first
    expect(newest).to_contain_text("1 × strawberry-juice: 16 strawberry; makes good refusal #")
    # Back at the counter, the stock shows the order.
    page.get_by_role("link", name="Counter").click()
    expect(count(page, "strawberry")).to_have_text("0")
    expect(item(page, "strawberry-juice").locator(".state")).to_have_text("Sold out")


def test_a_refusal_tells_staff_to_ask_a_manager(server, tills):
    page = tills(server, STAFF).page
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link")).to_have_text(["Counter", "Journal"])
    item(page, "strawberry-juice").click()
    dialog = page.get_by_role("alertdialog", name="Not enough fruit")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("딸기쥬스 × 1 was refused: not enough 🍓 딸기 (10 on hand).")
    expect(dialog).to_contain_text("Ask a manager to add the fruit.")
    expect(dialog.get_by_role("link", name="Edit stock")).to_have_count(0)
    expect(dialog.get_by_role("button", name="Make now")).to_have_count(0)
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    assert dialog.evaluate("(d) => d.matches(':modal')"), "the refusal is not a modal dialog"
    # Tab stays in the dialog: the page behind it is inert.
    page.keyboard.press("Tab")
    assert dialog.evaluate("(d) => d.contains(document.activeElement) || document.activeElement === document.body")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    item(page, "strawberry-juice").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    expect(count(page, "strawberry")).to_have_text("10")


@pytest.mark.parametrize("path", ["/stock", "/report"])
def test_staff_are_refused_the_manager_pages(server, tills, path):
    till = tills(server, STAFF)
    response = till.goto(path)
    assert response.status == 403
    page = till.page
    expect(page.get_by_role("heading", level=1)).to_have_text("Managers only")
    expect(page.locator("main")).to_contain_text("This page is for managers. Ask a manager if you need it.")
    expect(page.locator(".stock-row")).to_have_count(0)
    expect(page.locator("#figures")).to_have_count(0)
    expect(page.get_by_role("button", name="Close the day")).to_have_count(0)
    page.get_by_role("link", name="Back to the counter").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Counter")


# MARK: journal: filters, void and refund


def test_the_journal_filters_and_a_manager_voids_and_refunds(server, tills):
    anna = tills(server, MANAGER)
    page = anna.page
    item(page, "kiwi-juice").click()
    expect(count(page, "kiwi")).to_have_text("7")
    till_name = page.locator("#till-name").inner_text().split()[-1]
    assert till_name.startswith("till-")
    assert api_order(server, STAFF, "banana-juice", till="front").status_code == 201
    assert api_order(server, MANAGER, "mango-juice", till="back").status_code == 201
    expect(count(page, "banana")).to_have_text("8")

    page.get_by_role("link", name="Journal").click()
    rows = page.locator("#journal tbody tr")
    orders = page.locator('#journal tbody tr[data-kind="order"]')
    expect(orders).to_have_count(3)
    sequences = [int(s) for s in page.locator("#journal tbody tr td:first-child").all_inner_texts()]
    assert sequences == sorted(sequences, reverse=True), f"not newest first: {sequences}"
    expect(rows.first).to_contain_text("mango-juice")
    expect(rows.last).to_contain_text("day opened")
    expect(rows.last.locator("td").nth(2)).to_have_text("system")

    # A change elsewhere is offered, not forced on the page: no reload under the manager's finger.
    wait_live(page)
    mark(page)
    assert api_order(server, STAFF, "pineapple-juice", till="side").status_code == 201
    expect(page.get_by_role("button", name="New entries: show them")).to_be_visible(timeout=1_000)
    assert still_marked(page)
    expect(orders).to_have_count(3)
    page.get_by_role("button", name="New entries: show them").click()
    expect(orders).to_have_count(4)
    expect(rows.first).to_contain_text("pineapple-juice")

    # By till, then by user.
    page.get_by_label("Till").select_option("front")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"[?&]till=front(&|$)"))
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("banana-juice")
    expect(rows.first.locator("td").nth(2)).to_have_text("sam")
    page.get_by_label("Till").select_option("")
    page.get_by_label("User").select_option("anna")
    page.get_by_role("button", name="Show").click()
    expect(orders).to_have_count(2)
    assert set(page.locator("#journal tbody tr td:nth-child(3)").all_inner_texts()) == {"anna"}
    page.get_by_label("User").select_option("")
    page.get_by_label("Till").select_option(till_name)
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("kiwi-juice")

    # Void the kiwi order: its fruit comes back.
    kiwi = page.locator('#journal tbody tr[data-kind="order"]', has_text="kiwi-juice")
    kiwi_order = kiwi.locator("td").first.inner_text()
    page.get_by_role("button", name=f"Void order {kiwi_order}").click()
    expect(kiwi.locator("td.actions")).to_have_text("voided")
    expect(page.locator("#status")).to_have_text(f"Order #{kiwi_order} voided.")
    # Refund the banana order: money back, fruit not.
    page.goto(server.url + "/journal")
    banana = page.locator('#journal tbody tr[data-kind="order"]', has_text="banana-juice")
    banana_order = banana.locator("td").first.inner_text()
    page.get_by_role("button", name=f"Refund order {banana_order}").click()
    expect(banana.locator("td.actions")).to_have_text("refunded")
    page.reload()
    expect(page.locator('#journal tbody tr[data-kind="void"]')).to_contain_text(f"void of order #{kiwi_order} (kiwi-juice)")
    expect(page.locator('#journal tbody tr[data-kind="refund"]')).to_contain_text(f"refund of order #{banana_order} (banana-juice)")
    expect(kiwi.locator("td.actions")).to_have_text("voided")
    expect(kiwi.get_by_role("button")).to_have_count(0)
    expect(banana.get_by_role("button")).to_have_count(0)
    page.get_by_role("link", name="Counter").click()
    expect(count(page, "kiwi")).to_have_text("10")
    expect(count(page, "banana")).to_have_text("8")

    # Staff see their own entries only, and no void or refund.
    sam = tills(server, STAFF).page
    sam.get_by_role("link", name="Journal").click()
    expect(sam.locator("#journal caption")).to_contain_text("Your entries, newest first")
    expect(sam.locator('#journal tbody tr[data-kind="order"]')).to_have_count(2)
    assert set(sam.locator("#journal tbody tr td:nth-child(3)").all_inner_texts()) == {"sam"}
    sam_banana = sam.locator('#journal tbody tr[data-kind="order"]', has_text="banana-juice")
    expect(sam_banana.locator("td.actions")).to_have_text("refunded")
    expect(sam.get_by_role("button", name="Void")).to_have_count(0)
    expect(sam.get_by_role("button", name="Refund")).to_have_count(0)
    expect(sam.get_by_label("User")).to_have_count(0)
    expect(sam.get_by_label("Till")).to_be_visible()


# MARK: day close


def test_the_day_closes_from_the_report_page(server, tills):
    anna = tills(server, MANAGER)
    page = anna.page
    item(page, "kiwi-juice").click()
    expect(count(page, "kiwi")).to_have_text("7")
    item(page, "strawberry-juice").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Close").click()
    page.get_by_role("link", name="Day report").click()
    day = page.locator("h1 .day").inner_text()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Day report {day}")
    expect(page.locator("#day-state")).to_have_text("Running: the day is still open.")
    total = page.locator("#figures tbody tr").first
    expect(total.locator("th")).to_have_text("Day")
    # Orders counts the refusal too; the canonical book has no prices or costs.
    expect(total.locator("td")).to_have_text(["2", "1", "1", "0", "0", "0.00", "unknown", "unknown", "0.00"])

    with page.expect_download() as csv_download:
        page.get_by_role("link", name="Download CSV").click()
    csv = Path(csv_download.value.path()).read_text().splitlines()
    assert csv_download.value.suggested_filename == f"z-report-{day}.csv"
    assert csv[0].startswith("day,group,name,orders,served,refused")
    assert csv[1].startswith(f"{day},day,,2,1,1,0,0,")
    with page.expect_download() as json_download:
        page.get_by_role("link", name="Download JSON").click()
    report = json.loads(Path(json_download.value.path()).read_text())
    assert json_download.value.suggested_filename == f"z-report-{day}.json"
    assert report["day"] == day and report["closed"] is False and report["total"]["served"] == 1

    # Printable: the figures without the buttons and the navigation.
    page.emulate_media(media="print")
    expect(page.locator("#figures")).to_be_visible()
    expect(page.get_by_role("link", name="Download CSV")).to_be_hidden()
    expect(page.get_by_role("button", name="Close the day")).to_be_hidden()
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    page.emulate_media(media="screen")

    page.get_by_role("button", name="Close the day").click()
    confirm = page.locator("#confirm-close")
    expect(confirm).to_contain_text(f"Close {day}?")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    page.get_by_role("button", name="Close the day").click()
    confirm.get_by_role("button", name=f"Yes, close {day}").click()
    expect(page).to_have_url(server.url + f"/report?day={day}")
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Z report {day}")
    expect(page.locator("#day-state")).to_have_text("Closed: this is the day's Z report.")
    expect(page.get_by_role("button", name="Close the day")).to_have_count(0)
    expect(page.locator("dl")).to_contain_text("At close")
    expect(page.locator("dl")).to_contain_text("kiwi 7")
    with page.expect_download() as closed_json:
        page.get_by_role("link", name="Download JSON").click()
    assert json.loads(Path(closed_json.value.path()).read_text())["closed"] is True

    # The next day opens with the closing stock.
    page.get_by_role("link", name="Counter").click()
    expect(page.locator("h1 .day")).not_to_have_text(day)
    expect(count(page, "kiwi")).to_have_text("7")


# MARK: two tills, live


def test_two_tills_see_each_others_orders_within_a_second(server, tills):
    anna = tills(server, MANAGER).page
    sam = tills(server, STAFF).page
    for page in (anna, sam):
        wait_live(page)
        mark(page)

    def order_and_watch(orderer, watcher, menu_id, fruit, expected):
        with orderer.expect_response(lambda r: r.url.endswith("/api/orders")) as answer:
            item(orderer, menu_id).click()
        assert answer.value.status == 201
        seen = time.monotonic()
        watcher.wait_for_function(
            "([fruit, expected]) => document.querySelector(`[data-fruit='${fruit}'] .count`).textContent === expected",
            arg=[fruit, expected], timeout=1_000)
        return time.monotonic() - seen

    took = [order_and_watch(sam, anna, "banana-juice", "banana", "8"),
            order_and_watch(anna, sam, "kiwi-juice", "kiwi", "7"),
            order_and_watch(sam, anna, "mango-kiwi-juice", "mango", "8")]
    assert max(took) < 1.0, took
    expect(item(anna, "kiwi-juice").locator(".state")).to_have_text("Ready · 2 can be made")
    expect(count(sam, "kiwi")).to_have_text("6")
    # The stock page follows the counters, and a change made there reaches them.
    stock = tills(server, MANAGER).page
    stock.get_by_role("link", name="Stock").click()
    wait_live(stock)
    order_and_watch(sam, anna, "banana-juice", "banana", "6")
    expect(stock.locator('.stock-row[data-stock="banana"] .count')).to_have_text("6", timeout=1_000)
    expect(stock.locator("#set-fruit-banana")).to_have_value("6")
    stock.locator("#set-fruit-strawberry").fill("32")
    stock.get_by_role("button", name="Set 딸기").click()
    expect(count(sam, "strawberry")).to_have_text("32", timeout=1_000)
    expect(item(sam, "strawberry-juice").locator(".state")).to_have_text("Ready · 2 can be made", timeout=1_000)
    assert still_marked(anna) and still_marked(sam), "a till reloaded to show a change"


# MARK: accessibility, target sizes, page weight, screenshots


FOCUS_RING = """() => { const e = document.activeElement, s = getComputedStyle(e), r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return [e.tagName + (e.id ? "#" + e.id : "") + " " + (e.textContent || "").trim().slice(0, 20), s.outlineStyle,
            parseFloat(s.outlineWidth), hit !== null && (hit === e || e.contains(hit))]; }"""


def check_focus_ring(page, name, presses=40):
    """Each element Tab reaches shows a focus ring at least 2 px wide, and is not hidden (by the status bar)."""
    page.locator("body").focus()
    for _ in range(presses):
        page.keyboard.press("Tab")
        element, style, width, seen = page.evaluate(FOCUS_RING)
        if element.startswith("BODY"):
            break
        assert style != "none" and width >= 2, f"{name}: {element} has no visible focus ring ({style} {width}px)"
        assert seen, f"{name}: {element} is hidden under something when focused"


def png_size(path: Path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def check_screen(page, name, size_name, size):
    """axe-core finds nothing serious or critical, every target is 44 × 44, and a screenshot is taken."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]})
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5]) for v in results.response["violations"]
           if v["impact"] in ("serious", "critical")]
    assert bad == [], f"{name} at {size_name}: {bad}"
    small = page.evaluate("""(selector) => Array.from(document.querySelectorAll(selector)).filter((e) => {
        const r = e.getBoundingClientRect(), s = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && (r.width < 44 || r.height < 44);
    }).map((e) => e.outerHTML.slice(0, 80) + " " + Math.round(e.getBoundingClientRect().width) + "x" + Math.round(e.getBoundingClientRect().height))""", TARGETS)
    assert small == [], f"{name} at {size_name}: targets under 44 × 44 CSS px: {small}"
    # Reflow: the page itself never scrolls sideways (a wide table scrolls in its own region).
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{name} at {size_name}: the page is {wide[0]} px wide in a {wide[1]} px window"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{name}-{size_name}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 2_000
    assert png_size(shot) == size, f"{shot}: {png_size(shot)}"


@pytest.mark.parametrize("size_name", list(SIZES))
def test_every_screen_is_accessible_with_44_pixel_targets(server, tills, size_name):
    size = SIZES[size_name]
    for menu_id, till in [("kiwi-juice", "front"), ("banana-juice", "back")]:
        assert api_order(server, STAFF, menu_id, till=till).status_code == 201
    assert api_order(server, MANAGER, "mango-juice").status_code == 201

    anna = tills(server, size=size)
    page = anna.page
    page.goto(server.url + "/signin")
    check_screen(page, "signin", size_name, size)
    anna.sign_in(MANAGER)
    check_screen(page, "counter", size_name, size)
    item(page, "kiwi-juice").click()
    expect(page.locator("#status")).to_have_text("1 × 키위쥬스 made.")
    check_focus_ring(page, "counter with a message")
    item(page, "strawberry-juice").click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    check_screen(page, "refusal-manager", size_name, size)
    page.get_by_role("alertdialog").get_by_role("link", name="Edit stock").click()
    expect(page.locator("#retry")).to_be_visible()
    check_screen(page, "stock", size_name, size)
    page.goto(server.url + "/journal")
    expect(page.locator("#journal tbody tr")).to_have_count(6)
    check_screen(page, "journal", size_name, size)
    page.goto(server.url + "/report")
    check_screen(page, "report", size_name, size)
    check_focus_ring(page, "report")
    page.get_by_role("button", name="Close the day").click()
    check_screen(page, "report-confirm", size_name, size)

    sam = tills(server, STAFF, size=size)
    item(sam.page, "strawberry-juice").click()
    expect(sam.page.get_by_role("alertdialog")).to_be_visible()
    check_screen(sam.page, "refusal-staff", size_name, size)
    sam.goto("/journal")
    check_screen(sam.page, "journal-staff", size_name, size)
    assert sam.goto("/report").status == 403
    check_screen(sam.page, "managers-only", size_name, size)


@pytest.mark.parametrize("size_name", ["tablet-landscape", "phone"])
def test_the_owner_sees_the_chain_and_managers_do_not(server, tills, size_name):
    """The owner's /chain page: every shop's stock and the chain's figures,
    accessible at a tablet's and a phone's size; a manager is refused it and
    has no link to it."""
    size = SIZES[size_name]
    assert api_order(server, MANAGER, "kiwi-juice", 2).status_code == 201
    olga = tills(server, OWNER, size=size)
    page = olga.page
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Chain").click()
    expect(page.locator("h1")).to_contain_text("Chain")
    shops = page.locator("#chain-stock tbody tr")
    expect(shops.first.locator("th")).to_have_text("main")
    expect(page.locator("#chain-figures tbody tr").last.locator("th")).to_have_text("Chain")
    # The chain's orders are the shop's: 1 order of the day, served.
    expect(page.locator("#chain-figures tbody tr").last.locator("td").first).to_have_text("1")
    check_screen(page, "chain", size_name, size)
    anna = tills(server, MANAGER, size=size)
    expect(anna.page.get_by_role("link", name="Chain")).to_have_count(0)
    assert anna.goto("/chain").status == 403


def test_the_readme_shows_a_tablet_counter():
    image = ROOT / "docs" / "images" / "counter.png"
    assert png_size(image) == SIZES["tablet-landscape"]
    assert 10_000 < image.stat().st_size < 200_000
    assert "docs/images/counter.png" in (ROOT / "README.md").read_text(), "the README does not show docs/images/counter.png"


def test_the_screen_checks_can_fail(server, tills):
    """axe, the target sizes and the focus ring each catch a planted fault (styled through the CSSOM: the CSP blocks inline styles)."""
    page = tills(server, MANAGER).page
    page.evaluate("""() => { const p = document.createElement("p"); p.id = "planted";
        p.innerHTML = '<input id="nameless"> <span>faint</span>'; p.querySelector("span").style.color = "#c8c8c8";
        document.querySelector("main").prepend(p); }""")
    with pytest.raises(AssertionError, match="label.*color-contrast|color-contrast.*label"):
        check_screen(page, "planted", "tablet-landscape", (1024, 768))
    page.evaluate("""() => { const p = document.querySelector("#planted"); p.innerHTML = '<label>Tiny <input type="checkbox"></label>';
        Object.assign(p.querySelector("input").style, { width: "16px", height: "16px", minWidth: "0", minHeight: "0", margin: "0" }); }""")
    with pytest.raises(AssertionError, match="targets under 44"):
        check_screen(page, "planted", "tablet-landscape", (1024, 768))
    page.evaluate("""() => { document.querySelector("#planted").remove(); const s = document.querySelector("#status");
        s.textContent = "a tall message"; s.style.height = "600px"; }""")
    with pytest.raises(AssertionError, match="hidden under something"):
        check_focus_ring(page, "planted")
    page.evaluate("""() => { document.querySelector("#status").style.height = "";
        document.styleSheets[0].insertRule("*:focus-visible { outline: none !important; }", document.styleSheets[0].cssRules.length); }""")
    with pytest.raises(AssertionError, match="no visible focus ring"):
        check_focus_ring(page, "planted")


def test_the_counter_page_is_small_with_a_small_script_and_nothing_inline(server):
    session = server.session(MANAGER)
    counter = session.get(server.url + "/", timeout=10)
    assert counter.status_code == 200
    assert len(counter.content) <= 20 * 1024, len(counter.content)
    script = session.get(server.url + "/app.js", timeout=10)
    assert script.status_code == 200 and script.headers["Content-Type"].startswith("text/javascript")
    assert len(script.content) <= 8 * 1024, f"app.js is {len(script.content)} bytes"
    for path in ["/", "/stock", "/journal", "/report"]:
        html = session.get(server.url + path, timeout=10).text
        # Scripts only from this server, by file: no inline script, no CDN.
        assert html.count("<script") == html.count('<script src="/app.js" defer></script>') == 1, path
        assert " on" + "click=" not in html and "javascript:" not in html, path
        assert "http://" not in html and "https://" not in html, path
    assert requests.get(server.url + "/signin", timeout=10).text.count("<script") == 1
