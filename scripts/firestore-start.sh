#!/usr/bin/env bash
# Starts a throwaway Cloud Firestore emulator (in memory) for docket's tests and prints,
# on stdout, the store URL to export as DOCKET_TEST_FIRESTORE_URL (also written to
# $DOCKET_FIRESTORE_DIR/url):
#
#   export DOCKET_TEST_FIRESTORE_URL=$(scripts/firestore-start.sh)
#
# Settings (environment): DOCKET_FIRESTORE_PORT (default 28100, below Linux's ephemeral
# ports), DOCKET_FIRESTORE_DIR (default /tmp/docket-firestore).
#
# Runs `cloud_firestore_emulator start --host=127.0.0.1 --port=PORT` (found with
# `dpkg -L google-cloud-cli-firestore-emulator`) in a session of its own, records the
# launcher's PID (the process group's id), and waits until GET / answers Ok (at most
# 60 s; fails as soon as the launcher exits). Fails, naming the package, when the
# emulator is not installed. Refuses a port something else holds. Idempotent: when this
# directory's server already runs on the port, prints its URL and exits 0. Stop it, by
# PID, with scripts/firestore-stop.sh.
set -euo pipefail
source "$(dirname "$0")/firestore-env.sh"

log() { printf 'firestore-start: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

[[ $fs_port =~ ^[0-9]+$ ]] && [ "$fs_port" -ge 1 ] && [ "$fs_port" -le 65535 ] ||
  die "DOCKET_FIRESTORE_PORT is '$fs_port'; set it to a TCP port number (1-65535)"

launcher=$(fs_launcher)
[ -n "$launcher" ] ||
  die "the Cloud Firestore emulator is not installed: install the Debian package" \
    "$fs_package from Google's apt repository (scripts/deps.sh does)"
command -v java >/dev/null ||
  die "java is not installed; the Cloud Firestore emulator needs it (openjdk-17-jre-headless)"

mkdir -p "$fs_dir"
fs_lock

pid=$(fs_recorded_pid)
if fs_is_our_server "$pid" "$(cat "$fs_port_file" 2>/dev/null || true)"; then
  if [ "$(cat "$fs_port_file")" != "$fs_port" ]; then
    die "the server of $fs_dir (pid $pid) runs on port $(cat "$fs_port_file"), not" \
      "$fs_port; stop it with scripts/firestore-stop.sh or use another DOCKET_FIRESTORE_DIR"
  fi
  printf '%s\n' "$fs_url" >"$fs_url_file"
  printf '%s\n' "$fs_url"
  exit 0
fi
rm -f "$fs_pid_file" "$fs_port_file" "$fs_url_file"

if fs_port_open "$fs_port"; then
  die "127.0.0.1:$fs_port is already in use by another process; set DOCKET_FIRESTORE_PORT"
fi

# setsid: the launcher leads a new process group, so the stop script can signal it and
# its java child together. exec: $! is the launcher's own PID. 9>&-: the server must not
# inherit (and so hold forever) the lock taken above.
setsid bash -c 'exec "$@"' firestore "$launcher" start --host=127.0.0.1 --port="$fs_port" \
  >"$fs_log" 2>&1 </dev/null 9>&- &
pid=$!
printf '%s\n' "$pid" >"$fs_pid_file"
printf '%s\n' "$fs_port" >"$fs_port_file"

start=$SECONDS
until fs_ready "$fs_port"; do
  if ! fs_alive "$pid"; then
    log "the Firestore emulator (pid $pid) exited during start-up; its log ($fs_log) ends with:"
    tail -n 20 "$fs_log" >&2 || true
    rm -f "$fs_pid_file" "$fs_port_file"
    exit 1
  fi
  if [ $((SECONDS - start)) -ge 60 ]; then
    log "the Firestore emulator (pid $pid) did not answer Ok on 127.0.0.1:$fs_port within" \
      "60 s; stopping it. Its log ($fs_log) ends with:"
    tail -n 20 "$fs_log" >&2 || true
    exec 9>&-
    "$fs_scripts/firestore-stop.sh" || true
    exit 1
  fi
  sleep 0.1
done

printf '%s\n' "$fs_url" >"$fs_url_file"
log "Cloud Firestore emulator (pid $pid) ready at $fs_url after $((SECONDS - start)) s"
printf '%s\n' "$fs_url"
