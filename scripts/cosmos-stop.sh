#!/usr/bin/env bash
# Stops the Cosmos DB test server that scripts/cosmos-start.sh started (same
# DOCKET_COSMOS_DIR) by the PID it recorded (scripts/lib/server.sh: SIGTERM to its process
# group, SIGKILL after 20 s, waiting until none is left), then removes $DOCKET_COSMOS_DIR
# with its certificate. Only a live server on the recorded port is signalled; processes
# are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/cosmos-env.sh"
server_stop
