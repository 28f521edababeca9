#!/usr/bin/env python3
"""Writes the hostile-input corpus and its manifest, cases.json.

Run from anywhere: `python3 Tests/Fixtures/hostile/generate.py`. The output is
deterministic and committed; this script is how each file was made and is the
place to add a case. Every case names the tool that reads it, its arguments
(relative to this folder), the exit code and what must be reported:

- `rule@LINE` for each juice-lint diagnostic (all of them, as a multiset), or
  `clean` when there must be none;
- `skip@LINE` for each script line juice-run must skip, or `clean`;
- `stderr` (optional): text standard error must contain.

Tests/EndToEndTests/HostileCorpusTests.swift runs every case on the built
binaries; Benchmarks/hostile-timing.py times every case on the release build.
"""
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
cases = []

# A small valid book that the number and tag cases put one bad value into.
FRUITS = "fruits:\n  mango:\n  kiwi:\n"
STOCK = "stock:\n  mango: 10\n  kiwi: 10\n"
MENU = "menu:\n  mango-juice:\n    recipe: { mango: 2, kiwi: 1 }\n"
BOOK = FRUITS + STOCK + MENU


def write(path, data):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.islink(full):
        os.remove(full)
    with open(full, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def symlink(path, target):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if os.path.lexists(full):
        os.remove(full)
    os.symlink(target, full)


def lint(name, path, data, exit, expect, about, args=None, stderr=None, **extra):
    if data is not None:
        write(path, data)
    case = {"name": name, "tool": "lint", "args": args or [path], "exit": exit, "expect": expect, "about": about}
    if stderr:
        case["stderr"] = stderr
    case.update(extra)
    cases.append(case)


def run(name, path, data, exit, expect, about):
    write(path, data)
    cases.append({"name": name, "tool": "run", "args": [path], "exit": exit, "expect": expect, "about": about})


# --- Encodings -------------------------------------------------------------
lint("tabs", "encoding/tabs.yaml", "fruits:\n\tmango:\n", 1, ["yaml-syntax@2"], "a tab where YAML wants spaces")
lint("crlf", "encoding/crlf.yaml", BOOK.replace("\n", "\r\n"), 0, ["clean"], "CRLF line endings")
lint("lone-cr", "encoding/lone-cr.yaml", BOOK.replace("\n", "\r"), 0, ["clean"], "old Mac CR-only line endings")
lint("lone-cr-error", "encoding/lone-cr-error.yaml", (BOOK + "  lime-juice:\n    recipe: { lime: 1 }\n").replace("\n", "\r"),
     1, ["unknown-fruit@11"], "a mistake on the 11th CR-ended line is reported on line 11")
lint("bom-utf8", "encoding/bom-utf8.yaml", b"\xef\xbb\xbf" + BOOK.encode(), 0, ["clean"], "a UTF-8 byte-order mark")
lint("utf16le", "encoding/utf16le.yaml", BOOK.encode("utf-16"), 0, ["clean"], "UTF-16 little-endian with a BOM")
lint("utf16be", "encoding/utf16be.yaml", b"\xfe\xff" + BOOK.encode("utf-16-be"), 0, ["clean"], "UTF-16 big-endian with a BOM")
lint("utf16-error", "encoding/utf16-error.yaml", (BOOK + "  lime-juice:\n    recipe: { lime: 1 }\n").encode("utf-16"),
     1, ["unknown-fruit@11"], "a UTF-16 file's mistake is located like any other")
lint("invalid-utf8", "encoding/invalid-utf8.yaml", b'fruits:\n  mango: { label: "\xff\xfe" }\n', 1, ["yaml-syntax@2"],
     "bytes that are not UTF-8")
lint("overlong-utf8", "encoding/overlong-utf8.yaml", b"fruits:\n  mango:\n  \xc0\xaf:\n", 1, ["yaml-syntax@3"],
     "an overlong UTF-8 encoding of '/'")
lint("nul-bytes", "encoding/nul-bytes.yaml", b"fruits:\n  mango:\n  ki\x00wi:\n", 1, ["yaml-syntax@3"], "a NUL byte inside a key")
lint("binary", "encoding/binary.yaml", bytes(range(256)), 1, ["yaml-syntax@1"], "every byte value, in order")
lint("escape-sequences", "encoding/escape-sequences.yaml",
     FRUITS.replace("  mango:\n", '  mango: { label: "\\e[31mred\\u0007" }\n') + STOCK + MENU, 0, ["clean"],
     "terminal escapes in a label are data, not commands (the printers neutralise them)")

# --- Empty input -----------------------------------------------------------
lint("empty", "empty/empty.yaml", "", 0, ["clean"], "an empty file")
lint("only-comments", "empty/only-comments.yaml", "# nothing here\n# nor here\n", 0, ["clean"], "comments only")
lint("only-document-marker", "empty/only-document-marker.yaml", "---\n", 0, ["clean"], "a lone '---'")
lint("only-document-end", "empty/only-document-end.yaml", "...\n", 1, ["yaml-syntax@1"],
     "a lone '...', which libyaml rejects: there is no document to end")
lint("only-whitespace", "empty/only-whitespace.yaml", "\n\n   \n\n", 0, ["clean"], "blank lines only")
lint("null-document", "empty/null-document.yaml", "~\n", 0, ["clean"], "a document that is just null")
lint("scalar-document", "empty/scalar-document.yaml", "just some text\n", 1, ["invalid-type@1"], "a document that is a scalar")

# --- Numbers, as amounts (line 9) and as stock (line 5) --------------------
numbers = [
    ("minus-zero", "-0", "invalid-amount", "invalid-amount"),
    ("plus-three", "+3", "invalid-amount", "invalid-amount"),
    ("leading-zeros", "007", "invalid-amount", "invalid-amount"),
    ("exponent", "1e3", "invalid-amount", "invalid-amount"),
    ("infinity", ".inf", "invalid-amount", "invalid-amount"),
    ("not-a-number", ".nan", "invalid-amount", "invalid-amount"),
    ("twenty-digits", "12345678901234567890", "invalid-amount", "invalid-amount"),
    ("int-max", "9223372036854775807", None, None),
    ("int-max-plus-one", "9223372036854775808", "invalid-amount", "invalid-amount"),
    ("hex", "0x10", "invalid-amount", "invalid-amount"),
    ("underscore", "1_000", "invalid-amount", "invalid-amount"),
]
for name, text, amount_rule, stock_rule in numbers:
    book = FRUITS + "stock:\n  mango: 10\n  kiwi: 10\n" + "menu:\n  mango-juice:\n    recipe: { mango: %s, kiwi: 1 }\n" % text
    # Int.max of mango can never be made from 10: an info, not an error.
    expect = [amount_rule + "@9"] if amount_rule else ["never-makeable@8"]
    lint("amount-" + name, "numbers/amount-%s.yaml" % name, book, 1 if amount_rule else 0, expect,
         "%s as a recipe amount" % text)
    book = FRUITS + "stock:\n  mango: %s\n  kiwi: 10\n" % text + MENU
    # A rejected stock count leaves mango's stock unknown, not 0: mango-juice
    # is not reported never makeable, which would follow only from the error.
    lint("stock-" + name, "numbers/stock-%s.yaml" % name, book, 1 if stock_rule else 0,
         [stock_rule + "@5"] if stock_rule else ["clean"], "%s as a stock count" % text)
lint("amount-overflow", "numbers/amount-overflow.yaml",
     FRUITS + STOCK + "recipes:\n  double: { mango: 9223372036854775807 }\n"
     + "menu:\n  big-juice:\n    recipe: { double: 2, kiwi: 1 }\n", 1, ["amount-overflow@11"],
     "Int.max twice over, through a recipe: too large to flatten")
lint("price-negative", "numbers/price-negative.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    price: -1\n    recipe: { mango: 2, kiwi: 1 }\n", 1, ["negative-amount@9"],
     "a negative price")

# --- Nesting and size ------------------------------------------------------
lint("nesting-10000", "size/nesting-10000.yaml", "[" * 10000 + "]" * 10000 + "\n", 1, ["resource-limit@1"],
     "10,000 nested flow sequences")
lint("nesting-300-block", "size/nesting-300-block.yaml", "".join("%sk%d:\n" % (" " * i, i) for i in range(300)),
     1, ["resource-limit@65"], "300 nested block mappings, one a line: the 65th level is refused")
megabyte = 1_000_000
lint("scalar-1mb", "size/scalar-1mb.yaml",
     FRUITS.replace("  mango:\n", "  mango: { label: \"%s\" }\n" % ("m" * megabyte)) + STOCK + MENU, 1, ["resource-limit@2"],
     "a 1 MB label")
lint("key-1mb", "size/key-1mb.yaml", FRUITS + "  ? %s\n  :\n" % ("k" * megabyte) + STOCK + MENU, 1, ["resource-limit@4"],
     "a 1 MB key, written as an explicit '?' key")
lint("key-1mb-implicit", "size/key-1mb-implicit.yaml", FRUITS + "  %s:\n" % ("k" * megabyte) + STOCK + MENU, 1,
     ["yaml-syntax@4"], "a 1 MB implicit key: libyaml allows 1,024 characters before the ':'")
lint("scalar-64k", "size/scalar-64k.yaml",
     FRUITS.replace("  mango:\n", "  mango: { label: \"%s\" }\n" % ("m" * 65536)) + STOCK + MENU, 0, ["clean"],
     "a label of exactly 65,536 bytes, the largest allowed")
menu = "".join("  juice-%d:\n    recipe: { mango: 1 }\n" % i for i in range(100_000))
lint("keys-100000", "size/keys-100000.yaml", "fruits:\n  mango:\nstock:\n  mango: 10\nmenu:\n" + menu, 0, ["clean"],
     "a menu mapping with 100,000 keys")

# --- Aliases -----------------------------------------------------------------
laughs = "".join("l%d: &l%d [%s]\n" % (i, i, ", ".join(["*l%d" % (i - 1)] * 10 if i else ["lol"] * 10)) for i in range(10))
lint("billion-laughs", "aliases/billion-laughs.yaml", laughs, 1, ["resource-limit@6"],
     "the billion-laughs bomb: ten levels of ten aliases each")
lint("undefined-alias", "aliases/undefined-alias.yaml", FRUITS + "stock:\n  mango: *ten\n  kiwi: 10\n" + MENU, 1,
     ["yaml-syntax@5"], "an alias to an anchor that does not exist")
lint("anchor-across-documents", "aliases/anchor-across-documents.yaml",
     FRUITS + "stock:\n  mango: &ten 10\n  kiwi: 10\n---\nmenu:\n  mango-juice:\n    recipe: { mango: *ten, kiwi: 1 }\n",
     1, ["yaml-syntax@10"], "an anchor from the first document used in the second")
lint("merge-scalar", "aliases/merge-scalar.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    <<: 3\n    recipe: { mango: 2, kiwi: 1 }\n", 1, ["invalid-type@9"],
     "a '<<' merge of a scalar")
lint("merge-sequence-of-scalars", "aliases/merge-sequence-of-scalars.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    <<: [1, 2]\n    recipe: { mango: 2, kiwi: 1 }\n", 1,
     ["invalid-type@9", "invalid-type@9"], "a '<<' merge of a list of scalars")
lint("alias-inside-itself", "aliases/alias-inside-itself.yaml", "a: &a [1, *a]\n", 1, ["yaml-syntax@1"],
     "an alias inside the node it names")
lint("merge-ok", "aliases/merge-ok.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice: &m\n    recipe: { mango: 2, kiwi: 1 }\n  mango-juice-2:\n    <<: *m\n    label: Two\n",
     0, ["clean"], "a well-formed merge, which is allowed")

# --- Tags ------------------------------------------------------------------------
lint("tag-binary", "tags/tag-binary.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    recipe: { mango: !!binary AAE=, kiwi: 1 }\n", 1, ["invalid-amount@9"],
     "a !!binary amount")
lint("tag-custom", "tags/tag-custom.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    recipe: { mango: !custom 2, kiwi: 1 }\n", 1, ["invalid-amount@9"],
     "an application tag on an amount")
lint("tag-int-quoted", "tags/tag-int-quoted.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    recipe: { mango: !!int \"12\", kiwi: 1 }\n", 0, ["never-makeable@8"],
     "!!int \"12\" is the number 12 (more mango than the stock holds)")
lint("tag-on-mapping", "tags/tag-on-mapping.yaml", "fruits: !!set { mango, kiwi }\n" + STOCK + MENU, 0, ["clean"],
     "a !!set tag on the fruits mapping: its shape is what counts")
lint("tag-str-key", "tags/tag-str-key.yaml", "fruits:\n  !!str mango:\n  kiwi:\n" + STOCK + MENU, 0, ["clean"],
     "a !!str key")

# --- Documents --------------------------------------------------------------------
docs = "---\n" + FRUITS + STOCK + "".join("---\nmenu:\n  juice-%d:\n    recipe: { mango: 1, kiwi: 1 }\n" % i for i in range(1000))
lint("documents-1000", "documents/documents-1000.yaml", docs, 0, ["clean"], "1,000 documents in one file")
lint("document-ends", "documents/document-ends.yaml",
     "---\n" + FRUITS + "...\n---\n" + STOCK + "...\n---\n" + MENU + "...\n", 0, ["clean"], "'...' ends each document")
lint("bad-document-then-good", "documents/bad-document-then-good.yaml",
     "---\n" + FRUITS + STOCK + "---\nmenu:\n  broken: *nowhere\n---\n" + MENU, 1, ["yaml-syntax@10"],
     "a broken document is dropped; the ones after it still count")
lint("directive", "documents/directive.yaml", "%YAML 1.1\n---\n" + BOOK, 0, ["clean"], "a %YAML directive")
lint("bad-directive", "documents/bad-directive.yaml", "%YAML 9.9\n---\n" + BOOK, 1, ["yaml-syntax@1"],
     "a %YAML version libyaml does not know")

# --- Duplicates at every level ---------------------------------------------------------
lint("duplicate-top-level", "duplicates/top-level.yaml", BOOK + "fruits:\n  lime:\n", 1, ["duplicate-key@10"],
     "a second 'fruits:' section in one document")
lint("duplicate-fruit", "duplicates/fruit.yaml", FRUITS + "  mango:\n" + STOCK + MENU, 1, ["duplicate-key@4"],
     "a fruit declared twice in one mapping")
lint("duplicate-fruit-field", "duplicates/fruit-field.yaml",
     "fruits:\n  mango: { label: A, label: B }\n  kiwi:\n" + STOCK + MENU, 1, ["duplicate-key@2"], "a fruit's label twice")
lint("duplicate-stock", "duplicates/stock.yaml", FRUITS + STOCK + "  mango: 3\n" + MENU, 1, ["duplicate-key@7"],
     "a stock entry twice")
lint("duplicate-menu-item", "duplicates/menu-item.yaml", BOOK + "  mango-juice:\n    recipe: { kiwi: 1 }\n", 1,
     ["duplicate-key@10"], "a menu item twice")
lint("duplicate-ingredient", "duplicates/ingredient.yaml",
     FRUITS + STOCK + "menu:\n  mango-juice:\n    recipe: { mango: 2, kiwi: 1, mango: 3 }\n", 1, ["duplicate-key@9"],
     "an ingredient twice")
lint("duplicate-across-documents", "duplicates/across-documents.yaml", BOOK + "---\nfruits:\n  mango:\n", 1,
     ["duplicate-definition@12"], "a fruit defined in two documents")

# --- Paths ------------------------------------------------------------------------------------
write("paths/symlink-loop/book.yaml", BOOK)
symlink("paths/symlink-loop/loop.yaml", "loop.yaml")
lint("symlink-loop", None, None, 2, [], "a symlink to itself inside a recipes directory",
     args=["paths/symlink-loop"], stderr="loop.yaml")
write("paths/dangling-symlink/book.yaml", BOOK)
symlink("paths/dangling-symlink/gone.yaml", "no-such-file.yaml")
lint("dangling-symlink", None, None, 2, [], "a symlink to nothing inside a recipes directory",
     args=["paths/dangling-symlink"], stderr="gone.yaml")
write("paths/directory-loop/book.yaml", BOOK)
symlink("paths/directory-loop/again", ".")
lint("directory-symlink-loop", None, None, 0, ["clean"], "a directory symlink back to its parent: each file read once",
     args=["paths/directory-loop"])
write("paths/directory-named-yaml/book.yaml", BOOK)
write("paths/directory-named-yaml/x.yaml/inner.txt", "not a recipe\n")
lint("directory-named-yaml", None, None, 0, ["clean"], "a directory named x.yaml is walked, not read as a file",
     args=["paths/directory-named-yaml"])
lint("directory-named-yaml-direct", None, None, 2, [], "a directory named x.yaml given directly has no recipe files",
     args=["paths/directory-named-yaml/x.yaml"], stderr="x.yaml")
write("paths/twice/book.yaml", BOOK)
lint("path-twice", None, None, 0, ["clean"], "the same file given twice is read once",
     args=["paths/twice/book.yaml", "paths/twice/book.yaml"])
lint("path-twice-spelled-differently", None, None, 0, ["clean"], "the same file through its folder and by name",
     args=["paths/twice", "paths/twice/./book.yaml"])
write("paths/unreadable/book.yaml", BOOK)
lint("unreadable", None, None, 2, [], "a file the user may not read (made unreadable by the test, run as 'nobody' when root)",
     args=["paths/unreadable/book.yaml"], stderr="book.yaml", unreadable=True)
lint("missing", None, None, 2, [], "a path that does not exist", args=["paths/no-such-file.yaml"], stderr="no-such-file.yaml")

# --- Recipes -------------------------------------------------------------------------------------
fruits = "".join("  f%d:\n" % i for i in range(10_000))
stock = "".join("  f%d: 1\n" % i for i in range(10_000))
recipe = ", ".join("f%d: 1" % i for i in range(10_000))
lint("ingredients-10000", "recipes/ingredients-10000.yaml",
     "fruits:\n" + fruits + "stock:\n" + stock + "menu:\n  everything:\n    recipe: { %s }\n" % recipe, 0, ["clean"],
     "a menu item of 10,000 ingredients")
chain = "".join("  r%d: { %s: 1 }\n" % (i, "mango" if i == 0 else "r%d" % (i - 1)) for i in range(10_000))
lint("chain-10000", "recipes/chain-10000.yaml",
     "fruits:\n  mango:\nstock:\n  mango: 10\nrecipes:\n" + chain + "menu:\n  deep-juice:\n    recipe: { r9999: 1 }\n",
     0, ["clean"], "a chain of recipes 10,000 deep")
cycle = "".join("  r%d: { r%d: 1 }\n" % (i, (i + 1) % 10_000) for i in range(10_000))
lint("cycle-10000", "recipes/cycle-10000.yaml",
     "fruits:\n  mango:\nstock:\n  mango: 10\nrecipes:\n" + cycle + "menu:\n  loop-juice:\n    recipe: { r0: 1, mango: 1 }\n",
     1, ["recipe-cycle@10005"], "a cycle through 10,000 recipes, reported once, where it closes")
doubling = "".join("  d%d: { %s: 2 }\n" % (i, "mango" if i == 0 else "d%d" % (i - 1)) for i in range(100))
lint("doubling-100", "recipes/doubling-100.yaml",
     "fruits:\n  mango:\nstock:\n  mango: 10\nrecipes:\n" + doubling + "menu:\n  huge-juice:\n    recipe: { d99: 1 }\n",
     1, ["amount-overflow@68"], "2^100 mangoes through 100 doubling recipes: reported at d62, the first past Int.max")
# m(i) = a(i) + b(i), each of which is m(i-1): 2^i paths from m(i) down to mango.
diamond = "  m0: { mango: 1 }\n" + "".join(
    "  a%d: { m%d: 1 }\n  b%d: { m%d: 1 }\n  m%d: { a%d: 1, b%d: 1 }\n" % (i, i - 1, i, i - 1, i, i, i) for i in range(1, 70))
lint("diamonds-69", "recipes/diamonds-69.yaml",
     FRUITS + STOCK + "recipes:\n" + diamond + "menu:\n  wide-juice:\n    recipe: { m69: 1, kiwi: 1 }\n",
     1, ["amount-overflow@197"], "69 stacked diamonds: 2^69 paths, which must not be walked one by one (m63 is the first past Int.max)")
lint("self-recipe", "recipes/self-recipe.yaml", FRUITS + STOCK + "menu:\n  mango-juice:\n    recipe: { mango-juice: 1 }\n",
     1, ["recipe-cycle@9"], "a menu item made of itself")

# --- Scripts (run against the canonical recipes/) -------------------------------------------------
run("script-1mb-line", "scripts/line-1mb.orders", "banana-juice\n" + "b" * megabyte + "\nbanana-juice\n", 1, ["skip@2"],
    "a 1 MB line between two good orders")
run("script-2mb-line", "scripts/line-2mb.orders", "banana-juice\n" + "b" * (2 * megabyte) + "\nbanana-juice\n", 1,
    ["skip@2"], "a line longer than the 1 MiB bound")
run("script-repeat-1e30", "scripts/repeat-1e30.orders", "banana-juice x1000000000000000000000000000000\n", 1, ["skip@1"],
    "x10^30")
run("script-repeat-zero", "scripts/repeat-zero.orders", "banana-juice x0\nbanana-juice x-1\n", 1, ["skip@1", "skip@2"],
    "x0 and x-1")
run("script-restock-overflow", "scripts/restock-overflow.orders",
    "restock banana 99999999999999999999\nrestock banana 9223372036854775807\nrestock banana 9223372036854775807\n", 1,
    ["skip@1", "skip@2", "skip@3"], "a restock N past Int.max, and restocks that would take the stock past it")
run("script-set-negative", "scripts/set-negative.orders", "set banana -1\nset banana 5\n", 1, ["skip@1"], "set to -1")
run("script-unknown-commands", "scripts/unknown-commands.orders",
    "make banana-juice\nbanana-juice please\nrestock\nset banana\nstock now\nrm -rf /\n", 1,
    ["skip@1", "skip@2", "skip@3", "skip@4", "skip@5", "skip@6"], "commands that do not exist or are malformed")
run("script-nul-bytes", "scripts/nul-bytes.orders", b"banana-juice\nbanana\x00-juice\n\x00\n", 1,
    ["skip@2", "skip@3"], "NUL bytes inside lines")
run("script-invalid-utf8", "scripts/invalid-utf8.orders", b"banana-juice\nbanana-juice\xff\n",
    1, ["skip@2"], "a line that is not UTF-8")
run("script-crlf", "scripts/crlf.orders", "banana-juice\r\nrestock banana 3\r\nstock\r\n", 0, ["clean"], "CRLF line endings")
run("script-empty", "scripts/empty.orders", "", 0, ["clean"], "an empty script")
run("script-comments", "scripts/comments.orders", "# nothing\n\n   # still nothing\n", 0, ["clean"], "comments and blank lines")

with open(os.path.join(HERE, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1, ensure_ascii=False)
    f.write("\n")
print("%d cases" % len(cases))
