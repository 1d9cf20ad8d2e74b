#!/usr/bin/env bash
# Stops the Cloud Firestore emulator that scripts/firestore-start.sh started (same
# DOCKET_FIRESTORE_DIR) by the PID it recorded (scripts/lib/server.sh: SIGTERM to the
# process group of the launcher and its java, SIGKILL after 20 s, waiting until none is
# left), then removes $DOCKET_FIRESTORE_DIR. Only a live emulator launcher on the
# recorded port is signalled; processes are never stopped by name. Succeeds when there
# is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/firestore-env.sh"
server_stop
