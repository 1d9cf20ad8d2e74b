#!/usr/bin/env bash
# Stops the Cloud Firestore emulator that scripts/firestore-start.sh started (same
# DOCKET_FIRESTORE_DIR) by the PID it recorded: SIGTERM to its whole process group (the
# launcher and its java), then SIGKILL after 20 s, and waits until no process of that
# group is left; then removes $DOCKET_FIRESTORE_DIR. Only a live emulator launcher on the
# recorded port is signalled (a stale pid file may name a PID the system has since
# reused); processes are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/firestore-env.sh"

log() { printf 'firestore-stop: %s\n' "$*" >&2; }

if [ ! -d "$fs_dir" ]; then
  exit 0
fi
fs_lock

# Waits up to $2 tenths of a second for process group $1 to be empty.
wait_gone() {
  for _ in $(seq 1 "$2"); do
    [ -z "$(fs_group_members "$1")" ] && return 0
    sleep 0.1
  done
  [ -z "$(fs_group_members "$1")" ]
}

pid=$(fs_recorded_pid)
if fs_is_our_server "$pid" "$(cat "$fs_port_file" 2>/dev/null || true)"; then
  # The launcher leads its group (setsid), so -PID names the launcher and its java.
  kill -TERM -- "-$pid" 2>/dev/null || true
  if ! wait_gone "$pid" 200; then
    log "the Firestore emulator (group $pid) still runs 20 s after SIGTERM; sending SIGKILL"
    kill -KILL -- "-$pid" 2>/dev/null || true
    if ! wait_gone "$pid" 50; then
      log "the Firestore emulator (group $pid) is still running; not removing $fs_dir"
      exit 1
    fi
  fi
fi

rm -rf "$fs_dir"
