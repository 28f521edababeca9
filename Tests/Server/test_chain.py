"""A chain of shops: several juice-serve processes, one shop each, on one
PostgreSQL database (the private server of conftest.py), through the real
binary and real HTTP clients.

- oversell safety holds in each shop while two processes serve two shops;
- a second process for a shop is refused and told who holds it;
- users belong to their shop, owners to the chain;
- the owner's chain report equals the sum of the shops' own Z reports;
- a till's retry never orders twice, even when it reaches another process;
- PostgreSQL stopped with `pg_ctl stop -m immediate` under load and started
  again: every acknowledged order is there once, and meanwhile the tills get
  503 with Retry-After and no other 5xx;
- `juice-serve journal export` on the chain.

The owner's view of a single SQLite shop (a chain of one) runs on both backends.
"""
import json
import os
import random
import shutil
from decimal import Decimal
from fractions import Fraction
import subprocess
import threading
import time

import pytest
import requests

from conftest import BACKEND, MANAGER, OWNER, ROOT, STAFF, JUICE_SERVE, Server, fresh_server, new_id, postgres, run_cli

pg_only = pytest.mark.postgres_only

NORTH_MANAGER = ("nina", "north-password-1")
SOUTH_MANAGER = ("sven", "south-password-2")


def sign_in(srv, who):
    s = requests.Session()
    r = s.post(srv.url + "/api/session", json={"user": who[0], "password": who[1]}, timeout=30)
    assert r.status_code == 200, r.text
    s.headers["X-CSRF-Token"] = r.json()["csrf"]
    return s


def clone(s):
    c = requests.Session()
    c.cookies.update(s.cookies)
    c.headers.update(s.headers)
    return c


def order(s, srv, item, quantity=1, client_id=None, timeout=30):
    return s.post(srv.url + "/api/orders", json={"id": client_id or new_id(), "item": item, "quantity": quantity}, timeout=timeout)


def journal(s, srv, day=None):
    r = s.get(srv.url + "/api/journal", params={"day": day} if day else {}, timeout=30)
    assert r.status_code == 200, r.text
    return list(reversed(r.json()["entries"]))


@pytest.fixture
def chain(tmp_path, users_database):
    """Two shops, north and south, each served by its own process on one
    chain database; each shop has its own manager, and the owner olga."""
    first = fresh_server(tmp_path / "north", users_database)
    north = Server(tmp_path / "north", database=first.database, shop="north")
    south = Server(tmp_path / "south", database=first.database, shop="south")
    north.add_user(*NORTH_MANAGER, "manager")
    south.add_user(*SOUTH_MANAGER, "manager")
    north.start()
    south.start()
    try:
        yield north, south
    finally:
        north.stop()
        south.stop()


@pg_only
def test_two_processes_for_two_shops_never_oversell_with_many_tills_each(chain):
    north, south = chain
    sessions = {}
    for srv, who, units in ((north, NORTH_MANAGER, 7), (south, SOUTH_MANAGER, 10)):
        s = sign_in(srv, who)
        assert s.post(srv.url + "/api/stock", json={"fruit": "kiwi", "set": units}).status_code == 201
        sessions[srv.shop] = s
    barrier = threading.Barrier(50)
    results = {}

    def till(srv, i):
        c = clone(sessions[srv.shop])
        barrier.wait()
        results[(srv.shop, i)] = order(c, srv, "kiwi-juice")

    threads = [threading.Thread(target=till, args=(srv, i)) for srv in (north, south) for i in range(25)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # kiwi-juice takes 3 kiwis: 7 make 2, 10 make 3; every other till is refused.
    for shop, served in (("north", 2), ("south", 3)):
        statuses = [r.status_code for (name, _), r in results.items() if name == shop]
        assert statuses.count(201) == served and statuses.count(409) == 25 - served, (shop, statuses)
    assert sessions["north"].get(north.url + "/api/shop").json()["stock"]["kiwi"] == 1
    assert sessions["south"].get(south.url + "/api/shop").json()["stock"]["kiwi"] == 1
    # Each shop's journal holds its own orders only, numbered from 1.
    for shop, srv in (("north", north), ("south", south)):
        entries = journal(sessions[shop], srv)
        assert [e["sequence"] for e in entries] == list(range(1, len(entries) + 1))
        assert sum(e["kind"] == "order" for e in entries) == (2 if shop == "north" else 3)


@pg_only
def test_a_second_process_for_a_shop_is_refused_and_told_who_holds_it(chain):
    north, _ = chain
    second = subprocess.run([JUICE_SERVE, "--recipes", str(north.recipes), *north.store_args, "--port", "0"],
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 1, second.stdout
    assert "another juice-serve is serving the shop 'north'" in second.stderr, second.stderr
    assert f"pid {north.process.pid}" in second.stderr, second.stderr
    # The stock import is refused too, and the running server keeps serving.
    refused = run_cli("stock", "import", "/dev/null", "--recipes", str(north.recipes), *north.store_args, check=False)
    assert refused.returncode == 1 and "stop it before importing stock" in refused.stderr, refused.stderr
    assert order(sign_in(north, NORTH_MANAGER), north, "banana-juice").status_code == 201


@pg_only
def test_users_belong_to_their_shop_and_owners_to_the_chain(chain):
    north, south = chain
    # The north manager is unknown at the south shop, and the other way round.
    r = requests.post(south.url + "/api/session", json={"user": NORTH_MANAGER[0], "password": NORTH_MANAGER[1]}, timeout=30)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad-credentials"
    r = requests.post(north.url + "/api/session", json={"user": SOUTH_MANAGER[0], "password": SOUTH_MANAGER[1]}, timeout=30)
    assert r.status_code == 401
    # The owner signs in at both, and may do a manager's work in either.
    for srv in (north, south):
        s = sign_in(srv, OWNER)
        assert s.get(srv.url + "/api/shop").json()["role"] == "owner"
        assert s.post(srv.url + "/api/stock", json={"fruit": "banana", "add": 1}).status_code == 201
    listed = run_cli("users", "list", *south.store_args).stdout.split("\n")
    assert "sven\tmanager" in listed and "olga\towner" in listed and not any(line.startswith("nina") for line in listed)
    # A name is one person in a shop: a shop user cannot take the owner's name, nor the owner a shop user's.
    clash = run_cli("users", "add", OWNER[0], "--role", "staff", *north.store_args, stdin="long-enough-1\n", check=False)
    assert clash.returncode == 1 and "already exists" in clash.stderr
    clash = run_cli("users", "add", NORTH_MANAGER[0], "--role", "owner", *north.store_args, stdin="long-enough-1\n", check=False)
    assert clash.returncode == 1 and "already exists" in clash.stderr
    # The same name may be a different person in another shop.
    run_cli("users", "add", "kim", "--role", "staff", *north.store_args, stdin="north-kim-pass\n")
    run_cli("users", "add", "kim", "--role", "staff", *south.store_args, stdin="south-kim-pass\n")
    assert sign_in(north, ("kim", "north-kim-pass")) and sign_in(south, ("kim", "south-kim-pass"))
    r = requests.post(south.url + "/api/session", json={"user": "kim", "password": "north-kim-pass"}, timeout=30)
    assert r.status_code == 401


def run_a_day(srv, s, rng, orders=30):
    """Orders, a refusal, a void and a refund at one shop; returns nothing (the report says it)."""
    ids = []
    for _ in range(orders):
        item = rng.choice(["banana-juice", "kiwi-juice", "mango-juice", "pineapple-juice", "strawberry-juice"])
        r = order(s, srv, item, rng.randint(1, 2))
        assert r.status_code in (201, 409), r.text
        if r.status_code == 201:
            ids.append(r.json()["sequence"])
    assert len(ids) >= 3
    assert s.post(srv.url + f"/api/orders/{ids[0]}/void").status_code == 201
    assert s.post(srv.url + f"/api/orders/{ids[1]}/refund").status_code == 201


FIGURES = ["orders", "served", "refused", "voided", "refunded"]
MONEY = ["revenue", "fruitCost", "grossMargin", "wasteCost"]


def test_the_chain_report_is_the_sum_of_the_shops_reports(tmp_path, users_database):
    """On PostgreSQL three shops, on SQLite the one shop (a chain of one):
    the owner's chain report lists each shop's own Z report, as its manager
    reads it from its own server, and its total is their sum, figure by
    figure, money exact."""
    # The planning example: the classic shop with prices and fruit costs, so the money adds up too.
    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "planning" / "shop.yaml", book / "shop.yaml")
    first = fresh_server(tmp_path / "s0", users_database)
    # The users' database holds the shop main (its manager anna and staff sam).
    names = ["east", "main", "south"] if BACKEND == "postgres" else ["main"]
    servers = [Server(tmp_path / name, book=book, database=first.database, shop=name) for name in names]
    rng = random.Random(39)

    def manager(srv):
        return (MANAGER[0] + srv.shop if srv.shop != "main" else MANAGER[0], MANAGER[1])

    try:
        for srv in servers:
            if srv.shop != "main":
                srv.add_user(*manager(srv), "manager")
            srv.start()
            run_a_day(srv, sign_in(srv, manager(srv)), rng, orders=rng.randint(20, 40))
        day = sign_in(servers[0], OWNER).get(servers[0].url + "/api/shop").json()["day"]
        own = {}
        for srv in servers:
            s = sign_in(srv, manager(srv))
            r = s.get(srv.url + f"/api/day/{day}/report")
            assert r.status_code == 200, r.text
            own[srv.shop] = r.json()
            # Managers and staff do not see the chain.
            assert s.get(srv.url + "/api/chain").status_code == 403
            assert s.get(srv.url + "/api/chain/report").status_code == 403
        owner = sign_in(servers[-1], OWNER)
        chain = owner.get(servers[-1].url + "/api/chain/report", params={"day": day})
        assert chain.status_code == 200, chain.text
        chain = chain.json()
        assert [s["shop"] for s in chain["shops"]] == names
        for entry in chain["shops"]:
            assert entry["report"] == own[entry["shop"]], entry["shop"]
        for key in FIGURES:
            assert chain["total"][key] == sum(own[n]["total"][key] for n in names), key
        # Money: the exact fruit cost fractions summed, and revenue in whole units.
        assert Fraction(chain["total"]["fruitCostExact"]) == sum(Fraction(own[n]["total"]["fruitCostExact"]) for n in names)
        for key in MONEY:
            assert Decimal(chain["total"][key]) == sum(Decimal(own[n]["total"][key]) for n in names), key
        assert Decimal(chain["total"]["revenue"]) > 0
        assert chain["total"]["orders"] > 0 and chain["total"]["voided"] == len(names) and chain["total"]["refunded"] == len(names)
        # Every shop's stock, as each shop's own server gives it.
        stock = owner.get(servers[-1].url + "/api/chain").json()["shops"]
        assert [s["shop"] for s in stock] == names
        for srv, shown in zip(servers, stock):
            assert shown["stock"] == owner_view(srv)["stock"], srv.shop
        # The page shows the same.
        page = owner.get(servers[-1].url + "/chain", params={"day": day})
        assert page.status_code == 200 and all(f">{name}<" in page.text for name in names)
        assert sign_in(servers[-1], manager(servers[-1])).get(servers[-1].url + "/chain").status_code == 403
    finally:
        for srv in servers:
            srv.stop()


def owner_view(srv):
    return sign_in(srv, OWNER).get(srv.url + "/api/shop").json()


@pg_only
def test_a_retry_that_reaches_another_process_never_orders_twice(chain):
    north, south = chain
    s = sign_in(north, OWNER)
    client_id = new_id()
    first = order(s, north, "banana-juice", 2, client_id)
    assert first.status_code == 201
    # The north server dies with the answer on its way; the till retries at
    # a new north process, and at the south one: the first answer, every time.
    north.kill9()
    north.start()
    again = order(sign_in(north, OWNER), north, "banana-juice", 2, client_id)
    assert again.status_code == 201 and again.json() == first.json()
    elsewhere = order(sign_in(south, OWNER), south, "banana-juice", 2, client_id)
    assert elsewhere.status_code == 201 and elsewhere.json() == first.json()
    n = journal(sign_in(north, OWNER), north)
    assert [e.get("clientID") for e in n].count(client_id) == 1
    assert all(e.get("clientID") != client_id for e in journal(sign_in(south, OWNER), south))
    # Another item under the same id is refused, not ordered.
    reused = order(sign_in(south, OWNER), south, "kiwi-juice", 1, client_id)
    assert reused.status_code == 409 and reused.json()["error"]["code"] == "id-reused"


@pg_only
def test_one_order_id_sent_to_two_shops_at_once_orders_once_and_spoils_no_other_order(chain):
    """A till that sends one order to two shops' processes at the same
    moment: the two batches race to write the id; the chain-wide unique
    index lets one in, and the other process decides its batch again, so
    the id gets the first answer at both and every other till's order in
    that batch is still made."""
    north, south = chain
    sessions = {srv.shop: sign_in(srv, OWNER) for srv in (north, south)}
    for srv in (north, south):
        assert sessions[srv.shop].post(srv.url + "/api/stock", json={"fruit": "banana", "set": 1_000_000}).status_code == 201
    for round_ in range(5):
        shared = new_id()
        barrier = threading.Barrier(20)
        results = {}

        def till(srv, i):
            c = clone(sessions[srv.shop])
            barrier.wait()
            client_id = shared if i == 0 else new_id()
            results[(srv.shop, i)] = order(c, srv, "banana-juice", 1, client_id)

        threads = [threading.Thread(target=till, args=(srv, i)) for srv in (north, south) for i in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r.status_code == 201 for r in results.values()), [(k, r.status_code, r.text[:120]) for k, r in results.items() if r.status_code != 201]
        assert results[("north", 0)].json() == results[("south", 0)].json()
        holders = [srv.shop for srv in (north, south) if any(e.get("clientID") == shared for e in journal(sessions[srv.shop], srv))]
        assert len(holders) == 1, (round_, holders)


@pg_only
def test_postgres_restarted_under_load_loses_nothing_and_tills_get_503_with_retry_after(chain):
    north, south = chain
    pg = postgres()
    stop = threading.Event()
    acked = {}  # client id -> (shop, first 201 body)
    other_5xx = []
    saw_503 = []
    lock = threading.Lock()
    sessions = {srv.shop: sign_in(srv, OWNER) for srv in (north, south)}
    for srv in (north, south):
        for fruit in ("banana", "pineapple", "kiwi", "mango"):
            assert sessions[srv.shop].post(srv.url + "/api/stock", json={"fruit": fruit, "set": 1_000_000}).status_code == 201

    def till(srv, seed):
        rng = random.Random(seed)
        c = clone(sessions[srv.shop])
        while not stop.is_set():
            client_id = new_id()
            item = rng.choice(["banana-juice", "kiwi-juice", "mango-juice", "pineapple-juice"])
            # A till retries one order until it is answered, as the counter's page does.
            while True:
                try:
                    r = order(c, srv, item, 1, client_id, timeout=15)
                except requests.RequestException as error:
                    # juice-serve stays up and answers within its 5 s deadline: a
                    # refused connection or a 15 s timeout is a failure too.
                    with lock:
                        other_5xx.append(("no answer", repr(error)[:200]))
                    break
                if r.status_code == 201:
                    with lock:
                        acked[client_id] = (srv.shop, r.json())
                    break
                if r.status_code == 503:
                    assert int(r.headers["Retry-After"]) >= 1
                    with lock:
                        saw_503.append(r.json()["error"]["code"])
                    time.sleep(0.2)
                    if stop.is_set():
                        break
                    continue
                with lock:
                    other_5xx.append((r.status_code, r.text[:200]))
                break

    threads = [threading.Thread(target=till, args=(srv, i), daemon=True) for srv in (north, south) for i in range(8)]
    for t in threads:
        t.start()
    try:
        time.sleep(2)
        before = len(acked)
        pg.stop_immediate()
        # Longer than the server's 5 s deadline: a request that waits for the
        # database must be answered 503 before it comes back.
        time.sleep(8)
        pg.restart()
        time.sleep(5)
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a till never got an answer"
    assert before > 0 and len(acked) > before, (before, len(acked))
    assert not other_5xx, other_5xx[:5]
    assert saw_503, "no till was told to try again while the database was down"
    # Every acknowledged order is in its shop's journal exactly once, as acknowledged.
    for srv in (north, south):
        entries = journal(sign_in(srv, OWNER), srv)
        by_id = {}
        for e in entries:
            if e.get("clientID"):
                assert e["clientID"] not in by_id, f"{e['clientID']} twice"
                by_id[e["clientID"]] = e
        for client_id, (shop, body) in acked.items():
            if shop == srv.shop:
                assert by_id.get(client_id) == body, client_id
        assert [e["sequence"] for e in entries] == list(range(entries[0]["sequence"], entries[0]["sequence"] + len(entries)))


def export(srv, *args):
    result = run_cli("journal", "export", "--database", str(srv.database), *args)
    return result.stdout


def test_the_journal_export_has_one_line_per_entry_with_who_when_and_what(tmp_path, users_database):
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    try:
        s = sign_in(srv, MANAGER)
        made = order(s, srv, "mango-kiwi-juice", 2)
        assert made.status_code == 201
        assert s.post(srv.url + f"/api/orders/{made.json()['sequence']}/void").status_code == 201
        entries = journal(s, srv)
        lines = export(srv, "--format", "jsonl").splitlines()
        assert len(lines) == len(entries)
        exported = [json.loads(line) for line in lines]
        for line, entry in zip(exported, entries):
            assert line["shop"] == "main" and line["at"].endswith("Z")
            assert {k: v for k, v in line.items() if k not in ("shop", "at")} == entry
        rows = export(srv, "--format", "csv").splitlines()
        assert rows[0].startswith("shop,sequence,day,at,user,till,kind,") and len(rows) == len(entries) + 1
        order_row = next(r for r in rows[1:] if ",order," in r)
        assert ",anna," in order_row and "mango:4" in order_row and "kiwi:2" in order_row, order_row
        day = entries[0]["day"]
        assert len(export(srv, "--format", "jsonl", "--day", day).splitlines()) == len(entries)
        assert export(srv, "--format", "jsonl", "--day", "1999-01-01") == ""
        assert export(srv, "--format", "jsonl", "--since", "2999-01-01") == ""
        bad = run_cli("journal", "export", "--database", str(srv.database), "--format", "jsonl", "--day", "yesterday", check=False)
        assert bad.returncode == 1 and "not a date" in bad.stderr
        bad = run_cli("journal", "export", "--database", str(srv.database), "--format", "xml", check=False)
        assert bad.returncode == 64
        unknown = run_cli("journal", "export", "--database", str(srv.database), "--format", "csv", "--shop", "nowhere", check=False)
        assert unknown.returncode == 1 and "nowhere" in unknown.stderr
    finally:
        srv.stop()


@pg_only
def test_the_chain_export_holds_every_shop_and_one_on_asking(chain):
    north, south = chain
    order(sign_in(north, NORTH_MANAGER), north, "banana-juice")
    order(sign_in(south, SOUTH_MANAGER), south, "kiwi-juice")
    every = [json.loads(line) for line in export(north, "--format", "jsonl").splitlines()]
    shops = {line["shop"] for line in every}
    assert {"north", "south"} <= shops
    only = [json.loads(line) for line in export(north, "--format", "jsonl", "--shop", "south").splitlines()]
    assert only and {line["shop"] for line in only} == {"south"}
    assert [line["item"] for line in only if line["kind"] == "order"] == ["kiwi-juice"]


JUICE_RUN = os.environ.get("JUICE_RUN", str(ROOT / ".build" / "debug" / "juice-run"))


def test_a_real_day_ordered_through_the_api_is_exported_and_planned_from(tmp_path, users_database):
    """The loop the issue closes, end to end: a day at the counter (orders,
    a void, a refusal made good by an order after a stock edit), closed,
    exported with `juice-serve journal export`, and planned from with
    `juice-run plan --history`: the demand it learns is the day's, counted
    as docs/planning.md says (the void left out, the made-good refusal once)."""
    book = tmp_path / "book"
    book.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "planning" / "shop.yaml", book / "shop.yaml")
    srv = fresh_server(tmp_path / "shop", users_database, book=book)
    srv.start()
    try:
        s = sign_in(srv, MANAGER)
        assert s.post(srv.url + "/api/stock", json={"fruit": "banana", "set": 100}).status_code == 201
        assert s.post(srv.url + "/api/stock", json={"fruit": "kiwi", "set": 3}).status_code == 201
        for quantity in (1, 2, 1):
            assert order(s, srv, "banana-juice", quantity).status_code == 201
        voided = order(s, srv, "banana-juice", 5)
        assert voided.status_code == 201
        assert s.post(srv.url + f"/api/orders/{voided.json()['sequence']}/void").status_code == 201
        assert order(s, srv, "kiwi-juice", 1).status_code == 201
        # Out of kiwi: refused, then the stock is edited and the order made good ("make now").
        refused = order(s, srv, "kiwi-juice", 2)
        assert refused.status_code == 409
        assert s.post(srv.url + "/api/stock", json={"fruit": "kiwi", "add": 10}).status_code == 201
        made_good = s.post(srv.url + "/api/orders", json={"id": new_id(), "item": "kiwi-juice", "quantity": 2,
                                                          "resolves": int(refused.json()["error"]["refusal"])})
        assert made_good.status_code == 201, made_good.text
        day = s.get(srv.url + "/api/shop").json()["day"]
        assert s.post(srv.url + "/api/day/close", json={"day": day}).status_code == 200
    finally:
        srv.stop()
    export = tmp_path / "sales.csv"
    run_cli("journal", "export", *srv.store_args, "--day", day, "--format", "csv", "--output", str(export))
    plan = subprocess.run([JUICE_RUN, "plan", "--recipes", str(book), "--history", str(export), "--days", "3", "--runs", "20",
                           "--seed", "7", "--format", "json"], capture_output=True, text=True, timeout=120)
    assert plan.returncode == 0, plan.stderr
    history = json.loads(plan.stdout)["settings"]["history"]
    assert (history["shop"], history["days"], history["first"], history["last"], history["perWeekday"]) == ("main", 1, day, day, False)
    units = {m["item"]: m["units"] for m in history["means"]}
    # 1 + 2 + 1 bananas juices (the voided 5 left out); 1 kiwi juice and the refused 2 made good, counted once.
    assert units["banana-juice"] == 4 and units["kiwi-juice"] == 3, units
    assert all(units[item] == 0 for item in units if item not in ("banana-juice", "kiwi-juice")), units
    text = subprocess.run([JUICE_RUN, "plan", "--recipes", str(book), "--history", str(export), "--days", "3", "--runs", "20", "--seed", "7"],
                          capture_output=True, text=True, timeout=120)
    assert text.returncode == 0 and f"history: learnt from shop 'main', 1 day, {day} (the days with a day-open entry)" in text.stdout, text.stdout[:800]


@pg_only
def test_a_database_that_cannot_be_used_is_named_at_once_with_why(tmp_path):
    """A wrong database, user, socket or URL stops juice-serve at once with
    PostgreSQL's or the system's reason, and never prints the password."""
    pg = postgres()
    good = pg.url(pg.create_database("launch"))
    cases = [
        (good.replace("/launch_", "/missing_"), "does not exist"),
        (good.replace("juice@", "nobody:s3cret-word@"), 'role "nobody" does not exist'),
        (good.replace(pg.socket_dir, str(tmp_path / "no-socket-here")), "No such file or directory"),
        (good + "&sslmode=sometimes", "sslmode 'sometimes'"),
        ("postgres://[::1", "not a postgres:// URL"),
    ]
    for url, why in cases:
        started = time.time()
        result = run_cli("users", "list", "--database", url, check=False)
        assert result.returncode == 1, (url, result.stdout)
        assert why in result.stderr, (url, result.stderr)
        assert "s3cret-word" not in result.stderr, result.stderr
        assert time.time() - started < 10, url
