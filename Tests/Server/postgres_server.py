"""A private PostgreSQL server for the tests and the benchmark.

Debian's PostgreSQL (`make server-test-setup` installs it when missing) is
started from a fresh `initdb` in a temporary folder, listening only on a
Unix socket in that folder and on a free loopback port, and stopped (and
the folder removed) when the tests end, pass or fail. initdb refuses to run
as root, so as root the server runs as the `postgres` user (`runuser`).

Each test gets a database of its own (`create_database`), so tests never
see each other's shops.
"""

from __future__ import annotations

import atexit
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time


def _bin_dir() -> str:
    """The folder of Debian's PostgreSQL programs (the newest version), or of those on PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if found:
        return os.path.dirname(found[-1])
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl:
        return os.path.dirname(os.path.realpath(pg_ctl))
    raise RuntimeError("PostgreSQL is not installed: run `make server-test-setup` (apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivatePostgres:
    """One PostgreSQL server of the tests' own: `start()`, `url(db)`, `stop_immediate()`, `restart()`, `stop()`."""

    def __init__(self) -> None:
        self.bin = _bin_dir()
        self.root = tempfile.mkdtemp(prefix="juice-pg-")
        os.chmod(self.root, 0o755)
        self.data = os.path.join(self.root, "data")
        self.socket_dir = os.path.join(self.root, "socket")
        os.makedirs(self.socket_dir)
        self.port = _free_port()
        self.user = "juice"
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self._running = False
        self._databases = 0
        atexit.register(self.stop)

    def _run(self, args: list[str], check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        command = (["runuser", "-u", "postgres", "--"] if self.as_root else []) + args
        return subprocess.run(command, check=check, capture_output=True, text=True, timeout=timeout)

    def start(self) -> "PrivatePostgres":
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            self._run([os.path.join(self.bin, "initdb"), "-D", self.data, "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-locale"])
        self._pg_ctl_start()
        return self

    def _pg_ctl_start(self) -> None:
        options = f"-k {self.socket_dir} -p {self.port} -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=on -c synchronous_commit=on"
        self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-o", options, "-l", os.path.join(self.root, "server.log"), "-w", "-t", "60", "start"])
        self._running = True

    def stop_immediate(self) -> None:
        """A crash, as far as clients can tell: `pg_ctl stop -m immediate`."""
        self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"], check=False)
        self._running = False

    def restart(self) -> None:
        self._pg_ctl_start()

    def stop(self) -> None:
        if self._running:
            self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "fast", "-w", "stop"], check=False)
            self._running = False
        shutil.rmtree(self.root, ignore_errors=True)

    def psql(self, sql: str, database: str = "postgres") -> str:
        out = subprocess.run(
            [os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-h", self.socket_dir, "-p", str(self.port), "-U", self.user, "-d", database, "-c", sql],
            check=True, capture_output=True, text=True, timeout=60)
        return out.stdout.strip()

    def create_database(self, prefix: str = "juice", template: str | None = None) -> str:
        """A new database, empty or a copy of `template`; returns its name."""
        self._databases += 1
        name = f"{prefix}_{os.getpid()}_{self._databases}"
        self.psql(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return name

    @staticmethod
    def name_of(url: str) -> str:
        """The database a URL of `url()` names."""
        return str(url).split("@/", 1)[1].split("?", 1)[0]

    def conninfo(self, url: str) -> str:
        """The libpq connection string of a database URL of `url()`, for psycopg."""
        return f"host={self.socket_dir} port={self.port} user={self.user} dbname={self.name_of(url)}"

    def url(self, database: str) -> str:
        """The database's URL over the Unix socket."""
        return f"postgres://{self.user}@/{database}?host={self.socket_dir}&port={self.port}"

    def tcp_url(self, database: str) -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def log(self) -> str:
        try:
            with open(os.path.join(self.root, "server.log"), encoding="utf-8", errors="replace") as f:
                return f.read()[-4000:]
        except OSError:
            return ""
