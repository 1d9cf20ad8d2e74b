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
# `dpkg -L google-cloud-cli-firestore-emulator`) and waits until GET / answers Ok
# (scripts/lib/server.sh: at most 60 s, failing as soon as the launcher exits). Fails,
# naming the package, when the emulator is not installed. Refuses a port something else
# holds. Idempotent: when this directory's server already runs on the port, prints its
# URL and exits 0. Stop it, by PID, with scripts/firestore-stop.sh.
set -euo pipefail
source "$(dirname "$0")/firestore-env.sh"

server_check_port DOCKET_FIRESTORE_PORT
launcher=$(fs_launcher)
[ -n "$launcher" ] ||
  server_die "the Cloud Firestore emulator is not installed: install the Debian package" \
    "$fs_package from Google's apt repository (scripts/deps.sh does)"
command -v java >/dev/null ||
  server_die "java is not installed; the Cloud Firestore emulator needs it" \
    "(openjdk-17-jre-headless)"
server_begin_start DOCKET_FIRESTORE_PORT DOCKET_FIRESTORE_DIR
server_launch "$server_dir" "$launcher" start --host=127.0.0.1 --port="$server_port"
