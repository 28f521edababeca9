"""Shared fixtures for juice-serve's end-to-end tests.

Each server runs the real `juice-serve` binary ($JUICE_SERVE) on a private
copy of the canonical book, in a temporary folder, on a free port, and is
stopped when the test ends, whether it passed or not.
"""
import os
import re
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


def run_cli(*args, stdin=None, cwd=None, check=True):
    """Runs juice-serve with `args`; returns the CompletedProcess."""
    result = subprocess.run([JUICE_SERVE, *args], input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120)
    if check and result.returncode != 0:
        raise AssertionError(f"juice-serve {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


class Server:
    """One running juice-serve: its folder, database, base URL and process."""

    def __init__(self, folder: Path, book: Path | None = None):
        self.folder = folder
        self.recipes = folder / "recipes"
        if not self.recipes.exists():
            shutil.copytree(book or ROOT / "recipes", self.recipes)
        self.database = folder / "shop.sqlite"
        self.process = None
        self.url = None
        self.output = []

    def add_user(self, name, password, role):
        run_cli("users", "add", name, "--role", role, "--database", str(self.database), stdin=password + "\n")

    def start(self, timeout=30, prefix=()):
        """Starts the server and waits until it answers. `prefix` goes before
        the command (`setpriv …` runs it as another user)."""
        log = open(self.folder / "server.log", "a")
        self.process = subprocess.Popen(
            [*prefix, JUICE_SERVE, "--recipes", str(self.recipes), "--database", str(self.database), "--port", "0"],
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
    """A database with the two users only, made once: each server copies it."""
    folder = tmp_path_factory.mktemp("users")
    database = folder / "shop.sqlite"
    run_cli("users", "add", MANAGER[0], "--role", "manager", "--database", str(database), stdin=MANAGER[1] + "\n")
    run_cli("users", "add", STAFF[0], "--role", "staff", "--database", str(database), stdin=STAFF[1] + "\n")
    return database


def fresh_server(folder: Path, users_database: Path, book: Path | None = None) -> Server:
    """A server (not started) in `folder`, with the two users and no journal yet."""
    srv = Server(folder, book)
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
