"""Shared pieces of the language server tests: the binary, the canonical
book, positions in UTF-16 or UTF-8, applying edits the way an editor does,
the command line's own diagnostics as the reference, and a raw client that
frames messages by hand for the protocol-level cases."""

from __future__ import annotations

import json
import os
import pathlib
import queue
import shutil
import subprocess
import threading
import time

from lsprotocol import types

REPO = pathlib.Path(__file__).resolve().parents[2]
# The binary under test; JUICE_LINT lets a run point at another build.
BINARY = pathlib.Path(os.environ.get("JUICE_LINT", REPO / ".build" / "debug" / "juice-lint")).resolve()
CANONICAL = REPO / "recipes"
BOOK_FILES = ("fruits.yaml", "menu.yaml")

SEVERITY = {"error": 1, "warning": 2, "info": 3}


def copy_book(root: pathlib.Path) -> pathlib.Path:
    """Copies the canonical book to root/recipes and returns root."""
    (root / "recipes").mkdir(parents=True)
    for name in BOOK_FILES:
        shutil.copyfile(CANONICAL / name, root / "recipes" / name)
    return root


def canonical_text(name: str) -> str:
    return (CANONICAL / name).read_bytes().decode("utf-8")


# MARK: Positions


def units(text: str, encoding: str) -> int:
    """The length of text in LSP position units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text.encode("utf-16-le")) // 2


def position_at(text: str, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
    """The LSP (line, character) of a string offset: lines end at \\n (a
    \\r before it belongs to the line it ends, and is never before the
    position in these tests), character counts the encoding's code units."""
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return line, units(text[start:offset], encoding)


def find(text: str, needle: str, nth: int = 0, after: str | None = None) -> int:
    """The string offset of the nth occurrence of needle (after the first
    occurrence of `after`, when given); fails loudly when missing."""
    start = 0
    if after is not None:
        start = text.index(after) + len(after)
    offset = text.index(needle, start)
    for _ in range(nth):
        offset = text.index(needle, offset + 1)
    return offset


def span(text: str, needle: str, nth: int = 0, after: str | None = None, part: str | None = None,
         encoding: str = "utf-16") -> dict:
    """The LSP range of the nth occurrence of needle (or of `part`, its
    first occurrence within that needle), as plain dicts."""
    offset = find(text, needle, nth, after)
    length = len(needle)
    if part is not None:
        offset += needle.index(part)
        length = len(part)
    (sl, sc), (el, ec) = position_at(text, offset, encoding), position_at(text, offset + length, encoding)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def offset_of(text: str, line: int, character: int, encoding: str = "utf-16") -> int:
    """The string offset of an LSP position; past the end of a line or of
    the text is the end, as the specification reads it."""
    lines = text.splitlines(keepends=True) or [""]
    if line >= len(lines):
        return len(text)
    start = sum(len(l) for l in lines[:line])
    body = lines[line].rstrip("\r\n")
    count = 0
    for index, ch in enumerate(body):
        if count >= character:
            return start + index
        count += units(ch, encoding)
    return start + len(body)


def plain_range(r) -> dict:
    """An lsprotocol Range (or a dict) as plain dicts, for comparison."""
    if isinstance(r, dict):
        return r
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def apply_edits(text: str, edits, encoding: str = "utf-16") -> str:
    """Applies a TextEdit[] as LSP defines it: every range refers to the
    original text, and edits do not overlap."""
    located = []
    for edit in edits:
        r = plain_range(edit.range)
        start = offset_of(text, r["start"]["line"], r["start"]["character"], encoding)
        end = offset_of(text, r["end"]["line"], r["end"]["character"], encoding)
        assert start <= end, f"an edit with its end before its start: {r}"
        located.append((start, end, edit.new_text))
    located.sort()
    for (_, end, _), (start, _, _) in zip(located, located[1:]):
        assert end <= start, f"overlapping edits: {located}"
    for start, end, new_text in reversed(located):
        text = text[:start] + new_text + text[end:]
    return text


# MARK: Results


def workspace_edits(edit: types.WorkspaceEdit) -> dict[str, list]:
    """A WorkspaceEdit's text edits per URI, from `changes` or from
    `documentChanges` (which may then hold only text document edits)."""
    assert edit is not None, "no WorkspaceEdit"
    result: dict[str, list] = {}
    if edit.document_changes is not None:
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit), f"not a text edit: {change}"
            result.setdefault(change.text_document.uri, []).extend(change.edits)
    for uri, edits in (edit.changes or {}).items():
        result.setdefault(uri, []).extend(edits)
    return result


def codes(diagnostics, code: str) -> list:
    return [d for d in diagnostics if d.code == code]


# MARK: The command line as the reference


def cli_diagnostics(texts: dict[str, str], tmp: pathlib.Path) -> dict[str, list[dict]]:
    """What `juice-lint --format json` reports for a book of these texts
    (file name -> text), per file name, as the LSP diagnostics the
    specification says the server publishes: same range (converted from
    1-based Unicode-scalar columns to UTF-16), severity, rule id as code,
    source "juice-lint", message with the help line, notes as
    relatedInformation (compared by start only: a note has no end)."""
    (tmp / "recipes").mkdir(parents=True)
    for name, text in texts.items():
        (tmp / "recipes" / name).write_bytes(text.encode("utf-8"))
    run = subprocess.run(
        [str(BINARY), "--format", "json", "--max-diagnostics", "0", "recipes"],
        cwd=tmp, capture_output=True, timeout=30,
    )
    assert run.returncode in (0, 1), run.stderr.decode()
    report = json.loads(run.stdout)
    result: dict[str, list[dict]] = {name: [] for name in texts}

    def lsp_position(name: str, line: int, column: int) -> dict:
        lines = texts[name].split("\n")
        body = lines[line - 1] if line - 1 < len(lines) else ""
        return {"line": line - 1, "character": units(body[: column - 1], "utf-16")}

    for d in report["diagnostics"]:
        name = pathlib.PurePath(d["file"]).name
        result[name].append({
            "range": {
                "start": lsp_position(name, d["line"], d["column"]),
                "end": lsp_position(name, d["endLine"], d["endColumn"]),
            },
            "severity": SEVERITY[d["severity"]],
            "code": d["rule"],
            "source": "juice-lint",
            "message": d["message"],
            "help": d.get("help"),
            "notes": [
                (pathlib.PurePath(n["file"]).name, lsp_position(pathlib.PurePath(n["file"]).name, n["line"], n["column"]), n["message"])
                for n in d.get("notes", [])
            ],
        })
    return result


def assert_same_diagnostics(published, expected: list[dict]):
    """Published lsprotocol diagnostics equal the command line's, in any
    order: range, severity, code, source exact; the message is the CLI's
    message with its help line (`help: ...`) at the end; each note is a
    relatedInformation at the note's file and start with its message."""

    def key(d):
        return (d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"])

    got = []
    for d in published:
        got.append({
            "range": plain_range(d.range),
            "severity": int(d.severity) if d.severity is not None else None,
            "code": d.code,
            "source": d.source,
            "message": d.message,
            "related": [
                (pathlib.PurePath(r.location.uri).name, plain_range(r.location.range)["start"], r.message)
                for r in (d.related_information or [])
            ],
        })
    assert len(got) == len(expected), f"published {got}\nexpected {expected}"
    for g, e in zip(sorted(got, key=key), sorted(expected, key=key)):
        assert g["range"] == e["range"], (g, e)
        assert g["severity"] == e["severity"], (g, e)
        assert g["code"] == e["code"], (g, e)
        assert g["source"] == "juice-lint", g
        assert g["message"].startswith(e["message"]), (g, e)
        if e["help"]:
            assert g["message"].endswith("help: " + e["help"]), (g, e)
        else:
            assert g["message"] == e["message"], (g, e)
        assert sorted(g["related"]) == sorted(e["notes"]), (g, e)


# MARK: A raw client


class RawServer:
    """The server over its real stdio, with messages framed by hand, so the
    protocol-level cases (errors before initialize, bad JSON, exit codes,
    end of input) are seen exactly as they go over the wire. Every byte of
    standard output must be a well-framed message."""

    def __init__(self, cwd: pathlib.Path | None = None, args: tuple[str, ...] = ()):
        self.process = subprocess.Popen(
            [str(BINARY), "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd,
        )
        self.messages: queue.Queue = queue.Queue()
        self.framing_errors: list[str] = []
        self.notifications: list[dict] = []
        self.stderr = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._errors = threading.Thread(target=self._read_stderr, daemon=True)
        self._errors.start()

    def _read_stderr(self):
        self.stderr = self.process.stderr.read()

    def _read(self):
        out = self.process.stdout
        while True:
            headers = {}
            line = out.readline()
            if not line:
                self.messages.put(None)
                return
            while line not in (b"\r\n",):
                if not line.endswith(b"\r\n") or b":" not in line:
                    self.framing_errors.append(f"not a header line: {line[:200]!r}")
                    self.messages.put(None)
                    return
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
                line = out.readline()
            if "content-length" not in headers:
                self.framing_errors.append(f"a header block without Content-Length: {headers}")
                self.messages.put(None)
                return
            body = out.read(int(headers["content-length"]))
            try:
                self.messages.put(json.loads(body))
            except ValueError as error:
                self.framing_errors.append(f"a body that is not JSON ({error}): {body[:200]!r}")
                self.messages.put(None)
                return

    def send_bytes(self, data: bytes):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    @staticmethod
    def frame(body: bytes | str | dict) -> bytes:
        if isinstance(body, dict) or isinstance(body, list):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode("utf-8")
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send(self, body: bytes | str | dict):
        self.send_bytes(self.frame(body))

    def request(self, id, method: str, params=None) -> dict:
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.response(id)

    def notify(self, method: str, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def next(self, timeout: float = 10) -> dict:
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server within {timeout} s") from None
        assert not self.framing_errors, self.framing_errors
        assert message is not None, f"the server closed its output; stderr: {self.stderr[-2000:]!r}"
        return message

    def response(self, id, timeout: float = 10) -> dict:
        """The next response (notifications such as diagnostics are skipped
        and kept), which must answer `id`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(0.01, deadline - time.monotonic()))
            if "method" in message and "id" not in message:
                self.notifications.append(message)
                continue
            assert message.get("id") == id, f"expected the answer to {id!r}, got {message}"
            return message

    def diagnostics(self, uri: str, predicate=lambda diagnostics: True, timeout: float = 10) -> list:
        """The diagnostics of the first publication for uri (among those
        already skipped, then new ones) that satisfies predicate."""
        deadline = time.monotonic() + timeout
        index = 0
        while True:
            while index < len(self.notifications):
                message = self.notifications[index]
                index += 1
                params = message.get("params") or {}
                if message["method"] == "textDocument/publishDiagnostics" and params.get("uri") == uri \
                        and predicate(params["diagnostics"]):
                    return params["diagnostics"]
            message = self.next(max(0.01, deadline - time.monotonic()))
            assert "id" not in message, f"an unexpected response or request: {message}"
            self.notifications.append(message)

    def nothing_within(self, seconds: float) -> list:
        """The messages that arrive within `seconds` (for checking that
        something was dropped)."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                break
            if message is None:
                break
            got.append(message)
        return got

    def initialize(self, root: pathlib.Path | None = None, capabilities: dict | None = None, folders: bool = True) -> dict:
        """initialize with root as the workspace folder (and rootUri), or
        as rootUri only when folders is False; then initialized."""
        params = {"processId": os.getpid(), "capabilities": capabilities or {}, "rootUri": None}
        if root is not None:
            params["rootUri"] = root.as_uri()
            if folders:
                params["workspaceFolders"] = [{"uri": root.as_uri(), "name": root.name}]
        answer = self.request(0, "initialize", params)
        assert "result" in answer, answer
        self.notify("initialized", {})
        return answer["result"]

    def close_input(self):
        self.process.stdin.close()

    def wait(self, timeout: float = 5) -> int:
        return self.process.wait(timeout=timeout)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
