#!/usr/bin/env bash
# Starts a throwaway AWS DynamoDB Local (in memory) for docket's tests and prints, on
# stdout, the store URL to export as DOCKET_TEST_DYNAMODB_URL (also written to
# $DOCKET_DYNAMODB_DIR/url):
#
#   export DOCKET_TEST_DYNAMODB_URL=$(scripts/dynamodb-start.sh)
#
# Settings (environment): DOCKET_DYNAMODB_PORT (default 28000, below Linux's ephemeral
# ports), DOCKET_DYNAMODB_DIR (default /tmp/docket-dynamodb), DOCKET_DYNAMODB_CACHE (where
# dynamodb-install.sh puts the package). Installs the package first when needed.
#
# Runs `java -Djava.library.path=. -jar DynamoDBLocal.jar -inMemory -sharedDb
# -disableTelemetry -port PORT` from the package's lib/dynamodb_local_* folder and waits
# until the port answers HTTP (scripts/lib/server.sh: at most 60 s, failing as soon as
# java exits). Clients use 127.0.0.1; DynamoDB Local has no bind-address option and
# listens on every interface. Refuses a port something else holds. Idempotent: when
# this directory's server already runs on the port, prints its URL and exits 0.
# Stop it, by PID, with scripts/dynamodb-stop.sh.
set -euo pipefail
source "$(dirname "$0")/dynamodb-env.sh"

server_check_port DOCKET_DYNAMODB_PORT
lib_dir=$("$ddb_scripts/dynamodb-install.sh")
server_begin_start DOCKET_DYNAMODB_PORT DOCKET_DYNAMODB_DIR
server_launch "$lib_dir" java -Djava.library.path=. -jar DynamoDBLocal.jar \
  -inMemory -sharedDb -disableTelemetry -port "$server_port"
