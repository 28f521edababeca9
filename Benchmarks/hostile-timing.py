#!/usr/bin/env python3
"""Runs every case of the hostile-input corpus on built binaries and times it.

    python3 Benchmarks/hostile-timing.py [--bin .build/release] [--limit 1.0]

Each case in Tests/Fixtures/hostile/cases.json is run once as the end-to-end
test runs it; the outcome (exit code, rule@line or skip@line list) is checked
and the wall time printed. Exits 1 if any outcome differs or any case takes
--limit seconds or more. `make hostile-timing` runs it on the release build.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "Fixtures", "hostile")


def command(case, bin_dir):
    if case["tool"] == "lint":
        return [os.path.join(bin_dir, "juice-lint"), "--format", "json", "--max-diagnostics", "0"] + case["args"]
    return [os.path.join(bin_dir, "juice-run"), "--recipes", os.path.join(ROOT, "recipes"), "--format", "json",
            "--max-diagnostics", "0"] + case["args"]


def outcome(case, stdout, stderr):
    if case["tool"] == "lint":
        try:
            found = ["%s@%d" % (d["rule"], d["line"]) for d in json.loads(stdout)["diagnostics"]]
        except ValueError:
            found = []
    else:
        path = re.escape(case["args"][0])
        found = ["skip@" + m for m in re.findall(r"^%s:(\d+): error:" % path, stderr, re.M)]
    return sorted(found)


def run_case(case, bin_dir):
    cwd, prefix, cleanup = CORPUS, [], None
    if case.get("unreadable"):
        # Root reads anything, so the file is made unreadable and read as 'nobody'.
        cleanup = tempfile.mkdtemp()
        os.chmod(cleanup, 0o755)
        target = os.path.join(cleanup, case["args"][0])
        os.makedirs(os.path.dirname(target))
        for d in (cleanup, os.path.dirname(os.path.dirname(target)), os.path.dirname(target)):
            os.chmod(d, 0o755)
        shutil.copy(os.path.join(CORPUS, case["args"][0]), target)
        os.chmod(target, 0)
        cwd = cleanup
        if os.geteuid() == 0:
            prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    started = time.monotonic()
    result = subprocess.run(prefix + command(case, bin_dir), cwd=cwd, capture_output=True)
    seconds = time.monotonic() - started
    if cleanup:
        shutil.rmtree(cleanup)
    return result, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--only", help="run the cases whose name contains this")
    options = parser.parse_args()
    cases = json.load(open(os.path.join(CORPUS, "cases.json")))
    failures, slowest = 0, (0.0, "")
    for case in cases:
        if options.only and options.only not in case["name"]:
            continue
        result, seconds = run_case(case, os.path.abspath(options.bin))
        stdout = result.stdout.decode("utf-8", "replace")
        stderr = result.stderr.decode("utf-8", "replace")
        found = outcome(case, stdout, stderr)
        expected = sorted(e for e in case["expect"] if e != "clean")
        problems = []
        if result.returncode != case["exit"]:
            problems.append("exit %d, expected %d" % (result.returncode, case["exit"]))
        if found != expected:
            problems.append("found %s, expected %s" % (found[:8], expected[:8]))
        if "stderr" in case and case["stderr"] not in stderr:
            problems.append("stderr lacks %r: %r" % (case["stderr"], stderr[:300]))
        if seconds >= options.limit:
            problems.append("took %.3f s" % seconds)
        slowest = max(slowest, (seconds, case["name"]))
        status = "FAIL " + "; ".join(problems) if problems else "ok"
        failures += bool(problems)
        print("%-34s %7.3f s  %s" % (case["name"], seconds, status))
    print("%d cases, %d failed; slowest %s at %.3f s" % (len(cases), failures, slowest[1], slowest[0]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
