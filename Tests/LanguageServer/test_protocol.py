"""The protocol itself, over the real stdio with hand-framed messages:
lifecycle error codes, exit statuses, bad messages, big messages, the end of
input. Every byte the server writes must be a well-framed message."""

import json
import pathlib
import subprocess
import time

import pytest

from support import BINARY, RawServer, copy_book, find, position_at

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
PARSE_ERROR = -32700
REQUEST_CANCELLED = -32800


@pytest.fixture
def server():
    raw = RawServer()
    yield raw
    raw.kill()


@pytest.fixture
def book(tmp_path):
    return copy_book(tmp_path / "book")


def error_code(answer: dict) -> int:
    assert "error" in answer and "result" not in answer, answer
    return answer["error"]["code"]


def hover_params(uri: str, line: int = 0, character: int = 0) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_a_request_before_initialize_gets_server_not_initialized(server, tmp_path):
    loose = tmp_path / "loose.yaml"
    loose.write_text("fruits:\n  kiwi:\n")
    answer = server.request(1, "textDocument/hover", hover_params(loose.as_uri()))
    assert error_code(answer) == SERVER_NOT_INITIALIZED
    assert answer["id"] == 1 and answer["jsonrpc"] == "2.0"
    assert error_code(server.request("two", "shutdown")) == SERVER_NOT_INITIALIZED
    # A notification before initialize is dropped: the file it opens is
    # not open afterwards (and nothing was published for it).
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": loose.as_uri(), "languageId": "yaml", "version": 1, "text": "fruits:\n  kiwi:\n"}})
    assert server.nothing_within(0.3) == []
    server.initialize()
    assert error_code(server.request(3, "textDocument/hover", hover_params(loose.as_uri(), 1, 3))) == INVALID_PARAMS
    server.request(4, "shutdown")
    server.notify("exit")
    assert server.wait() == 0


def test_a_second_initialize_is_invalid_request(server):
    server.initialize()
    assert error_code(server.request(1, "initialize", {"processId": None, "capabilities": {}, "rootUri": None})) == INVALID_REQUEST


def test_after_shutdown_every_request_is_invalid_and_exit_gives_0(server, book):
    server.initialize(book)
    answer = server.request(1, "shutdown")
    assert answer["result"] is None and "error" not in answer
    uri = (book / "recipes" / "menu.yaml").as_uri()
    assert error_code(server.request(2, "textDocument/hover", hover_params(uri, 5, 3))) == INVALID_REQUEST
    assert error_code(server.request(3, "shutdown")) == INVALID_REQUEST
    assert error_code(server.request(4, "initialize", {"processId": None, "capabilities": {}, "rootUri": None})) == INVALID_REQUEST
    server.notify("exit")
    assert server.wait(1) == 0


def test_exit_without_shutdown_gives_1(server):
    server.initialize()
    server.notify("exit")
    assert server.wait(1) == 1


def test_exit_before_initialize_gives_1(server):
    server.notify("exit")
    assert server.wait(1) == 1


@pytest.mark.parametrize("shutdown, status", [(True, 0), (False, 1)])
def test_end_of_input_ends_the_server_within_a_second(server, book, shutdown, status):
    server.initialize(book)
    if shutdown:
        server.request(1, "shutdown")
    started = time.monotonic()
    server.close_input()
    assert server.wait(1) == status
    assert time.monotonic() - started < 1


def test_unknown_methods(server):
    server.initialize()
    assert error_code(server.request(1, "juice/brew", {})) == METHOD_NOT_FOUND
    assert error_code(server.request(2, "$/juice", {})) == METHOD_NOT_FOUND
    # Unknown notifications and $/ notifications are ignored, silently.
    server.notify("juice/spill", {"x": 1})
    server.notify("$/setTrace", {"value": "verbose"})
    server.notify("$/progress", {"token": 1, "value": {}})
    server.notify("$/cancelRequest", {"id": 999})
    assert server.nothing_within(0.3) == []
    assert server.request(3, "workspace/symbol", {"query": "zzz"})["result"] == []


def test_a_body_that_is_not_json_gets_parse_error_with_a_null_id(server):
    server.initialize()
    for body in (b'{"jsonrpc": "2.0", "id": 1, "method": ', b"\xff\xfe not utf-8", b"", b"[" * 1000 + b"]" * 1000):
        server.send(body)
        answer = server.next()
        assert answer.get("id", "missing") is None, answer
        assert error_code(answer) == PARSE_ERROR
    assert server.request(2, "workspace/symbol", {"query": ""})["result"] == []


def test_messages_that_are_not_json_rpc_requests(server):
    server.initialize()
    cases = [
        ({"jsonrpc": "2.0", "id": 5}, 5),                              # no method
        ({"jsonrpc": "1.0", "id": 6, "method": "shutdown"}, 6),         # not 2.0
        ({"jsonrpc": "2.0", "id": 7, "method": 42}, 7),                 # a method that is not a string
        ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}, None),  # an id that is not a number or string
        ([{"jsonrpc": "2.0", "id": 8, "method": "shutdown"}], None),   # a batch: not in LSP
        (42, None),
    ]
    for message, id in cases:
        server.send(json.dumps(message))
        answer = server.next()
        assert answer.get("id", "missing") == id, (message, answer)
        assert error_code(answer) == INVALID_REQUEST, (message, answer)
    # None of them shut the server down.
    assert server.request(9, "workspace/symbol", {"query": ""})["result"] == []


def test_wrong_parameter_types_get_invalid_params(server, book):
    server.initialize(book)
    uri = (book / "recipes" / "menu.yaml").as_uri()
    cases = [
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "5", "character": 3}}),
        ("textDocument/hover", {"textDocument": {"uri": 5}, "position": {"line": 5, "character": 3}}),
        ("textDocument/hover", {"textDocument": {"uri": uri}}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 3}}),
        ("textDocument/definition", [uri, 5, 3]),
        ("textDocument/references", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 3}, "context": 1}),
        ("textDocument/rename", {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 3}, "newName": 7}),
        ("workspace/symbol", {"query": ["kiwi"]}),
        ("textDocument/completion", None),
    ]
    for id, (method, params) in enumerate(cases, start=1):
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        server.send(message)
        assert error_code(server.response(id)) == INVALID_PARAMS, (method, params)
    # The server is still there.
    assert server.request(99, "textDocument/hover", hover_params(uri, 5, 3))["result"] is not None


def test_a_document_neither_open_nor_in_a_book_gets_invalid_params(server, book):
    server.initialize(book)
    nowhere = (book.parent / "elsewhere" / "menu.yaml").as_uri()
    assert error_code(server.request(1, "textDocument/hover", hover_params(nowhere))) == INVALID_PARAMS
    assert error_code(server.request(2, "textDocument/documentSymbol", {"textDocument": {"uri": nowhere}})) == INVALID_PARAMS


def test_a_position_past_the_end_is_read_as_the_end(server, book):
    server.initialize(book)
    uri = (book / "recipes" / "menu.yaml").as_uri()
    # Past the last line: the end of the file, on no id.
    answer = server.request(1, "textDocument/hover", hover_params(uri, 9999, 0))
    assert "error" not in answer and answer["result"] is None, answer
    # Past the end of `  strawberry-juice:` (line 5): after the colon, on no id.
    answer = server.request(2, "textDocument/definition", hover_params(uri, 5, 999))
    assert "error" not in answer and answer["result"] in (None, []), answer
    # Past the end of line 7 `    recipe: { strawberry: 16 }`: still no id.
    answer = server.request(3, "textDocument/references", {**hover_params(uri, 7, 10**6), "context": {"includeDeclaration": True}})
    assert "error" not in answer and answer["result"] in (None, []), answer


def test_a_10_mb_message(server, book):
    server.initialize(book)
    uri = (book / "recipes" / "menu.yaml").as_uri()
    started = time.monotonic()
    # A request of 10 MB (a member LSP does not define is ignored) is read
    # whole and answered; so is the request after it.
    answer = server.request(1, "textDocument/hover", {**hover_params(uri, 5, 3), "padding": "x" * (10 * 1024 * 1024)})
    assert "strawberry-juice" in json.dumps(answer["result"], ensure_ascii=False), answer
    server.notify("juice/ignored", {"payload": "x" * (10 * 1024 * 1024)})
    assert server.request(2, "workspace/symbol", {"query": "kiwi-"})["result"][0]["name"] == "kiwi-juice"
    assert time.monotonic() - started < 10


def test_header_blocks_without_a_usable_length_are_dropped(server):
    server.initialize()
    server.send_bytes(b"X-Juice: mango\r\n\r\n")
    server.send_bytes(b"Content-Length: twelve\r\n\r\n")
    assert server.request(1, "workspace/symbol", {"query": ""})["result"] == []
    # Other headers are allowed beside Content-Length.
    body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "workspace/symbol", "params": {"query": ""}}).encode()
    server.send_bytes(b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    assert server.response(2)["result"] == []


DOLLAR_X = json.dumps({"jsonrpc": "2.0", "method": "$/x", "params": {}}).encode()


@pytest.mark.parametrize("prefix", [
    b"Content-Length: 1x\r\n\r\n" + DOLLAR_X,                       # a malformed length: the body is left
    b"Content-Lenght: %d\r\n\r\n" % len(DOLLAR_X) + DOLLAR_X,        # a misspelt name: the body is left
    b"X-Content-Length: 5\r\n\r\n" + DOLLAR_X,                      # another header: no length at all
    b"Content-Length: %d\r\nX-Content-Length: 5\r\n\r\n" % len(DOLLAR_X) + DOLLAR_X,  # not the length
], ids=["malformed", "misspelt", "x-content-length", "x-content-length-after"])
def test_after_a_dropped_header_the_next_message_is_read(server, prefix):
    server.initialize()
    # Before, the old body's ':' hid every later header: nothing was answered again.
    server.send_bytes(prefix)
    assert server.request(1, "workspace/symbol", {"query": ""})["result"] == []


def test_after_a_length_too_short_the_next_message_is_read(server):
    server.initialize()
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % (len(DOLLAR_X) - 5) + DOLLAR_X)
    # The part read is not JSON; the rest, before the next header, is skipped.
    answer = server.next()
    assert answer.get("id", "missing") is None and error_code(answer) == PARSE_ERROR, answer
    assert server.request(1, "workspace/symbol", {"query": ""})["result"] == []


@pytest.mark.parametrize("members", ["array", "object"])
def test_a_10_mb_array_or_object_is_read_in_linear_time(server, members):
    server.initialize()
    # An array or object used to be copied for each element added: hours for 10 MB.
    if members == "array":
        extra = b"[" + b"0," * (5 * 1024 * 1024) + b"0]"
    else:
        extra = b"{" + b",".join(b'"k%d":0' % index for index in range(900_000)) + b"}"
    assert len(extra) > 10_000_000
    started = time.monotonic()
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"workspace/symbol","params":{"query":"","extra":' + extra + b"}}")
    assert server.response(1, timeout=30)["result"] == []
    assert time.monotonic() - started < 20


def test_a_request_cancelled_while_it_waits(server, book):
    server.initialize(book)
    uri = (book / "recipes" / "menu.yaml").as_uri()
    # Both in one write: they arrive together, and the request is still
    # waiting when the cancel is read.
    server.send_bytes(
        RawServer.frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": hover_params(uri, 5, 3)})
        + RawServer.frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 1}}))
    assert error_code(server.response(1)) == REQUEST_CANCELLED


def test_logs_go_to_stderr_only(book):
    with subprocess.Popen([str(BINARY), "lsp", "--log-level", "debug"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        messages = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"processId": None, "capabilities": {}, "rootUri": book.as_uri()}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "method": "juice/unknown", "params": {}},
            {"jsonrpc": "2.0", "id": 1, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"},
        ]
        stdout, stderr = process.communicate(b"".join(RawServer.frame(m) for m in messages), timeout=10)
    assert process.returncode == 0
    assert stderr, "debug logging should write something to stderr"
    # stdout is nothing but framed messages.
    rest, seen = stdout, []
    while rest:
        header, separator, rest = rest.partition(b"\r\n\r\n")
        assert separator and header.startswith(b"Content-Length: "), stdout[:300]
        length = int(header.split(b"\r\n")[0][len(b"Content-Length: "):])
        seen.append(json.loads(rest[:length]))
        rest = rest[length:]
    assert [m.get("id") for m in seen if "id" in m] == [0, 1]


def test_a_message_over_256_mib_is_read_past_and_dropped(server):
    server.initialize()
    size = 257 * 1024 * 1024
    server.send_bytes(b"Content-Length: %d\r\n\r\n" % size)
    chunk = b"x" * (1 << 20)
    for _ in range(size // len(chunk)):
        server.process.stdin.write(chunk)
    # Dropped, not answered: the next answer is to the next request.
    assert server.request(1, "workspace/symbol", {"query": ""})["result"] == []


def test_nesting_up_to_500_levels_is_read(server):
    server.initialize()
    deep = json.loads("[" * 500 + "]" * 500)
    answer = server.request(1, "workspace/symbol", {"query": "", "extra": deep})
    assert answer.get("result") == [], answer


def resident_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(not pathlib.Path("/proc/self/status").exists(), reason="reads /proc")
def test_10000_edits_keep_memory_bounded(server, book):
    server.initialize(book)
    path = book / "recipes" / "menu.yaml"
    text = path.read_text()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}})
    line, character = position_at(text, find(text, "mango: 3") + len("mango"))
    insert = {"range": {"start": {"line": line, "character": character}, "end": {"line": line, "character": character}}, "text": "o"}
    delete = {"range": {"start": {"line": line, "character": character}, "end": {"line": line, "character": character + 1}}, "text": ""}
    version = 1
    sizes = []
    for block in range(10):
        for _ in range(500):
            for change in (insert, delete):
                version += 1
                server.notify("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [change]})
        server.request(f"sync-{block}", "workspace/symbol", {"query": "zzz"})
        sizes.append(resident_kib(server.process.pid))
    # The text is back where it began; one more edit shows the server followed.
    version += 1
    server.notify("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version}, "contentChanges": [
        {**insert, "text": "zz"}]})
    server.diagnostics(path.as_uri(), lambda ds: any("'mangozz'" in d["message"] for d in ds))
    assert sizes[-1] - sizes[0] < 8 * 1024, f"resident KiB after each 1,000 edits: {sizes}"
