#!/usr/bin/env bash
# Stops the throwaway cluster scripts/pg-start.sh started (same DOCKET_PG_DIR) by the
# PID in its postmaster.pid, waits until that process has exited, then removes
# $DOCKET_PG_DIR. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/pg-env.sh"

log() { printf 'pg-stop: %s\n' "$*" >&2; }

if [ ! -d "$pg_dir" ]; then
  exit 0
fi
pg_lock

pid=""
if [ -f "$pg_data/postmaster.pid" ]; then
  pid=$(head -n 1 "$pg_data/postmaster.pid")
fi

# Only a live postgres process with that PID is ours to stop: a stale file after a crash
# may name a PID the system has since given to something else.
is_our_postmaster() {
  [ -n "$pid" ] && [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = postgres ] &&
    [ "$(readlink -f "/proc/$pid/cwd" 2>/dev/null || true)" = "$(readlink -f "$pg_data")" ]
}

if is_our_postmaster; then
  # Fast shutdown: roll back open transactions, disconnect clients, checkpoint.
  if ! as_owner "$pg_bin/pg_ctl" stop -D "$pg_data" -m fast -w -t 60 >/dev/null; then
    log "pg_ctl stop failed; sending SIGQUIT to postmaster $pid"
    kill -QUIT "$pid" 2>/dev/null || true
  fi
  for _ in $(seq 1 600); do
    if ! kill -0 "$pid" 2>/dev/null; then
      break
    fi
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "postmaster $pid is still running after 60 s; not removing $pg_dir"
    exit 1
  fi
fi

rm -rf "$pg_dir"
