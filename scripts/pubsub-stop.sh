#!/usr/bin/env bash
# Stops the Cloud Pub/Sub emulator that scripts/pubsub-start.sh started (same
# DOCKET_PUBSUB_DIR) by the PID it recorded (scripts/lib/server.sh: SIGTERM to its
# process group, SIGKILL after 20 s, waiting until none is left), then removes
# $DOCKET_PUBSUB_DIR. Only a live emulator on the recorded port is signalled; processes
# are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/pubsub-env.sh"
server_stop
