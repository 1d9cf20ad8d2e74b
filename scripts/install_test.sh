#!/usr/bin/env bash
# Installs docket from an existing build tree into a throwaway prefix, then configures,
# builds and runs tests/install/consumer against it with find_package(docket CONFIG),
# and runs the installed docket tool.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S tests/install/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" -j "${JOBS:-$(nproc)}" >/dev/null
"$work/consumer/consumer"

# The tool is installed beside the library when the build tree has it.
if [ -x "$build/bin/docket" ]; then
  expected="inbox:acme:corp_42:MyApp.Handlers.OrderHandler"
  got=$("$work/prefix/bin/docket" keys inbox --provider firestore --tenant acme \
    --message-id corp_42 --handler MyApp.Handlers.OrderHandler)
  if [ "$got" != "$expected" ]; then
    echo "install_test: installed docket printed '$got', expected '$expected'" >&2
    exit 1
  fi
  echo "installed docket: $got"
fi
