#!/usr/bin/env bash
# Starts a throwaway Cloud Pub/Sub emulator for docket's tests and prints, on stdout,
# the transport URL to export as DOCKET_TEST_PUBSUB_URL (also written to
# $DOCKET_PUBSUB_DIR/url):
#
#   export DOCKET_TEST_PUBSUB_URL=$(scripts/pubsub-start.sh)
#
# Settings (environment): DOCKET_PUBSUB_PORT (default 28500, below Linux's ephemeral
# ports), DOCKET_PUBSUB_DIR (default /tmp/docket-pubsub; the emulator's data lives in
# its data/ directory).
#
# Runs `cloud-pubsub-emulator --host=127.0.0.1 --port=PORT --dir=DIR/data` (found with
# `dpkg -L google-cloud-cli-pubsub-emulator`) and waits until GET / answers Ok
# (scripts/lib/server.sh: at most 60 s, failing as soon as the launcher exits). Fails,
# naming the package, when the emulator is not installed. Refuses a port something else
# holds. Idempotent: when this directory's server already runs on the port, prints its
# URL and exits 0. Stop it, by PID, with scripts/pubsub-stop.sh.
set -euo pipefail
source "$(dirname "$0")/pubsub-env.sh"

server_check_port DOCKET_PUBSUB_PORT
launcher=$(ps_launcher)
[ -n "$launcher" ] ||
  server_die "the Cloud Pub/Sub emulator is not installed: install the Debian package" \
    "$ps_package from Google's apt repository (scripts/deps.sh does)"
command -v java >/dev/null ||
  server_die "java is not installed; the Cloud Pub/Sub emulator needs it" \
    "(openjdk-17-jre-headless)"
server_begin_start DOCKET_PUBSUB_PORT DOCKET_PUBSUB_DIR
mkdir -p "$server_dir/data"
server_launch "$server_dir" "$launcher" --host=127.0.0.1 --port="$server_port" \
  --dir="$server_dir/data"
