#!/usr/bin/env python3
"""juice-serve's speed, side by side with the physical limit (`make bench` runs this).

    python3 Benchmarks/serve_bench.py [--serve Server/.build/release/juice-serve] [--seconds 10] [--tills 50]

1. Durable orders per second: wrk drives --tills concurrent connections, each
   posting kiwi-juice orders with fresh ids to POST /api/orders for --seconds,
   against a manager session; p50 and p99 latency from wrk's distribution.
2. The limit: a bare loop in Python's sqlite3 doing the same number of inserts,
   one per transaction, WAL with synchronous=FULL (an fsync per commit), on the
   same disk, in the same run. The goal is at least 0.5x its rate.
3. The counter page (GET /): its size (goal <= 20 KB) and wrk's p99 (goal <= 50 ms).
4. A live update: 5 tills listen on GET /api/events while a sixth orders 200
   times, one after another; from each order's answer to its event at each
   listener, p99 (goal <= 250 ms).

Prints a Markdown table and writes it to .build/serve-bench.md.
"""
import argparse
import json
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WRK_SCRIPT = r'''
local counter = 0
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
function init(args)
  prefix = "w" .. tid .. "-" .. tostring(os.time()) .. "-" .. math.random(1, 1000000000) .. "-"
  wrk.headers["Cookie"] = os.getenv("BENCH_COOKIE")
  wrk.headers["X-CSRF-Token"] = os.getenv("BENCH_CSRF")
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  counter = counter + 1
  return wrk.format("POST", "/api/orders", nil, '{"id":"' .. prefix .. counter .. '","item":"kiwi-juice","quantity":1,"till":"bench"}')
end
'''

PAGE_SCRIPT = r'''
function init(args) wrk.headers["Cookie"] = os.getenv("BENCH_COOKIE") end
'''


def http(method, url, body=None, headers=None):
    import urllib.request
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def start_server(serve, folder):
    shutil.copytree(ROOT / "recipes", folder / "recipes")
    database = folder / "shop.sqlite"
    subprocess.run([serve, "users", "add", "bench", "--role", "manager", "--database", str(database)], input="bench-password-1\n", text=True, check=True, capture_output=True)
    process = subprocess.Popen([serve, "--recipes", str(folder / "recipes"), "--database", str(database), "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        match = re.search(r"at (http://[0-9.]+:\d+)", line)
        if match:
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, match.group(1), database
    raise SystemExit("juice-serve printed no address")


def sign_in(url):
    status, headers, body = http("POST", url + "/api/session", {"user": "bench", "password": "bench-password-1"})
    assert status == 200, body
    cookie = headers["Set-Cookie"].split(";")[0]
    return cookie, json.loads(body)["csrf"]


def wrk(url, path, script, seconds, connections, env):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
    result = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "-s", handle.name, url + path],
                            capture_output=True, text=True, env={**os.environ, **env}, check=True)
    os.unlink(handle.name)
    text = result.stdout
    def latency(percent):
        match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s)", text, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    requests = int(re.search(r"(\d+) requests in", text).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return {"requests": requests, "rate": rate, "p50": latency(50), "p99": latency(99), "non2xx": int(errors.group(1)) if errors else 0, "text": text}


def bare_sqlite(count, folder):
    """The physical limit: `count` inserts, one fsync'd WAL commit each."""
    path = folder / "bare.sqlite"
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("CREATE TABLE journal (sequence INTEGER PRIMARY KEY, client_id TEXT UNIQUE, body TEXT NOT NULL)")
    body = json.dumps({"kind": "order", "item": "kiwi-juice", "fruit": [{"id": "kiwi", "count": 3}]})
    start = time.perf_counter()
    for index in range(count):
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO journal (client_id, body) VALUES (?, ?)", (str(uuid.uuid4()), body))
        connection.execute("COMMIT")
    elapsed = time.perf_counter() - start
    connection.close()
    return count / elapsed


def live_updates(url, cookie, csrf, orders=200, listeners=5):
    arrivals = [dict() for _ in range(listeners)]
    ready = threading.Barrier(listeners + 1)

    def listen(index):
        host, port = url.split("//")[1].split(":")
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
        ready.wait()
        buffer = b""
        while len(arrivals[index]) < orders:
            chunk = sock.recv(65536)
            if not chunk:
                break
            buffer += chunk
            now = time.perf_counter()
            for match in re.finditer(rb'"clientID":"(bench-live-\d+)"', buffer):
                arrivals[index].setdefault(match.group(1).decode(), now)
            buffer = buffer[-4096:]
        sock.close()

    threads = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(listeners)]
    for thread in threads:
        thread.start()
    ready.wait()
    time.sleep(0.3)
    answered = {}
    for index in range(orders):
        client_id = f"bench-live-{index}"
        status, _, body = http("POST", url + "/api/orders", {"id": client_id, "item": "kiwi-juice", "quantity": 1}, {"Cookie": cookie, "X-CSRF-Token": csrf})
        assert status == 201, body
        answered[client_id] = time.perf_counter()
        time.sleep(0.01)
    for thread in threads:
        thread.join(timeout=10)
    delays = sorted(max(0.0, arrival[c] - answered[c]) * 1000 for arrival in arrivals for c in answered if c in arrival)
    missing = orders * listeners - len(delays)
    return delays[len(delays) // 2], delays[int(len(delays) * 0.99) - 1], missing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", default=str(ROOT / "Server" / ".build" / "release" / "juice-serve"))
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--tills", type=int, default=50)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: `apt-get install wrk` (make bench-setup installs it)")
    folder = Path(tempfile.mkdtemp(prefix="serve-bench-"))
    process, url, database = start_server(args.serve, folder)
    try:
        cookie, csrf = sign_in(url)
        headers = {"Cookie": cookie, "X-CSRF-Token": csrf}
        for fruit in ["strawberry", "banana", "pineapple", "kiwi", "mango"]:
            status, _, body = http("POST", url + "/api/stock", {"fruit": fruit, "set": 10**12}, headers)
            assert status == 201, body
        env = {"BENCH_COOKIE": cookie, "BENCH_CSRF": csrf}
        orders = wrk(url, "/api/orders", WRK_SCRIPT, args.seconds, args.tills, env)
        assert orders["non2xx"] == 0, orders["text"]
        status, _, page = http("GET", url + "/", headers={"Cookie": cookie})
        assert status == 200
        counter = wrk(url, "/", PAGE_SCRIPT, max(3, args.seconds // 2), 10, env)
        live_p50, live_p99, missing = live_updates(url, cookie, csrf)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            raise SystemExit("juice-serve did not stop within 10 s of SIGTERM")
    limit = bare_sqlite(orders["requests"], folder)
    shutil.rmtree(folder, ignore_errors=True)
    machine = f"{os.uname().machine}, {os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}"
    ratio = orders["rate"] / limit
    rows = [
        ("durable orders/s, %d tills, %d s" % (args.tills, args.seconds), f"{orders['rate']:.0f}/s ({orders['requests']} orders)", f"bare SQLite WAL loop {limit:.0f}/s", f"{ratio:.2f}x", ">= 0.5x", "pass" if ratio >= 0.5 else "FAIL"),
        ("order latency under that load", f"p50 {orders['p50']:.1f} ms, p99 {orders['p99']:.1f} ms", "", "", "p99 <= 50 ms", "pass" if orders["p99"] <= 50 else "FAIL"),
        ("counter page (GET /), 10 connections", f"{len(page)} bytes, p99 {counter['p99']:.1f} ms", "", "", "<= 20 KB, p99 <= 50 ms", "pass" if len(page) <= 20480 and counter["p99"] <= 50 else "FAIL"),
        ("live update to 5 other tills", f"p50 {live_p50:.1f} ms, p99 {live_p99:.1f} ms, {missing} missed", "", "", "p99 <= 250 ms", "pass" if live_p99 <= 250 and missing == 0 else "FAIL"),
    ]
    table = [f"juice-serve benchmark ({time.strftime('%Y-%m-%d %H:%M')}; {machine})", "",
             "| row | juice-serve | reference | ratio | goal | result |", "|---|---|---|---|---|---|"]
    table += ["| " + " | ".join(row) + " |" for row in rows]
    text = "\n".join(table) + "\n"
    print(text)
    (ROOT / ".build").mkdir(exist_ok=True)
    (ROOT / ".build" / "serve-bench.md").write_text(text)


if __name__ == "__main__":
    main()
