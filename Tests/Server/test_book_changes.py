"""The server watches its recipe files: a change without errors is taken at
once, a change with errors is refused (the running book stays and managers
see the errors as juice-lint prints them), and the journal stays the truth
for the stock, whatever the book's `stock:` says later."""
import time

from conftest import MANAGER, STAFF, new_id


def shop(session, server):
    r = session.get(server.url + "/api/shop", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(check, seconds=6.0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    return check()


def test_a_clean_change_adds_the_item_for_every_till(server):
    manager = server.session(MANAGER)
    staff = server.session(STAFF)
    before = shop(staff, server)
    assert "banana-kiwi-juice" not in [item["id"] for item in before["menu"]]
    menu = server.recipes / "menu.yaml"
    menu.write_text(menu.read_text() + "  banana-kiwi-juice:\n    label: Banana kiwi\n    recipe: { banana: 1, kiwi: 1 }\n")
    after = wait_for(lambda: (lambda s: s if "banana-kiwi-juice" in [i["id"] for i in s["menu"]] else None)(shop(staff, server)))
    assert after, "the new item never reached the till"
    assert after["bookVersion"] == before["bookVersion"] + 1
    r = manager.post(server.url + "/api/orders", json={"id": new_id(), "item": "banana-kiwi-juice", "quantity": 2}, timeout=10)
    assert r.status_code == 201, r.text
    counts = {f["id"]: f["count"] for f in shop(manager, server)["fruits"]}
    assert counts["banana"] == 8 and counts["kiwi"] == 8


def test_a_change_with_errors_is_refused_and_the_book_stays(server):
    manager = server.session(MANAGER)
    staff = server.session(STAFF)
    before = shop(manager, server)
    assert before.get("bookProblems") is None
    menu = server.recipes / "menu.yaml"
    text = menu.read_text()
    menu.write_text(text.replace("recipe: { kiwi: 3 }", "recipe: { kiwii: 3 }"))
    problems = wait_for(lambda: shop(manager, server).get("bookProblems"))
    assert problems, "the refused change was never shown to the manager"
    # juice-lint's own words: the file, the line and column, the rule, and did-you-mean.
    line = text[: text.index("recipe: { kiwi: 3 }")].count("\n") + 1
    assert f"menu.yaml:{line}:" in problems
    assert "unknown-fruit" in problems and "kiwi" in problems
    # Staff never see the diagnostics; the running book still sells kiwi-juice.
    assert shop(staff, server).get("bookProblems") is None
    assert shop(manager, server)["bookVersion"] == before["bookVersion"]
    r = manager.post(server.url + "/api/orders", json={"id": new_id(), "item": "kiwi-juice", "quantity": 1}, timeout=10)
    assert r.status_code == 201, r.text
    # Fixing the file takes the book again and clears the problems.
    menu.write_text(text)
    assert wait_for(lambda: shop(manager, server).get("bookProblems") is None and shop(manager, server)["bookVersion"] == before["bookVersion"] + 1)


def test_the_journal_not_the_books_stock_is_the_truth(server):
    manager = server.session(MANAGER)
    r = manager.post(server.url + "/api/orders", json={"id": new_id(), "item": "kiwi-juice", "quantity": 1}, timeout=10)
    assert r.status_code == 201, r.text
    fruits = server.recipes / "fruits.yaml"
    fruits.write_text(fruits.read_text().replace("kiwi: 10", "kiwi: 50"))
    assert wait_for(lambda: shop(manager, server)["bookVersion"] == 2)
    counts = {f["id"]: f["count"] for f in shop(manager, server)["fruits"]}
    assert counts["kiwi"] == 7
    # and a restart replays the journal to the same stock
    server.stop()
    server.start()
    manager = server.session(MANAGER)
    counts = {f["id"]: f["count"] for f in shop(manager, server)["fruits"]}
    assert counts["kiwi"] == 7
