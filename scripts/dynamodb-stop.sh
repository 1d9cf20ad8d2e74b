#!/usr/bin/env bash
# Stops the DynamoDB Local that scripts/dynamodb-start.sh started (same
# DOCKET_DYNAMODB_DIR) by the PID it recorded (scripts/lib/server.sh: SIGTERM to its
# process group, SIGKILL after 20 s, waiting until it is gone), then removes
# $DOCKET_DYNAMODB_DIR. Only a live DynamoDB Local on the recorded port is signalled;
# processes are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/dynamodb-env.sh"
server_stop
