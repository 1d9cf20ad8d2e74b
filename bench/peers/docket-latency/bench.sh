#!/usr/bin/env bash
# docket's side of the latency comparison with pg-transactional-outbox-latency/bench.mjs, on
# the same throwaway cluster (run through the peers harness: run.sh docket-latency).
# `docket bench latency` on PostgreSQL through the in-process transport: N messages a mode
# at RATE a second, woken (NOTIFY) and polled interleaved over ROUNDS rounds, then IDLE_S idle
# seconds a mode. DOCKET_BIN: the docket tool. Prints docket's one JSON object.
set -euo pipefail
bin="${DOCKET_BIN:-docket}"
url="${PG_URL/#postgres:\/\//postgresql://}"
echo "[docket-latency] $bin bench latency --store $url" >&2
exec "$bin" bench latency --store "$url" --messages "${N:-2000}" --rate "${RATE:-200}" \
  --rounds "${ROUNDS:-2}" --idle-seconds "${IDLE_S:-3}" --json
