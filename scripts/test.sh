#!/usr/bin/env bash
# `make test`: every suite docket has, as CI runs it on a fresh Debian 12 machine.
#   1. the release build (warnings are errors) and its tests;
#   2. the library's tests under AddressSanitizer + UndefinedBehaviorSanitizer (the
#      tool's are the release tree's), in a clang tree that also builds every libFuzzer
#      target;
#   3. a short run of each fuzz target from its seeds;
#   4. a consumer project built each way a C++ user consumes docket: the CMake package
#      and pkg-config files of `cmake --install`, the Debian package (installed into this
#      machine, removed after) and add_subdirectory (scripts/install_test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=${JOBS:-$(nproc)}
fuzz_seconds=${FUZZ_SECONDS:-10}

scripts/deps.sh

# Throwaway servers for the tests, PostgreSQL (scripts/pg-start.sh), DynamoDB Local
# (scripts/dynamodb-start.sh), the Cloud Firestore emulator (scripts/firestore-start.sh),
# RabbitMQ (scripts/rabbitmq-start.sh), the Pub/Sub emulator (scripts/pubsub-start.sh),
# NATS with JetStream (scripts/nats-start.sh), Redis (scripts/redis-start.sh) and the
# Cosmos DB test server (scripts/cosmos-start.sh), all stopped on any exit, each even when
# another fails to stop.
stop_servers() {
  local status=0
  scripts/pg-stop.sh || status=1
  scripts/dynamodb-stop.sh || status=1
  scripts/firestore-stop.sh || status=1
  scripts/rabbitmq-stop.sh || status=1
  scripts/pubsub-stop.sh || status=1
  scripts/nats-stop.sh || status=1
  scripts/redis-stop.sh || status=1
  scripts/cosmos-stop.sh || status=1
  return $status
}
trap stop_servers EXIT
DOCKET_TEST_POSTGRES_URL=$(scripts/pg-start.sh)
export DOCKET_TEST_POSTGRES_URL
DOCKET_TEST_DYNAMODB_URL=$(scripts/dynamodb-start.sh)
export DOCKET_TEST_DYNAMODB_URL
DOCKET_TEST_FIRESTORE_URL=$(scripts/firestore-start.sh)
export DOCKET_TEST_FIRESTORE_URL
DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)
export DOCKET_TEST_RABBITMQ_URL
DOCKET_TEST_PUBSUB_URL=$(scripts/pubsub-start.sh)
export DOCKET_TEST_PUBSUB_URL
DOCKET_TEST_NATS_URL=$(scripts/nats-start.sh)
export DOCKET_TEST_NATS_URL
DOCKET_TEST_REDIS_URL=$(scripts/redis-start.sh)
export DOCKET_TEST_REDIS_URL
DOCKET_TEST_COSMOS_URL=$(scripts/cosmos-start.sh)
export DOCKET_TEST_COSMOS_URL

step() { printf '\n==> %s\n' "$*"; }

# Line tables only (-g1), as `make run` builds it, so that one tree serves both:
# backtraces and sanitizer reports need no more, and full debug information costs
# minutes of the build on two cores.
step "release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
  -DDOCKET_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
step "release tests"
ctest --test-dir build --output-on-failure -j "$jobs" || {
  scripts/print-failed-tests.sh build
  exit 1
}

# The sanitizer tree is the library and its suites: the tool, its benchmarks and the
# tests that run it as a child process are the release tree's alone, which keeps the
# whole run well inside CI's time. Its reports need line tables alone (-g1), which
# build faster than full debug information. It is built by clang, so that the same
# tree builds the fuzz targets (tests/fuzz/): the libraries they parse with, every
# provider and the tool's command tree among them, are compiled once for both, with
# coverage hooks that are no-ops outside a fuzz target.
#
# The document providers (DynamoDB, Firestore) are built here for the fuzz targets
# (their store URL parsers) but tested in the release tree alone
# (DOCKET_TEST_PROVIDERS): under the sanitizers their suites spend most of their time
# waiting on the Java servers. What they share with every provider (the inbox, outbox,
# event and saga layers, the provider kit's units of work and write sets) runs under
# the sanitizers through the memory, SQLite and PostgreSQL providers.
step "sanitizer build (clang, ASan + UBSan, fuzz targets)"
CXX=clang++ cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
  -DDOCKET_WERROR=ON -DDOCKET_SANITIZE=ON -DDOCKET_BUILD_TOOL=OFF -DDOCKET_BUILD_FUZZ=ON \
  "-DDOCKET_TEST_PROVIDERS=memory;sqlite;postgres" >/dev/null
cmake --build build-asan -j "$jobs"
step "sanitizer tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" || {
  scripts/print-failed-tests.sh build-asan
  exit 1
}

# Every fuzz target, FUZZ_SECONDS each (10 by default), from its checked-in seeds into
# a corpus of this tree's; the long runs of docs/reliability.md are the same targets.
step "fuzz targets (${fuzz_seconds}s each)"
for fuzzer in build-asan/bin/fuzz_*; do
  corpus=build-asan/corpus/$(basename "$fuzzer")
  mkdir -p "$corpus"
  "$fuzzer" -max_total_time="$fuzz_seconds" -print_final_stats=1 "$corpus" \
    tests/fuzz/seeds/$(basename "$fuzzer") 2>&1 | tail -n 12
done

# The Debian package is made from the release tree built and tested above, not compiled
# again (scripts/install_test.sh says why; DOCKET_DEB_FRESH=1 compiles it).
step "install and build a consumer project (CMake package, pkg-config, .deb, add_subdirectory)"
scripts/install_test.sh build

printf '\nall tests passed\n'
