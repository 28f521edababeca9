#!/bin/sh
# The neovim check (check.lua) on a temporary copy of the canonical book:
#   Tests/LanguageServer/nvim/run.sh .build/debug/juice-lint
# nvim runs headless with no user config, plugins or shada, and its state
# and log files go to the temporary folder. `timeout` is the last guard: a
# check that hangs fails instead of blocking `make test`.
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 PATH/TO/juice-lint" >&2
  exit 2
fi
case "$1" in
  /*) binary=$1 ;;
  *) binary=$(pwd)/$1 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)

command -v nvim >/dev/null 2>&1 || { echo "nvim check: nvim is not installed (make lsp-test-setup)" >&2; exit 1; }
[ -x "$binary" ] || { echo "nvim check: $binary is not built" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/book/recipes" "$tmp/xdg"
cp "$repo/recipes/fruits.yaml" "$repo/recipes/menu.yaml" "$tmp/book/recipes/"

status=0
env JUICE_LINT="$binary" BOOK="$tmp/book" \
  XDG_CONFIG_HOME="$tmp/xdg" XDG_DATA_HOME="$tmp/xdg" XDG_CACHE_HOME="$tmp/xdg" XDG_STATE_HOME="$tmp/xdg" \
  timeout 60 nvim --headless --clean -n -i NONE -c "luafile $here/check.lua" </dev/null || status=$?
if [ "$status" -ne 0 ]; then
  echo "nvim check: failed (status $status)" >&2
  if [ -s "$tmp/xdg/nvim/lsp.log" ]; then
    echo "nvim check: the end of nvim's LSP log:" >&2
    tail -20 "$tmp/xdg/nvim/lsp.log" >&2
  fi
fi
exit "$status"
