#!/usr/bin/env python3
"""The language server's speed, as an editor sees it: `bench.py --target lsp` runs this.

    python3 Benchmarks/lsp_bench.py --lint BINARY --book DIR --file RELPATH [--edits N] [--runs N]

Starts `juice-lint lsp` on a workspace folder, opens one file and times:
- start: from starting the process to the first publishDiagnostics of the
  opened file (initialize, discovery, reading and parsing every file, the
  link, and the answer), against the batch lint of the same folder;
- edits: N one-character edits of the open file, each timed from sending
  didChange to the publishDiagnostics for that version. The edits alternate
  between misspelling an ingredient and restoring it, so each one changes the
  file's diagnostics, as typing does.
The server's debug log counts the files parsed: after N edits it must have
parsed the opened file N more times and no other file.

Prints one JSON object: start samples, the batch lint samples, edit latencies,
and whether only the edited file was parsed again.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time


class Server:
    """A juice-lint lsp process, with a thread reading its messages."""

    def __init__(self, lint):
        self.started = time.perf_counter()
        self.process = subprocess.Popen([lint, "lsp", "--log-level", "debug"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.published = {}
        self.condition = threading.Condition()
        self.responses = {}
        self.stderr = []
        threading.Thread(target=self.read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        self.next_id = 0

    def read(self):
        stream = self.process.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    return
                header += byte
            length = int(re.search(rb"Content-Length: *(\d+)", header, re.I).group(1))
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            with self.condition:
                if message.get("method") == "textDocument/publishDiagnostics":
                    params = message["params"]
                    self.published.setdefault(params["uri"], []).append((now, params.get("version"), params["diagnostics"]))
                elif "id" in message and "method" not in message:
                    self.responses[message["id"]] = message
                self.condition.notify_all()

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        with self.condition:
            self.condition.wait_for(lambda: self.next_id in self.responses, timeout=120)
            return self.responses[self.next_id]

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for_version(self, uri, version):
        with self.condition:
            ok = self.condition.wait_for(
                lambda: any(v == version for _, v, _ in self.published.get(uri, [])), timeout=120)
            if not ok:
                raise TimeoutError("no diagnostics for %s version %s" % (uri, version))
            return next(t for t, v, _ in self.published[uri] if v == version)

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.process.wait(timeout=10)
        return self.process.returncode


def uri_of(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


def typo_edits(text):
    """The position of a one-character edit that misspells an ingredient
    (the first character after `recipe: { `, or of a block recipe's first
    ingredient), and the character that restores it."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        flow = line.find("recipe: { ")
        if flow >= 0:
            column = flow + len("recipe: { ")
            return number, len(line[:column].encode("utf-16-le")) // 2, line[column]
        if line.strip() == "recipe:" and number + 1 < len(lines):
            following = lines[number + 1]
            column = len(following) - len(following.lstrip(" "))
            return number + 1, len(following[:column].encode("utf-16-le")) // 2, following[column]
    raise SystemExit("no recipe to misspell in the opened file")


def session(lint, book, relpath, edits):
    path = os.path.join(book, relpath)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    server = Server(lint)
    server.request("initialize", {"processId": os.getpid(), "rootUri": uri_of(book), "capabilities": {}})
    server.notify("initialized", {})
    uri = uri_of(path)
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    opened = server.wait_for_version(uri, 1)
    start = opened - server.started
    line, character, original = typo_edits(text)
    latencies = []
    for index in range(edits):
        version = index + 2
        replacement = "Q" if index % 2 == 0 else original
        sent = time.perf_counter()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": character},
                                          "end": {"line": line, "character": character + 1}}, "text": replacement}]})
        latencies.append(server.wait_for_version(uri, version) - sent)
    status = server.stop()
    log = b"".join(server.stderr).decode("utf-8", "replace")
    parsed = [int(m) for m in re.findall(r"files parsed so far: (\d+)", log)]
    # The open replaces the disk text (1), then each edit parses that file once.
    only_edited = bool(parsed) and parsed[-1] == 1 + edits
    return {"start": start, "latencies": latencies, "only_edited_parsed": only_edited,
            "parsed": parsed[-1] if parsed else None, "exit": status}


def batch_lint(lint, book):
    started = time.perf_counter()
    subprocess.run([lint, "--format", "json", book], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lint", required=True)
    parser.add_argument("--book", required=True, help="the workspace folder")
    parser.add_argument("--file", required=True, help="the file to open and edit, relative to --book")
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5, help="sessions for the start time (edits in the first)")
    cfg = parser.parse_args()
    result = {"starts": [], "lints": [], "latencies": []}
    batch_lint(cfg.lint, cfg.book)  # warm the file cache for both
    for run in range(cfg.runs):
        result["lints"].append(batch_lint(cfg.lint, cfg.book))
        one = session(cfg.lint, cfg.book, cfg.file, cfg.edits if run == 0 else 0)
        result["starts"].append(one["start"])
        if run == 0:
            result["latencies"] = one["latencies"]
            result["only_edited_parsed"] = one["only_edited_parsed"]
            result["parsed"] = one["parsed"]
            result["exit"] = one["exit"]
    json.dump(result, sys.stdout)
    print()


if __name__ == "__main__":
    main()
