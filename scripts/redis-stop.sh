#!/usr/bin/env bash
# Stops the Redis server that scripts/redis-start.sh started (same DOCKET_REDIS_DIR) by
# the PID recorded in $DOCKET_REDIS_DIR/server.pid (scripts/lib/server.sh: SIGTERM to its
# process group, SIGKILL after 20 s, waiting until it is gone), then removes
# $DOCKET_REDIS_DIR. Only a live process whose command line is this directory's server on
# the recorded port is signalled; processes are never stopped by name. Succeeds when
# there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/redis-env.sh"
server_stop
