#!/usr/bin/env bash
# Stops the RabbitMQ that scripts/rabbitmq-start.sh started (same DOCKET_RABBITMQ_DIR) by
# the PID it recorded (scripts/lib/server.sh: SIGTERM to its process group, which holds
# the broker's Erlang VM and its own epmd, SIGKILL after 20 s, waiting until both are
# gone), then removes $DOCKET_RABBITMQ_DIR. Only a live broker on the recorded port is
# signalled; processes are never stopped by name. Succeeds when there is nothing to stop.
set -euo pipefail
source "$(dirname "$0")/rabbitmq-env.sh"
server_stop
