#!/usr/bin/env python3
"""Prove two builds of juice-lint and juice-run print byte-identical output.

    python3 Benchmarks/compare_outputs.py --old DIR --new DIR [--data DIR] [--list]
        [--jobs N] [--timeout S] [--filter TEXT]

DIR holds a juice-lint and a juice-run binary (a .build/release folder, say).
Every run of the corpus is made with both builds, with the same working
directory (the repository root, found from this script's place), the same
relative paths, the same environment and the same standard input, and
compared byte for byte: standard output, standard error and exit code.
A run that writes files (--fix, --output, --save-stock) works in a sandbox:
the inputs are copied into two fresh temporary folders with the same
relative layout, each build runs with its working directory in its own
copy, and the whole of each folder is compared afterwards too (file bytes,
modes, symbolic links). A sandbox's absolute path, which differs between
the two copies, reads <SANDBOX> in both builds' output before comparing.

Each mismatch prints one line (the command, and which stream differs)
followed by a short unified diff of the first differences. The last line is
`N passed, M failed`; the exit status is 1 if any run differs, 2 on bad usage.

The corpus (--list prints it) covers:
  * juice-lint in every --format (auto, text, json, github, sarif) over
    recipes/, every fixture book under Tests/ (folders and single files) and
    every hostile-corpus case as Tests/Fixtures/hostile/cases.json lists it;
  * options that change output: --strict, --rule RULE=LEVEL for every rule,
    --config, --stock, --max-diagnostics, --base-path, --color and the
    colour/GitHub environment variables, --output, --fix and --fix --diff,
    --stdin-filename with piped input, special files (FIFO, /dev/zero, a
    sparse 65 MiB file, an unreadable file read as nobody);
  * the subcommands: rules, explain RULE for every rule id, graph in each
    graph format, help and --version, and whole `lsp` sessions (requests,
    edits, malformed frames) piped in at once;
  * juice-run with every *.orders script under docs/examples and Tests/
    against several books, in text and json, with --quiet, --capacity,
    --order, --random/--seed/--mix, --stock, --save-stock (the saved file's
    bytes are compared), scripts on standard input, the --interactive counter
    fed from a pipe, and bad usage (unknown flags, missing files, bad values);
  * with --data DIR, the benchmark books and order files Benchmarks/generate.py
    writes (those present; books over 20 MB only in json).
"""

import argparse
import difflib
import hashlib
import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = ("juice-lint", "juice-run")

LINT_FORMATS = ["auto", "text", "json", "github", "sarif"]
GRAPH_FORMATS = ["mermaid", "dot"]
RUN_FORMATS = ["text", "json"]
LEVELS = ["off", "info", "warning", "error"]

E2E = "Tests/EndToEndTests/Fixtures"
KIT = "Tests/JuiceKitTests/Fixtures"
HOSTILE = "Tests/Fixtures/hostile"

# Variables that change what the tools print; cleared for every run, and set
# by the runs that test them.
OUTPUT_ENVIRONMENT = ["GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"]

TEXT_FORMAT_SIZE_LIMIT = 20 << 20  # bench books bigger than this run in json only
SMALL_BOOK_SIZE = 5 << 20          # bench books up to this size get every format, graph and juice-run too
DIFF_LINES = 12                      # lines of unified diff shown per mismatch
DIFF_LINE_WIDTH = 200                # characters of each diff line shown


# --------------------------------------------------------------------------
# The corpus


@dataclass
class Sandbox:
    """A fresh folder per build: `copies` (paths relative to the repository
    root, or (SOURCE, PLACE) pairs) are copied in at the same relative
    paths, `files` written, `fifos` made, `sparse` files truncated to a
    size, `modes` applied last; the tool runs in `cwd` (relative to the
    sandbox)."""
    copies: list = field(default_factory=list)
    files: dict = field(default_factory=dict)
    fifos: list = field(default_factory=list)
    sparse: dict = field(default_factory=dict)
    modes: dict = field(default_factory=dict)
    cwd: str = "."


@dataclass
class Case:
    tool: str
    args: list
    stdin: bytes = None          # bytes piped to standard input (None: /dev/null)
    stdin_label: str = None      # how --list and mismatches show that input
    env: dict = field(default_factory=dict)
    sandbox: Sandbox = None
    as_nobody: bool = False      # run as nobody (through setpriv) when root

    def describe(self):
        words = [f"{key}={value}" for key, value in sorted(self.env.items())]
        words.append(self.tool)
        words += self.args
        text = shlex.join(words)
        if self.stdin is not None:
            text += " < " + (self.stdin_label or f"<{len(self.stdin)} bytes>")
        if self.as_nobody:
            text = "[as nobody] " + text
        if self.sandbox is not None:
            box = self.sandbox
            notes = [f"cwd={box.cwd}"] if box.cwd != "." else []
            notes += [f"{name}={short_repr(data)}" for name, data in sorted(box.files.items())]
            notes += [f"fifo {name}" for name in box.fifos]
            notes += [f"sparse {name} {size}" for name, size in sorted(box.sparse.items())]
            notes += [f"chmod {mode:o} {name}" for name, mode in sorted(box.modes.items())]
            text = "[sandbox" + "".join(" " + note for note in notes) + "] " + text
        return text

    def key(self):
        """What makes two runs the same run (for removing repeats)."""
        return (self.describe(), self.stdin, repr(self.sandbox))


def short_repr(data):
    text = repr(data)[1:]  # b'...' -> '...'
    return text if len(text) <= 40 else text[:37] + "...'"


def rel_exists(path):
    return os.path.lexists(os.path.join(ROOT, path))


def read_bytes(path):
    with open(os.path.join(ROOT, path), "rb") as handle:
        return handle.read()


def fixture_tree(top):
    """Every folder (top included) and every *.yaml/*.yml file under `top`,
    hidden ones too, sorted, as paths relative to the root. Symbolic links
    are not followed."""
    folders, files = [top], []
    for base, dirs, names in os.walk(os.path.join(ROOT, top)):
        dirs.sort()
        relbase = os.path.relpath(base, ROOT)
        for name in dirs:
            full = os.path.join(base, name)
            if not os.path.islink(full):
                folders.append(os.path.join(relbase, name))
        for name in sorted(names):
            full = os.path.join(base, name)
            if name.endswith((".yaml", ".yml")) and os.path.isfile(full) and not os.path.islink(full):
                files.append(os.path.join(relbase, name))
    return sorted(set(folders)), sorted(files)


def order_scripts():
    scripts = []
    for top in ["docs/examples", "Tests"]:
        for base, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(".orders"):
                    scripts.append(os.path.relpath(os.path.join(base, name), ROOT))
    return sorted(scripts)


def hostile_cases():
    path = os.path.join(ROOT, HOSTILE, "cases.json")
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return json.load(handle)


def rule_ids(old_dir):
    """(id, default level) for every rule, as `juice-lint rules` of the old
    build lists them; without a build (--list), ids from the rule sources'
    file names, levels unknown."""
    rules = []
    if old_dir:
        try:
            out = subprocess.run([os.path.join(old_dir, "juice-lint"), "rules"], cwd=ROOT, capture_output=True,
                                 timeout=60, env=base_environment()).stdout.decode("utf-8", "replace")
            for line in out.splitlines():
                words = line.split()
                if len(words) >= 2 and words[1] in LEVELS and all(c.islower() or c.isdigit() or c == "-" for c in words[0]):
                    rules.append((words[0], words[1]))
        except (OSError, subprocess.SubprocessError):
            pass
    if not rules:
        names = set()
        for base, _, files in os.walk(os.path.join(ROOT, "Sources")):
            if os.path.basename(base) == "Rules":
                names.update(name[:-len(".swift")] for name in files if name.endswith(".swift"))
        for stem in sorted(names):
            rules.append(("".join("-" + c.lower() if c.isupper() else c for c in stem).lstrip("-"), None))
    return rules


def menu_ids(book_text):
    """Menu ids of a simple block-style book (recipes/menu.yaml)."""
    ids, inside = [], False
    for line in book_text.splitlines():
        if line.startswith("menu:"):
            inside = True
        elif line and not line.startswith((" ", "#")):
            inside = False
        elif inside and line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":"):
            ids.append(line.strip()[:-1])
    return ids


def lint(*args, **kwargs):
    return Case("juice-lint", list(args), **kwargs)


def run(*args, **kwargs):
    return Case("juice-run", list(args), **kwargs)


def lint_corpus(rules):
    cases = []
    e2e_dirs, e2e_files = fixture_tree(E2E)
    kit_dirs, kit_files = fixture_tree(KIT)
    hostile = hostile_cases()
    hostile_lint = [c for c in hostile if c["tool"] == "lint"]
    hostile_dirs = sorted(d for d in os.listdir(os.path.join(ROOT, HOSTILE))
                          if os.path.isdir(os.path.join(ROOT, HOSTILE, d))) if rel_exists(HOSTILE) else []

    # Every book target in every format.
    targets = [[], ["recipes"], ["recipes/"], ["./recipes"], ["recipes/fruits.yaml"], ["recipes/menu.yaml"],
               ["recipes/menu.yaml", "recipes/fruits.yaml"]]
    targets += [[p] for p in e2e_dirs + e2e_files + kit_dirs + kit_files]
    targets += [[f"{HOSTILE}/{d}"] for d in hostile_dirs if d != "paths"]
    # The unreadable case's file is readable to root: run as nobody below.
    targets += [[f"{HOSTILE}/{a}" for a in c["args"]] for c in hostile_lint if not c.get("unreadable")]
    seen = set()
    for target in targets:
        if tuple(target) in seen:
            continue
        seen.add(tuple(target))
        for fmt in LINT_FORMATS:
            cases.append(lint("--format", fmt, *target))

    # The hostile corpus with HostileCorpusTests' options (every diagnostic),
    # in json and text; the unreadable file in a sandbox, read as nobody
    # from the corpus folder as the test does.
    for c in hostile_lint:
        if c.get("unreadable"):
            for fmt in ["json", "text"]:
                rel = f"{HOSTILE}/{c['args'][0]}"
                cases.append(lint("--format", fmt, "--max-diagnostics", "0", *c["args"], as_nobody=True,
                                  sandbox=Sandbox(copies=[rel], modes={rel: 0}, cwd=HOSTILE)))
        else:
            paths = [f"{HOSTILE}/{a}" for a in c["args"]]
            cases.append(lint("--format", "json", "--max-diagnostics", "0", *paths))
            cases.append(lint("--format", "text", "--max-diagnostics", "0", *paths))

    # Options that change the report, over books with something to say.
    books = ["recipes", f"{E2E}/every-problem", f"{E2E}/broken-book", f"{E2E}/cross-file/book",
             f"{E2E}/suppressions", f"{E2E}/configured", f"{KIT}/lint", f"{KIT}/many-errors.yaml"]
    books = [b for b in books if rel_exists(b)]
    for book in books:
        for fmt in ["text", "json"]:
            cases.append(lint("--strict", "--format", fmt, book))
        for n in ["0", "1", "3"]:
            cases.append(lint("--max-diagnostics", n, book))
            cases.append(lint("--max-diagnostics", n, "--format", "sarif", book))
        for color in ["always", "never", "auto"]:
            cases.append(lint("--color", color, book))
        cases.append(lint(book, env={"FORCE_COLOR": "1"}))
        cases.append(lint("--color", "always", book, env={"NO_COLOR": "1"}))
        cases.append(lint(book, env={"GITHUB_ACTIONS": "true"}))
        cases.append(lint("--format", "auto", "--strict", book, env={"GITHUB_ACTIONS": "true"}))
        for base in [".", "Tests", "/", "recipes"]:
            cases.append(lint("--format", "sarif", "--base-path", base, book))
            cases.append(lint("--format", "github", "--base-path", base, book))
        cases.append(lint("--config", f"{E2E}/configured/.juice-lint.yaml", book))
        cases.append(lint("--rule", "unused-fruit=error", "--rule", "missing-stock=off", "--format", "json", book))
    # Every rule's level: an error rule's cannot change (one run shows the
    # message); the others at every level, over books that trip them.
    rich = [b for b in [f"{E2E}/every-problem", f"{KIT}/lint", f"{E2E}/suppressions", "recipes"] if rel_exists(b)]
    for rule, default in rules:
        cases.append(lint("--rule", f"{rule}=off", rich[0]))
        if default == "error":
            continue
        for level in LEVELS:
            for book in rich:
                cases.append(lint("--rule", f"{rule}={level}", book))
            cases.append(lint("--rule", f"{rule}={level}", "--format", "json", KIT))
            cases.append(lint("--strict", "--rule", f"{rule}={level}", "--format", "sarif", rich[0]))
    for bad in ["nope=off", "unused-fruit=loud", "unused-fruit", "=off", "unused-fruit=", "UNUSED-FRUIT=off"]:
        cases.append(lint("--rule", bad, "recipes"))

    # --config: the fixture's, a missing one, a recipe file (not a config),
    # and the configured folder's own from its own cwd-relative path.
    for config in [f"{E2E}/configured/.juice-lint.yaml", "no-such-config.yaml", "recipes/menu.yaml", "recipes",
                   f"{KIT}/empty.yaml", f"{KIT}/binary.yaml"]:
        cases.append(lint("--config", config, f"{E2E}/configured"))
        cases.append(lint("--config", config, "--format", "json", "recipes"))
    cases.append(lint(".", sandbox=Sandbox(copies=[f"{E2E}/configured"], cwd=f"{E2E}/configured")))
    cases.append(lint("--format", "json", "levels", sandbox=Sandbox(copies=[f"{E2E}/configured"],
                                                                    cwd=f"{E2E}/configured")))
    for text in [b"rules: {unused-fruit: loud}\n", b"rules:\n  nope: off\n", b"colour: red\n", b"rules: [1, 2]\n",
                 b"rules:\n  unused-fruit: off\n  missing-stock: error\n", b"\xff\xfe\x00", b""]:
        cases.append(lint("--format", "json", "recipes",
                          sandbox=Sandbox(copies=["recipes"], files={".juice-lint.yaml": text})))

    # --stock.
    stocks = [f"{E2E}/stock-files/priced.yaml", f"{E2E}/stock-files/bad.yaml", f"{E2E}/cross-file/stock.yaml",
              "recipes/fruits.yaml", "recipes/menu.yaml", "no-such-stock.yaml", "recipes", f"{KIT}/binary.yaml",
              f"{HOSTILE}/numbers/stock-hex.yaml"]
    for stock in stocks:
        for book in ["recipes", f"{E2E}/cross-file/book", f"{E2E}/priced"]:
            cases.append(lint("--stock", stock, book))
        cases.append(lint("--stock", stock, "--format", "json", "recipes"))
        cases.append(lint("--stock", stock, "--format", "sarif", "recipes"))

    # Bad usage and odd paths.
    for args in [["--bogus"], ["--format", "xml"], ["--format"], ["--color", "sometimes"], ["--max-diagnostics", "-1"],
                 ["--max-diagnostics", "abc"], ["--max-diagnostics", "99999999999999999999"], ["no-such-dir"],
                 ["recipes", "no-such-file.yaml"], ["--diff", "recipes"], ["--diff"], [""], ["/dev/null"],
                 ["/dev/zero"], ["docs"], ["Tests/EndToEndTests/Fixtures/scripts"], ["README.md"], ["recipes", "recipes"],
                 ["recipes", "./recipes/menu.yaml"], ["-h"], ["--help"], ["--version"], ["help"], ["help", "lint"],
                 ["help", "rules"], ["help", "explain"], ["help", "graph"], ["help", "lsp"], ["help", "nope"],
                 ["lint", "--help"], ["rules", "--help"], ["explain", "--help"], ["graph", "--help"], ["lsp", "--help"],
                 ["lint"], ["lint", "recipes/menu.yaml"], ["rules"], ["rules", "extra"], ["explain"],
                 ["explain", "nope"], ["explain", "Unknown-Fruit"], ["explain", ""], ["graph", "--format", "svg"],
                 ["graph", "no-such-dir"], ["graph", "--bogus"], ["lsp", "--log-level", "loud"]]:
        cases.append(lint(*args))
    # Every --fix runs in a sandbox, even --diff and usage errors: a build
    # that got them wrong would otherwise edit the repository's books.
    for args in [["--fix", "--stdin-filename"], ["--fix", "--diff", "--stdin-filename", "x.yaml"], ["--fix", "-"]]:
        cases.append(lint(*args, sandbox=Sandbox(copies=["recipes"])))
    # A path named like a subcommand: a note on how to lint it.
    for name in ["rules", "graph", "explain", "lint", "help"]:
        cases.append(lint(name, sandbox=Sandbox(copies=["recipes"], files={name: b"menu: {}\n"})))
        cases.append(lint(f"./{name}", sandbox=Sandbox(copies=["recipes"], files={name: b"menu: {}\n"})))

    # Special files: a FIFO, a sparse file past 64 MiB, in a folder and given directly.
    fifo_box = Sandbox(copies=["recipes"], fifos=["recipes/fifo.yaml"])
    cases.append(lint("recipes", sandbox=fifo_box))
    cases.append(lint("recipes/fifo.yaml", sandbox=fifo_box))
    big_box = Sandbox(copies=["recipes"], sparse={"recipes/big.yaml": 65 << 20})
    cases.append(lint("--format", "json", "recipes", sandbox=big_box))
    cases.append(lint("recipes/big.yaml", sandbox=big_box))
    cases.append(run("--recipes", "recipes", "--order", "banana-juice", sandbox=big_box))

    # rules, explain and graph.
    cases.append(lint("rules"))
    for rule, _ in rules:
        cases.append(lint("explain", rule))
    graph_targets = [[], ["recipes"], ["recipes/menu.yaml"]] + [[p] for p in e2e_dirs + e2e_files + kit_dirs + kit_files]
    graph_targets += [[f"{HOSTILE}/recipes/{name}"] for name in
                      sorted(os.listdir(os.path.join(ROOT, HOSTILE, "recipes")))] if rel_exists(f"{HOSTILE}/recipes") else []
    for target in graph_targets:
        for fmt in GRAPH_FORMATS:
            cases.append(lint("graph", "--format", fmt, *target))
    cases.append(lint("graph", "recipes", env={"FORCE_COLOR": "1"}))
    cases.append(lint("graph", f"{E2E}/broken-book", env={"FORCE_COLOR": "1"}))

    # --output: the report goes to a file, compared like the rest of the sandbox.
    for fmt in LINT_FORMATS:
        box = Sandbox(copies=["recipes", f"{E2E}/every-problem"], files={"out/.keep": b""})
        cases.append(lint("--format", fmt, "--output", "out/report.txt", f"{E2E}/every-problem", sandbox=box))
        cases.append(lint("--format", fmt, "--output", "report.txt", "recipes", sandbox=box))
    cases.append(lint("--output", "no-such-dir/report.txt", "recipes", sandbox=Sandbox(copies=["recipes"])))
    cases.append(lint("--output", "recipes", "recipes", sandbox=Sandbox(copies=["recipes"])))

    # --fix and --fix --diff over every fixture book: stdout, stderr, exit
    # code and the files left behind.
    fix_targets = ["recipes"] + e2e_dirs + e2e_files + [KIT, f"{KIT}/lint"] + kit_files
    fix_targets += [f"{HOSTILE}/{d}" for d in ["numbers", "duplicates", "encoding", "aliases", "empty", "tags",
                                               "documents"] if rel_exists(f"{HOSTILE}/{d}")]
    for target in fix_targets:
        if os.path.isdir(os.path.join(ROOT, target)) and not fixture_tree(target)[1]:
            continue  # nothing to fix: the error is checked by the runs above
        box = Sandbox(copies=[target])
        cases.append(lint("--fix", target, sandbox=box))
        cases.append(lint("--fix", "--diff", target, sandbox=box))
    for fmt in ["json", "sarif", "github"]:
        for target in [f"{E2E}/every-problem", KIT]:
            cases.append(lint("--fix", "--format", fmt, target, sandbox=Sandbox(copies=[target])))
            cases.append(lint("--fix", "--diff", "--format", fmt, target, sandbox=Sandbox(copies=[target])))
    cases.append(lint("--fix", "--strict", "--rule", "unused-suppression=error", f"{E2E}/suppressions",
                      sandbox=Sandbox(copies=[f"{E2E}/suppressions"])))
    cases.append(lint("--fix", "--output", "fix-report.json", "--format", "json", KIT, sandbox=Sandbox(copies=[KIT])))
    cases.append(lint("--fix", sandbox=Sandbox(copies=["recipes"], files={
        "recipes/extra.yaml": b"menu:\n  x: { recipe: { bananna: 01, kiwi: 1_0 } }  # juice-lint disable-line zero-amount\n"})))

    # --stdin-filename: standard input stands for a book file.
    stdin_sources = ["recipes/menu.yaml", "recipes/fruits.yaml"] + kit_files + \
                    [f for f in e2e_files if "/every-problem/" in f or "/broken-book/" in f]
    for source in stdin_sources:
        data = read_bytes(source)
        cases.append(lint("--stdin-filename", "recipes/menu.yaml", "-", stdin=data, stdin_label=source))
        cases.append(lint("--format", "json", "--stdin-filename", "recipes/menu.yaml", "-", stdin=data,
                          stdin_label=source))
    menu = read_bytes("recipes/menu.yaml")
    typo = menu.replace(b"{ kiwi: 3 }", b"{ kiwii: 3 }").replace(b"banana: 2", b"banana: 02")
    for name in ["recipes/menu.yaml", "./recipes/menu.yaml", "recipes//menu.yaml", "recipes/../recipes/menu.yaml",
                 os.path.join(ROOT, "recipes/menu.yaml"), "recipes/new.yaml", "elsewhere/menu.yaml"]:
        for fmt in ["text", "json", "sarif", "github"]:
            cases.append(lint("--format", fmt, "--stdin-filename", name, "-", stdin=typo, stdin_label="menu.yaml with typos"))
    cases.append(lint("--stdin-filename", "shop/more.yaml", "-", "recipes", stdin=typo, stdin_label="menu.yaml with typos"))
    cases.append(lint("--fix", "--diff", "--stdin-filename", "recipes/menu.yaml", "-", stdin=typo,
                      stdin_label="menu.yaml with typos", sandbox=Sandbox(copies=["recipes"])))
    cases.append(lint("--fix", "--stdin-filename", "recipes/menu.yaml", "-", stdin=typo,
                      stdin_label="menu.yaml with typos", sandbox=Sandbox(copies=["recipes"])))
    cases.append(lint("graph", "-", stdin=menu, stdin_label="recipes/menu.yaml"))
    for args in [["-"], ["--stdin-filename", "recipes/menu.yaml"], ["--stdin-filename", "recipes/menu.yaml", "-", "-"],
                 ["--stdin-filename", "", "-"], ["--stdin-filename", "/tmp", "-"], ["--stdin-filename", "recipes", "-"]]:
        cases.append(lint(*args, stdin=menu, stdin_label="recipes/menu.yaml"))
    saved_box = Sandbox(copies=["recipes"], files={"saved.yaml": b"stock:\n  mango: 1\n  kiwi: 1\n"})
    cases.append(lint("--stock", "saved.yaml", "--stdin-filename", "./saved.yaml", "-", stdin=b"stock:\n  mango: 2\n  kiwii: 1\n",
                      stdin_label="a stock with a typo", sandbox=saved_box))
    cases.append(lint("--format", "json", "--stdin-filename", "recipes/menu.yaml", "-",
                      stdin=b"\xef\xbb\xbfmenu:\n  a: { recipe: { kiwi: 1 } }\r\n", stdin_label="BOM and CRLF"))
    cases.append(lint("--stdin-filename", "recipes/menu.yaml", "-", stdin=b"", stdin_label="nothing"))
    cases.append(lint("--stdin-filename", "recipes/menu.yaml", "-", stdin=b"\x00\xff\xfe garbage", stdin_label="binary"))
    return cases


def run_corpus():
    cases = []
    scripts = order_scripts()
    books = [None, "recipes", f"{E2E}/priced/book.yaml", f"{KIT}/shop.yaml", f"{E2E}/cross-file/book"]
    books = [b for b in books if b is None or rel_exists(b)]
    ids = menu_ids(read_bytes("recipes/menu.yaml").decode("utf-8", "replace")) if rel_exists("recipes/menu.yaml") else []

    def with_book(book, *args):
        return (["--recipes", book] if book else []) + list(args)

    # Every script against every book, in each format, whole and --quiet.
    for book in books:
        for script in scripts:
            for fmt in RUN_FORMATS:
                cases.append(run(*with_book(book, "--format", fmt, script)))
                cases.append(run(*with_book(book, "--format", fmt, "--quiet", script)))
    # The hostile scripts as HostileCorpusTests runs them.
    for c in hostile_cases():
        if c["tool"] == "run":
            cases.append(run("--recipes", "recipes", "--format", "json", "--max-diagnostics", "0",
                             *[f"{HOSTILE}/{a}" for a in c["args"]]))
    # Several scripts in one run, and --max-diagnostics.
    if len(scripts) >= 2:
        cases.append(run(*scripts[:6]))
        cases.append(run("--format", "json", *scripts[-6:]))
    for n in ["0", "1", "2"]:
        for script in [s for s in scripts if "mistakes" in s or "unknown-commands" in s]:
            cases.append(run("--max-diagnostics", n, script))
            cases.append(run("--max-diagnostics", n, "--format", "json", script))

    # --capacity.
    for book in books:
        for fmt in RUN_FORMATS:
            cases.append(run(*with_book(book, "--capacity", "--format", fmt)))
            cases.append(run(*with_book(book, "--capacity", "--quiet", "--format", fmt)))
        for stock in [f"{E2E}/stock-files/priced.yaml", f"{E2E}/cross-file/stock.yaml"]:
            cases.append(run(*with_book(book, "--capacity", "--stock", stock)))
    # Scripts or orders with --capacity: a usage error.
    cases.append(run("--capacity", "docs/examples/first-morning.orders"))
    cases.append(run("--capacity", "--order", "kiwi-juice"))
    cases.append(run("--capacity", "--random", "3", "--seed", "1"))
    for n in ["0", "1"]:
        cases.append(run("--capacity", "--max-diagnostics", n, "--recipes", f"{KIT}/many-errors.yaml"))

    # --order.
    for menu_id in ids:
        for fmt in RUN_FORMATS:
            cases.append(run("--order", menu_id, "--format", fmt))
        cases.append(run("--order", f"{menu_id}x3", "--quiet"))
        cases.append(run("--order", f"{menu_id}x3", "--order", menu_id, "--format", "json"))
    for order in ["banana-juicex2", "banana-juicex0", "banana-juice x2", "nope", "strawberry-juicex99999999999999",
                  "banana-juicexx2", "", "BANANA-JUICE", "kiwi-juicex-1"]:
        cases.append(run("--order", order))
        cases.append(run("--order", order, "--format", "json"))
    if ids:
        many = []
        for menu_id in ids:
            many += ["--order", menu_id]
        cases.append(run(*many))
        cases.append(run("--quiet", *many, "docs/examples/first-morning.orders"))
        cases.append(run("--format", "json", "--recipes", f"{E2E}/priced/book.yaml", *many))

    # --random, --seed, --mix.
    for count, seed in [("0", "1"), ("1", "1"), ("10", "1"), ("10", "2"), ("100", "42"), ("1000", "18446744073709551615")]:
        for fmt in RUN_FORMATS:
            cases.append(run("--random", count, "--seed", seed, "--format", fmt))
        cases.append(run("--random", count, "--seed", seed, "--quiet"))
        cases.append(run("--random", count, "--seed", seed, "--recipes", f"{E2E}/priced/book.yaml", "--format", "json"))
    cases.append(run("--random", "100000", "--seed", "7", "--quiet"))
    cases.append(run("--random", "100000", "--seed", "7", "--quiet", "--format", "json"))
    for mix in ["banana-juice=3,kiwi-juice=1", "mango-juice=1", "banana-juice=0", "nope=1", "banana-juice=x",
                "banana-juice=1,banana-juice=2", "banana-juice", ""]:
        cases.append(run("--random", "50", "--seed", "3", "--mix", mix))
        cases.append(run("--random", "50", "--seed", "3", "--mix", mix, "--format", "json", "--quiet"))
    cases.append(run("--random", "20", "--seed", "3", "--mix", "banana-juice=1", "--mix", "kiwi-juice=2"))
    cases.append(run("--random", "20", "--seed", "9", "--recipes", f"{E2E}/priced/book.yaml"))
    cases.append(run("--random", "5", "--seed", "9", "--order", "kiwi-juice", "docs/examples/first-morning.orders"))

    # --stock.
    for stock in [f"{E2E}/stock-files/priced.yaml", f"{E2E}/stock-files/bad.yaml", f"{E2E}/cross-file/stock.yaml",
                  "recipes/fruits.yaml", "recipes/menu.yaml", "no-such-stock.yaml", "recipes", f"{KIT}/binary.yaml"]:
        cases.append(run("--stock", stock, "docs/examples/first-morning.orders"))
        cases.append(run("--stock", stock, "--format", "json", "--capacity"))

    # --save-stock: each build saves into its own sandbox; the files are compared.
    for script in ["docs/examples/first-morning.orders", f"{E2E}/priced/day.orders", f"{E2E}/scripts/mistakes.orders"]:
        if not rel_exists(script):
            continue
        box = Sandbox(copies=["recipes", script, f"{E2E}/priced"])
        for fmt in RUN_FORMATS:
            cases.append(run("--save-stock", "saved/stock.yaml", "--format", fmt, script,
                             sandbox=Sandbox(copies=box.copies, files={"saved/.keep": b""})))
        cases.append(run("--save-stock", "stock.yaml", "--recipes", f"{E2E}/priced/book.yaml", script, sandbox=box))
    box = Sandbox(copies=["recipes", "docs/examples"], files={"stock.yaml": b"stock:\n  banana: 1\n"})
    cases.append(run("--stock", "stock.yaml", "--save-stock", "stock.yaml", "docs/examples/first-morning.orders", sandbox=box))
    cases.append(run("--save-stock", "stock.yaml", "--random", "500", "--seed", "5", "--quiet", sandbox=box))
    cases.append(run("--save-stock", "no-such-dir/stock.yaml", "--order", "banana-juice", sandbox=box))
    cases.append(run("--save-stock", "recipes", "--order", "banana-juice", sandbox=box))
    cases.append(run("--save-stock", "", "--order", "banana-juice", sandbox=box))

    # Scripts on standard input: '-' and a bare pipe.
    for script in scripts:
        data = read_bytes(script)
        cases.append(run("-", stdin=data, stdin_label=script))
        cases.append(run(stdin=data, stdin_label=script))
        cases.append(run("--format", "json", "-", stdin=data, stdin_label=script))
    first = read_bytes("docs/examples/first-morning.orders") if rel_exists("docs/examples/first-morning.orders") else b""
    cases.append(run("docs/examples/first-morning.orders", "-", stdin=first, stdin_label="first-morning.orders"))
    cases.append(run("-", "-", stdin=first, stdin_label="first-morning.orders"))
    cases.append(run("--order", "kiwi-juice", "-", stdin=first, stdin_label="first-morning.orders"))

    # The counter, fed from a pipe.
    sessions = [
        b"5\nstrawberry-juice\ny\nkiwi -11\nstrawberry +16\n\n2\ny\nquit\n",
        b"edit\nmango =-1\nmango -11\n\nquit\n",
        b"banana-juice\n",
        b"",
        b"help\nmenu\nstock\nnope\n1\n2\n3\nstrawberry-juice\nn\nquit\n",
        b"strawberry-juice\ny\nstrawberry +100\n\ny\nstrawberry-juice\nq\n",
        b"\xff\xfe\n\x00\nkiwi-juice\n",
    ]
    for number, session in enumerate(sessions):
        cases.append(run("--interactive", stdin=session, stdin_label=f"counter session {number}"))
        cases.append(run("--interactive", "--recipes", f"{E2E}/priced/book.yaml", stdin=session,
                         stdin_label=f"counter session {number}"))
        cases.append(run("--interactive", "--save-stock", "stock.yaml", stdin=session,
                         stdin_label=f"counter session {number}", sandbox=Sandbox(copies=["recipes"])))

    # Bad usage and bad inputs: the error text must be identical too.
    for args in [["--bogus"], ["-x"], ["--format", "xml"], ["--format"], ["--recipes"], ["no-such-script.orders"],
                 ["--recipes", "no-such-dir", "--order", "banana-juice"], ["--recipes", "docs", "--order", "banana-juice"],
                 ["--recipes", f"{E2E}/broken-book", "--order", "banana-juice"],
                 ["--recipes", f"{KIT}/binary.yaml", "docs/examples/first-morning.orders"],
                 ["--recipes", f"{KIT}/many-errors.yaml", "--max-diagnostics", "2", "--order", "a"],
                 ["--max-diagnostics", "-1"], ["--max-diagnostics", "x"], ["--random", "-1"], ["--random", "x"],
                 ["--seed", "1"], ["--seed", "-1", "--random", "2"], ["--mix", "banana-juice=1"],
                 ["--interactive", "docs/examples/first-morning.orders"], ["--interactive", "--order", "kiwi-juice"],
                 ["--interactive", "--random", "3", "--seed", "1"], ["--quiet", "--interactive"],
                 ["--capacity", "--interactive"], ["docs"], ["README.md"], ["/dev/null"], ["help"], ["-h"],
                 ["--help"], ["--version"], ["--order"], ["docs/examples/first-morning.orders", "no-such.orders"]]:
        cases.append(run(*args))
    return cases


def data_corpus(data_dir):
    """The benchmark sets generate.py writes, those present in DATA: each
    folder is a book, each orders-*.txt an order script for recipes/."""
    cases = []
    absolute = os.path.abspath(data_dir)
    inside = os.path.relpath(absolute, ROOT)
    shown = absolute if inside.startswith("..") else inside  # the same path for both builds either way

    def size_of(path):
        if os.path.isfile(path):
            return os.path.getsize(path)
        return sum(os.path.getsize(os.path.join(b, n)) for b, _, ns in os.walk(path) for n in ns)

    for name in sorted(os.listdir(absolute)):
        full = os.path.join(absolute, name)
        if name.startswith(".") or not os.path.isdir(full):
            continue
        book = os.path.join(shown, name)
        size = size_of(full)
        # Most books are clean, so reading them is the cost and every format
        # prints little: json and text for all (json only past 20 MB), and
        # the rest for small books and those full of diagnostics.
        noisy = name in ("lint-errors", "lint-unused")
        small = size <= SMALL_BOOK_SIZE
        if size > TEXT_FORMAT_SIZE_LIMIT:
            formats = ["json"]
        elif small or noisy:
            formats = LINT_FORMATS
        else:
            formats = ["json", "text"]
        for fmt in formats:
            cases.append(lint("--format", fmt, book))
        if noisy:
            cases.append(lint("--format", "json", "--strict", "--rule", "unused-fruit=off",
                              "--rule", "missing-stock=error", book))
            cases.append(lint("--max-diagnostics", "0", book))
        # --fix (and --diff, which must change nothing) on a copy in each
        # build's sandbox; the files left behind are compared.
        if name == "lint-errors":
            cases.append(lint("--fix", "--diff", name, sandbox=Sandbox(copies=[(full, name)])))
            cases.append(lint("--fix", "--format", "json", name, sandbox=Sandbox(copies=[(full, name)])))
        if small:
            cases.append(lint("--fix", "--diff", name, sandbox=Sandbox(copies=[(full, name)])))
            for fmt in GRAPH_FORMATS:
                cases.append(lint("graph", "--format", fmt, book))
            cases.append(run("--recipes", book, "--capacity", "--format", "json"))
            cases.append(run("--recipes", book, "--random", "10000", "--seed", "1", "--quiet"))
    for name in sorted(os.listdir(absolute)):
        full = os.path.join(absolute, name)
        if not (name.startswith("orders") and name.endswith(".txt") and os.path.isfile(full)):
            continue
        script = os.path.join(shown, name)
        if os.path.getsize(full) > 4 * TEXT_FORMAT_SIZE_LIMIT:  # 10 million orders: one quiet run
            cases.append(run("--quiet", script))
            continue
        for fmt in RUN_FORMATS:
            cases.append(run("--quiet", "--format", fmt, script))
        if os.path.getsize(full) <= TEXT_FORMAT_SIZE_LIMIT // 4:  # 100,000 orders: every line printed too
            cases.append(run("--format", "json", script))
            cases.append(run(script))
    return cases


def lsp_frame(message):
    body = message if isinstance(message, bytes) else json.dumps(message, ensure_ascii=False).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_corpus():
    """A few whole language-server sessions, piped in at once: requests,
    edits, answers and published diagnostics must match too."""
    if not rel_exists("recipes/menu.yaml"):
        return []
    root = "file://" + ROOT
    menu_uri, fruits_uri = root + "/recipes/menu.yaml", root + "/recipes/fruits.yaml"
    menu = read_bytes("recipes/menu.yaml").decode("utf-8")
    typo = menu.replace("{ kiwi: 3 }", "{ kiwii: 3 }")

    def request(number, method, params=None):
        message = {"jsonrpc": "2.0", "id": number, "method": method}
        if params is not None:
            message["params"] = params
        return message

    def note(method, params=None):
        return {"jsonrpc": "2.0", "method": method, "params": params if params is not None else {}}

    def at(uri, line, character):
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    opening = [
        request(1, "initialize", {"processId": None, "rootUri": root, "capabilities": {},
                                  "workspaceFolders": [{"uri": root, "name": "main"}]}),
        note("initialized"),
        note("textDocument/didOpen", {"textDocument": {"uri": menu_uri, "languageId": "yaml", "version": 1,
                                                       "text": typo}}),
    ]
    closing = [request(99, "shutdown"), note("exit")]
    queries = [
        request(2, "textDocument/hover", at(menu_uri, 19, 16)),
        request(3, "textDocument/hover", at(menu_uri, 13, 16)),
        request(4, "textDocument/completion", at(menu_uri, 13, 18)),
        request(5, "textDocument/definition", at(menu_uri, 19, 16)),
        request(6, "textDocument/references", {**at(menu_uri, 10, 16), "context": {"includeDeclaration": True}}),
        request(7, "textDocument/codeAction", {"textDocument": {"uri": menu_uri},
                                               "range": {"start": {"line": 13, "character": 0},
                                                         "end": {"line": 13, "character": 30}},
                                               "context": {"diagnostics": []}}),
        request(8, "textDocument/documentSymbol", {"textDocument": {"uri": menu_uri}}),
        request(9, "workspace/symbol", {"query": "juice"}),
        request(10, "textDocument/prepareRename", at(menu_uri, 19, 16)),
        request(11, "textDocument/rename", {**at(menu_uri, 19, 16), "newName": "berry"}),
    ]
    edits = [
        note("textDocument/didChange", {"textDocument": {"uri": menu_uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 13, "character": 14}, "end": {"line": 13, "character": 19}}, "text": "kiwi"}]}),
        request(20, "textDocument/hover", at(menu_uri, 13, 16)),
        note("textDocument/didChange", {"textDocument": {"uri": menu_uri, "version": 3}, "contentChanges": [
            {"text": menu + "  broken: { recipe: { lime: 0 } }\n"}]}),
        note("textDocument/didOpen", {"textDocument": {"uri": fruits_uri, "languageId": "yaml", "version": 1,
                                                       "text": read_bytes("recipes/fruits.yaml").decode("utf-8")}}),
        request(21, "textDocument/codeAction", {"textDocument": {"uri": menu_uri},
                                                "range": {"start": {"line": 26, "character": 0},
                                                          "end": {"line": 27, "character": 0}},
                                                "context": {"diagnostics": []}}),
        note("textDocument/didClose", {"textDocument": {"uri": menu_uri}}),
        note("textDocument/didSave", {"textDocument": {"uri": fruits_uri}}),
    ]
    junk = [b"{not json", json.dumps(request(30, "no/such/method")).encode(), b"[]",
            json.dumps({"jsonrpc": "2.0", "id": 31}).encode(),
            json.dumps(request(32, "textDocument/hover", at(root + "/nowhere.yaml", 0, 0))).encode()]

    def session(messages, tail=b""):
        return b"".join(lsp_frame(m) for m in messages) + tail

    sessions = [
        ("queries", session(opening + queries + closing)),
        ("edits", session(opening + edits + queries[:3] + closing)),
        ("no shutdown", session(opening + [note("exit")])),
        ("input ends", session(opening + queries[:2])),
        ("junk", session(opening + junk + closing)),
        ("bad frames", session(opening) + b"Content-Length: x\r\n\r\n{}" + b"Content-Length: 5\r\n\r\n{}"
         + b"garbage\r\n\r\n" + session(closing)),
        ("before initialize", session(queries[:2] + closing)),
    ]
    cases = []
    for name, data in sessions:
        cases.append(lint("lsp", stdin=data, stdin_label=f"LSP session: {name}"))
    cases.append(lint("lsp", "--log-level", "debug", stdin=sessions[0][1], stdin_label="LSP session: queries"))
    cases.append(lint("lsp", "--stdio", "--log-level", "info", stdin=sessions[1][1], stdin_label="LSP session: edits"))
    return cases


def build_corpus(old_dir, data_dir):
    rules = rule_ids(old_dir)
    cases = lint_corpus(rules) + run_corpus() + lsp_corpus()
    if data_dir:
        cases += data_corpus(data_dir)
    unique, seen = [], set()
    for case in cases:
        if case.key() not in seen:
            seen.add(case.key())
            unique.append(case)
    return unique


# --------------------------------------------------------------------------
# Running


def base_environment():
    env = dict(os.environ)
    for key in OUTPUT_ENVIRONMENT:
        env.pop(key, None)
    return env


def make_sandbox(box):
    top = tempfile.mkdtemp(prefix="juice-compare-")
    os.chmod(top, 0o755)  # a run as nobody must reach its files
    for entry in box.copies:
        # A path relative to the root keeps its place; (SOURCE, PLACE) puts SOURCE at PLACE.
        source, rel = (entry[0], entry[1]) if isinstance(entry, tuple) else (os.path.join(ROOT, entry), entry)
        target = os.path.join(top, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(source) and not os.path.islink(source):
            shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target, follow_symlinks=False)
    for rel, data in box.files.items():
        target = os.path.join(top, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(data)
    for rel in box.fifos:
        target = os.path.join(top, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.mkfifo(target, 0o644)
    for rel, size in box.sparse.items():
        target = os.path.join(top, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.truncate(size)
    for base, dirs, _ in os.walk(top):
        for name in dirs:
            path = os.path.join(base, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o755)
    for rel, mode in box.modes.items():
        os.chmod(os.path.join(top, rel), mode)
    return top


def snapshot(top):
    """What a sandbox holds after a run: path -> a comparable description
    (type, mode, link target, size, content or its hash)."""
    tree = {}
    for base, dirs, names in os.walk(top):
        dirs.sort()
        for name in sorted(dirs + names):
            path = os.path.join(base, name)
            rel = os.path.relpath(path, top)
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                tree[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                tree[rel] = ("dir", oct(mode))
            elif stat.S_ISREG(info.st_mode):
                if info.st_size <= (4 << 20):
                    with open(path, "rb") as handle:
                        tree[rel] = ("file", oct(mode), handle.read())
                else:
                    digest = hashlib.sha256()
                    with open(path, "rb") as handle:
                        for chunk in iter(lambda: handle.read(1 << 20), b""):
                            digest.update(chunk)
                    tree[rel] = ("file", oct(mode), f"{info.st_size} bytes, sha256 {digest.hexdigest()}".encode())
            else:
                tree[rel] = ("special", oct(stat.S_IFMT(info.st_mode)), oct(mode))
    return tree


def remove_tree(top):
    for base, dirs, _ in os.walk(top):
        for name in dirs:
            path = os.path.join(base, name)
            if not os.path.islink(path):
                try:
                    os.chmod(path, 0o755)
                except OSError:
                    pass
    shutil.rmtree(top, ignore_errors=True)


@dataclass
class Outcome:
    stdout: bytes = b""
    stderr: bytes = b""
    code: object = None        # exit code, or a string for a timeout or a failure to start
    tree: dict = None
    seconds: float = 0.0


def prefilled_pipe(data):
    """The read end of a pipe that already holds all of `data` and its end,
    so a tool that reads in batches (the language server) sees the same
    batches on every run; None when the pipe cannot hold that much."""
    read_end, write_end = os.pipe()
    try:
        if len(data) > 60000:
            import fcntl
            fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), len(data) + 4096)
        os.set_blocking(write_end, False)
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
        os.close(write_end)
        return read_end
    except (OSError, ValueError):
        os.close(read_end)
        os.close(write_end)
        return None


def execute(case, tool_dir, timeout, nobody):
    binary = os.path.join(tool_dir, case.tool)
    env = base_environment()
    env.update(case.env)
    top = make_sandbox(case.sandbox) if case.sandbox is not None else None
    cwd = os.path.join(top, case.sandbox.cwd) if top else ROOT
    command = [binary] + case.args
    if case.as_nobody and nobody:
        command = nobody + command
    start = time.monotonic()
    outcome = Outcome()
    stdin, feed = subprocess.DEVNULL, None
    if case.stdin is not None:
        stdin = prefilled_pipe(case.stdin)
        if stdin is None:  # too big to hold: written while the tool reads
            stdin, feed = subprocess.PIPE, case.stdin
    try:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
    except OSError as error:
        outcome.code = f"could not start: {error}"
    else:
        try:
            outcome.stdout, outcome.stderr = process.communicate(feed, timeout=timeout)
            outcome.code = process.returncode
        except subprocess.TimeoutExpired:
            process.kill()
            outcome.stdout, outcome.stderr = process.communicate()
            outcome.code = f"TIMEOUT after {timeout:g} s"
    finally:
        if isinstance(stdin, int) and stdin >= 0:
            os.close(stdin)
    outcome.seconds = time.monotonic() - start
    if top:
        try:
            outcome.tree = snapshot(top)
        finally:
            remove_tree(top)
        # The one thing that differs between the two sandboxes is where they are.
        for spelling in {top, os.path.realpath(top)}:
            marker = spelling.encode()
            outcome.stdout = outcome.stdout.replace(marker, b"<SANDBOX>")
            outcome.stderr = outcome.stderr.replace(marker, b"<SANDBOX>")
            if outcome.tree:
                outcome.tree = {k: tuple(v.replace(marker, b"<SANDBOX>") if isinstance(v, bytes) else v for v in t)
                                for k, t in outcome.tree.items()}
    return outcome


def short(text):
    return text if len(text) <= DIFF_LINE_WIDTH else text[:DIFF_LINE_WIDTH] + f"... [{len(text)} chars]"


def byte_diff(old, new, label):
    """Where two byte strings first differ, then a short unified diff."""
    index = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = old.count(b"\n", 0, index) + 1
    column = index - (old.rfind(b"\n", 0, index) + 1) + 1
    lines = [f"    first difference at byte {index} (line {line}, column {column}); "
             f"old {len(old)} bytes, new {len(new)} bytes"]
    old_lines = old.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    new_lines = new.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    diff = list(difflib.unified_diff(old_lines, new_lines, f"old {label}", f"new {label}", n=1))
    if not diff:  # the same lines, so only line endings or an encoding detail differ
        window = slice(max(0, index - 40), index + 40)
        diff = [f"- {old[window]!r}\n", f"+ {new[window]!r}\n"]
    # A long changed line is shown from a little before where the first
    # removed and added lines part.
    removed = next((t for t in diff if t.startswith("-") and not t.startswith("---")), "")
    added = next((t for t in diff if t.startswith("+") and not t.startswith("+++")), "")
    common = len(os.path.commonprefix([removed[1:], added[1:]]))
    offset = max(0, common - 60)
    for text in diff[:DIFF_LINES]:
        text = text.rstrip("\n")
        if offset and len(text) > DIFF_LINE_WIDTH and text[:1] in "+-" and not text.startswith(("+++", "---")):
            text = text[0] + "..." + text[1 + offset:]
        lines.append("    " + short(text))
    if len(diff) > DIFF_LINES:
        lines.append(f"    ... ({len(diff) - DIFF_LINES} more diff lines)")
    return lines


def compare(case, old, new):
    """Mismatch lines (empty when the runs agree)."""
    what = case.describe()
    report = []
    for side, outcome in (("old", old), ("new", new)):
        if isinstance(outcome.code, str):
            report.append(f"FAIL {what}: {outcome.code} on the {side} build")
    if report:
        return report
    for stream in ("stdout", "stderr"):
        a, b = getattr(old, stream), getattr(new, stream)
        if a != b:
            report.append(f"FAIL {what}: {stream} differs")
            report += byte_diff(a, b, stream)
    if old.code != new.code:
        report.append(f"FAIL {what}: exit code differs: old {old.code}, new {new.code}")
    if old.tree != new.tree:
        for path in sorted(set(old.tree) | set(new.tree)):
            a, b = old.tree.get(path), new.tree.get(path)
            if a == b:
                continue
            if a is None or b is None:
                report.append(f"FAIL {what}: file {path} exists only after the {'new' if a is None else 'old'} build")
            elif a[0] == b[0] == "file" and a[2] != b[2]:
                report.append(f"FAIL {what}: file {path} differs")
                report += byte_diff(a[2], b[2], path)
            else:
                report.append(f"FAIL {what}: file {path} differs: old {a[:2]}, new {b[:2]}")
    return report


def nobody_prefix():
    """How to run as nobody: setpriv when root, nothing otherwise (then an
    unreadable file is unreadable anyway)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if not setpriv:
        return []
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]


def check_tools(directory, name):
    if not directory:
        return f"--{name} is required (a folder with juice-lint and juice-run)"
    for tool in TOOLS:
        path = os.path.join(directory, tool)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"--{name} {directory}: no executable {tool}"
    return None


def main():
    parser = argparse.ArgumentParser(
        description="Run two builds of juice-lint and juice-run over a large corpus and check that stdout, "
                    "stderr, exit codes and written files are byte-identical.")
    parser.add_argument("--old", metavar="DIR", help="folder with the reference juice-lint and juice-run")
    parser.add_argument("--new", metavar="DIR", help="folder with the juice-lint and juice-run under test")
    parser.add_argument("--data", metavar="DIR", help="also run the benchmark books and order files found in DIR "
                                                      "(Benchmarks/generate.py writes them to .build/bench-data)")
    parser.add_argument("--list", action="store_true", help="print the corpus, one run a line, and exit")
    parser.add_argument("--jobs", type=int, default=max(2, min(8, (os.cpu_count() or 2) * 2)),
                        help="runs in flight at once (default: twice the cores, 2 to 8)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a run may take (default 60)")
    parser.add_argument("--filter", metavar="TEXT", help="only runs whose command line contains TEXT")
    args = parser.parse_args()

    if args.data and not os.path.isdir(args.data):
        print(f"compare_outputs: --data {args.data}: no such folder", file=sys.stderr)
        return 2
    if not args.list:
        for name in ("old", "new"):
            problem = check_tools(getattr(args, name), name)
            if problem:
                print(f"compare_outputs: {problem}", file=sys.stderr)
                return 2
    old_dir = os.path.abspath(args.old) if args.old else None
    new_dir = os.path.abspath(args.new) if args.new else None

    cases = build_corpus(old_dir, args.data)
    if args.filter:
        cases = [c for c in cases if args.filter in c.describe()]
    if args.list:
        for case in cases:
            print(case.describe())
        print(f"{len(cases)} runs", file=sys.stderr)
        return 0

    nobody = nobody_prefix()
    started = time.monotonic()
    printing = threading.Lock()

    def one(case):
        old = execute(case, old_dir, args.timeout, nobody)
        new = execute(case, new_dir, args.timeout, nobody)
        return compare(case, old, new), old.seconds + new.seconds, old.code

    passed = failed = 0
    slowest = []
    codes = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [(case, pool.submit(one, case)) for case in cases]
        for case, future in futures:  # in corpus order, so the report reads the same every time
            report, seconds, code = future.result()
            slowest.append((seconds, case.describe()))
            codes[(case.tool, code)] = codes.get((case.tool, code), 0) + 1
            if report:
                failed += 1
                with printing:
                    print("\n".join(report), flush=True)
            else:
                passed += 1
    elapsed = time.monotonic() - started
    slowest.sort(reverse=True)
    if slowest:
        print(f"compared {len(cases)} runs in {elapsed:.1f} s with {args.jobs} jobs; slowest pair "
              f"{slowest[0][0]:.2f} s: {short(slowest[0][1])}", file=sys.stderr)
        for tool in TOOLS:
            spread = ", ".join(f"{code}: {count}" for (name, code), count in sorted(codes.items(), key=str)
                               if name == tool)
            if spread:
                print(f"{tool} exit codes (old build): {spread}", file=sys.stderr)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
