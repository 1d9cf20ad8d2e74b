#!/usr/bin/env bash
# Stops the DynamoDB Local that scripts/dynamodb-start.sh started (same
# DOCKET_DYNAMODB_DIR) by the PID it recorded: SIGTERM, then SIGKILL after 20 s, and
# waits until that process is gone; then removes $DOCKET_DYNAMODB_DIR. Only a live
# DynamoDB Local java on the recorded port is signalled (a stale pid file may name a PID
# the system has since reused); processes are never stopped by name. Succeeds when
# there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/dynamodb-env.sh"

log() { printf 'dynamodb-stop: %s\n' "$*" >&2; }

if [ ! -d "$ddb_dir" ]; then
  exit 0
fi
ddb_lock

# Waits up to $2 tenths of a second for PID $1 to be gone.
wait_gone() {
  for _ in $(seq 1 "$2"); do
    ddb_alive "$1" || return 0
    sleep 0.1
  done
  ! ddb_alive "$1"
}

pid=$(ddb_recorded_pid)
if ddb_is_our_server "$pid" "$(cat "$ddb_port_file" 2>/dev/null || true)"; then
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_gone "$pid" 200; then
    log "DynamoDB Local (pid $pid) still runs 20 s after SIGTERM; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    if ! wait_gone "$pid" 50; then
      log "DynamoDB Local (pid $pid) is still running; not removing $ddb_dir"
      exit 1
    fi
  fi
fi

rm -rf "$ddb_dir"
