"""juice-serve's JSON API through real HTTP: each point of the contract in
openapi.yaml, with the status, the error code and the fields asserted.

Every test runs its own server (the `server` fixture) on a fresh journal
with the canonical book: 10 of each fruit; kiwi-juice takes 3 kiwi,
banana-juice 2 bananas, mango-kiwi-juice 2 mango and 1 kiwi, and
strawberry-juice 16 strawberries (never makeable from the opening stock).
"""
import json
import queue
import re
import signal
import threading
import time
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

import pytest
import requests

from conftest import MANAGER, STAFF, fresh_server, new_id

UNSAFE_ROUTES = [
    ("POST", "/api/orders", {"id": "csrf-check", "item": "banana-juice", "quantity": 1}),
    ("POST", "/api/orders/1/void", None),
    ("POST", "/api/orders/1/refund", None),
    ("POST", "/api/stock", {"fruit": "kiwi", "add": 1}),
    ("POST", "/api/day/close", None),
    ("DELETE", "/api/session", None),
]
MANAGER_ROUTES = [
    ("POST", "/api/orders/1/void", None),
    ("POST", "/api/orders/1/refund", None),
    ("POST", "/api/stock", {"fruit": "kiwi", "add": 1}),
    ("POST", "/api/day/close", None),
    ("GET", "/api/day/{today}/report", None),
]
READ_ROUTES = ["/api/shop", "/api/journal", "/api/journal?day=2024-01-01", "/api/day/2024-01-01/report", "/api/events"]


def error_code(response, status):
    """The error code of a JSON error answer with `status`."""
    assert response.status_code == status, f"{response.status_code} {response.text[:500]}"
    assert response.headers["Content-Type"].startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
    return body["error"]["code"]


def shop(s, server):
    r = s.get(server.url + "/api/shop", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def stock(s, server):
    return {fruit["id"]: fruit["count"] for fruit in shop(s, server)["fruits"]}


def order(s, server, item, quantity=1, id=None, **extra):
    return s.post(server.url + "/api/orders", json={"id": new_id() if id is None else id, "item": item, "quantity": quantity, **extra}, timeout=10)


def journal(s, server, **params):
    r = s.get(server.url + "/api/journal", params=params, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def today(s, server):
    return shop(s, server)["day"]


# MARK: Signing in and out


def test_sign_in_answers_the_csrf_token_and_a_strict_http_only_cookie(server):
    r = requests.post(server.url + "/api/session", json={"user": MANAGER[0], "password": MANAGER[1]}, timeout=30)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["user"] == "anna" and body["role"] == "manager"
    assert re.fullmatch(r"[0-9a-f]{64}", body["csrf"])
    cookie = r.headers["Set-Cookie"]
    attributes = [part.strip() for part in cookie.split(";")]
    assert attributes[0].startswith("juice_session=") and len(attributes[0]) > len("juice_session=") + 20
    lowered = [a.lower() for a in attributes]
    assert "httponly" in lowered
    assert "samesite=strict" in lowered
    assert "path=/" in lowered
    assert not any(a.startswith("domain=") for a in lowered)
    expires = next(a for a in attributes if a.lower().startswith("expires="))
    left = parsedate_to_datetime(expires.split("=", 1)[1]) - datetime.now(timezone.utc)
    assert timedelta(hours=11, minutes=58) < left <= timedelta(hours=12, minutes=1), left


def session_rows(server):
    return server.sql("SELECT key, value, expires FROM sessions")


def test_a_session_ends_after_12_hours_idle_and_use_pushes_that_back(server):
    s = server.session()
    [(key, value, expires)] = session_rows(server)
    left = expires / 1000 - time.time()
    assert 12 * 3600 - 120 < left <= 12 * 3600 + 5, left
    # Used after a while (its last renewal made long ago), the session's
    # idle expiry moves 12 hours on from now, in the store and the cookie.
    session = json.loads(bytes(value))
    session["renewed"] = 0
    server.sql("UPDATE sessions SET value = ?, expires = ? WHERE key = ?",
               (json.dumps(session).encode(), int((time.time() + 3600) * 1000), key))
    r = s.get(server.url + "/api/shop")
    assert r.status_code == 200
    [(_, _, expires)] = session_rows(server)
    assert 12 * 3600 - 120 < expires / 1000 - time.time() <= 12 * 3600 + 5
    cookie_expires = next(a for a in r.headers["Set-Cookie"].split(";") if a.strip().lower().startswith("expires="))
    left = parsedate_to_datetime(cookie_expires.split("=", 1)[1]) - datetime.now(timezone.utc)
    assert timedelta(hours=11, minutes=58) < left <= timedelta(hours=12, minutes=1), left
    # Idle past its expiry, it is over.
    server.sql("UPDATE sessions SET expires = ? WHERE key = ?", (int((time.time() - 1) * 1000), key))
    assert error_code(s.get(server.url + "/api/shop"), 401) == "sign-in-needed"


def test_wrong_passwords_and_unknown_users_are_401(server):
    for body in ({"user": "anna", "password": "not-the-password"}, {"user": "nobody-here", "password": "manager-password-1"}):
        r = requests.post(server.url + "/api/session", json=body, timeout=30)
        assert error_code(r, 401) == "bad-credentials"
        assert "Set-Cookie" not in r.headers


def test_sign_out_ends_the_session_in_the_store(server):
    s = server.session()
    cookie = s.cookies.get("juice_session")
    r = s.delete(server.url + "/api/session")
    assert r.status_code == 204, r.text
    assert r.content == b""
    # The cookie is expired in the browser, and the session is gone on the server.
    assert "juice_session=" in r.headers.get("Set-Cookie", "")
    again = requests.get(server.url + "/api/shop", cookies={"juice_session": cookie}, timeout=10)
    assert error_code(again, 401) == "sign-in-needed"


def test_five_failed_sign_ins_within_a_minute_lock_the_user(server):
    for _ in range(5):
        r = requests.post(server.url + "/api/session", json={"user": "sam", "password": "wrong-password-0"}, timeout=30)
        assert error_code(r, 401) == "bad-credentials"
    # Locked: even the right password is refused now, with when to try again.
    r = requests.post(server.url + "/api/session", json={"user": STAFF[0], "password": STAFF[1]}, timeout=30)
    assert error_code(r, 429) == "locked"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "Set-Cookie" not in r.headers
    # Only that user: another signs in.
    assert server.session(MANAGER).get(server.url + "/api/shop").status_code == 200
    # The lock lasts a minute from the fifth failure: 50 s on, still locked;
    # 61 s on, the right password signs in.
    def age_failures(seconds):
        server.sql("UPDATE sign_in_failures SET time = time - ?", (seconds * 1000,))
    age_failures(50)
    r = requests.post(server.url + "/api/session", json={"user": STAFF[0], "password": STAFF[1]}, timeout=30)
    assert error_code(r, 429) == "locked"
    assert int(r.headers["Retry-After"]) <= 10
    age_failures(11)
    assert server.session(STAFF).get(server.url + "/api/shop").status_code == 200


def test_concurrent_wrong_passwords_get_no_more_than_five_tries(server):
    results = []

    def attempt(i):
        r = requests.post(server.url + "/api/session", json={"user": "sam", "password": f"wrong-password-{i}"}, timeout=60)
        results.append(r.status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(set(results)) == [401, 429], results
    assert results.count(401) <= 5, f"{results.count(401)} passwords were tried for one user at once: {results}"


# MARK: Every call needs a session, the right role and the CSRF token


def test_every_api_call_but_sign_in_needs_a_session(server):
    day = "2024-01-01"
    for cookies in ({}, {"juice_session": "made-up-session-id"}):
        for path in READ_ROUTES:
            r = requests.get(server.url + path, cookies=cookies, timeout=10)
            assert error_code(r, 401) == "sign-in-needed", path
        for method, path, body in UNSAFE_ROUTES:
            r = requests.request(method, server.url + path.replace("{today}", day), json=body, cookies=cookies,
                                 headers={"X-CSRF-Token": "0" * 64}, timeout=10)
            assert error_code(r, 401) == "sign-in-needed", (method, path)


def test_pages_need_a_session(server):
    for path in ("/", "/stock", "/journal", "/report"):
        r = requests.get(server.url + path, allow_redirects=False, timeout=10)
        assert r.status_code in (302, 303), (path, r.status_code)
        assert r.headers["Location"].endswith("/signin")


def test_staff_get_403_on_every_manager_route(server):
    staff = server.session(STAFF)
    made = order(staff, server, "banana-juice").json()
    before = stock(staff, server)
    day = today(staff, server)
    for method, path, body in MANAGER_ROUTES + [("POST", f"/api/orders/{made['clientID']}/void", None),
                                                  ("POST", f"/api/orders/{made['sequence']}/refund", None)]:
        r = staff.request(method, server.url + path.replace("{today}", day), json=body, timeout=10)
        assert error_code(r, 403) == "manager-only", (method, path)
    assert stock(staff, server) == before
    assert shop(staff, server)["day"] == day
    kinds = [e["kind"] for e in journal(server.session(MANAGER), server)["entries"]]
    assert kinds == ["order", "day-open"]


def test_unsafe_calls_need_this_sessions_csrf_token(server):
    s = server.session()
    other = server.session()
    token = s.headers.pop("X-CSRF-Token")
    for header in (None, "", "0" * 64, other.headers["X-CSRF-Token"], token.upper()):
        for method, path, body in UNSAFE_ROUTES:
            headers = {} if header is None else {"X-CSRF-Token": header}
            r = s.request(method, server.url + path, json=body, headers=headers, timeout=10)
            assert error_code(r, 403) == "csrf", (method, path, header)
    s.headers["X-CSRF-Token"] = token
    # Nothing happened, and the session still works with its own token.
    assert [e["kind"] for e in journal(s, server)["entries"]] == ["day-open"]
    assert order(s, server, "banana-juice").status_code == 201


def test_requests_from_another_origin_are_refused(server):
    s = server.session()
    r = s.post(server.url + "/api/orders", json={"id": new_id(), "item": "banana-juice", "quantity": 1},
               headers={"Origin": "http://evil.example"}, timeout=10)
    assert error_code(r, 403) == "cross-origin"
    same = s.post(server.url + "/api/orders", json={"id": new_id(), "item": "banana-juice", "quantity": 1},
                  headers={"Origin": server.url}, timeout=10)
    assert same.status_code == 201, same.text


# MARK: Headers, limits and bad input


def check_security_headers(r, what):
    csp = r.headers.get("Content-Security-Policy", "")
    directives = {d.strip().split(" ")[0]: d.strip() for d in csp.split(";") if d.strip()}
    assert directives.get("frame-ancestors") == "frame-ancestors 'none'", (what, csp)
    assert "script-src" in directives or "default-src" in directives, (what, csp)
    assert "'unsafe-inline'" not in directives.get("script-src", directives.get("default-src", "")), (what, csp)
    assert r.headers.get("X-Content-Type-Options") == "nosniff", (what, r.headers)


def test_every_answer_carries_the_security_headers(server):
    s = server.session()
    answers = {
        "shop": s.get(server.url + "/api/shop"),
        "order": order(s, server, "banana-juice"),
        "refusal": order(s, server, "strawberry-juice"),
        "no session": requests.get(server.url + "/api/shop"),
        "unknown route": s.get(server.url + "/api/nothing-here"),
        "bad json": s.post(server.url + "/api/orders", data=b"{"),
        "csrf": s.post(server.url + "/api/stock", json={"fruit": "kiwi", "add": 1}, headers={"X-CSRF-Token": "x"}),
        "sign-in page": requests.get(server.url + "/signin"),
        "counter page": s.get(server.url + "/"),
    }
    for what, r in answers.items():
        check_security_headers(r, what)


def test_it_listens_on_127_0_0_1_only_by_default(server):
    port = int(server.url.rsplit(":", 1)[1])
    assert server.url.startswith("http://127.0.0.1:")
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                address, state = fields[1], fields[3]
                if state == "0A" and int(address.rsplit(":", 1)[1], 16) == port:
                    listening.append((table, address.rsplit(":", 1)[0]))
    assert listening == [("/proc/net/tcp", "0100007F")], listening


@pytest.mark.parametrize("chunked", [False, True])
def test_bodies_over_64_kib_are_413_json(server, chunked):
    s = server.session()
    big = json.dumps({"id": new_id(), "item": "x" * (64 * 1024), "quantity": 1}).encode()
    data = iter([big[i:i + 8192] for i in range(0, len(big), 8192)]) if chunked else big
    r = s.post(server.url + "/api/orders", data=data, headers={"Content-Type": "application/json"}, timeout=10)
    assert error_code(r, 413) == "body-too-large"
    # Just under the cap is read (and the long name is no menu item).
    under = json.dumps({"id": new_id(), "item": "x" * (60 * 1024), "quantity": 1})
    r = s.post(server.url + "/api/orders", data=under, headers={"Content-Type": "application/json"}, timeout=10)
    assert error_code(r, 404) == "unknown-item"
    for path in ("/api/session", "/api/stock"):
        r = s.post(server.url + path, data=big, headers={"Content-Type": "application/json"}, timeout=10)
        assert error_code(r, 413) == "body-too-large", path


@pytest.mark.parametrize("body", [
    b"", b"{", b"not json", b"[]", b"null", b'"text"', b"\xff\xfe{}",
    b'{"item": "banana-juice", "quantity": 1}',
    b'{"id": "x", "item": "banana-juice"}',
    b'{"id": "x", "item": "banana-juice", "quantity": "1"}',
    b'{"id": "x", "item": "banana-juice", "quantity": 1.5}',
    b'{"id": "x", "item": "banana-juice", "quantity": 1e30}',
    b'{"id": "x", "item": "banana-juice", "quantity": 99999999999999999999}',
    b'{"id": 7, "item": "banana-juice", "quantity": 1}',
    b'{"id": "x", "item": null, "quantity": 1}',
])
def test_bad_json_is_400(server, body):
    s = server.session()
    r = s.post(server.url + "/api/orders", data=body, headers={"Content-Type": "application/json"}, timeout=10)
    assert error_code(r, 400) == "bad-json", body
    assert [e["kind"] for e in journal(s, server)["entries"]] == ["day-open"]


@pytest.mark.parametrize("body,words", [
    (b"{", "not valid JSON"),
    (b"[]", "JSON object"),
    (b"null", "JSON object"),
    (b'{"id": "x", "item": "banana-juice"}', "'quantity' is missing"),
    (b'{"id": "x", "item": "banana-juice", "quantity": "1"}', "'quantity' has the wrong type"),
    (b'{"id": "x", "item": "banana-juice", "quantity": 1e30}', "not a whole number in range"),
])
def test_bad_json_says_what_is_wrong(server, body, words):
    r = server.session().post(server.url + "/api/orders", data=body, headers={"Content-Type": "application/json"}, timeout=10)
    assert error_code(r, 400) == "bad-json"
    assert words in r.json()["error"]["message"], r.json()


def test_bad_json_is_400_on_every_route_that_reads_a_body(server):
    s = server.session()
    for path in ("/api/session", "/api/stock"):
        for body in (b"{", b"[]", b'{"fruit": 1, "add": 1}', b'{"user": 1, "password": 2}'):
            r = s.post(server.url + path, data=body, headers={"Content-Type": "application/json"}, timeout=10)
            assert error_code(r, 400) == "bad-json", (path, body)


def test_unknown_routes_and_methods_are_json_errors(server):
    s = server.session()
    assert error_code(s.get(server.url + "/api/nothing"), 404) == "not-found"
    r = s.put(server.url + "/api/orders", json={})
    assert r.status_code in (404, 405)
    assert r.json()["error"]["code"] in ("not-found", "method-not-allowed")


# MARK: Orders


def test_an_order_is_201_with_its_entry_and_plan_and_takes_exactly_its_fruit(server):
    s = server.session()
    before = stock(s, server)
    client_id = new_id()
    r = order(s, server, "mango-kiwi-juice", 2, id=client_id, till="till 1")
    assert r.status_code == 201, r.text
    entry = r.json()
    assert entry["kind"] == "order"
    assert entry["clientID"] == client_id
    assert entry["item"] == "mango-kiwi-juice" and entry["quantity"] == 2
    assert entry["user"] == "anna" and entry["till"] == "till 1"
    assert entry["day"] == today(s, server)
    assert sorted((c["id"], c["count"]) for c in entry["fruit"]) == [("kiwi", 2), ("mango", 4)]
    assert entry["batches"] == [] and entry["servings"] == [] and entry["substitutions"] == []
    assert entry["sequence"] == 2
    after = stock(s, server)
    assert after == {**before, "mango": before["mango"] - 4, "kiwi": before["kiwi"] - 2}
    state = shop(s, server)
    assert state["sequence"] == 2
    menu = {item["id"]: item for item in state["menu"]}
    assert menu["mango-juice"]["capacity"] == 2 and menu["mango-juice"]["status"] == "ready"
    assert menu["strawberry-juice"]["capacity"] == 0 and menu["strawberry-juice"]["status"] == "sold-out"


PRICED_BOOK = """\
version: 2
fruits:
  mango: { cost: 800 }
  kiwi: { cost: 300, substitutes: { mango: 2 } }
stock:
  mango: 20
  kiwi: 1
recipes:
  syrup:
    yield: 4
    recipe: { mango: 1 }
menu:
  kiwi-juice:
    price: 5000
    recipe: { kiwi: 3 }
  syrup-juice:
    price: 3000
    recipe: { syrup: 1, mango: 1 }
"""


@pytest.fixture
def priced_server(tmp_path, users_database):
    """A server on a version-2 book: prices, costs, a substitute and a kept recipe."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "shop.yaml").write_text(PRICED_BOOK)
    (tmp_path / "shop").mkdir()
    srv = fresh_server(tmp_path / "shop", users_database, book=book)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_an_order_carries_its_whole_plan_and_a_void_puts_back_servings_too(priced_server):
    server = priced_server
    s = server.session()
    state = shop(s, server)
    assert state["stock"] == {"mango": 20, "kiwi": 1}
    assert state["servings"] == [{"id": "syrup", "label": "syrup", "count": 0}]
    assert {item["id"]: (item["price"], item["capacity"]) for item in state["menu"]} == {"kiwi-juice": (5000, 3), "syrup-juice": (3000, 16)}

    kiwi = order(s, server, "kiwi-juice").json()
    assert kiwi["substitutions"] == [{"fruit": "kiwi", "substitute": "mango", "units": 4, "covered": 2}]
    assert sorted((c["id"], c["count"]) for c in kiwi["fruit"]) == [("kiwi", 1), ("mango", 4)]
    assert kiwi["price"] == 5000 and kiwi["cost"] == {"numerator": 3500, "denominator": 1}
    before_syrup = shop(s, server)
    syrup = order(s, server, "syrup-juice").json()
    assert syrup["batches"] == [{"id": "syrup", "count": 1}]
    assert syrup["servings"] == [{"recipe": "syrup", "used": 1, "made": 4, "left": 3}]
    assert shop(s, server)["servings"][0]["count"] == 3

    assert s.post(server.url + f"/api/orders/{syrup['clientID']}/void").status_code == 201
    after = shop(s, server)
    for key in ("stock", "fruits", "servings", "menu"):
        assert after[key] == before_syrup[key], key
    assert s.post(server.url + f"/api/orders/{kiwi['clientID']}/refund").status_code == 201
    total = s.get(server.url + f"/api/day/{kiwi['day']}/report").json()["total"]
    assert (total["orders"], total["served"], total["voided"], total["refunded"]) == (2, 1, 1, 1)
    assert (total["revenue"], total["fruitCost"], total["wasteCost"]) == ("0.00", "3500.00", "3500.00")


def test_the_shop_gives_stock_servings_menu_and_book_version(server):
    s = server.session()
    state = shop(s, server)
    assert state["stock"] == {"strawberry": 10, "banana": 10, "pineapple": 10, "kiwi": 10, "mango": 10}
    assert [f["id"] for f in state["fruits"]] == ["strawberry", "banana", "pineapple", "kiwi", "mango"]
    assert state["servings"] == []
    assert state["bookVersion"] == 1
    assert state["dayOpen"] is True and re.fullmatch(r"\d{4}-\d{2}-\d{2}", state["day"])
    assert state["user"] == "anna" and state["role"] == "manager"
    menu = {item["id"]: (item["status"], item["capacity"]) for item in state["menu"]}
    assert menu == {
        "strawberry-juice": ("sold-out", 0), "banana-juice": ("ready", 5), "kiwi-juice": ("ready", 3),
        "pineapple-juice": ("ready", 5), "strawberry-banana-juice": ("ready", 1), "mango-juice": ("ready", 3),
        "mango-kiwi-juice": ("ready", 5),
    }


def test_an_order_by_label_is_recorded_by_id(server):
    s = server.session()
    r = order(s, server, "바나나쥬스")
    assert r.status_code == 201, r.text
    assert r.json()["item"] == "banana-juice"


def test_an_order_the_stock_cannot_serve_is_409_naming_the_short_fruit(server):
    s = server.session()
    before = stock(s, server)
    client_id = new_id()
    r = order(s, server, "kiwi-juice", 4, id=client_id)
    assert error_code(r, 409) == "not-enough-fruit"
    error = r.json()["error"]
    assert error["short"] == "kiwi"
    assert error["shortages"] == [{"fruit": "kiwi", "need": 12, "have": 10}]
    assert "kiwi" in error["message"]
    assert stock(s, server) == before
    refusal = journal(s, server)["entries"][0]
    assert refusal["kind"] == "refusal" and refusal["clientID"] == client_id
    assert str(refusal["sequence"]) == error["refusal"]
    assert refusal["shortages"] == [{"fruit": "kiwi", "need": 12, "have": 10}]
    # Two short fruits are both named.
    r = order(s, server, "strawberry-banana-juice", 11)
    assert error_code(r, 409) == "not-enough-fruit"
    assert r.json()["error"]["short"] == "strawberry,banana"


def test_the_same_id_again_gives_the_first_answer_and_orders_nothing_more(server):
    s = server.session()
    client_id = new_id()
    first = order(s, server, "kiwi-juice", 1, id=client_id)
    assert first.status_code == 201
    after_first = stock(s, server)
    again = order(s, server, "kiwi-juice", 1, id=client_id)
    assert again.status_code == 201
    assert again.json() == first.json()
    assert stock(s, server) == after_first
    # Another session of another user retrying the same id gets the same answer too.
    staff_again = order(server.session(STAFF), server, "kiwi-juice", 1, id=client_id)
    assert staff_again.status_code == 201 and staff_again.json() == first.json()
    entries = [e for e in journal(s, server)["entries"] if e.get("clientID") == client_id]
    assert len(entries) == 1
    # A refusal is answered again the same way, and recorded once.
    refused_id = new_id()
    refused = order(s, server, "strawberry-juice", 1, id=refused_id)
    assert error_code(refused, 409) == "not-enough-fruit"
    assert order(s, server, "strawberry-juice", 1, id=refused_id).json() == refused.json()
    assert len([e for e in journal(s, server)["entries"] if e.get("clientID") == refused_id]) == 1


def test_the_same_id_for_another_order_is_409(server):
    s = server.session()
    client_id = new_id()
    assert order(s, server, "kiwi-juice", 1, id=client_id).status_code == 201
    before = stock(s, server)
    for item, quantity in (("kiwi-juice", 2), ("banana-juice", 1)):
        r = order(s, server, item, quantity, id=client_id)
        assert error_code(r, 409) == "id-reused", (item, quantity)
    r = s.post(server.url + "/api/stock", json={"fruit": "kiwi", "add": 1, "id": client_id})
    assert error_code(r, 409) == "id-reused"
    assert stock(s, server) == before


@pytest.mark.parametrize("item,quantity,status,code", [
    ("mango-juce", 1, 404, "unknown-item"),
    ("banana-juice", 0, 422, "bad-quantity"),
    ("banana-juice", -3, 422, "bad-quantity"),
    ("banana-juice", 1001, 422, "bad-quantity"),
])
def test_bad_orders_are_refused_with_their_code(server, item, quantity, status, code):
    s = server.session()
    r = order(s, server, item, quantity)
    assert error_code(r, status) == code
    if code == "unknown-item":
        assert "mango-juice" in r.json()["error"]["message"]
    assert [e["kind"] for e in journal(s, server)["entries"]] == ["day-open"]


@pytest.mark.parametrize("client_id", ["", "has space", "a/b", "x" * 101, "ünïcode"])
def test_bad_client_ids_are_422(server, client_id):
    s = server.session()
    r = order(s, server, "banana-juice", 1, id=client_id)
    assert error_code(r, 422) == "bad-id"


# MARK: The journal


def test_the_journal_gives_every_entry_of_the_day_without_a_limit(server):
    s = server.session()
    ids = [new_id() for _ in range(130)]
    s.post(server.url + "/api/stock", json={"fruit": "banana", "set": 1000})
    for client_id in ids:
        assert order(s, server, "banana-juice", 1, id=client_id).status_code == 201
    entries = journal(s, server)["entries"]
    assert len(entries) == 1 + 1 + 130
    assert [e["sequence"] for e in entries] == sorted((e["sequence"] for e in entries), reverse=True)
    assert {e["clientID"] for e in entries if e["kind"] == "order"} == set(ids)
    day = today(s, server)
    assert journal(s, server, day=day)["entries"] == entries
    limited = journal(s, server, day=day, limit=5)
    assert limited["entries"] == entries[:5]


def test_staff_see_only_their_own_journal_entries(server):
    manager, staff = server.session(MANAGER), server.session(STAFF)
    order(manager, server, "banana-juice")
    mine = order(staff, server, "kiwi-juice").json()
    assert journal(staff, server)["entries"] == [mine]
    assert journal(staff, server, user="anna")["entries"] == []
    assert len(journal(manager, server)["entries"]) == 3
    assert journal(manager, server, user="sam")["entries"] == [mine]


@pytest.mark.parametrize("day", ["yesterday", "2024-13-01", "2024-1-01", "2024-01-00", "24-01-01", "2024-01-01x", "２０２４-01-01"])
def test_a_bad_day_is_400(server, day):
    s = server.session()
    assert error_code(s.get(server.url + "/api/journal", params={"day": day}), 400) == "bad-day"
    assert error_code(s.get(server.url + f"/api/day/{day}/report"), 400) == "bad-day"


@pytest.mark.parametrize("limit", ["0", "-1", "many", "1.5"])
def test_a_bad_limit_is_400(server, limit):
    s = server.session()
    assert error_code(s.get(server.url + "/api/journal", params={"limit": limit}), 400) == "bad-limit"


def test_a_day_without_entries_has_an_empty_journal(server):
    s = server.session()
    assert journal(s, server, day="2001-02-03") == {"day": "2001-02-03", "entries": []}


# MARK: Void and refund


def test_void_puts_back_exactly_what_the_order_took(server):
    s = server.session()
    before = shop(s, server)
    made = order(s, server, "mango-kiwi-juice", 3).json()
    assert stock(s, server)["mango"] == 4
    r = s.post(server.url + f"/api/orders/{made['clientID']}/void")
    assert r.status_code == 201, r.text
    void = r.json()
    assert void["kind"] == "void" and void["order"] == made["sequence"] and void["clientID"] == made["clientID"]
    assert void["fruit"] == made["fruit"]
    after = shop(s, server)
    for key in ("fruits", "stock", "menu", "servings"):
        assert after[key] == before[key], key
    report = s.get(server.url + f"/api/day/{made['day']}/report").json()
    assert report["total"]["voided"] == 1 and report["total"]["served"] == 0 and report["total"]["orders"] == 1


def test_void_and_refund_happen_at_most_once(server):
    s = server.session()
    made = order(s, server, "banana-juice").json()
    assert s.post(server.url + f"/api/orders/{made['sequence']}/void").status_code == 201
    after_void = stock(s, server)
    for kind in ("void", "refund"):
        r = s.post(server.url + f"/api/orders/{made['clientID']}/{kind}")
        assert error_code(r, 409) == "already-corrected", kind
    assert stock(s, server) == after_void
    other = order(s, server, "banana-juice").json()
    assert s.post(server.url + f"/api/orders/{other['clientID']}/refund").status_code == 201
    for kind in ("refund", "void"):
        r = s.post(server.url + f"/api/orders/{other['clientID']}/{kind}")
        assert error_code(r, 409) == "already-corrected", kind
    kinds = [e["kind"] for e in journal(s, server)["entries"]]
    assert kinds.count("void") == 1 and kinds.count("refund") == 1


def test_concurrent_voids_of_one_order_void_it_once(server):
    s = server.session()
    made = order(s, server, "kiwi-juice", 2).json()
    results = []

    def void(kind):
        results.append(s.post(server.url + f"/api/orders/{made['clientID']}/{kind}", timeout=30).status_code)

    threads = [threading.Thread(target=void, args=("void" if i % 2 else "refund",)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [201] + [409] * 9, results
    kinds = [e["kind"] for e in journal(s, server)["entries"]]
    assert kinds.count("void") + kinds.count("refund") == 1


def test_a_refund_counts_its_fruit_as_waste_and_returns_none(server):
    s = server.session()
    made = order(s, server, "mango-kiwi-juice", 2, till="front").json()
    before = stock(s, server)
    r = s.post(server.url + f"/api/orders/{made['clientID']}/refund")
    assert r.status_code == 201, r.text
    refund = r.json()
    assert refund["kind"] == "refund" and refund["order"] == made["sequence"] and refund["fruit"] == made["fruit"]
    assert stock(s, server) == before
    report = s.get(server.url + f"/api/day/{made['day']}/report").json()
    assert sorted((c["id"], c["count"]) for c in report["waste"]) == [("kiwi", 2), ("mango", 4)]
    total = report["total"]
    assert (total["orders"], total["served"], total["refunded"], total["voided"]) == (1, 1, 1, 0)
    assert report["closed"] is False


@pytest.mark.parametrize("name", ["no-such-order", "999", "1"])
def test_void_or_refund_of_what_is_no_order_is_404(server, name):
    s = server.session()
    order(s, server, "strawberry-juice")  # a refusal, sequence 2: not an order either
    for kind in ("void", "refund"):
        r = s.post(server.url + f"/api/orders/{name}/{kind}")
        assert error_code(r, 404) == "unknown-order", (name, kind)
        refusal = journal(s, server)["entries"][0]
        r = s.post(server.url + f"/api/orders/{refusal['clientID']}/{kind}")
        assert error_code(r, 404) == "unknown-order"


# MARK: Stock


def test_stock_set_and_add(server):
    s = server.session()
    r = s.post(server.url + "/api/stock", json={"fruit": "kiwi", "set": 40})
    assert r.status_code == 201, r.text
    entry = r.json()
    assert (entry["kind"], entry["target"], entry["id"], entry["before"], entry["after"]) == ("stock", "fruit", "kiwi", 10, 40)
    r = s.post(server.url + "/api/stock", json={"fruit": "키위", "add": -15})
    assert r.status_code == 201 and r.json()["after"] == 25
    assert stock(s, server)["kiwi"] == 25
    assert shop(s, server)["stock"]["kiwi"] == 25


def test_a_stock_change_with_an_id_happens_once(server):
    s = server.session()
    change_id = new_id()
    first = s.post(server.url + "/api/stock", json={"fruit": "mango", "add": 5, "id": change_id})
    assert first.status_code == 201
    again = s.post(server.url + "/api/stock", json={"fruit": "mango", "add": 5, "id": change_id})
    assert again.status_code == 200 and again.json() == first.json()
    assert stock(s, server)["mango"] == 15


@pytest.mark.parametrize("body,status,code", [
    ({"fruit": "kiwi", "set": 1, "add": 1}, 422, "bad-stock-change"),
    ({"fruit": "kiwi"}, 422, "bad-stock-change"),
    ({"fruit": "kiwii", "add": 1}, 404, "unknown-stock"),
    ({"fruit": "kiwi", "add": -11}, 409, "stock-below-zero"),
    ({"fruit": "kiwi", "set": -1}, 409, "stock-below-zero"),
    ({"fruit": "kiwi", "add": 9223372036854775807}, 409, "stock-too-large"),
    ({"fruit": "kiwi", "add": 0}, 422, "empty-change"),
    ({"fruit": "kiwi", "add": 1, "id": "no spaces please"}, 422, "bad-id"),
])
def test_bad_stock_changes_are_refused_with_their_code(server, body, status, code):
    s = server.session()
    before = stock(s, server)
    r = s.post(server.url + "/api/stock", json=body)
    assert error_code(r, status) == code
    assert stock(s, server) == before


# MARK: The day


def test_closing_the_day_opens_the_next_with_the_closing_stock(server):
    s = server.session()
    day = today(s, server)
    order(s, server, "kiwi-juice", 2)
    s.post(server.url + "/api/stock", json={"fruit": "banana", "set": 3})
    closing = shop(s, server)
    r = s.post(server.url + "/api/day/close", json={"day": day})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["day"] == day and report["closed"] is True
    assert report["total"]["served"] == 1
    assert {c["id"]: c["count"] for c in report["closingStock"]["fruit"]} == closing["stock"]

    state = shop(s, server)
    next_day = state["day"]
    assert next_day > day and state["dayOpen"] is True
    assert state["stock"] == closing["stock"]
    # The old day ends with its close and takes no more entries.
    old = journal(s, server, day=day)["entries"]
    assert old[0]["kind"] == "day-close"
    # Orders go to the next day's journal, which opened with the closing stock.
    made = order(s, server, "banana-juice")
    assert made.status_code == 201 and made.json()["day"] == next_day
    new = journal(s, server)
    assert new["day"] == next_day
    assert [e["kind"] for e in new["entries"]] == ["order", "day-open"]
    assert {c["id"]: c["count"] for c in new["entries"][1]["fruit"]} == closing["stock"]
    assert journal(s, server, day=day)["entries"] == old
    # The closed day's report is final; the open day's is running.
    closed = s.get(server.url + f"/api/day/{day}/report").json()
    assert closed["closed"] is True
    assert {c["id"]: c["count"] for c in closed["closingStock"]["fruit"]} == closing["stock"]
    running = s.get(server.url + f"/api/day/{next_day}/report").json()
    assert running["closed"] is False and running["total"]["served"] == 1
    assert {c["id"]: c["count"] for c in running["closingStock"]["fruit"]} == stock(s, server)


def test_a_retried_day_close_closes_one_day(server):
    s = server.session()
    day = today(s, server)
    assert s.post(server.url + "/api/day/close", json={"day": day}).status_code == 200
    next_day = today(s, server)
    r = s.post(server.url + "/api/day/close", json={"day": day})
    assert error_code(r, 409) == "day-closed"
    assert today(s, server) == next_day
    assert [e["kind"] for e in journal(s, server)["entries"]] == ["day-open"]


def test_concurrent_day_closes_close_one_day(server):
    s = server.session()
    day = today(s, server)
    results = []

    def close():
        results.append(s.post(server.url + "/api/day/close", json={"day": day}, timeout=30).status_code)

    threads = [threading.Thread(target=close) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200] + [409] * 5, results


def test_a_refund_of_a_closed_days_order_counts_on_the_day_it_is_given(server):
    s = server.session()
    made = order(s, server, "banana-juice").json()
    assert s.post(server.url + "/api/day/close").status_code == 200
    r = s.post(server.url + f"/api/orders/{made['clientID']}/void")
    assert error_code(r, 409) == "void-outside-day"
    r = s.post(server.url + f"/api/orders/{made['clientID']}/refund")
    assert r.status_code == 201, r.text
    next_day = today(s, server)
    assert r.json()["day"] == next_day
    report = s.get(server.url + f"/api/day/{next_day}/report").json()
    assert report["total"]["refunded"] == 1 and report["waste"] == [{"id": "banana", "count": 2}]


def test_the_running_report_of_the_open_day(server):
    s, staff = server.session(), server.session(STAFF)
    order(s, server, "banana-juice", till="front")
    order(staff, server, "kiwi-juice", 2, till="back")
    order(staff, server, "strawberry-juice", till="back")
    day = today(s, server)
    report = s.get(server.url + f"/api/day/{day}/report").json()
    assert report["day"] == day and report["closed"] is False
    total = report["total"]
    assert (total["orders"], total["served"], total["refused"]) == (3, 2, 1)
    assert [t["name"] for t in report["tills"]] == ["back", "front"]
    assert {u["name"]: u["figures"]["served"] for u in report["users"]} == {"anna": 1, "sam": 1}
    assert {c["id"]: c["count"] for c in report["openingStock"]["fruit"]}["kiwi"] == 10
    assert {c["id"]: c["count"] for c in report["closingStock"]["fruit"]} == stock(s, server)
    csv = s.get(server.url + f"/api/day/{day}/report", params={"format": "csv"})
    assert csv.status_code == 200 and csv.headers["Content-Type"].startswith("text/csv")
    assert csv.text.splitlines()[1].startswith(f"{day},day,,3,2,1,")


# MARK: Live updates


def read_events(response, events, stop):
    """Collects each SSE event's (arrival time, id, event, data) until `stop`."""
    fields = {}
    try:
        for line in response.iter_lines(decode_unicode=True):
            if stop.is_set():
                return
            if line == "":
                if "data" in fields:
                    events.put((time.monotonic(), fields.get("id"), fields.get("event"), json.loads(fields["data"])))
                fields = {}
            elif not line.startswith(":") and ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value[1:] if value.startswith(" ") else value
    except (requests.exceptions.ConnectionError, requests.exceptions.ChunkedEncodingError):
        pass


def test_events_stream_another_sessions_orders_within_a_second(server):
    listener, staff = server.session(MANAGER), server.session(STAFF)
    response = listener.get(server.url + "/api/events", stream=True, timeout=10)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    events, stop = queue.Queue(), threading.Event()
    reader = threading.Thread(target=read_events, args=(response, events, stop), daemon=True)
    reader.start()
    try:
        time.sleep(0.2)
        for item in ("banana-juice", "kiwi-juice", "strawberry-juice"):
            sent = time.monotonic()
            r = order(staff, server, item)
            arrived, event_id, kind, entry = events.get(timeout=1.0)
            assert arrived - sent < 1.0
            assert kind == "entry"
            assert entry["user"] == "sam" and entry["item"] == item
            assert event_id == str(entry["sequence"])
            if r.status_code == 201:
                assert entry == r.json()
            else:
                assert entry["kind"] == "refusal" and str(entry["sequence"]) == r.json()["error"]["refusal"]
    finally:
        # The stream ends when the fixture stops the server (closing it here
        # would wait for the reader's blocked read to time out).
        stop.set()


def test_the_server_stops_promptly_while_a_client_listens_to_events(server):
    s = server.session()
    response = s.get(server.url + "/api/events", stream=True, timeout=10)
    assert response.status_code == 200
    events, stop = queue.Queue(), threading.Event()
    threading.Thread(target=read_events, args=(response, events, stop), daemon=True).start()
    time.sleep(0.2)
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=15)
    assert time.monotonic() - started < 3, "SIGTERM took too long with an event stream open"
    assert server.process.returncode == 0
    stop.set()
