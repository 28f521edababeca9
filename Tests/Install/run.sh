#!/usr/bin/env bash
# `make install` and `make uninstall` checked from the outside, in a
# temporary DESTDIR that already holds a bit of a /usr/local (a bin folder,
# someone else's man page, an empty zsh folder), as a real one would:
#   Tests/Install/run.sh            (make install-test builds first)
# Checks: exactly the expected files land, in the places each tool looks;
# the installed binaries run, lint the canonical book and need no Swift
# runtime; man finds and renders every page with no warning; bash sources
# each completion file and completes with it; zsh and fish parse theirs where
# they are installed; a second install changes nothing; uninstall leaves the
# tree exactly as it was. Ends with "install: N passed, N failed".
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 1
make=${MAKE:-make}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/juice-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
root=$tmp/root
prefix=/usr/local
dest=$root$prefix

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1" >&2; }
# check NAME COMMAND...: passes when COMMAND exits 0; its output shows on failure.
check() {
  local name=$1
  shift
  if "$@" > "$tmp/out" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/  | /' "$tmp/out" >&2; fi
}
# same TEXT-NAME EXPECTED ACTUAL
same() {
  if [ "$2" = "$3" ]; then pass "$1"; else
    fail "$1"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | sed 's/^/  | /' >&2
  fi
}
# The whole tree, files with their checksums and modes, for before/after.
snapshot() { (cd "$root" && find . -exec ls -ld --time-style=+ {} + | awk '{print $1, $NF}' | LC_ALL=C sort && find . -type f -exec cksum {} + | LC_ALL=C sort); }

mkdir -p "$dest/bin" "$dest/share/man/man1" "$dest/share/zsh"
printf '.TH OTHER 1\n' > "$dest/share/man/man1/other.1"
snapshot > "$tmp/before"

if ! "$make" --no-print-directory install DESTDIR="$root" PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
  fail "make install DESTDIR=$root PREFIX=$prefix"; tail -20 "$tmp/install.log" >&2
  echo "install: $passed passed, $failed failed"; exit 1
fi
pass "make install DESTDIR=... PREFIX=$prefix"

man_pages="juice-lint.1 juice-lint.explain.1 juice-lint.graph.1 juice-lint.help.1 juice-lint.lint.1 juice-lint.lsp.1 juice-lint.rules.1 juice-run.1 juice-run.buy.1 juice-run.help.1 juice-run.menu.1 juice-run.plan.1 juice-run.replay.1"
expected_files=$(
  printf '%s\n' bin/juice-lint bin/juice-run \
    share/bash-completion/completions/juice-lint share/bash-completion/completions/juice-run \
    share/zsh/site-functions/_juice-lint share/zsh/site-functions/_juice-run \
    share/fish/vendor_completions.d/juice-lint.fish share/fish/vendor_completions.d/juice-run.fish \
    share/juice-maker/install-manifest
  for p in $man_pages; do echo "share/man/man1/$p"; done
)
expected_files=$(echo "$expected_files" | LC_ALL=C sort)
same "installed files" "$expected_files" \
  "$(cd "$dest" && find . -type f ! -path ./share/man/man1/other.1 | sed 's|^\./||' | LC_ALL=C sort)"
# The manifest: every file, and only the directories install made (not bin,
# share, share/man, share/man/man1 or share/zsh, which were there).
same "install manifest" "$(printf '%s\n' "$expected_files" \
    share/bash-completion/ share/bash-completion/completions/ share/fish/ share/fish/vendor_completions.d/ \
    share/juice-maker/ share/zsh/site-functions/ | LC_ALL=C sort)" \
  "$(cat "$dest/share/juice-maker/install-manifest" 2>&1)"
same "modes" "$(printf '%s\n' "$expected_files" | sed 's|^bin/.*|-rwxr-xr-x &|; t; s|^|-rw-r--r-- |')" \
  "$(cd "$dest" && for f in $expected_files; do ls -l "$f" | awk '{print $1, $NF}'; done)"

# The binaries: the version in the sources, the canonical book, a broken book.
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/JuiceSupport/Version.swift)
for t in juice-lint juice-run; do
  same "$t --version" "$version" "$("$dest/bin/$t" --version 2>&1)"
done
"$dest/bin/juice-lint" --strict recipes > "$tmp/lint.out" 2> "$tmp/lint.err"
same "juice-lint --strict recipes: exit code" 0 $?
same "juice-lint --strict recipes: summary" "files: 2, errors: 0, warnings: 0, infos: 1" "$(cat "$tmp/lint.err")"
mkdir -p "$tmp/broken"
cp recipes/fruits.yaml recipes/menu.yaml "$tmp/broken/"
sed -i.orig 's/mango: 2/mangoo: 2/' "$tmp/broken/menu.yaml"
rm -f "$tmp/broken/menu.yaml.orig"
"$dest/bin/juice-lint" --format json "$tmp/broken" > "$tmp/broken.out" 2> /dev/null
same "juice-lint on a broken book: exit code" 1 $?
check "juice-lint on a broken book: unknown-fruit 'mangoo' at menu.yaml:26:15" \
  grep -q '"file":"'"$tmp"'/broken/menu.yaml","line":26,"column":15,[^}]*"rule":"unknown-fruit","message":"unknown fruit '"'"'mangoo'"'"'"' \
  "$tmp/broken.out"
check "juice-run on docs/examples/first-morning.orders" \
  "$dest/bin/juice-run" --recipes recipes docs/examples/first-morning.orders
# The README promises libyaml and nothing else beyond libc and the C++ runtime.
if [ "$(uname -s)" = Linux ]; then
  for t in juice-lint juice-run; do
    libraries=$(ldd "$dest/bin/$t" | awk '/=>/ {print $1}' | sed 's/\.so.*//' | LC_ALL=C sort | tr '\n' ' ')
    same "$t links only libyaml and the C/C++ runtime" "libc libgcc_s libm libstdc++ libyaml-0 " "$libraries"
  done
fi

# Man pages: found by name under share/man as `man juice-lint` would, and
# rendered with every groff warning on, which must stay silent.
for p in $man_pages; do
  name=${p%.1}
  same "man -w $name" "$dest/share/man/man1/$p" "$(man -M "$dest/share/man" -w "$name" 2>&1)"
  if MANWIDTH=80 MANPAGER=cat man --warnings -l "$dest/share/man/man1/$p" > "$tmp/man.out" 2> "$tmp/man.err" \
    && [ ! -s "$tmp/man.err" ] && grep -q "^NAME" "$tmp/man.out" && grep -q "$name" "$tmp/man.out"; then
    pass "man -l $p"
  else
    fail "man -l $p"; sed 's/^/  | /' "$tmp/man.err" >&2
  fi
done
# generate-manual drops every non-ASCII character from help text (1.8.2), so
# a man page would silently lose it: keep the help ASCII.
for t in juice-lint juice-run; do
  if "$dest/bin/$t" --experimental-dump-help | LC_ALL=C grep -q "$(printf '[\200-\377]')"; then
    fail "$t help text is ASCII"
  else
    pass "$t help text is ASCII"
  fi
done
# The line that lost its leading apostrophe to troff before the sed in the Makefile.
same "juice-lint.1 keeps 'juice-lint help lint'" 1 \
  "$(MANWIDTH=200 MANPAGER=cat man -l "$dest/share/man/man1/juice-lint.1" 2>/dev/null | grep -c "'juice-lint help lint'")"

# bash: source each file in a shell with no startup files, then ask the
# registered function to complete, as readline would.
bash_complete() { # FILE COMMAND-LINE: prints the candidates, one a line
  bash --norc --noprofile -c '
    source "$1" || exit 1
    spec=$(complete -p "${2%% *}") || exit 1
    function=${spec#*-F }; function=${function%% *}
    COMP_LINE=$2; COMP_POINT=${#COMP_LINE}
    read -r -a COMP_WORDS <<< "$COMP_LINE"
    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    "$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"' bash "$@"
}
completions=$dest/share/bash-completion/completions
for t in juice-lint juice-run; do
  check "bash sources $t's completion and registers it" \
    bash --norc --noprofile -c 'source "$1" && complete -p "$2"' bash "$completions/$t" "$t"
done
same "bash completes 'juice-lint ex'" "explain" "$(bash_complete "$completions/juice-lint" "juice-lint ex" 2>&1)"
same "bash completes 'juice-lint graph --format '" "$(printf 'mermaid\ndot')" \
  "$(bash_complete "$completions/juice-lint" "juice-lint graph --format " 2>&1)"
# The replay is juice-run's default subcommand; bash completes its options
# under its name (swift-argument-parser completes only the root's at the top).
same "bash completes 'juice-run pl'" "plan" "$(bash_complete "$completions/juice-run" "juice-run pl" 2>&1)"
same "bash completes 'juice-run replay --reci'" "--recipes" "$(bash_complete "$completions/juice-run" "juice-run replay --reci" 2>&1)"
same "bash completes 'juice-run plan --orders-'" "--orders-per-day" "$(bash_complete "$completions/juice-run" "juice-run plan --orders-" 2>&1)"

# Each shell's own loader, where it is installed, finds the file where it
# was put: bash-completion and fish search $XDG_DATA_DIRS, zsh its $fpath.
if [ -f /usr/share/bash-completion/bash_completion ]; then
  same "bash-completion loads juice-lint's from PREFIX/share" "complete -o filenames -F _juice-lint juice-lint" \
    "$(XDG_DATA_DIRS=$dest/share bash --norc --noprofile -c \
      'source /usr/share/bash-completion/bash_completion && __load_completion juice-lint && complete -p juice-lint' 2>&1)"
else
  echo "skip: bash-completion is not installed, its loader not tried"
fi

# zsh and fish: non-empty, parsed and loaded where the shell is installed.
for t in juice-lint juice-run; do
  check "zsh completion for $t is not empty" test -s "$dest/share/zsh/site-functions/_$t"
  check "fish completion for $t is not empty" test -s "$dest/share/fish/vendor_completions.d/$t.fish"
  if command -v zsh > /dev/null 2>&1; then
    check "zsh -n _$t" zsh -n "$dest/share/zsh/site-functions/_$t"
    same "zsh compinit registers _$t from PREFIX/share/zsh/site-functions" "_$t" \
      "$(zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit && compinit -u -D && print -r -- ${_comps[$2]}' \
        zsh "$dest/share/zsh/site-functions" "$t" 2>&1)"
  else
    echo "skip: zsh is not installed, _$t not parsed"
  fi
  if command -v fish > /dev/null 2>&1; then
    check "fish -n $t.fish" fish --no-config -n "$dest/share/fish/vendor_completions.d/$t.fish"
  else
    echo "skip: fish is not installed, $t.fish not parsed"
  fi
done
# fish reads no config here (an empty HOME) but its own, which puts each
# $XDG_DATA_DIRS/fish/vendor_completions.d on the path; it loads a command's
# completions when the command is on PATH.
if command -v fish > /dev/null 2>&1; then
  mkdir -p "$tmp/home"
  same "fish loads juice-lint's from PREFIX/share and completes 'juice-lint ex'" "explain" \
    "$(env HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" XDG_DATA_DIRS="$dest/share" \
      PATH="$dest/bin:$PATH" fish -c 'complete -C "juice-lint ex" | string replace -r "\t.*" ""' 2>&1)"
fi

# A second install over the first: the same tree and manifest.
snapshot > "$tmp/installed"
if "$make" --no-print-directory install DESTDIR="$root" PREFIX="$prefix" > "$tmp/install2.log" 2>&1; then
  same "a second install changes nothing" "$(cat "$tmp/installed")" "$(snapshot)"
else
  fail "second make install"; tail -20 "$tmp/install2.log" >&2
fi

if "$make" --no-print-directory uninstall DESTDIR="$root" PREFIX="$prefix" > "$tmp/uninstall.log" 2>&1; then
  pass "make uninstall"
else
  fail "make uninstall"; tail -20 "$tmp/uninstall.log" >&2
fi
same "uninstall leaves the tree as it was" "$(cat "$tmp/before")" "$(snapshot)"
if "$make" --no-print-directory uninstall DESTDIR="$root" PREFIX="$prefix" > "$tmp/uninstall2.log" 2>&1; then
  fail "a second uninstall fails: nothing is installed"
else
  same "a second uninstall says nothing is installed" \
    "error: no $dest/share/juice-maker/install-manifest: nothing was installed with this DESTDIR and PREFIX" \
    "$(grep '^error:' "$tmp/uninstall2.log")"
fi

echo "install: $passed passed, $failed failed"
[ "$failed" = 0 ]
