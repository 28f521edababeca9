"""Shared fixtures for juice-serve's end-to-end tests.

Each server runs the real `juice-serve` binary ($JUICE_SERVE) on a private
copy of the canonical book, in a temporary folder, on a free port, and is
stopped when the test ends, whether it passed or not.

The suites run once per backend: `JUICE_TEST_BACKEND=sqlite` (the default)
gives each server a SQLite file; `JUICE_TEST_BACKEND=postgres` starts a
private PostgreSQL server for the session (`postgres_server.py`, stopped at
the end, pass or fail) and gives each server a database of its own, copied
from a template that holds the users. Tests about one backend only carry
the mark `sqlite_only` or `postgres_only`, and the other run leaves them out.
"""
import os
import re
import sqlite3
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
# juice-serve is its own package, in Server/ (`make server-test` sets JUICE_SERVE).
JUICE_SERVE = os.environ.get("JUICE_SERVE", str(ROOT / "Server" / ".build" / "debug" / "juice-serve"))

MANAGER = ("anna", "manager-password-1")
STAFF = ("sam", "staff-password-22")
OWNER = ("olga", "owner-password-333")

BACKEND = os.environ.get("JUICE_TEST_BACKEND", "sqlite")
assert BACKEND in ("sqlite", "postgres"), f"JUICE_TEST_BACKEND is sqlite or postgres, not {BACKEND!r}"
POSTGRES = None  # the session's PrivatePostgres, once started


def pytest_configure(config):
    config.addinivalue_line("markers", "sqlite_only: about the SQLite file itself; left out of the PostgreSQL run")
    config.addinivalue_line("markers", "postgres_only: about PostgreSQL; left out of the SQLite run")


def pytest_collection_modifyitems(config, items):
    other = "postgres_only" if BACKEND == "sqlite" else "sqlite_only"
    kept = [item for item in items if other not in item.keywords]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if other in item.keywords])
        items[:] = kept


def postgres():
    """The session's private PostgreSQL server, started on first use."""
    global POSTGRES
    if POSTGRES is None:
        from postgres_server import PrivatePostgres
        POSTGRES = PrivatePostgres().start()
    return POSTGRES


@pytest.fixture(scope="session", autouse=True)
def _stop_postgres_at_the_end():
    yield
    if POSTGRES is not None:
        POSTGRES.stop()


def sql(database, query, params=()):
    """Runs one SQL statement on a server's database (a SQLite path or a
    postgres:// URL) and returns its rows; `?` marks the parameters."""
    if str(database).startswith("postgres"):
        import psycopg
        with psycopg.connect(POSTGRES.conninfo(database), autocommit=True) as db:
            cursor = db.execute(query.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with sqlite3.connect(database) as db:
        return db.execute(query, params).fetchall()


def run_cli(*args, stdin=None, cwd=None, check=True):
    """Runs juice-serve with `args`; returns the CompletedProcess."""
    result = subprocess.run([JUICE_SERVE, *args], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"juice-serve {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


class Server:
    """One running juice-serve: its folder, database, base URL and process."""

    def __init__(self, folder: Path, book: Path | None = None, database=None, shop: str = "main"):
        self.folder = folder
        self.recipes = folder / "recipes"
        if not self.recipes.exists():
            shutil.copytree(book or ROOT / "recipes", self.recipes)
        # A SQLite path, or a postgres:// URL.
        self.database = database or folder / "shop.sqlite"
        self.shop = shop
        self.process = None
        self.url = None
        self.output = []

    @property
    def store_args(self):
        """`--database` and, in a chain's database, `--shop`."""
        return ["--database", str(self.database)] + (["--shop", self.shop] if self.shop != "main" else [])

    def sql(self, query, params=()):
        return sql(self.database, query, params)

    def add_user(self, name, password, role):
        run_cli("users", "add", name, "--role", role, *self.store_args, stdin=password + "\n")

    def start(self, timeout=30, prefix=()):
        """Starts the server and waits until it answers. `prefix` goes before
        the command (`setpriv …` runs it as another user)."""
        log = open(self.folder / "server.log", "a")
        self.process = subprocess.Popen(
            [*prefix, JUICE_SERVE, "--recipes", str(self.recipes), *self.store_args, "--port", "0"],
            stdout=subprocess.PIPE, stderr=log, text=True, cwd=self.folder,
        )
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                if self.process.poll() is not None:
                    raise AssertionError(f"juice-serve exited {self.process.returncode}: {(self.folder / 'server.log').read_text()}")
                continue
            self.output.append(line)
            match = re.search(r"at (http://[0-9.]+:\d+)", line)
            if match:
                self.url = match.group(1)
                break
        assert self.url, f"juice-serve printed no address: {self.output}"
        # Drain the rest of its output so the pipe never fills.
        import threading
        threading.Thread(target=self._drain, daemon=True).start()
        return self

    def _drain(self):
        for line in self.process.stdout:
            self.output.append(line)

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill9(self):
        self.stop(signal.SIGKILL)

    def session(self, who=MANAGER):
        """A signed-in requests.Session with its CSRF token in every request."""
        s = requests.Session()
        r = s.post(self.url + "/api/session", json={"user": who[0], "password": who[1]}, timeout=30)
        assert r.status_code == 200, r.text
        s.headers["X-CSRF-Token"] = r.json()["csrf"]
        return s


@pytest.fixture(scope="session")
def users_database(tmp_path_factory):
    """A database with the two users (and an owner) only, made once: each
    server copies it (a SQLite file copied, or a PostgreSQL template)."""
    if BACKEND == "postgres":
        pg = postgres()
        database = pg.url(pg.create_database("users"))
    else:
        database = tmp_path_factory.mktemp("users") / "shop.sqlite"
    for (name, password), role in ((MANAGER, "manager"), (STAFF, "staff"), (OWNER, "owner")):
        run_cli("users", "add", name, "--role", role, "--database", str(database), stdin=password + "\n")
    return database


def new_database(users_database):
    """A new database holding the users of `users_database` and no journal."""
    if BACKEND == "postgres":
        return POSTGRES.url(POSTGRES.create_database("shop", template=POSTGRES.name_of(users_database)))
    return None


def fresh_server(folder: Path, users_database, book: Path | None = None) -> Server:
    """A server (not started) in `folder`, with the two users and no journal yet."""
    srv = Server(folder, book, database=new_database(users_database))
    if BACKEND == "sqlite":
        shutil.copy(users_database, srv.database)
    return srv


@pytest.fixture
def server(tmp_path, users_database):
    """A running server with a manager (anna) and a staff user (sam)."""
    srv = fresh_server(tmp_path, users_database)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def new_id():
    return str(uuid.uuid4())
