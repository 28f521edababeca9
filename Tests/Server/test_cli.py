"""juice-serve's own commands, through the real binary: users (the password
typed twice at a real terminal, or one line on stdin), stock import as a
journal entry, the first start's advice, and the default address."""
import os
import pty
import select
import subprocess
import time

import pytest
import requests

from conftest import JUICE_SERVE, MANAGER, Server, fresh_server, run_cli

# The commands on a SQLite file; test_chain.py runs them on a chain's PostgreSQL database.
pytestmark = pytest.mark.sqlite_only


def at_terminal(args, answers, timeout=60):
    """Runs juice-serve on a pseudo-terminal, answering each prompt in turn;
    returns (exit code, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(JUICE_SERVE, [JUICE_SERVE, *args])
    shown = b""
    answered_at = 0
    pending = list(answers)
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            os.kill(pid, 9)
            raise AssertionError(f"juice-serve hung at the terminal: {shown!r}")
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
        # Answer each prompt once: only text shown since the last answer counts.
        if pending and shown[answered_at:].rstrip().endswith(b":"):
            os.write(fd, (pending.pop(0) + "\n").encode())
            answered_at = len(shown)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


def test_a_password_is_typed_twice_without_echo(tmp_path):
    database = str(tmp_path / "shop.sqlite")
    code, shown = at_terminal(["users", "add", "kim", "--role", "staff", "--database", database], ["a-long-password", "a-long-password"])
    assert code == 0, shown
    assert "Password" in shown and "Again" in shown
    assert "a-long-password" not in shown, "the password was echoed"
    code, shown = at_terminal(["users", "add", "lee", "--role", "staff", "--database", database], ["a-long-password", "another-password"])
    assert code == 1
    assert "the two passwords differ" in shown
    listed = run_cli("users", "list", "--database", database).stdout
    assert listed == "kim\tstaff\n"


def test_users_are_added_listed_changed_and_removed(tmp_path):
    database = str(tmp_path / "shop.sqlite")
    short = run_cli("users", "add", "kim", "--role", "manager", "--database", database, stdin="short\n", check=False)
    assert short.returncode == 1
    assert "at least 10 characters" in short.stderr
    bad_role = run_cli("users", "add", "kim", "--role", "boss", "--database", database, stdin="long-enough-1\n", check=False)
    assert bad_role.returncode == 64
    run_cli("users", "add", "kim", "--role", "manager", "--database", database, stdin="long-enough-1\n")
    again = run_cli("users", "add", "kim", "--role", "staff", "--database", database, stdin="long-enough-2\n", check=False)
    assert again.returncode == 1 and "already exists" in again.stderr
    run_cli("users", "password", "kim", "--database", database, stdin="long-enough-3\n")
    assert run_cli("users", "list", "--database", database).stdout == "kim\tmanager\n"
    run_cli("users", "remove", "kim", "--database", database)
    assert run_cli("users", "list", "--database", database).stdout == ""
    missing = run_cli("users", "remove", "kim", "--database", database, check=False)
    assert missing.returncode == 1 and "no user is called 'kim'" in missing.stderr


def test_the_first_start_has_no_user_and_says_how_to_add_one(tmp_path):
    server = Server(tmp_path).start()
    try:
        assert server.url.startswith("http://127.0.0.1:"), "juice-serve must bind to loopback by default"
        deadline = time.time() + 10
        while "no users yet" not in "".join(server.output) and time.time() < deadline:
            time.sleep(0.1)
        shown = "".join(server.output)
        assert "no users yet" in shown and "juice-serve users add NAME --role manager" in shown
        for user, password in [("admin", "admin"), ("manager", "manager"), ("anna", MANAGER[1])]:
            r = requests.post(server.url + "/api/session", json={"user": user, "password": password}, timeout=30)
            assert r.status_code == 401
    finally:
        server.stop()


def test_stock_import_is_a_journal_entry_and_needs_the_server_stopped(tmp_path, users_database):
    server = fresh_server(tmp_path, users_database)
    server.start()
    stock = tmp_path / "stock.yaml"
    stock.write_text("stock:\n  kiwi: 42\n  mango: 7\n")
    refused = run_cli("stock", "import", str(stock), "--recipes", str(server.recipes), "--database", str(server.database), check=False)
    assert refused.returncode == 1 and "stop it before importing" in refused.stderr
    server.stop()
    done = run_cli("stock", "import", str(stock), "--recipes", str(server.recipes), "--database", str(server.database))
    assert "journal entry" in done.stdout
    server.start()
    try:
        session = server.session()
        counts = {f["id"]: f["count"] for f in session.get(server.url + "/api/shop").json()["fruits"]}
        assert counts["kiwi"] == 42 and counts["mango"] == 7
        journal = session.get(server.url + "/api/journal").json()["entries"]
        assert journal[0]["kind"] == "stock-set" and "stock import" in journal[0]["reason"]
    finally:
        server.stop()


def test_a_second_server_on_one_database_is_refused(server):
    second = subprocess.run([JUICE_SERVE, "--recipes", str(server.recipes), "--database", str(server.database), "--port", "0"],
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 1
    assert "another juice-serve is using" in second.stderr
