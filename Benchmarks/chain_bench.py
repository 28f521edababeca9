#!/usr/bin/env python3
"""The chain on PostgreSQL, side by side with pgbench on the same server (issue 39).

    python3 Benchmarks/chain_bench.py --serve-bin Server/.build/release/juice-serve [--seconds 10] [--runs 3]

One private PostgreSQL server (Tests/Server/postgres_server.py: a fresh
initdb, fsync and synchronous_commit on, a Unix socket) holds both sides:

1. The chain: one database, 4 shops (s1..s4), one release juice-serve
   process per shop and a manager each; every fruit is stocked far beyond
   what the run can use. One wrk per shop (-t 1 -c 25: 25 tills, 100
   connections in all) posts banana-juice orders, each with a new UUID-shaped
   id, for --seconds. A durable answer is 201 (committed) or 409 (refused);
   any other status, and any socket error or timeout, is an error: it is
   reported and the script exits 1. Orders/s is the durable answers of the
   4 shops over the run's length, summed. p99 is that of every order of
   the run: the 4 shops' wrk latency distributions merged (each as 370
   quantiles, weighted by its number of answers); the worst single shop's
   p99 is printed beside it.
2. The limit: pgbench's built-in TPC-B-like script on a database of its own
   on the same server (pgbench -i -s 4, then -c 100 -j 2 -T --seconds over
   the same socket); its tps without initial connection time, and its p99
   from the per-transaction log (-l).

The two alternate, --runs times, each after --pause seconds of rest; the
figures are medians. The goal is at
least 0.3x pgbench's tps. A ratio under the goal is a warning, not a
failure; an order that errored is a failure.

Everything shares the machine: PostgreSQL, the 4 servers, the 4 wrk and
pgbench run on the same cores, which is the honest setting for a one-box
chain, and the CPU each took is printed with the figures (from /proc).

Prints a Markdown block for docs/benchmarks.md and writes it to
.build/chain-bench.md; --json PATH writes the raw figures too.
Needs wrk (`make bench-setup`) and PostgreSQL (`apt-get install postgresql`).
"""
import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOPS = ["s1", "s2", "s3", "s4"]
TILLS = 25
FRUITS = ["strawberry", "banana", "pineapple", "kiwi", "mango"]
GOAL = 0.3
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# Each wrk thread numbers its requests; the id is BENCH_PREFIX (8-4 hex, new
# for every run and shop) + the thread + the counter: 8-4-4-4-12 hex, the
# shape of a UUID, never repeated in the chain. Statuses are counted in
# response(); done() prints them and the latency distribution as quantiles
# (in microseconds, from wrk's exact histogram: every 0.5% to 90%, every 0.1%
# to 99%, then every 0.01%), so the shops can be merged, each quantile
# weighted by its share of the shop's answers. (Debian's wrk 4.1.0 does not
# give the histogram's buckets themselves to Lua.)
WRK_SCRIPT = r'''
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
function init(args)
  prefix = os.getenv("BENCH_PREFIX")
  counter = 0
  created = 0
  refused = 0
  other = 0
  first_other = ""
  wrk.headers["Cookie"] = os.getenv("BENCH_COOKIE")
  wrk.headers["X-CSRF-Token"] = os.getenv("BENCH_CSRF")
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  counter = counter + 1
  local id = string.format("%s-%04x-%012x", prefix, tid, counter)
  return wrk.format("POST", "/api/orders", nil, '{"id":"' .. id .. '","item":"banana-juice","quantity":1}')
end
function response(status, headers, body)
  if status == 201 then
    created = created + 1
  elseif status == 409 then
    refused = refused + 1
  else
    other = other + 1
    if first_other == "" then first_other = status .. " " .. string.sub(body or "", 1, 300):gsub("%s+", " ") end
  end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    io.write(string.format("COUNTS %d %d %d\n", t:get("created"), t:get("refused"), t:get("other")))
    local first = t:get("first_other")
    if first ~= "" then io.write("FIRST_OTHER " .. first .. "\n") end
  end
  local e = summary.errors
  io.write(string.format("SUMMARY %d %d %d %d %d %d %d %d\n", summary.duration, summary.requests,
    e.connect, e.read, e.write, e.status, e.timeout, latency.max))
  local p = 0
  while p < 100 - 1e-9 do
    p = p + (p < 90 - 1e-9 and 0.5 or p < 99 - 1e-9 and 0.1 or 0.01)
    io.write(string.format("Q %.2f %d\n", p, latency:percentile(math.min(p, 100))))
  end
end
'''


def load_private_postgres():
    """Tests/Server/postgres_server.py's PrivatePostgres, imported by path."""
    path = ROOT / "Tests" / "Server" / "postgres_server.py"
    spec = importlib.util.spec_from_file_location("juice_postgres_server", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PrivatePostgres


# The HTTP helper of juice-serve's own benchmark (this script's folder is on sys.path).
from serve_bench import http  # noqa: E402


def percentile(histogram, fraction):
    """The smallest value with at least `fraction` of the samples at or below it (histogram: [(value, count)] sorted)."""
    total = sum(count for _, count in histogram)
    if total == 0:
        return float("nan")
    target = fraction * total
    seen = 0
    for value, count in histogram:
        seen += count
        if seen >= target * (1 - 1e-9):
            return value
    return histogram[-1][0]


# CPU accounting: per process from /proc/PID/stat (utime + stime of all its
# threads), over a window inside each measurement (from 1 s after it starts
# to 0.5 s before it ends), when wrk or pgbench, the servers and the
# PostgreSQL backends are all running; the system's idle and iowait from
# /proc/stat over the same window.

def process_times():
    times = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                text = handle.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        # (pid, start time): a pid used again is another process. The
        # name alone is not the process: exec changes it, and a kernel
        # worker's names the work it is doing.
        times[(int(entry), fields[19])] = (comm, (int(fields[11]) + int(fields[12])) / CLOCK_TICKS)
    return times


def system_times():
    with open("/proc/stat") as handle:
        fields = [int(x) for x in handle.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal
    return {"busy": sum(fields[0:3]) + sum(fields[5:8]), "idle": fields[3], "iowait": fields[4]}


KINDS = ["postgres", "juice-serve", "wrk", "pgbench"]


def cpu_window(started, seconds):
    """The CPU seconds each kind of process took in the window of a
    measurement that began at `started` (time.monotonic()) and lasts `seconds`."""
    begin, end = started + min(1.0, 0.2 * seconds), started + seconds - min(0.5, 0.1 * seconds)
    time.sleep(max(0.0, begin - time.monotonic()))
    before, system_before, wall_before = process_times(), system_times(), time.monotonic()
    time.sleep(max(0.0, end - time.monotonic()))
    after, system_after, wall = process_times(), system_times(), time.monotonic() - wall_before
    kinds = {kind: 0.0 for kind in KINDS + ["other"]}
    others = {}
    for key, (comm, seconds_used) in after.items():
        old = before.get(key)
        used = max(0.0, seconds_used - (old[1] if old else 0.0))
        # comm is cut at 15 characters: juice-serve-debug reads juice-serve-deb.
        kind = "juice-serve" if comm.startswith("juice-serve") else comm if comm in kinds else "other"
        if kind == "other" and comm.startswith("kworker/"):
            comm = "kworker"
        kinds[kind] += used
        if kind == "other" and used > 0:
            others[comm] = others.get(comm, 0.0) + used
    ticks = {k: (system_after[k] - system_before[k]) / CLOCK_TICKS for k in system_after}
    # What started and ended inside the window (a compiler, a cron job).
    kinds["exited"] = max(0.0, ticks["busy"] - sum(kinds.values()))
    return {"wall": wall, "capacity": wall * (os.cpu_count() or 1), "seconds": kinds, "idle": ticks["idle"], "iowait": ticks["iowait"],
            "others": dict(sorted(others.items(), key=lambda kv: -kv[1])[:5])}


def cpu_shares(phase):
    """'postgres 41%, juice-serve 30%, ...' of all cores over the phase."""
    share = lambda seconds: f"{100 * seconds / phase['capacity']:.0f}%"
    parts = []
    for name, seconds in sorted(phase["seconds"].items(), key=lambda kv: -kv[1]):
        if seconds > 0.005 * phase["capacity"]:
            top = [f"{comm} {share(used)}" for comm, used in phase["others"].items() if used > 0.005 * phase["capacity"]][:3]
            parts.append(f"{name} {share(seconds)}" + (f" ({', '.join(top)})" if name == "other" and top else ""))
    parts.append(f"idle {100 * phase['idle'] / phase['capacity']:.0f}% (iowait {100 * phase['iowait'] / phase['capacity']:.0f}%)")
    return ", ".join(parts)


class Bench:
    def __init__(self, args):
        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="chain-bench-"))
        self.pg = None
        self.servers = {}  # shop -> (process, url, log path)
        self.sessions = {}  # shop -> (cookie, csrf)
        self.children = []  # wrk or pgbench while they run
        self.load_at_start = os.getloadavg()[0]

    # -- setting up --------------------------------------------------------

    def start_postgres(self):
        PrivatePostgres = load_private_postgres()
        self.pg = PrivatePostgres()
        self.pg.start()
        self.chain_db = self.pg.create_database("chain")
        self.pgbench_db = self.pg.create_database("pgbench")
        self.version = self.pg.psql("SHOW server_version")

    def serve(self, *arguments, **options):
        return subprocess.run([self.args.serve_bin, *arguments], text=True, capture_output=True, **options)

    def start_shops(self):
        url = self.pg.url(self.chain_db)
        for index, shop in enumerate(SHOPS, 1):
            folder = self.folder / shop
            shutil.copytree(ROOT / "recipes", folder / "recipes")
            added = self.serve("users", "add", f"manager{index}", "--role", "manager", "--database", url, "--shop", shop, input=f"bench-password-{index}\n")
            if added.returncode != 0:
                raise SystemExit(f"juice-serve users add failed for {shop}: {added.stderr.strip()}")
        for index, shop in enumerate(SHOPS, 1):
            folder = self.folder / shop
            log = folder / "server.log"
            process = subprocess.Popen([self.args.serve_bin, "--database", url, "--shop", shop, "--recipes", str(folder / "recipes"), "--port", "0"],
                                       stdout=subprocess.PIPE, stderr=open(log, "w"), text=True, cwd=folder)
            self.servers[shop] = (process, None, log)
            address = None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = process.stdout.readline()
                if not line:
                    if process.poll() is not None:
                        raise SystemExit(f"juice-serve for {shop} exited {process.returncode}: {log.read_text()[-2000:]}")
                    continue
                match = re.search(r"at (http://[0-9.]+:\d+)", line)
                if match:
                    address = match.group(1)
                    break
            if not address:
                raise SystemExit(f"juice-serve for {shop} printed no address within 60 s")
            threading.Thread(target=lambda p=process: [None for _ in p.stdout], daemon=True).start()
            self.servers[shop] = (process, address, log)
            status, headers, body = http("POST", address + "/api/session", {"user": f"manager{index}", "password": f"bench-password-{index}"})
            if status != 200:
                raise SystemExit(f"sign-in at {shop} answered {status}: {body[:300]!r}")
            cookie, csrf = headers["Set-Cookie"].split(";")[0], json.loads(body)["csrf"]
            self.sessions[shop] = (cookie, csrf)
            for fruit in FRUITS:
                status, _, body = http("POST", address + "/api/stock", {"fruit": fruit, "set": 10**9}, {"Cookie": cookie, "X-CSRF-Token": csrf})
                if status != 201:
                    raise SystemExit(f"stock at {shop} answered {status}: {body[:300]!r}")

    def init_pgbench(self):
        result = subprocess.run([self.pgbench(), "-i", "-s", "4", "-q", *self.pg_connection(), self.pgbench_db], capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"pgbench -i failed: {result.stderr[-2000:]}")

    def pgbench(self):
        return os.path.join(self.pg.bin, "pgbench")

    def pg_connection(self):
        return ["-h", self.pg.socket_dir, "-p", str(self.pg.port), "-U", self.pg.user]

    # -- measuring ---------------------------------------------------------

    def chain_once(self, seconds):
        """One wrk per shop, all at once; returns the run's figures."""
        script = self.folder / "orders.lua"
        script.write_text(WRK_SCRIPT)
        started = time.monotonic()
        running = {}
        for shop in SHOPS:
            process, address, _ = self.servers[shop]
            cookie, csrf = self.sessions[shop]
            prefix = uuid.uuid4().hex
            env = {**os.environ, "BENCH_COOKIE": cookie, "BENCH_CSRF": csrf, "BENCH_PREFIX": f"{prefix[:8]}-{prefix[8:12]}"}
            wrk = subprocess.Popen(["wrk", "-t", "1", "-c", str(TILLS), "-d", f"{seconds}s", "--timeout", "30s", "--latency", "-s", str(script), address + "/api/orders"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            self.children.append(wrk)
            running[shop] = wrk
        cpu = cpu_window(started, seconds)
        outputs = {shop: wrk.communicate() for shop, wrk in running.items()}
        self.children.clear()
        shops = {}
        merged = {}
        for shop, (out, err) in outputs.items():
            if running[shop].returncode != 0:
                raise SystemExit(f"wrk for {shop} exited {running[shop].returncode}: {err}")
            created = refused = other = 0
            first_other = []
            quantiles = []
            for line in out.splitlines():
                if line.startswith("COUNTS "):
                    a, b, c = map(int, line.split()[1:])
                    created, refused, other = created + a, refused + b, other + c
                elif line.startswith("FIRST_OTHER "):
                    first_other.append(line[len("FIRST_OTHER "):])
                elif line.startswith("SUMMARY "):
                    duration, requests, connect, read, write, status, timeout, maximum = map(int, line.split()[1:])
                elif line.startswith("Q "):
                    point, value = line.split()[1:]
                    quantiles.append((float(point), int(value)))
            socket_errors = connect + read + write + timeout
            # Each quantile stands for the answers between it and the one before.
            histogram = {}
            previous = 0.0
            for point, value in quantiles:
                histogram[value] = histogram.get(value, 0.0) + (point - previous) / 100
                merged[value] = merged.get(value, 0.0) + (point - previous) / 100 * requests
                previous = point
            histogram = sorted(histogram.items())
            shops[shop] = {
                "created": created, "refused": refused, "other": other, "first_other": first_other,
                "socket_errors": {"connect": connect, "read": read, "write": write, "timeout": timeout},
                "duration": duration / 1e6, "requests": requests,
                "rate": (created + refused) / (duration / 1e6),
                "p50_ms": percentile(histogram, 0.50) / 1000, "p99_ms": percentile(histogram, 0.99) / 1000, "max_ms": maximum / 1000,
                "errors": other + socket_errors,
            }
        histogram = sorted(merged.items())
        return {
            "rate": sum(s["rate"] for s in shops.values()),
            "created": sum(s["created"] for s in shops.values()),
            "refused": sum(s["refused"] for s in shops.values()),
            "errors": sum(s["errors"] for s in shops.values()),
            "p50_ms": percentile(histogram, 0.50) / 1000,
            "p99_ms": percentile(histogram, 0.99) / 1000,
            "max_ms": max(s["max_ms"] for s in shops.values()),
            "worst_shop_p99_ms": max(s["p99_ms"] for s in shops.values()),
            "shops": shops, "cpu": cpu,
        }

    def pgbench_once(self, seconds):
        logs = self.folder / f"pgbench-log-{time.monotonic_ns()}"
        logs.mkdir()
        started = time.monotonic()
        process = subprocess.Popen([self.pgbench(), "-c", "100", "-j", "2", "-T", str(seconds), "-l", *self.pg_connection(), self.pgbench_db],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=logs)
        self.children.append(process)
        cpu = cpu_window(started, seconds)
        out, err = process.communicate()
        self.children.clear()
        if process.returncode != 0:
            raise SystemExit(f"pgbench exited {process.returncode}: {err[-2000:]}")
        tps = float(re.search(r"tps = ([\d.]+) \(without initial connection time\)", out).group(1))
        processed = int(re.search(r"number of transactions actually processed: (\d+)", out).group(1))
        failed = re.search(r"number of failed transactions: (\d+)", out)
        average = float(re.search(r"latency average = ([\d.]+) ms", out).group(1))
        latencies = []
        for log in logs.iterdir():
            with open(log) as handle:
                for line in handle:
                    fields = line.split()
                    if len(fields) >= 3 and fields[2].isdigit():
                        latencies.append(int(fields[2]))
        shutil.rmtree(logs, ignore_errors=True)
        latencies.sort()
        histogram = [(v, 1) for v in latencies]
        return {"tps": tps, "transactions": processed, "failed": int(failed.group(1)) if failed else 0,
                "latency_average_ms": average, "p50_ms": percentile(histogram, 0.50) / 1000, "p99_ms": percentile(histogram, 0.99) / 1000,
                "cpu": cpu}

    # -- tearing down ------------------------------------------------------

    def stop(self, show_logs=False):
        for child in self.children:
            if child.poll() is None:
                child.kill()
                child.wait()
        problems = []
        for shop, (process, _, log) in self.servers.items():
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                    problems.append(f"juice-serve for {shop} did not stop within 10 s of SIGTERM")
            if (show_logs or problems) and log.exists():
                print(f"--- the {shop} server's log (its end)\n{log.read_text()[-1500:]}", file=sys.stderr)
        if (show_logs or problems) and self.pg is not None:
            print(f"--- PostgreSQL's log (its end)\n{self.pg.log()}", file=sys.stderr)
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
        return problems


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as handle:
            kib = int(handle.readline().split()[1])
            memory = f", {kib / 2**20:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    uname = os.uname()
    return f"{uname.machine}, {os.cpu_count()} cores ({model}){memory}, {uname.sysname} {uname.release}"


def report(args, bench, runs, command):
    chain_rates = [r["chain"]["rate"] for r in runs]
    tps = [r["pgbench"]["tps"] for r in runs]
    ratios = [r["chain"]["rate"] / r["pgbench"]["tps"] for r in runs]
    median_ratio = statistics.median(ratios)
    median_p99 = statistics.median(r["chain"]["p99_ms"] for r in runs)
    lines = [
        f"juice-serve chain benchmark ({time.strftime('%Y-%m-%d %H:%M')}; {machine()}; PostgreSQL {bench.version}; "
        f"load average {bench.load_at_start:.2f} at the start)",
        "",
        f"`{command}`: {len(SHOPS)} shops x {TILLS} tills (one wrk -t 1 -c {TILLS} each), banana-juice orders for {args.seconds} s, "
        f"alternated with `pgbench -c 100 -j 2 -T {args.seconds}` (TPC-B-like, -i -s 4) on the same PostgreSQL; {args.runs} run{'s' if args.runs != 1 else ''}, medians. "
        f"p99: every order of the run, the 4 shops' wrk distributions merged (the worst single shop's in brackets).",
        "",
        "| run | juice-serve orders/s | 201 / 409 / errors | order p50, p99 (worst shop), max | pgbench tps | pgbench p99 | ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    for index, r in enumerate(runs, 1):
        c, p = r["chain"], r["pgbench"]
        lines.append(f"| {index} | {c['rate']:,.0f} | {c['created']:,} / {c['refused']:,} / {c['errors']:,} | "
                     f"{c['p50_ms']:.1f}, {c['p99_ms']:.1f} ({c['worst_shop_p99_ms']:.1f}), {c['max_ms']:.0f} ms | "
                     f"{p['tps']:,.0f} | {p['p99_ms']:.1f} ms | {c['rate'] / p['tps']:.2f} |")
    lines.append(f"| **median** | **{statistics.median(chain_rates):,.0f}** | | **p99 {median_p99:.1f} ms** | **{statistics.median(tps):,.0f}** | "
                 f"{statistics.median(r['pgbench']['p99_ms'] for r in runs):.1f} ms | **{median_ratio:.2f}** (median of the runs'; goal ≥ {GOAL}) |")
    lines += ["", "Per shop, orders/s (p99 ms):", ""]
    for index, r in enumerate(runs, 1):
        lines.append(f"- run {index}: " + ", ".join(f"{shop} {s['rate']:,.0f} ({s['p99_ms']:.1f})" for shop, s in r["chain"]["shops"].items()))
    lines += ["", "CPU, share of all cores over each measurement (from /proc):", ""]
    for index, r in enumerate(runs, 1):
        lines.append(f"- run {index}, chain: {cpu_shares(r['chain']['cpu'])}; pgbench: {cpu_shares(r['pgbench']['cpu'])}")
    verdict = "pass" if median_ratio >= GOAL else "BELOW THE GOAL"
    lines += ["", f"Result: {statistics.median(chain_rates):,.0f} durable orders/s = {median_ratio:.3f}x pgbench's "
              f"{statistics.median(tps):,.0f} tps (goal ≥ {GOAL}x): {verdict}; order p99 {median_p99:.1f} ms."]
    return "\n".join(lines) + "\n", median_ratio


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve-bin", default=str(ROOT / "Server" / ".build" / "release" / "juice-serve"), help="a release juice-serve (default: %(default)s)")
    parser.add_argument("--seconds", type=int, default=10, help="length of each measurement (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="alternated runs of both measurements; medians are reported (default: %(default)s)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of orders before the first run, not counted (default: %(default)s)")
    parser.add_argument("--pause", type=float, default=6, help="seconds of rest before each measurement, so it starts on a quiet machine (default: %(default)s)")
    parser.add_argument("--json", metavar="PATH", help="also write the raw figures as JSON to PATH")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: `apt-get install wrk` (make bench-setup installs it)")
    if not os.access(args.serve_bin, os.X_OK):
        raise SystemExit(f"no juice-serve at {args.serve_bin}: build it with `swift build --package-path Server -c release --product juice-serve`")
    if args.seconds < 1 or args.runs < 1:
        raise SystemExit("--seconds and --runs are at least 1")

    # SIGTERM as Ctrl-C, so the finally below stops the servers and PostgreSQL.
    def on_sigterm(signum, frame):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, on_sigterm)
    command = "python3 Benchmarks/chain_bench.py " + " ".join(sys.argv[1:])
    bench = Bench(args)
    runs = []
    failed = []
    finished = interrupted = False
    try:
        bench.start_postgres()
        bench.start_shops()
        bench.init_pgbench()
        if args.warmup > 0:
            warm = bench.chain_once(args.warmup)
            if warm["errors"]:
                failed.append(f"warm-up: {warm['errors']} orders errored")
        for index in range(args.runs):
            # A rest before each measurement: the 4 servers keep about 0.15
            # of a core busy for 5 s after a load ends (most likely the timers
            # of their calls' 5 s deadlines), which would fall on pgbench.
            time.sleep(args.pause)
            chain = bench.chain_once(args.seconds)
            print(f"run {index + 1}: chain {chain['rate']:,.0f} orders/s, p99 {chain['p99_ms']:.1f} ms, {chain['errors']} errors", file=sys.stderr, flush=True)
            time.sleep(args.pause)
            pgbench = bench.pgbench_once(args.seconds)
            print(f"run {index + 1}: pgbench {pgbench['tps']:,.0f} tps, p99 {pgbench['p99_ms']:.1f} ms", file=sys.stderr, flush=True)
            runs.append({"chain": chain, "pgbench": pgbench})
            for shop, s in chain["shops"].items():
                if s["errors"]:
                    failed.append(f"run {index + 1}, {shop}: {s['other']} answers other than 201/409 {s['first_other'][:1]}, socket errors {s['socket_errors']}")
            if pgbench["failed"]:
                failed.append(f"run {index + 1}: pgbench reported {pgbench['failed']} failed transactions")
        finished = True
    except KeyboardInterrupt:
        interrupted = True
        failed.append("interrupted")
    finally:
        # The servers' and PostgreSQL's logs when something went wrong (not on Ctrl-C).
        failed += bench.stop(show_logs=not interrupted and (not finished or bool(failed)))

    if runs:
        text, ratio = report(args, bench, runs, command)
        print(text)
        (ROOT / ".build").mkdir(exist_ok=True)
        (ROOT / ".build" / "chain-bench.md").write_text(text)
        if args.json:
            Path(args.json).write_text(json.dumps({"command": command, "machine": machine(), "postgresql": bench.version, "runs": runs}, indent=2, default=str))
        if ratio < GOAL:
            print(f"warning: juice-serve's orders/s is {ratio:.2f}x pgbench's tps, under the goal of {GOAL}x", file=sys.stderr)
    for problem in failed:
        print(f"error: {problem}", file=sys.stderr)
    sys.exit(1 if failed or not runs else 0)


if __name__ == "__main__":
    main()
