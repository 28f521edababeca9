# juice-maker: `make run` shows the shop working, `make test` runs every test,
# `make bench` runs the benchmark suite (Benchmarks/README.md).
# All install libyaml first when pkg-config cannot find it.

SWIFT ?= swift
PKG_CONFIG ?= pkg-config
BIN = .build/debug
SAMPLE = docs/examples/first-morning.orders

.PHONY: all setup build run test clean graph bench bench-setup

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

build: setup
	$(SWIFT) build --build-tests

run: build
	@echo
	@echo "== juice-lint recipes"
	@$(BIN)/juice-lint recipes
	@echo
	@echo "== juice-run $(SAMPLE)"
	@$(BIN)/juice-run --recipes recipes $(SAMPLE)

test: build
	$(SWIFT) test --skip-build
	$(BIN)/juice-lint --strict recipes

clean:
	rm -rf .build

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

# The references are C, built with cc -O2: install a compiler when there is none.
bench-setup:
	@if command -v $(CC) >/dev/null 2>&1; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing gcc with apt-get"; \
	  $$SUDO apt-get update -qq && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev; \
	else \
	  echo "error: no C compiler ($(CC)); install one with your package manager" >&2; exit 1; \
	fi
