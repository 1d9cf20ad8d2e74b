#!/usr/bin/env bash
# Stops the NATS server that scripts/nats-start.sh started (same DOCKET_NATS_DIR) by the
# PID recorded in $DOCKET_NATS_DIR/server.pid (scripts/lib/server.sh: SIGTERM to its
# process group, SIGKILL after 20 s, waiting until it is gone), then removes
# $DOCKET_NATS_DIR. A server restarted in place (nats_local_server.h) wrote its own PID
# there (-P) and leads a session of its own, so it is the one stopped. Only a live
# process whose command line is this directory's server on the recorded port is
# signalled; processes are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/nats-env.sh"
server_stop
