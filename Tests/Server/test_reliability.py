"""juice-serve when things go wrong: kill -9 under load, clients racing for
the last fruit, one order id sent many times at once, a full disk, a
read-only database, files that are not its database, and a second server.

These run real processes on real files. The full disk is a small tmpfs and
the read-only database is a write-protected file, opened by a server that
runs as `nobody`; both need root (this suite runs as root, and each test
says so plainly when it cannot do what it needs instead of skipping).
"""
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
import requests

from conftest import BACKEND, JUICE_SERVE, MANAGER, STAFF, Server, fresh_server, new_id, run_cli

# Rounds of kill -9 under load; JUICE_KILL_ROUNDS=100 for a long soak.
KILL_ROUNDS = int(os.environ.get("JUICE_KILL_ROUNDS", "5"))

# The canonical book's recipes: what each order must take, per serving.
RECIPES = {
    "strawberry-juice": {"strawberry": 16},
    "banana-juice": {"banana": 2},
    "kiwi-juice": {"kiwi": 3},
    "pineapple-juice": {"pineapple": 2},
    "strawberry-banana-juice": {"strawberry": 10, "banana": 1},
    "mango-juice": {"mango": 3},
    "mango-kiwi-juice": {"mango": 2, "kiwi": 1},
}


def entries_oldest_first(s, srv, day=None):
    params = {"day": day} if day else {}
    r = s.get(srv.url + "/api/journal", params=params, timeout=30)
    assert r.status_code == 200, r.text
    return list(reversed(r.json()["entries"]))


def shop_stock(s, srv):
    r = s.get(srv.url + "/api/shop", timeout=30)
    assert r.status_code == 200, r.text
    return {f["id"]: f["count"] for f in r.json()["fruits"]}


def replay(entries):
    """The stock the day's entries give, from its opening stock; checks
    each entry on the way (an order took exactly its recipe, a stock change
    started from the stock then, nothing went below 0)."""
    assert entries and entries[0]["kind"] == "day-open", entries[:1]
    stock = None
    for e in entries:
        kind = e["kind"]
        if kind == "day-open":
            stock = {c["id"]: c["count"] for c in e["fruit"]}
        elif kind == "order":
            need = {fruit: amount * e["quantity"] for fruit, amount in RECIPES[e["item"]].items()}
            assert {c["id"]: c["count"] for c in e["fruit"]} == need, e
            for fruit, amount in need.items():
                stock[fruit] -= amount
                assert stock[fruit] >= 0, e
        elif kind == "stock":
            assert stock[e["id"]] == e["before"], e
            stock[e["id"]] = e["after"]
        elif kind == "stock-set":
            stock.update({c["id"]: c["count"] for c in e["stock"]["fruit"]})
        elif kind == "void":
            for c in e["fruit"]:
                stock[c["id"]] += c["count"]
        else:
            assert kind in ("refusal", "refund", "day-close"), e
    return stock


def check_journal(s, srv, sent, acked, voids=()):
    """Every acknowledged request is in the journal exactly once, as it was
    answered; nothing is there that was not sent; an unacknowledged one is
    there whole or not at all; no order is corrected twice; and the stock is
    the journal replayed.

    `sent` maps each client id to what was asked (`("order", item,
    quantity)` or `("stock", fruit, amount)`), `acked` to the answer's
    status and body; `voids` are the void entries acknowledged."""
    entries = entries_oldest_first(s, srv)
    assert [e["sequence"] for e in entries] == list(range(entries[0]["sequence"], entries[0]["sequence"] + len(entries)))
    by_id = {}
    for e in entries:
        if e.get("clientID") and e["kind"] in ("order", "refusal", "stock"):
            assert e["clientID"] not in by_id, f"{e['clientID']} is in the journal twice"
            by_id[e["clientID"]] = e
    assert set(by_id) <= set(sent), "the journal holds a request nobody sent"
    for client_id, (status, body) in acked.items():
        entry = by_id.get(client_id)
        assert entry is not None, f"acknowledged {client_id} ({status}) is missing"
        if status == 201:
            assert entry == body
        else:
            assert entry["kind"] == "refusal" and str(entry["sequence"]) == body["error"]["refusal"]
    for client_id, entry in by_id.items():
        kind, name, amount = sent[client_id]
        if kind == "order":
            assert (entry["item"], entry["quantity"]) == (name, amount), entry
        else:
            assert (entry["kind"], entry["id"], entry["after"] - entry["before"]) == ("stock", name, amount), entry
    corrected = [e["order"] for e in entries if e["kind"] in ("void", "refund")]
    assert len(corrected) == len(set(corrected)), "an order was corrected twice"
    for void in voids:
        assert void in entries, f"acknowledged void of {void['order']} is missing"
    assert shop_stock(s, srv) == replay(entries)
    if BACKEND == "sqlite":
        with sqlite3.connect(f"file:{srv.database}?mode=ro", uri=True) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return by_id


def order(s, srv, item, quantity=1, client_id=None, timeout=30):
    return s.post(srv.url + "/api/orders", json={"id": client_id or new_id(), "item": item, "quantity": quantity}, timeout=timeout)


def clone(s):
    """Another HTTP client (its own connections) on the same session."""
    c = requests.Session()
    c.cookies.update(s.cookies)
    c.headers.update(s.headers)
    return c


# MARK: kill -9


def test_kill_9_under_load_loses_no_acknowledged_order_and_adds_none(tmp_path, users_database):
    """KILL_ROUNDS rounds (5): eight tills order (and a manager adds stock and voids)
    as fast as they can; the server is killed with SIGKILL at a random
    moment; the restarted server must hold every acknowledged request once,
    nothing else but whole in-flight ones, and the stock the journal gives."""
    rng = random.Random(20260101)
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    s = srv.session()
    for fruit in ("banana", "pineapple", "kiwi", "mango"):
        assert s.post(srv.url + "/api/stock", json={"fruit": fruit, "set": 1_000_000}).status_code == 201
    sent, acked, voids, lock = {}, {}, [], threading.Lock()
    items = list(RECIPES)  # strawberry-juice is always refused: refusals are journaled too
    acked_after_round = []
    for round_number in range(KILL_ROUNDS):
        stop = threading.Event()
        seeds = [rng.random() for _ in range(9)]

        def till(seed):
            local = random.Random(seed)
            client = clone(s)
            while not stop.is_set():
                client_id, item, quantity = new_id(), local.choice(items), local.randint(1, 3)
                with lock:
                    sent[client_id] = ("order", item, quantity)
                try:
                    r = order(client, srv, item, quantity, client_id, timeout=10)
                except requests.RequestException:
                    return
                assert r.status_code in (201, 409), r.text
                with lock:
                    acked[client_id] = (r.status_code, r.json())

        def manager(seed):
            local = random.Random(seed)
            client = clone(s)
            while not stop.is_set():
                try:
                    if local.random() < 0.5:
                        client_id, fruit, amount = new_id(), local.choice(["banana", "kiwi", "mango"]), local.randint(1, 50)
                        with lock:
                            sent[client_id] = ("stock", fruit, amount)
                        r = client.post(srv.url + "/api/stock", json={"fruit": fruit, "add": amount, "id": client_id}, timeout=10)
                        assert r.status_code == 201, r.text
                        with lock:
                            acked[client_id] = (201, r.json())
                    else:
                        with lock:
                            made = [body for status, body in acked.values() if status == 201 and body["kind"] == "order"]
                        if made:
                            r = client.post(srv.url + f"/api/orders/{local.choice(made)['sequence']}/void", timeout=10)
                            assert r.status_code in (201, 409), r.text
                            if r.status_code == 201:
                                with lock:
                                    voids.append(r.json())
                except requests.RequestException:
                    return

        threads = [threading.Thread(target=till, args=(seed,)) for seed in seeds[:8]]
        threads.append(threading.Thread(target=manager, args=(seeds[8],)))
        for t in threads:
            t.start()
        time.sleep(rng.uniform(0.3, 0.9))
        srv.kill9()
        stop.set()
        for t in threads:
            t.join()
        acked_after_round.append(len(acked))

        srv.start()
        s = srv.session()
        by_id = check_journal(s, srv, sent, acked, voids)
        # A request in flight at the kill, sent again: the first answer if it
        # was written, else it is made now; either way it is there once.
        for client_id in [c for c in sent if c not in acked]:
            kind, name, amount = sent[client_id]
            if kind == "order":
                r = order(s, srv, name, amount, client_id)
            else:
                r = s.post(srv.url + "/api/stock", json={"fruit": name, "add": amount, "id": client_id}, timeout=30)
            assert r.status_code in (200, 201, 409), r.text
            if client_id in by_id:
                entry = by_id[client_id]
                assert r.status_code == {"order": 201, "refusal": 409, "stock": 200}[entry["kind"]]
                if r.status_code != 409:
                    assert r.json() == entry
            acked[client_id] = (409 if r.status_code == 409 else 201, r.json())
        check_journal(s, srv, sent, acked, voids)
    srv.stop()
    # Every round acknowledged requests before its kill.
    assert all(b > a for a, b in zip([0] + acked_after_round, acked_after_round)), acked_after_round
    assert voids, "no void was made under load"


@pytest.mark.sqlite_only
def test_an_acknowledged_order_was_synced_to_disk(server):
    """synchronous=FULL: each commit fsyncs the WAL before the answer. Seen
    from outside with strace: 20 orders one after another, at least 20
    syncs (NORMAL, which GRDB's WAL set-up once left on, makes none)."""
    assert shutil.which("strace"), "strace is needed to watch the server's fsync calls"
    s = server.session()
    trace = server.folder / "syncs.txt"
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", str(trace), "-p", str(server.process.pid)],
                              stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1.0)
        assert tracer.poll() is None, f"strace cannot attach (ptrace not allowed here?): {tracer.stderr.read()}"
        for _ in range(20):
            assert order(s, server, "banana-juice", 1).status_code in (201, 409)
        time.sleep(0.2)
    finally:
        tracer.send_signal(signal.SIGINT)
        tracer.wait(timeout=10)
    syncs = [line for line in trace.read_text().splitlines() if "fsync(" in line or "fdatasync(" in line]
    assert len(syncs) >= 20, syncs


def test_a_book_changed_under_load_keeps_orders_right(tmp_path, users_database):
    """The server takes a changed book while tills order: every order is
    still answered 201 or 409 (never a clash of journal sequences), the new
    book is in use, and the stock is the journal replayed."""
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    s = srv.session()
    for fruit in ("banana", "pineapple", "kiwi", "mango"):
        assert s.post(srv.url + "/api/stock", json={"fruit": fruit, "set": 1_000_000}).status_code == 201
    sent, acked, answers, lock, stop = {}, {}, [], threading.Lock(), threading.Event()

    def till(seed):
        local = random.Random(seed)
        client = clone(s)
        while not stop.is_set():
            client_id, item, quantity = new_id(), local.choice(list(RECIPES)), 1
            with lock:
                sent[client_id] = ("order", item, quantity)
            r = order(client, srv, item, quantity, client_id, timeout=10)
            with lock:
                answers.append((r.status_code, r.text))
                if r.status_code in (201, 409):
                    acked[client_id] = (r.status_code, r.json())

    threads = [threading.Thread(target=till, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    menu = srv.recipes / "menu.yaml"
    original = menu.read_text()
    try:
        for version in range(1, 5):
            time.sleep(0.7)
            menu.write_text(original.replace("label: 바나나쥬스", f"label: 바나나쥬스 {version}"))
        time.sleep(1.5)
    finally:
        stop.set()
        for t in threads:
            t.join()
    unexpected = [a for a in answers if a[0] not in (201, 409) or '"not-enough-fruit"' not in a[1] and a[0] == 409]
    assert not unexpected, unexpected[:3]
    state = s.get(srv.url + "/api/shop").json()
    assert state["bookVersion"] >= 2
    assert {m["id"]: m["label"] for m in state["menu"]}["banana-juice"] == "바나나쥬스 4"
    check_journal(s, srv, sent, acked)
    srv.stop()
    srv.start()
    check_journal(srv.session(), srv, sent, acked)
    srv.stop()


# MARK: Races


@pytest.mark.parametrize("item,fruit,units,served", [("kiwi-juice", "kiwi", 7, 2), ("mango-kiwi-juice", "mango", 9, 4)])
def test_50_clients_racing_for_the_last_units_get_exactly_what_the_stock_allows(server, item, fruit, units, served):
    s = server.session()
    assert s.post(server.url + "/api/stock", json={"fruit": fruit, "set": units}).status_code == 201
    barrier = threading.Barrier(50)
    results = [None] * 50
    ids = [new_id() for _ in range(50)]

    def client(i):
        c = clone(s)
        barrier.wait()
        results[i] = order(c, server, item, 1, ids[i])

    threads = [threading.Thread(target=client, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = [r.status_code for r in results]
    assert statuses.count(201) == served, statuses
    assert statuses.count(409) == 50 - served, statuses
    for r in results:
        if r.status_code == 409:
            assert r.json()["error"]["code"] == "not-enough-fruit" and r.json()["error"]["short"] == fruit
    need = RECIPES[item][fruit]
    assert shop_stock(s, server)[fruit] == units - served * need
    entries = entries_oldest_first(s, server)
    mine = [e for e in entries if e.get("clientID") in set(ids)]
    assert sorted(e["kind"] for e in mine) == ["order"] * served + ["refusal"] * (50 - served)
    assert shop_stock(s, server) == replay(entries)


def test_one_order_id_sent_many_times_at_once_orders_once(server):
    manager, staff = server.session(MANAGER), server.session(STAFF)
    client_id = new_id()
    barrier = threading.Barrier(30)
    results = [None] * 30

    def client(i):
        c = clone(manager if i % 2 else staff)
        barrier.wait()
        results[i] = order(c, server, "kiwi-juice", 1, client_id)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in results] == [201] * 30
    assert all(r.json() == results[0].json() for r in results)
    entries = entries_oldest_first(manager, server)
    assert [e["kind"] for e in entries] == ["day-open", "order"]
    assert shop_stock(manager, server)["kiwi"] == 7


# MARK: Full disk


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB tmpfs, mounted for the test and unmounted after it."""
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True, text=True)
    assert made.returncode == 0, f"a small disk needs mount(8) as root with CAP_SYS_ADMIN, which this runner lacks: {made.stderr}"
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(folder):
    """Fills the file system of `folder` to the last byte; returns the filler file."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for size in (1 << 20, 65536, 4096, 512, 1):
            chunk = b"\0" * size
            try:
                while True:
                    os.write(descriptor, chunk)
            except OSError as error:
                assert error.errno == 28, error  # ENOSPC
    finally:
        os.close(descriptor)
    return filler


def make_renewal_due(database):
    """Marks every session as last renewed long ago: the next request with it
    pushes its idle expiry forward, which writes to the database."""
    with sqlite3.connect(database) as db:
        for key, value in db.execute("SELECT key, value FROM sessions").fetchall():
            session = json.loads(bytes(value))
            session["renewed"] = 0
            db.execute("UPDATE sessions SET value = ? WHERE key = ?", (json.dumps(session).encode(), key))


@pytest.mark.sqlite_only
def test_a_full_disk_refuses_orders_keeps_reads_and_recovers(tmp_path, users_database, small_disk):
    srv = Server(tmp_path / "server")
    srv.database = small_disk / "shop.sqlite"
    shutil.copy(users_database, srv.database)
    srv.start()
    s = srv.session()
    reader = srv.session(STAFF)
    sent, acked = {}, {}
    for _ in range(5):
        client_id = new_id()
        sent[client_id] = ("order", "banana-juice", 1)
        r = order(s, srv, "banana-juice", 1, client_id)
        assert r.status_code == 201
        acked[client_id] = (201, r.json())
    assert s.post(srv.url + "/api/stock", json={"fruit": "banana", "set": 1_000_000}).status_code == 201
    make_renewal_due(srv.database)

    filler = fill(small_disk)
    refused = []
    for attempt in range(3000):
        client_id = new_id()
        sent[client_id] = ("order", "banana-juice", 1)
        r = order(s, srv, "banana-juice", 1, client_id)
        if r.status_code == 201:
            acked[client_id] = (201, r.json())
            continue
        assert r.status_code == 503, r.text
        error = r.json()["error"]
        assert error["code"] == "cannot-write" and "disk is full" in error["message"], error
        assert int(r.headers["Retry-After"]) >= 1
        refused.append(client_id)
        if len(refused) == 20:
            break
    assert refused, "3,000 orders fitted on a full disk"
    assert s.post(srv.url + "/api/stock", json={"fruit": "kiwi", "add": 1}).status_code == 503

    # Reads keep working, for a session whose idle expiry falls due now too.
    assert reader.get(srv.url + "/api/shop").status_code == 200
    assert entries_oldest_first(reader, srv) == []  # staff see their own entries: none
    journal = entries_oldest_first(s, srv)
    assert {e["clientID"] for e in journal if e["kind"] == "order"} == {c for c, (status, _) in acked.items()}
    day = journal[0]["day"]
    assert s.get(srv.url + f"/api/day/{day}/report").status_code == 200
    assert shop_stock(s, srv) == replay(journal)
    r = requests.post(srv.url + "/api/session", json={"user": MANAGER[0], "password": MANAGER[1]}, timeout=30)
    assert r.status_code == 503 and r.json()["error"]["code"] == "cannot-write", r.text

    # Space comes back: orders are taken again, the refused ones among them.
    filler.unlink()
    for client_id in refused:
        r = order(s, srv, "banana-juice", 1, client_id)
        assert r.status_code == 201, r.text
        acked[client_id] = (201, r.json())
    check_journal(s, srv, sent, acked)
    srv.stop()
    srv.start()
    check_journal(srv.session(), srv, sent, acked)
    srv.stop()


# MARK: Read-only database


@pytest.fixture
def shared_folder():
    """A folder `nobody` can use (pytest's own are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="juice-ro-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.mark.sqlite_only
@pytest.mark.parametrize("runner", ["nobody", "root"])
def test_a_read_only_database_serves_reads_and_refuses_changes(shared_folder, users_database, runner):
    srv = fresh_server(shared_folder, users_database)
    srv.start()
    manager, staff = srv.session(MANAGER), srv.session(STAFF)
    made = order(staff, srv, "kiwi-juice", 2).json()
    srv.stop()
    make_renewal_due(srv.database)
    os.chmod(srv.database, 0o444)
    for path in (srv.recipes, *srv.recipes.iterdir()):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    before = sha256(srv.database)

    prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if runner == "nobody" else []
    srv.start(prefix=prefix)
    try:
        # Reads keep working, with sessions made before.
        state = manager.get(srv.url + "/api/shop", timeout=10)
        assert state.status_code == 200, state.text
        assert state.json()["stock"]["kiwi"] == 4
        assert entries_oldest_first(staff, srv) == [made]
        assert manager.get(srv.url + f"/api/day/{made['day']}/report", timeout=10).status_code == 200
        # Every change is refused with a clear message, and nothing else breaks.
        for method, path, body in [
            ("POST", "/api/orders", {"id": new_id(), "item": "banana-juice", "quantity": 1}),
            ("POST", "/api/stock", {"fruit": "kiwi", "add": 1}),
            ("POST", f"/api/orders/{made['clientID']}/void", None),
            ("POST", "/api/day/close", None),
        ]:
            r = manager.request(method, srv.url + path, json=body, timeout=10)
            assert r.status_code == 503, (path, r.text)
            assert r.json()["error"]["code"] == "cannot-write" and "read-only" in r.json()["error"]["message"], r.text
            assert int(r.headers["Retry-After"]) >= 1
        r = requests.post(srv.url + "/api/session", json={"user": MANAGER[0], "password": MANAGER[1]}, timeout=30)
        assert r.status_code == 503 and r.json()["error"]["code"] == "cannot-write", r.text
        assert manager.get(srv.url + "/api/shop", timeout=10).json()["stock"]["kiwi"] == 4
    finally:
        srv.stop()
    assert sha256(srv.database) == before
    # Writable again, the same journal takes orders.
    os.chmod(srv.database, 0o644)
    srv.start()
    assert order(srv.session(), srv, "banana-juice").status_code == 201
    srv.stop()


@pytest.mark.sqlite_only
def test_a_database_on_a_read_only_mount_is_refused_with_why(tmp_path, users_database):
    """SQLite writes a '-shm' file beside a WAL database even to read it, so a
    database on a read-only file system cannot be served at all; the server
    says so instead of claiming another server holds it."""
    folder, mount = tmp_path / "data", tmp_path / "ro"
    folder.mkdir()
    mount.mkdir()
    shutil.copy(users_database, folder / "shop.sqlite")
    bound = subprocess.run(["mount", "--bind", str(folder), str(mount)], capture_output=True, text=True)
    assert bound.returncode == 0, f"a read-only mount needs mount(8) as root with CAP_SYS_ADMIN, which this runner lacks: {bound.stderr}"
    try:
        made = subprocess.run(["mount", "-o", "remount,bind,ro", str(mount)], capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
        stderr = refuse_to_start(mount / "shop.sqlite", tmp_path)
        assert "-shm" in stderr and "cannot be written" in stderr and "another juice-serve" not in stderr, stderr
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


@pytest.mark.sqlite_only
def test_a_database_write_protected_while_serving_refuses_changes_until_it_is_writable_again(server):
    s = server.session()
    made = order(s, server, "kiwi-juice").json()
    os.chmod(server.database, 0o444)
    try:
        r = order(s, server, "banana-juice")
        assert r.status_code == 503 and r.json()["error"]["code"] == "cannot-write", r.text
        assert "read-only" in r.json()["error"]["message"] and int(r.headers["Retry-After"]) >= 1
        assert shop_stock(s, server)["kiwi"] == 7
        assert entries_oldest_first(s, server)[-1] == made
    finally:
        os.chmod(server.database, 0o644)
    assert order(s, server, "banana-juice").status_code == 201
    assert shop_stock(s, server) == replay(entries_oldest_first(s, server))


# MARK: Files that are not the shop's database


def refuse_to_start(database, folder):
    """Runs juice-serve on `database`: it must exit non-zero, quickly, saying why."""
    result = subprocess.run([JUICE_SERVE, "--recipes", str(Path(__file__).resolve().parents[2] / "recipes"),
                             "--database", str(database), "--port", "0"],
                            capture_output=True, text=True, timeout=30, cwd=folder)
    assert result.returncode != 0, result.stdout
    assert "serving" not in result.stdout
    return result.stderr


def foreign_database(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER)")
        db.execute("INSERT INTO invoices (total) VALUES (1200), (3400)")


def random_bytes(path):
    path.write_bytes(random.Random(7).randbytes(65536))


def sqlite_header_then_garbage(path):
    path.write_bytes(b"SQLite format 3\0" + random.Random(8).randbytes(8192))


@pytest.mark.parametrize("make,words", [
    (random_bytes, ["not a database"]),
    (sqlite_header_then_garbage, ["shop.sqlite"]),
    (foreign_database, ["another program", "will not change it"]),
])
@pytest.mark.sqlite_only
def test_a_file_that_is_not_its_database_is_refused_unchanged(tmp_path, make, words):
    database = tmp_path / "shop.sqlite"
    make(database)
    before = sha256(database)
    stderr = refuse_to_start(database, tmp_path)
    assert stderr.startswith("juice-serve: ") and str(database) in stderr, stderr
    for word in words:
        assert word in stderr, stderr
    assert len(stderr.strip().splitlines()) <= 3, stderr
    assert sha256(database) == before
    assert not (tmp_path / "shop.sqlite-wal").exists() or (tmp_path / "shop.sqlite-wal").stat().st_size == 0


@pytest.mark.sqlite_only
def test_a_damaged_database_is_refused(tmp_path, users_database):
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    s = srv.session()
    for _ in range(3):
        order(s, srv, "banana-juice")
    srv.stop()
    data = bytearray(srv.database.read_bytes())
    page = 4096
    assert len(data) >= 4 * page
    data[2 * page:3 * page] = random.Random(9).randbytes(page)  # a page of the tables, not the header
    srv.database.write_bytes(bytes(data))
    stderr = refuse_to_start(srv.database, tmp_path)
    assert str(srv.database) in stderr and ("damaged" in stderr or "malformed" in stderr), stderr


@pytest.mark.sqlite_only
def test_a_database_of_a_newer_schema_is_refused(tmp_path, users_database):
    database = tmp_path / "shop.sqlite"
    shutil.copy(users_database, database)
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('9-from-the-future')")
    before = sha256(database)
    stderr = refuse_to_start(database, tmp_path)
    assert "newer schema" in stderr and "9-from-the-future" in stderr and "newer juice-serve" in stderr, stderr
    assert sha256(database) == before


# The schema of issue 38's juice-serve (migration 1), written by hand: a
# database from before the owner role.
SCHEMA_1 = """
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES ('1-journal-users-sessions');
CREATE TABLE journal (sequence INTEGER PRIMARY KEY AUTOINCREMENT, day TEXT NOT NULL, time INTEGER NOT NULL,
    user TEXT NOT NULL, till TEXT NOT NULL, kind TEXT NOT NULL, client_id TEXT, target INTEGER, body TEXT NOT NULL);
CREATE TABLE users (name TEXT PRIMARY KEY, role TEXT NOT NULL CHECK (role IN ('manager', 'staff')),
    password_hash TEXT NOT NULL, created INTEGER NOT NULL);
CREATE TABLE sessions (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE sign_in_failures (user TEXT NOT NULL, time INTEGER NOT NULL);
PRAGMA application_id = 1247103299;
"""


@pytest.mark.sqlite_only
def test_a_database_from_before_the_owner_role_is_migrated_with_its_users_and_journal(tmp_path, users_database):
    """Migration 2 makes the users table again (SQLite cannot widen a CHECK):
    the users, their passwords and the journal come through, and an owner can be added."""
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.executescript(SCHEMA_1)
        with sqlite3.connect(users_database) as users:
            for row in users.execute("SELECT name, role, password_hash, created FROM users WHERE role != 'owner'"):
                db.execute("INSERT INTO users VALUES (?, ?, ?, ?)", row)
        body = {"sequence": 1, "day": "2026-01-05", "time": 1767600000000, "user": "system", "till": "server", "kind": "day-open",
                "fruit": [{"id": "banana", "count": 5}], "servings": []}
        db.execute("INSERT INTO journal (sequence, day, time, user, till, kind, body) VALUES (1, '2026-01-05', 1767600000000, 'system', 'server', 'day-open', ?)",
                   (json.dumps(body),))
    srv = Server(tmp_path / "server", database=old)
    srv.start()
    try:
        s = srv.session(MANAGER)
        assert s.get(srv.url + "/api/shop").json()["stock"]["banana"] == 5
        assert order(s, srv, "banana-juice").status_code == 201
    finally:
        srv.stop()
    run_cli("users", "add", "olivia", "--role", "owner", "--database", str(old), stdin="owner-password-9\n")
    with sqlite3.connect(old) as db:
        assert [r[0] for r in db.execute("SELECT identifier FROM grdb_migrations ORDER BY identifier")] == ["1-journal-users-sessions", "2-owner-role"]
        assert sorted(db.execute("SELECT name, role FROM users")) == [("anna", "manager"), ("olivia", "owner"), ("sam", "staff")]
        assert db.execute("SELECT count(*) FROM journal").fetchone()[0] == 2


@pytest.mark.sqlite_only
def test_an_empty_file_becomes_a_new_database(tmp_path):
    database = tmp_path / "shop.sqlite"
    database.write_bytes(b"")
    result = run_cli("users", "add", "ann", "--role", "manager", "--database", str(database), stdin="manager-password-1\n")
    assert "Added manager 'ann'" in result.stdout


# MARK: One server per database


@pytest.mark.sqlite_only
def test_a_second_server_on_the_same_database_is_refused(server, tmp_path):
    s = server.session()
    link = tmp_path / "another-name.sqlite"
    link.symlink_to(server.database)
    for database in (server.database, link):
        stderr = refuse_to_start(database, tmp_path)
        assert "another juice-serve is using" in stderr, stderr
    result = run_cli("stock", "import", str(server.recipes / "fruits.yaml"), "--recipes", str(server.recipes),
                     "--database", str(server.database), check=False)
    assert result.returncode != 0 and "running" in result.stderr, result.stderr
    # The first server carries on.
    assert order(s, server, "banana-juice").status_code == 201


def test_the_lock_goes_with_the_server(tmp_path, users_database):
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    srv.kill9()
    # A killed server leaves no lock behind: the next one starts.
    srv.start()
    assert order(srv.session(), srv, "banana-juice").status_code == 201
    srv.stop()
