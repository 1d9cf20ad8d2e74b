#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 cluster for docket's tests and prints, on stdout, the
# URL to export as DOCKET_TEST_POSTGRES_URL (also written to $DOCKET_PG_DIR/url):
#
#   export DOCKET_TEST_POSTGRES_URL=$(scripts/pg-start.sh)
#
# Settings (environment): DOCKET_PG_DIR (default /tmp/docket-pg), DOCKET_PG_PORT (default
# 55432), DOCKET_PG_BIN (default /usr/lib/postgresql/15/bin).
# The server listens on 127.0.0.1:$DOCKET_PG_PORT and a socket directory of its own, with
# fsync on (benchmarks measure durable commits); role `docket` (trust on loopback) owns
# database `docket`. Idempotent: when it already runs, prints the URL and exits 0.
# Stop it and remove everything with scripts/pg-stop.sh.
set -euo pipefail
source "$(dirname "$0")/pg-env.sh"

log() { printf 'pg-start: %s\n' "$*" >&2; }

if [ ! -x "$pg_bin/initdb" ]; then
  log "no PostgreSQL binaries in $pg_bin; run scripts/deps.sh (Debian package postgresql)"
  exit 1
fi

mkdir -p "$pg_dir"
pg_lock

if pg_running; then
  printf '%s\n' "$pg_url" >"$pg_url_file"
  printf '%s\n' "$pg_url"
  exit 0
fi

# A data directory without PG_VERSION is a failed earlier initdb: start over.
if [ ! -f "$pg_data/PG_VERSION" ]; then
  rm -rf "$pg_data" "$pg_socket"
  mkdir -p "$pg_data" "$pg_socket"
  chmod 700 "$pg_data"
  chown "$pg_owner" "$pg_dir" "$pg_data" "$pg_socket"
  log "initdb in $pg_data"
  as_owner "$pg_bin/initdb" -D "$pg_data" -U postgres --auth=trust --no-sync --encoding=UTF8 \
    --locale=C.UTF-8 >"$pg_dir/initdb.log" 2>&1 || {
    cat "$pg_dir/initdb.log" >&2
    exit 1
  }
  as_owner tee -a "$pg_data/postgresql.conf" >/dev/null <<EOF

# docket test cluster (scripts/pg-start.sh)
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$pg_socket'
max_connections = 200
fsync = on
synchronous_commit = on
full_page_writes = on
EOF
  # Loopback only; nothing else may connect.
  as_owner tee "$pg_data/pg_hba.conf" >/dev/null <<EOF
# TYPE  DATABASE  USER  ADDRESS        METHOD
local   all       all                  trust
host    all       all   127.0.0.1/32   trust
EOF
fi

touch "$pg_log"
chown "$pg_owner" "$pg_log"
# 9>&-: the server must not inherit (and so hold forever) the lock taken above.
if ! as_owner "$pg_bin/pg_ctl" start -D "$pg_data" -l "$pg_log" -w -t 60 >/dev/null 9>&-; then
  log "the server did not start; its log ($pg_log) ends with:"
  tail -n 20 "$pg_log" >&2
  exit 1
fi

psql_admin() {
  "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$pg_socket" -p "$pg_port" -U postgres "$@"
}
psql_admin -d postgres <<'EOF'
SELECT 'CREATE ROLE docket LOGIN CREATEDB'
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'docket') \gexec
SELECT 'CREATE DATABASE docket OWNER docket ENCODING ''UTF8'''
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'docket') \gexec
EOF

printf '%s\n' "$pg_url" >"$pg_url_file"
log "PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') ready at $pg_url (data in $pg_dir)"
printf '%s\n' "$pg_url"
