#!/usr/bin/env bash
# Starts a throwaway AWS DynamoDB Local (in memory) for docket's tests and prints, on
# stdout, the store URL to export as DOCKET_TEST_DYNAMODB_URL (also written to
# $DOCKET_DYNAMODB_DIR/url):
#
#   export DOCKET_TEST_DYNAMODB_URL=$(scripts/dynamodb-start.sh)
#
# Settings (environment): DOCKET_DYNAMODB_PORT (default 28000, below Linux's ephemeral ports), DOCKET_DYNAMODB_DIR
# (default /tmp/docket-dynamodb), DOCKET_DYNAMODB_CACHE (where dynamodb-install.sh puts
# the package). Installs the package first when needed (scripts/dynamodb-install.sh).
#
# Runs `java -Djava.library.path=. -jar DynamoDBLocal.jar -inMemory -sharedDb
# -disableTelemetry -port PORT` from the package's lib/dynamodb_local_* folder, records
# java's PID, and waits until the port answers HTTP (at most 60 s; fails as soon as
# java exits). Clients use 127.0.0.1; DynamoDB Local has no bind-address option and
# listens on every interface. Refuses a port something else holds. Idempotent: when
# this directory's server already runs on the port, prints its URL and exits 0.
# Stop it, by PID, with scripts/dynamodb-stop.sh.
set -euo pipefail
source "$(dirname "$0")/dynamodb-env.sh"

log() { printf 'dynamodb-start: %s\n' "$*" >&2; }
die() {
  log "$*"
  exit 1
}

[[ $ddb_port =~ ^[0-9]+$ ]] && [ "$ddb_port" -ge 1 ] && [ "$ddb_port" -le 65535 ] ||
  die "DOCKET_DYNAMODB_PORT is '$ddb_port'; set it to a TCP port number (1-65535)"

lib_dir=$("$ddb_scripts/dynamodb-install.sh")

mkdir -p "$ddb_dir"
ddb_lock

pid=$(ddb_recorded_pid)
if ddb_is_our_server "$pid" "$(cat "$ddb_port_file" 2>/dev/null || true)"; then
  if [ "$(cat "$ddb_port_file")" != "$ddb_port" ]; then
    die "the server of $ddb_dir (pid $pid) runs on port $(cat "$ddb_port_file"), not" \
      "$ddb_port; stop it with scripts/dynamodb-stop.sh or use another DOCKET_DYNAMODB_DIR"
  fi
  printf '%s\n' "$ddb_url" >"$ddb_url_file"
  printf '%s\n' "$ddb_url"
  exit 0
fi
rm -f "$ddb_pid_file" "$ddb_port_file" "$ddb_url_file"

if ddb_port_open "$ddb_port"; then
  die "127.0.0.1:$ddb_port is already in use by another process; set DOCKET_DYNAMODB_PORT"
fi

# exec: the background subshell becomes java, so $! is java's own PID. 9>&-: the server
# must not inherit (and so hold forever) the lock taken above.
(cd "$lib_dir" && exec java -Djava.library.path=. -jar DynamoDBLocal.jar \
  -inMemory -sharedDb -disableTelemetry -port "$ddb_port") >"$ddb_log" 2>&1 </dev/null 9>&- &
pid=$!
printf '%s\n' "$pid" >"$ddb_pid_file"
printf '%s\n' "$ddb_port" >"$ddb_port_file"

start=$SECONDS
until ddb_http_answers "$ddb_port"; do
  if ! ddb_alive "$pid"; then
    log "DynamoDB Local (pid $pid) exited during start-up; its log ($ddb_log) ends with:"
    tail -n 20 "$ddb_log" >&2 || true
    rm -f "$ddb_pid_file" "$ddb_port_file"
    exit 1
  fi
  if [ $((SECONDS - start)) -ge 60 ]; then
    log "DynamoDB Local (pid $pid) did not answer HTTP on 127.0.0.1:$ddb_port within 60 s;" \
      "stopping it. Its log ($ddb_log) ends with:"
    tail -n 20 "$ddb_log" >&2 || true
    exec 9>&-
    "$ddb_scripts/dynamodb-stop.sh" || true
    exit 1
  fi
  sleep 0.1
done

printf '%s\n' "$ddb_url" >"$ddb_url_file"
version=$(sed -n 's/^Version:[[:space:]]*//p' "$ddb_log" | head -n 1)
log "DynamoDB Local ${version:-?} (pid $pid, $(basename "$lib_dir")) ready at $ddb_url" \
  "after $((SECONDS - start)) s"
printf '%s\n' "$ddb_url"
