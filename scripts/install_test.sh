#!/usr/bin/env bash
# Installs docket from an existing build tree into a throwaway prefix, then configures,
# builds and runs tests/install/consumer against it with find_package(docket CONFIG).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S tests/install/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" -j "${JOBS:-$(nproc)}" >/dev/null
"$work/consumer/consumer"
